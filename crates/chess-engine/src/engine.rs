//! The engine's front door: [`Engine`] keeps what lasts from one search to the next (the
//! transposition table, each search thread's tables, the evaluation, the tablebases and the
//! other options) and runs searches with them. Protocols, the web server and the tools all
//! search through it; the search itself is in `search`.
//!
//! The stop signal is the caller's [`Control`], handed to [`Engine::think`], as the Othello
//! engine takes its stop flag: a front end that starts the search on another thread resets the
//! control before starting that thread, so a `stop` that arrives before the search begins is
//! not lost.
//!
//! ```
//! use ply_chess::Position;
//! use ply_chess_engine::{mate_in, Control, Engine, EngineOptions, Limits, Silent};
//!
//! // White to move mates with Qg7#.
//! let pos = Position::from_fen("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1").unwrap();
//! let mut engine = Engine::new(EngineOptions { hash_mib: 1, ..EngineOptions::default() });
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = engine.think(&pos, &[], &limits, &Control::new(), &Silent);
//! assert_eq!(mate_in(result.score), Some(1));
//! assert!(pos.play(result.best).is_checkmate());
//! ```

use crate::nnue::Network;
use crate::search::ThreadTables;
use crate::search::{
    search_with_tables, Control, Info, Options, Reporter, SearchJob, SearchResult,
};
use crate::strength::Strength;
use crate::time::Limits;
use crate::tt::{AllocError, Bound, TranspositionTable};
use ply_chess::Position;
use ply_syzygy::Tablebase;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What an [`Engine`] starts with; the other settings have setters.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB (at least 1).
    pub hash_mib: usize,
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// The learned evaluation; `None` searches with the hand-made evaluation.
    pub network: Option<Arc<Network>>,
}

impl Default for EngineOptions {
    /// 16 MiB, one thread, the built-in network.
    fn default() -> Self {
        EngineOptions {
            hash_mib: 16,
            threads: 1,
            network: embedded_network(),
        }
    }
}

/// The built-in network, read once per process and shared (`None` only if its bytes did not
/// read, which a test rules out).
pub fn embedded_network() -> Option<Arc<Network>> {
    static EMBEDDED: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| Network::embedded().map(Arc::new))
        .clone()
}

/// The chess engine: a transposition table, the search threads' tables and the options, kept
/// between the searches of a game.
pub struct Engine {
    tt: TranspositionTable,
    tables: Vec<ThreadTables>,
    options: Options,
    /// The strength limit (`None`: full strength).
    strength: Option<Strength>,
    /// The number of the game, counted by [`new_game`](Engine::new_game) (a strength limit's
    /// draws depend on it).
    game: u64,
}

impl Engine {
    /// An engine with the given options.
    ///
    /// # Panics
    /// If the table cannot be allocated; use [`try_new`](Self::try_new) for a size given by a
    /// user.
    pub fn new(opts: EngineOptions) -> Engine {
        match Engine::try_new(opts) {
            Ok(engine) => engine,
            Err(e) => panic!("{e}"),
        }
    }

    /// An engine with the given options, or the error when its table cannot be allocated.
    ///
    /// # Errors
    /// [`AllocError`] naming the size asked for.
    pub fn try_new(opts: EngineOptions) -> Result<Engine, AllocError> {
        Ok(Engine {
            tt: TranspositionTable::try_new(opts.hash_mib.max(1))?,
            tables: Vec::new(),
            options: Options {
                threads: opts.threads.max(1),
                network: opts.network,
                ..Options::default()
            },
            strength: None,
            game: 0,
        })
    }

    /// Searches `pos`, whose game went through the positions hashed in `history` (oldest first,
    /// `pos` excluded; for repetitions), until `limits` or `control` stops it, and answers the
    /// best move. `reporter` receives a report per completed iteration and line. Infinite and
    /// ponder searches return only after `control.stop()` (or, pondering, `ponderhit`).
    ///
    /// The main search runs on the caller's thread (the helpers on threads of the engine's
    /// own): a thread started for searching should ask for [`SEARCH_STACK`](crate::SEARCH_STACK)
    /// bytes of stack, as the engine's threads do.
    ///
    /// With a [strength limit](Engine::set_strength) the search is capped and may play another
    /// of its best lines ([`Strength`]); the reporter then gets the lines MultiPV asks for, and,
    /// when the move played is not the search's best, a last line (`multipv` 1) for the move
    /// played, whose second move is the ponder move.
    pub fn think(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        if let Some(strength) = self.strength {
            return self.think_weakened(strength, pos, history, limits, control, reporter);
        }
        self.search(pos, history, limits, control, None, reporter)
    }

