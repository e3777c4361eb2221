//! Syzygy tables: opened once at startup (`ply serve --syzygy DIR`), handed to every chess
//! search, and probed for the page: the win/draw/loss and distance to zeroing of a position
//! and of each of its legal moves.

use ply_chess::Position;
use ply_syzygy::{ProbeError, Tablebase, Wdl};
use serde::Serialize;
use std::path::Path;
use thiserror::Error;

/// Why the tables of `--syzygy` could not be used.
#[derive(Debug, Error)]
pub enum SyzygyError {
    /// A directory of the list does not exist or is not a directory.
    #[error("Syzygy directory {0} does not exist or is not a directory")]
    NotADirectory(String),
    /// A directory exists but cannot be read.
    #[error("cannot read the Syzygy directory {path}: {source}")]
    Unreadable {
        /// The directory list given.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The directories hold no table.
    #[error("no Syzygy table (*.rtbw) in {0}")]
    NoTables(String),
}

/// Opens the tables of `path`, one directory or several separated by `:`. Unlike the UCI option,
/// a directory that does not exist is an error: the command line asked for it.
///
/// # Errors
/// [`SyzygyError`] when a directory is missing or unreadable, or none holds a table.
pub fn open(path: &str) -> Result<Tablebase, SyzygyError> {
    let dirs: Vec<&str> = path.split(':').filter(|d| !d.is_empty()).collect();
    if dirs.is_empty() {
        return Err(SyzygyError::NoTables(path.to_string()));
    }
    if let Some(dir) = dirs.iter().find(|d| !Path::new(d).is_dir()) {
        return Err(SyzygyError::NotADirectory((*dir).to_string()));
    }
    let tb = Tablebase::open(path).map_err(|source| SyzygyError::Unreadable {
        path: path.to_string(),
        source,
    })?;
    if tb.max_pieces() == 0 {
        return Err(SyzygyError::NoTables(path.to_string()));
    }
    Ok(tb)
}

/// A result of the tables, from one side's view.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Verdict {
    /// Win/draw/loss: 2 win, 1 win spoilt by the fifty-move rule, 0 draw, -1 loss saved by the
    /// fifty-move rule, -2 loss.
    pub wdl: i32,
    /// Distance to zeroing in plies (signed like `wdl`, 0 for a draw); `None` without DTZ tables.
    pub dtz: Option<i32>,
    /// `wdl` in words: `win`, `cursed win`, `draw`, `blessed loss`, `loss`.
    pub result: &'static str,
}

/// One legal move with the result it leads to.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveVerdict {
    /// UCI text (king takes rook for castling in Chess960).
    pub uci: String,
    /// SAN text.
    pub san: String,
    /// The result for the side that plays the move; `dtz` counts from the position before it
    /// (the move itself included), so the best move's is the position's.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The answer of a probe. `status` says which fields are there: `ok` (`position`, `moves`),
/// `no_tables` (the server has none), `too_many_pieces`, `castling_rights` (never in tables),
/// `unavailable` (a table is missing or unusable); `message` says it in words.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ProbeAnswer {
    /// `ok`, `no_tables`, `too_many_pieces`, `castling_rights` or `unavailable`.
    pub status: &'static str,
    /// A sentence for the page.
    pub message: String,
    /// Pieces on the board (kings included).
    pub pieces: u32,
    /// Most pieces the tables hold (0 without tables).
    pub max_pieces: u32,
    /// The position's result for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Verdict>,
    /// Every legal move, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MoveVerdict>,
}

/// `wdl` as a number and in words.
fn wdl_parts(wdl: Wdl) -> (i32, &'static str) {
    let words = match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed loss",
        Wdl::Loss => "loss",
    };
    (i32::from(wdl as i8), words)
}

fn verdict(wdl: Wdl, dtz: Option<i32>) -> Verdict {
    let (wdl, result) = wdl_parts(wdl);
    Verdict { wdl, dtz, result }
}

/// Probes `pos` and its legal moves in `tb` (`None`: the server has no tables); `chess960`
/// chooses the UCI form of castling moves.
pub fn probe(tb: Option<&Tablebase>, pos: &Position, chess960: bool) -> ProbeAnswer {
    let pieces = pos.occupied().count();
    let max_pieces = tb.map_or(0, |t| t.max_pieces() as u32);
    let answer = |status, message: String| ProbeAnswer {
        status,
        message,
        pieces,
        max_pieces,
        position: None,
        moves: Vec::new(),
    };
    let Some(tb) = tb else {
        return answer(
            "no_tables",
            "no tables: the server runs without --syzygy".into(),
        );
    };
    if pieces > max_pieces {
        return answer(
            "too_many_pieces",
            format!("too many pieces: {pieces} on the board, the tables hold up to {max_pieces}"),
        );
    }
    let reply = tb
        .probe_wdl_dtz(pos)
        .and_then(|(wdl, dtz)| Ok((wdl, dtz, tb.root_moves(pos)?)));
    match reply {
        Ok((wdl, dtz, roots)) => ProbeAnswer {
            status: "ok",
            message: format!("tablebase: {} for the side to move", wdl_parts(wdl).1),
            pieces,
            max_pieces,
            position: Some(verdict(wdl, Some(dtz.0))),
            moves: roots
                .iter()
                .map(|r| MoveVerdict {
                    uci: r.mv.uci(chess960).to_string(),
                    san: pos.san(r.mv),
                    verdict: verdict(r.wdl, r.dtz.map(|d| d.0)),
                })
                .collect(),
        },
        Err(ProbeError::CastlingRights) => answer(
            "castling_rights",
            "not in the tables: a side may still castle".into(),
        ),
        Err(ProbeError::TooManyPieces(n)) => answer(
            "too_many_pieces",
            format!("too many pieces: {n} on the board"),
        ),
        Err(e) => answer("unavailable", format!("the tables cannot tell: {e}")),
    }
}
