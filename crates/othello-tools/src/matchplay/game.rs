//! One game of a match: ply (in process, through [`Engine::think_weakened`], which is
//! [`Engine::think`] while the loss allowance is off) against a GTP engine, from an opening,
//! with a clock per side charged by measured wall time. An opponent with a clock
//! is told it (`time_settings` at the start, `time_left` before each `genmove`) so it can
//! spend it; one that refuses those commands plays by its own settings. Going over the clock,
//! an illegal move, another refused command, a dead engine or one that stops answering ends the
//! game and is recorded.
//!
//! Scoring of a game that ends early: the side at fault loses by 64 discs (ply's time loss or
//! illegal move: ply -64; the opponent's time loss, illegal move or failure: ply +64); an
//! illegal opening scores 0.

use super::client::{move_word, GtpClient, GtpError, COMMAND_TIMEOUT};
use ply_othello::color_name;
use ply_othello::{Color, Position, Square};
use ply_othello_engine::book::Book;
use ply_othello_engine::{Clock, Engine, Limits, Weakness};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Per-game settings.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// ply's clock for the whole game (`None`: no clock, play by level).
    pub ply_time: Option<Duration>,
    /// The opponent's clock for the whole game (`None`: unlimited, only measured).
    pub opponent_time: Option<Duration>,
    /// ply's level (`None`: the engine default, or clock-only when a clock is set).
    pub level: Option<u8>,
    /// How long past its clock an opponent reply is awaited before it is declared hung.
    pub grace: Duration,
    /// Without an opponent clock: how long a `genmove` reply is awaited before the opponent is
    /// declared unresponsive (other commands wait at most this, and at most 10 s).
    pub reply_timeout: Duration,
    /// ply's loss allowance (off by default: full strength at `level`); its seed is advanced
    /// after every move ply searches, and [`super::run_match`] gives each game its own seed.
    pub weakness: Weakness,
    /// ply's opening book (`None`: every move searched). While it holds the position, ply
    /// plays [`Book::choose`]'s move at once, without a search, drawn among the book moves
    /// within `book_randomness` discs of the best with the game's seed (the loss allowance's).
    pub book: Option<Arc<Book>>,
    /// Discs a book move drawn may give away against the best book move (0: the best).
    pub book_randomness: i32,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Played to the end.
    Normal,
    /// ply went over its clock (loss for ply).
    PlyTimeLoss,
    /// ply returned an illegal move (loss for ply).
    PlyIllegal(String),
    /// The opponent went over its clock (loss for the opponent).
    OpponentTimeLoss,
    /// The opponent played an illegal or unreadable move (loss for the opponent).
    OpponentIllegal(String),
    /// The opponent exited, stopped answering (no reply within the reply timeout, or past its
    /// clock and the grace) or refused a command: a loss for the opponent.
    OpponentFailed(String),
}

impl Termination {
    /// True when the opponent exited, hung or refused a command ([`Termination::OpponentFailed`]).
    pub fn opponent_failed(&self) -> bool {
        matches!(self, Termination::OpponentFailed(_))
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Termination::Normal => write!(f, "played out"),
            Termination::PlyTimeLoss => write!(f, "ply lost on time"),
            Termination::PlyIllegal(m) => write!(f, "ply played an illegal move ({m})"),
            Termination::OpponentTimeLoss => write!(f, "opponent lost on time"),
            Termination::OpponentIllegal(m) => {
                write!(f, "opponent played an illegal move ({m:?})")
            }
            Termination::OpponentFailed(why) => write!(f, "opponent failed: {why}"),
        }
    }
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// ply's colour.
    pub ply_color: Color,
    /// Every move from the start, opening included ([`Square::PASS`] for passes).
    pub moves: Vec<Square>,
    /// Final disc differential from ply's view (empties to the winner; ±64 on forfeits).
    pub ply_diff: i32,
    /// How it ended.
    pub termination: Termination,
    /// Wall time ply used.
    pub ply_used: Duration,
    /// Wall time the opponent used.
    pub opponent_used: Duration,
    /// ply's moves played from its book.
    pub ply_book_moves: usize,
}

/// A game ended before its end: how, and ply's result (±64; 0 when the opening is illegal).
type Forfeit = (Termination, i32);

/// The opponent failed to answer a command: a loss for it.
fn crash(e: GtpError) -> Forfeit {
    (Termination::OpponentFailed(e.to_string()), 64)
}