    /// One search on the engine's tables, with `options` instead of the engine's when given.
    fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        options: Option<&Options>,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        let job = SearchJob {
            pos,
            history,
            tt: &self.tt,
            control,
            limits,
            options: options.unwrap_or(&self.options),
            reporter,
        };
        search_with_tables(&job, &mut self.tables)
    }

    /// [`think`](Engine::think) below full strength: the limits capped by the level, the
    /// search widened to [`Strength::LINES`] lines (unless [the level](Strength::searches_lines)
    /// searches this move as one line), and the move chosen among the lines of the last
    /// completed iteration.
    fn think_weakened(
        &mut self,
        strength: Strength,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        let depth = strength.max_depth();
        let nodes = strength.max_nodes();
        let limits = Limits {
            depth: Some(limits.depth.map_or(depth, |d| d.min(depth))),
            nodes: Some(limits.nodes.map_or(nodes, |n| n.min(nodes))),
            ..limits.clone()
        };
        let key = strength.key(self.game, pos.hash());
        if !strength.searches_lines(key) {
            return self.search(pos, history, &limits, control, None, reporter);
        }
        let options = Options {
            multipv: self.options.multipv.max(Strength::LINES),
            ..self.options.clone()
        };
        let lines = LineRecorder {
            reporter,
            shown: self.options.multipv,
            state: Mutex::new(Lines::default()),
        };
        let mut result = self.search(pos, history, &limits, control, Some(&options), &lines);
        let Lines {
            kept, last_time, ..
        } = lines
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let scores: Vec<i32> = kept.iter().map(|info| info.score).collect();
        let chosen = strength.choose(&scores, key);
        if chosen == 0 {
            return result;
        }
        let line = &kept[chosen];
        let Some(&best) = line.pv.first() else {
            return result;
        };
        reporter.info(&Info {
            multipv: 1,
            nodes: result.nodes,
            time: last_time,
            ..line.clone()
        });
        result.best = best;
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
        result
    }

    /// Limits the engine's strength (`None`, or a [`Strength`] at full strength: no limit).
    /// The seed and level apply from the next search; the game count that their draws depend
    /// on is kept.
    pub fn set_strength(&mut self, strength: Option<Strength>) {
        self.strength = strength.filter(|s| !s.is_full());
    }

    /// The strength limit in use (`None`: full strength).
    pub fn strength(&self) -> Option<Strength> {
        self.strength
    }

    /// Forgets the previous games: empties the table and the threads' tables (UCI `ucinewgame`).
    /// Searches after it answer as a new engine's would, except that a strength limit draws its
    /// mistakes for the next game: the engine counts its games, and the choices of a weakened
    /// search depend on the count as well as on the seed and the position.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.tables.clear();
        self.game = self.game.wrapping_add(1);
    }

    /// Empties the transposition table only (UCI `Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Replaces the table by an empty one of `mib` MiB (at least 1). When that memory cannot be
    /// had the error is returned and the table in use is kept, contents included.
    ///
    /// # Errors
    /// [`AllocError`] naming the size asked for.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), AllocError> {
        self.tt = TranspositionTable::try_new(mib.max(1))?;
        Ok(())
    }

    /// The table's size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.size_mb()
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.max(1);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.options.threads
    }

    /// Sets how many best lines a search reports (MultiPV, at least 1).
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.max(1);
    }

    /// Sets the milliseconds kept in reserve per move for communication delays.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead = ms;
    }

    /// Sets the Syzygy tables probed in the search and used to filter root moves (`None`: none).
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.options.tablebase = tablebase;
    }

    /// Sets the least remaining depth at which interior nodes probe the tables
    /// (`SyzygyProbeDepth`, at least 1).
    pub fn set_probe_depth(&mut self, depth: i32) {
        self.options.probe_depth = depth.max(1);
    }

    /// Switches the evaluation (`None`: the hand-made one) and forgets what was searched with
    /// the old one: the table and the threads' tables (their corrections belong to it).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.options.network = network;
        self.new_game();
    }

    /// The learned evaluation in use (`None`: the hand-made one).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.options.network.as_ref()
    }

    /// The options searches run with.
    pub fn options(&self) -> &Options {
        &self.options
    }
}

