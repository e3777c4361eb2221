//! The main search's staged move picker: moves are generated and scored only when the search gets
//! to them, so a node that cuts on its transposition-table move generates nothing else, and one
//! that cuts on a capture never generates or scores its quiet moves.
//!
//! Stages, in order:
//! 1. the transposition-table move, checked for legality on its own;
//! 2. captures and promotions, best first by most valuable victim / least valuable attacker; the
//!    exchange evaluation runs only on the capture about to be tried, and a losing one is put aside;
//! 3. the two killer moves, each checked for legality on its own;
//! 4. quiet moves, best first by butterfly plus continuation history;
//! 5. the captures put aside in stage 2.
//!
//! Quiescence nodes not in check use a shorter form ([`MovePicker::reset_qsearch`]): the
//! captures and queen promotions, table move first. A move is never returned twice. Once the search has decided to skip the remaining quiet moves
//! ([`MovePicker::skip_quiets`]), stages 3 and 4 are passed over (no quiet move is generated).
//! Each worker keeps its pickers in a preallocated stack, one slot per ply, so a node neither
//! zeroes nor copies a move list.

use crate::history::History;
use crate::see::{capture_gain, see_ge, SEE_VALUE};
use ply_chess::{with_sliders, Color, Move, MoveList, Position, MAX_MOVES};

/// Where a move came from; the search treats losing captures like quiet moves for reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The transposition-table move.
    TtMove,
    /// Generate the captures and promotions.
    GenerateCaptures,
    /// A capture or promotion that does not lose material by SEE.
    GoodCapture,
    /// The first killer move.
    Killer1,
    /// The second killer move.
    Killer2,
    /// Generate the quiet moves.
    GenerateQuiets,
    /// A quiet move.
    Quiet,
    /// A capture that loses material by SEE.
    BadCapture,
    /// A capture or queen promotion of a quiescence node (not in check).
    Qsearch,
    /// Nothing left.
    Done,
}

/// A staged move picker (see the module docs); reused from node to node through [`Self::reset`].
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    prevs: [Option<usize>; 2],
    color: Color,
    skip_quiets: bool,
    /// Captures in `moves[..captures]` (the losing ones moved to `moves[..bad]` as they are
    /// found), quiet moves after them.
    moves: MoveList,
    /// Ordering key of each entry of `moves`.
    keys: [i32; MAX_MOVES],
    captures: usize,
    bad: usize,
    next: usize,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker::new()
    }
}

/// Most valuable victim first, then least valuable attacker.
#[inline]
fn capture_key(m: Move) -> i32 {
    capture_gain(m) * 16 - SEE_VALUE[m.role().index()] / 16
}

