//! The PGN reader and writer against python-chess (`chess.pgn.read_game`), a reader nobody here
//! wrote: the games of `tests/data/games.pgn` (historic games and lichess-style exports with
//! comments, clock commands, nested variations, NAGs, `;` comments, `%` lines, a FEN start, a
//! Chess960 game, a game without a result) must give the same results, start positions, move
//! trees with their glyphs, and comment words; so must ply's own PGN of them. Without python3
//! and its `chess` package those comparisons skip visibly (a failure under `PLY_STRICT=1`); the
//! reading, round trip and error checks run everywhere.

use ply_chess::pgn::{self, Line, PgnErrorKind, PgnGame};
use ply_chess::{GameResult, MoveParseError, Position};
use proptest::prelude::*;
use std::process::Command;

const GAMES: &str = include_str!("data/games.pgn");

/// python-chess's view of each game of the file at `path`, one line a game:
/// `result|start FEN|move tree|sorted comment words`.
const SCRIPT: &str = r#"
import sys, chess.pgn
def tok(n):
    return n.move.uci() + "".join("$%d" % x for x in sorted(n.nags))
def line(node):
    out = []
    while node.variations:
        main = node.variations[0]
        out.append(tok(main))
        for alt in node.variations[1:]:
            out.append("(" + " ".join([tok(alt)] + line(alt)) + ")")
        node = main
    return out
def words(game):
    texts = [game.comment]
    stack = list(game.variations)
    while stack:
        n = stack.pop()
        texts += [n.comment, n.starting_comment]
        stack += n.variations
    return sorted(" ".join(texts).split())
f = open(sys.argv[1], encoding="utf-8")
while True:
    g = chess.pgn.read_game(f)
    if g is None:
        break
    if g.errors:
        print("ERROR", g.errors)
        continue
    print("|".join([g.headers.get("Result", "*"), g.board().fen(), " ".join(line(g)), " ".join(words(g))]))
"#;

fn tree(pos: &Position, line: &Line, out: &mut Vec<String>) {
    let chess960 = pos.is_chess960();
    let mut pos = *pos;
    for m in &line.moves {
        let mut nags = m.nags.clone();
        nags.sort_unstable();
        let tok = |mv: ply_chess::Move, nags: &[u8]| {
            let mut t = mv.uci(chess960).to_string();
            for n in nags {
                t.push_str(&format!("${n}"));
            }
            t
        };
        out.push(tok(m.mv, &nags));
        for v in &m.variations {
            let mut inner = Vec::new();
            tree(&pos, v, &mut inner);
            out.push(format!("({})", inner.join(" ")));
        }
        pos = pos.play(m.mv);
    }
}

fn comment_words(line: &Line, out: &mut Vec<String>) {
    out.extend(
        line.comments
            .iter()
            .flat_map(|c| c.split_whitespace().map(String::from)),
    );
    for m in &line.moves {
        out.extend(
            m.comments
                .iter()
                .flat_map(|c| c.split_whitespace().map(String::from)),
        );
        for v in &m.variations {
            comment_words(v, out);
        }
    }
}

/// ply's view of a game in the script's format.
fn summary(game: &PgnGame) -> String {
    let mut moves = Vec::new();
    tree(&game.start, &game.line, &mut moves);
    let mut words = Vec::new();
    comment_words(&game.line, &mut words);
    words.sort();
    [
        game.result.as_str().to_string(),
        game.start.to_fen(),
        moves.join(" "),
        words.join(" "),
    ]
    .join("|")
}

