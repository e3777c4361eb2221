//! The clamps applied to every request: a client may ask for any level, time or node count,
//! and gets at most what is written here.

use crate::error::ApiError;
use std::time::Duration;

/// Longest a move search may take (chess and Othello).
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(10);
/// Longest a move search of a timed game may take, whatever its clock (the engine's time
/// management gives it a share of the clock; this only bounds a very long game's share).
pub const MAX_TIMED_MOVE: Duration = Duration::from_secs(60);
/// Most time a clock of a timed game may hold (longer clocks are read as this).
pub const MAX_CLOCK: Duration = Duration::from_secs(6 * 3600);
/// Largest increment of a timed game.
pub const MAX_INCREMENT: Duration = Duration::from_secs(600);
/// Longest a streamed analysis (chess analysis, Othello hints) may take.
pub const MAX_ANALYSIS_TIME: Duration = Duration::from_secs(30);
/// Default length of a streamed analysis.
pub const DEFAULT_ANALYSIS_TIME: Duration = Duration::from_secs(5);
/// Most nodes of one chess search.
pub const MAX_CHESS_NODES: u64 = 50_000_000;
/// Nodes of a chess move when the request names no limit.
pub const DEFAULT_CHESS_NODES: u64 = 100_000;
/// Nodes of each position of a chess review when the request names none (about a tenth of a
/// second a position on one thread).
pub const DEFAULT_REVIEW_NODES: u64 = 100_000;
/// Most principal variations of a chess analysis.
pub const MAX_MULTIPV: usize = 5;
/// Most nodes of one Othello search.
pub const MAX_OTHELLO_NODES: u64 = 2_000_000_000;
/// Othello level when the request names none.
pub const DEFAULT_OTHELLO_LEVEL: u8 = 10;
/// Othello review level when the request names none: a whole game in a few seconds on one thread
/// of a small machine, half a minute for a wild one (see docs/web.md).
pub const DEFAULT_OTHELLO_REVIEW_LEVEL: u8 = 14;
/// Highest level of an Othello review (beyond, a review takes many minutes).
pub const MAX_OTHELLO_REVIEW_LEVEL: u8 = 20;
/// Most empty squares an Othello review solves exactly (fewer at low levels, see
/// [`review_exact_from`]).
pub const MAX_REVIEW_EXACT_FROM: u32 = 20;
/// Widest randomness of an Othello book move, in discs (a whole board).
pub const MAX_BOOK_RANDOMNESS: i32 = 64;
/// Most empty squares `solve` accepts (beyond, an exact solve may take minutes).
pub const SOLVE_MAX_EMPTIES: u32 = 22;
/// Longest move list or position text a request may hold, in bytes.
pub const MAX_TEXT: usize = 4096;
/// Largest request accepted, bytes: a server's body, the browser build's request text.
pub const MAX_REQUEST: usize = 64 * 1024;
/// Most moves of a move tree the page sends to be written as PGN.
pub const MAX_TREE_NODES: usize = 4096;

/// The clock of the side to move in a timed game: its time left and increment in milliseconds
/// (clamped to [`MAX_CLOCK`] and [`MAX_INCREMENT`]); `None` for an untimed game.
pub fn clamp_clock(time: Option<u64>, inc: Option<u64>) -> Option<(Duration, Duration)> {
    let time = Duration::from_millis(time?).min(MAX_CLOCK);
    let inc = Duration::from_millis(inc.unwrap_or(0)).min(MAX_INCREMENT);
    Some((time, inc))
}

/// The time of one search: the asked milliseconds (or `default`), at most `max`, at least 1 ms.
pub fn clamp_time(ms: Option<u64>, default: Duration, max: Duration) -> Duration {
    ms.map(Duration::from_millis)
        .unwrap_or(default)
        .clamp(Duration::from_millis(1), max)
}

/// An Othello level: 1..=60, [`DEFAULT_OTHELLO_LEVEL`] when none is asked.
pub fn clamp_level(level: Option<u32>) -> u8 {
    level.map_or(DEFAULT_OTHELLO_LEVEL, |l| l.clamp(1, 60) as u8)
}

/// An Othello review level: 1..=[`MAX_OTHELLO_REVIEW_LEVEL`], [`DEFAULT_OTHELLO_REVIEW_LEVEL`]
/// when none is asked.
pub fn clamp_review_level(level: Option<u32>) -> u8 {
    level.map_or(DEFAULT_OTHELLO_REVIEW_LEVEL, |l| {
        l.clamp(1, u32::from(MAX_OTHELLO_REVIEW_LEVEL)) as u8
    })
}

/// The empties from which an Othello review at `level` solves exactly: `level + 6`, at most
/// [`MAX_REVIEW_EXACT_FROM`] (a fast review stays fast to its end).
pub fn review_exact_from(level: u8) -> u32 {
    (u32::from(level) + 6).min(MAX_REVIEW_EXACT_FROM)
}

/// The randomness of an Othello book move in discs: 0..=[`MAX_BOOK_RANDOMNESS`], 0 (the best,
/// ties drawn) when none is asked.
pub fn clamp_book_randomness(discs: Option<i32>) -> i32 {
    discs.unwrap_or(0).clamp(0, MAX_BOOK_RANDOMNESS)
}

/// The nodes of a chess search: at least 1, at most [`MAX_CHESS_NODES`].
pub fn clamp_chess_nodes(nodes: Option<u64>) -> Option<u64> {
    nodes.map(|n| n.clamp(1, MAX_CHESS_NODES))
}

/// Refuses a text field longer than [`MAX_TEXT`].
///
/// # Errors
/// [`ApiError::BadRequest`] naming the field.
pub fn check_length(field: &str, text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_TEXT {
        Err(ApiError::BadRequest(format!(
            "{field} is too long ({} bytes, at most {MAX_TEXT})",
            text.len()
        )))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps() {
        let d = Duration::from_secs(1);
        assert_eq!(clamp_time(None, d, MAX_MOVE_TIME), d);
        assert_eq!(clamp_time(Some(u64::MAX), d, MAX_MOVE_TIME), MAX_MOVE_TIME);
        assert_eq!(
            clamp_time(Some(0), d, MAX_MOVE_TIME),
            Duration::from_millis(1)
        );
        assert_eq!(clamp_level(Some(999)), 60);
        assert_eq!(clamp_level(Some(0)), 1);
        assert_eq!(clamp_level(None), DEFAULT_OTHELLO_LEVEL);
        assert_eq!(clamp_chess_nodes(Some(u64::MAX)), Some(MAX_CHESS_NODES));
        assert_eq!(clamp_chess_nodes(Some(0)), Some(1));
        assert_eq!(clamp_review_level(None), DEFAULT_OTHELLO_REVIEW_LEVEL);
        assert_eq!(clamp_review_level(Some(99)), MAX_OTHELLO_REVIEW_LEVEL);
        assert_eq!(clamp_review_level(Some(0)), 1);
        assert_eq!(review_exact_from(2), 8);
        assert_eq!(clamp_book_randomness(None), 0);
        assert_eq!(clamp_book_randomness(Some(-3)), 0);
        assert_eq!(clamp_book_randomness(Some(99)), MAX_BOOK_RANDOMNESS);
        assert_eq!(
            review_exact_from(MAX_OTHELLO_REVIEW_LEVEL),
            MAX_REVIEW_EXACT_FROM
        );
    }
}