/// Time allowed to the opponent for a command other than `genmove`.
fn command_timeout(opts: &GameOptions) -> Duration {
    opts.reply_timeout.min(COMMAND_TIMEOUT)
}

/// Plays one game from `opening` with ply as `ply_color`. Errors talking to the opponent
/// end the game as an opponent crash rather than aborting the match.
pub fn play_game(
    engine: &mut Engine,
    opponent: &mut GtpClient,
    opening: &[Square],
    ply_color: Color,
    opts: &GameOptions,
) -> GameRecord {
    let mut rec = GameRecord {
        ply_color,
        moves: Vec::new(),
        ply_diff: 0,
        termination: Termination::Normal,
        ply_used: Duration::ZERO,
        opponent_used: Duration::ZERO,
        ply_book_moves: 0,
    };
    engine.new_game();
    if let Err((termination, ply_diff)) = play_out(engine, opponent, opening, opts, &mut rec) {
        rec.termination = termination;
        rec.ply_diff = ply_diff;
    }
    rec
}

/// Sets the game up and plays it to its end, recording moves, times and the final result in
/// `rec`; `Err` when it ends early.
fn play_out(
    engine: &mut Engine,
    opponent: &mut GtpClient,
    opening: &[Square],
    opts: &GameOptions,
    rec: &mut GameRecord,
) -> Result<(), Forfeit> {
    let mut pos = set_up(opponent, opening, opts, rec)?;
    let mut ply_left = opts.ply_time;
    let mut opp_left = opts.opponent_time;
    let stop = AtomicBool::new(false);
    let mut weakness = opts.weakness;
    while !pos.board.is_game_over() {
        let mv = if pos.side == rec.ply_color {
            let mv = ply_move(engine, &pos, opts, &mut weakness, &mut ply_left, &stop, rec)?;
            tell_opponent(opponent, pos.side, mv, opts)?;
            mv
        } else {
            opponent_move(opponent, &pos, opts, &mut opp_left, rec)?
        };
        if mv.is_pass() {
            pos.pass();
        } else {
            pos.play(mv);
        }
        rec.moves.push(mv);
    }
    let d = ply_othello::final_score(pos.black(), pos.white());
    rec.ply_diff = if rec.ply_color == Color::Black { d } else { -d };
    Ok(())
}

/// Plays the opening (recording its moves) and sends the opponent the commands that set up
/// the same game and its clock `time` (a whole game, no byo-yomi); returns the position reached.
fn set_up(
    opponent: &mut GtpClient,
    opening: &[Square],
    opts: &GameOptions,
    rec: &mut GameRecord,
) -> Result<Position, Forfeit> {
    if let Some(t) = opts.opponent_time {
        optional(
            opponent,
            &format!("time_settings {} 0 0", t.as_secs()),
            opts,
        )?;
    }
    let mut pos = Position::start();
    let mut commands = vec!["boardsize 8".to_string(), "clear_board".to_string()];
    for &m in opening {
        commands.push(format!("play {} {}", color_name(pos.side), move_word(m)));
        if m.is_pass() {
            pos.pass();
        } else if !pos.play(m) {
            let what = format!("opening move {}", move_word(m));
            return Err((Termination::PlyIllegal(what), 0));
        }
        rec.moves.push(m);
    }
    for c in &commands {
        opponent.send(c, command_timeout(opts)).map_err(crash)?;
    }
    Ok(pos)
}

/// What a side is told of its clock `left`: whole seconds, rounded down, since GTP's
/// `time_left` has no fractions. ply's own searches get the same view, so that at a few seconds
/// a game the opponent does not plan with up to a second less (measured: with the exact clock
/// ply used 15-17 % more of a 4-second game than the same engine over GTP).
fn whole_seconds(left: Duration) -> Duration {
    Duration::from_secs(left.as_secs())
}

