//! Matches between ply and an external engine over GTP: a [`client`] for an engine
//! subprocess (with timeouts), [`openings`] (a built-in set, or drawn from WTHOR games), the
//! [`game`] loop with
//! per-game clocks, and [`stats`] (W/D/L, disc differential, Elo with a 95% interval).

pub mod client;
pub mod game;
pub mod openings;
pub mod stats;

pub use client::{GtpClient, GtpError};
pub use game::{play_game, GameOptions, GameRecord, Termination};
pub use openings::{
    builtin_openings, generate_builtin, openings_from_games, parse_openings, select_balanced,
    BUILTIN_OPENINGS,
};
pub use stats::{elo_from_score, Tally};
