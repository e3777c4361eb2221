use ply_chess::*;
#[test]
fn smoke() {
    let p = Position::startpos();
    for (d, n) in [(1, 20), (2, 400), (3, 8902), (4, 197281)] {
        assert_eq!(perft(&p, d), n);
    }
    let k =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    for (d, n) in [(1, 48), (2, 2039), (3, 97862), (4, 4085603)] {
        assert_eq!(perft(&k, d), n, "kiwi {d}");
    }
}
