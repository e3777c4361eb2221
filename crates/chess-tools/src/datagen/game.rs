//! One self-play game: an opening from the book, a few random plies, then the engine against
//! itself at a fixed node budget a move, to mate, a draw by the rules, a tablebase position or
//! an adjudication; the usable positions met on the way ([`is_usable`]) are the candidates for
//! training.

use super::record::Sample;
use super::Config;
use ply_chess::{repetitions, Color, Move, Position};
use ply_chess_engine::{
    quiescence, quiescence_with, Bound, Control, Engine, EngineOptions, Info, Limits, PawnTable,
    Reporter, Silent,
};
use ply_syzygy::{Tablebase, Wdl};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::sync::Arc;

/// A side whose score stays at least this (centipawns) for [`RESIGN_PLIES`] plies in a row
/// is declared the winner.
pub const RESIGN_SCORE: i32 = 1000;
/// See [`RESIGN_SCORE`].
pub const RESIGN_PLIES: u32 = 6;
/// From move [`DRAW_FROM_MOVE`] on, scores within this of zero for [`DRAW_PLIES`] plies in a
/// row make the game a draw.
pub const DRAW_SCORE: i32 = 10;
/// See [`DRAW_SCORE`].
pub const DRAW_PLIES: u32 = 12;
/// See [`DRAW_SCORE`].
pub const DRAW_FROM_MOVE: u32 = 40;
/// The default of [`Config::max_score`](super::Config::max_score): positions whose search
/// score is at least this far from zero (mates, tablebase and known wins) are not kept, their
/// scores say little about the evaluation.
pub const SAMPLE_SCORE_LIMIT: i32 = 2000;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty moves without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A tablebase position (its value is the result).
    Tablebase,
    /// One side's score stayed decisive.
    Resigned,
    /// Both sides' scores stayed near zero.
    AdjudicatedDraw,
    /// The game reached the ply limit of the configuration.
    MaxLength,
}

/// One played game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The chosen positions, in the order of the game.
    pub samples: Vec<Sample>,
    /// Result from White's side: 1, 0.5 or 0.
    pub result: f32,
    /// How it ended.
    pub ending: Ending,
    /// Plies played from the book position (random ones included).
    pub plies: u32,
    /// Usable positions met (the samples are drawn from them).
    pub candidates: usize,
}

/// Stops the search after the iteration that brings its node count to `nodes` or beyond: the
/// soft node limit. Only completed iterations (exact scores) count, so the stop point depends on
/// the node counts alone (one search thread) and the game stays deterministic.
struct SoftStop<'a> {
    control: &'a Control,
    nodes: u64,
}

impl Reporter for SoftStop<'_> {
    fn info(&self, info: &Info) {
        if info.bound == Bound::Exact && info.nodes >= self.nodes {
            self.control.stop();
        }
    }
}

/// The random stream of game `game` of `seed`: the same whichever shard plays it.
fn game_rng(seed: u64, game: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(ply_batch::game_seed(seed, game))
}

/// A uniform index below `n` (> 0); the bias of the modulo is far below anything that matters.
fn below(rng: &mut XorShiftRng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Converts a result for `side` (1 win, 0.5, 0) to White's side.
fn for_white(side: Color, result: f32) -> f32 {
    match side {
        Color::White => result,
        Color::Black => 1.0 - result,
    }
}

/// The end of the game by the rules at `pos` (`earlier`: the hashes before it), if it ended.
fn rules_end(pos: &Position, earlier: &mut Vec<u64>) -> Option<(f32, Ending)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            (for_white(pos.side_to_move(), 0.0), Ending::Checkmate)
        } else {
            (0.5, Ending::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some((0.5, Ending::InsufficientMaterial));
    }
    if pos.is_fifty_move_draw() {
        return Some((0.5, Ending::FiftyMoves));
    }
    earlier.push(pos.hash());
    let reps = repetitions(earlier, pos.halfmove_clock());
    earlier.pop();
    (reps >= 2).then_some((0.5, Ending::Repetition))
}

