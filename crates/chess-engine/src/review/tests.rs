use super::*;
use crate::value::MATE;
use crate::{mate_in, EngineOptions};
use ply_chess::pgn;
use std::sync::Arc;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mib: 8,
        ..EngineOptions::default()
    })
}

fn limits() -> Limits {
    Limits {
        nodes: Some(30_000),
        ..Limits::default()
    }
}

fn game_of(fen: Option<&str>, san: &[&str]) -> Game {
    let start = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
    let mut game = Game::new(start);
    for s in san {
        game.play_san(s).unwrap();
    }
    game
}

fn run(engine: &mut Engine, game: &Game) -> GameReview {
    let mut calls = Vec::new();
    let r = review(engine, game, &limits(), &Cancel::new(), &mut |d, t| {
        calls.push((d, t))
    })
    .unwrap();
    let n = game.moves().len() + 1;
    assert_eq!(calls, (1..=n).map(|d| (d, n)).collect::<Vec<_>>());
    r
}

/// The scholar's mate: Black's 3...Nf6 allows mate in one (a blunder), White's Qxf7# is best
/// with a mate-in-one score; the game ends in checkmate.
#[test]
fn a_move_that_allows_mate_is_a_blunder_and_the_mate_is_best() {
    let game = game_of(None, &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    let r = run(&mut engine(), &game);
    assert_eq!(r.moves.len(), 7);
    let nf6 = &r.moves[5];
    assert_eq!(nf6.ply, 6);
    assert_eq!(nf6.mover(), Color::Black);
    assert_eq!(nf6.judgement, Judgement::Blunder, "{nf6:?}");
    assert_eq!(mate_in(nf6.score_played), Some(-1), "{nf6:?}");
    assert!(nf6.expected_played < 0.01 && nf6.loss > 0.3, "{nf6:?}");
    assert_ne!(nf6.best, nf6.played);
    assert_eq!(nf6.pv.first(), Some(&nf6.best));
    assert_eq!(nf6.cp_loss, capped_cp(nf6.score_best) + CP_CAP);
    let mate = &r.moves[6];
    assert_eq!(mate.judgement, Judgement::Best, "{mate:?}");
    assert_eq!(mate_in(mate.score_best), Some(1));
    assert_eq!(mate.score_played, mate.score_best);
    assert_eq!(mate.loss, 0.0);
    assert_eq!(mate.score_after, -MATE);
    // White made no error, Black one
    assert_eq!(r.count(Color::Black, Judgement::Blunder), 1);
    assert_eq!(r.count(Color::White, Judgement::Blunder), 0);
    let (w, b) = (r.accuracy[0].unwrap(), r.accuracy[1].unwrap());
    assert!(w > b + 10.0, "accuracy {w} vs {b}");
    assert!(r.acpl[1].unwrap() > r.acpl[0].unwrap());
}

/// 3.Qxe5+?? gives the queen away to the knight on c6.
#[test]
fn hanging_the_queen_is_a_blunder() {
    let game = game_of(None, &["e4", "e5", "Qh5", "Nc6", "Qxe5+", "Nxe5"]);
    let r = run(&mut engine(), &game);
    let qxe5 = &r.moves[4];
    assert_eq!(qxe5.judgement, Judgement::Blunder, "{qxe5:?}");
    assert!(qxe5.score_played < -500, "{qxe5:?}");
    assert!(qxe5.cp_loss > 500);
    // taking the queen is what the engine would play
    assert_eq!(r.moves[5].judgement, Judgement::Best, "{:?}", r.moves[5]);
    for m in &r.moves[..4] {
        assert!(!m.judgement.is_error(), "{m:?}");
    }
}

/// A king in a corner with one square to go: the move is forced, never blamed, even though the
/// position is lost.
#[test]
fn forced_moves_are_not_blamed() {
    let game = game_of(
        Some("7k/8/8/8/8/8/6r1/K7 w - - 0 1"),
        &["Kb1", "Rg1+", "Kc2"],
    );
    let r = run(&mut engine(), &game);
    let kb1 = &r.moves[0];
    assert!(kb1.forced);
    assert_eq!(kb1.judgement, Judgement::Best);
    assert_eq!((kb1.loss, kb1.cp_loss), (0.0, 0));
    assert!(!r.moves[1].forced);
}

/// Moves that keep a won game won are not blunders, even when the score drops a lot.
#[test]
fn a_decided_game_stays_decided() {
    // White is a queen and a rook up; a quiet rook move instead of the fastest win
    let game = game_of(
        Some("6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1"),
        &["h3", "h6", "Kh2"],
    );
    let r = run(&mut engine(), &game);
    for m in &r.moves {
        assert!(m.judgement <= Judgement::Inaccuracy, "{m:?}");
    }
}

/// With the tables, a move that turns a won KRvK into a draw is a blunder by the tables' verdict.
#[test]
fn tablebase_results_judge_exactly() {
    let Some(dir) = ply_testkit::shared("syzygy/tables") else {
        return;
    };
    let tb = ply_syzygy::Tablebase::open(dir.to_str().unwrap()).expect("tables");
    let mut engine = engine();
    engine.set_tablebase(Some(Arc::new(tb)));
    // Rc3?? puts the rook next to the black king, undefended
    let game = game_of(Some("8/8/8/8/3k4/8/8/2R1K3 w - - 0 1"), &["Rc3", "Kxc3"]);
    let r = run(&mut engine, &game);
    let rc3 = &r.moves[0];
    assert!(rc3.exact, "{rc3:?}");
    assert_eq!(rc3.judgement, Judgement::Blunder);
    assert_eq!(rc3.loss, 0.5);
    let kxc3 = &r.moves[1];
    assert!(kxc3.exact);
    assert!(!kxc3.judgement.is_error(), "{kxc3:?}");
    // a winning rook move keeps the win: not an error
    let game = game_of(Some("8/8/8/8/3k4/8/8/2R1K3 w - - 0 1"), &["Rc8"]);
    let r = run(&mut engine, &game);
    assert!(r.moves[0].exact);
    assert!(!r.moves[0].judgement.is_error());
}

/// A cancel raised before the review, or during a search, cancels it; the search under way stops
/// at once.
#[test]
fn a_cancelled_review_stops() {
    let game = game_of(None, &["e4"]);
    let cancel = Cancel::new();
    cancel.cancel();
    let e = review(&mut engine(), &game, &limits(), &cancel, &mut |_, _| {});
    assert_eq!(e, Err(ReviewError::Cancelled));
    // a search of a billion nodes, cancelled from another thread after 200 ms
    let long = Limits {
        nodes: Some(1_000_000_000),
        ..Limits::default()
    };
    let cancel = Cancel::new();
    let started = std::time::Instant::now();
    let e = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            cancel.cancel();
        });
        review(&mut engine(), &game, &long, &cancel, &mut |_, _| {})
    });
    assert_eq!(e, Err(ReviewError::Cancelled));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the search went on after the cancel: {:?}",
        started.elapsed()
    );
}

