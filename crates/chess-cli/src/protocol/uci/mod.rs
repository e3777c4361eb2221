//! The UCI protocol front end: parses command lines, keeps the game position and options, runs the
//! engine library's search on a background thread, and turns [`Info`] reports into `info` lines.
//! Output goes through a caller-supplied sink so the protocol can be tested without a process.
//! Malformed input is answered with `info string error: ...` (the text of a [`UciError`]) and
//! never stops the engine.

use crate::evalfile::{self, EvalFileError};
use ply_chess::{FenError, Move, MoveParseError, Position};
use ply_chess_engine::{
    mate_in, material, wdl, AllocError, Bound, Control, Engine, EngineOptions, Info, Limits,
    Reporter, Strength, SEARCH_STACK,
};
use ply_cli_support::ByteLines;
use ply_syzygy::Tablebase;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// Where protocol output lines go.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// The program's name, reported to `uci` with its [`VERSION`](crate::VERSION).
pub const NAME: &str = "ply-chess";

/// Default and limits of the `Hash` option (MiB). The maximum (32 TiB) is more than any machine
/// has: a size the allocator cannot give is refused with a message and the table in use is kept.
const HASH_DEFAULT: usize = 16;
const HASH_MAX: usize = 33_554_432;
const THREADS_MAX: usize = 256;
const MULTIPV_MAX: usize = 256;
/// Default of `UCI_Elo` (its range is [`Strength::MIN_ELO`] to [`Strength::MAX_ELO`]).
const ELO_DEFAULT: u32 = 1500;
/// Largest `Skill Seed` (kept within a signed 32-bit spin, which every GUI reads).
const SEED_MAX: usize = i32::MAX as usize;

