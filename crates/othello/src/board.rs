//! The board from the mover's view: two bitboards `{player, opponent}`; a move XORs the flipped discs
//! and the move square in, then swaps sides (Edax's representation, `board.c`).
//!
//! A [`Board`] keeps one invariant: no square holds a disc of both sides. Its fields are private,
//! so a board from outside the crate is built either checked ([`Board::new`], an error on
//! overlapping discs) or, on a hot path whose bitboards are overlap-free by construction,
//! unchecked ([`Board::from_bits_unchecked`], debug-asserted). Every method that changes a board
//! keeps the invariant when its own contract is kept.

use crate::BoardError;
use crate::{flip, get_moves, with_kernel, Cpu, Kernel};

/// A position: discs of the side to move (`player`) and of the other side (`opponent`), which
/// never overlap. Bit index = square (A1 = 0 ... H8 = 63, see [`Square`](crate::Square)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    player: u64,
    opponent: u64,
}

impl Board {
    /// Board from the two bitboards, the side to move first.
    ///
    /// # Errors
    /// [`BoardError::Overlap`] when a square holds a disc of both sides.
    ///
    /// ```
    /// use ply_othello::{Board, BoardError};
    /// let b = Board::new(0b01, 0b10).unwrap();
    /// assert_eq!((b.player(), b.opponent()), (0b01, 0b10));
    /// assert_eq!(Board::new(0b11, 0b10), Err(BoardError::Overlap(0b10)));
    /// ```
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Result<Board, BoardError> {
        if player & opponent != 0 {
            return Err(BoardError::Overlap(player & opponent));
        }
        Ok(Board { player, opponent })
    }

    /// Board from two bitboards the caller knows to be disjoint (a search rebuilding a board it
    /// took apart, a table entry it wrote): no check in release builds, a debug assertion
    /// otherwise. Overlapping discs are a logic error, not undefined behaviour: the board's
    /// methods then give meaningless results. Input from users goes through [`Board::new`].
    ///
    /// # Panics
    /// In debug builds, when the two bitboards overlap.
    #[inline(always)]
    pub const fn from_bits_unchecked(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0, "overlapping bitboards");
        Board { player, opponent }
    }

    /// Discs of the side to move.
    #[inline(always)]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// Discs of the side not to move.
    #[inline(always)]
    pub const fn opponent(&self) -> u64 {
        self.opponent
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

    /// Plays `sq` with flips `flipped` already computed (e.g. by [`crate::flip()`]); no checks
    /// beyond [`next`](Self::next)'s debug assertion.
    #[inline(always)]
    pub fn play_flips(&mut self, sq: usize, flipped: u64) {
        *self = self.next(sq, flipped);
    }

    /// The board after playing `sq` with precomputed `flipped` discs (sides swapped). The
    /// contract, checked only by a debug assertion: `sq` is empty and `flipped` is a subset of
    /// the opponent's discs (as [`crate::flip()`] returns for an empty square).
    ///
    /// # Panics
    /// In debug builds, when the contract is broken.
    #[inline(always)]
    pub const fn next(&self, sq: usize, flipped: u64) -> Board {
        let bit = 1u64 << (sq & 63);
        debug_assert!(
            (self.player | self.opponent) & bit == 0 && flipped & !self.opponent == 0,
            "move on an occupied square or flips that are not the opponent's"
        );
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ bit,
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

    /// CRC32C hash of the board ([`crate::hash`]) with the kernel of the CPU level found once by
    /// [`Cpu::detect`]: the SSE4.2 instruction where the CPU has it, an identical portable
    /// fallback otherwise. Searches call their kernel's [`Kernel::hash`] instead.
    #[inline]
    pub fn hash(&self) -> u64 {
        with_kernel!(Cpu::detect(), |k| k.hash(self.player, self.opponent))
    }

    /// True when the two bitboards do not overlap: always, unless a caller broke the contract
    /// of [`Board::from_bits_unchecked`] or [`Board::next`] (tests use it as a cheap check).
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
    use crate::Square;

    #[test]
    fn start_moves() {
        let b = Board::start();
        let expected = ["D3", "C4", "F5", "E6"]
            .iter()
            .fold(0u64, |m, s| m | s.parse::<Square>().unwrap().bit());
        assert_eq!(b.moves(), expected);
        assert_eq!(b.player_count(), 2);
        assert_eq!(b.opponent_count(), 2);
        assert!(!b.is_game_over());
    }

    #[test]
    fn play_and_score() {
        let mut b = Board::start();
        let f5 = Square::F5.index();
        assert_eq!(b.play(f5), Square::E5.bit());
        assert_eq!(b.player_count(), 1);
        assert_eq!(b.opponent_count(), 4);
        assert_eq!(b.play(0), 0, "A1 is illegal");
        assert_eq!(b.final_score(), -62);
        b.pass();
        assert_eq!(b.final_score(), 62);
        assert_eq!(Board::new(0b11, 0b1100).unwrap().final_score(), 0);
        assert_eq!(final_score(0b111, 0b1000), 62);
        assert_eq!(final_score(0b1000, 0b111), -62);
        assert_eq!(final_score(u64::MAX >> 1, 1 << 63), 62);
    }

    #[test]
    fn new_rejects_overlapping_discs() {
        assert_eq!(Board::new(0, 0), Ok(Board::default()));
        assert_eq!(Board::new(u64::MAX, 0).map(|b| b.player()), Ok(u64::MAX));
        assert_eq!(Board::new(0b110, 0b011), Err(BoardError::Overlap(0b010)));
        assert_eq!(
            Board::new(u64::MAX, u64::MAX),
            Err(BoardError::Overlap(u64::MAX))
        );
        let e = Board::new(1 << 63 | 1 << 9, 1 << 63 | 1 << 9).unwrap_err();
        assert_eq!(
            e.to_string(),
            "both sides have a disc on B2 (2 square(s) overlap)"
        );
        let s = Board::start();
        assert_eq!(Board::new(s.player(), s.opponent()), Ok(s));
        assert_eq!(Board::from_bits_unchecked(s.player(), s.opponent()), s);
    }
}
