use super::*;
use crate::bench::POSITIONS as BENCH;
use crate::value::{is_mate, MATE};
use crate::{Control, Engine, EngineOptions, Info, Limits, Silent};
use ply_chess::{Move, Position};
use std::sync::Mutex;

/// Openings after eight moves (every 530th line of the 8-move book of `../shared/chess/books`).
const OPENINGS: [&str; 12] = [
    "r1bqk2r/ppp3bp/2np2p1/4Pp2/1PP3n1/2N1PN2/P3BPPP/R1BQK2R w KQkq - 3 9",
    "rn1qkb1r/pp1b1ppp/1n1pp3/4P3/3P4/1B3N2/PP3PPP/RNBQK2R w KQkq - 4 9",
    "r1bqk2r/1pp1npbp/p2p1np1/3Pp3/P3P3/2N1BP2/1PPQ2PP/R3KBNR w KQkq - 1 9",
    "rn1qk2r/ppp1ppbp/2b3p1/8/8/2P2NP1/P2PPPBP/R1BQ1RK1 w kq - 2 9",
    "r3kb1r/ppp2ppp/2nqpn2/8/3P4/2N1BQ1P/PPP2PP1/R3KB1R w KQkq - 0 9",
    "rnb1kb1r/2q2ppp/pp1ppn2/8/2PNP3/2N1B1P1/PP3P1P/R2QKB1R w KQkq - 0 9",
    "r2qkb1r/pp1npppp/2p5/3n4/3P2b1/5N2/PPP1BPPP/RNBQ1RK1 w kq - 6 9",
    "r1bqkb1r/pp3ppp/n2p1n2/4p3/2P1P3/1Q3N1P/PP3PP1/RNB1KB1R w KQkq - 3 9",
    "rn1qkb1r/1bp2ppp/p3pn2/8/PpBP4/4PN2/1P2QPPP/RNB2RK1 w kq - 4 9",
    "r3kb1r/pp1q2pp/n1p1bp2/3p1p2/3P4/2NBPQ2/PPP1NPPP/R3K2R w KQkq - 6 9",
    "r1b1k2r/ppp2ppp/2nq1n2/1Bb1p3/4P3/P1N2N2/1P1P1PPP/R1BQ1RK1 w kq - 5 9",
    "rnb1k2r/pp2qppp/2pb4/3p4/3Pn3/3B1Q1P/PPP1NPP1/RNB2RK1 w kq - 3 9",
];

/// Tactics (WAC 4, 8, 12 and 25).
const TACTICS: [&str; 4] = [
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
    "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
    "3R1rk1/8/5Qpp/2p5/2P1p1q1/P3P3/1P2PK2/8 b - - 0 1",
];

/// The 30 positions of the tests: the bench's, the openings and the tactics.
fn positions() -> Vec<Position> {
    BENCH
        .iter()
        .chain(&OPENINGS)
        .chain(&TACTICS)
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect()
}

fn engine(strength: Option<Strength>) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 2,
        ..EngineOptions::default()
    });
    engine.set_strength(strength);
    engine
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The move a fresh engine at `strength` plays in `pos` within `limits`.
fn play(strength: Option<Strength>, pos: &Position, limits: &Limits) -> Move {
    let best = engine(strength)
        .think(pos, &[], limits, &Control::new(), &Silent)
        .best;
    assert!(pos.is_legal(best), "{best} in {}", pos.to_fen());
    best
}

