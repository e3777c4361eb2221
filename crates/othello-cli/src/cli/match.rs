//! `ply-othello match`: ply against an external GTP engine from the built-in openings, a file of
//! openings or WTHOR prefixes (filtered to balanced ones by a ply search), both colours per
//! opening, per-game clocks; prints a line per game and W/D/L, points, disc differential and Elo
//! with its 95% interval (or, with `--json`, one JSON object).
//!
//! An opponent that exits, stops answering (`--reply-timeout`) or refuses a command loses the
//! game it happens in by 64 discs; the match then stops with an error naming the opponent and
//! the game (exit 1), or with `--keep-going` restarts the opponent and goes on.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use ply_othello::wthor;
use ply_othello::{format_moves, Color, Square};
use ply_othello_engine::MAX_HASH_MIB;
use ply_othello_engine::{Engine, EngineOptions, Weakness};
use ply_othello_tools::matchplay::{
    builtin_openings, openings_from_games, parse_openings, run_match, select_balanced_by_search,
    Flow, GameOptions, GtpClient, MatchOptions, Tally, Termination,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Opponent GTP command line, e.g. "/usr/games/gtp-rhino --level 5 --book 0" (split on
    /// spaces). An opponent that exits, stops answering or refuses a command loses that game by
    /// 64 discs and the match stops with an error (exit 1), unless --keep-going.
    #[arg(long)]
    opponent: String,
    /// Number of games, at least 1 (rounded up to an even number: each opening is played with
    /// both colours).
    #[arg(long, default_value_t = 2, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    games: usize,
    /// ply's clock per game in seconds (no clock when absent: play by level).
    #[arg(long)]
    time: Option<f64>,
    /// The opponent's clock per game in seconds (default: the same as --time; unlimited if neither).
    #[arg(long)]
    opponent_time: Option<f64>,
    /// Without an opponent clock: seconds a `genmove` reply is awaited before the opponent is
    /// declared unresponsive (other commands wait at most 10 s). With a clock, the clock and
    /// 5 s of grace decide (a late reply is a time loss).
    #[arg(long, default_value_t = 60.0)]
    reply_timeout: f64,
    /// After the opponent exits, hangs or refuses a command: restart it and go on (the game is
    /// still lost by it), instead of stopping the match with an error.
    #[arg(long)]
    keep_going: bool,
    /// ply's level 0..=60 (default: the engine's; with a clock, the level caps the search and
    /// the clock still applies).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=60))]
    level: Option<u8>,
    /// ply plays at a named strength level (beginner, casual, club, strong, expert, full or
    /// 1..6: its search level and loss allowance), e.g. to measure the levels against other
    /// engines; the draws are seeded by --seed and the game's number.
    #[arg(long, value_parser = super::engine::parse_strength, conflicts_with_all = ["level", "loss"])]
    strength: Option<&'static ply_othello_engine::Strength>,
    /// ply's loss allowance: with probability RATIO (0..1) a move is drawn among those within
    /// DISCS (0..64) of the best (seeded by --seed and the game's number). Default: off.
    #[arg(long, num_args = 2, value_names = ["DISCS", "RATIO"], allow_negative_numbers = true)]
    loss: Option<Vec<String>>,
    /// Openings file: one move list a line (instead of the built-in openings).
    #[arg(long, conflicts_with = "wthor")]
    openings: Option<PathBuf>,
    /// Every game starts from the start position (instead of the built-in openings): with a
    /// book and --book-randomness, the book's draws vary the games.
    #[arg(long, conflicts_with_all = ["openings", "wthor"])]
    from_start: bool,
    /// ply plays from this opening book while it holds the position (no search): ply's own
    /// book file, Edax's book.dat or Edax's text form. Default: no book, every move searched.
    #[arg(long, value_name = "FILE", conflicts_with = "builtin_book")]
    book: Option<PathBuf>,
    /// ply plays from the book built into ply (the playing front ends' default).
    #[arg(long)]
    builtin_book: bool,
    /// ply plays any book move within DISCS (0..=64) of the best book move, drawn with the
    /// game's seed (--seed and the game's number). Default 0: the best (ties drawn).
    #[arg(long, value_name = "DISCS", default_value_t = 0,
          value_parser = clap::value_parser!(u8).range(0..=64))]
    book_randomness: u8,
    /// WTHOR directory to draw openings from (instead of the built-in openings), e.g.
    /// ../shared/othello/wthor.
    #[arg(long)]
    wthor: Option<PathBuf>,
    /// Print the summary (and every game) as one JSON object on standard output; the game lines
    /// go to standard error.
    #[arg(long)]
    json: bool,
    /// Seed for the choice of WTHOR openings and of the draws of --strength or --loss.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep only WTHOR openings that ply scores within this many discs of a draw at
    /// `--balance-level` (a negative value keeps every opening).
    #[arg(long, default_value_t = 4, allow_hyphen_values = true)]
    balance: i32,
    /// Level of the balance check (0..=60).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u8).range(0..=60))]
    balance_level: u8,
    /// Write the openings played (one move list a line) to this file.
    #[arg(long)]
    openings_out: Option<PathBuf>,
    /// ply's search threads (1..=1024).
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::engine::MAX_THREADS as u64))]
    threads: usize,
    /// ply's hash tables in MiB (1..=1048576).
    #[arg(long, default_value_t = 64,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MIB as u64))]
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

