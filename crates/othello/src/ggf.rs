//! GGF game records (the Generic Game Format of GGS, which NBoard sends with `set game`):
//!
//! ```text
//! (;GM[Othello]PC[NBoard]PB[me]PW[ply]RE[?]TI[15:00]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.03]W[F6];)
//! ```
//!
//! A record is `(;` then properties `KEY[value]` then `;)`; `]` inside a value is escaped as
//! `\]`. `BO[8 <64 squares> <side>]` is the start position (`*` Black, `O` White, `-` empty;
//! rows A1..H8), `B[..]` / `W[..]` are moves as `square[/eval[/time]]`, `PA` (or `pass`) for a
//! pass; each move's time (seconds) is kept ([`GgfGame::times`], [`parse_move_time`]). Other
//! properties (players, clocks, result...) are kept by name but not interpreted.

use crate::game::{Game, MoveError};
use crate::{Color, Position, Square};
use std::time::Duration;
use thiserror::Error;

/// Why a GGF record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GgfError {
    /// No `(;` opening the record.
    #[error("not a GGF record: no \"(;\"")]
    NoStart,
    /// The text ends inside the record (no `;)`, or a value without its `]`).
    #[error("unterminated GGF record")]
    Unterminated,
    /// A property name that is not upper-case letters followed by `[`.
    #[error("bad GGF property at byte {0}")]
    BadProperty(usize),
    /// `GM` names another game.
    #[error("not an Othello game: GM[{0}]")]
    NotOthello(String),
    /// A board size other than 8.
    #[error("unsupported board size {0:?} (only 8x8)")]
    BoardSize(String),
    /// `BO` is not `8 <64 squares> <side>`.
    #[error("bad GGF board BO[{0}]: {1}")]
    BadBoard(String, String),
    /// No `BO` property.
    #[error("GGF record without a BO[..] board")]
    MissingBoard,
    /// A move value that is not a square or a pass.
    #[error("bad move {text:?} at move {index}")]
    BadMove {
        /// The value as written.
        text: String,
        /// 1-based move number in the record.
        index: usize,
    },
    /// A move that is illegal in the game so far.
    #[error("move {index}: {source}")]
    IllegalMove {
        /// 1-based move number in the record.
        index: usize,
        /// Why it is illegal.
        source: MoveError,
    },
}

/// A parsed GGF record.
#[derive(Debug, Clone)]
pub struct GgfGame {
    /// The game: start position and every move (passes included).
    pub game: Game,
    /// Properties other than the board and the moves, in record order (`PB`, `PW`, `TI`...).
    pub properties: Vec<(String, String)>,
    /// Every `B[..]` / `W[..]` move of the record in order: its colour and the time written
    /// after it (`f5/1.00/2.5`: 2.5 s), `None` when it has none or an unreadable one. A forced
    /// pass the record leaves out has no entry.
    pub times: Vec<(Color, Option<Duration>)>,
}

/// Reads the first GGF record of `text`.
///
/// # Errors
/// [`GgfError`] for a malformed record, a board that is not 8x8 or an illegal move.
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    let start = text.find("(;").ok_or(GgfError::NoStart)?;
    let bytes = text.as_bytes();
    let mut i = start + 2;
    let mut game: Option<Game> = None;
    let mut properties = Vec::new();
    let mut times = Vec::new();
    let mut index = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return Err(GgfError::Unterminated);
        }
        if bytes[i] == b';' || bytes[i] == b')' {
            // `;)` ends the record (a bare `)` is accepted too)
            break;
        }
        let key_start = i;
        while i < bytes.len() && bytes[i].is_ascii_uppercase() {
            i += 1;
        }
        if i == key_start || i >= bytes.len() || bytes[i] != b'[' {
            return Err(if i >= bytes.len() {
                GgfError::Unterminated
            } else {
                GgfError::BadProperty(i)
            });
        }
        let key = &text[key_start..i];
        i += 1;
        let mut value = String::new();
        loop {
            match bytes.get(i) {
                None => return Err(GgfError::Unterminated),
                Some(b'\\') if i + 1 < bytes.len() => {
                    // keep the escaped character (which may be multi-byte)
                    let c = text[i + 1..].chars().next().ok_or(GgfError::Unterminated)?;
                    value.push(c);
                    i += 1 + c.len_utf8();
                }
                Some(b']') => {
                    i += 1;
                    break;
                }
                Some(_) => {
                    let c = text[i..].chars().next().ok_or(GgfError::Unterminated)?;
                    value.push(c);
                    i += c.len_utf8();
                }
            }
        }
        match key {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(GgfError::NotOthello(value))
            }
            "TY" if !value.trim().starts_with('8') => return Err(GgfError::BoardSize(value)),
            "BO" => game = Some(Game::new(parse_board(&value)?)),
            "B" | "W" => {
                index += 1;
                let g = game.as_mut().ok_or(GgfError::MissingBoard)?;
                let color = if key == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let sq = parse_move(&value).ok_or_else(|| GgfError::BadMove {
                    text: value.clone(),
                    index,
                })?;
                g.play_as(color, sq)
                    .map_err(|source| GgfError::IllegalMove { index, source })?;
                times.push((color, parse_move_time(&value)));
            }
            _ => properties.push((key.to_string(), value)),
        }
    }
    let game = game.ok_or(GgfError::MissingBoard)?;
    Ok(GgfGame {
        game,
        properties,
        times,
    })
}

