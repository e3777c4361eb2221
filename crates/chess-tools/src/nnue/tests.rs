//! Tests of the NNUE trainer: packed records, features, gradients, learning, determinism and
//! the quantised file. Positions come from seeded random games made here (no outside data).

use super::dataset::Dataset;
use super::model::{Model, Shape, Sparse, Target, Vector, INPUTS, MIRRORED};
use super::packed::{Outcome, PackedError, PackedPosition, RECORD_BYTES};
use super::quantise::{NetworkError, Quantised};
use super::train::{Config, QuantCheck, Trainer};
use ply_chess::{Color, Position, Role};
use ply_testkit::XorShift64;

/// Positions of seeded random games (up to 120 plies each, restarted when a game ends).
fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = XorShift64::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut pos = Position::startpos();
    let mut ply = 0;
    while out.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() || ply >= 120 {
            pos = Position::startpos();
            ply = 0;
            continue;
        }
        // prefer captures half of the time, so material changes hands
        let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
        let m = if !captures.is_empty() && rng.next().is_multiple_of(2) {
            captures[rng.below(captures.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        pos = pos.play(m);
        ply += 1;
        out.push(pos);
    }
    out
}

/// White's material in centipawns minus Black's (P 100, N 300, B 300, R 500, Q 900).
fn material(pos: &Position) -> i32 {
    let value = [100, 300, 300, 500, 900, 0];
    Role::ALL
        .iter()
        .map(|&r| {
            value[r.index()]
                * (pos.count(Color::White, r) as i32 - pos.count(Color::Black, r) as i32)
        })
        .sum()
}

/// Records of random positions, scored by `score`, in games of 10 positions.
fn dataset(seed: u64, count: usize, score: impl Fn(&Position) -> i32) -> Dataset {
    let records = random_positions(seed, count)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let outcome = [Outcome::BlackWin, Outcome::Draw, Outcome::WhiteWin][i % 3];
            PackedPosition::from_position(p, score(p), outcome, (i / 10) as u64)
                .unwrap()
                .encode()
        })
        .collect();
    Dataset::from_records(records).unwrap()
}

#[test]
fn records_round_trip_and_keep_the_board() {
    for (i, pos) in random_positions(11, 3000).iter().enumerate() {
        let outcome = [Outcome::BlackWin, Outcome::Draw, Outcome::WhiteWin][i % 3];
        let packed =
            PackedPosition::from_position(pos, i as i32 - 1500, outcome, i as u64).unwrap();
        let bytes = packed.encode();
        assert_eq!(bytes.len(), RECORD_BYTES);
        let back = PackedPosition::decode(&bytes).unwrap();
        assert_eq!(back, packed);
        // the FEN of the record is the same board, side and en-passant square
        let again = Position::from_fen(&back.fen()).unwrap();
        assert_eq!(again.occupied(), pos.occupied());
        assert_eq!(again.side_to_move(), pos.side_to_move());
        assert_eq!(again.ep_square(), pos.ep_square());
        for sq in pos.occupied() {
            assert_eq!(again.piece_at(sq), pos.piece_at(sq));
        }
    }
}

