//! Chess input paths: FEN and EPD, opening books, tuning records, UCI sessions and Syzygy table
//! bytes. Each harness feeds its bytes through the public API and checks what must hold of
//! whatever parses (round trips, fast path == reference path); it panics only on a real bug.

use crate::text_lines;
use ply_chess::{perft, perft_copy_make, Magic, Position};
use ply_chess_cli::protocol::uci::LineError;
use ply_chess_cli::protocol::UciSession;
use ply_cli_support::ByteLines;
use ply_syzygy::{RawPosition, Tablebase, Wdl};
use std::path::Path;
use std::sync::Arc;

/// Checks one parsed position: the FEN round trip, every legal move played, and the move
/// generator's fast perft against its copy-make reference at depth 2.
fn check_position(pos: &Position) {
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen)
        .unwrap_or_else(|e| panic!("FEN written by to_fen does not parse: {fen}: {e}"));
    assert_eq!(
        again.hash(),
        pos.hash(),
        "FEN round trip changed the key: {fen}"
    );
    assert_eq!(again.to_fen(), fen, "FEN round trip is not stable");
    for &m in pos.legal_moves().iter() {
        let child = pos.play(m);
        // king-takes-rook notation names every move unambiguously, Chess960 castling included
        let text = m.uci(true).to_string();
        assert_eq!(
            pos.parse_uci(&text).ok(),
            Some(m),
            "UCI {text} of {fen} does not parse back"
        );
        let san = pos.san(m);
        assert_eq!(
            pos.parse_san(&san).ok(),
            Some(m),
            "SAN {san} of {fen} does not parse back"
        );
        let _ = child.to_fen();
    }
    assert_eq!(
        perft(pos, 2),
        perft_copy_make(pos, 2, Magic),
        "perft(2) fast path != copy-make reference: {fen}"
    );
}

/// A FEN or EPD line: parse, and check what parses.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        check_position(&pos);
    }
    if let Ok((pos, _ops)) = Position::from_epd(&text) {
        check_position(&pos);
    }
}

/// An opening book (EPD lines) as `ply-chess datagen --book` reads it.
pub fn book(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(positions) = ply_chess_tools::book::parse(&text, Path::new("fuzz.epd")) {
        for p in positions.iter().take(4) {
            check_position(p);
        }
    }
}

/// Lines of a `ply-chess datagen` file (`FEN;score;result;game`) as `ply-chess tune` reads them.
pub fn records(data: &[u8]) {
    // each parsed record is traced through the evaluation with a fresh pawn table: keep it short
    for line in text_lines(data).iter().take(8) {
        let _ = ply_chess_tools::tune::dataset::Entry::parse(line);
    }
}

/// Node cap appended to every `go` of a UCI session, so that any search ends quickly.
const UCI_GO_NODES: u64 = 500;

/// A UCI session (1 MiB of hash): the input's bytes go through the line reader of the binary
/// (`ply_cli_support::ByteLines`), so lines that are not UTF-8 reach the engine's error path, and
/// each line is a command. Options that would make the session slow or reach outside it are bounded
/// first: a `Hash` above 16 MiB is passed on only when the engine refuses it without allocating
/// (above `UciSession::hash_limit_mib`, the refusal path; a table that fits is skipped), `Threads`
/// at most 2, no `SyzygyPath`; every `go` gets a node cap and is waited for, and infinite or ponder
/// searches are stopped. At most 24 lines are read. Unless the input said `quit`, the engine must
/// still answer `isready` with `readyok` afterwards: no input ends a session.
pub fn uci(data: &[u8]) {
    let last = Arc::new(std::sync::Mutex::new(String::new()));
    let sink = Arc::clone(&last);
    let mut session = UciSession::with_hash(
        Arc::new(move |l: &str| {
            let mut last = sink
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            l.clone_into(&mut last);
        }),
        1,
    );
    let hash_limit = UciSession::hash_limit_mib() as u64;
    for read in ByteLines::new(data).take(24) {
        let line = match read.as_deref() {
            Ok(line) => line,
            Err(_) => {
                if !session.handle_read(Err(LineError::NotUtf8)) {
                    return;
                }
                continue;
            }
        };
        let lower = line.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.first().copied() {
            Some("setoption") => {
                let value = words
                    .iter()
                    .position(|&w| w == "value")
                    .and_then(|i| words.get(i + 1))
                    .and_then(|v| v.parse::<u64>().ok());
                let name = |n: &str| lower.contains(&format!("name {n}"));
                if name("syzygypath")
                    || (name("hash") && value.is_some_and(|v| v > 16 && v <= hash_limit))
                    || (name("threads") && value.is_some_and(|v| v > 2))
                {
                    continue;
                }
                session.handle_read(Ok(line));
            }
            Some("go") => {
                session.handle(&format!("{line} nodes {UCI_GO_NODES}"));
                if words.contains(&"infinite") || words.contains(&"ponder") {
                    session.handle("stop");
                }
                session.wait();
            }
            _ => {
                if !session.handle_read(Ok(line)) {
                    return;
                }
            }
        }
    }
    session.wait();
    session.handle("isready");
    let answer = last
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    assert_eq!(answer, "readyok", "the session stopped answering isready");
    session.handle("quit");
}

