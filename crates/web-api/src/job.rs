//! What a request asks of the engines, given to whoever runs it: the server runs a [`Job`] or
//! a [`Stream`] on a thread of its own with a search slot's [`Engines`]; the browser build
//! runs it at once in its worker. Either way the checks come first: a request that is wrong
//! fails before any search is planned.

use crate::error::ApiError;
use ply_chess_engine::{embedded_network, Engine as ChessEngine, EngineOptions as ChessOptions};
use ply_othello_engine::{Engine as OthelloEngine, EngineOptions as OthelloOptions};
use serde_json::Value;

/// The engines a search runs with, one per game (a server's search slot, the browser's worker).
pub struct Engines {
    /// The Othello engine.
    pub othello: OthelloEngine,
    /// The chess engine.
    pub chess: ChessEngine,
}

impl Engines {
    /// Both engines with tables of `hash_mib` MiB each, `threads` search threads, the built-in
    /// Othello weights and chess network.
    ///
    /// # Errors
    /// A table cannot be allocated (the allocator's answer).
    pub fn try_new(hash_mib: usize, threads: usize) -> Result<Engines, String> {
        let othello = OthelloEngine::try_new(OthelloOptions {
            hash_mib,
            threads,
            weights: None,
        })
        .map_err(|e| e.to_string())?;
        Ok(Engines {
            othello,
            chess: Engines::chess(hash_mib, threads)?,
        })
    }

    /// Engines for another search slot: tables of their own of `hash_mib` MiB, the same
    /// threads, the Othello weights shared with these and the same built-in network.
    ///
    /// # Errors
    /// A table cannot be allocated.
    pub fn try_sibling(&self, hash_mib: usize) -> Result<Engines, String> {
        Ok(Engines {
            othello: self
                .othello
                .try_sibling(hash_mib)
                .map_err(|e| e.to_string())?,
            chess: Engines::chess(hash_mib, self.chess.threads())?,
        })
    }

    fn chess(hash_mib: usize, threads: usize) -> Result<ChessEngine, String> {
        ChessEngine::try_new(ChessOptions {
            hash_mib,
            threads,
            network: embedded_network(),
        })
        .map_err(|e| e.to_string())
    }
}

/// A search to run with a slot's engines, returning the reply.
pub type Search<R> = Box<dyn FnOnce(&mut Engines) -> Result<R, ApiError> + Send>;

/// A request's answer: ready now, or after a search.
pub enum Job<R> {
    /// Answered without a search (an opening book's move).
    Ready(R),
    /// Answered by this search.
    Search(Search<R>),
}

impl<R> Job<R> {
    /// The answer, searching with `engines` when it takes a search.
    ///
    /// # Errors
    /// The search's [`ApiError`] (the engine found no move).
    pub fn run(self, engines: &mut Engines) -> Result<R, ApiError> {
        match self {
            Job::Ready(r) => Ok(r),
            Job::Search(search) => search(engines),
        }
    }
}

/// Where a streamed search sends its events (server-sent events, a worker's messages).
pub trait Sink: Sync {
    /// Sends a progress event; it may be dropped when the receiver is behind. False when the
    /// receiver has gone (the search then stops).
    fn progress(&self, event: &str, data: &Value) -> bool;
    /// Sends the last event of the stream.
    fn last(&self, event: &str, data: &Value);
    /// True once the receiver has gone.
    fn is_closed(&self) -> bool;
}

/// A streamed search's run: its events go to the sink.
pub type StreamRun = Box<dyn FnOnce(&mut Engines, &dyn Sink) + Send>;

/// A streamed search: its run, and how to stop it from elsewhere.
pub struct StreamSearch {
    /// Stops the search (called when the receiver goes away; the run then ends soon after).
    pub stop: Box<dyn FnOnce() + Send>,
    /// The search, sending its events to the sink.
    pub run: StreamRun,
}

/// A streamed request's events: ready now, or sent by a search.
pub enum Stream {
    /// Every event, known without a search (name and data).
    Ready(Vec<(&'static str, Value)>),
    /// A search that sends them.
    Search(StreamSearch),
}

impl Stream {
    /// Sends every event to `sink`, searching with `engines` when it takes a search.
    pub fn run(self, engines: &mut Engines, sink: &dyn Sink) {
        match self {
            Stream::Ready(events) => {
                for (event, data) in &events {
                    sink.progress(event, data);
                }
            }
            Stream::Search(search) => (search.run)(engines, sink),
        }
    }
}