/// The tablebase value of `pos` as the game's result, when the tables hold it (the 50-move
/// rule counts: cursed wins and blessed losses are draws).
fn tablebase_end(tb: Option<&Arc<Tablebase>>, pos: &Position) -> Option<(f32, Ending)> {
    let tb = tb?;
    if pos.occupied().count() as usize > tb.max_pieces() || pos.castling_rights().any() {
        return None;
    }
    let r = match tb.probe_wdl(pos).ok()? {
        Wdl::Win => 1.0,
        Wdl::Loss => 0.0,
        _ => 0.5,
    };
    Some((for_white(pos.side_to_move(), r), Ending::Tablebase))
}

/// The resign and draw adjudication: counts the plies in a row that meet each rule.
#[derive(Default)]
struct Adjudicator {
    white_winning: u32,
    black_winning: u32,
    drawish: u32,
}

impl Adjudicator {
    /// Adds the search score (White's side) of a position at full move `mv`.
    fn add(&mut self, white: i32, mv: u32) -> Option<(f32, Ending)> {
        let run = |cond: bool, n: &mut u32| *n = if cond { *n + 1 } else { 0 };
        run(white >= RESIGN_SCORE, &mut self.white_winning);
        run(white <= -RESIGN_SCORE, &mut self.black_winning);
        run(
            mv >= DRAW_FROM_MOVE && white.abs() <= DRAW_SCORE,
            &mut self.drawish,
        );
        if self.white_winning >= RESIGN_PLIES {
            Some((1.0, Ending::Resigned))
        } else if self.black_winning >= RESIGN_PLIES {
            Some((0.0, Ending::Resigned))
        } else if self.drawish >= DRAW_PLIES {
            Some((0.5, Ending::AdjudicatedDraw))
        } else {
            None
        }
    }
}

/// The keep rule: whether the position `pos`, searched to `best` with `score` (side to move),
/// `ply` plies after the book position (random plies included), is usable for training:
/// - not in check, and a quiet best move (neither a capture nor a promotion), so the score is
///   that of a position the evaluation can judge by itself;
/// - `|score| < config.max_score`: no mate, tablebase or runaway scores;
/// - `ply >= config.skip_plies`: the first positions after the book can be left out;
/// - the static evaluation stands: a quiescence search on the evaluation the games are played
///   with (the network of [`Config::network`], else the hand-made one; `pawns` is the hand-made
///   one's table) finds no capture sequence that changes the position (its principal variation
///   is empty).
///
/// The book position and the positions reached during the random plies are never searched, so
/// never kept.
pub fn is_usable(
    config: &Config,
    pos: &Position,
    best: Move,
    score: i32,
    ply: u32,
    pawns: &mut PawnTable,
) -> bool {
    !pos.is_check()
        && !best.is_capture()
        && best.promotion().is_none()
        && score.abs() < config.max_score
        && ply >= config.skip_plies
        && match config.network.as_deref() {
            Some(net) => quiescence_with(pos, &mut |p: &Position| net.evaluate(p)).1 == *pos,
            None => quiescence(pos, pawns).1 == *pos,
        }
}