/// The records of a text that holds several (a GGS game archive, one record after another):
/// each slice runs from its `(;` to the `;)` (or `)`) that ends it outside property values, or
/// up to the next `(;` or the end of the text when it is unterminated (then [`parse_ggf`]
/// reports it). Text between records is skipped.
///
/// ```
/// use ply_othello::ggf::{parse_ggf, split_records};
/// let text = "(;GM[Othello]C[a (; b]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
///             (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)";
/// let records = split_records(text);
/// assert_eq!(records.len(), 2);
/// assert_eq!(parse_ggf(records[0]).unwrap().game.moves().len(), 1);
/// ```
pub fn split_records(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut records = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find("(;") {
        let start = from + offset;
        let mut i = start + 2;
        let mut in_value = false;
        let end = loop {
            match bytes.get(i) {
                None => break bytes.len(),
                Some(b'\\') if in_value => i += 1,
                Some(b']') if in_value => in_value = false,
                Some(b'[') if !in_value => in_value = true,
                Some(b'(') if !in_value && bytes.get(i + 1) == Some(&b';') => break i,
                Some(b';') if !in_value => {
                    break i + 1 + usize::from(bytes.get(i + 1) == Some(&b')'));
                }
                Some(b')') if !in_value => break i + 1,
                Some(_) => {}
            }
            i += 1;
        };
        // `end` is at an ASCII byte or the end, so a character boundary
        records.push(&text[start..end.min(bytes.len())]);
        from = end.min(bytes.len());
    }
    records
}

/// `8 <64 squares> <side>`.
fn parse_board(value: &str) -> Result<Position, GgfError> {
    let bad = |why: &str| GgfError::BadBoard(value.to_string(), why.to_string());
    let v = value.trim_start();
    let size_end = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    if &v[..size_end] != "8" {
        return Err(GgfError::BoardSize(v[..size_end].to_string()));
    }
    v[size_end..]
        .parse::<Position>()
        .map_err(|e| bad(&e.to_string()))
}

/// `F5`, `f5/-2.00/1.5`, `PA`, `pass`: the square or [`Square::PASS`] (eval and time are ignored).
pub fn parse_move(value: &str) -> Option<Square> {
    let mv = value.split('/').next().unwrap_or("").trim();
    if mv.eq_ignore_ascii_case("pa") || mv.eq_ignore_ascii_case("pass") {
        Some(Square::PASS)
    } else {
        mv.parse().ok()
    }
}

/// The time of a move written `square/eval/time` (`f5/1.00/2.5`, `F6//0.5`): seconds, finite
/// and not negative; `None` without one or for an unreadable one.
///
/// ```
/// use ply_othello::ggf::parse_move_time;
/// use std::time::Duration;
/// assert_eq!(parse_move_time("f5/1.00/2.5"), Some(Duration::from_millis(2500)));
/// assert_eq!(parse_move_time("F6"), None);
/// assert_eq!(parse_move_time("F6//-1"), None);
/// ```
pub fn parse_move_time(value: &str) -> Option<Duration> {
    let t = value.split('/').nth(2)?.trim();
    t.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..1e9).contains(s))
        .map(Duration::from_secs_f64)
}