/// ply's move in `pos` (a pass when it has none), searched on its clock `left`, which is
/// charged with the wall time used, under the loss allowance `weakness` (advanced to the next
/// move's seed).
fn ply_move(
    engine: &mut Engine,
    pos: &Position,
    opts: &GameOptions,
    weakness: &mut Weakness,
    left: &mut Option<Duration>,
    stop: &AtomicBool,
    rec: &mut GameRecord,
) -> Result<Square, Forfeit> {
    let legal = pos.board.moves();
    if legal == 0 {
        return Ok(Square::PASS);
    }
    if let Some(sq) = book_move(&pos.board, opts, weakness.seed) {
        rec.ply_book_moves += 1;
        return Ok(sq);
    }
    let limits = Limits {
        level: opts.level,
        // the whole seconds the opponent is told of its own clock: neither side plans with more
        clock: left.map(|remaining| Clock {
            remaining: whole_seconds(remaining),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let t0 = Instant::now();
    let out = engine.think_weakened(&pos.board, &limits, weakness, stop, &mut |_| {});
    *weakness = weakness.next();
    let used = t0.elapsed();
    rec.ply_used += used;
    if let Some(left) = left.as_mut() {
        if used > *left {
            return Err((Termination::PlyTimeLoss, -64));
        }
        *left -= used;
    }
    let sq = out.best;
    if legal & sq.bit() == 0 {
        return Err((Termination::PlyIllegal(move_word(sq).to_string()), -64));
    }
    Ok(sq)
}

/// ply's book move in `board` (whose mover has a legal move), if the book holds it: never an
/// illegal move, and no clock time charged (it is not searched).
fn book_move(board: &ply_othello::Board, opts: &GameOptions, seed: u64) -> Option<Square> {
    let m = opts
        .book
        .as_deref()?
        .choose(board, opts.book_randomness, seed)?;
    (board.moves() & m.square.bit() != 0).then_some(m.square)
}

/// Sends ply's move `mv` for `side` to the opponent.
fn tell_opponent(
    opponent: &mut GtpClient,
    side: Color,
    mv: Square,
    opts: &GameOptions,
) -> Result<(), Forfeit> {
    opponent
        .play(side, mv, command_timeout(opts))
        .map_err(crash)
}

/// Sends a command the opponent may refuse (the clock commands): a refusal is not a forfeit.
fn optional(opponent: &mut GtpClient, cmd: &str, opts: &GameOptions) -> Result<(), Forfeit> {
    match opponent.send(cmd, command_timeout(opts)) {
        Ok(_) | Err(GtpError::Refused(..)) => Ok(()),
        Err(e) => Err(crash(e)),
    }
}

/// The opponent's move in `pos`, asked by `genmove` after `time_left` and checked: on time
/// (its clock `left`, charged with the wall time used, plus the grace) and legal.
fn opponent_move(
    opponent: &mut GtpClient,
    pos: &Position,
    opts: &GameOptions,
    left: &mut Option<Duration>,
    rec: &mut GameRecord,
) -> Result<Square, Forfeit> {
    if let Some(l) = left {
        // whole seconds, rounded down, as GTP has them
        optional(
            opponent,
            &format!(
                "time_left {} {} 0",
                color_name(pos.side),
                whole_seconds(*l).as_secs()
            ),
            opts,
        )?;
    }
    let wait = (*left).map_or(opts.reply_timeout, |l| l + opts.grace);
    let t0 = Instant::now();
    let reply = opponent.send(&format!("genmove {}", color_name(pos.side)), wait);
    let used = t0.elapsed();
    rec.opponent_used += used;
    let reply = match reply {
        Ok(r) => r,
        Err(GtpError::Timeout(..)) if left.is_some() => {
            return Err((Termination::OpponentTimeLoss, 64))
        }
        Err(e) => return Err(crash(e)),
    };
    if let Some(left) = left.as_mut() {
        if used > *left {
            return Err((Termination::OpponentTimeLoss, 64));
        }
        *left -= used;
    }
    let word = reply.trim();
    let sq = if word.eq_ignore_ascii_case("pass") {
        Some(Square::PASS)
    } else {
        word.parse::<Square>().ok()
    };
    let legal = pos.board.moves();
    match sq {
        Some(sq) if sq.is_pass() && legal == 0 => Ok(sq),
        Some(sq) if legal & sq.bit() != 0 => Ok(sq),
        _ => Err((Termination::OpponentIllegal(word.to_string()), 64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_see_their_clock_in_whole_seconds_rounded_down() {
        assert_eq!(
            whole_seconds(Duration::from_millis(3_999)),
            Duration::from_secs(3)
        );
        assert_eq!(
            whole_seconds(Duration::from_secs(20)),
            Duration::from_secs(20)
        );
        assert_eq!(whole_seconds(Duration::from_millis(900)), Duration::ZERO);
    }
}