#[test]
fn bad_records_are_errors() {
    let pos = Position::startpos();
    let good = PackedPosition::from_position(&pos, 0, Outcome::Draw, 0)
        .unwrap()
        .encode();
    let mut b = good;
    b[8] = (b[8] & 0xf0) | 6; // a1 holds code 6
    assert!(matches!(
        PackedPosition::decode(&b),
        Err(PackedError::PieceCode { code: 6, square: 0 })
    ));
    let mut b = good;
    b[26] |= 3 << 1;
    assert_eq!(PackedPosition::decode(&b), Err(PackedError::Result(3)));
    let mut b = good;
    b[26] |= 8;
    assert_eq!(PackedPosition::decode(&b), Err(PackedError::UnusedBits));
    let mut b = good;
    b[27] = 5;
    assert_eq!(PackedPosition::decode(&b), Err(PackedError::EnPassant(5)));
    let mut b = good;
    b[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(
        PackedPosition::decode(&b),
        Err(PackedError::TooManyPieces(64))
    );
    let mut b = good;
    b[0] = 0xfe; // a1 empty: the codes shift and the kings are miscounted or a code is left over
    assert!(PackedPosition::decode(&b).is_err());
    assert_eq!(
        PackedPosition::from_position(&pos, 40000, Outcome::Draw, 0),
        Err(PackedError::Score(40000))
    );
    // random bytes: an answer, never a panic
    let mut rng = XorShift64::new(5);
    for _ in 0..20000 {
        let mut r = [0u8; RECORD_BYTES];
        for x in r.iter_mut() {
            *x = rng.next() as u8;
        }
        let _ = PackedPosition::decode(&r);
    }
}

#[test]
fn features_follow_the_spec() {
    for pos in random_positions(3, 300) {
        let rec = PackedPosition::from_position(&pos, 0, Outcome::Draw, 0)
            .unwrap()
            .encode();
        let s = Sparse::from_record(&rec);
        let mut want: [Vec<u16>; 2] = [vec![], vec![]];
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).unwrap();
            for (persp, list) in want.iter_mut().enumerate() {
                let s = if persp == 1 {
                    sq.index() ^ 56
                } else {
                    sq.index()
                };
                let f = 384 * usize::from(p.color.index() != persp) + 64 * p.role.index() + s;
                list.push(f as u16);
            }
        }
        assert_eq!(&s.white[..s.len], &want[0][..]);
        assert_eq!(&s.black[..s.len], &want[1][..]);
        assert_eq!(s.stm, pos.side_to_move().index());
    }
}

#[test]
fn gradient_matches_finite_differences() {
    let data = dataset(7, 24, |p| material(p) + 37);
    let idx: Vec<u32> = (0..data.len() as u32).collect();
    let shape = Shape {
        hidden: 16,
        buckets: 2,
    };
    let mut model = Model::new(shape, 9);
    // random biases too, so every parameter kind is tested
    let mut rng = XorShift64::new(1);
    for p in &mut model.params[shape.ft_bias()..] {
        *p = ((rng.next() % 1000) as f32 / 1000.0 - 0.3) * 0.5;
    }
    let target = Target {
        k: 400.0,
        lambda: 0.7,
    };
    let mut grad = vec![0.0; shape.params()];
    model.gradient(&data, &idx, target, Some(&mut grad));
    // active feature rows of the first position, the biases and the output weights
    let first = Sparse::from_record(data.record(0));
    let mut checked = Vec::new();
    for &f in &first.white[..first.len] {
        checked.extend((0..16).map(|i| f as usize * 16 + i));
    }
    checked.extend(shape.ft_bias()..shape.params());
    let eps = 1e-3;
    for &i in &checked {
        let mut m = model.clone();
        m.params[i] += eps;
        let up = m.gradient(&data, &idx, target, None);
        m.params[i] -= 2.0 * eps;
        let down = m.gradient(&data, &idx, target, None);
        let numeric = (up - down) / (2.0 * f64::from(eps));
        let analytic = f64::from(grad[i]);
        assert!(
            (numeric - analytic).abs() <= 2e-4 + 0.03 * analytic.abs(),
            "parameter {i}: numeric {numeric}, analytic {analytic}"
        );
    }
    assert!(checked.len() > 300);
}

#[test]
fn every_vector_width_gives_the_same_gradient_bits() {
    let data = dataset(11, 64, |p| material(p) * 3 - 20);
    let idx: Vec<u32> = (0..data.len() as u32).collect();
    let target = Target {
        k: 400.0,
        lambda: 0.6,
    };
    let widths = Vector::available();
    // hidden 40 leaves a tail after the 16-float registers; 64 fills them
    for hidden in [40, 64] {
        let shape = Shape { hidden, buckets: 4 };
        let mut model = Model::new(shape, 3);
        let mut rng = XorShift64::new(5);
        for p in &mut model.params[shape.ft_bias()..] {
            *p = ((rng.next() % 1000) as f32 / 1000.0 - 0.3) * 0.5;
        }
        let mut want = vec![0.0f32; shape.params()];
        let want_loss = model.gradient_on(Vector::Portable, &data, &idx, target, Some(&mut want));
        assert!(want_loss > 0.0 && want.iter().any(|g| *g != 0.0));
        for &v in &widths {
            let mut got = vec![0.0f32; shape.params()];
            let loss = model.gradient_on(v, &data, &idx, target, Some(&mut got));
            assert_eq!(
                loss.to_bits(),
                want_loss.to_bits(),
                "{v:?} loss, hidden {hidden}"
            );
            let differ = got
                .iter()
                .zip(&want)
                .filter(|(a, b)| a.to_bits() != b.to_bits());
            assert_eq!(differ.count(), 0, "{v:?} gradient, hidden {hidden}");
            let only_loss = model.gradient_on(v, &data, &idx, target, None);
            assert_eq!(only_loss.to_bits(), want_loss.to_bits());
        }
        assert_eq!(
            model.gradient(&data, &idx, target, None).to_bits(),
            want_loss.to_bits()
        );
    }
    println!("vector widths checked: {widths:?}");
}

