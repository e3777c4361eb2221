//! [`Strength`]: playing below full strength, by skill level or Elo.

use crate::value::KNOWN_WIN;

/// A strength limit: a skill level from 0 (weakest) to [`Strength::MAX_LEVEL`] (full
/// strength, no limit) and the seed of the level's random choices. Set on
/// an [`Engine`](crate::Engine) with [`set_strength`](crate::Engine::set_strength), a level below
/// the top weakens the engine's play by the two kinds of mistakes people make:
///
/// - **It looks less far.** The search stops at a depth ([`max_depth`](Strength::max_depth)) and
///   a node count ([`max_nodes`](Strength::max_nodes)) that grow with the level, on top of the
///   limits of the `go` command (the lower of the two applies).
/// - **It now and then plays a worse move than the best it found.** The search looks at
///   [`LINES`](Strength::LINES) lines (MultiPV) instead of one; with a probability that grows as
///   the level falls ([`mistake_chance`](Strength::mistake_chance)), every line gets a random
///   push of up to [`max_loss`](Strength::max_loss) centipawns and the line with the highest
///   pushed score is played. From level [`SINGLE_LINE_FROM`](Strength::SINGLE_LINE_FROM) up,
///   where mistakes are rare, the draw comes first: a move drawn without a mistake is searched
///   as one line (the lines MultiPV asks for), with the whole budget, and only a move drawn
///   with one searches the four lines to choose among. A line that scores more than
///   `max_loss` below the best is never
///   played, so a level never walks into a mate it sees or throws away more material than its
///   bound (390 centipawns at level 0, 210 at level 10, 48 at level 19), and a small loss is
///   more likely than a large one. A found win (a mate, a tablebase or recognised win) is
///   played as found: choosing among winning lines could put the win off for ever.
///
/// Every move played is one of the searched root moves, so it is legal (and within `go
/// searchmoves` when those are given).
///
/// **Chance, seeded.** The draws of a move come from a small generator (SplitMix64) started
/// from the seed, the number of the game (the engine counts [`new_game`](crate::Engine::new_game)
/// calls) and the position's hash: with one thread, the same position, seed, level, limits and
/// tables give the same move, another seed or the next game other mistakes. The library never
/// reads a clock for a seed; a front end that wants games it cannot repeat passes one from
/// the clock.
///
/// **Elo.** [`Strength::from_elo`] maps a rating onto the levels through the points of
/// [`ELO_SCALE`](Strength::ELO_SCALE), linearly between them: each is a level and the rating it
/// played at in matches against Stockfish 15.1 at its `UCI_Elo` (calibrated by Stockfish's
/// authors against the CCRL 40/4 list at 60+0.6). Up to the first point ply plays at level 0,
/// from the last one at full strength. The matches, with their commands and error bars, are in
/// `docs/benchmarks/chess-strength.md`.
///
/// ```
/// use ply_chess_engine::Strength;
///
/// let weak = Strength::from_level(3, 42);
/// assert!(weak.max_depth() < Strength::from_level(15, 42).max_depth());
/// assert!(Strength::from_level(20, 42).is_full());
/// assert_eq!(Strength::from_elo(1830, 42).level(), 7.14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// 0.0 ..= 20.0; fractional when it comes from an Elo.
    level: f64,
    seed: u64,
}