/// Small real tables whose bytes the Syzygy target mutates: the first input byte picks one.
pub const SYZYGY_TABLES: [&str; 8] = [
    "KQvK.rtbw",
    "KRvK.rtbw",
    "KBvKN.rtbw",
    "KNvKN.rtbw",
    "KRPvK.rtbw",
    "KQvK.rtbz",
    "KPvK.rtbz",
    "KRvKR.rtbz",
];

/// Probes given in a Syzygy input after the table selector, 4 bytes each.
pub const SYZYGY_PROBES: usize = 4;

/// Bytes before the table file in a Syzygy input: the selector and the probes.
pub const SYZYGY_HEADER: usize = 1 + 4 * SYZYGY_PROBES;

/// The position of one probe: the pieces of the table's material in name order (white first)
/// on the squares of the probe's bytes (low 6 bits), White to move when the first byte's top
/// bit is clear. Squares may coincide: the prober must reject that, not trust it.
fn raw_position(material: &str, probe: &[u8]) -> RawPosition {
    let mut raw = RawPosition {
        white_to_move: probe[0] & 0x80 == 0,
        ..RawPosition::default()
    };
    let (white, black) = material.split_once('v').unwrap_or((material, ""));
    let pieces = white
        .chars()
        .map(|c| (true, c))
        .chain(black.chars().map(|c| (false, c)));
    for ((is_white, c), &byte) in pieces.zip(probe) {
        let role = match c {
            'P' => 0,
            'N' => 1,
            'B' => 2,
            'R' => 3,
            'Q' => 4,
            _ => 5,
        };
        let side = if is_white {
            &mut raw.white
        } else {
            &mut raw.black
        };
        side[role] |= 1u64 << (byte & 63);
    }
    raw
}

/// The FEN of a raw position, when it is one `ply_chess` accepts.
fn raw_fen(raw: &RawPosition) -> String {
    let mut board = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let bit = 1u64 << (rank * 8 + file);
            let piece = (0..6).find_map(|r| {
                let c = b"pnbrqk"[r] as char;
                if raw.white[r] & bit != 0 {
                    Some(c.to_ascii_uppercase())
                } else if raw.black[r] & bit != 0 {
                    Some(c)
                } else {
                    None
                }
            });
            match piece {
                Some(c) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let side = if raw.white_to_move { 'w' } else { 'b' };
    format!("{board} {side} - - 0 1")
}

/// A Syzygy table file: the first byte picks a table of [`SYZYGY_TABLES`], the next
/// `4 * SYZYGY_PROBES` bytes place the pieces of its probes, the rest is the file. The file is
/// written alone into a fresh temporary directory of its own (removed after the input), opened
/// through `Tablebase::open`, and probed raw and, for placements that make legal positions,
/// through the full WDL/DTZ probes (whose capture resolution meets missing tables, which must be
/// errors).
pub fn syzygy(data: &[u8]) {
    if data.len() < SYZYGY_HEADER {
        return;
    }
    let name = SYZYGY_TABLES[usize::from(data[0]) % SYZYGY_TABLES.len()];
    // a folder of this input's own, holding only that file; removed with it when `dir` is dropped
    // at the end (after `tb`, declared later), also when a probe panics
    let Ok(dir) = tempfile::Builder::new()
        .prefix("ply-fuzz-syzygy-")
        .tempdir()
    else {
        return;
    };
    if std::fs::write(dir.path().join(name), &data[SYZYGY_HEADER..]).is_err() {
        return;
    }
    let Ok(tb) = Tablebase::open(&dir.path().to_string_lossy()) else {
        return;
    };
    let material = name.split('.').next().unwrap_or(name);
    for probe in data[1..SYZYGY_HEADER].chunks_exact(4) {
        let raw = raw_position(material, probe);
        let wdl = tb.probe_wdl_table(&raw);
        for w in [Wdl::Win, Wdl::Loss, Wdl::CursedWin, Wdl::BlessedLoss] {
            let _ = tb.probe_dtz_table(&raw, w);
        }
        if let Ok(pos) = Position::from_fen(&raw_fen(&raw)) {
            let _ = (wdl, tb.probe_wdl(&pos), tb.probe_dtz(&pos));
            let _ = tb.root_moves(&pos);
        }
    }
}