#[test]
fn levels_search_more_and_err_less_as_they_rise() {
    for level in 0..Strength::MAX_LEVEL {
        let (a, b) = (
            Strength::from_level(level, 1),
            Strength::from_level(level + 1, 1),
        );
        assert!(!a.is_full());
        assert!(a.max_depth() <= b.max_depth(), "{level}");
        assert!(a.max_nodes() < b.max_nodes(), "{level}");
        assert!(a.mistake_chance() > b.mistake_chance(), "{level}");
        assert!(a.max_loss() > b.max_loss(), "{level}");
    }
    let weakest = Strength::from_level(0, 1);
    assert_eq!(
        (weakest.max_depth(), weakest.max_nodes(), weakest.max_loss()),
        (2, 1024, 390)
    );
    let full = Strength::from_level(25, 1);
    assert!(full.is_full());
    assert_eq!((full.mistake_chance(), full.max_loss()), (0.0, 0));
    assert_eq!(Strength::from_elo(0, 1).level(), 0.0);
    assert_eq!(Strength::from_elo(Strength::MIN_ELO, 1).level(), 0.0);
    for (elo, level) in Strength::ELO_SCALE {
        assert!((Strength::from_elo(elo, 1).level() - level).abs() < 1e-9);
    }
    // between two points, on the line between them; the scale only rises
    let (a, b) = (Strength::ELO_SCALE[1], Strength::ELO_SCALE[2]);
    let mid = Strength::from_elo((a.0 + b.0) / 2, 1).level();
    assert!((mid - (a.1 + b.1) / 2.0).abs() < 0.05, "{mid}");
    let levels: Vec<f64> = (1300..=Strength::MAX_ELO + 100)
        .step_by(10)
        .map(|e| Strength::from_elo(e, 1).level())
        .collect();
    assert!(levels.windows(2).all(|w| w[0] <= w[1]));
    let top = Strength::ELO_SCALE[Strength::ELO_SCALE.len() - 1].0;
    assert!(Strength::from_elo(top, 1).is_full());
    assert!(Strength::from_elo(Strength::MAX_ELO, 1).is_full());
    assert!(Strength::from_elo(9999, 1).is_full());
    assert!(!Strength::from_elo(top - 1, 1).is_full());
    assert_eq!(Strength::from_level(3, 1).with_seed(9).seed(), 9);
    assert_eq!(Strength::from_level(3, 1).with_seed(9).level(), 3.0);
}

#[test]
fn choices_stay_within_the_bound_and_err_more_often_at_low_levels() {
    let sets: [&[i32]; 5] = [
        &[50, 40, -20, -400],
        &[0, -5, -10, -15, -20, -25],
        &[MATE - 3, 100, 90, 80],
        &[30, 25, -(MATE - 2), -(MATE - 4)],
        &[-(MATE - 6), -(MATE - 4), -(MATE - 2)],
    ];
    let mut previous = u32::MAX;
    for level in [0, 5, 10, 15, 19, 20] {
        let strength = Strength::from_level(level, 1);
        let mut mistakes = 0;
        for key in 0..2000u64 {
            for scores in sets {
                let i = strength.choose(scores, key);
                assert!(i < scores.len().min(Strength::LINES), "{level} {scores:?}");
                assert!(
                    scores[0] - scores[i] <= strength.max_loss(),
                    "level {level} played {} for {}",
                    scores[i],
                    scores[0]
                );
                assert_eq!(i, strength.choose(scores, key), "deterministic");
                if scores[0] > 0 && is_mate(scores[0]) {
                    assert_eq!(i, 0, "a found mate is played");
                }
                mistakes += u32::from(i != 0);
            }
            assert_eq!(strength.choose(&[10], key), 0);
            assert_eq!(strength.choose(&[], key), 0);
        }
        assert!(
            mistakes <= previous,
            "level {level}: {mistakes} > {previous}"
        );
        previous = mistakes;
        if level < Strength::MAX_LEVEL {
            assert!(mistakes > 0, "level {level} never errs");
        } else {
            assert_eq!(mistakes, 0);
        }
    }
}