impl Strength {
    /// The level of full strength (no limit); levels run from 0 to this.
    pub const MAX_LEVEL: u32 = 20;
    /// The lowest rating [`from_elo`](Self::from_elo) takes (level 0, as every rating up to
    /// the first point of [`ELO_SCALE`](Self::ELO_SCALE)).
    pub const MIN_ELO: u32 = 1350;
    /// The highest rating [`from_elo`](Self::from_elo) takes; every rating from the last point
    /// of [`ELO_SCALE`](Self::ELO_SCALE) up to this one is full strength.
    pub const MAX_ELO: u32 = 3000;
    /// The points of the Elo scale, `(rating, level)`, rating increasing, fitted on the levels'
    /// results against Stockfish's `UCI_Elo` (docs/benchmarks/chess-strength.md): level 0 plays
    /// at about 1410, 7.14 at 1830, 12.86 at 1975, 14.41 at 2077 and full strength (level 20)
    /// at 2520 (100 games each). These are ratings on Stockfish 15.1's scale, not on CCRL's:
    /// at the top its `UCI_Elo` plays well above its label (the skill level it plays at 2600
    /// rated about 3050 on CCRL 40/4 when its authors refitted the mapping in 2023).
    pub const ELO_SCALE: [(u32, f64); 5] = [
        (1410, 0.0),
        (1830, 7.14),
        (1975, 12.86),
        (2077, 14.41),
        (2520, 20.0),
    ];
    /// How many lines a weakened search looks at (MultiPV) and chooses among.
    pub const LINES: usize = 4;
    /// The level from which a move's mistake is drawn before its search, and a move drawn
    /// without one is searched as one line; from here up the node budget grows faster too
    /// ([`max_nodes`](Self::max_nodes)). The levels below it search [`LINES`](Self::LINES)
    /// lines for every move, as they were measured.
    pub const SINGLE_LINE_FROM: f64 = 15.0;

    /// Skill level `level` (0 weakest, 20 full strength; above 20 counts as 20).
    pub fn from_level(level: u32, seed: u64) -> Strength {
        Strength {
            level: f64::from(level.min(Self::MAX_LEVEL)),
            seed,
        }
    }

    /// The level of a rating `elo` on [`ELO_SCALE`](Self::ELO_SCALE): interpolated between
    /// its points, level 0 below the first, full strength from the last.
    pub fn from_elo(elo: u32, seed: u64) -> Strength {
        let scale = &Self::ELO_SCALE;
        let mut level = f64::from(Self::MAX_LEVEL);
        if elo <= scale[0].0 {
            level = scale[0].1;
        } else if let Some(w) = scale.windows(2).find(|w| elo < w[1].0) {
            let ((e0, l0), (e1, l1)) = (w[0], w[1]);
            level = l0 + (l1 - l0) * f64::from(elo - e0) / f64::from(e1 - e0);
        }
        Strength { level, seed }
    }

    /// The same level with another seed.
    pub fn with_seed(self, seed: u64) -> Strength {
        Strength { seed, ..self }
    }

    /// The skill level, 0.0 ..= 20.0 (fractional when it comes from an Elo).
    pub fn level(&self) -> f64 {
        self.level
    }

    /// The seed of the level's random choices.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether this is full strength (level 20): no limit at all, the engine plays as without one.
    pub fn is_full(&self) -> bool {
        self.level >= f64::from(Self::MAX_LEVEL)
    }

    /// The deepest iteration the search completes: 2 at level 0, then 4 plies per 5 levels up
    /// to [`SINGLE_LINE_FROM`](Self::SINGLE_LINE_FROM) (14 at level 15), then 4 per level
    /// (22 at level 17), so that above level 16 the node budget binds first. Two plies see a
    /// mate in one the opponent threatens.
    pub fn max_depth(&self) -> i32 {
        let (low, high) = self.split_level();
        2 + (0.8 * low + 4.0 * high) as i32
    }

    /// The node budget of a move: 1,024 at level 0, doubling every 1.8 levels up to
    /// [`SINGLE_LINE_FROM`](Self::SINGLE_LINE_FROM) (about 310,000 at level 15), then every
    /// level (2.5 million at level 18, 5 million at level 19: about what a second or two of
    /// full-strength search gets). The search checks it every 1,024 nodes and finishes its
    /// first iteration in any case.
    pub fn max_nodes(&self) -> u64 {
        let (low, high) = self.split_level();
        (1024.0 * (0.55 * low + high).exp2()) as u64
    }

