//! Weaker play on purpose: a loss allowance ([`Weakness`]) and the named strength levels built
//! on it ([`STRENGTHS`]), for people who want a sparring partner rather than a wall.
//!
//! The rules are on [`Weakness`].
//!
//! ```
//! use ply_othello::Board;
//! use ply_othello_engine::{Engine, EngineOptions, Limits, Weakness};
//! use std::sync::atomic::AtomicBool;
//! let mut engine = Engine::new(EngineOptions { hash_mib: 4, ..EngineOptions::default() });
//! let weak = Weakness::new(4, 0.5, 7).expect("in range");
//! let limits = Limits { level: Some(2), ..Limits::default() };
//! let board = Board::start();
//! let out = engine.think_weakened(&board, &limits, &weak, &AtomicBool::new(false), &mut |_| {});
//! assert!(board.moves() & out.best.bit() != 0);
//! ```

use crate::engine::Engine;
use crate::request::{Info, Limits, MoveScore, Outcome};
use ply_othello::Board;
use std::sync::atomic::AtomicBool;

/// The largest [`Weakness::max_loss`]: a whole board.
pub const MAX_LOSS: i32 = 64;

/// A loss allowance: with probability `ratio` per move, play a move drawn uniformly among
/// those within `max_loss` discs of the best, through [`Engine::think_weakened`].
/// `Weakness::default()` is off (ratio 0): the engine plays as without it.
///
/// The allowance works as Egaroucid's "Accept AI's Loss" ("Max Loss per Move" and "Occurring
/// Ratio", `ai_loss` in its `src/engine/ai.hpp`): before each move a seeded draw decides, with
/// probability [`Weakness::ratio`], whether the allowance *fires*. When it does not, the engine
/// plays exactly as [`Engine::think`] would. When it fires, every root move is scored by one
/// all-moves search at the caller's limits and the move is drawn uniformly among those scored
/// within [`Weakness::max_loss`] discs of the best (the best included). Edax's `book randomness
/// N` is the same rule applied to book moves only.
///
/// - Never an illegal move: the draw is among the search's scored legal moves, and a search
///   stopped before scoring them keeps its own best move.
/// - A forced move or a pass is played as is (nothing is drawn).
/// - A search that proved only win/draw/loss (the last plies before an exact solve) keeps its
///   best move: its scores are not discs, so no move is known to lose at most `max_loss`.
/// - Deterministic: the draw depends only on the seed and the position (so a single-threaded
///   search at fixed limits plays the same move for the same seed and position), and differs
///   between seeds. A game varies from move to move with the position; to vary whole games,
///   the caller advances the seed after every move ([`Weakness::next`]), as the front ends do.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Weakness {
    /// Discs a drawn move may give away against the best move of the same search, 0..=64
    /// (0 draws only among moves tied for the best).
    pub max_loss: i32,
    /// Probability (0..=1) that a move is drawn; 0 is off, 1 every move with a choice.
    pub ratio: f64,
    /// Seed of the draws.
    pub seed: u64,
}

/// The golden-ratio increment of SplitMix64, the seed's step between moves.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective 64-bit mix.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Weakness {
    /// An allowance of `max_loss` discs (0..=[`MAX_LOSS`]) with probability `ratio` (0..=1),
    /// or `None` when either is out of range (or `ratio` is not a number).
    pub fn new(max_loss: i32, ratio: f64, seed: u64) -> Option<Weakness> {
        ((0..=MAX_LOSS).contains(&max_loss) && (0.0..=1.0).contains(&ratio)).then_some(Weakness {
            max_loss,
            ratio,
            seed,
        })
    }

    /// True when no move is ever drawn (ratio 0 or below, or not a number).
    pub fn is_off(&self) -> bool {
        self.ratio.is_nan() || self.ratio <= 0.0
    }

    /// The same allowance with the seed of the next move (SplitMix64's step).
    #[must_use]
    pub fn next(self) -> Weakness {
        Weakness {
            seed: self.seed.wrapping_add(GOLDEN),
            ..self
        }
    }

    /// The draw for `board`: 64 random bits from the seed and the position.
    fn draw(&self, board: &Board) -> u64 {
        let position = mix(board.player()) ^ mix(board.opponent().rotate_left(32) ^ GOLDEN);
        mix(mix(self.seed.wrapping_add(GOLDEN)) ^ position)
    }

    /// Whether the allowance fires for a move from `board` (the seeded draw falls below
    /// `ratio`); false for a board with fewer than two legal moves, where there is no choice.
    pub fn fires(&self, board: &Board) -> bool {
        if self.is_off() || board.moves().count_ones() < 2 {
            return false;
        }
        // 53 random bits as a number in [0, 1)
        let unit = (self.draw(board) >> 11) as f64 / (1u64 << 53) as f64;
        unit < self.ratio
    }

    /// The move drawn among `moves` (an all-moves search of `board`): uniformly among the
    /// legal ones scored within `max_loss` of the best, taken in square order so that the
    /// choice depends only on the scores. `None` when there is nothing to draw from or the
    /// scores are win/draw/loss only.
    fn pick<'m>(&self, board: &Board, moves: &'m [MoveScore]) -> Option<&'m MoveScore> {
        let legal = board.moves();
        let mut rows: Vec<&MoveScore> = moves
            .iter()
            .filter(|m| !m.square.is_pass() && legal & m.square.bit() != 0)
            .collect();
        let best = rows.iter().map(|m| m.score).max()?;
        let empties = 64 - (board.player() | board.opponent()).count_ones();
        let wld_only = rows
            .iter()
            .any(|m| u32::from(m.depth) >= empties && m.selectivity == 100 && !m.exact);
        if wld_only {
            return None;
        }
        rows.retain(|m| m.score >= best - self.max_loss.clamp(0, MAX_LOSS));
        rows.sort_by_key(|m| m.square.index());
        let i = mix(self.draw(board) ^ GOLDEN) % rows.len() as u64;
        Some(rows[i as usize])
    }
}