/// Why an input line could not be used: the text of its `info string error: ...` reply (the
/// session keeps its state, except where a variant says otherwise).
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// A command the session does not know.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// A line that could not be read ([`ByteLines`]).
    #[error(transparent)]
    Line(#[from] LineError),
    /// `setoption` while a search runs.
    #[error("setoption ignored while searching")]
    SetoptionWhileSearching,
    /// `setoption` without `name`.
    #[error("setoption without name")]
    SetoptionWithoutName,
    /// `setoption` whose `value` comes before its name.
    #[error("setoption: malformed")]
    SetoptionMalformed,
    /// `setoption` of an option the session does not have (the name in lower case).
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A spin option's value that is not a whole number in its range.
    #[error(
        "{option}: invalid value '{value}', expected a whole number from {min} to {max}; value kept"
    )]
    NotInRange {
        /// The option's name as given.
        option: String,
        /// The value as given (trimmed).
        value: String,
        /// The least value.
        min: usize,
        /// The greatest value.
        max: usize,
    },
    /// A check option's value that is neither `true` nor `false`.
    #[error("{option}: invalid value '{value}'")]
    NotBoolean {
        /// The option's name.
        option: &'static str,
        /// The value as given.
        value: String,
    },
    /// A `Hash` size that cannot be allocated; the table in use is kept.
    #[error("{source}; keeping {kept_mib} MiB")]
    Hash {
        /// Why the table could not be allocated.
        source: AllocError,
        /// The size of the table kept.
        kept_mib: usize,
    },
    /// A `Hash` above this machine's memory ([`UciSession::hash_limit_mib`]), refused without
    /// asking the system; the table in use is kept.
    #[error("{mb} MiB is more than this machine's memory ({limit} MiB); keeping {kept_mib} MiB")]
    HashAboveMemory {
        /// The size asked for.
        mb: usize,
        /// The limit it broke.
        limit: usize,
        /// The size of the table kept.
        kept_mib: usize,
    },
    /// A `SyzygyPath` that holds no table; the tables are unloaded.
    #[error("no Syzygy tables in '{0}'")]
    NoTablebases(String),
    /// A `SyzygyPath` that cannot be read; the tables are unloaded.
    #[error("SyzygyPath '{path}': {source}")]
    SyzygyPath {
        /// The path as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An `EvalFile` that gives no network; the evaluation in use is kept.
    #[error("EvalFile {source}; keeping {kept}")]
    EvalFile {
        /// Why the value gives no network.
        source: EvalFileError,
        /// The evaluation kept (`the hand-made evaluation` or the file in use).
        kept: String,
    },
    /// `position` neither `startpos` nor `fen <FEN>`.
    #[error("position: expected 'startpos' or 'fen <FEN>'")]
    PositionSetup,
    /// `position fen` with a malformed FEN.
    #[error("bad FEN: {0}")]
    BadFen(#[from] FenError),
    /// A move of `position ... moves` that is malformed or illegal; the position is set up to
    /// the move before.
    #[error("move '{text}': {source}; position set up to the move before")]
    BadMove {
        /// The move as given.
        text: String,
        /// Why it is refused.
        source: MoveParseError,
    },
    /// A `go` parameter that needs a number and has none.
    #[error("go: '{0}' needs a number")]
    GoNeedsNumber(String),
    /// A `go` parameter the session does not know.
    #[error("go: unknown parameter '{0}'")]
    GoUnknownParameter(String),
    /// The search thread could not be started.
    #[error("cannot start search thread: {0}")]
    SearchThread(std::io::Error),
}

/// One UCI conversation: the position and its history, the protocol's options, the engine and
/// the search thread.
pub struct UciSession {
    out: Output,
    position: Position,
    /// Hashes of the positions before `position` (oldest first), for repetition detection.
    history: Vec<u64>,
    /// The engine: its table, threads' tables and options, kept from move to move of a game
    /// (locked by the search thread while it searches).
    engine: Arc<Mutex<Engine>>,
    control: Arc<Control>,
    /// The `EvalFile` value in use (`<embedded>`: the built-in network, `<empty>`: the hand-made
    /// evaluation).
    eval_file: String,
    ponder: bool,
    chess960: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after the score of `info` lines.
    show_wdl: bool,
    /// The strength options: `UCI_LimitStrength`, `UCI_Elo`, `Skill Level` and `Skill Seed`.
    skill: SkillOptions,
    worker: Option<JoinHandle<()>>,
    /// True from `go` until just before `bestmove` is printed.
    searching: Arc<AtomicBool>,
}

impl UciSession {
    /// A fresh engine at the start position writing protocol lines to `out`.
    pub fn new(out: Output) -> UciSession {
        UciSession::with_hash(out, HASH_DEFAULT)
    }

    /// A fresh engine whose `Hash` option starts at `hash_mb` MiB (clamped to 1 and
    /// [`UciSession::hash_limit_mib`]) instead of the default; a size the allocator refuses falls
    /// back to 1 MiB.
    pub fn with_hash(out: Output, hash_mb: usize) -> UciSession {
        let hash_mb = hash_mb.clamp(1, UciSession::hash_limit_mib());
        let network = evalfile::load(evalfile::DEFAULT).ok().flatten();
        let opts = |hash_mib| EngineOptions {
            hash_mib,
            threads: 1,
            network: network.clone(),
        };
        let engine = Engine::try_new(opts(hash_mb)).unwrap_or_else(|_| Engine::new(opts(1)));
        UciSession {
            out,
            position: Position::startpos(),
            history: Vec::new(),
            engine: Arc::new(Mutex::new(engine)),
            control: Arc::new(Control::new()),
            eval_file: evalfile::DEFAULT.to_string(),
            ponder: false,
            chess960: false,
            show_wdl: false,
            skill: SkillOptions::default(),
            worker: None,
            searching: Arc::new(AtomicBool::new(false)),
        }
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    /// The engine, waiting for a search still holding it to let go (commands that change it
    /// stop or wait for the search first).
    fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn error(&self, e: &UciError) {
        self.say(&format!("info string error: {e}"));
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Waits for the running search (if any) to finish and print its `bestmove`.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Stops the running search (if any) and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if self.worker.is_some() {
            self.control.stop();
            self.wait();
        }
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else {
            return true;
        };
        let rest: Vec<&str> = tokens.collect();
        let result = match cmd {
            "uci" => {
                self.uci();
                Ok(())
            }
            "isready" => {
                self.say("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.stop_search();
                self.engine().new_game();
                Ok(())
            }
            "setoption" => self.setoption(&rest),
            "position" => {
                self.stop_search();
                self.set_position(&rest)
            }
            "go" => {
                self.stop_search();
                self.go(&rest)
            }
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "ponderhit" => {
                self.control.ponderhit();
                Ok(())
            }
            "quit" => {
                self.stop_search();
                return false;
            }
            "debug" | "register" => Ok(()),
            _ => Err(UciError::UnknownCommand(cmd.to_string())),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        true
    }

    fn uci(&self) {
        self.say(&format!("id name {NAME} {}", crate::VERSION));
        self.say("id author the ply authors");
        self.say(&format!(
            "option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}"
        ));
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {THREADS_MAX}"
        ));
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"
        ));
        self.say("option name Ponder type check default false");
        self.say("option name Move Overhead type spin default 10 min 0 max 5000");
        self.say("option name UCI_Chess960 type check default false");
        self.say("option name UCI_ShowWDL type check default false");
        self.say("option name UCI_LimitStrength type check default false");
        self.say(&format!(
            "option name UCI_Elo type spin default {ELO_DEFAULT} min {} max {}",
            Strength::MIN_ELO,
            Strength::MAX_ELO
        ));
        self.say(&format!(
            "option name Skill Level type spin default {0} min 0 max {0}",
            Strength::MAX_LEVEL
        ));
        self.say(&format!(
            "option name Skill Seed type spin default 0 min 0 max {SEED_MAX}"
        ));
        self.say("option name Clear Hash type button");
        self.say("option name SyzygyPath type string default <empty>");
        self.say("option name SyzygyProbeDepth type spin default 1 min 1 max 100");
        self.say(&format!(
            "option name EvalFile type string default {}",
            evalfile::DEFAULT
        ));
        self.say("uciok");
    }

    /// Replaces the table by one of `mb` MiB; when that memory cannot be had, says so and keeps
    /// the table in use (the old one is only dropped once the new one exists).
    fn resize_hash(&mut self, mb: usize) -> Result<(), UciError> {
        let limit = UciSession::hash_limit_mib();
        let mut engine = self.engine();
        let kept_mib = engine.hash_mib();
        if mb > limit {
            return Err(UciError::HashAboveMemory {
                mb,
                limit,
                kept_mib,
            });
        }
        engine
            .set_hash(mb)
            .map_err(|source| UciError::Hash { source, kept_mib })
    }

    fn setoption(&mut self, args: &[&str]) -> Result<(), UciError> {
        if self.is_searching() {
            return Err(UciError::SetoptionWhileSearching);
        }
        self.wait();
        // setoption name <words...> [value <words...>]
        let Some(name_at) = args.iter().position(|&t| t == "name") else {
            return Err(UciError::SetoptionWithoutName);
        };
        let value_at = args.iter().position(|&t| t == "value");
        let name_end = value_at.unwrap_or(args.len());
        if name_end <= name_at {
            return Err(UciError::SetoptionMalformed);
        }
        let name = args[name_at + 1..name_end].join(" ").to_ascii_lowercase();
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        // A whole number within `min..=max`, or the error that names the range (the option
        // keeps its value).
        let number = |min: usize, max: usize| {
            let text = value.trim();
            match text.parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(UciError::NotInRange {
                    option: args[name_at + 1..name_end].join(" "),
                    value: text.to_string(),
                    min,
                    max,
                }),
            }
        };
        let boolean = |option: &'static str| match value.trim().to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(UciError::NotBoolean {
                option,
                value: value.clone(),
            }),
        };
        match name.as_str() {
            "hash" => self.resize_hash(number(1, HASH_MAX)?)?,
            "threads" => self.engine().set_threads(number(1, THREADS_MAX)?),
            "multipv" => self.engine().set_multipv(number(1, MULTIPV_MAX)?),
            "move overhead" => self.engine().set_move_overhead(number(0, 5000)? as u64),
            "ponder" => self.ponder = boolean("Ponder")?,
            "uci_chess960" => self.chess960 = boolean("UCI_Chess960")?,
            "uci_showwdl" => self.show_wdl = boolean("UCI_ShowWDL")?,
            "uci_limitstrength" => {
                self.skill.limit = boolean("UCI_LimitStrength")?;
                self.apply_strength();
            }
            "uci_elo" => {
                let elo = number(Strength::MIN_ELO as usize, Strength::MAX_ELO as usize)?;
                self.skill.elo = elo as u32;
                self.apply_strength();
            }
            "skill level" => {
                self.skill.level = number(0, Strength::MAX_LEVEL as usize)? as u32;
                self.apply_strength();
            }
            "skill seed" => {
                self.skill.seed = number(0, SEED_MAX)? as u64;
                self.apply_strength();
            }
            "clear hash" => self.engine().clear_hash(),
            "syzygypath" => self.set_syzygy_path(value.trim())?,
            "syzygyprobedepth" => self.engine().set_probe_depth(number(1, 100)? as i32),
            "evalfile" => self.set_eval_file(value.trim())?,
            _ => return Err(UciError::UnknownOption(name)),
        }
        Ok(())
    }

    /// Hands the strength the options ask for to the engine.
    fn apply_strength(&mut self) {
        let strength = self.skill.strength();
        self.engine().set_strength(strength);
    }

    /// Switches the evaluation to what `value` names (see [`evalfile::load`]). A value that gives
    /// no network is an error and leaves the evaluation in use; a change clears the hash table
    /// and the threads' tables, whose evaluations and corrections belong to the old one.
    fn set_eval_file(&mut self, value: &str) -> Result<(), UciError> {
        let network = evalfile::load(value).map_err(|source| UciError::EvalFile {
            source,
            kept: match self.engine().network() {
                Some(_) => format!("'{}'", self.eval_file),
                None => "the hand-made evaluation".to_string(),
            },
        })?;
        self.say(&format!(
            "info string evaluation: {}",
            evalfile::describe(network.as_deref())
        ));
        self.engine().set_network(network);
        self.eval_file = if value.is_empty() {
            evalfile::HAND_MADE.to_string()
        } else {
            value.to_string()
        };
        Ok(())
    }

    /// Opens the Syzygy tables of a `:`-separated directory list (`<empty>` or nothing unloads).
    fn set_syzygy_path(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() || path == "<empty>" {
            self.engine().set_tablebase(None);
            return Ok(());
        }
        match Tablebase::open(path) {
            Ok(tb) if tb.max_pieces() > 0 => {
                let n = tb.table_names().count();
                self.say(&format!(
                    "info string found {n} tablebases, up to {} pieces",
                    tb.max_pieces()
                ));
                self.engine().set_tablebase(Some(Arc::new(tb)));
                Ok(())
            }
            Ok(_) => {
                self.engine().set_tablebase(None);
                Err(UciError::NoTablebases(path.to_string()))
            }
            Err(source) => {
                self.engine().set_tablebase(None);
                Err(UciError::SyzygyPath {
                    path: path.to_string(),
                    source,
                })
            }
        }
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), UciError> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"fen") if setup.len() > 1 => Position::from_fen(&setup[1..].join(" "))?,
            _ => return Err(UciError::PositionSetup),
        };
        let mut history = Vec::new();
        let mut result = Ok(());
        if let Some(at) = moves_at {
            for text in &args[at + 1..] {
                match pos.parse_uci(text) {
                    Ok(m) => {
                        history.push(pos.hash());
                        pos = pos.play(m);
                    }
                    Err(source) => {
                        result = Err(UciError::BadMove {
                            text: text.to_string(),
                            source,
                        });
                        break;
                    }
                }
            }
        }
        self.position = pos;
        self.history = history;
        result
    }

    fn go(&mut self, args: &[&str]) -> Result<(), UciError> {
        let mut limits = Limits::default();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let num = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let mut takes_value = true;
            match key {
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes"
                | "movetime" | "mate" => {
                    let Some(n) = num else {
                        return Err(UciError::GoNeedsNumber(key.to_string()));
                    };
                    // Clocks may be negative when a GUI is late: treat as zero.
                    let u = n.max(0) as u64;
                    match key {
                        "wtime" => limits.time[0] = Some(u),
                        "btime" => limits.time[1] = Some(u),
                        "winc" => limits.inc[0] = u,
                        "binc" => limits.inc[1] = u,
                        "movestogo" => limits.movestogo = Some(u.min(1000) as u32),
                        "depth" => limits.depth = Some(u.clamp(1, 1000) as i32),
                        "nodes" => limits.nodes = Some(u.max(1)),
                        "movetime" => limits.movetime = Some(u),
                        _ => limits.mate = Some(u.clamp(1, 500) as u32),
                    }
                }
                "infinite" => {
                    limits.infinite = true;
                    takes_value = false;
                }
                "ponder" => {
                    limits.ponder = true;
                    takes_value = false;
                }
                "searchmoves" => {
                    let mut j = i + 1;
                    while let Some(t) = args.get(j) {
                        match self.position.parse_uci(t) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) => break,
                        }
                        j += 1;
                    }
                    i = j;
                    continue;
                }
                _ => return Err(UciError::GoUnknownParameter(key.to_string())),
            }
            i += if takes_value { 2 } else { 1 };
        }
        self.control.reset(limits.ponder);
        let pos = self.position;
        let history = self.history.clone();
        let engine = Arc::clone(&self.engine);
        let control = Arc::clone(&self.control);
        let out = Arc::clone(&self.out);
        let chess960 = self.chess960;
        let wdl_material = self.show_wdl.then(|| material(&pos));
        let ponder_opt = self.ponder;
        let searching = Arc::clone(&self.searching);
        searching.store(true, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let reporter = UciReporter {
                    out: Arc::clone(&out),
                    chess960,
                    wdl_material,
                };
                // the previous search has ended (`go` stops and joins it first)
                let r = engine
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .think(&pos, &history, &limits, &control, &reporter);
                let mut line = format!("bestmove {}", r.best.uci(chess960));
                if let (true, Some(p)) = (ponder_opt, r.ponder) {
                    line.push_str(&format!(" ponder {}", p.uci(chess960)));
                }
                searching.store(false, Ordering::SeqCst);
                out(&line);
            });
        match spawned {
            Ok(h) => {
                self.worker = Some(h);
                Ok(())
            }
            Err(e) => {
                self.searching.store(false, Ordering::SeqCst);
                Err(UciError::SearchThread(e))
            }
        }
    }
}