/// Where the openings come from, for the header.
fn source_text(a: &MatchArgs) -> String {
    match (&a.openings, &a.wthor, a.balance) {
        _ if a.from_start => "from the start position".to_string(),
        (Some(p), _, _) => format!("from {}", p.display()),
        (None, None, _) => "built in".to_string(),
        (None, Some(d), b) if b < 0 => format!("from WTHOR {} (seed {})", d.display(), a.seed),
        (None, Some(d), b) => format!(
            "from WTHOR {} (seed {}), scored within ±{b} discs at level {}",
            d.display(),
            a.seed,
            a.balance_level
        ),
    }
}

/// The openings of the match: `--openings`, `--wthor` or the built-in set; at most `pairs`.
fn openings(a: &MatchArgs, pairs: usize) -> Result<Vec<Vec<Square>>, CliError> {
    let openings = match (&a.openings, &a.wthor) {
        _ if a.from_start => vec![Vec::new()],
        (Some(p), _) => {
            let text = super::read_text(p)?;
            parse_openings(&text).map_err(|e| CliError::Match(format!("{}: {e}", p.display())))?
        }
        (None, None) => builtin_openings(),
        (None, Some(dir)) => {
            let files = wthor::read_dir(dir).map_err(|e| CliError::Match(e.to_string()))?;
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
                select_balanced_by_search(pool, pairs, a.balance, a.balance_level)?
            }
        }
    };
    if openings.is_empty() {
        return Err(CliError::Match("no openings".into()));
    }
    Ok(openings)
}

/// The loss allowance for the header: empty when off.
fn weakness_text(strength: Option<&ply_othello_engine::Strength>, w: &Weakness) -> String {
    match strength {
        Some(s) if !w.is_off() => format!(
            ", strength {} (loss {} discs at {})",
            s.name, w.max_loss, w.ratio
        ),
        Some(s) => format!(", strength {}", s.name),
        None if w.is_off() => String::new(),
        None => format!(", loss {} discs at {}", w.max_loss, w.ratio),
    }
}

/// A clock for the header: `30 s`, or `none`.
fn time_text(t: Option<Duration>, none: &str) -> String {
    t.map_or(none.to_string(), |t| format!("{} s", t.as_secs_f64()))
}

/// The Elo estimate and its 95% interval as text, `n/a` where undefined (no games, or a score
/// of 0 or 100 %).
fn elo_text(tally: &Tally) -> String {
    let (elo, half) = tally.elo();
    if tally.games() == 0 || !elo.is_finite() {
        return "n/a".into();
    }
    // `+ 0.0` turns -0 into 0
    let elo = (elo + 0.0).round() + 0.0;
    if half.is_finite() {
        format!("{elo:+.0} ± {half:.0} (95%)")
    } else {
        format!("{elo:+.0} (95% interval n/a)")
    }
}

/// A finite number for JSON, `null` otherwise.
fn finite(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}

