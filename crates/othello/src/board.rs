//! The board from the mover's view: two bitboards `{player, opponent}`; a move XORs the flipped discs
//! and the move square in, then swaps sides (Edax's representation, seed 003).

use crate::{flip, get_moves, hash};

/// A position: discs of the side to move (`player`) and of the other side (`opponent`).
/// Bit index = square (A1 = 0 ... H8 = 63, see [`crate::square`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side not to move.
    pub opponent: u64,
}

impl Board {
    /// Board from the two bitboards (mover first).
    #[inline(always)]
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The initial position, Black to move: black D5 and E4, white D4 and E5.
    pub const fn start() -> Board {
        Board {
            player: (1 << 35) | (1 << 28),
            opponent: (1 << 27) | (1 << 36),
        }
    }

    /// Legal moves of the side to move.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        get_moves(self.player, self.opponent)
    }

    /// Legal moves of the side not to move (used to tell a pass from the end of the game).
    #[inline(always)]
    pub fn opponent_moves(&self) -> u64 {
        get_moves(self.opponent, self.player)
    }

    /// Discs the side to move would flip by playing `sq` (0: illegal, or `sq` occupied).
    #[inline(always)]
    pub fn flips(&self, sq: usize) -> u64 {
        if sq >= 64 || (self.player | self.opponent) >> sq & 1 != 0 {
            return 0;
        }
        flip(sq, self.player, self.opponent)
    }

    /// Plays `sq` for the side to move and swaps sides; returns the flipped discs.
    /// When the move is illegal (nothing flips or `sq` is occupied) nothing changes and 0 is returned.
    #[inline(always)]
    pub fn play(&mut self, sq: usize) -> u64 {
        let f = self.flips(sq);
        if f != 0 {
            self.play_flips(sq, f);
        }
        f
    }

    /// Plays `sq` with flips `flipped` already computed (e.g. by [`crate::flip()`]); no checks.
    #[inline(always)]
    pub fn play_flips(&mut self, sq: usize, flipped: u64) {
        *self = self.next(sq, flipped);
    }

    /// The board after playing `sq` with precomputed `flipped` discs (sides swapped); no checks.
    #[inline(always)]
    pub const fn next(&self, sq: usize, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1u64 << (sq & 63)),
        }
    }

    /// Passes: swaps sides without a move.
    #[inline(always)]
    pub fn pass(&mut self) {
        *self = self.passed();
    }

    /// The board after a pass.
    #[inline(always)]
    pub const fn passed(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// True when the side to move must pass (no move, but the opponent has one).
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() != 0
    }

    /// Empty squares.
    #[inline(always)]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// Number of discs of the side to move.
    #[inline(always)]
    pub const fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    /// Number of discs of the side not to move.
    #[inline(always)]
    pub const fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// Final score from the mover's view with the empty squares given to the winner (see
    /// [`final_score`]).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// CRC32C hash of the board (SSE4.2 instruction when available, identical portable fallback).
    #[inline]
    pub fn hash(&self) -> u64 {
        hash::hash(self.player, self.opponent)
    }

    /// True when the two bitboards do not overlap.
    #[inline]
    pub const fn is_valid(&self) -> bool {
        self.player & self.opponent == 0
    }
}

/// Final score of a finished game for the side owning `player`, the other side owning
/// `opponent`: the disc difference, with the empty squares given to the winner (the standard
/// tournament rule; nothing to either side on a draw). The one definition of the crate family,
/// on raw bitboards so that a search can call it in its hot path.
#[inline(always)]
pub const fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let diff = p - o;
    let empties = 64 - p - o;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::parse_square;

    #[test]
    fn start_moves() {
        let b = Board::start();
        let expected = ["D3", "C4", "F5", "E6"]
            .iter()
            .fold(0u64, |m, s| m | 1 << parse_square(s).unwrap());
        assert_eq!(b.moves(), expected);
        assert_eq!(b.player_count(), 2);
        assert_eq!(b.opponent_count(), 2);
        assert!(!b.is_game_over());
    }

    #[test]
    fn play_and_score() {
        let mut b = Board::start();
        let f5 = parse_square("f5").unwrap();
        assert_eq!(b.play(f5), 1 << parse_square("e5").unwrap());
        assert_eq!(b.player_count(), 1);
        assert_eq!(b.opponent_count(), 4);
        assert_eq!(b.play(0), 0, "A1 is illegal");
        assert_eq!(b.final_score(), -62);
        b.pass();
        assert_eq!(b.final_score(), 62);
        assert_eq!(Board::new(0b11, 0b1100).final_score(), 0);
        assert_eq!(final_score(0b111, 0b1000), 62);
        assert_eq!(final_score(0b1000, 0b111), -62);
        assert_eq!(final_score(u64::MAX >> 1, 1 << 63), 62);
    }
}
