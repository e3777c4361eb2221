//! Seed corpora: starting inputs for each target, from protocol transcripts written here and
//! from the reference data under `../shared/` (perft and tactics suites, the opening book, FFO
//! endgames, WTHOR games, Syzygy tables). The fuzzer mutates them; the tests replay them.

use crate::chess::{SYZYGY_HEADER, SYZYGY_TABLES};
use std::path::Path;

/// One seed input of a target.
pub struct Seed {
    /// Target name.
    pub target: &'static str,
    /// File name of the seed in the corpus folder.
    pub name: String,
    /// The input.
    pub data: Vec<u8>,
}

fn seed(target: &'static str, name: impl Into<String>, data: impl Into<Vec<u8>>) -> Seed {
    Seed {
        target,
        name: name.into(),
        data: data.into(),
    }
}

/// UCI sessions a GUI or a match runner sends.
const UCI: &[&str] = &[
    "uci\nisready\nucinewgame\nposition startpos\ngo depth 3\nquit\n",
    "uci\nsetoption name Hash value 8\nsetoption name MultiPV value 3\nisready\nposition startpos moves e2e4 e7e5 g1f3\ngo nodes 500\n",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1\ngo wtime 1000 btime 1000 winc 10 binc 10\n",
    "setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo depth 2\n",
    "position startpos moves e2e4\ngo ponder wtime 500 btime 500\nponderhit\nstop\n",
    "position fen 8/8/8/8/8/6k1/4Q3/6K1 w - - 0 1\ngo mate 2\n",
    "go infinite\nstop\nposition startpos moves e2e5\nsetoption name Threads value 2\ngo movetime 10\n",
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1\nsetoption name Clear Hash\nisready\n",
];

/// GTP sessions (Quarry, GRhino's conventions).
const GTP: &[&str] = &[
    "protocol_version\nname\nlist_commands\nboardsize 8\nclear_board\nplay black f5\ngenmove white\nshowboard\nfinal_score\nquit\n",
    "1 boardsize 8\n2 clear_board\n3 time_settings 10 0 0\n4 time_left black 5 0\n5 genmove black\n6 undo\n7 set_level 3\n8 genmove b\n",
    "play black f5\nplay white d6\nplay black c3\nplay white d3\nplay black c4\ngenmove white\nplay black pass\nknown_command genmove\n",
    "komi 0\nplay b e6\nplay w f4\nundo\nundo\nundo\ngenmove w\n# comment\n\n",
];

/// NBoard sessions (the NBoard GUI's protocol 2).
const NBOARD: &[&str] = &[
    "nboard 2\nset depth 3\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)\nping 1\ngo\nhint 3\nquit\n",
    "nboard 2\nset contempt 2\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)\nmove F5/0.5/1.0\nmove D6\nanalyze\nlearn\n",
    "set depth 60\nset game (;GM[Othello]BO[8 O-OOOOO-OOOOOOOOOOOOO*OOOO*O*OOOOO**O*OOOO*OOOO*OOO*O*OO****OOOO* *];)\ngo\nmove PA\n",
];

/// Console sessions in the manner of Edax.
const TEXT: &[&str] = &[
    "help\nf5d6c3\ngo\nhint 3\nundo\nredo\nmoves\nboard\nquit\n",
    "setboard ---------------------------OX------XO--------------------------- X\nlevel 4\nmode 2\n",
    "setboard O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X\nsolve\nplay g2\ninit\nmode 3\n",
];

/// The seeds that need no reference data: protocol transcripts and a few hand-made inputs.
pub fn builtin() -> Vec<Seed> {
    let mut out = Vec::new();
    for (target, list) in [
        ("uci", UCI),
        ("gtp", GTP),
        ("nboard", NBOARD),
        ("text", TEXT),
    ] {
        for (i, t) in list.iter().enumerate() {
            out.push(seed(target, format!("transcript-{i}"), t.as_bytes()));
        }
    }
    out.push(seed(
        "fen",
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ));
    out.push(seed(
        "records",
        "lines",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;25;0.5;0\n\
         8/8/8/8/8/6k1/4Q3/6K1 w - - 0 1;2500;1;7\n",
    ));
    out.push(seed(
        "labels",
        "lines",
        "% datagen\n---------------------------OX------XO--------------------------- X 0 3 played\n\
         XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; G6:-2; H5:+6;\n",
    ));
    out.push(seed(
        "openings",
        "lines",
        "# balanced\nf5d6c3d3c4\nf5f6e6f4\n",
    ));
    let start = ply_othello::Game::new(ply_othello::Position::start());
    out.push(seed("ggf", "empty", ply_othello::to_ggf(&start)));
    out.push(seed(
        "weights",
        "v1",
        ply_othello_engine::eval::EMBEDDED_V1.to_vec(),
    ));
    out
}