/// The strength options. `UCI_LimitStrength` on plays at `UCI_Elo`; off, a `Skill Level` below
/// 20 plays at that level; otherwise the engine plays at full strength. `Skill Seed` seeds the
/// choices of a limited engine; 0 (the default) takes a seed from the clock when the session
/// starts, so that two sessions play different games. Either way the engine's choices change
/// from game to game (`ucinewgame`).
#[derive(Clone, Copy, Debug)]
struct SkillOptions {
    limit: bool,
    elo: u32,
    level: u32,
    seed: u64,
    /// The seed taken from the clock, for `Skill Seed` 0.
    clock_seed: u64,
}

impl Default for SkillOptions {
    fn default() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SkillOptions {
            limit: false,
            elo: ELO_DEFAULT,
            level: Strength::MAX_LEVEL,
            seed: 0,
            clock_seed: nanos ^ (u64::from(std::process::id()) << 32),
        }
    }
}

impl SkillOptions {
    /// The strength the options ask for (`None`: full strength).
    fn strength(&self) -> Option<Strength> {
        let seed = if self.seed == 0 {
            self.clock_seed
        } else {
            self.seed
        };
        let strength = if self.limit {
            Strength::from_elo(self.elo, seed)
        } else {
            Strength::from_level(self.level, seed)
        };
        (!strength.is_full()).then_some(strength)
    }
}

