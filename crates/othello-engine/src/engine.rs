//! The engine's public entry: [`Engine`] (tables, weights and threads kept between moves). The
//! types of a search request and its answer are in `request` ([`Limits`], [`Outcome`]), the
//! midgame search itself in [`crate::midgame`], the exact solver in `endgame`.
//!
//! ```
//! use ply_othello::{Board, Square};
//! use ply_othello_engine::{Engine, EngineOptions, Limits};
//! use std::sync::atomic::AtomicBool;
//! let mut engine = Engine::new(EngineOptions { hash_mib: 4, ..EngineOptions::default() });
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let out = engine.think(&Board::start(), &limits, &AtomicBool::new(false), &mut |_| {});
//! assert!([Square::D3, Square::C4, Square::F5, Square::E6].contains(&out.best));
//! ```

use crate::eval::{PackedWeights, Weights};
use crate::kernel::{with_kernel, Cpu};
use crate::midgame::think;
use crate::request::{Info, Limits, Outcome};
use crate::tt::{TableError, Tt};
use ply_othello::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Engine construction options.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition tables in MiB (split between the midgame and the endgame table).
    pub hash_mib: usize,
    /// Search threads (1 on `wasm32`, which has none to start).
    pub threads: usize,
    /// Evaluation weights; `None` for the embedded ones.
    pub weights: Option<PackedWeights>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: 64,
            threads: 1,
            weights: None,
        }
    }
}

/// The Othello engine: tables, weights and threads kept between moves.
pub struct Engine {
    cpu: Cpu,
    weights: Arc<Weights>,
    mid_tt: Arc<Tt>,
    eg_tt: Arc<Tt>,
    threads: usize,
}

/// Sizes of the two tables for a total of `mib` MiB.
fn table_sizes(mib: usize) -> (usize, usize) {
    let mib = mib.max(2);
    (mib / 2, mib - mib / 2)
}

/// The two tables for a total of `mib` MiB, or why they cannot be made.
fn tables(mib: usize) -> Result<(Arc<Tt>, Arc<Tt>), TableError> {
    let max = crate::tt::hash_limit_mib();
    if mib > max {
        return Err(TableError::TooLarge { mib, max });
    }
    let (m, e) = table_sizes(mib);
    // the error names the size asked for, not the half of it that failed
    let whole = |err| match err {
        TableError::OutOfMemory { bytes, .. } => TableError::OutOfMemory { mib, bytes },
        other => other,
    };
    let mid = Tt::try_new(m).map_err(whole)?;
    let eg = Tt::try_new(e).map_err(whole)?;
    Ok((Arc::new(mid), Arc::new(eg)))
}

impl Engine {
    /// An engine with the given options (fastest CPU kernel available).
    ///
    /// # Panics
    /// If the tables cannot be allocated; use [`try_new`](Self::try_new) for a size given by
    /// a user.
    pub fn new(opts: EngineOptions) -> Engine {
        match Engine::try_new(opts) {
            Ok(engine) => engine,
            Err(e) => panic!("{e}"),
        }
    }

    /// An engine with the given options, or an error when its tables (`hash_mib`) are above
    /// [`hash_limit_mib`](crate::hash_limit_mib) or cannot be allocated.
    pub fn try_new(opts: EngineOptions) -> Result<Engine, TableError> {
        let (mid_tt, eg_tt) = tables(opts.hash_mib)?;
        let packed = opts.weights.unwrap_or_else(|| {
            crate::eval::embedded_weights().unwrap_or_else(|_| PackedWeights::zero_per_ply())
        });
        Ok(Engine {
            cpu: Cpu::detect(),
            weights: Arc::new(Weights::new(&packed)),
            mid_tt,
            eg_tt,
            threads: crate::platform::usable_threads(opts.threads),
        })
    }

    /// A second engine with this one's weights (shared, not rebuilt), CPU kernel and thread
    /// count, and tables of its own (`hash_mib` MiB): cheap, for running several games or
    /// sessions side by side.
    ///
    /// # Panics
    /// If the tables cannot be allocated; see [`try_sibling`](Self::try_sibling).
    pub fn sibling(&self, hash_mib: usize) -> Engine {
        match self.try_sibling(hash_mib) {
            Ok(engine) => engine,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`sibling`](Self::sibling), or an error when the tables cannot be allocated.
    pub fn try_sibling(&self, hash_mib: usize) -> Result<Engine, TableError> {
        let (mid_tt, eg_tt) = tables(hash_mib)?;
        Ok(Engine {
            cpu: self.cpu,
            weights: Arc::clone(&self.weights),
            mid_tt,
            eg_tt,
            threads: self.threads,
        })
    }

    /// A second engine on this one's weights *and tables* (shared, not copied), CPU kernel and
    /// thread count: for a search in the background (pondering on the opponent's time) whose
    /// entries this engine then finds. The tables take concurrent searches as the threads of
    /// one search do; [`set_hash`](Self::set_hash) on either gives it tables of its own.
    pub fn twin(&self) -> Engine {
        Engine {
            cpu: self.cpu,
            weights: Arc::clone(&self.weights),
            mid_tt: Arc::clone(&self.mid_tt),
            eg_tt: Arc::clone(&self.eg_tt),
            threads: self.threads,
        }
    }

    /// Forgets the tables between games.
    pub fn new_game(&mut self) {
        self.mid_tt.clear();
        self.eg_tt.clear();
    }

    /// Replaces the evaluation weights (and forgets what was searched with the old ones).
    pub fn set_weights(&mut self, w: &PackedWeights) {
        self.weights = Arc::new(Weights::new(w));
        self.mid_tt.clear();
    }

    /// Sets the number of search threads (at least 1; always 1 on `wasm32`).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = crate::platform::usable_threads(n);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes the tables (their contents are lost). When the new tables cannot be allocated
    /// the error is returned and the previous tables are kept, contents included.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), TableError> {
        let (mid_tt, eg_tt) = tables(mib)?;
        self.mid_tt = mid_tt;
        self.eg_tt = eg_tt;
        Ok(())
    }

    /// Searches `board` (from the mover's view) until a limit is hit or `stop` is set
    /// (a set flag makes it return within a few milliseconds with the best move so far).
    /// `on_info` is called after every completed iteration. A mover without a legal move
    /// gets [`Square::PASS`](ply_othello::Square::PASS): at once (with a static score) when
    /// `limits` has a game clock, otherwise after a search of the position after the pass, reported from the mover's side (score
    /// negated, variation starting with the pass, the pass as the only all-moves row).
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let (player, opponent) = (board.player(), board.opponent());
        let ctx = think::Context {
            weights: &self.weights,
            mid_tt: &self.mid_tt,
            eg_tt: &self.eg_tt,
            threads: self.threads,
        };
        with_kernel!(self.cpu, |k| think::think(
            k, &ctx, player, opponent, limits, stop, on_info
        ))
    }
}