fn tiny_config(threads: usize) -> Config {
    let mut c = Config {
        shape: Shape {
            hidden: 32,
            buckets: 2,
        },
        epochs: 30,
        batch: 256,
        threads,
        seed: 42,
        val_fraction: 0.1,
        ..Config::default()
    };
    c.target.lambda = 1.0;
    c.optim.lr = 0.01;
    c
}

#[test]
fn a_tiny_network_learns_material() {
    let data = dataset(21, 4000, material);
    let (train, held) = data.split(0.1);
    assert!(!held.is_empty() && train.len() > 3000);
    let mut trainer = Trainer::new(tiny_config(2)).unwrap();
    let start = trainer.loss(&data, &held);
    let mut last = None;
    for _ in 0..trainer.config.epochs {
        last = trainer
            .run_epoch(&data, &train, &held, |_| {})
            .unwrap()
            .val_loss;
    }
    let end = last.unwrap();
    assert!(end < start / 10.0, "held-out loss {start} -> {end}");
    // in centipawns, where the sigmoid is not flat: well within a pawn on the positions it fitted
    // (3600 positions are too few for 768 independent piece-square inputs to generalise far)
    let errors: Vec<f64> = train
        .iter()
        .map(|&i| Sparse::from_record(data.record(i as usize)))
        .filter(|s| s.score_stm.abs() <= 300.0)
        .map(|s| (f64::from(trainer.model.evaluate(&s)) - f64::from(s.score_stm)).abs())
        .collect();
    let error = errors.iter().sum::<f64>() / errors.len() as f64;
    eprintln!(
        "held-out loss {start} -> {end}, mean error {error} cp on {} positions",
        errors.len()
    );
    assert!(error < 50.0, "mean error {error} cp");
    // and the quantised network agrees with the float one
    let net = Quantised::from_model(&trainer.model);
    let check = QuantCheck::measure(&trainer.model, &net, &data, &held);
    assert!(check.passes(), "{check:?}");
    assert!(check.mean < 10.0, "{check:?}");
}

#[test]
fn training_is_deterministic_and_resumes_exactly() {
    let data = dataset(5, 1500, material);
    let (train, held) = data.split(0.05);
    let run = |threads, epochs| {
        let mut t = Trainer::new(tiny_config(threads)).unwrap();
        for _ in 0..epochs {
            t.run_epoch(&data, &train, &held, |_| {}).unwrap();
        }
        t
    };
    let a = run(3, 2);
    let b = run(3, 2);
    assert_eq!(a.checkpoint(), b.checkpoint());
    assert_eq!(
        Quantised::from_model(&a.model).to_bytes(),
        Quantised::from_model(&b.model).to_bytes()
    );
    // one epoch, a checkpoint, a resume and a second epoch = two epochs at once
    let one = run(3, 1);
    let mut resumed = Trainer::resume(tiny_config(3), &one.checkpoint()).unwrap();
    resumed.run_epoch(&data, &train, &held, |_| {}).unwrap();
    assert_eq!(resumed.checkpoint(), a.checkpoint());
    // damaged or foreign checkpoints are refused
    let mut bytes = a.checkpoint();
    bytes[100] ^= 1;
    assert!(Trainer::resume(tiny_config(3), &bytes).is_err());
    let mut other = tiny_config(3);
    other.seed = 1;
    assert!(Trainer::resume(other, &a.checkpoint()).is_err());
    assert!(Trainer::resume(tiny_config(3), &bytes[..40]).is_err());
}