#[test]
fn the_same_seed_repeats_its_moves_and_other_seeds_and_games_differ() {
    let positions = positions();
    let limits = Limits::default();
    let moves = |seed: u64| -> Vec<Move> {
        let strength = Some(Strength::from_level(2, seed));
        positions
            .iter()
            .map(|pos| play(strength, pos, &limits))
            .collect()
    };
    let first = moves(1);
    assert_eq!(first, moves(1));
    let second = moves(2);
    assert_ne!(first, second);
    // the next game of the same engine draws other mistakes
    let mut engine = engine(Some(Strength::from_level(2, 1)));
    engine.new_game();
    let next_game: Vec<Move> = positions
        .iter()
        .map(|pos| {
            engine
                .think(pos, &[], &limits, &Control::new(), &Silent)
                .best
        })
        .collect();
    assert_ne!(first, next_game);
}

/// Average loss, in centipawns, of the moves played at each level against a full-strength
/// search to depth 8 of 30 positions, two seeds each: a move's loss is the full search's score
/// less the score of the same search restricted to the move (both clamped to ±1,000).
#[test]
fn weaker_levels_lose_more_centipawns() {
    const REFERENCE: i32 = 8;
    let levels = [0u32, 5, 10, 20];
    let clamp = |score: i32| score.clamp(-1000, 1000);
    let mut losses = [0i64; 4];
    let mut samples = 0;
    for pos in positions() {
        let mut reference = engine(None);
        let full = reference.think(&pos, &[], &depth(REFERENCE), &Control::new(), &Silent);
        let mut scored: Vec<(Move, i32)> = vec![(full.best, full.score)];
        for seed in [3u64, 4] {
            for (k, &level) in levels.iter().enumerate() {
                let m = play(
                    Some(Strength::from_level(level, seed)),
                    &pos,
                    &depth(REFERENCE),
                );
                let score = match scored.iter().find(|(s, _)| *s == m) {
                    Some(&(_, score)) => score,
                    None => {
                        let only = Limits {
                            searchmoves: vec![m],
                            ..depth(REFERENCE)
                        };
                        let score = reference
                            .think(&pos, &[], &only, &Control::new(), &Silent)
                            .score;
                        scored.push((m, score));
                        score
                    }
                };
                losses[k] += i64::from((clamp(full.score) - clamp(score)).max(0));
            }
            samples += 1;
        }
    }
    let average: Vec<f64> = losses.iter().map(|&l| l as f64 / samples as f64).collect();
    println!("average centipawn loss at levels {levels:?}: {average:?} ({samples} moves each)");
    assert_eq!(losses[3], 0, "level 20 is the reference search");
    for k in 1..levels.len() {
        assert!(
            average[k - 1] >= average[k],
            "level {} loses {} and level {} {}",
            levels[k - 1],
            average[k - 1],
            levels[k],
            average[k]
        );
    }
    assert!(
        average[0] > average[2] + 20.0,
        "level 0 is clearly worse than level 10: {average:?}"
    );
}

/// Every level mates in one when it can (a found mate is played as found) and meets a mate
/// threat (a two-ply search sees it);
/// the upper half of the levels keeps an attacked queen.
#[test]
fn levels_do_not_miss_mate_in_one_or_drop_the_queen() {
    let mate = Position::from_fen("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1").unwrap();
    // Black threatens ...Rd1 mate on the back rank
    let threat = Position::from_fen("3r2k1/5ppp/8/8/8/8/1R3PPP/6K1 w - - 0 1").unwrap();
    // the c3 pawn attacks the black queen on d4
    let queen =
        Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/3qP3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 3")
            .unwrap();
    // the levels' own caps up to depth 6 (level 5), the same depth for the levels above
    let limits = depth(6);
    for level in 0..Strength::MAX_LEVEL {
        for seed in 0..5 {
            let strength = Some(Strength::from_level(level, seed));
            let m = play(strength, &mate, &limits);
            assert!(
                mate.play(m).is_checkmate(),
                "level {level} seed {seed}: {m}"
            );
            let m = play(strength, &threat, &limits);
            let after = threat.play(m);
            assert!(
                after
                    .legal_moves()
                    .iter()
                    .all(|&reply| !after.play(reply).is_checkmate()),
                "level {level} seed {seed}: {m} allows mate"
            );
            if level >= 10 {
                let m = play(strength, &queen, &limits);
                let after = queen.play(m);
                let reference =
                    engine(None).think(&after, &[], &depth(6), &Control::new(), &Silent);
                // White (to move) does not win the queen
                assert!(
                    reference.score < 500,
                    "level {level} seed {seed}: {m} leaves White {}",
                    reference.score
                );
            }
        }
    }
}

