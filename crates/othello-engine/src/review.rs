//! Game review: every move of a game judged by the discs it gives away, one search per
//! position ([`review`], whose docs say how; [`Judgement`] and its thresholds). With the
//! feature `serde`, `report` gives the result as serialisable data (`ReviewReport`).

#[cfg(feature = "serde")]
mod report;

#[cfg(feature = "serde")]
pub use report::{MoveReport, ReviewReport};

use crate::engine::Engine;
use crate::midgame::level::{level, MAX_LEVEL};
use crate::request::Limits;
use ply_othello::{Color, Game, MoveError, Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// Default of [`ReviewOptions::exact_from`]: the deepest exact solve of a game position that
/// takes about a second on one thread of the test machine (positions of ten WTHOR 2020 games
/// solved alone: 22 empties 0.64 s on average, 1.36 s at most; 24 empties 3.2 s and 8.4 s).
/// See docs/othello.md.
pub const DEFAULT_EXACT_FROM: u32 = 22;

/// Default of [`ReviewOptions::level`]: midgame searches of 18 plies, which review a whole
/// game in 4 to 8 s of CPU time on one thread of the test machine (level 20: 10 to 17 s); see
/// docs/othello.md.
pub const DEFAULT_REVIEW_LEVEL: u8 = 18;

/// A loss of at least this many discs is an inaccuracy (Egaroucid's default "max loss per
/// move" when it lets its AI play below its best is 2 discs).
pub const INACCURACY: i32 = 2;

/// A loss of at least this many discs is a mistake.
pub const MISTAKE: i32 = 4;

/// A loss of at least this many discs is a blunder.
pub const BLUNDER: i32 = 8;

/// What a review searches: the level of the midgame searches and the depth of the exact
/// solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// Midgame search level, 1..=60: [`crate::level()`]'s midgame depth (made even) and
    /// selectivity (0 is taken as 1).
    pub level: u8,
    /// Positions with at most this many empties are solved exactly.
    pub exact_from: u32,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            level: DEFAULT_REVIEW_LEVEL,
            exact_from: DEFAULT_EXACT_FROM,
        }
    }
}

/// How good a move was, from its loss in discs (see [`review`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// No loss: the best move or one as good.
    Best,
    /// A loss below [`INACCURACY`].
    Good,
    /// A loss from [`INACCURACY`] up to [`MISTAKE`].
    Inaccuracy,
    /// A loss from [`MISTAKE`] up to [`BLUNDER`].
    Mistake,
    /// A loss of [`BLUNDER`] or more.
    Blunder,
}

