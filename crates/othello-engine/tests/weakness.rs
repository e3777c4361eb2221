//! The loss allowance ([`Weakness`]) and the named strength levels ([`STRENGTHS`]): the same
//! seed plays the same moves, other seeds other moves, never an illegal one; with ratio 0 (or
//! a draw that does not fire) the engine plays as without it; the discs given away, measured
//! against a deeper all-moves search, grow with the allowance and shrink level by level.
//! Nothing here is timed; the searches are shallow (levels 1 to 12 on 26 to 42 empties).

use ply_othello::{Board, Square};
use ply_othello_engine::{Engine, EngineOptions, Limits, Weakness, STRENGTHS};
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

/// Level of the reference search that measures the discs a move gives away.
const REFERENCE_LEVEL: u8 = 10;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        weights: None,
    })
}

fn level(l: u8) -> Limits {
    Limits {
        level: Some(l),
        ..Limits::default()
    }
}

/// `n` positions with at least two legal moves, reached by seeded random games and taken at
/// 26, 30, ..., 42 empties in turn.
fn positions(n: usize) -> Vec<Board> {
    let targets = [26, 30, 34, 38, 42];
    let mut out = Vec::new();
    let mut state: u64 = 0x1234_5678;
    let mut k = 0;
    while out.len() < n {
        let target = targets[k % targets.len()];
        k += 1;
        let mut b = Board::start();
        loop {
            let moves = b.moves();
            if moves == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b.pass();
                continue;
            }
            if 64 - (b.player() | b.opponent()).count_ones() == target {
                if moves.count_ones() >= 2 {
                    out.push(b);
                }
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let i = (state >> 33) % u64::from(moves.count_ones());
            let sq = Square::iter(moves).nth(i as usize).expect("a legal move");
            b.play(sq.index());
        }
    }
    out
}

/// A position and every move's score by the reference search, best first.
type Scored = (Board, Vec<(Square, i32)>);

/// The test positions with their reference scores.
fn reference() -> &'static [Scored] {
    static REFERENCE: OnceLock<Vec<Scored>> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let mut e = engine();
        let limits = Limits {
            all_moves: true,
            ..level(REFERENCE_LEVEL)
        };
        positions(48)
            .into_iter()
            .map(|b| {
                let o = e.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
                let scores = o.moves.iter().map(|m| (m.square, m.score)).collect();
                (b, scores)
            })
            .collect()
    })
}

/// Mean discs given away (by the reference scores) by the moves played at `lvl` under the
/// allowances `weakness(seed)` for the seeds `0..seeds`, over the reference positions.
fn mean_loss(lvl: u8, seeds: u64, weakness: impl Fn(u64) -> Weakness) -> f64 {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let (mut total, mut count) = (0i64, 0u32);
    for seed in 0..seeds {
        for (b, scores) in reference() {
            let o = e.think_weakened(b, &level(lvl), &weakness(seed), &stop, &mut |_| {});
            let played = scores
                .iter()
                .find(|m| m.0 == o.best)
                .expect("a scored move");
            total += i64::from(scores[0].1 - played.1);
            count += 1;
        }
    }
    total as f64 / f64::from(count)
}

fn weakness(max_loss: i32, ratio: f64, seed: u64) -> Weakness {
    Weakness::new(max_loss, ratio, seed).expect("in range")
}

#[test]
fn ratio_zero_or_a_draw_that_does_not_fire_plays_as_the_plain_engine() {
    let stop = AtomicBool::new(false);
    let (mut plain, mut weak) = (engine(), engine());
    let mut unfired = 0;
    for (i, b) in positions(16).iter().enumerate() {
        let offs = [
            weakness(20, 0.0, i as u64),
            weakness(20, 0.5, i as u64),
            Weakness::default(),
        ];
        for w in offs.iter().filter(|w| !w.fires(b)) {
            unfired += 1;
            plain.new_game();
            weak.new_game();
            let p2 = plain.think(b, &level(3), &stop, &mut |_| {});
            let q = weak.think_weakened(b, &level(3), w, &stop, &mut |_| {});
            assert_eq!(
                (q.best, q.score, q.nodes),
                (p2.best, p2.score, p2.nodes),
                "{w:?}"
            );
        }
    }
    assert!(unfired > 32, "{unfired}");
}

