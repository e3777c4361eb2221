//! Match statistics: wins/draws/losses, disc differential, and the Elo difference implied by
//! the score fraction `s` (`-400 log10(1/s - 1)`) with a 95% interval from the score's
//! standard error over games (normal approximation, as in common engine-testing practice).

/// Results from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Sum of final disc differentials.
    pub disc_sum: i64,
    /// Sum of squared game points (1, 1/4, 0), for the variance.
    sq_sum: f64,
}

impl Tally {
    /// Adds one game with final disc differential `diff` (positive: this side won).
    pub fn add(&mut self, diff: i32) {
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => {
                self.wins += 1;
                self.sq_sum += 1.0;
            }
            std::cmp::Ordering::Equal => {
                self.draws += 1;
                self.sq_sum += 0.25;
            }
            std::cmp::Ordering::Less => self.losses += 1,
        }
        self.disc_sum += i64::from(diff);
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction (wins + draws / 2) / games; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Mean disc differential.
    pub fn mean_discs(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.disc_sum as f64 / f64::from(n)
        }
    }

    /// Elo difference and the half-width of its 95% interval (infinite when the score is
    /// 0 or 1, where the logistic model gives no finite estimate).
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        let s = self.score();
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let var = (self.sq_sum / n - s * s).max(0.0);
        let se = (var / n).sqrt();
        let lo = elo_from_score(s - 1.96 * se);
        let hi = elo_from_score(s + 1.96 * se);
        let e = elo_from_score(s);
        let half = if lo.is_finite() && hi.is_finite() {
            (hi - lo) / 2.0
        } else {
            f64::INFINITY
        };
        (e, half)
    }
}

/// Elo difference for a score fraction `s` (±infinity at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        // 10^(1/4) : 1 odds, i.e. s = 0.6400..., is +100 Elo.
        let s = 1.0 / (1.0 + 10f64.powf(-0.25));
        assert!((elo_from_score(s) - 100.0).abs() < 1e-6);
        assert!((elo_from_score(1.0 - s) + 100.0).abs() < 1e-6);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn tally_and_interval() {
        let mut t = Tally::default();
        for _ in 0..4 {
            for d in [10, -4, 0, 20] {
                t.add(d);
            }
        }
        assert_eq!((t.wins, t.draws, t.losses), (8, 4, 4));
        assert!((t.score() - 0.625).abs() < 1e-12);
        assert!((t.mean_discs() - 6.5).abs() < 1e-12);
        let (e, half) = t.elo();
        assert!((e - elo_from_score(0.625)).abs() < 1e-9);
        // Variance of points {1, 0, 0.5, 1} around 0.625 is 0.171875; se = sqrt(var / 16).
        let se = (0.171875f64 / 16.0).sqrt();
        let want = (elo_from_score(0.625 + 1.96 * se) - elo_from_score(0.625 - 1.96 * se)) / 2.0;
        assert!((half - want).abs() < 1e-9);
        let mut all = Tally::default();
        all.add(3);
        assert_eq!(all.elo().1, f64::INFINITY);
    }
}
