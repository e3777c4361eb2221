//! The opening book in every front end, through the binary as a GUI or a user drives it: small
//! books built here and written in ply's format to a scratch folder (`--book FILE`).
//!
//! Two books of the position after `f5` (White to move), where a search plays D6 or F4 at
//! every level and never the parallel opening F6:
//! - the *leaf* book holds that position alone, its best move out of the book F6 worth +10: a
//!   session that answers F6 played the book's move;
//! - the *window* book holds it and the three positions after it, valued so that White's moves
//!   are D6 0, F4 -1 and F6 -6: a randomness of 2 discs draws D6 or F4, never F6.

mod common;

use common::{path, stderr, BIN};
use ply_othello::{parse_and_play, Board, Position, Square};
use ply_othello_engine::book::{Book, Entry};
use ply_testkit::Scratch;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a reply may take: a guard against a hung engine, not a speed check. A book move
/// needs no search; the sessions that must answer from the book run at level 60, where a
/// search of the opening would never end.
const REPLY: Duration = Duration::from_secs(30);

/// The level of the books' values.
const BOOK_LEVEL: u8 = 2;

/// The board after `moves` from the start.
fn board(moves: &str) -> Board {
    parse_and_play(Position::start(), moves)
        .expect("legal moves")
        .board
}

/// An entry of `value` whose leaf is the first legal move of `b`, worth `value`.
fn entry(b: &Board, value: i32) -> Entry {
    let leaf = Square::first(b.moves()).expect("a legal move");
    Entry::new(value, BOOK_LEVEL, Some((leaf, value)))
}

fn leaf_book() -> Book {
    let mut book = Book::new(BOOK_LEVEL);
    book.insert(
        &board("f5"),
        Entry::new(10, BOOK_LEVEL, Some((Square::F6, 10))),
    );
    book.negamax();
    book
}

fn window_book() -> Book {
    let mut book = Book::new(BOOK_LEVEL);
    book.insert(&board("f5"), Entry::new(0, BOOK_LEVEL, None));
    // values from Black's view: White's moves score minus these
    for (moves, value) in [("f5d6", 0), ("f5f4", 1), ("f5f6", 6)] {
        let b = board(moves);
        book.insert(&b, entry(&b, value));
    }
    book.negamax();
    let scores: Vec<(Square, i32)> = book
        .moves(&board("f5"))
        .iter()
        .map(|m| (m.square, m.score))
        .collect();
    assert_eq!(
        scores,
        [(Square::D6, 0), (Square::F4, -1), (Square::F6, -6)]
    );
    book
}

/// Writes `book` in ply's format to `name` in `scratch`.
fn write(scratch: &Scratch, name: &str, book: &Book) -> PathBuf {
    let file = scratch.file(name);
    std::fs::write(&file, book.to_bytes()).expect("write the book");
    file
}