/// What the reporter of a weakened search keeps: the lines of the last completed iteration.
#[derive(Default)]
struct Lines {
    /// The lines of the iteration being reported (from `multipv` 1 on).
    current: Vec<Info>,
    /// The last set of lines at least as long as any before: the lines of the last completed
    /// iteration (a line reported alone after the search stopped inside an iteration is left
    /// out, since a completed iteration reports all its lines).
    kept: Vec<Info>,
    /// The time of the last report.
    last_time: std::time::Duration,
}

/// Passes the lines MultiPV asks for (`shown`) to the caller's reporter and keeps the exact
/// lines of the last completed iteration, which a weakened search chooses among.
struct LineRecorder<'r> {
    reporter: &'r dyn Reporter,
    shown: usize,
    state: Mutex<Lines>,
}

impl Reporter for LineRecorder<'_> {
    fn info(&self, info: &Info) {
        if info.multipv <= self.shown {
            self.reporter.info(info);
        }
        let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let lines = &mut *guard;
        lines.last_time = info.time;
        if info.bound != Bound::Exact {
            return;
        }
        let next = lines.current.len() + 1;
        if info.multipv == 1 {
            lines.current.clear();
        } else if info.multipv != next || lines.current[0].depth != info.depth {
            return;
        }
        lines.current.push(info.clone());
        if lines.current.len() >= lines.kept.len() {
            lines.kept.clone_from(&lines.current);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Info, Silent};

    const MIDGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNB1K2R w KQkq - 4 4";

    fn limits(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    #[test]
    fn new_game_answers_as_a_new_engine() {
        let pos = Position::from_fen(MIDGAME).unwrap();
        let opts = EngineOptions {
            hash_mib: 2,
            ..EngineOptions::default()
        };
        let mut used = Engine::new(opts.clone());
        let start = Position::startpos();
        used.think(&start, &[], &limits(7), &Control::new(), &Silent);
        let mut fresh = Engine::new(opts);
        let a = fresh.think(&pos, &[], &limits(7), &Control::new(), &Silent);
        used.new_game();
        let b = used.think(&pos, &[], &limits(7), &Control::new(), &Silent);
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    }

    #[test]
    fn tables_learnt_in_one_search_serve_the_next() {
        // the second search of the same position starts from the first one's table and
        // histories, so it needs fewer nodes than a fresh engine's
        let pos = Position::from_fen(MIDGAME).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 4,
            ..EngineOptions::default()
        });
        let first = engine.think(&pos, &[], &limits(8), &Control::new(), &Silent);
        let second = engine.think(&pos, &[], &limits(8), &Control::new(), &Silent);
        assert!(
            second.nodes < first.nodes,
            "second search {} nodes, first {}",
            second.nodes,
            first.nodes
        );
    }

    #[test]
    fn settings_reach_the_search() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 0,
            network: None,
        });
        assert_eq!(engine.threads(), 1);
        assert!(engine.network().is_none());
        engine.set_multipv(3);
        let infos = std::sync::Mutex::new(Vec::new());
        let record = |info: &Info| infos.lock().unwrap().push(info.multipv);
        let r = engine.think(
            &Position::startpos(),
            &[],
            &limits(3),
            &Control::new(),
            &record,
        );
        assert!(Position::startpos().is_legal(r.best));
        let lines = infos.into_inner().unwrap();
        // each of the 3 depths reports lines 1, 2 and 3
        assert_eq!(lines, [1, 2, 3, 1, 2, 3, 1, 2, 3]);
        engine.set_network(embedded_network());
        assert!(engine.network().is_some());
        assert!(engine.set_hash(usize::MAX).is_err());
        assert_eq!(
            engine.hash_mib(),
            1,
            "a refused size keeps the table in use"
        );
        engine.set_hash(2).unwrap();
        assert_eq!(engine.hash_mib(), 2);
    }
}
