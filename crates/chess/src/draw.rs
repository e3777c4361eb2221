//! Draw detection helpers: repetition through a hash history, the 50-move rule and insufficient
//! material (FIDE Laws 9.2, 9.3 and 9.6 in their usual engine reading).

use crate::{Bitboard, Color, Position, Role};

impl Position {
    /// Neither side can ever mate: bare kings, or only minor pieces amounting to one knight, or only
    /// bishops all standing on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        if (self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen)).any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && (!bishops.intersects(Bitboard::LIGHT_SQUARES)
                || !bishops.intersects(Bitboard::DARK_SQUARES))
    }

    /// Whether either side alone lacks mating material (useful for "can this side still win").
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        if (ours
            & (self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen)))
        .any()
        {
            return false;
        }
        let minors = ours & (self.by_role(Role::Knight) | self.by_role(Role::Bishop));
        minors.count() <= 1
            || (ours & self.by_role(Role::Knight)).is_empty() && {
                let b = ours & self.by_role(Role::Bishop);
                !b.intersects(Bitboard::LIGHT_SQUARES) || !b.intersects(Bitboard::DARK_SQUARES)
            }
    }

    /// The 50-move rule may be claimed: 100 half-moves without capture or pawn move, unless the side
    /// to move is mated.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove >= 100 && !self.is_checkmate()
    }
}

/// How many earlier positions in `history` equal its last entry, looking back only as far as the
/// half-move clock allows (no repetition across a capture or pawn move) and only at positions with
/// the same side to move. `history` holds the hashes of the game so far, the current position last.
/// A result of 2 means threefold repetition; engines usually score 1 as a draw already.
pub fn repetitions(history: &[u64], halfmove_clock: u32) -> usize {
    let Some((&current, earlier)) = history.split_last() else {
        return 0;
    };
    let window = (halfmove_clock as usize).min(earlier.len());
    earlier[earlier.len() - window..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&h| h == current)
        .count()
}
