//! The built-in opening set: a few kB of balanced early positions that ship with the repository
//! (`crates/chess-tools/data/openings.epd`), so that `ply-chess datagen` runs without an outside
//! book. The file is made by [`generate`] and nothing else; a test checks that generating again
//! gives the same bytes.
//!
//! How a position is made: from the start position, [`PLIES`] uniformly random legal moves
//! drawn from a seeded splitmix64 stream (`ply_batch::rng::SplitMix64`); the result is kept
//! when it is new, not in check, has a legal move, and a single-threaded fixed-depth search
//! ([`DEPTH`] plies, fresh table) scores it within [`MAX_SCORE`] centipawns of zero. Random
//! play gives varied, often odd openings; the search filter drops those where a side simply
//! lost material.
//!
//! To write the file again (after a change to the search or the evaluation moves scores):
//! `PLY_REGENERATE=1 cargo test -p ply-chess-tools openings`.

use ply_chess::Position;
use ply_chess_engine::{Control, Engine, EngineOptions, Limits, Silent};
use std::collections::HashSet;

/// The built-in set, compiled into the program.
pub const BUILTIN: &str = include_str!("../data/openings.epd");
/// Where [`BUILTIN`] lives, relative to the repository root (for messages).
pub const BUILTIN_PATH: &str = "crates/chess-tools/data/openings.epd";
/// Positions in the built-in set.
pub const COUNT: usize = 128;
/// Seed of the built-in set.
pub const SEED: u64 = 2026;
/// Random plies from the start position.
pub const PLIES: u32 = 8;
/// Depth of the filtering search.
pub const DEPTH: i32 = 6;
/// A position is kept when its search score is at most this far from zero (centipawns).
pub const MAX_SCORE: i32 = 50;

/// `count` balanced positions from `seed`, as the text of an EPD file (a `#` header naming how
/// it was made, then one position a line: the four FEN fields of an EPD record). The same
/// arguments always give the same text.
pub fn generate(count: usize, seed: u64) -> String {
    let mut text = format!(
        "# ply's built-in chess openings: {count} positions made by \
         ply_chess_tools::openings::generate({count}, {seed}).\n\
         # Each is {PLIES} random plies from the start position, kept when a depth-{DEPTH} \
         search scores it within {MAX_SCORE} cp of 0.\n"
    );
    let mut rng = ply_batch::rng::SplitMix64::new(seed);
    let mut seen = HashSet::new();
    // the hand-made evaluation, as when the set was made
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 1,
        threads: 1,
        network: None,
    });
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let mut kept = 0;
    while kept < count {
        let mut pos = Position::startpos();
        for _ in 0..PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        if pos.is_check() || pos.legal_moves().is_empty() || !seen.insert(pos.hash()) {
            continue;
        }
        // each position searched as by a new engine: the set does not depend on the order
        engine.new_game();
        let r = engine.think(&pos, &[], &limits, &Control::new(), &Silent);
        if r.score.abs() > MAX_SCORE {
            continue;
        }
        let fen = pos.to_fen();
        let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
        text.push_str(&fields.join(" "));
        text.push('\n');
        kept += 1;
    }
    text
}

/// The positions of the built-in set.
///
/// # Panics
/// Never for the shipped file (a test reads it); a broken edit of the file would be a bug.
pub fn builtin() -> Vec<Position> {
    crate::book::parse(BUILTIN, std::path::Path::new(BUILTIN_PATH))
        .expect("the built-in opening set is a valid book")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_set_is_what_the_generator_makes() {
        let made = generate(COUNT, SEED);
        if std::env::var_os("PLY_REGENERATE").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings.epd");
            std::fs::write(path, &made).expect("write the opening set");
        }
        assert!(
            made == BUILTIN,
            "{BUILTIN_PATH} is not what generate({COUNT}, {SEED}) makes now; \
             rewrite it with PLY_REGENERATE=1 cargo test -p ply-chess-tools openings"
        );
        let book = builtin();
        assert_eq!(book.len(), COUNT);
        let distinct: HashSet<u64> = book.iter().map(|p| p.hash()).collect();
        assert_eq!(distinct.len(), COUNT);
        assert!(BUILTIN.len() < 16 * 1024, "a few kB: {}", BUILTIN.len());
    }
}