impl Judgement {
    /// Every judgement, best first.
    pub const ALL: [Judgement; 5] = [
        Judgement::Best,
        Judgement::Good,
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement of a loss in discs, by the thresholds alone.
    pub const fn from_loss(loss: i32) -> Judgement {
        if loss <= 0 {
            Judgement::Best
        } else if loss < INACCURACY {
            Judgement::Good
        } else if loss < MISTAKE {
            Judgement::Inaccuracy
        } else if loss < BLUNDER {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }
    }

    /// Its name: `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Best => "best",
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// Its mark after the move, as PGN's annotations write them: none for best and good
    /// moves, `?!`, `?`, `??`.
    pub const fn nag(self) -> &'static str {
        match self {
            Judgement::Best | Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// 1-based number of the move in the game, passes not counted (the `n`th disc placed
    /// since the start position).
    pub ply: u32,
    /// Who played it.
    pub side: Color,
    /// The move played.
    pub mv: Square,
    /// Empty squares before the move.
    pub empties: u32,
    /// True when it was the only legal move (never blamed, not searched).
    pub forced: bool,
    /// Score of the move played, in discs from the mover's view.
    pub score_played: i32,
    /// Score of the best move, in discs from the mover's view.
    pub score_best: i32,
    /// The best move found.
    pub best: Square,
    /// The best line from the position before the move, starting with [`MoveReview::best`]
    /// ([`Square::PASS`] for a pass); may stop early.
    pub pv: Vec<Square>,
    /// `max(0, score_best - score_played)`, in discs.
    pub loss: i32,
    /// True when both scores are proven by exact solves (or by the end of the game).
    pub exact: bool,
    /// The verdict on the move.
    pub judgement: Judgement,
}

/// A value for each side (serialised as `{"black": .., "white": ..}` with the feature `serde`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PerSide<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T> PerSide<T> {
    /// The value of `color`.
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The value of `color`, to change.
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// Every move played (passes left out), in game order.
    pub moves: Vec<MoveReview>,
    /// Each side's total loss in discs.
    pub loss: PerSide<i32>,
    /// Each side's moves that were not forced (those the mean is taken over).
    pub choices: PerSide<u32>,
    /// Each side's mean loss per move that was not forced, in discs (0 without such moves).
    pub mean_loss: PerSide<f64>,
}

impl GameReview {
    /// How many of `color`'s moves got `judgement`.
    pub fn count(&self, color: Color, judgement: Judgement) -> usize {
        self.moves
            .iter()
            .filter(|m| m.side == color && m.judgement == judgement)
            .count()
    }
}

/// Why a game could not be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A move of the list cannot be played.
    #[error("move {index} ({square}): {source}")]
    IllegalMove {
        /// 1-based position of the move in the list given.
        index: usize,
        /// The move.
        square: Square,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// The stop flag was raised before the review was complete.
    #[error("review stopped")]
    Stopped,
}

/// What a search (or, for a forced move, the next position) says of a position: the best
/// move, its score from the mover's view, whether that is proven, and the best line.
#[derive(Clone, Debug)]
struct Value {
    best: Square,
    score: i32,
    exact: bool,
    pv: Vec<Square>,
}

/// What follows a move.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// The game ends: the final disc difference from the mover's view.
    End(i32),
    /// The next position of the review follows (the next move's, or the last position of a
    /// record that stops early): the opponent's, or after the opponent's `pass` the mover's
    /// own.
    Position { pass: bool },
}

/// One move to review.
struct Turn {
    before: Position,
    mv: Square,
    ply: u32,
    forced: bool,
    next: Next,
}

/// The position after the forced pass when the side to move has no move, else `pos`.
fn after_forced_pass(mut pos: Position) -> Position {
    if pos.board.must_pass() {
        pos.pass();
    }
    pos
}

/// The moves of `game` to judge, and the last position to search when the record stops
/// before the end of the game.
fn turns(game: &Game) -> (Vec<Turn>, Option<Position>) {
    let positions = game.positions();
    let start_empties = game.start().board.empty_count();
    let mut turns = Vec::new();
    for (i, &mv) in game.moves().iter().enumerate() {
        if mv.is_pass() {
            continue;
        }
        let before = positions[i];
        let after = positions[i + 1];
        let next = if after.board.is_game_over() {
            Next::End(-after.board.final_score())
        } else {
            Next::Position {
                pass: after.board.must_pass(),
            }
        };
        turns.push(Turn {
            before,
            mv,
            ply: start_empties - before.board.empty_count() + 1,
            forced: before.board.moves().count_ones() == 1,
            next,
        });
    }
    let end = game.position();
    let tail = (!end.board.is_game_over()).then(|| after_forced_pass(end));
    (turns, tail)
}

/// The limits of the search of a position of `empties` empties (see [`review`], "Searches").
fn limits(options: &ReviewOptions, empties: u32) -> Limits {
    if empties <= options.exact_from {
        Limits {
            level: Some(MAX_LEVEL),
            ..Limits::default()
        }
    } else {
        let depth = u32::from(level(options.level.max(1)).mid_depth);
        let depth = depth.min(empties.saturating_sub(1));
        // an even depth (see `review`): odd ones measure a parity effect as a loss
        let depth = (depth - depth % 2).max(1);
        Limits {
            depth: Some(depth as u8),
            ..Limits::default()
        }
    }
}

