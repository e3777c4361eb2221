//! `ply-othello match`: ply against an external GTP engine from WTHOR or file openings (WTHOR
//! prefixes filtered to balanced ones by a ply search), both colours per opening, per-game
//! clocks; prints a line per game and W/D/L, points, disc
//! differential and Elo with its 95% interval.

use super::CliError;
use clap::Args;
use ply_othello::wthor;
use ply_othello::{format_moves, Color};
use ply_othello_engine::{Engine, EngineOptions, Limits};
use ply_othello_tools::matchplay::{
    openings_from_games, parse_openings, play_game, select_balanced, GameOptions, GtpClient, Tally,
    Termination,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Opponent GTP command line, e.g. "/usr/games/gtp-rhino --level 5 --book 0".
    #[arg(long)]
    opponent: String,
    /// Number of games (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// ply's clock per game in seconds (no clock when absent: play by level).
    #[arg(long)]
    time: Option<f64>,
    /// The opponent's clock per game in seconds (default: the same as --time; unlimited if neither).
    #[arg(long)]
    opponent_time: Option<f64>,
    /// ply's level (with a clock, the level caps the search and the clock still applies).
    #[arg(long)]
    level: Option<u8>,
    /// Openings file: one move list a line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// WTHOR directory to draw openings from (used when --openings is absent).
    #[arg(long, default_value = "../shared/othello/wthor")]
    wthor: PathBuf,
    /// Seed for the choice of WTHOR openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep only WTHOR openings that ply scores within this many discs of a draw at
    /// `--balance-level` (a negative value keeps every opening).
    #[arg(long, default_value_t = 4, allow_hyphen_values = true)]
    balance: i32,
    /// Level of the balance check.
    #[arg(long, default_value_t = 16)]
    balance_level: u8,
    /// Write the openings played (one move list a line) to this file.
    #[arg(long)]
    openings_out: Option<PathBuf>,
    /// ply's search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// ply's hash tables in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Append one line per game (result, times, moves) to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// ply's evaluation weights instead of the built-in ones (ply or Edax `eval.dat` format),
    /// e.g. to play new weights against the built-in ones (`--opponent "ply-othello gtp"`).
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

fn secs(x: Option<f64>) -> Result<Option<Duration>, CliError> {
    x.map(|s| {
        Duration::try_from_secs_f64(s).map_err(|e| CliError::Match(format!("bad time {s}: {e}")))
    })
    .transpose()
}

/// Runs the match.
///
/// # Errors
/// Unreadable openings, a bad time, or an opponent that cannot be started.
pub fn run(a: &MatchArgs) -> Result<ExitCode, CliError> {
    let pairs = a.games.div_ceil(2).max(1);
    let openings = match &a.openings {
        Some(p) => {
            let text = super::read_text(p)?;
            parse_openings(&text).map_err(CliError::Match)?
        }
        None => {
            let files = wthor::read_dir(&a.wthor).map_err(|e| CliError::Match(e.to_string()))?;
            let pool = openings_from_games(
                files
                    .iter()
                    .flat_map(|(_, f)| f.games.iter().map(|g| &g.moves)),
                usize::MAX,
                a.seed,
            );
            if a.balance < 0 {
                pool.into_iter().take(pairs).collect()
            } else {
                let mut judge = Engine::new(EngineOptions {
                    hash_mib: 16,
                    ..EngineOptions::default()
                });
                let limits = Limits {
                    level: Some(a.balance_level.min(60)),
                    ..Limits::default()
                };
                let stop = AtomicBool::new(false);
                select_balanced(pool, pairs, a.balance, |pos| {
                    judge.new_game();
                    let b = pos.board;
                    judge.think(&b, &limits, &stop, &mut |_| {}).score
                })
            }
        }
    };
    if let Some(p) = &a.openings_out {
        let text: String = openings.iter().map(|o| format_moves(o) + "\n").collect();
        super::write(p, text)?;
    }
    if openings.is_empty() {
        return Err(CliError::Match("no openings".into()));
    }
    let weights = match &a.eval_file {
        Some(p) => Some(ply_othello_engine::eval::parse_weights(&super::read(p)?)?),
        None => None,
    };
    let ply_time = secs(a.time)?;
    let opts = GameOptions {
        ply_time,
        opponent_time: secs(a.opponent_time)?.or(ply_time),
        level: a.level,
        grace: Duration::from_secs(5),
    };
    let mut log = match &a.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|source| CliError::Write {
                    path: p.display().to_string(),
                    source,
                })?,
        ),
        None => None,
    };
    let mut engine = Engine::try_new(EngineOptions {
        hash_mib: a.hash,
        threads: a.threads,
        weights,
    })?;
    let mut opponent = GtpClient::spawn(&a.opponent).map_err(|e| CliError::Match(e.to_string()))?;
    let mut tally = Tally::default();
    let (mut ply_tl, mut opp_tl, mut ply_ill, mut opp_ill, mut crashes) = (0, 0, 0, 0, 0);
    let n = 2 * pairs;
    let source = match (&a.openings, a.balance) {
        (Some(p), _) => format!("from {}", p.display()),
        (None, b) if b < 0 => format!("from WTHOR (seed {})", a.seed),
        (None, b) => format!(
            "from WTHOR (seed {}), scored within ±{b} discs at level {}",
            a.seed, a.balance_level
        ),
    };
    println!(
        "match: {n} games vs `{}`, ply time {:?}, opponent time {:?}, level {:?}, {} openings {source}",
        a.opponent,
        opts.ply_time,
        opts.opponent_time,
        a.level,
        openings.len().min(pairs)
    );
    for g in 0..n {
        let opening = &openings[(g / 2) % openings.len()];
        let color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let r = play_game(&mut engine, &mut opponent, opening, color, &opts);
        tally.add(r.ply_diff);
        match &r.termination {
            Termination::Normal => {}
            Termination::PlyTimeLoss => ply_tl += 1,
            Termination::PlyIllegal(_) => ply_ill += 1,
            Termination::OpponentTimeLoss => opp_tl += 1,
            Termination::OpponentIllegal(_) => opp_ill += 1,
            Termination::OpponentCrash(_) => crashes += 1,
        }
        if !matches!(r.termination, Termination::Normal) {
            // Start a fresh opponent after any abnormal end: its state is unknown.
            opponent = GtpClient::spawn(&a.opponent).map_err(|e| CliError::Match(e.to_string()))?;
        }
        let line = format!(
            "game {}/{n}: ply {} {:+} ({:?}) ply {:.1}s opp {:.1}s | +{} ={} -{} {:.1}% | {}",
            g + 1,
            if color == Color::Black {
                "black"
            } else {
                "white"
            },
            r.ply_diff,
            r.termination,
            r.ply_used.as_secs_f64(),
            r.opponent_used.as_secs_f64(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            format_moves(&r.moves),
        );
        println!("{line}");
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{line}");
        }
    }
    let (elo, half) = tally.elo();
    println!(
        "result: {} games +{} ={} -{} points {:.1}% mean disc diff {:+.2} Elo {:+.0} ± {:.0} (95%)",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.mean_discs(),
        elo,
        half
    );
    println!(
        "ply time losses {ply_tl}, ply illegal {ply_ill}; opponent time losses {opp_tl}, illegal {opp_ill}, crashes {crashes}"
    );
    Ok(ExitCode::SUCCESS)
}
