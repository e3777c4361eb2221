//! Probe results: win/draw/loss with the 50-move rule's cursed and blessed outcomes, and DTZ.

use std::fmt;
use std::ops::Neg;

/// Win/draw/loss from the side to move's point of view. A cursed win is a win that the 50-move rule
/// turns into a draw; a blessed loss is the loser's side of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(i8)]
pub enum Wdl {
    /// Lost even with the 50-move rule.
    Loss = -2,
    /// Lost without the 50-move rule, drawn with it.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won without the 50-move rule, drawn with it.
    CursedWin = 1,
    /// Won even with the 50-move rule.
    Win = 2,
}

impl Wdl {
    /// From -2..=2 (values outside are clamped).
    #[inline]
    pub const fn from_i8(v: i8) -> Wdl {
        match v {
            i8::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }

    /// The DTZ of a position whose best move zeroes the 50-move counter: ±1, ±101 for cursed or
    /// blessed results, 0 for draws.
    #[inline]
    pub const fn dtz_before_zeroing(self) -> Dtz {
        Dtz(match self {
            Wdl::Loss => -1,
            Wdl::BlessedLoss => -101,
            Wdl::Draw => 0,
            Wdl::CursedWin => 101,
            Wdl::Win => 1,
        })
    }
}

impl Neg for Wdl {
    type Output = Wdl;
    #[inline]
    fn neg(self) -> Wdl {
        Wdl::from_i8(-(self as i8))
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", *self as i8)
    }
}

/// Distance to zeroing in plies, signed from the side to move's point of view: positive when winning,
/// negative when losing, 0 for draws. `±1` means the best move zeroes the 50-move counter (a capture or
/// pawn move); values beyond ±100 are cursed wins / blessed losses. Rounded the way the tables store it:
/// a table may store moves instead of plies, so a value can be one higher than the true distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Dtz(pub i32);

impl fmt::Display for Dtz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