impl Engine {
    /// Searches like [`Engine::think`] under the loss allowance `weakness` (see the
    /// [`Weakness`] rules). When the allowance does not fire, this is `think` itself (same
    /// move, same nodes). When it fires, the search scores every root move (as with
    /// [`Limits::all_moves`], reported to `on_info` likewise) and the outcome's `best`,
    /// `score`, `exact` and `pv` are those of the drawn move's row; `moves` stays best first,
    /// so `moves[0].score - score` is what the drawn move gives away by this search's scores.
    pub fn think_weakened(
        &mut self,
        board: &Board,
        limits: &Limits,
        weakness: &Weakness,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        if !weakness.fires(board) {
            return self.think(board, limits, stop, on_info);
        }
        let all = Limits {
            all_moves: true,
            ..limits.clone()
        };
        let mut out = self.think(board, &all, stop, on_info);
        if let Some(row) = weakness.pick(board, &out.moves) {
            let (square, score, exact, pv) = (row.square, row.score, row.exact, row.pv.clone());
            out.best = square;
            out.score = score;
            out.exact = exact;
            out.pv = if pv.first() == Some(&square) {
                pv
            } else {
                vec![square]
            };
        }
        out
    }
}

/// A named strength level: a search level and a loss allowance, with the strength it plays at.
/// The table is [`STRENGTHS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Its name (lower case, one word).
    pub name: &'static str,
    /// Search level 0..=60 ([`crate::midgame::level()`]).
    pub level: u8,
    /// [`Weakness::max_loss`] in discs.
    pub max_loss: i32,
    /// [`Weakness::ratio`].
    pub ratio: f64,
    /// The strength it plays at, in words: the Edax-AVX level it plays like, measured by
    /// matches (the benchmarks).
    pub approx: &'static str,
}

/// The named strength levels, weakest first; level `i + 1` of the front ends is
/// `STRENGTHS[i]`, so a level can be named by its number as well.
///
/// Each level's strength is measured by matches (200 games a pairing, the 100 built-in openings
/// with both colours, play by level) against Edax-AVX at fixed levels, GRhino's levels and ply's
/// own unweakened levels, fitted on one Elo scale with Edax at level 1 as 0
/// (`tools/strength/othello_levels.py`; the table and its commands are in
/// `docs/benchmarks/othello-strength.md`). The names are words for players; the measure is the
/// Edax level each plays like. The last one is ply at its default level without an allowance.
///
/// | # | name | level | max loss | ratio | Elo (Edax level 1 = 0) | plays like |
/// |---|------|-------|----------|-------|------------------------|------------|
/// | 1 | `beginner` | 1 | 16 | 0.6 | −290 ± 50 | well below Edax at level 1 (it scores 17 % against it) |
/// | 2 | `casual` | 2 | 10 | 0.4 | +157 ± 45 | between Edax's levels 1 and 2 |
/// | 3 | `club` | 4 | 6 | 0.3 | +684 ± 68 | Edax at level 3 |
/// | 4 | `strong` | 8 | 4 | 0.2 | +1250 ± 88 | between Edax's levels 6 and 8 |
/// | 5 | `expert` | 12 | 2 | 0.1 | +1603 ± 121 | Edax at level 12 (54 % against it) |
/// | 6 | `full` | 21 | 0 | 0 | not measured here | ply's full default strength, level with Edax-AVX at equal time |
pub const STRENGTHS: [Strength; 6] = [
    Strength {
        name: "beginner",
        level: 1,
        max_loss: 16,
        ratio: 0.6,
        approx: "well below Edax at level 1",
    },
    Strength {
        name: "casual",
        level: 2,
        max_loss: 10,
        ratio: 0.4,
        approx: "between Edax's levels 1 and 2",
    },
    Strength {
        name: "club",
        level: 4,
        max_loss: 6,
        ratio: 0.3,
        approx: "Edax at level 3",
    },
    Strength {
        name: "strong",
        level: 8,
        max_loss: 4,
        ratio: 0.2,
        approx: "between Edax's levels 6 and 8",
    },
    Strength {
        name: "expert",
        level: 12,
        max_loss: 2,
        ratio: 0.1,
        approx: "Edax at level 12",
    },
    Strength {
        name: "full",
        level: crate::midgame::DEFAULT_LEVEL,
        max_loss: 0,
        ratio: 0.0,
        approx: "ply's full strength, level with Edax-AVX at equal time",
    },
];