/// Formats search reports as UCI `info` lines.
struct UciReporter {
    out: Output,
    chess960: bool,
    /// The root's material when `UCI_ShowWDL` is on.
    wdl_material: Option<u32>,
}

impl Reporter for UciReporter {
    fn info(&self, info: &Info) {
        (self.out)(&format_info(info, self.chess960, self.wdl_material));
    }
}

/// The UCI score text of a search score: `cp N` or `mate N` (moves, negative when being mated).
pub fn format_score(score: i32) -> String {
    match mate_in(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// One `info` line; with `wdl_material` (the root position's material, as
/// [`ply_chess_engine::material`] counts it) the score is followed by `wdl W D L`, the engine's
/// win/draw/loss chances per mille from the side to move's view, as `UCI_ShowWDL` asks.
pub fn format_info(info: &Info, chess960: bool, wdl_material: Option<u32>) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let bound = match info.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let wdl = match wdl_material {
        Some(m) => {
            let w = wdl(info.score, m);
            format!(" wdl {} {} {}", w.win, w.draw, w.loss)
        }
        None => String::new(),
    };
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|m: &Move| m.uci(chess960).to_string())
        .collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        wdl,
        bound,
        info.nodes,
        nps,
        info.hashfull,
        info.tbhits,
        ms,
        pv.join(" ")
    )
}