/// Plays game `game` of `config.seed` from a position of `book` (not empty), with `tablebase`
/// for adjudication and in the search. The same arguments always give the same game.
pub fn play_game(
    config: &Config,
    book: &[Position],
    tablebase: Option<&Arc<Tablebase>>,
    game: u64,
) -> Game {
    let mut rng = game_rng(config.seed, game);
    let mut pos = book[below(&mut rng, book.len())];
    let mut earlier: Vec<u64> = Vec::new();
    let mut plies = 0;
    for _ in 0..below(&mut rng, config.random_plies as usize + 1) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        earlier.push(pos.hash());
        pos = pos.play(moves[below(&mut rng, moves.len())]);
        plies += 1;
    }
    // one engine a game: its table and the thread's histories carry from move to move, as in
    // a game between engines
    let mut engine = Engine::new(EngineOptions {
        hash_mib: config.hash_mib,
        threads: 1,
        network: config.network.clone(),
    });
    engine.set_tablebase(tablebase.cloned());
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let mut pawns = PawnTable::new();
    let mut adjudicator = Adjudicator::default();
    let mut candidates: Vec<(String, i32)> = Vec::new();
    let (result, ending) = loop {
        if let Some(end) = rules_end(&pos, &mut earlier).or_else(|| tablebase_end(tablebase, &pos))
        {
            break end;
        }
        if plies >= config.max_plies {
            break (0.5, Ending::MaxLength);
        }
        let control = Control::new();
        let soft = config.soft_nodes.map(|nodes| SoftStop {
            control: &control,
            nodes,
        });
        let reporter = soft.as_ref().map_or(&Silent as &dyn Reporter, |s| s);
        let r = engine.think(&pos, &earlier, &limits, &control, reporter);
        let white = match pos.side_to_move() {
            Color::White => r.score,
            Color::Black => -r.score,
        };
        if let Some(end) = adjudicator.add(white, pos.fullmove_number()) {
            break end;
        }
        if is_usable(config, &pos, r.best, r.score, plies, &mut pawns) {
            candidates.push((pos.to_fen(), white));
        }
        earlier.push(pos.hash());
        pos = pos.play(r.best);
        plies += 1;
    };
    // a uniform choice of `per_game` candidates (partial Fisher-Yates), kept in game order; all
    // of them without a limit
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    let keep = config.per_game.unwrap_or(usize::MAX).min(order.len());
    for i in 0..keep {
        let j = i + below(&mut rng, order.len() - i);
        order.swap(i, j);
    }
    let mut chosen = order[..keep].to_vec();
    chosen.sort_unstable();
    let samples = chosen
        .into_iter()
        .map(|i| Sample {
            fen: candidates[i].0.clone(),
            score: candidates[i].1,
            result,
            game,
        })
        .collect();
    Game {
        samples,
        result,
        ending,
        plies,
        candidates: candidates.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adjudicator_waits_for_runs() {
        let mut a = Adjudicator::default();
        for _ in 0..RESIGN_PLIES - 1 {
            assert_eq!(a.add(-RESIGN_SCORE, 20), None);
        }
        assert_eq!(a.add(0, 20), None, "the run is broken");
        for _ in 0..RESIGN_PLIES - 1 {
            assert_eq!(a.add(-RESIGN_SCORE - 5, 20), None);
        }
        assert_eq!(a.add(-RESIGN_SCORE, 20), Some((0.0, Ending::Resigned)));
        let mut a = Adjudicator::default();
        for _ in 0..DRAW_PLIES * 2 {
            assert_eq!(a.add(0, DRAW_FROM_MOVE - 1), None, "too early for a draw");
        }
        for _ in 0..DRAW_PLIES - 1 {
            assert_eq!(a.add(DRAW_SCORE, DRAW_FROM_MOVE), None);
        }
        assert_eq!(
            a.add(-DRAW_SCORE, DRAW_FROM_MOVE),
            Some((0.5, Ending::AdjudicatedDraw))
        );
    }

    #[test]
    fn the_rules_end_games() {
        let end = |fen: &str| rules_end(&Position::from_fen(fen).unwrap(), &mut Vec::new());
        // White is mated: Black wins
        assert_eq!(
            end("6rk/8/8/8/8/8/5PPP/r5K1 w - - 0 1").map(|e| e.0),
            Some(0.0)
        );
        assert_eq!(
            end("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((0.5, Ending::Stalemate))
        );
        assert_eq!(
            end("7k/8/6K1/8/8/8/8/8 b - - 0 1"),
            Some((0.5, Ending::InsufficientMaterial))
        );
        assert_eq!(
            end("7k/8/6K1/8/8/8/8/7R b - - 100 80"),
            Some((0.5, Ending::FiftyMoves))
        );
        assert_eq!(end("7k/8/6K1/8/8/8/8/7R b - - 10 80"), None);
    }

    #[test]
    fn tablebases_decide_small_endings() {
        let Some(dir) = ply_testkit::shared("syzygy/tables") else {
            return;
        };
        let tb = Arc::new(Tablebase::open(dir.to_str().unwrap()).expect("tables open"));
        let end = |fen: &str| tablebase_end(Some(&tb), &Position::from_fen(fen).unwrap());
        // KQ v K, Black to move: White wins
        assert_eq!(
            end("8/8/8/4k3/8/8/8/3QK3 b - - 0 1"),
            Some((1.0, Ending::Tablebase))
        );
        // KR v KR: a draw
        assert_eq!(
            end("8/8/8/4k3/r7/8/8/3RK3 w - - 0 1"),
            Some((0.5, Ending::Tablebase))
        );
        // too many pieces for the tables
        assert_eq!(
            end("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
            None
        );
    }
}