    /// The level as its part up to [`SINGLE_LINE_FROM`](Self::SINGLE_LINE_FROM) and its part
    /// above it, on which the caps grow at different rates.
    fn split_level(&self) -> (f64, f64) {
        (
            self.level.min(Self::SINGLE_LINE_FROM),
            (self.level - Self::SINGLE_LINE_FROM).max(0.0),
        )
    }

    /// The chance that a move is chosen with a push: 0.95 at level 0, 0.5 at level 10, 0.095 at
    /// level 19, 0 at full strength.
    pub fn mistake_chance(&self) -> f64 {
        if self.is_full() {
            0.0
        } else {
            (0.95 - 0.045 * self.level).clamp(0.0, 1.0)
        }
    }

    /// The largest push, in centipawns, and the most a chosen line may score below the best:
    /// 390 at level 0, 210 at level 10, 48 at level 19, 0 at full strength.
    pub fn max_loss(&self) -> i32 {
        if self.is_full() {
            0
        } else {
            30 + (18.0 * (f64::from(Self::MAX_LEVEL) - self.level)).round() as i32
        }
    }

    /// The key of the draws of one move: the seed, the game's number and the position's hash.
    pub(crate) fn key(&self, game: u64, position_hash: u64) -> u64 {
        let mut g = SplitMix(self.seed);
        let a = g.next();
        let mut h = SplitMix(game ^ a);
        let b = h.next();
        SplitMix(position_hash ^ b).next()
    }

    /// Whether the move of `key` is drawn with a mistake: then [`choose`](Self::choose) may
    /// pick another line than the best; otherwise it picks the best whatever the lines.
    pub fn draws_mistake(&self, key: u64) -> bool {
        self.mistake_draw(key).is_some()
    }

    /// Whether a search at this level with the draws of `key` looks at
    /// [`LINES`](Self::LINES) lines: below [`SINGLE_LINE_FROM`](Self::SINGLE_LINE_FROM)
    /// always, from it up only for a move [drawn with a mistake](Self::draws_mistake).
    pub fn searches_lines(&self, key: u64) -> bool {
        self.level < Self::SINGLE_LINE_FROM || self.draws_mistake(key)
    }

    /// The draws of a move after its first one, when that one asks for a mistake.
    fn mistake_draw(&self, key: u64) -> Option<SplitMix> {
        let mut rng = SplitMix(key);
        (rng.unit() < self.mistake_chance()).then_some(rng)
    }

    /// Which of the lines to play, given their scores best first (from the search's MultiPV
    /// lines) and the `key` of the move's draws: an index into `scores` (0 for the best line,
    /// always when `scores` has fewer than two lines, the first is a found win, the level is
    /// full strength or the move is not [drawn with a mistake](Self::draws_mistake)). Only the
    /// first [`LINES`](Self::LINES) lines count, and none that scores more than
    /// [`max_loss`](Self::max_loss) below the first.
    pub fn choose(&self, scores: &[i32], key: u64) -> usize {
        // a found win (a mate, a tablebase or recognised win) is played as found: choosing
        // among winning lines could put off the win for ever
        if scores.len() < 2 || scores[0] >= KNOWN_WIN {
            return 0;
        }
        let Some(mut rng) = self.mistake_draw(key) else {
            return 0;
        };
        let bound = self.max_loss();
        let best = scores[0];
        let mut chosen = 0;
        let mut top = i64::MIN;
        for (i, &score) in scores.iter().enumerate().take(Self::LINES) {
            // every line draws its push, so a line's draw does not depend on the others' scores
            let push = (rng.unit() * f64::from(bound)) as i64;
            if i64::from(best) - i64::from(score) > i64::from(bound) {
                continue;
            }
            let pushed = i64::from(score) + push;
            if pushed > top {
                top = pushed;
                chosen = i;
            }
        }
        chosen
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state stepped by a constant and mixed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests;
