//! Move ordering: every legal move gets one sort key and the search takes them best-first by
//! selection (usually only the first few are ever needed). Order: transposition-table move, captures
//! and promotions that do not lose material by SEE (most valuable victim first, least valuable
//! attacker next), the two killer moves, quiet moves by butterfly + continuation history, and
//! finally the losing captures.

use crate::history::History;
use crate::see::{capture_gain, see_ge, SEE_VALUE};
use ply_chess::{Move, MoveList, Position, MAX_MOVES};

/// Key of the transposition-table move.
const TT_MOVE: i32 = 1 << 30;
/// Base key of captures that hold their own under SEE.
const GOOD_CAPTURE: i32 = 1 << 28;
/// Keys of the two killers.
const KILLER: [i32; 2] = [1 << 27, (1 << 27) - 1];
/// Base key of losing captures (below every quiet move).
pub const BAD_CAPTURE: i32 = -(1 << 28);

/// A move list with one ordering key per move, consumed best-first.
pub struct Picker {
    list: MoveList,
    /// Keys of `list[..len]`.
    keys: [i32; MAX_MOVES],
    len: usize,
    next: usize,
}

/// What the ordering needs to know about the node.
pub struct OrderContext<'a> {
    /// Compact form of the transposition-table move (0 for none).
    pub tt_move: u16,
    /// Killer moves of this ply.
    pub killers: [Move; 2],
    /// History tables of the thread.
    pub history: &'a History,
    /// Continuation keys of the previous two moves.
    pub prevs: [Option<usize>; 2],
}

impl Picker {
    /// Scores every move of `list` for `pos`.
    pub fn new(pos: &Position, list: MoveList, cx: &OrderContext<'_>) -> Picker {
        let mut p = Picker {
            len: list.len(),
            list,
            keys: [0; MAX_MOVES],
            next: 0,
        };
        let color = pos.side_to_move();
        for (i, &m) in p.list.iter().enumerate() {
            let key = if cx.tt_move != 0 && m.compact() == cx.tt_move {
                TT_MOVE
            } else if m.is_tactical() {
                let order = capture_gain(m) * 16 - SEE_VALUE[m.role().index()] / 16;
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + order
                } else {
                    BAD_CAPTURE + order
                }
            } else if m == cx.killers[0] {
                KILLER[0]
            } else if m == cx.killers[1] {
                KILLER[1]
            } else {
                2 * cx.history.quiet(color, m)
                    + cx.history.continuation(cx.prevs[0], color, m)
                    + cx.history.continuation(cx.prevs[1], color, m)
            };
            p.keys[i] = key;
        }
        p
    }

    /// Keeps only captures and promotions (quiescence), most valuable victim first.
    pub fn tactical(mut list: MoveList, tt_move: u16) -> Picker {
        list.retain(|m| m.is_tactical());
        let mut p = Picker {
            len: list.len(),
            list,
            keys: [0; MAX_MOVES],
            next: 0,
        };
        for (i, &m) in p.list.iter().enumerate() {
            let key = if tt_move != 0 && m.compact() == tt_move {
                TT_MOVE
            } else {
                capture_gain(m) * 16 - SEE_VALUE[m.role().index()] / 16
            };
            p.keys[i] = key;
        }
        p
    }

    /// The next best move and its ordering key.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        let mut best_key = self.keys[best];
        for i in self.next + 1..self.len {
            let k = self.keys[i];
            if k > best_key {
                best = i;
                best_key = k;
            }
        }
        self.list.swap(self.next, best);
        self.keys.swap(self.next, best);
        let r = (self.list[self.next], best_key);
        self.next += 1;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_move_first_then_winning_capture_then_killer() {
        let pos = Position::from_fen("4k3/8/8/3q4/4P3/8/1N6/4K3 w - - 0 1").unwrap();
        let list = pos.legal_moves();
        let history = History::new();
        let tt = pos.parse_uci("e1f1").unwrap();
        let killer = pos.parse_uci("b2d3").unwrap();
        let cx = OrderContext {
            tt_move: tt.compact(),
            killers: [killer, Move::NULL],
            history: &history,
            prevs: [None, None],
        };
        let total = list.len();
        let mut p = Picker::new(&pos, list, &cx);
        assert_eq!(p.next().unwrap().0, tt);
        assert_eq!(p.next().unwrap().0, pos.parse_uci("e4d5").unwrap());
        assert_eq!(p.next().unwrap().0, killer);
        let mut n = 3;
        while p.next().is_some() {
            n += 1;
        }
        assert_eq!(n, total);
    }
}