/// The strength level named `name` (any case) or numbered `name` (1 = the first of
/// [`STRENGTHS`]); `None` when there is none.
pub fn strength(name: &str) -> Option<&'static Strength> {
    let name = name.trim();
    match name.parse::<usize>() {
        Ok(n) => n.checked_sub(1).and_then(|i| STRENGTHS.get(i)),
        Err(_) => STRENGTHS.iter().find(|s| s.name.eq_ignore_ascii_case(name)),
    }
}

impl Strength {
    /// Its number, 1 for the first of [`STRENGTHS`].
    pub fn number(&self) -> usize {
        STRENGTHS
            .iter()
            .position(|s| s.name == self.name)
            .map_or(0, |i| i + 1)
    }

    /// Its loss allowance with `seed` (off for a level without one).
    pub fn weakness(&self, seed: u64) -> Weakness {
        Weakness {
            max_loss: self.max_loss,
            ratio: self.ratio,
            seed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::Square;

    #[test]
    fn the_table_is_ordered_and_in_range() {
        for (i, s) in STRENGTHS.iter().enumerate() {
            assert_eq!(s.number(), i + 1);
            assert_eq!(strength(s.name), Some(s));
            assert_eq!(strength(&s.name.to_uppercase()), Some(s));
            assert_eq!(strength(&(i + 1).to_string()), Some(s));
            assert!(
                Weakness::new(s.max_loss, s.ratio, 0).is_some(),
                "{}",
                s.name
            );
            assert!(s.level <= crate::midgame::level::MAX_LEVEL);
            if i > 0 {
                let w = &STRENGTHS[i - 1];
                assert!(s.level > w.level && s.max_loss < w.max_loss && s.ratio < w.ratio);
            }
        }
        assert!(STRENGTHS.last().is_some_and(|s| s.weakness(1).is_off()));
        for bad in ["0", "7", "", "grandmaster", "-1"] {
            assert_eq!(strength(bad), None, "{bad}");
        }
    }

    #[test]
    fn new_checks_the_ranges() {
        assert!(Weakness::new(0, 0.0, 1).is_some());
        assert!(Weakness::new(64, 1.0, 1).is_some());
        assert!(Weakness::new(65, 0.5, 1).is_none());
        assert!(Weakness::new(-1, 0.5, 1).is_none());
        assert!(Weakness::new(2, 1.5, 1).is_none());
        assert!(Weakness::new(2, f64::NAN, 1).is_none());
        assert!(Weakness::default().is_off());
    }

    #[test]
    fn the_draw_follows_the_ratio_and_the_seed() {
        let board = Board::start();
        let count = |ratio: f64| {
            (0..2000u64)
                .filter(|&seed| Weakness::new(2, ratio, seed).unwrap().fires(&board))
                .count()
        };
        assert_eq!(count(0.0), 0);
        assert_eq!(count(1.0), 2000);
        let third = count(0.3);
        assert!((500..700).contains(&third), "{third} of 2000 at 0.3");
        // a forced move draws nothing: B1 against C1 has D1 only
        let forced = Board::new(0b10, 0b100).unwrap();
        assert_eq!(forced.moves().count_ones(), 1);
        assert!(!Weakness::new(64, 1.0, 3).unwrap().fires(&forced));
        // the seed steps
        let w = Weakness::new(2, 0.5, 9).unwrap();
        assert_ne!(w.next().seed, w.seed);
        assert_eq!(w.next().max_loss, 2);
    }

    fn row(square: Square, score: i32, depth: u8, exact: bool) -> MoveScore {
        MoveScore {
            square,
            score,
            depth,
            selectivity: 100,
            exact,
            pv: vec![square],
        }
    }

    #[test]
    fn the_pick_stays_within_the_allowance() {
        let board = Board::start();
        let moves = [
            row(Square::D3, 0, 4, false),
            row(Square::C4, -2, 4, false),
            row(Square::F5, -5, 4, false),
            row(Square::E6, -9, 4, false),
            // not a legal move: never picked
            row(Square::A1, 3, 4, false),
        ];
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let w = Weakness::new(4, 1.0, seed).unwrap();
            let m = w.pick(&board, &moves).unwrap();
            assert!(m.score >= -4, "{m:?}");
            seen.insert(m.square.index());
        }
        assert_eq!(seen.len(), 2, "both moves within 4 discs are drawn");
        assert!(Weakness::new(4, 1.0, 0)
            .unwrap()
            .pick(&board, &[])
            .is_none());
        // win/draw/loss scores (60 empties, not exact) are not discs: no pick
        let wld = [
            row(Square::D3, 1, 60, false),
            row(Square::C4, -1, 60, false),
        ];
        assert!(Weakness::new(4, 1.0, 0)
            .unwrap()
            .pick(&board, &wld)
            .is_none());
    }
}
