//! Search levels in the manner of Edax: a level fixes the midgame depth and the number of
//! empties from which the endgame is searched exactly or for win/draw/loss only.
//!
//! | level | midgame depth | midgame selectivity | exact from | WLD from |
//! |-------|---------------|---------------------|------------|----------|
//! | 0     | 0 (evaluation)| 100%                | 0          | 0        |
//! | 1..=10| level         | 73%                 | 2 x level  | 2 x level|
//! | 11..=30 | level       | 73%                 | 20 + (level - 10) / 2 | exact + 2 |
//! | 31..=60 | level       | 73%                 | level     | min(60, level + 2) |
//!
//! Level 21 (the default) searches 21 plies in the midgame, solves win/draw/loss from 27
//! empties and exactly from 25. Endgame searches iterate on selectivity (73% .. 100%) first.

/// Edax's selectivity levels: probability (percent) that a Multi-ProbCut cut is right.
pub const SELECTIVITIES: [u8; 6] = [73, 87, 95, 98, 99, 100];

/// Index of "no selectivity" (100%) in [`SELECTIVITIES`]: the table's exact selectivity.
pub const NO_SELECTIVITY: u8 = crate::tt::EXACT;

/// The level used when the caller gives no limit.
pub const DEFAULT_LEVEL: u8 = 21;

/// Highest level.
pub const MAX_LEVEL: u8 = 60;

/// What a level searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Midgame depth in plies.
    pub mid_depth: u8,
    /// Index in [`SELECTIVITIES`] of the midgame selectivity.
    pub mid_selectivity: u8,
    /// Positions with at most this many empties are solved exactly.
    pub exact_depth: u8,
    /// Positions with at most this many empties are solved for win/draw/loss (at least).
    pub wld_depth: u8,
}

/// The parameters of level `level` (clamped to [`MAX_LEVEL`]).
pub const fn level(level: u8) -> Level {
    let l = if level > MAX_LEVEL { MAX_LEVEL } else { level };
    if l == 0 {
        return Level {
            mid_depth: 0,
            mid_selectivity: NO_SELECTIVITY,
            exact_depth: 0,
            wld_depth: 0,
        };
    }
    if l <= 10 {
        return Level {
            mid_depth: l,
            mid_selectivity: 0,
            exact_depth: 2 * l,
            wld_depth: 2 * l,
        };
    }
    let exact = if l <= 30 { 20 + (l - 10) / 2 } else { l };
    let wld = if exact + 2 > 60 { 60 } else { exact + 2 };
    Level {
        mid_depth: l,
        mid_selectivity: 0,
        exact_depth: exact,
        wld_depth: wld,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_table_is_monotone_and_bounded() {
        let mut prev = level(0);
        assert_eq!(prev.mid_depth, 0);
        for l in 1..=MAX_LEVEL {
            let v = level(l);
            assert_eq!(v.mid_depth, l);
            assert!(v.exact_depth >= prev.exact_depth && v.wld_depth >= prev.wld_depth);
            assert!(v.exact_depth <= v.wld_depth && v.wld_depth <= 60);
            assert!(usize::from(v.mid_selectivity) < SELECTIVITIES.len());
            prev = v;
        }
        assert_eq!(level(60).exact_depth, 60);
        assert_eq!(level(200), level(60));
        let d = level(DEFAULT_LEVEL);
        assert_eq!((d.mid_depth, d.exact_depth, d.wld_depth), (21, 25, 27));
        assert_eq!((level(10).exact_depth, level(11).exact_depth), (20, 20));
    }
}