/// The moves played from the first 16 test positions (fresh engine) under `w`.
fn choices(w: &Weakness) -> Vec<Square> {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    positions(16)
        .iter()
        .map(|b| e.think_weakened(b, &level(2), w, &stop, &mut |_| {}).best)
        .collect()
}

#[test]
fn the_same_seed_plays_the_same_moves_and_other_seeds_others() {
    let runs: Vec<Vec<Square>> = (0..6).map(|s| choices(&weakness(8, 1.0, s))).collect();
    for (s, run) in runs.iter().enumerate() {
        assert_eq!(run, &choices(&weakness(8, 1.0, s as u64)), "seed {s}");
        for (t, other) in runs.iter().enumerate().skip(s + 1) {
            assert_ne!(run, other, "seeds {s} and {t}");
        }
    }
}

/// A game at level 1 under `w`, its seed advanced after every move: the moves, all legal.
fn game(w: Weakness) -> Vec<Square> {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let (mut b, mut w, mut moves) = (Board::start(), w, Vec::new());
    while !b.is_game_over() {
        let o = e.think_weakened(&b, &level(1), &w, &stop, &mut |_| {});
        w = w.next();
        if b.moves() == 0 {
            assert_eq!(o.best, Square::PASS);
            b.pass();
        } else {
            assert!(b.moves() & o.best.bit() != 0, "{} illegal", o.best);
            assert_eq!(o.pv.first(), Some(&o.best));
            b.play(o.best.index());
        }
        moves.push(o.best);
    }
    moves
}

#[test]
fn whole_games_are_legal_repeat_with_their_seed_and_vary_with_it() {
    let games: Vec<Vec<Square>> = (0..4).map(|s| game(weakness(64, 1.0, s))).collect();
    assert_eq!(games[0], game(weakness(64, 1.0, 0)));
    for i in 0..games.len() {
        for j in i + 1..games.len() {
            assert_ne!(games[i], games[j], "games {i} and {j}");
        }
    }
    // a weaker allowance too, and a forced move stays forced
    game(weakness(3, 0.3, 9));
    let forced = Board::new(0b10, 0b100).expect("a board");
    let mut e = engine();
    let o = e.think_weakened(
        &forced,
        &level(1),
        &weakness(64, 1.0, 1),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(o.best, Square::D1);
}

#[test]
fn the_discs_given_away_grow_with_the_allowance_and_its_ratio() {
    // level 2 alone gives away some discs against level 10; the allowance adds to it
    let by_loss: Vec<f64> = [0, 4, 12, 32]
        .iter()
        .map(|&m| mean_loss(2, 8, |s| weakness(m, 1.0, s)))
        .collect();
    assert!(by_loss.windows(2).all(|w| w[0] < w[1]), "{by_loss:?}");
    let by_ratio: Vec<f64> = [0.0, 0.3, 0.6, 1.0]
        .iter()
        .map(|&r| mean_loss(2, 8, |s| weakness(8, r, s)))
        .collect();
    assert!(by_ratio.windows(2).all(|w| w[0] < w[1]), "{by_ratio:?}");
    assert!(by_loss[3] > by_loss[0] + 4.0, "{by_loss:?}");
}

#[test]
fn each_named_level_gives_away_fewer_discs_than_the_one_before() {
    // the last level (ply's default level, no allowance) is the plain engine: not searched
    // here, its search is the costliest
    let weak = &STRENGTHS[..STRENGTHS.len() - 1];
    assert!(STRENGTHS[STRENGTHS.len() - 1].weakness(0).is_off());
    let losses: Vec<f64> = weak
        .iter()
        .map(|st| mean_loss(st.level, 3, |s| st.weakness(s)))
        .collect();
    assert!(losses.windows(2).all(|w| w[0] > w[1]), "{losses:?}");
}