/// Writes `game` as a GGF record (board, moves; `PA` for passes).
pub fn to_ggf(game: &Game) -> String {
    let start = game.start();
    let board: String = start
        .board_string()
        .chars()
        .map(|c| match c {
            'X' => '*',
            c => c,
        })
        .collect();
    let side = match start.side {
        Color::Black => '*',
        Color::White => 'O',
    };
    let mut s = format!("(;GM[Othello]PC[ply]TY[8]BO[8 {board} {side}]");
    let mut pos = start;
    for &m in game.moves() {
        let key = match pos.side {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let name = if m.is_pass() { "PA" } else { m.name() };
        s.push_str(&format!("{key}[{name}]"));
        if m.is_pass() {
            pos.pass();
        } else {
            pos.play(m);
        }
    }
    s.push_str(";)");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_an_nboard_record() {
        let g = parse_ggf(NBOARD).unwrap();
        assert_eq!(g.game.start(), Position::start());
        assert_eq!(crate::format_moves(g.game.moves()), "f5f6d3c5e6f7e7f4");
        assert_eq!(g.game.position().side, Color::Black);
        assert!(g
            .properties
            .contains(&("PW".to_string(), "chris".to_string())));
    }

    #[test]
    fn evals_times_and_escapes() {
        let text = NBOARD
            .replace("B[F5]", "B[f5/1.00/2.5]")
            .replace("W[F6]", "W[F6//0.5]")
            .replace("PW[chris]", "PW[a \\] b]");
        let g = parse_ggf(&text).unwrap();
        assert_eq!(crate::format_moves(g.game.moves()), "f5f6d3c5e6f7e7f4");
        assert!(g
            .properties
            .contains(&("PW".to_string(), "a ] b".to_string())));
        assert_eq!(g.times.len(), 8);
        assert_eq!(
            g.times[0],
            (Color::Black, Some(Duration::from_millis(2500)))
        );
        assert_eq!(g.times[1], (Color::White, Some(Duration::from_millis(500))));
        assert_eq!(g.times[2], (Color::Black, None));
    }

    /// A game with a forced pass, found by deterministic pseudo-random play.
    fn game_with_a_pass() -> Game {
        let mut rng = ply_testkit::XorShift64::new(7);
        loop {
            let mut g = Game::default();
            while !g.position().board.is_game_over() {
                let moves = g.position().board.moves();
                if moves == 0 {
                    g.play(Square::PASS).unwrap();
                    // one more move, so the pass is not the record's last word
                    let next = Square::first(g.position().board.moves()).unwrap();
                    g.play(next).unwrap();
                    return g;
                }
                let sq = Square::new(rng.pick_bit(moves)).expect("a legal move");
                g.play(sq).unwrap();
            }
        }
    }

    #[test]
    fn passes_explicit_or_left_out() {
        let g = game_with_a_pass();
        let text = to_ggf(&g);
        assert!(text.contains("[PA]"), "{text}");
        let back = parse_ggf(&text).unwrap();
        assert_eq!(back.game.moves(), g.moves());
        // the same record without its passes: each is put back before the next move
        let implicit = parse_ggf(&text.replace("B[PA]", "").replace("W[PA]", "")).unwrap();
        assert_eq!(implicit.game.moves(), g.moves());
        assert_eq!(implicit.game.position(), g.position());
    }

    #[test]
    fn errors_are_reported() {
        assert_eq!(parse_ggf("hello").unwrap_err(), GgfError::NoStart);
        assert_eq!(
            parse_ggf("(;GM[Othello]BO[8 ---").unwrap_err(),
            GgfError::Unterminated
        );
        assert!(matches!(
            parse_ggf("(;GM[Chess]BO[8 x];)").unwrap_err(),
            GgfError::NotOthello(_)
        ));
        assert!(matches!(
            parse_ggf("(;TY[10]BO[10 ---];)").unwrap_err(),
            GgfError::BoardSize(_)
        ));
        assert!(matches!(
            parse_ggf("(;BO[8 -- *];)").unwrap_err(),
            GgfError::BadBoard(..)
        ));
        assert_eq!(
            parse_ggf("(;GM[Othello];)").unwrap_err(),
            GgfError::MissingBoard
        );
        let bad_move = NBOARD.replace("W[F6]", "W[Z9]");
        assert!(matches!(
            parse_ggf(&bad_move).unwrap_err(),
            GgfError::BadMove { index: 2, .. }
        ));
        let illegal = NBOARD.replace("W[F6]", "W[A1]");
        assert!(matches!(
            parse_ggf(&illegal).unwrap_err(),
            GgfError::IllegalMove { index: 2, .. }
        ));
        assert!(matches!(
            parse_ggf("(;GM[Othello]bo[8];)").unwrap_err(),
            GgfError::BadProperty(_)
        ));
    }

    #[test]
    fn an_archive_splits_into_its_records() {
        let second = NBOARD.replace("PB[./mEdax]", "PB[other]");
        let text = format!("1 {NBOARD}\n2 {second}\r\n(;GM[Othello]PW[x\\;)(;y]BO[8 ---");
        let records = split_records(&text);
        assert_eq!(records.len(), 3);
        assert_eq!((records[0], records[1]), (NBOARD, second.as_str()));
        let players = parse_ggf(records[1]).unwrap().properties;
        assert!(players.contains(&("PB".to_string(), "other".to_string())));
        // the last one is cut off: still split, then refused by the reader
        assert!(records[2].starts_with("(;GM[Othello]PW[x\\;)(;y]"));
        assert_eq!(parse_ggf(records[2]).unwrap_err(), GgfError::Unterminated);
        // an unterminated record ends where the next begins
        let records = split_records("(;GM[Othello] (;GM[Othello];)");
        assert_eq!(records, ["(;GM[Othello] ", "(;GM[Othello];)"]);
        assert!(split_records("no record").is_empty());
    }

    #[test]
    fn round_trip_through_to_ggf() {
        let g = parse_ggf(NBOARD).unwrap();
        let again = parse_ggf(&to_ggf(&g.game)).unwrap();
        assert_eq!(again.game.moves(), g.game.moves());
        assert_eq!(again.game.start(), g.game.start());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
            let _ = parse_ggf(&s);
            let _ = parse_ggf(&format!("(;GM[Othello]BO[8 {s}];)"));
            let _ = parse_ggf(&format!("{}{}", &NBOARD[..NBOARD.len() / 2], s));
            let text = format!("{s}{NBOARD}{s}");
            let records = split_records(&text);
            prop_assert!(records.contains(&NBOARD) || s.contains("(;") || s.contains('[')
                || s.contains('\\'));
        }
    }
}