/// A running session: its stdin, and its stdout lines arriving on a channel; killed when
/// dropped, so that a failing test leaves no search running.
struct Session {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ply-othello starts");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session { child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first one for which `last` holds.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + REPLY;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = last(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("no expected line within {REPLY:?}; got {got:?}"),
            }
        }
    }

    /// Sends a GTP command and returns its reply without the `= ` and the blank line.
    fn gtp(&mut self, command: &str) -> String {
        self.send(command);
        let r = self.until(str::is_empty);
        let reply = r[..r.len() - 1].join("\n");
        assert!(reply.starts_with('='), "{command}: {reply}");
        reply.trim_start_matches('=').trim().to_string()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The GGF record of a game from the start with `moves` (`["F5"]`).
fn ggf(moves: &[&str]) -> String {
    let mut colors = ["B", "W"].iter().cycle();
    let played: String = moves
        .iter()
        .map(|m| format!("{}[{m}]", colors.next().unwrap()))
        .collect();
    format!(
        "(;GM[Othello]PC[NBoard]PB[me]PW[ply]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]{played};)"
    )
}

/// The move of NBoard's `=== F5/-2.00/0.00` and its evaluation.
fn nboard_reply(lines: &[String]) -> (String, f64) {
    let reply = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("a move");
    let f: Vec<&str> = reply[4..].split('/').collect();
    (f[0].to_string(), f[1].parse().expect("an evaluation"))
}

#[test]
fn gtp_genmove_plays_the_book_move_at_once() {
    let scratch = Scratch::new("book-gtp");
    let file = write(&scratch, "leaf.book", &leaf_book());
    // level 60: without the book the answer would be a search that never ends
    let mut s = Session::start(&["gtp", "--level", "60", "--hash", "8", "--book", path(&file)]);
    let commands = s.gtp("list_commands");
    assert!(commands.lines().any(|c| c == "ply-book"), "{commands}");
    assert!(commands.lines().any(|c| c == "ply-book-randomness"));
    s.gtp("play black f5");
    assert_eq!(s.gtp("genmove white"), "f6");
    // under a loss allowance and on a clock alike
    s.gtp("undo");
    s.gtp("ply-strength beginner");
    s.gtp("time_settings 1 0 0");
    assert_eq!(s.gtp("genmove white"), "f6");
    // the book switched off, the engine searches (at a low level, so that it answers)
    s.gtp("undo");
    s.gtp("ply-loss off");
    s.gtp("set_level 4");
    s.gtp("ply-book off");
    assert_ne!(s.gtp("genmove white"), "f6");
    s.gtp("undo");
    s.gtp("ply-book on");
    assert_eq!(s.gtp("genmove white"), "f6");
    for bad in [
        "ply-book maybe",
        "ply-book",
        "ply-book-randomness 65",
        "ply-book-randomness x",
    ] {
        s.send(bad);
        let r = s.until(str::is_empty);
        assert!(r[0].starts_with('?'), "{bad}: {r:?}");
    }
}

/// Without `--book`, the sessions play from the book built into ply, unless started at a named
/// strength or with a loss allowance (calibrated without a book), where `--book` still works.
#[test]
fn the_built_in_book_is_the_default_at_full_strength() {
    let shipped = ply_othello_engine::book::embedded_book().expect("the shipped book");
    let mut s = Session::start(&["gtp", "--hash", "8"]);
    s.send("ply-book on");
    assert_eq!(s.until(str::is_empty)[0], "=");
    let reply = s.gtp("genmove black");
    let played: Square = reply.parse().unwrap_or_else(|e| panic!("{reply}: {e}"));
    let best = shipped.moves(&Board::start());
    assert!(best.iter().any(|m| m.square == played), "{reply}: {best:?}");
    for weak in [
        &["gtp", "--hash", "8", "--strength", "club"][..],
        &["gtp", "--hash", "8", "--loss", "4", "0.5"],
    ] {
        let mut w = Session::start(weak);
        w.send("ply-book on");
        let r = w.until(str::is_empty);
        assert!(r[0].starts_with("? no opening book"), "{weak:?}: {r:?}");
    }
    let scratch = Scratch::new("book-weak");
    let file = write(&scratch, "leaf.book", &leaf_book());
    let mut w = Session::start(&["gtp", "--strength", "club", "--book", path(&file)]);
    w.gtp("play black f5");
    assert_eq!(w.gtp("genmove white"), "f6", "--book at a named strength");
}

#[test]
fn no_book_and_book_off_search_instead() {
    let scratch = Scratch::new("book-off");
    let file = write(&scratch, "leaf.book", &leaf_book());
    // `--book` and `--no-book` together: a usage error
    let o = common::ply_with_input(&["gtp", "--book", path(&file), "--no-book"], b"quit\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-book"), "{}", stderr(&o));
    // `--no-book` alone searches; so does a GTP session without a book, where `ply-book on`
    // is refused
    let mut s = Session::start(&["gtp", "--level", "4", "--hash", "8", "--no-book"]);
    s.gtp("play black f5");
    assert_ne!(s.gtp("genmove white"), "f6");
    s.send("ply-book on");
    let r = s.until(str::is_empty);
    assert!(r[0].starts_with("? no opening book"), "{r:?}");
    s.gtp("undo");
    assert_ne!(s.gtp("genmove white"), "f6", "still searching");
    // the text mode: `book off` searches, `book on` plays the book's move again
    let mut t = Session::start(&["--level", "4", "--hash", "8", "--book", path(&file)]);
    t.until(|l| l.contains("type help"));
    t.send("f5");
    t.send("book off");
    t.until(|l| l.starts_with("book off:"));
    t.send("go");
    let r = t.until(|l| l.starts_with("White plays "));
    assert!(!r.last().unwrap().contains("(book)"), "{r:?}");
    t.send("undo");
    t.send("book on");
    t.until(|l| l.starts_with("book on:"));
    t.send("go");
    let r = t.until(|l| l.starts_with("White plays "));
    assert!(
        r.last().unwrap().starts_with("White plays F6: +10 (book)"),
        "{r:?}"
    );
}

