//! The match loop: both colours per opening, one [`play_game`] after another, results tallied,
//! an opponent that ended a game abnormally restarted. The caller prints; it hears of each game
//! through a callback ([`run_match`]).

use super::client::{GtpClient, GtpError};
use super::game::{play_game, GameOptions, GameRecord, Termination};
use super::stats::Tally;
use ply_othello::{Color, Square};
use ply_othello_engine::Engine;

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The opponent's GTP command line (split on spaces), used to restart it.
    pub opponent: String,
    /// Number of games (each opening is played twice in a row, ply black first).
    pub games: usize,
    /// Clocks, level and timeouts of each game.
    pub game: GameOptions,
    /// After the opponent fails (exits, hangs, refuses a command): restart it and go on, instead
    /// of stopping the match.
    pub keep_going: bool,
}

/// Counts of the ways games ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// ply lost on time.
    pub ply_time: u32,
    /// ply played an illegal move.
    pub ply_illegal: u32,
    /// The opponent lost on time.
    pub opponent_time: u32,
    /// The opponent played an illegal move.
    pub opponent_illegal: u32,
    /// The opponent exited, hung or refused a command.
    pub opponent_failed: u32,
}

impl Endings {
    /// Counts one game's ending.
    pub fn add(&mut self, t: &Termination) {
        match t {
            Termination::Normal => {}
            Termination::PlyTimeLoss => self.ply_time += 1,
            Termination::PlyIllegal(_) => self.ply_illegal += 1,
            Termination::OpponentTimeLoss => self.opponent_time += 1,
            Termination::OpponentIllegal(_) => self.opponent_illegal += 1,
            Termination::OpponentFailed(_) => self.opponent_failed += 1,
        }
    }
}

/// One finished game, as passed to [`run_match`]'s callback.
pub struct GameReport<'a> {
    /// The game's number from 0.
    pub index: usize,
    /// Games planned.
    pub games: usize,
    /// ply's colour.
    pub color: Color,
    /// The game.
    pub record: &'a GameRecord,
    /// Results so far, this game included.
    pub tally: &'a Tally,
}

/// The callback's answer: go on, or stop the match now (e.g. nobody reads the output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Play the next game.
    Continue,
    /// End the match after this game.
    Stop,
}

/// How a match ended.
#[derive(Clone, Debug, Default)]
pub struct MatchOutcome {
    /// Results of the games played.
    pub tally: Tally,
    /// How they ended.
    pub endings: Endings,
    /// Without `keep_going`: the opponent failure that stopped the match
    /// (`opponent `cmd` failed in game i/n: why`).
    pub failure: Option<String>,
    /// The callback answered [`Flow::Stop`].
    pub stopped: bool,
}

/// The options of game `g`: `game`'s, with a loss-allowance seed of the game's own (so that
/// the games of a weakened ply differ even from the same opening and colour).
fn game_options(game: &GameOptions, g: usize) -> GameOptions {
    // an odd multiplier other than the per-move step of `Weakness::next`
    const GAME_STEP: u64 = 0xD1B5_4A32_D192_ED03;
    let mut opts = game.clone();
    opts.weakness.seed = game
        .weakness
        .seed
        .wrapping_add((g as u64).wrapping_mul(GAME_STEP));
    opts
}

/// Plays `opts.games` games of `engine` against `opponent` (already started from
/// `opts.opponent`): game `g` opens with `openings[(g / 2) % len]`, ply black in even games.
/// `on_game` hears of each game after it is tallied. After any abnormal end the opponent is
/// restarted (its state is unknown); an opponent failure without `keep_going` stops the match.
///
/// # Errors
/// The opponent could not be restarted.
///
/// # Panics
/// If `openings` is empty.
pub fn run_match(
    engine: &mut Engine,
    mut opponent: GtpClient,
    openings: &[Vec<Square>],
    opts: &MatchOptions,
    mut on_game: impl FnMut(&GameReport) -> Flow,
) -> Result<MatchOutcome, GtpError> {
    assert!(!openings.is_empty(), "a match needs openings");
    let n = opts.games;
    let mut out = MatchOutcome::default();
    for g in 0..n {
        let opening = &openings[(g / 2) % openings.len()];
        let color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let r = play_game(
            engine,
            &mut opponent,
            opening,
            color,
            &game_options(&opts.game, g),
        );
        out.tally.add(r.ply_diff);
        out.endings.add(&r.termination);
        let report = GameReport {
            index: g,
            games: n,
            color,
            record: &r,
            tally: &out.tally,
        };
        if on_game(&report) == Flow::Stop {
            out.stopped = true;
            return Ok(out);
        }
        if let Termination::OpponentFailed(why) = &r.termination {
            if !opts.keep_going {
                out.failure = Some(format!(
                    "opponent `{}` failed in game {}/{n}: {why}",
                    opts.opponent,
                    g + 1
                ));
                break;
            }
        }
        if !matches!(r.termination, Termination::Normal) && g + 1 < n {
            // Start a fresh opponent after any abnormal end: its state is unknown.
            opponent = GtpClient::spawn(&opts.opponent)?;
        }
    }
    Ok(out)
}
