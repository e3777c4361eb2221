//! `ply-othello book ...` through the binary: a book made, grown by a game and by deviation,
//! shown, checked, converted to Edax's forms and back, merged, and refused when corrupt.

mod common;

use common::{ply, stderr, stdout};
use ply_othello::{parse_and_play, Board, Position};
use ply_othello_engine::book::Book;
use ply_testkit::Scratch;
use std::path::Path;

fn ok(args: &[&str]) -> String {
    let out = ply(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn read(path: &Path) -> Book {
    Book::from_any(&std::fs::read(path).unwrap()).unwrap()
}

fn board(moves: &str) -> Board {
    parse_and_play(Position::start(), moves).unwrap().board
}

#[test]
fn a_book_is_made_grown_shown_and_converted() {
    let dir = Scratch::new("book-command");
    let file = dir.path().join("b.ply");
    let f = file.to_str().unwrap();
    ok(&["book", "new", f, "--level", "3"]);
    assert_eq!(read(&file).len(), 0);
    // new refuses to replace a file
    let again = ply(&["book", "new", f]);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert!(stderr(&again).contains("exists"));

    let out = ok(&["book", "deepen", f, "--plies", "4", "--hash", "4"]);
    assert!(out.contains("position(s), level 3"), "{out}");
    let book = read(&file);
    assert!(book.len() > 4, "{}", book.len());
    assert!(book.value(&Board::start()).is_some());
    assert!(book.positions().iter().all(|(b, _)| b.empty_count() >= 56));
    assert!(!dir.path().join("b.ply.plan").exists());
    // three searches at once make the same file
    let shared = dir.path().join("jobs.ply");
    let s = shared.to_str().unwrap();
    ok(&["book", "new", s, "--level", "3"]);
    ok(&[
        "book", "deepen", s, "--plies", "4", "--hash", "4", "--jobs", "3",
    ]);
    assert_eq!(
        std::fs::read(&shared).unwrap(),
        std::fs::read(&file).unwrap()
    );

    ok(&[
        "book",
        "add",
        f,
        "f5d6c3d3c4f4f6f3e6e7",
        "--plies",
        "8",
        "--hash",
        "4",
    ]);
    let grown = read(&file);
    assert!(grown.contains(&board("f5d6c3d3c4f4f6f3")));
    assert!(grown.len() > book.len());
    // every leaf is valid after add: fix has nothing left to do
    assert!(grown.fix_plan().is_empty());
    let fixed = ok(&["book", "fix", f, "--hash", "4"]);
    assert!(
        fixed.contains(&format!("{} position(s)", grown.len())),
        "{fixed}"
    );

    let info = ok(&["book", "info", f]);
    assert!(
        info.contains(&format!("positions {}", grown.len())),
        "{info}"
    );
    assert!(info.contains("level     3"), "{info}");

    // show: book moves with their values; moves out of the book searched
    let show = ok(&["book", "show", f, "f5d6", "--level", "2"]);
    let moves = grown.moves(&board("f5d6"));
    for m in &moves {
        let line = format!("{:<3} {:+3}", m.square.name(), m.score);
        assert!(show.contains(&line), "{line} not in\n{show}");
    }
    assert!(show.contains("book"), "{show}");
    assert!(show.contains("searched, level 2"), "{show}");
    // the same position as a board (its first line, the side to move joined on), which starts
    // with `-`: a position, not an option
    let as_board: String = show.lines().next().unwrap().split_whitespace().collect();
    assert!(as_board.starts_with('-'), "{as_board}");
    let by_board = ok(&["book", "show", f, &as_board, "--level", "2"]);
    assert_eq!(by_board, show);
    let outside = ok(&["book", "show", f, "c4c3c2"]);
    assert!(outside.contains("not in the book"), "{outside}");

    // Edax's forms and back
    for form in ["edax", "text", "ply"] {
        let out = dir.path().join(format!("b.{form}"));
        let o = out.to_str().unwrap();
        ok(&["book", "export", f, o, "--format", form]);
        let back = dir.path().join(format!("back-{form}.ply"));
        ok(&["book", "import", o, back.to_str().unwrap()]);
        let back = read(&back);
        assert_eq!(back.len(), grown.len(), "{form}");
        for (b, e) in grown.positions() {
            assert_eq!(back.value(&b), Some(i32::from(e.value)), "{form}");
        }
    }
    // merge: the higher level wins
    let other = dir.path().join("other.ply");
    ok(&["book", "new", other.to_str().unwrap(), "--level", "5"]);
    ok(&[
        "book",
        "add",
        other.to_str().unwrap(),
        "c4c3",
        "--hash",
        "4",
    ]);
    let merged = ok(&["book", "merge", f, other.to_str().unwrap()]);
    assert!(merged.contains("added or replaced"), "{merged}");
    let m = read(&file);
    assert!(m.contains(&board("c4c3")));
    assert_eq!(m.get(&board("c4c3")).unwrap().level, 5);
}

#[test]
fn corrupt_books_are_refused_with_the_reason() {
    let dir = Scratch::new("book-command-bad");
    let file = dir.path().join("b.ply");
    let f = file.to_str().unwrap();
    ok(&["book", "new", f, "--level", "2"]);
    ok(&["book", "add", f, "f5d6", "--hash", "4"]);
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 12;
    bytes[last] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    for args in [
        vec!["book", "info", f],
        vec!["book", "show", f],
        vec!["book", "add", f, "f5"],
    ] {
        let out = ply(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains("checksum"), "{}", stderr(&out));
    }
    let missing = dir.path().join("none.ply");
    let out = ply(&["book", "info", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("none.ply"), "{}", stderr(&out));
    // a plan file that is not a plan is refused, not ignored
    ok(&["book", "new", dir.path().join("c.ply").to_str().unwrap()]);
    std::fs::write(dir.path().join("c.ply.plan"), "add 1 2\n").unwrap();
    let out = ply(&["book", "fix", dir.path().join("c.ply").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("c.ply.plan line 1"),
        "{}",
        stderr(&out)
    );
}

/// A deviation round planned, searched in two shards (as on two machines) and applied gives the
/// same book, byte for byte, as the round run in one `deepen`; a bad file of searches is refused.
#[test]
fn a_round_searched_in_shards_makes_the_same_book() {
    let dir = Scratch::new("book-shards");
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (whole, sharded) = (path("whole.ply"), path("sharded.ply"));
    for f in [&whole, &sharded] {
        ok(&["book", "new", f, "--level", "3"]);
        ok(&["book", "deepen", f, "--plies", "4", "--hash", "4"]);
    }
    ok(&[
        "book", "deepen", &whole, "--plies", "7", "--hash", "4", "--rounds", "1",
    ]);
    let planned = ok(&["book", "plan", &sharded, "--plies", "7"]);
    assert!(planned.contains("search(es) planned"), "{planned}");
    // a second plan on a pending job is refused
    let again = ply(&["book", "plan", &sharded, "--plies", "7"]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    let (a, b) = (path("a.txt"), path("b.txt"));
    for (shard, out) in [("0/2", &a), ("1/2", &b)] {
        ok(&[
            "book", "searches", &sharded, "--shard", shard, "--out", out, "--hash", "4",
        ]);
    }
    let lines = |f: &str| std::fs::read_to_string(f).unwrap().lines().count() - 1;
    assert!(
        lines(&a) >= 1 && lines(&b) >= 1,
        "{} {}",
        lines(&a),
        lines(&b)
    );
    // a shard run again finds its file done and keeps it
    let before = std::fs::read(&a).unwrap();
    ok(&[
        "book", "searches", &sharded, "--shard", "0/2", "--out", &a, "--hash", "4",
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), before);
    let bad = path("bad.txt");
    std::fs::write(&bad, "# ply-othello book searches\n0 0 0 99 a1 0\n").unwrap();
    let refused = ply(&["book", "apply", &sharded, &bad]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("bad.txt") && stderr(&refused).contains("line 2"),
        "{}",
        stderr(&refused)
    );
    let applied = ok(&["book", "apply", &sharded, &a, &b, "--hash", "4"]);
    assert!(
        applied.contains(" from the files, 0 made here"),
        "{applied}"
    );
    assert!(!dir.path().join("sharded.ply.plan").exists());
    assert_eq!(
        std::fs::read(&sharded).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}
