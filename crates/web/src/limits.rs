//! The server's settings ([`Config`]) and the clamps applied to every request, which are the
//! browser build's too ([`ply_web_api::limits`], re-exported here): a client may ask for any
//! level, time or node count, and gets at most what is written there.

pub use ply_web_api::limits::*;
use std::time::Duration;

/// Settings of one server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Threads of each search.
    pub threads: usize,
    /// Transposition table of each search slot, MiB (one for chess, one for Othello).
    pub hash_mib: usize,
    /// Searches that may run at once; each has its own tables.
    pub max_searches: usize,
    /// How long a request waits for a free search slot before it gets 503.
    pub queue_wait: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            hash_mib: 16,
            max_searches: 2,
            queue_wait: Duration::from_secs(2),
        }
    }
}

/// Most threads of one search, whatever the command line says.
pub const MAX_THREADS: usize = 64;
/// Most MiB of one table, whatever the command line says.
pub const MAX_HASH_MIB: usize = 4096;