/// Reviews the game of `moves` played from `start` (passes explicit or left out, as
/// [`Game::play_after_forced_pass`] takes them): for each move, the score of the move played
/// against the score of the best move, both in discs from the mover's view. The searches use
/// `engine`'s threads and tables (cleared first, so that a review does not depend on what the
/// engine searched before). `progress(done, total)` is called before the first search and
/// after each one (`total`: the searches the review needs).
///
/// # One search per position
/// Each position before a move is searched once, and the game is walked backwards, so that
/// the later positions' table entries help the earlier searches. The best move and its score
/// come from the search of the position before the move; the played move's score is the
/// score of the position after it, from the mover's view: negated when the opponent moves
/// next, taken as it is when the opponent must pass (the next searched position is the
/// mover's own again), the final disc difference when the game ends there (exact, no search).
/// A played move that is the best move gets the best move's score. A record that stops
/// before the end has its last position searched too, to score the last move.
///
/// A position whose mover has a single legal move is *forced*: it is not searched (its score
/// is the score of its only move, read from the next position) and its move is never blamed.
/// A pass is no move to judge and gets no entry.
///
/// # Searches
/// Positions with at most [`ReviewOptions::exact_from`] empties are solved exactly (the
/// engine's endgame solve, as at level 60); the others get a midgame search to the level's
/// depth ([`crate::level()`]: `level` plies at 73 % Multi-ProbCut selectivity), never deeper
/// than one ply short of the end: the level's own exact and win/draw/loss depths are replaced
/// by `exact_from`, so that the time of a review is set by the two figures.
///
/// The midgame depth is made even (an odd level searches one ply less). The played move's
/// score comes from a search one ply deeper, counted from the position before the move, than
/// the best move's; at an odd depth the two disagree by Othello's odd-even effect. Measured on
/// three WTHOR 2020 games (114 moves with more than 22 empties): 47 to 55 moves lost 2 discs
/// or more at odd depths 15, 17, 19 and 21, and 25 to 27 at even depths 14, 18, 20 and 24;
/// the mean gap between a move's loss and its loss at depth 24 was 1.2 to 1.7 discs at the odd
/// depths, 0.75 at 14, 0.59 at 18, 0.40 at 20.
///
/// # Judgements
/// The loss of a move is `max(0, score_best - score_played)` discs. [`Judgement::from_loss`]:
/// 0 best, below [`INACCURACY`] (2 discs, Egaroucid's default "max loss per move") good,
/// below [`MISTAKE`] (4) an inaccuracy, below [`BLUNDER`] (8) a mistake, a blunder from 8 on.
/// A move proven exact that keeps the result (a win stays a win, a loss stays a loss) is at
/// worst an inaccuracy: discs thrown away in a decided ending do not change who wins.
///
/// ```
/// use ply_othello::{parse_moves, Position};
/// use ply_othello_engine::{review, Engine, EngineOptions, Judgement, ReviewOptions};
/// use std::sync::atomic::AtomicBool;
/// let mut engine = Engine::new(EngineOptions { hash_mib: 4, ..EngineOptions::default() });
/// let moves = parse_moves("f5d6c3d3c4")?;
/// let options = ReviewOptions { level: 2, exact_from: 0 };
/// let stop = AtomicBool::new(false);
/// let r = review(&mut engine, Position::start(), &moves, &options, &stop, &mut |_, _| {})
///     .expect("legal moves");
/// assert_eq!(r.moves.len(), 5);
/// // the first move of Othello has four equivalent choices: none loses anything
/// assert_eq!((r.moves[0].loss, r.moves[0].judgement), (0, Judgement::Best));
/// # Ok::<(), ply_othello::ParseError>(())
/// ```
///
/// # Errors
/// [`ReviewError::IllegalMove`] for a move that cannot be played (before any search);
/// [`ReviewError::Stopped`] when `stop` is raised (the search in progress returns within a
/// few milliseconds).
pub fn review(
    engine: &mut Engine,
    start: Position,
    moves: &[Square],
    options: &ReviewOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameReview, ReviewError> {
    let mut game = Game::new(start);
    for (i, &square) in moves.iter().enumerate() {
        game.play_after_forced_pass(square)
            .map_err(|source| ReviewError::IllegalMove {
                index: i + 1,
                square,
                source,
            })?;
    }
    let (turns, tail) = turns(&game);
    let total = turns.iter().filter(|t| !t.forced).count() + usize::from(tail.is_some());
    let mut done = 0;
    progress(done, total);
    engine.new_game();
    let mut search = |pos: &Position| -> Result<Value, ReviewError> {
        let empties = pos.board.empty_count();
        let out = engine.think(&pos.board, &limits(options, empties), stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Stopped);
        }
        done += 1;
        progress(done, total);
        Ok(Value {
            best: out.best,
            score: out.score,
            exact: out.exact,
            pv: out.pv,
        })
    };

    // walking backwards, `next` is the value of the position that follows the current move
    let mut next = match &tail {
        Some(pos) => Some(search(pos)?),
        None => None,
    };
    let mut reviews = Vec::with_capacity(turns.len());
    for turn in turns.iter().rev() {
        let (played, line) = match turn.next {
            Next::End(score) => ((score, true), vec![turn.mv]),
            Next::Position { pass } => {
                // a move that does not end the game is followed by a later move's position or
                // by the tail, both valued before this one
                let v = next
                    .as_ref()
                    .expect("the position after the move was valued");
                let score = if pass { v.score } else { -v.score };
                let mut line = vec![turn.mv];
                line.extend(pass.then_some(Square::PASS));
                line.extend_from_slice(&v.pv);
                ((score, v.exact), line)
            }
        };
        let value = if turn.forced {
            Value {
                best: turn.mv,
                score: played.0,
                exact: played.1,
                pv: line,
            }
        } else {
            search(&turn.before)?
        };
        // the best move's score is the played move's when they are the same move
        let played = if value.best == turn.mv {
            (value.score, value.exact)
        } else {
            played
        };
        reviews.push(judged(turn, &value, played));
        next = Some(value);
    }
    reviews.reverse();
    Ok(summed(reviews))
}

