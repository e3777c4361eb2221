//! A middlegame and an endgame value packed into one `i32` (the chess wiki's "Packed Evaluation",
//! minuskelvin.net/chesswiki).
//!
//! Layout: `packed = (eg << 16) + mg`, with both halves signed 16-bit values.
//!
//! ```text
//!  31                16 15                 0
//! +--------------------+--------------------+
//! |  eg (+ borrow)     |  mg (two's compl.) |
//! +--------------------+--------------------+
//! ```
//!
//! A negative `mg` borrows one from the upper half, which is why the endgame value is read back as
//! `(packed + 0x8000) >> 16`: adding 2^15 makes the lower half non-negative before the arithmetic
//! shift, so the borrow disappears. Every operation here is exact modulo 2^32 (wrapping arithmetic),
//! so intermediate overflow of the `i32` never corrupts a result whose two halves fit in `i16`.
//!
//! Addition, subtraction, negation and multiplication by an integer act on both halves at once.
//! Division does not: `(eg * 2^16 + mg) / c` mixes the remainder of `eg / c` into the middlegame
//! half, so there is deliberately no `Div` implementation. Scale the halves after unpacking (the
//! tapered blend does exactly that, in one place).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A packed (middlegame, endgame) pair of evaluation values in centipawns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score(i32);

impl Score {
    /// Both halves zero.
    pub const ZERO: Score = Score(0);

    /// Packs a middlegame and an endgame value: `(eg << 16) + mg`.
    #[inline]
    pub const fn new(mg: i16, eg: i16) -> Score {
        Score(((eg as i32) << 16).wrapping_add(mg as i32))
    }

    /// The middlegame half: the low 16 bits read as two's complement.
    #[inline]
    pub const fn mg(self) -> i16 {
        self.0 as i16
    }

    /// The endgame half: `(packed + 0x8000) >> 16`, which undoes the borrow of a negative `mg`.
    #[inline]
    pub const fn eg(self) -> i16 {
        (self.0.wrapping_add(0x8000) >> 16) as i16
    }

    /// The raw packed integer.
    #[inline]
    pub const fn to_bits(self) -> i32 {
        self.0
    }

    /// Rebuilds a score from its raw packed integer.
    #[inline]
    pub const fn from_bits(bits: i32) -> Score {
        Score(bits)
    }

    /// `const` addition, for building parameter tables at compile time.
    #[inline]
    pub const fn plus(self, other: Score) -> Score {
        Score(self.0.wrapping_add(other.0))
    }

    /// `const` multiplication by an integer, for building parameter tables at compile time.
    #[inline]
    pub const fn times(self, factor: i32) -> Score {
        Score(self.0.wrapping_mul(factor))
    }

    /// Blends the two halves by game phase: `phase == max_phase` is pure middlegame, `0` pure
    /// endgame. This is the one place where a packed score becomes a single number.
    ///
    /// # Panics
    /// When `max_phase` is 0 (division by zero).
    #[inline]
    pub const fn taper(self, phase: i32, max_phase: i32) -> i32 {
        self.taper_scaled(phase, max_phase, 1, 1)
    }

    /// [`Score::taper`] with the endgame half first multiplied by `scale / scale_max` (endgame
    /// scaling for drawish material, e.g. opposite-coloured bishops).
    ///
    /// # Panics
    /// When `max_phase * scale_max` is 0 (division by zero).
    #[inline]
    pub const fn taper_scaled(self, phase: i32, max_phase: i32, scale: i32, scale_max: i32) -> i32 {
        let mg = self.mg() as i32 * phase * scale_max;
        let eg = self.eg() as i32 * (max_phase - phase) * scale;
        (mg + eg) / (max_phase * scale_max)
    }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: Score) -> Score {
        Score(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: Score) -> Score {
        Score(self.0.wrapping_sub(rhs.0))
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, rhs: i32) -> Score {
        Score(self.0.wrapping_mul(rhs))
    }
}

impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl MulAssign<i32> for Score {
    #[inline]
    fn mul_assign(&mut self, rhs: i32) {
        *self = *self * rhs;
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>6} {:>6}", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn boundaries_round_trip() {
        let edges = [
            i16::MIN,
            i16::MIN + 1,
            -32_000,
            -256,
            -1,
            0,
            1,
            255,
            32_000,
            i16::MAX,
        ];
        for &mg in &edges {
            for &eg in &edges {
                let s = Score::new(mg, eg);
                assert_eq!((s.mg(), s.eg()), (mg, eg), "pack({mg}, {eg})");
            }
        }
    }

    #[test]
    fn negative_mg_borrows_from_eg_but_unpacks_exactly() {
        let s = Score::new(-1, 0);
        assert_eq!(s.to_bits(), -1);
        assert_eq!((s.mg(), s.eg()), (-1, 0));
        let s = Score::new(-5, 3);
        assert_eq!(s.to_bits(), 3 * 65_536 - 5);
        assert_eq!((s.mg(), s.eg()), (-5, 3));
    }

    #[test]
    fn taper_ends() {
        let s = Score::new(100, -40);
        assert_eq!(s.taper(24, 24), 100);
        assert_eq!(s.taper(0, 24), -40);
        assert_eq!(s.taper(12, 24), 30);
    }

    fn small() -> impl Strategy<Value = i16> {
        -8_000i16..8_000
    }

    proptest! {
        #[test]
        fn pack_unpack(mg in any::<i16>(), eg in any::<i16>()) {
            let s = Score::new(mg, eg);
            prop_assert_eq!((s.mg(), s.eg()), (mg, eg));
            prop_assert_eq!(Score::from_bits(s.to_bits()), s);
        }

        #[test]
        fn arithmetic_acts_on_both_halves(a in small(), b in small(), c in small(), d in small(), k in -4i32..=4) {
            let x = Score::new(a, b);
            let y = Score::new(c, d);
            prop_assert_eq!(x + y, Score::new(a + c, b + d));
            prop_assert_eq!(x - y, Score::new(a - c, b - d));
            prop_assert_eq!(-x, Score::new(-a, -b));
            prop_assert_eq!(x * k, Score::new(a * k as i16, b * k as i16));
            prop_assert_eq!(x.plus(y).times(k), (x + y) * k);
            let mut z = x;
            z += y;
            z -= x;
            z *= 2;
            prop_assert_eq!(z, y + y);
            prop_assert_eq!([x, y, -x].into_iter().sum::<Score>(), y);
        }

        #[test]
        fn intermediate_wrap_is_harmless(a in any::<i16>(), b in any::<i16>()) {
            // Summing a score with its negation passes through values outside the i16 range per half
            // only modulo 2^32, and must come back to exactly zero.
            let s = Score::new(a, b);
            prop_assert_eq!(s + s + s - s - s - s, Score::ZERO);
        }
    }
}