/// Why an input line could not be handed to the engine.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The line's bytes are not UTF-8 (the line is skipped; reading goes on).
    #[error("line is not UTF-8")]
    NotUtf8,
    /// The input cannot be read (the session ends).
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
}

impl UciSession {
    /// Handles one line of input as [`ByteLines`] reads it (a read error as [`LineError::Io`]): a
    /// line is handled, a line that is not UTF-8 is answered with `info string error: line is not
    /// UTF-8`, a read error is reported.
    /// Returns `false` after `quit` or a read error (the session is over).
    pub fn handle_read(&mut self, line: Result<&str, LineError>) -> bool {
        match line {
            Ok(text) => self.handle(text),
            Err(e @ LineError::NotUtf8) => {
                self.error(&e.into());
                true
            }
            Err(e @ LineError::Io(_)) => {
                self.error(&e.into());
                false
            }
        }
    }

    /// Reads protocol lines from `input` through [`ByteLines`] and handles them until `quit`, the
    /// end of the input or a read error (where a running search is stopped). The binary reads
    /// standard input through here.
    pub fn serve(&mut self, input: impl BufRead) {
        let mut lines = ByteLines::new(input);
        for line in lines.by_ref() {
            if !self.handle_read(line.as_deref().map_err(|_| LineError::NotUtf8)) {
                break;
            }
        }
        // set only when a failed read ended the lines, never after a `quit`
        if let Some(e) = lines.take_error() {
            self.handle_read(Err(LineError::Io(e)));
        }
        self.stop_search();
    }

    /// The largest `Hash` (MiB) this engine tries to allocate: the option's maximum, or the
    /// machine's physical memory when the system tells it and it is smaller. A larger value is
    /// refused without asking the allocator (a table that cannot fit in memory would only
    /// thrash, and some allocators abort on an impossible request instead of failing).
    pub fn hash_limit_mib() -> usize {
        physical_mib().map_or(HASH_MAX, |m| m.clamp(1, HASH_MAX))
    }
}

/// The machine's physical memory in MiB, where the system says.
fn physical_mib() -> Option<usize> {
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    {
        // SAFETY: sysconf only reads system configuration; these names are valid on both systems.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            let mib = (pages as u128 * size as u128) >> 20;
            return Some(usize::try_from(mib).unwrap_or(usize::MAX));
        }
    }
    None
}

/// Runs the protocol on `input`, writing to standard output, until `quit` or end of input.
pub fn run(input: impl BufRead) {
    let out: Output = Arc::new(|line: &str| {
        use std::io::Write;
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        let _ = writeln!(lock, "{line}");
        let _ = lock.flush();
    });
    UciSession::new(out).serve(input);
}

#[cfg(test)]
mod tests;