/// Up to `n` non-empty, non-comment lines of a text file under `shared`.
fn lines_of(shared: &Path, rel: &str, n: usize) -> Vec<String> {
    std::fs::read_to_string(shared.join(rel))
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .take(n)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Where the pieces of the probes of a Syzygy seed stand: kings apart, other pieces on free
/// squares, both sides to move.
const SYZYGY_PROBE_SQUARES: [[u8; 4]; 4] = [
    [4, 27, 60, 10],         // e1, d4, e8, c2; White to move
    [0x80 | 6, 35, 56, 20],  // g1, d5, a8, e3; Black to move
    [0, 18, 63, 44],         // a1, c3, h8, e6
    [0x80 | 33, 12, 39, 50], // b5, e2, h5, c7; Black to move
];

/// Seeds from the reference data under `shared` (none where it is missing).
pub fn from_shared(shared: &Path) -> Vec<Seed> {
    let mut out = Vec::new();
    for (rel, n) in [
        ("chess/perft/perftsuite.epd", 40),
        ("chess/perft/cpw_positions.epd", 10),
        ("chess/suites/wac.epd", 40),
    ] {
        for (i, l) in lines_of(shared, rel, n).into_iter().enumerate() {
            let stem = Path::new(rel)
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            out.push(seed("fen", format!("{stem}-{i}"), l));
        }
    }
    let book = lines_of(shared, "chess/books/8mvs_+90_+99.epd", 24);
    if !book.is_empty() {
        out.push(seed("book", "8mvs-head", book.join("\n") + "\n"));
        let records: Vec<String> = book
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let fen: Vec<&str> = l.split_whitespace().take(4).collect();
                (fen.len() == 4).then(|| {
                    format!(
                        "{} 0 1;{};{};{i}",
                        fen.join(" "),
                        20 * i as i32 - 200,
                        ["0", "0.5", "1"][i % 3]
                    )
                })
            })
            .collect();
        out.push(seed("records", "from-book", records.join("\n") + "\n"));
        let uci: Vec<String> = book
            .iter()
            .take(4)
            .map(|l| {
                let fen: Vec<&str> = l.split_whitespace().take(4).collect();
                format!("position fen {} 0 1\ngo depth 2", fen.join(" "))
            })
            .collect();
        out.push(seed("uci", "from-book", uci.join("\n") + "\n"));
    }
    for (i, name) in SYZYGY_TABLES.iter().enumerate() {
        if let Ok(bytes) = std::fs::read(shared.join("syzygy/tables").join(name)) {
            let mut data = Vec::with_capacity(SYZYGY_HEADER + bytes.len());
            data.push(i as u8);
            for probe in SYZYGY_PROBE_SQUARES {
                data.extend_from_slice(&probe);
            }
            data.extend_from_slice(&bytes);
            out.push(seed("syzygy", name.replace('.', "-"), data));
        }
    }
    for rel in [
        "othello/ffo/fforum-1-19.obf",
        "othello/ffo/fforum-40-59.obf",
    ] {
        let lines = lines_of(shared, rel, 20);
        for (i, l) in lines.iter().enumerate().take(8) {
            out.push(seed("obf", format!("ffo-{i}"), l.clone()));
        }
        out.push(seed(
            "labels",
            format!("ffo-{}", out.len()),
            lines.join("\n") + "\n",
        ));
    }
    // WTHOR: the header and the first games of a file; GGF records and openings of those games
    let wthor = std::fs::read_dir(shared.join("othello/wthor"))
        .map(|d| {
            let mut v: Vec<_> = d
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
                .collect();
            v.sort();
            v
        })
        .unwrap_or_default();
    if let Some(path) = wthor.last() {
        if let Ok(bytes) = std::fs::read(path) {
            const HEADER: usize = 16;
            const RECORD: usize = 68;
            let n = 6.min(bytes.len().saturating_sub(HEADER) / RECORD);
            let mut head = bytes[..HEADER + n * RECORD].to_vec();
            // the header's game count must match the games kept
            head[4..8].copy_from_slice(&(n as u32).to_le_bytes());
            out.push(seed("wthor", "head", head.clone()));
            if let Ok(file) = ply_othello::wthor::parse(&head, path) {
                let mut openings = String::new();
                for (g, game) in file.games.iter().enumerate() {
                    let mut record = ply_othello::Game::new(ply_othello::Position::start());
                    for ply in game.replay().flatten() {
                        if let Some(sq) = ply.next {
                            let _ = record.play(sq);
                        }
                    }
                    out.push(seed(
                        "ggf",
                        format!("wthor-{g}"),
                        ply_othello::to_ggf(&record),
                    ));
                    let moves = record.moves();
                    openings.push_str(&ply_othello::format_moves(&moves[..moves.len().min(10)]));
                    openings.push('\n');
                }
                out.push(seed("openings", "wthor", openings));
            }
        }
    }
    out
}