#[test]
fn network_file_round_trips_and_rejects_damage() {
    let shape = Shape {
        hidden: 32,
        buckets: 4,
    };
    let net = Quantised::from_model(&Model::new(shape, 3));
    let bytes = net.to_bytes();
    assert_eq!(
        bytes.len(),
        32 + 2 * (INPUTS * 32 + 32 + 2 * 32 * 4) + 4 * 4 + 8
    );
    assert_eq!(&bytes[..8], b"PLYNNUE2");
    assert_eq!(Quantised::from_bytes(&bytes), Ok(net));
    let mut bad = bytes.clone();
    bad[40] ^= 1;
    assert_eq!(Quantised::from_bytes(&bad), Err(NetworkError::Checksum));
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert_eq!(Quantised::from_bytes(&bad), Err(NetworkError::Magic));
    let mut bad = bytes.clone();
    bad[16] = 0;
    assert!(matches!(
        Quantised::from_bytes(&bad),
        Err(NetworkError::Header { field: "QA", .. })
    ));
    for len in [0, 7, 31, 32, 100, bytes.len() - 1] {
        assert!(Quantised::from_bytes(&bytes[..len]).is_err());
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(Quantised::from_bytes(&long).is_err());
}

#[test]
fn conversion_reads_datagen_lines_and_names_bad_ones() {
    let scratch = ply_testkit::Scratch::new("nnue-convert");
    let dir = scratch.path();
    let text = dir.join("a.txt");
    let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
    std::fs::write(&text, format!("{fen};-31;0.5;7\n\n{fen};12;1;8\n")).unwrap();
    let out = dir.join("a.bin");
    let summary = super::dataset::convert(std::slice::from_ref(&text), &out, |_| {}).unwrap();
    assert_eq!(summary.positions, 2);
    let data = Dataset::load(std::slice::from_ref(&out), |_| {}).unwrap();
    assert_eq!(data.len(), 2);
    let first = PackedPosition::decode(data.record(0)).unwrap();
    assert_eq!(
        (first.score, first.outcome, first.game),
        (-31, Outcome::Draw, 7)
    );
    assert_eq!(first.stm, Color::Black);
    assert_eq!(first.ep.map(|s| s.to_string()), Some("e3".to_string()));
    std::fs::write(&text, format!("{fen};-31;0.5;7\n{fen};x;1;8\n")).unwrap();
    let err = super::dataset::convert(std::slice::from_ref(&text), &out, |_| {}).unwrap_err();
    assert!(err.to_string().contains(":2: bad score"), "{err}");
    std::fs::write(&out, [0u8; 33]).unwrap();
    assert!(Dataset::load(std::slice::from_ref(&out), |_| {}).is_err());
    std::fs::write(&out, [0u8; 32]).unwrap();
    assert!(Dataset::load(&[out], |_| {}).is_err());
}

#[test]
fn the_engine_reads_the_file_and_evaluates_as_the_trainer() {
    // a network with trained (not just random) weights, all four buckets in use
    let data = dataset(13, 2000, material);
    let (train, held) = data.split(0.1);
    let mut config = tiny_config(2);
    config.shape.buckets = 4;
    config.epochs = 4;
    let mut trainer = Trainer::new(config).unwrap();
    for _ in 0..config.epochs {
        trainer.run_epoch(&data, &train, &held, |_| {}).unwrap();
    }
    let quantised = Quantised::from_model(&trainer.model);
    let bytes = quantised.to_bytes();
    let engine = ply_chess_engine::Network::from_bytes(&bytes).unwrap();
    assert_eq!(engine.to_bytes(), bytes);
    let (mut sum, mut n) = (0.0, 0);
    for (i, pos) in random_positions(17, 1000).iter().enumerate() {
        let rec = PackedPosition::from_position(pos, 0, Outcome::Draw, i as u64)
            .unwrap()
            .encode();
        let s = Sparse::from_record(&rec);
        let int = engine.evaluate(pos);
        assert_eq!(
            int,
            quantised.evaluate(&s),
            "{}",
            ply_chess::Position::to_fen(pos)
        );
        sum += (f64::from(trainer.model.evaluate(&s)) - f64::from(int)).abs();
        n += 1;
    }
    let mean = sum / f64::from(n);
    assert!(mean <= 10.0, "mean |float - engine| {mean} cp");
}

#[test]
fn mirrored_features_are_those_of_the_mirrored_board() {
    // the same position with every rank written backwards (castling rights dropped)
    let pairs = [
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 2 3",
            "rnbkqb1r/ppp1pppp/5n2/3p4/3P4/2N5/PPP1PPPP/R1BKQBNR w - - 2 3",
        ),
        (
            "8/5k2/8/2Pp4/8/8/1K6/8 b - - 0 40",
            "8/2k5/8/4pP2/8/8/6K1/8 b - - 0 40",
        ),
    ];
    for (fen, mirrored) in pairs {
        let sparse = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let rec = PackedPosition::from_position(&pos, 17, Outcome::Draw, 0)
                .unwrap()
                .encode();
            Sparse::from_record(&rec)
        };
        let (mut a, b) = (sparse(fen), sparse(mirrored));
        a.mirror();
        let sorted = |v: &[u16]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(
            sorted(&a.white[..a.len]),
            sorted(&b.white[..b.len]),
            "{fen}"
        );
        assert_eq!(
            sorted(&a.black[..a.len]),
            sorted(&b.black[..b.len]),
            "{fen}"
        );
        assert_eq!(
            (a.stm, a.score_stm, a.result_stm),
            (b.stm, b.score_stm, b.result_stm)
        );
        a.mirror();
        assert_eq!(a.white, sparse(fen).white);
    }
}

