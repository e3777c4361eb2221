//! The list of empty squares and quadrant parity (Edax `search.c`: the empty list and
//! `QUADRANT_ID` parity of `search_setup` / `search_update_endgame`).
//!
//! Empties are kept in a fixed order (corners first, X-squares last, [`PRESORTED`]) in a linked
//! list with a sentinel at index [`HEAD`]. Deep nodes remove/restore with both links; the
//! shallow search only rewrites forward links (Edax `endgame.c`, `search_shallow`: the backward links stay valid for the
//! callers because the shallow search never touches them).

use crate::bits::{bit, PRESORTED, QUADRANT_ID};

/// Sentinel: list head and terminator.
pub const HEAD: usize = 64;

/// Doubly linked list of empties.
#[derive(Clone, Debug)]
pub struct Empties {
    next: [u8; 65],
    prev: [u8; 65],
}

impl Empties {
    /// The empties of `empty` (a bitboard), in presorted order.
    pub fn new(empty: u64) -> Empties {
        let mut l = Empties {
            next: [HEAD as u8; 65],
            prev: [HEAD as u8; 65],
        };
        let mut last = HEAD;
        for &x in PRESORTED.iter().filter(|&&x| empty & bit(x as usize) != 0) {
            l.next[last] = x;
            l.prev[x as usize] = last as u8;
            last = x as usize;
        }
        l.next[last] = HEAD as u8;
        l.prev[HEAD] = last as u8;
        l
    }

    /// First empty square ([`HEAD`] if none).
    #[inline(always)]
    pub fn first(&self) -> usize {
        self.next[HEAD] as usize
    }

    /// Square after `x` ([`HEAD`] at the end).
    #[inline(always)]
    pub fn next(&self, x: usize) -> usize {
        self.next[x] as usize
    }

    /// Unlinks `x` (both links).
    #[inline(always)]
    pub fn remove(&mut self, x: usize) {
        let (p, n) = (self.prev[x], self.next[x]);
        self.next[p as usize] = n;
        self.prev[n as usize] = p;
    }

    /// Relinks `x` after [`remove`](Self::remove).
    #[inline(always)]
    pub fn restore(&mut self, x: usize) {
        let (p, n) = (self.prev[x], self.next[x]);
        self.next[p as usize] = x as u8;
        self.prev[n as usize] = x as u8;
    }

    /// Forward-only unlink of `x`, whose predecessor is `prev`.
    #[inline(always)]
    pub fn skip(&mut self, prev: usize, x: usize) {
        self.next[prev] = self.next[x];
    }

    /// Undoes [`skip`](Self::skip).
    #[inline(always)]
    pub fn unskip(&mut self, prev: usize, x: usize) {
        self.next[prev] = x as u8;
    }

    /// Iterates the empties in list order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let mut x = self.first();
        std::iter::from_fn(move || {
            (x != HEAD).then(|| {
                let y = x;
                x = self.next(x);
                y
            })
        })
    }
}

/// Parity word of a set of empties: bit q set when quadrant q holds an odd number of them.
pub fn parity(empty: u64) -> u32 {
    let mut p = 0;
    let mut e = empty;
    while e != 0 {
        p ^= QUADRANT_ID[e.trailing_zeros() as usize];
        e &= e - 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_restore_and_skip() {
        let e = bit(0) | bit(7) | bit(9) | bit(30);
        let mut l = Empties::new(e);
        assert_eq!(l.iter().collect::<Vec<_>>(), vec![0, 7, 30, 9]);
        l.remove(7);
        assert_eq!(l.iter().collect::<Vec<_>>(), vec![0, 30, 9]);
        l.skip(30, 9);
        assert_eq!(l.iter().collect::<Vec<_>>(), vec![0, 30]);
        l.unskip(30, 9);
        l.restore(7);
        assert_eq!(l.iter().collect::<Vec<_>>(), vec![0, 7, 30, 9]);
        assert_eq!(parity(e), 1 ^ 2 ^ 1 ^ 2);
    }
}
