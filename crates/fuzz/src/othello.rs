//! Othello input paths: OBF, GGF, WTHOR records, evaluation weight files (ply's format and
//! Edax's `eval.dat`), label and opening files, and the three text protocols (GTP, NBoard, the
//! Edax-style console). Each harness checks what must hold of whatever parses.

use ply_cli_support::{ByteLines, NotUtf8};
use ply_othello::{parse_ggf, parse_obf, perft, perft_reference, to_ggf, Position};
use ply_othello_cli::protocol::{GtpSession, NboardSession, TextSession};
use ply_othello_engine::eval::{parse_weights, weights::Weights};
use ply_othello_engine::{Engine, EngineOptions};
use std::cell::RefCell;
use std::path::Path;

/// Checks one parsed position: its board text parses back to it, and the move generator's
/// perft(3) equals the reference.
fn check_position(pos: &Position) {
    let text = format!("{} {}", pos.board_string(), side_char(pos));
    let again: Position = text
        .parse()
        .unwrap_or_else(|e| panic!("board text does not parse back: {text}: {e}"));
    assert_eq!(again.board, pos.board, "board text round trip: {text}");
    assert_eq!(
        perft(pos.board, 3),
        perft_reference(pos.board, 3),
        "perft(3) fast path != reference: {text}"
    );
}

fn side_char(pos: &Position) -> char {
    match pos.side {
        ply_othello::Color::Black => 'X',
        ply_othello::Color::White => 'O',
    }
}

/// An OBF file (`<board> <side>; <move>:<score>; ...` lines).
pub fn obf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(list) = parse_obf(&text) {
        for o in list.iter().take(4) {
            check_position(&o.position);
            let _ = (o.best_moves(), o.best_score());
        }
    }
}

/// A GGF record: what parses is written back and read again to the same game.
pub fn ggf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(g) = parse_ggf(&text) {
        let written = to_ggf(&g.game);
        let again = parse_ggf(&written)
            .unwrap_or_else(|e| panic!("GGF written by to_ggf does not parse: {written}: {e}"));
        assert_eq!(again.game.moves(), g.game.moves(), "GGF round trip moves");
        assert_eq!(
            again.game.start().board,
            g.game.start().board,
            "GGF round trip start"
        );
    }
}

/// A WTHOR `.wtb` file: parse, then replay every game (illegal records are errors, not panics).
pub fn wthor(data: &[u8]) {
    if let Ok(file) = ply_othello::wthor::parse(data, Path::new("fuzz.wtb")) {
        for game in file.games.iter().take(16) {
            for p in game.replay().map_while(Result::ok) {
                let _ = p.mover_position();
            }
        }
    }
}

/// An evaluation weight file in either format: what parses must be well formed, and its runtime
/// tables must evaluate a few positions exactly as the packed reference does.
pub fn weights(data: &[u8]) {
    let Ok(packed) = parse_weights(data) else {
        return;
    };
    assert!(
        packed.is_well_formed(),
        "parsed weights are not well formed"
    );
    let w = Weights::new(&packed);
    let mut pos = Position::start();
    for _ in 0..20 {
        let (p, o) = (pos.board.player(), pos.board.opponent());
        assert_eq!(
            w.evaluate_board(p, o),
            packed.evaluate_reference(p, o),
            "runtime evaluation != packed reference"
        );
        let Some(first) = ply_othello::Square::first(pos.board.moves()) else {
            break;
        };
        pos.play(first);
    }
}

/// A label file (`ply-othello datagen` output or annotated OBF lines), as `train --labels`
/// reads it.
pub fn labels(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = ply_othello_tools::train::parse_labels(&text, Path::new("fuzz.txt"));
}

/// An openings file (one move list a line), as `ply-othello match --openings` reads it.
pub fn openings(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = ply_othello_tools::matchplay::parse_openings(&text);
}

/// Node cap of every search in the protocol sessions.
const SESSION_NODES: u64 = 3_000;

thread_local! {
    /// One engine per thread whose weights every session shares (building the runtime tables
    /// costs milliseconds); each session gets tables of its own.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// A fresh engine (1 MiB of tables) sharing the thread's weights.
fn engine() -> Engine {
    ENGINE.with(|e| {
        e.borrow_mut()
            .get_or_insert_with(|| {
                Engine::new(EngineOptions {
                    hash_mib: 1,
                    threads: 1,
                    weights: None,
                })
            })
            .sibling(1)
    })
}

/// Lines of a session read from the raw bytes by the binary's own reader (a line that is not
/// UTF-8 is an `Err`, to be reported by the session): at most 32, so that one input stays fast.
fn session_lines(data: &[u8]) -> impl Iterator<Item = Result<String, NotUtf8>> + '_ {
    ByteLines::new(data).take(32)
}

/// Checks that a bad line was answered with exactly one reply line, in the protocol's error
/// form (`prefix`).
fn check_rejected(replies: &[String], prefix: &str) {
    assert!(
        replies.len() == 1 && replies[0].starts_with(prefix),
        "a line that is not UTF-8 answered with {replies:?}"
    );
}

/// A GTP session at level 2 over the raw bytes, every search capped at a few thousand nodes.
/// Lines that are not UTF-8 must get a `?` reply; the session goes on.
pub fn gtp(data: &[u8]) {
    let mut s = GtpSession::new(engine(), 2);
    s.set_node_limit(Some(SESSION_NODES));
    for line in session_lines(data) {
        let reply = match line {
            Ok(line) => s.handle(&line),
            Err(bad) => {
                let reply = s.reject(&bad);
                assert!(reply.starts_with('?'), "bad line answered {reply:?}");
                Some(reply)
            }
        };
        if let Some(reply) = reply {
            assert!(
                reply.starts_with('=') || reply.starts_with('?'),
                "GTP reply without status: {reply:?}"
            );
            assert!(reply.ends_with("\n\n"), "GTP reply not ended: {reply:?}");
        }
        if s.quit_requested() {
            break;
        }
    }
}

/// An NBoard session at level 2 over the raw bytes, every search capped at a few thousand
/// nodes. Lines that are not UTF-8 must get one `status error:` line; the session goes on.
pub fn nboard(data: &[u8]) {
    let mut s = NboardSession::new(engine(), 2);
    s.set_node_limit(Some(SESSION_NODES));
    for line in session_lines(data) {
        match line {
            Ok(line) => s.handle(&line, &mut |_| {}),
            Err(bad) => {
                let mut replies = Vec::new();
                s.reject(&bad, &mut |r| replies.push(r.to_string()));
                check_rejected(&replies, "status error: ");
            }
        }
        if s.quit_requested() {
            break;
        }
    }
}

/// An Edax-style console session at level 2 over the raw bytes, every search capped at a few
/// thousand nodes. Lines that are not UTF-8 must get one `error:` line; the session goes on.
pub fn text(data: &[u8]) {
    let mut s = TextSession::new(engine());
    s.set_level(2);
    s.set_node_limit(Some(SESSION_NODES));
    for line in session_lines(data) {
        match line {
            Ok(line) => s.handle(&line, &mut |_| {}),
            Err(bad) => {
                let mut replies = Vec::new();
                s.reject(&bad, &mut |r| replies.push(r.to_string()));
                check_rejected(&replies, "error: ");
            }
        }
        if s.quit_requested() {
            break;
        }
    }
}