/// The annotated game reads back through the rules crate's PGN reader: the same moves, the
/// blunder's `??` glyph, `[%eval]` comments, the better line as a variation.
#[test]
fn the_annotated_pgn_reads_back() {
    let text = "[Event \"test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 {develops} Nf6 4. Qxf7# 1-0\n";
    let pgn = pgn::read(text).next().unwrap().unwrap();
    let r = run(&mut engine(), &pgn.game());
    let annotated = annotate(&pgn, &r, "ply-chess test");
    let written = annotated.to_string();
    let back = pgn::read(&written).next().unwrap().unwrap();
    assert_eq!(back.line, annotated.line, "{written}");
    assert_eq!(back.result, annotated.result);
    assert_eq!(back.tag("Annotator"), Some("ply-chess test"));
    assert_eq!(back.tag("Event"), Some("test"));
    let moves = &back.line.moves;
    assert_eq!(moves.len(), 7);
    assert!(moves[4].comments.iter().any(|c| c == "develops"));
    assert_eq!(moves[5].nags, vec![4]);
    assert!(moves[5].comments[0].starts_with("Blunder. "), "{written}");
    assert!(moves[5].comments[0].contains("[%eval #1]"), "{written}");
    assert_eq!(moves[5].variations.len(), 1);
    assert_eq!(moves[5].variations[0].moves[0].mv, r.moves[5].best);
    assert!(moves[0].comments[0].starts_with("[%eval "));
    // no eval after the mate
    assert!(moves[6].comments.is_empty(), "{written}");
    assert!(
        back.line.comments[0].contains("White: accuracy"),
        "{written}"
    );
}