/// The review of `turn` from the value of the position before it and the played move's
/// `(score, exact)`.
fn judged(turn: &Turn, best: &Value, (score_played, played_exact): (i32, bool)) -> MoveReview {
    let score_best = best.score;
    let loss = if turn.forced {
        0
    } else {
        (score_best - score_played).max(0)
    };
    let exact = best.exact && played_exact;
    let same_result = (score_best > 0 && score_played > 0) || (score_best < 0 && score_played < 0);
    let mut judgement = Judgement::from_loss(loss);
    if exact && same_result {
        judgement = judgement.min(Judgement::Inaccuracy);
    }
    MoveReview {
        ply: turn.ply,
        side: turn.before.side,
        mv: turn.mv,
        empties: turn.before.board.empty_count(),
        forced: turn.forced,
        score_played,
        score_best,
        best: best.best,
        pv: best.pv.clone(),
        loss,
        exact,
        judgement,
    }
}

/// The game's review with each side's totals.
fn summed(moves: Vec<MoveReview>) -> GameReview {
    let mut loss = PerSide::default();
    let mut choices = PerSide::default();
    for m in moves.iter().filter(|m| !m.forced) {
        *loss.get_mut(m.side) += m.loss;
        *choices.get_mut(m.side) += 1;
    }
    let mean = |c: Color| {
        let n = *choices.get(c);
        if n == 0 {
            0.0
        } else {
            f64::from(*loss.get(c)) / f64::from(n)
        }
    };
    GameReview {
        mean_loss: PerSide {
            black: mean(Color::Black),
            white: mean(Color::White),
        },
        moves,
        loss,
        choices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineOptions, Mode, Solver};
    use ply_othello::parse_moves;

    /// A random game of 60 moves with three passes (`pa`): White passes after move 27 (with 33
    /// empties), twice more at the end; White's 22nd move (G8) is its only legal move.
    const GAME: &str = "f5f6c4f4g6b4f7h7h6c6c3d2g5g7f8h5e6e7g4h4e8g8d6d7d8c8h8pad3f3b5b3b8e3c2a6c5\
                        b2b7a8d1b6g3c1a5g2a4b1f2a2h2g1h1c7a3e1a1e2h3paa7paf1";

    /// White to move with 9 empties: H4 wins by 30, A6 by 20, G1 loses by 6.
    const ENDING: &str = "OXO-X---OXXOXXXOOXOXXXXXXXXXOOX-XXXOOXOX-XOOOXOOXXXOOOOOOX--O-OO O";

    /// An engine with tables of its own and the weights of one engine made once (decoding
    /// the weights takes over a second in a debug build).
    fn engine() -> Engine {
        static FIRST: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
        FIRST
            .get_or_init(|| {
                Engine::new(EngineOptions {
                    hash_mib: 2,
                    ..EngineOptions::default()
                })
            })
            .sibling(4)
    }

    fn run(
        engine: &mut Engine,
        start: Position,
        moves: &str,
        options: ReviewOptions,
    ) -> GameReview {
        let moves = parse_moves(moves).unwrap();
        review(
            engine,
            start,
            &moves,
            &options,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap()
    }

    const QUICK: ReviewOptions = ReviewOptions {
        level: 2,
        exact_from: 10,
    };

    #[test]
    fn thresholds_names_and_marks() {
        let by_loss: Vec<Judgement> = [0, 1, 2, 3, 4, 7, 8, 64]
            .into_iter()
            .map(Judgement::from_loss)
            .collect();
        use Judgement::*;
        assert_eq!(
            by_loss,
            [Best, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Blunder, Blunder]
        );
        let names: Vec<&str> = Judgement::ALL.iter().map(|j| j.name()).collect();
        assert_eq!(names, ["best", "good", "inaccuracy", "mistake", "blunder"]);
        let marks: Vec<&str> = Judgement::ALL.iter().map(|j| j.nag()).collect();
        assert_eq!(marks, ["", "", "?!", "?", "??"]);
    }

    #[test]
    fn throwing_away_a_won_ending_is_a_blunder_and_a_smaller_win_is_not() {
        let start: Position = ENDING.parse().unwrap();
        // the premise, by the solver
        let solved = Solver::new(4, false).solve(&start.board, Mode::AllMoves);
        let exact = |sq: Square| solved.moves.iter().find(|m| m.0 == sq).unwrap().1;
        assert_eq!(
            (exact(Square::H4), exact(Square::A6), exact(Square::G1)),
            (30, 20, -6)
        );

        let mut e = engine();
        let r = run(&mut e, start, "g1", QUICK);
        let m = &r.moves[0];
        assert_eq!(
            (m.ply, m.side, m.mv, m.empties),
            (1, Color::White, Square::G1, 9)
        );
        assert_eq!((m.best, m.score_best, m.score_played), (Square::H4, 30, -6));
        assert_eq!(
            (m.loss, m.exact, m.judgement),
            (36, true, Judgement::Blunder)
        );
        assert_eq!(m.pv.first(), Some(&Square::H4));
        assert_eq!((r.loss.white, r.loss.black, r.choices.white), (36, 0, 1));
        assert_eq!(r.mean_loss.white, 36.0);
        assert_eq!(r.count(Color::White, Judgement::Blunder), 1);

        // 10 discs given away, but the win stays a win: an inaccuracy at worst
        let m = &run(&mut e, start, "a6", QUICK).moves[0];
        assert_eq!((m.score_best, m.score_played, m.loss), (30, 20, 10));
        assert_eq!((m.exact, m.judgement), (true, Judgement::Inaccuracy));

        // the same without proof: a midgame search of every position
        let midgame = ReviewOptions {
            level: 4,
            exact_from: 0,
        };
        let m = &run(&mut e, start, "g1", midgame).moves[0];
        assert!(!m.exact);

        let m = &run(&mut e, start, "h4", QUICK).moves[0];
        assert_eq!(
            (m.score_played, m.loss, m.judgement),
            (30, 0, Judgement::Best)
        );
    }

    #[test]
    fn every_move_is_scored_from_the_next_position_passes_and_the_end_included() {
        let mut e = engine();
        let r = run(&mut e, Position::start(), GAME, QUICK);
        assert_eq!(r.moves.len(), 60);
        for (i, m) in r.moves.iter().enumerate() {
            assert_eq!(m.ply as usize, i + 1);
            assert_eq!(m.empties as usize, 60 - i);
            assert_eq!(m.loss, (m.score_best - m.score_played).max(0));
            if m.exact {
                assert!(m.score_played <= m.score_best, "{m:?}");
            }
        }
        // the played move's score is the next position's, negated unless the opponent passed
        let mut passes = 0;
        for w in r.moves.windows(2) {
            if w[0].mv == w[0].best && !w[0].forced {
                continue;
            }
            if w[0].side == w[1].side {
                passes += 1;
                assert_eq!(w[0].score_played, w[1].score_best, "{:?}", w[0]);
            } else {
                assert_eq!(w[0].score_played, -w[1].score_best, "{:?}", w[0]);
            }
        }
        assert!(passes > 0, "a move before a pass is checked");
        assert_eq!(
            r.moves[26].side, r.moves[27].side,
            "White passed after move 27"
        );
        // the forced move is not blamed
        let forced = &r.moves[21];
        assert_eq!(
            (forced.ply, forced.mv, forced.forced),
            (22, Square::G8, true)
        );
        assert_eq!((forced.loss, forced.judgement), (0, Judgement::Best));
        assert_eq!(forced.best, forced.mv);
        // the last move ends the game: its score is the final one, proven
        let last = r.moves.last().unwrap();
        let mut game = Game::default();
        for m in parse_moves(GAME).unwrap() {
            game.play(m).unwrap();
        }
        let sign = if last.side == Color::Black { 1 } else { -1 };
        assert_eq!(last.score_played, sign * game.final_score());
        assert!(last.exact);
        // each side's totals
        for c in [Color::Black, Color::White] {
            let own = r.moves.iter().filter(|m| m.side == c);
            let total: i32 = own.clone().map(|m| m.loss).sum();
            let choices = own.filter(|m| !m.forced).count() as u32;
            assert_eq!((*r.loss.get(c), *r.choices.get(c)), (total, choices));
            let mean = *r.mean_loss.get(c);
            assert!((mean - f64::from(total) / f64::from(choices)).abs() < 1e-9);
        }
        // the passes may be left out
        let implicit = run(&mut e, Position::start(), &GAME.replace("pa", ""), QUICK);
        assert_eq!(implicit, r);
    }

    #[test]
    fn a_record_that_stops_early_scores_its_last_move() {
        let r = run(&mut engine(), Position::start(), "f5d6c3d3c4", QUICK);
        assert_eq!(r.moves.len(), 5);
        let m = &r.moves[4];
        assert_eq!((m.ply, m.side, m.mv), (5, Color::Black, Square::C4));
        assert!(!m.exact);
        // the best move scored as played when it is the move played
        for m in &r.moves {
            if m.mv == m.best {
                assert_eq!((m.score_played, m.loss), (m.score_best, 0));
            }
        }
    }

    #[test]
    fn illegal_moves_and_stops_are_errors() {
        let mut e = engine();
        let no = AtomicBool::new(false);
        let moves = parse_moves("f5d6a1").unwrap();
        let err = review(
            &mut e,
            Position::start(),
            &moves,
            &QUICK,
            &no,
            &mut |_, _| {},
        );
        let illegal = ReviewError::IllegalMove {
            index: 3,
            square: Square::A1,
            source: MoveError::Illegal("A1".into()),
        };
        assert_eq!(err, Err(illegal));
        assert_eq!(err.unwrap_err().to_string(), "move 3 (A1): illegal move A1");
        let moves = parse_moves("f5pa").unwrap();
        let err = review(
            &mut e,
            Position::start(),
            &moves,
            &QUICK,
            &no,
            &mut |_, _| {},
        );
        assert!(matches!(
            err,
            Err(ReviewError::IllegalMove {
                index: 2,
                source: MoveError::IllegalPass,
                ..
            })
        ));
        let yes = AtomicBool::new(true);
        let moves = parse_moves("f5d6").unwrap();
        let err = review(
            &mut e,
            Position::start(),
            &moves,
            &QUICK,
            &yes,
            &mut |_, _| {},
        );
        assert_eq!(err, Err(ReviewError::Stopped));
    }

    #[test]
    fn progress_counts_the_searches() {
        let moves = parse_moves("f5d6c3").unwrap();
        let mut calls = Vec::new();
        let no = AtomicBool::new(false);
        let r = review(
            &mut engine(),
            Position::start(),
            &moves,
            &QUICK,
            &no,
            &mut |d, t| calls.push((d, t)),
        );
        assert!(r.is_ok());
        // three positions before a move and the last one
        assert_eq!(calls, [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]);
    }
}