#[test]
fn mirroring_marks_about_half_of_an_epoch_and_keeps_its_order() {
    let data = dataset(5, 2000, material);
    let (train, _) = data.split(0.0);
    let config = |mirror| Config {
        mirror,
        shape: Shape {
            hidden: 16,
            buckets: 1,
        },
        ..Config::default()
    };
    let plain = Trainer::new(config(false)).unwrap().epoch_order(&train, 3);
    let marked = Trainer::new(config(true)).unwrap().epoch_order(&train, 3);
    let flagged = marked.iter().filter(|&&e| e & MIRRORED != 0).count();
    assert!((800..1200).contains(&flagged), "{flagged} of 2000 mirrored");
    let stripped: Vec<u32> = marked.iter().map(|&e| e & !MIRRORED).collect();
    assert_eq!(stripped, plain);
}

#[test]
fn a_run_from_a_network_starts_at_its_weights() {
    // the built-in network: its weights come back exactly from the trainer's floats
    let shipped = Quantised::from_bytes(ply_chess_engine::nnue::EMBEDDED).unwrap();
    let config = Config {
        shape: shipped.shape,
        ..Config::default()
    };
    let t = Trainer::from_network(config, &shipped).unwrap();
    assert_eq!(t.epoch, 0);
    assert_eq!(Quantised::from_model(&t.model), shipped);
    let mut other = config;
    other.shape.hidden = 32;
    assert!(matches!(
        Trainer::from_network(other, &shipped),
        Err(super::train::TrainError::Mismatch(_))
    ));

    // a tiny network trained on material: a run from its file starts at its loss, far below a
    // fresh run's, and goes on learning
    let data = dataset(23, 2000, material);
    let (train, held) = data.split(0.1);
    let mut first = Trainer::new(tiny_config(2)).unwrap();
    let fresh = first.loss(&data, &held);
    for _ in 0..10 {
        first.run_epoch(&data, &train, &held, |_| {}).unwrap();
    }
    let net = Quantised::from_model(&first.model);
    let mut config = tiny_config(2);
    config.optim.lr = 0.002;
    let mut tuned = Trainer::from_network(config, &net).unwrap();
    let start = tuned.loss(&data, &held);
    let trained = first.loss(&data, &held);
    assert!(
        (start - trained).abs() < 0.05 * trained && start < fresh / 4.0,
        "fresh {fresh}, trained {trained}, from the file {start}"
    );
    let mut end = start;
    for _ in 0..5 {
        end = tuned
            .run_epoch(&data, &train, &held, |_| {})
            .unwrap()
            .val_loss
            .unwrap();
    }
    assert!(end < start, "fine-tuning: {start} -> {end}");
}