impl MovePicker {
    /// An empty picker (call [`Self::reset`] before use).
    pub fn new() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            prevs: [None, None],
            color: Color::White,
            skip_quiets: false,
            moves: MoveList::new(),
            keys: [0; MAX_MOVES],
            captures: 0,
            bad: 0,
            next: 0,
        }
    }

    /// The legal move of `pos` that `compact` encodes, if any.
    #[inline]
    fn legal_from_compact(&self, pos: &Position, compact: u16) -> Option<Move> {
        pos.legal_from_compact(compact)
    }

    /// Prepares the picker for a node: `tt_move` is the table's compact move (0 for none),
    /// `killers` the killer moves of the ply, `prevs` the continuation keys of the previous two
    /// moves.
    pub fn reset(
        &mut self,
        pos: &Position,
        tt_move: u16,
        killers: [Move; 2],
        prevs: [Option<usize>; 2],
    ) {
        self.stage = Stage::TtMove;
        self.tt_move = if tt_move == 0 {
            Move::NULL
        } else {
            self.legal_from_compact(pos, tt_move).unwrap_or(Move::NULL)
        };
        self.killers = killers;
        self.prevs = prevs;
        self.color = pos.side_to_move();
        self.skip_quiets = false;
        self.moves.clear();
        self.captures = 0;
        self.bad = 0;
        self.next = 0;
    }

    /// Prepares the picker for a quiescence node that is not in check: captures (but en passant)
    /// and queen promotions only, the table move first, the rest by most valuable victim / least
    /// valuable attacker. No exchange evaluation here: the quiescence search prunes by it after
    /// its cheaper delta test. (A quiescence node in check takes every evasion through
    /// [`Self::reset`].)
    pub fn reset_qsearch(&mut self, pos: &Position, tt_move: u16) {
        self.stage = Stage::Qsearch;
        self.tt_move = Move::NULL;
        self.killers = [Move::NULL; 2];
        self.skip_quiets = false;
        self.moves.clear();
        crate::captures::push_tactical_moves(pos, &mut self.moves);
        for (key, &m) in self.keys.iter_mut().zip(self.moves.iter()) {
            *key = if tt_move != 0 && m.compact() == tt_move {
                i32::MAX
            } else {
                capture_key(m)
            };
        }
        self.captures = self.moves.len();
        self.bad = 0;
        self.next = 0;
    }

    /// From now on no quiet move is returned (late-move and futility pruning have decided).
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Moves the best-keyed entry of `moves[self.next..end]` to `self.next` and returns it.
    #[inline]
    fn select(&mut self, end: usize) -> Move {
        let mut best = self.next;
        for i in self.next + 1..end {
            if self.keys[i] > self.keys[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        let m = self.moves.as_slice()[self.next];
        self.next += 1;
        m
    }

    /// A killer that may be tried here: set, quiet, not the table move, and legal.
    #[inline]
    fn usable_killer(&self, pos: &Position, k: Move) -> bool {
        k != Move::NULL
            && k != self.tt_move
            && !k.is_tactical()
            && self.legal_from_compact(pos, k.compact()) == Some(k)
    }

    /// The next move and the stage that produced it, or `None` when every move has been returned
    /// (or skipped).
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<(Move, Stage)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    if self.tt_move != Move::NULL {
                        return Some((self.tt_move, Stage::TtMove));
                    }
                }
                Stage::GenerateCaptures => {
                    // The process's slider lookup, chosen once (`Pext::detect`).
                    with_sliders!(|s| pos.push_tactical_moves_with(s, &mut self.moves));
                    self.captures = self.moves.len();
                    for (key, &m) in self.keys.iter_mut().zip(self.moves.iter()) {
                        *key = capture_key(m);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCapture;
                }
                Stage::GoodCapture => {
                    while self.next < self.captures {
                        let m = self.select(self.captures);
                        if m == self.tt_move {
                            continue;
                        }
                        if see_ge(pos, m, 0) {
                            return Some((m, Stage::GoodCapture));
                        }
                        // Put aside, in the order found (best key first).
                        self.moves.swap(self.next - 1, self.bad);
                        self.keys.swap(self.next - 1, self.bad);
                        self.bad += 1;
                    }
                    self.stage = Stage::Killer1;
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let k = self.killers[0];
                    if !self.skip_quiets && self.usable_killer(pos, k) {
                        return Some((k, Stage::Killer1));
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::GenerateQuiets;
                    let k = self.killers[1];
                    if !self.skip_quiets && k != self.killers[0] && self.usable_killer(pos, k) {
                        return Some((k, Stage::Killer2));
                    }
                }
                Stage::GenerateQuiets => {
                    if self.skip_quiets {
                        self.next = 0;
                        self.stage = Stage::BadCapture;
                        continue;
                    }
                    let start = self.moves.len();
                    with_sliders!(|s| pos.push_quiet_moves_with(s, &mut self.moves));
                    let [p0, p1] = self.prevs;
                    let color = self.color;
                    for (key, &m) in self.keys[start..]
                        .iter_mut()
                        .zip(&self.moves.as_slice()[start..])
                    {
                        *key = 2 * history.quiet(color, m)
                            + history.continuation(p0, color, m)
                            + history.continuation(p1, color, m);
                    }
                    self.next = start;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    while !self.skip_quiets && self.next < self.moves.len() {
                        let m = self.select(self.moves.len());
                        if m != self.tt_move && m != self.killers[0] && m != self.killers[1] {
                            return Some((m, Stage::Quiet));
                        }
                    }
                    self.next = 0;
                    self.stage = Stage::BadCapture;
                }
                Stage::BadCapture => {
                    if self.next < self.bad {
                        let m = self.moves.as_slice()[self.next];
                        self.next += 1;
                        return Some((m, Stage::BadCapture));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Qsearch => {
                    if self.next < self.captures {
                        return Some((self.select(self.captures), Stage::Qsearch));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move exactly once, whatever the table move and killers (legal or not).
    #[test]
    fn returns_every_legal_move_once() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",
            "4k3/4r3/8/8/8/8/4N3/2B1K3 w - - 0 1",
        ];
        let history = History::new();
        let mut picker = MovePicker::new();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = pos.legal_moves();
            let other = Position::startpos().legal_moves();
            let tts = [
                0,
                legal.as_slice()[0].compact(),
                other.as_slice()[3].compact(),
            ];
            for tt in tts {
                for killers in [
                    [Move::NULL; 2],
                    [legal.as_slice()[1], legal.as_slice()[2]],
                    [other.as_slice()[0], legal.as_slice()[legal.len() - 1]],
                ] {
                    picker.reset(&pos, tt, killers, [None, None]);
                    let mut seen = Vec::new();
                    while let Some((m, stage)) = picker.next(&pos, &history) {
                        assert!(legal.contains(m), "{fen}: {m:?} from {stage:?}");
                        assert!(!seen.contains(&m), "{fen}: {m:?} twice");
                        seen.push(m);
                    }
                    assert_eq!(seen.len(), legal.len(), "{fen}");
                }
            }
        }
    }

    #[test]
    fn table_move_then_winning_capture_then_killer_then_losing_capture() {
        // White: Nb2, pawn e4 (takes the queen on d5), queen a1 (takes a7, which the c8 knight guards).
        let pos = Position::from_fen("2n1k3/p7/8/3q4/4P3/8/1N6/Q3K3 w - - 0 1").unwrap();
        let history = History::new();
        let tt = pos.parse_uci("e1f1").unwrap();
        let killer = pos.parse_uci("b2d3").unwrap();
        let mut picker = MovePicker::new();
        picker.reset(&pos, tt.compact(), [killer, Move::NULL], [None, None]);
        assert_eq!(picker.next(&pos, &history), Some((tt, Stage::TtMove)));
        assert_eq!(
            picker.next(&pos, &history),
            Some((pos.parse_uci("e4d5").unwrap(), Stage::GoodCapture))
        );
        assert_eq!(picker.next(&pos, &history), Some((killer, Stage::Killer1)));
        let mut last = None;
        while let Some(x) = picker.next(&pos, &history) {
            last = Some(x);
        }
        assert_eq!(
            last,
            Some((pos.parse_uci("a1a7").unwrap(), Stage::BadCapture))
        );
    }

    #[test]
    fn quiescence_form_puts_the_table_move_first_then_victims_by_value() {
        let pos = Position::from_fen("2n1k3/p7/8/3q4/4P3/8/1N6/Q3K3 w - - 0 1").unwrap();
        let history = History::new();
        let mut picker = MovePicker::new();
        let qxa7 = pos.parse_uci("a1a7").unwrap();
        picker.reset_qsearch(&pos, qxa7.compact());
        assert_eq!(picker.next(&pos, &history), Some((qxa7, Stage::Qsearch)));
        assert_eq!(
            picker.next(&pos, &history),
            Some((pos.parse_uci("e4d5").unwrap(), Stage::Qsearch))
        );
        assert_eq!(picker.next(&pos, &history), None);
    }

    #[test]
    fn skipping_quiets_leaves_only_captures() {
        let pos = Position::from_fen("2n1k3/p7/8/3q4/4P3/8/1N6/Q3K3 w - - 0 1").unwrap();
        let history = History::new();
        let mut picker = MovePicker::new();
        picker.reset(&pos, 0, [Move::NULL; 2], [None, None]);
        picker.skip_quiets();
        let mut n = 0;
        while let Some((m, _)) = picker.next(&pos, &history) {
            assert!(m.is_tactical());
            n += 1;
        }
        assert_eq!(n, pos.tactical_moves().len());
    }
}