fn color_word(c: Color) -> &'static str {
    if c == Color::Black {
        "black"
    } else {
        "white"
    }
}

/// Standard output, written line by line: a closed one (`| head`) ends the match quietly.
struct Out {
    closed: bool,
}

impl Out {
    fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut out = std::io::stdout().lock();
        self.closed = writeln!(out, "{text}").and_then(|()| out.flush()).is_err();
    }
}

/// Runs the match.
///
/// # Errors
/// Unreadable openings, a bad time, or an opponent that cannot be started. An opponent that
/// fails during the match (without `--keep-going`) is reported on standard error after the
/// summary, and the exit code is 1.
pub fn run(a: &MatchArgs) -> Result<ExitCode, CliError> {
    super::ignore_sigpipe();
    let pairs = a.games.div_ceil(2).max(1);
    let openings = openings(a, pairs)?;
    if let Some(p) = &a.openings_out {
        let text: String = openings
            .iter()
            .take(pairs)
            .map(|o| format_moves(o) + "\n")
            .collect();
        super::write(p, text)?;
    }
    let weights = match &a.eval_file {
        Some(p) => Some(ply_othello_engine::eval::parse_weights(&super::read(p)?)?),
        None => None,
    };
    let book = if a.builtin_book {
        Some(
            ply_othello_engine::book::embedded_book()
                .map_err(|e| CliError::Match(format!("the built-in book: {e}")))?,
        )
    } else if let Some(p) = &a.book {
        Some(ply_othello_tools::book::read_book(p)?)
    } else {
        None
    };
    let book_text = book.as_ref().map_or(String::new(), |b| {
        format!(
            ", book {} ({} positions, level {}, randomness {})",
            a.book
                .as_ref()
                .map_or("built in".to_string(), |p| p.display().to_string()),
            b.len(),
            b.level(),
            a.book_randomness
        )
    });
    let ply_time = secs(a.time)?;
    let reply_timeout = secs(Some(a.reply_timeout))?.unwrap_or_default();
    if reply_timeout.is_zero() {
        return Err(CliError::Match("--reply-timeout must be above 0".into()));
    }
    let opts = GameOptions {
        ply_time,
        opponent_time: secs(a.opponent_time)?.or(ply_time),
        level: a.level.or(a.strength.map(|s| s.level)),
        grace: Duration::from_secs(5),
        reply_timeout,
        weakness: super::engine::weakness(a.strength, a.loss.as_deref(), a.seed)?,
        book: book.map(std::sync::Arc::new),
        book_randomness: i32::from(a.book_randomness),
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
    let spawn = || {
        GtpClient::spawn(&a.opponent)
            .map_err(|e| CliError::Match(format!("opponent `{}`: {e}", a.opponent)))
    };
    let opponent = spawn()?;
    let mut out = Out { closed: false };
    let mut games_json = Vec::new();
    let n = 2 * pairs;
    let header = format!(
        "match: {n} games vs `{}`, ply time {}, opponent time {}, level {}{}{}, {} openings {}",
        a.opponent,
        time_text(opts.ply_time, "none"),
        time_text(opts.opponent_time, "unlimited"),
        opts.level.map_or("default".to_string(), |l| l.to_string()),
        weakness_text(a.strength, &opts.weakness),
        book_text,
        openings.len().min(pairs),
        source_text(a),
    );
    if a.json {
        eprintln!("{header}");
    } else {
        out.line(&header);
    }
    let options = MatchOptions {
        opponent: a.opponent.clone(),
        games: n,
        game: opts,
        keep_going: a.keep_going,
    };
    let outcome = run_match(&mut engine, opponent, &openings, &options, |g| {
        let (r, tally, color) = (g.record, g.tally, g.color);
        let line = format!(
            "game {}/{n}: ply {} {:+} ({}) ply {:.1} s{} opp {:.1} s | +{} ={} -{} {:.1}% | {}",
            g.index + 1,
            color_word(color),
            r.ply_diff,
            r.termination,
            r.ply_used.as_secs_f64(),
            if r.ply_book_moves > 0 {
                format!(" (book {})", r.ply_book_moves)
            } else {
                String::new()
            },
            r.opponent_used.as_secs_f64(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            format_moves(&r.moves),
        );
        if a.json {
            eprintln!("{line}");
            games_json.push(serde_json::json!({
                "game": g.index + 1,
                "ply_color": color_word(color),
                "ply_diff": r.ply_diff,
                "termination": r.termination.to_string(),
                "ply_seconds": r.ply_used.as_secs_f64(),
                "ply_book_moves": r.ply_book_moves,
                "opponent_seconds": r.opponent_used.as_secs_f64(),
                "moves": format_moves(&r.moves),
            }));
        } else {
            out.line(&line);
        }
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{line}");
        }
        if out.closed {
            // standard output was closed (`| head`): nobody reads the rest
            return Flow::Stop;
        }
        if let Termination::OpponentFailed(why) = &r.termination {
            if a.keep_going {
                eprintln!(
                    "ply-othello: match: opponent `{}` failed in game {}/{n}: {why}; restarting it (--keep-going)",
                    a.opponent,
                    g.index + 1
                );
            }
        }
        Flow::Continue
    })
    .map_err(|e| CliError::Match(format!("opponent `{}`: {e}", a.opponent)))?;
    if outcome.stopped {
        return Ok(ExitCode::FAILURE);
    }
    let (tally, failure) = (outcome.tally, outcome.failure);
    let e = &outcome.endings;
    if a.json {
        let (elo, half) = tally.elo();
        let defined = tally.games() > 0 && elo.is_finite();
        let summary = serde_json::json!({
            "opponent": a.opponent,
            "games_planned": n,
            "strength": a.strength.map(|s| s.name),
            "loss_discs": options.game.weakness.max_loss,
            "loss_ratio": options.game.weakness.ratio,
            "games": tally.games(),
            "wins": tally.wins,
            "draws": tally.draws,
            "losses": tally.losses,
            "points_percent": 100.0 * tally.score(),
            "mean_disc_diff": tally.mean_discs(),
            "elo": if defined { finite(elo + 0.0) } else { serde_json::Value::Null },
            "elo_95_half_width": if defined { finite(half) } else { serde_json::Value::Null },
            "ply_time_losses": e.ply_time,
            "ply_illegal": e.ply_illegal,
            "opponent_time_losses": e.opponent_time,
            "opponent_illegal": e.opponent_illegal,
            "opponent_failures": e.opponent_failed,
            "stopped": failure,
            "game_list": games_json,
        });
        out.line(&summary.to_string());
    } else {
        out.line(&format!(
            "result: {} games +{} ={} -{} points {:.1}% mean disc diff {:+.2} Elo {}",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            tally.mean_discs(),
            elo_text(&tally),
        ));
        out.line(&format!(
            "ply time losses {}, ply illegal {}; opponent time losses {}, illegal {}, failures {}",
            e.ply_time, e.ply_illegal, e.opponent_time, e.opponent_illegal, e.opponent_failed
        ));
    }
    match failure {
        Some(what) => {
            eprintln!("ply-othello: match: {what}; match stopped after {} of {n} games (--keep-going goes on)", tally.games());
            Ok(ExitCode::FAILURE)
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_numbers_in_human_form() {
        assert_eq!(elo_text(&Tally::default()), "n/a");
        let mut all_won = Tally::default();
        all_won.add(10);
        assert_eq!(elo_text(&all_won), "n/a");
        let mut even = Tally::default();
        even.add(10);
        even.add(-10);
        assert_eq!(elo_text(&even), "+0 (95% interval n/a)");
        let mut t = Tally::default();
        for d in [4, -2, 0, 8, 6, -6, 2, 0, 10, -4, 2, 2] {
            t.add(d);
        }
        let text = elo_text(&t);
        assert!(text.starts_with('+') && text.ends_with("(95%)"), "{text}");
        assert!(text.contains(" ± "), "{text}");
        assert_eq!(time_text(Some(Duration::from_secs(30)), "none"), "30 s");
        assert_eq!(time_text(Some(Duration::from_millis(500)), "none"), "0.5 s");
        assert_eq!(time_text(None, "unlimited"), "unlimited");
    }
}