/// A weakened search reports the lines MultiPV asks for (not the four it searches), and its
/// last line is the move it plays.
#[test]
fn a_weakened_search_shows_the_lines_asked_for_and_ends_on_the_move_played() {
    for pos in positions().iter().take(20) {
        for seed in 0..3 {
            let mut engine = engine(Some(Strength::from_level(0, seed)));
            let infos = Mutex::new(Vec::new());
            let record = |info: &Info| infos.lock().unwrap().push(info.clone());
            let r = engine.think(pos, &[], &Limits::default(), &Control::new(), &record);
            let infos = infos.into_inner().unwrap();
            assert!(infos.iter().all(|i| i.multipv == 1));
            let last = infos.last().expect("a line");
            assert_eq!(last.pv[0], r.best, "{}", pos.to_fen());
            assert_eq!(last.score, r.score);
            assert_eq!(last.pv.get(1).copied(), r.ponder);
        }
    }
}

#[test]
fn full_strength_is_no_limit() {
    let pos = Position::from_fen(BENCH[3]).unwrap();
    let plain = engine(None).think(&pos, &[], &depth(7), &Control::new(), &Silent);
    let mut top = engine(Some(Strength::from_level(20, 5)));
    assert_eq!(top.strength(), None);
    let r = top.think(&pos, &[], &depth(7), &Control::new(), &Silent);
    assert_eq!(
        (plain.best, plain.score, plain.nodes),
        (r.best, r.score, r.nodes)
    );
    top.set_strength(Some(Strength::from_level(4, 5)));
    assert_eq!(top.strength(), Some(Strength::from_level(4, 5)));
    top.set_strength(None);
    assert_eq!(top.strength(), None);
}

/// From [`Strength::SINGLE_LINE_FROM`] up, a move drawn without a mistake is the plain search
/// under the level's caps (same move, score and nodes); a move drawn with one, and every move
/// below that level, searches more lines than the plain search does.
#[test]
fn top_levels_search_one_line_unless_a_mistake_is_drawn() {
    let pos = Position::from_fen(BENCH[3]).unwrap();
    let limits = depth(7);
    let capped = |strength: Strength| Limits {
        depth: Some(strength.max_depth().min(7)),
        nodes: Some(strength.max_nodes()),
        ..Limits::default()
    };
    let (mut single, mut lines) = (0, 0);
    for level in [5u32, 14, 15, 17, 19] {
        for seed in 0..12u64 {
            let strength = Strength::from_level(level, seed);
            let key = strength.key(0, pos.hash());
            let top = f64::from(level) >= Strength::SINGLE_LINE_FROM;
            let plain = engine(None).think(&pos, &[], &capped(strength), &Control::new(), &Silent);
            let weak = engine(Some(strength)).think(&pos, &[], &limits, &Control::new(), &Silent);
            if strength.searches_lines(key) {
                assert!(
                    !top || strength.draws_mistake(key),
                    "level {level} seed {seed}"
                );
                assert!(weak.nodes > plain.nodes, "level {level} seed {seed}");
                lines += 1;
            } else {
                assert!(top && !strength.draws_mistake(key));
                assert_eq!(
                    (plain.best, plain.score, plain.nodes),
                    (weak.best, weak.score, weak.nodes),
                    "level {level} seed {seed}"
                );
                single += 1;
            }
        }
    }
    assert!(
        single > 0 && lines > 24,
        "{single} single-line and {lines} wider searches"
    );
}