fn read_all(text: &str) -> Vec<PgnGame> {
    pgn::read(text)
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// python-chess's summaries of the PGN file at `path`, or `None` (after a visible skip).
fn python_chess(path: &std::path::Path) -> Option<Vec<String>> {
    let out = match Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(path)
        .output()
    {
        Ok(o) if o.status.success() => o,
        _ => {
            ply_testkit::skip("python3 with the `chess` package is not available");
            return None;
        }
    };
    let text = String::from_utf8(out.stdout).expect("python-chess prints UTF-8");
    Some(text.lines().map(String::from).collect())
}

#[test]
fn games_read_as_python_chess_reads_them() {
    let games = read_all(GAMES);
    assert_eq!(games.len(), 7);
    let ends = [
        "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
        "4k3/4P3/4K3/8/8/8/8/8 b - - 2 55",
    ];
    assert_eq!(games[0].game().position().to_fen(), ends[0]);
    assert!(games[0].game().position().is_checkmate());
    assert_eq!(games[4].game().position().to_fen(), ends[1]);
    assert!(games[4].game().position().is_stalemate());
    assert_eq!(games[6].result, GameResult::Undecided);
    assert_eq!(games[2].tag("TimeControl"), Some("180+0"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games.pgn");
    let Some(theirs) = python_chess(&path) else {
        return;
    };
    // python-chess drops `;` comments, which ply keeps
    let mut games = games;
    let bxg1 = &mut games[1].line.moves[35];
    assert_eq!(
        bxg1.comments,
        ["the \"Immortal Game\": White gives up both rooks"]
    );
    bxg1.comments.clear();
    let ours: Vec<String> = games.iter().map(summary).collect();
    assert_eq!(theirs.len(), ours.len(), "{theirs:?}");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "game {}", i + 1);
    }
}

#[test]
fn written_games_read_back_the_same_here_and_in_python_chess() {
    let games = read_all(GAMES);
    let written: String = games.iter().map(|g| format!("{g}\n")).collect();
    for line in written.lines() {
        assert!(line.len() <= 80, "a line over 80 characters: {line}");
    }
    let again = read_all(&written);
    assert_eq!(again.len(), games.len());
    for (a, b) in games.iter().zip(&again) {
        assert_eq!((&a.start, &a.line, a.result), (&b.start, &b.line, b.result));
        for (name, value) in &a.tags {
            assert_eq!(b.tag(name), Some(value.as_str()), "tag {name}");
        }
    }
    let rewritten: String = again.iter().map(|g| format!("{g}\n")).collect();
    assert_eq!(rewritten, written, "writing is stable");
    let scratch = ply_testkit::Scratch::new("pgn-written");
    let path = scratch.file("written.pgn");
    std::fs::write(&path, &written).unwrap();
    let Some(theirs) = python_chess(&path) else {
        return;
    };
    let ours: Vec<String> = games.iter().map(summary).collect();
    assert_eq!(theirs, ours);
}

#[test]
fn errors_name_the_game_line_and_move_and_reading_goes_on() {
    let text = "[Event \"one\"]\n\n1. e4 e5 1-0\n\n\
                [Event \"two\"]\n\n1. e4 e5 2. Nf3 Nf3 3. Bb5 *\n\n\
                [Event \"three\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n\n\
                [Event \"four\"]\n\n1. d4 { never closed\n\n";
    let results: Vec<_> = pgn::read(text).collect();
    assert_eq!(results.len(), 4);
    assert!(results[0].is_ok());
    let e = results[1].clone().unwrap_err();
    assert_eq!((e.game, e.line), (2, 7));
    assert_eq!(
        e.kind,
        PgnErrorKind::Move {
            number: "2...".into(),
            text: "Nf3".into(),
            source: MoveParseError::Illegal,
        }
    );
    assert_eq!(e.to_string(), "game 2, line 7: move 2... Nf3: illegal move");
    let e = results[2].clone().unwrap_err();
    assert_eq!(e.game, 3);
    assert!(matches!(e.kind, PgnErrorKind::Fen(_)), "{e}");
    assert_eq!(
        results[3].clone().unwrap_err().kind,
        PgnErrorKind::OpenComment
    );
    for (text, kind) in [
        ("1. e4 ) e5", PgnErrorKind::StrayClose),
        ("( 1. e4 )", PgnErrorKind::VariationFirst),
        ("1. e4 ( 1. d4 ", PgnErrorKind::OpenVariation),
        (
            "[White \"x\" 1. e4",
            PgnErrorKind::Tag("[White \"x\" 1. e4".into()),
        ),
    ] {
        let e = pgn::read(text).next().unwrap().unwrap_err();
        assert_eq!(e.kind, kind, "{text}");
    }
}

proptest! {
    #[test]
    fn no_text_makes_the_reader_panic(text in "[ -~\\n]{0,200}") {
        for game in pgn::read(&text).flatten() {
            let _ = game.to_string();
        }
    }

    #[test]
    fn no_cut_of_the_games_makes_the_reader_panic(cut in 0..GAMES.len()) {
        if GAMES.is_char_boundary(cut) {
            pgn::read(&GAMES[..cut]).for_each(drop);
        }
    }
}

/// `line` without its comments and glyphs: what a move tree keeps.
fn bare(line: &Line) -> Line {
    Line {
        comments: Vec::new(),
        moves: line
            .moves
            .iter()
            .map(|m| {
                let mut b = pgn::PgnMove::new(m.mv);
                b.variations = m.variations.iter().map(bare).collect();
                b
            })
            .collect(),
    }
}

#[test]
fn move_trees_of_real_games_give_the_same_moves_and_variations_back() {
    let games = read_all(GAMES);
    let mut variations = 0;
    for (i, g) in games.iter().enumerate() {
        let nodes = g.tree();
        // a parent always comes first, and a node's first child is its main continuation
        for (k, n) in nodes.iter().enumerate() {
            assert!(n.parent.is_none_or(|p| p < k), "game {}", i + 1);
        }
        variations += nodes.len() - g.game().moves().len();
        let again = PgnGame::from_tree(g.start, &nodes).unwrap();
        assert_eq!(again.line, bare(&g.line), "game {}", i + 1);
        assert_eq!(again.game().moves(), g.game().moves(), "game {}", i + 1);
        assert_eq!(again.tree(), nodes, "game {}", i + 1);
    }
    assert!(
        variations > 10,
        "the file has variations to check ({variations} moves)"
    );
}

#[test]
fn a_bad_move_tree_is_an_error() {
    use pgn::{TreeError, TreeMove, MAX_NESTING};
    let start = Position::startpos();
    let mv = |pos: &Position, uci: &str| pos.parse_uci(uci).unwrap();
    let e4 = TreeMove {
        parent: None,
        mv: mv(&start, "e2e4"),
    };
    let after = start.play(e4.mv);
    let e5 = TreeMove {
        parent: Some(0),
        mv: mv(&after, "e7e5"),
    };
    assert_eq!(
        PgnGame::from_tree(start, &[e5, e4]),
        Err(TreeError::Parent { node: 0, parent: 0 })
    );
    // e7e5 again from the start: not White's move
    let wrong = TreeMove {
        parent: None,
        mv: e5.mv,
    };
    assert_eq!(
        PgnGame::from_tree(start, &[e4, wrong]),
        Err(TreeError::Illegal {
            node: 1,
            mv: "e7e5".into()
        })
    );
    // each knight move back and forth opens a variation inside the last one
    let mut nodes = vec![e4];
    let mut pos = after;
    let mut parent = 0;
    for k in 0..=MAX_NESTING {
        let uci = ["g8f6", "f6g8"][k % 2];
        let m = mv(&pos, uci);
        // a first child to stand beside
        let other = pos.legal_moves().iter().copied().find(|&o| o != m).unwrap();
        nodes.push(TreeMove {
            parent: Some(parent),
            mv: other,
        });
        nodes.push(TreeMove {
            parent: Some(parent),
            mv: m,
        });
        parent = nodes.len() - 1;
        pos = pos.play(m);
        let white = ["g1f3", "f3g1"][k % 2];
        let w = mv(&pos, white);
        nodes.push(TreeMove {
            parent: Some(parent),
            mv: w,
        });
        parent = nodes.len() - 1;
        pos = pos.play(w);
    }
    assert_eq!(PgnGame::from_tree(start, &nodes), Err(TreeError::TooDeep));
    assert!(PgnGame::from_tree(start, &nodes[..nodes.len() - 3]).is_ok());
}