#[test]
fn a_book_that_cannot_be_read_is_an_error_naming_the_file() {
    let scratch = Scratch::new("book-bad");
    let missing = scratch.file("missing.book");
    let garbage = scratch.file("garbage.book");
    std::fs::write(&garbage, [0xff, 0x00, 0x12, 0x34]).unwrap();
    let mut broken = leaf_book().to_bytes();
    let last = broken.len() - 1;
    broken[last] ^= 1;
    let corrupt = scratch.file("corrupt.book");
    std::fs::write(&corrupt, broken).unwrap();
    for file in [&missing, &garbage, &corrupt] {
        for front in [&["gtp"][..], &["nboard"], &["analyse", "f5"], &[]] {
            let mut args = front.to_vec();
            args.extend(["--book", path(file)]);
            let o = common::ply_with_input(&args, b"quit\n");
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains(path(file)), "{args:?} names the file: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
    for bad in ["65", "-1", "x"] {
        let o = common::ply_with_input(&["gtp", "--book-randomness", bad], b"quit\n");
        assert_eq!(o.status.code(), Some(2), "--book-randomness {bad}");
    }
}

/// `--book-randomness 2` over many games: only D6 and F4 (within 2 discs of the best), both
/// of them, never F6; the same seed draws the same moves; randomness 0 always plays D6.
#[test]
fn randomness_draws_within_the_window_with_the_seed() {
    let scratch = Scratch::new("book-random");
    let file = write(&scratch, "window.book", &window_book());
    let book = path(&file);
    let allowed: BTreeSet<String> = ["d6", "f4"].map(String::from).into();
    let gtp_games = |seeds: std::ops::Range<u64>, randomness: &str| {
        let mut s = Session::start(&[
            "gtp",
            "--level",
            "60",
            "--hash",
            "8",
            "--book",
            book,
            "--book-randomness",
            randomness,
        ]);
        seeds
            .map(|seed| {
                s.gtp("clear_board");
                s.gtp(&format!("ply-seed {seed}"));
                s.gtp("play black f5");
                s.gtp("genmove white")
            })
            .collect::<Vec<_>>()
    };
    let drawn = gtp_games(0..24, "2");
    let seen: BTreeSet<String> = drawn.iter().cloned().collect();
    assert_eq!(seen, allowed, "{drawn:?}");
    assert_eq!(gtp_games(0..24, "2"), drawn, "a seed replays its draws");
    assert!(gtp_games(0..8, "0").iter().all(|m| m == "d6"));
    // GTP's `ply-book-randomness` widens the window to every move
    let mut s = Session::start(&["gtp", "--level", "60", "--hash", "8", "--book", book]);
    s.gtp("ply-book-randomness 64");
    let mut all = BTreeSet::new();
    for seed in 0..40 {
        s.gtp("clear_board");
        s.gtp(&format!("ply-seed {seed}"));
        s.gtp("play black f5");
        all.insert(s.gtp("genmove white"));
    }
    assert_eq!(all, ["d6", "f4", "f6"].map(String::from).into());

    // NBoard: the seed steps after every `go`, so repeated `go`s draw anew
    let mut n = Session::start(&[
        "nboard",
        "--hash",
        "8",
        "--book",
        book,
        "--book-randomness",
        "2",
        "--seed",
        "5",
    ]);
    n.send("nboard 2");
    n.send("set depth 60");
    n.send(&format!("set game {}", ggf(&["F5"])));
    let mut nboard = BTreeSet::new();
    for _ in 0..24 {
        n.send("go");
        let r = n.until(|l| l == "status");
        let (mv, eval) = nboard_reply(&r);
        assert!(["D6", "F4"].contains(&mv.as_str()), "{r:?}");
        assert_eq!(eval, if mv == "D6" { 0.0 } else { -1.0 }, "{r:?}");
        nboard.insert(mv);
    }
    assert_eq!(nboard.len(), 2, "{nboard:?}");

    // the text mode: `seed N` and `book randomness N`; different seeds, different moves
    let mut t = Session::start(&["--level", "60", "--hash", "8", "--book", book]);
    t.until(|l| l.contains("type help"));
    t.send("book randomness 2");
    t.until(|l| l == "book randomness 2");
    let mut text = BTreeSet::new();
    for seed in 0..24 {
        t.send(&format!("seed {seed}"));
        t.send("new");
        t.send("f5");
        t.send("go");
        let r = t.until(|l| l.starts_with("White plays "));
        let l = r.last().unwrap();
        assert!(l.contains("(book)"), "{l}");
        let mv = l["White plays ".len().."White plays ".len() + 2].to_string();
        assert!(["D6", "F4"].contains(&mv.as_str()), "{l}");
        text.insert(mv);
    }
    assert_eq!(text.len(), 2, "{text:?}");
}

#[test]
fn nboard_go_and_hints_from_the_book() {
    let scratch = Scratch::new("book-nboard");
    let leaf = write(&scratch, "leaf.book", &leaf_book());
    let mut s = Session::start(&["nboard", "--hash", "8", "--book", path(&leaf)]);
    s.send("nboard 2");
    s.send("set depth 60");
    s.send(&format!("set game {}", ggf(&["F5"])));
    s.send("go");
    let r = s.until(|l| l == "status");
    assert_eq!(r[2], "status ply plays from its book", "{r:?}");
    assert_eq!(nboard_reply(&r), ("F6".to_string(), 10.0), "{r:?}");
    // a hint: the book's move as a `book` line, then the other moves searched
    s.send("set depth 2");
    s.send("hint 3");
    let r = s.until(|l| l == "status");
    let books: Vec<&String> = r.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(books, ["book F6 10.00 0 2"], "{r:?}");
    let searched: BTreeSet<&str> = r
        .iter()
        .filter_map(|l| l.strip_prefix("search "))
        .map(|l| &l[..2])
        .collect();
    assert_eq!(searched, ["D6", "F4"].into(), "{r:?}");
    // `hint 1` is the book's move alone
    s.send("hint 1");
    let r = s.until(|l| l == "status");
    assert!(!r.iter().any(|l| l.starts_with("search ")), "{r:?}");
    assert!(r.iter().any(|l| l == "book F6 10.00 0 2"), "{r:?}");
    // out of the book, the engine searches as ever
    s.send("move F6");
    s.send("go");
    let r = s.until(|l| l == "status");
    assert_eq!(r[0], "status ply is thinking", "{r:?}");

    // the window book: its lines go on into the book (D6, then the book's move after it)
    let window = write(&scratch, "window.book", &window_book());
    let mut s = Session::start(&["nboard", "--hash", "8", "--book", path(&window)]);
    s.send("nboard 2");
    s.send("set depth 2");
    s.send(&format!("set game {}", ggf(&["F5"])));
    s.send("hint 4");
    let r = s.until(|l| l == "status");
    let books: Vec<Vec<&str>> = r
        .iter()
        .filter(|l| l.starts_with("book "))
        .map(|l| l.split(' ').collect())
        .collect();
    let summary: Vec<(&str, &str)> = books.iter().map(|f| (&f[1][..2], f[2])).collect();
    assert_eq!(
        summary,
        [("D6", "0.00"), ("F4", "-1.00"), ("F6", "-6.00")],
        "{r:?}"
    );
    assert!(
        books.iter().all(|f| f[1].len() == 4 && f[3] == "0"),
        "{r:?}"
    );
    assert!(
        !r.iter().any(|l| l.starts_with("search ")),
        "every move is in the book"
    );
}

#[test]
fn text_mode_and_analyse_mark_book_moves() {
    let scratch = Scratch::new("book-text");
    let file = write(&scratch, "leaf.book", &leaf_book());
    let mut t = Session::start(&["--level", "60", "--hash", "8", "--book", path(&file)]);
    t.until(|l| l.contains("type help"));
    t.send("book");
    let r = t.until(|l| l.starts_with("book "));
    let state = format!(
        "book on: 1 position, level 2, randomness 0, from {}",
        path(&file)
    );
    assert_eq!(r.last().unwrap(), &state);
    t.send("f5");
    t.send("book show");
    let r = t.until(|l| l.contains("| book"));
    assert!(r.iter().any(|l| l == "book: value +10, 1 move"), "{r:?}");
    assert!(
        r.last().unwrap().starts_with("   F6 |   +10 | book"),
        "{r:?}"
    );
    t.send("level 2");
    t.send("hint 3");
    t.send("moves");
    let r = t.until(|l| l.starts_with("moves: "));
    let head = r
        .iter()
        .find(|l| l.starts_with("level 2: "))
        .expect("a hint");
    assert!(head.ends_with("; 1 book move first"), "{r:?}");
    let rows: Vec<&String> = r.iter().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[0].starts_with("   F6 |   +10 | book "), "{rows:?}");
    assert!(rows[1..].iter().all(|l| !l.contains("book")), "{rows:?}");
    t.send("level 60");
    t.send("go");
    let r = t.until(|l| l.starts_with("White plays "));
    assert_eq!(r.last().unwrap(), "White plays F6: +10 (book) F6");
    for bad in [
        "book randomness 65",
        "book load /nonexistent/ply.book",
        "book frobnicate",
    ] {
        t.send(bad);
        t.send("moves");
        let r = t.until(|l| l.starts_with("moves: "));
        let errors: Vec<&String> = r.iter().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(errors.len(), 1, "{bad}: {r:?}");
    }
    t.send("book load");
    t.until(|l| l.starts_with("error: "));
    t.send(&format!("book load {}", path(&file)));
    t.until(|l| l.starts_with("book on:"));
    t.send("help");
    t.until(|l| l.contains("book randomness N"));

    // analyse: the book's move first, marked, then the other moves searched
    let o = common::ply(&[
        "analyse",
        "f5",
        "--level",
        "2",
        "--hash",
        "8",
        "--book",
        path(&file),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = common::stdout(&o);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[0].starts_with("   F6 |   +10 | book"), "{out}");
    assert!(out.contains(", 1 book move"), "{out}");
    let o = common::ply(&[
        "analyse",
        "f5",
        "--level",
        "2",
        "--hash",
        "8",
        "--book",
        path(&file),
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{json}");
    assert_eq!(moves[0]["move"], "f6");
    assert_eq!(moves[0]["score"], 10);
    assert_eq!(moves[0]["book"], true);
    assert!(moves[1..].iter().all(|m| m.get("book").is_none()), "{json}");
    let o = common::ply(&["analyse", "f5", "--level", "2", "--hash", "8", "--no-book"]);
    assert!(
        !common::stdout(&o).contains("book"),
        "{}",
        common::stdout(&o)
    );
}

/// NBoard's `learn` adds the game to a book file in ply's format and writes it back; without a
/// book, or with the built-in one, it only answers.
#[test]
fn nboard_learn_grows_the_book_file() {
    let scratch = Scratch::new("book-learn");
    let mut start = Book::new(1);
    start.insert(&Board::start(), Entry::new(0, 1, Some((Square::F5, 0))));
    let file = write(&scratch, "learn.book", &start);
    let moves = ["F5", "F6", "D3", "C5", "E6", "F7", "E7", "F4"];
    let mut s = Session::start(&["nboard", "--hash", "8", "--book", path(&file)]);
    s.send("nboard 2");
    s.send("set depth 1");
    s.send(&format!("set game {}", ggf(&moves)));
    s.send("learn");
    let r = s.until(|l| l == "learned");
    assert_eq!(r[r.len() - 2], "status", "no error: {r:?}");
    let learned = Book::from_any(&std::fs::read(&file).unwrap()).expect("a whole book");
    assert!(learned.len() >= moves.len(), "{} positions", learned.len());
    let mut game = String::new();
    for m in moves {
        game.push_str(m);
        assert!(learned.contains(&board(&game)), "{game}");
    }
    assert!(no_temporary_files(scratch.path()));
    // the session plays from what it learnt
    s.send(&format!("set game {}", ggf(&moves[..3])));
    s.send("set depth 60");
    s.send("go");
    let r = s.until(|l| l == "status");
    assert!(
        r.contains(&"status ply plays from its book".to_string()),
        "{r:?}"
    );
    drop(s);

    let mut plain = Session::start(&["nboard", "--hash", "8", "--no-book"]);
    plain.send("learn");
    assert_eq!(plain.until(|l| l == "learned"), ["learned"]);
    // the built-in book has no file to write back
    let mut builtin = Session::start(&["nboard", "--hash", "8"]);
    builtin.send("learn");
    assert_eq!(
        builtin.until(|l| l == "learned"),
        [
            "status ply learns only into a book file in ply's own format",
            "learned"
        ]
    );
}

fn no_temporary_files(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .all(|e| !e.file_name().to_string_lossy().ends_with(".tmp"))
}
