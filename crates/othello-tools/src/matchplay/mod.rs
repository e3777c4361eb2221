//! Matches between ply and an external engine over GTP: a [`client`] for an engine
//! subprocess (with timeouts), [`openings`] (a built-in set, or drawn from WTHOR games), the
//! [`game`] loop with
//! per-game clocks, [`stats`] (W/D/L, disc differential, Elo with a 95% interval), and the
//! [`runner`] that plays a whole match ([`run_match`], reporting each game to a callback).

pub mod client;
pub mod game;
pub mod openings;
pub mod runner;
pub mod stats;

pub use client::{GtpClient, GtpError};
pub use game::{play_game, GameOptions, GameRecord, Termination};
pub use openings::{
    builtin_openings, generate_builtin, openings_from_games, parse_openings, select_balanced,
    select_balanced_by_search, BUILTIN_OPENINGS,
};
pub use runner::{run_match, Endings, Flow, GameReport, MatchOptions, MatchOutcome};
pub use stats::{elo_from_score, Tally};
