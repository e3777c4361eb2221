//! The search's accumulators: one pair (White's and Black's perspective) per ply, updated lazily.
//!
//! The search is copy-make, so going down a move only records what the move changed on the
//! board ([`Delta`]: the pieces it lifts and puts down, at most two each) and marks the child's
//! pair as not computed. When a node needs its evaluation, its pair is made from the nearest
//! computed ancestor by applying the recorded deltas one ply after another, or from scratch when
//! no ancestor on the path is computed. A null move records an empty delta: the child's pair is
//! a copy of the parent's. Nodes whose evaluation comes from the transposition table or is never
//! needed cost only the record.

use super::feature::feature_index;
use super::network::Network;
use super::simd::Kernel;
use ply_chess::{CastlingSide, Color, Move, MoveKind, Position, Role, Square};
use std::sync::Arc;

/// One piece on one square, as the inputs see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    color: Color,
    role: Role,
    sq: Square,
}

/// What a move changes on the board: the pieces it removes (the mover from its square, a
/// captured piece, a castling rook) and the pieces it adds (the mover or its promotion on the
/// target, a castled rook). Empty for a null move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Delta {
    add: [Placed; 2],
    sub: [Placed; 2],
    n_add: u8,
    n_sub: u8,
}

const NOWHERE: Placed = Placed {
    color: Color::White,
    role: Role::Pawn,
    sq: Square::A1,
};

impl Default for Delta {
    fn default() -> Self {
        Delta::NULL
    }
}

impl Delta {
    /// The null move's delta: nothing changes.
    pub(crate) const NULL: Delta = Delta {
        add: [NOWHERE; 2],
        sub: [NOWHERE; 2],
        n_add: 0,
        n_sub: 0,
    };

    fn add(&mut self, color: Color, role: Role, sq: Square) {
        self.add[usize::from(self.n_add)] = Placed { color, role, sq };
        self.n_add += 1;
    }

    fn sub(&mut self, color: Color, role: Role, sq: Square) {
        self.sub[usize::from(self.n_sub)] = Placed { color, role, sq };
        self.n_sub += 1;
    }

    /// The changes of the legal move `m` played in `pos` (the parent).
    #[inline]
    pub(crate) fn of(pos: &Position, m: Move) -> Delta {
        let us = pos.side_to_move();
        let (from, to, role) = (m.from(), m.to(), m.role());
        let mut d = Delta::NULL;
        match m.kind() {
            kind @ (MoveKind::CastleKing | MoveKind::CastleQueen) => {
                // `to` is the rook's square ("king takes rook").
                let side = if kind == MoveKind::CastleKing {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                d.sub(us, Role::King, from);
                d.sub(us, Role::Rook, to);
                d.add(us, Role::King, side.king_to(us));
                d.add(us, Role::Rook, side.rook_to(us));
            }
            MoveKind::EnPassant => {
                d.sub(us, Role::Pawn, from);
                d.sub(!us, Role::Pawn, Square::new(to as u8 ^ 8));
                d.add(us, Role::Pawn, to);
            }
            _ => {
                d.sub(us, role, from);
                if let Some(cap) = m.captured() {
                    d.sub(!us, cap, to);
                }
                d.add(us, m.promotion().unwrap_or(role), to);
            }
        }
        d
    }

    /// The input indices this delta adds and removes in `perspective`'s accumulator.
    fn indices(&self, perspective: Color) -> ([usize; 2], usize, [usize; 2], usize) {
        let index = |p: &Placed| feature_index(perspective, p.color, p.role, p.sq);
        (
            self.add.map(|p| index(&p)),
            usize::from(self.n_add),
            self.sub.map(|p| index(&p)),
            usize::from(self.n_sub),
        )
    }
}

/// The per-ply accumulator pairs of one search thread, with the network and kernel they use.
pub(crate) struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    hidden: usize,
    /// Ply `p`'s pair at `p * 2H`: White's perspective, then Black's.
    values: Vec<i16>,
    /// Whether ply `p`'s pair is up to date with the position on the current path.
    computed: Vec<bool>,
    /// The move that led to ply `p` (from ply `p - 1`).
    deltas: Vec<Delta>,
}

impl AccumulatorStack {
    /// A stack of `plies` pairs for `net`, none computed, using `kernel`.
    pub(crate) fn new(net: Arc<Network>, kernel: Kernel, plies: usize) -> AccumulatorStack {
        let hidden = net.hidden();
        AccumulatorStack {
            net,
            kernel,
            hidden,
            values: vec![0; plies * 2 * hidden],
            computed: vec![false; plies],
            deltas: vec![Delta::NULL; plies],
        }
    }

    /// Records that ply `ply`'s position is its parent's after `delta` (its pair is stale).
    #[inline(always)]
    pub(crate) fn push(&mut self, ply: usize, delta: Delta) {
        if ply < self.deltas.len() {
            self.deltas[ply] = delta;
            self.computed[ply] = false;
        }
    }

    /// Computes ply `ply`'s pair from scratch for `pos`.
    pub(crate) fn refresh(&mut self, ply: usize, pos: &Position) {
        let h = self.hidden;
        if ply >= self.computed.len() {
            return;
        }
        for perspective in Color::ALL {
            let mut features = [0usize; 64];
            let mut n = 0;
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in pos.pieces(color, role) {
                        if n < features.len() {
                            features[n] = feature_index(perspective, color, role, sq);
                            n += 1;
                        }
                    }
                }
            }
            let at = (2 * ply + perspective.index()) * h;
            self.kernel.update(
                &mut self.values[at..at + h],
                self.net.feature_bias(),
                self.net.feature_weights(),
                &features[..n],
                &[],
            );
        }
        self.computed[ply] = true;
    }

    /// Makes ply `ply`'s pair from ply `ply - 1`'s (which must be computed) and its delta.
    fn update(&mut self, ply: usize) {
        let h = self.hidden;
        let (below, above) = self.values.split_at_mut(2 * ply * h);
        let parent = &below[2 * (ply - 1) * h..];
        let delta = self.deltas[ply];
        for perspective in Color::ALL {
            let (add, n_add, sub, n_sub) = delta.indices(perspective);
            let at = perspective.index() * h;
            self.kernel.update(
                &mut above[at..at + h],
                &parent[at..at + h],
                self.net.feature_weights(),
                &add[..n_add],
                &sub[..n_sub],
            );
        }
        self.computed[ply] = true;
    }

    /// Brings ply `ply`'s pair up to date for `pos`, the position on the current path at that ply:
    /// from the nearest computed ancestor through the recorded deltas, or from scratch.
    pub(crate) fn ensure(&mut self, ply: usize, pos: &Position) {
        if ply >= self.computed.len() || self.computed[ply] {
            return;
        }
        let mut base = ply;
        while base > 0 && !self.computed[base - 1] {
            base -= 1;
        }
        if base == 0 {
            self.refresh(ply, pos);
            return;
        }
        for p in base..=ply {
            self.update(p);
        }
    }

    /// The network's evaluation of `pos` at ply `ply` of the current path (centipawns, side to
    /// move), equal to [`Network::evaluate`] of `pos`.
    #[inline]
    pub(crate) fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        if ply >= self.computed.len() {
            return self.net.evaluate(pos);
        }
        self.ensure(ply, pos);
        let h = self.hidden;
        let pair = &self.values[2 * ply * h..2 * (ply + 1) * h];
        let (white, black) = pair.split_at(h);
        let (stm, opp) = match pos.side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let bucket = self.net.bucket(pos);
        let s = self
            .kernel
            .output(stm, opp, self.net.output_weights(bucket));
        let eval = self.net.finish(s, bucket);
        // Debug builds (the tests) check every incremental evaluation against the reference.
        debug_assert_eq!(eval, self.net.evaluate(pos), "{}", pos.to_fen());
        eval
    }

    /// Ply `ply`'s pair (White's perspective, then Black's), for tests.
    #[cfg(test)]
    fn pair(&self, ply: usize) -> &[i16] {
        &self.values[2 * ply * self.hidden..2 * (ply + 1) * self.hidden]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_testkit::XorShift64;

    /// Plays seeded random games, going down one ply per move (sometimes a null move) and asking
    /// for an evaluation at one ply in `every` (chosen at random; `every = 1`: at each ply), and
    /// checks each such pair against a refresh and each evaluation against the scalar reference.
    fn check_games(kernel: Kernel, hidden: usize, buckets: usize, seed: u64, every: u64) {
        let net = Arc::new(Network::random(hidden, buckets, seed).unwrap());
        let mut rng = XorShift64::new(seed);
        for _game in 0..8 {
            let mut stack = AccumulatorStack::new(net.clone(), kernel, 256);
            let mut fresh = AccumulatorStack::new(net.clone(), Kernel::portable(), 1);
            let mut pos = Position::startpos();
            stack.refresh(0, &pos);
            for ply in 1..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let (child, delta) = match pos.null_move() {
                    Some(null) if rng.below(10) == 0 => (null, Delta::NULL),
                    _ => {
                        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
                        (pos.play(m), Delta::of(&pos, m))
                    }
                };
                stack.push(ply, delta);
                pos = child;
                // Evaluating only some nodes makes other updates walk several plies.
                if rng.below(every) == 0 {
                    let e = stack.evaluate(ply, &pos);
                    assert_eq!(e, net.evaluate(&pos), "ply {ply}: {}", pos.to_fen());
                    fresh.refresh(0, &pos);
                    assert_eq!(stack.pair(ply), fresh.pair(0), "ply {ply}");
                }
            }
        }
    }

    #[test]
    fn incremental_equals_refresh_portable() {
        check_games(Kernel::portable(), 32, 8, 1, 1);
        check_games(Kernel::portable(), 64, 1, 2, 2);
        check_games(Kernel::portable(), 16, 2, 4, 5);
    }

    #[test]
    fn incremental_equals_refresh_detected() {
        check_games(Kernel::detect(), 256, 8, 3, 1);
        check_games(Kernel::detect(), 256, 4, 6, 3);
    }

    #[test]
    fn avx2_equals_portable() {
        let Some(avx2) = Kernel::avx2() else {
            ply_testkit::skip_unsupported("this CPU has no AVX2");
            return;
        };
        equals_portable(avx2);
    }

    #[test]
    fn avx512_equals_portable() {
        let Some(avx512) = Kernel::avx512() else {
            ply_testkit::skip_unsupported("this CPU has no AVX-512 F and BW");
            return;
        };
        equals_portable(avx512);
    }

    /// `kernel`'s output and updates against the portable ones on random networks, accumulators
    /// and weights, and whole games with it against refreshes.
    fn equals_portable(kernel: Kernel) {
        let portable = Kernel::portable();
        let mut rng = XorShift64::new(99);
        for (hidden, buckets) in [(16, 1), (32, 2), (256, 8), (512, 4)] {
            let net = Network::random(hidden, buckets, rng.next()).unwrap();
            // Accumulators anywhere in the i16 range, weights too, to cover clamping and
            // wrapping in both kernels.
            let acc = |rng: &mut XorShift64, n: usize| -> Vec<i16> {
                (0..n).map(|_| rng.next() as i16).collect()
            };
            for _ in 0..50 {
                let (stm, opp) = (acc(&mut rng, hidden), acc(&mut rng, hidden));
                let w = acc(&mut rng, 2 * hidden);
                assert_eq!(
                    kernel.output(&stm, &opp, &w),
                    portable.output(&stm, &opp, &w)
                );
                let src = acc(&mut rng, hidden);
                let add = [rng.below(768) as usize, rng.below(768) as usize];
                let sub = [rng.below(768) as usize];
                let (mut a, mut b) = (vec![0; hidden], vec![0; hidden]);
                kernel.update(&mut a, &src, net.feature_weights(), &add, &sub);
                portable.update(&mut b, &src, net.feature_weights(), &add, &sub);
                assert_eq!(a, b);
            }
            check_games(kernel, hidden, buckets, rng.next(), 2);
        }
    }

    #[test]
    fn deltas_of_special_moves() {
        // Castling, en passant and promotion with capture, each checked against a refresh.
        let net = Arc::new(Network::random(16, 2, 5).unwrap());
        for (fen, uci) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"),
            ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            ("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2b1n"),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let m = pos
                .parse_uci(uci)
                .unwrap_or_else(|e| panic!("{uci} in {fen}: {e}"));
            let mut stack = AccumulatorStack::new(net.clone(), Kernel::portable(), 4);
            stack.refresh(0, &pos);
            stack.push(1, Delta::of(&pos, m));
            let child = pos.play(m);
            assert_eq!(
                stack.evaluate(1, &child),
                net.evaluate(&child),
                "{fen} {uci}"
            );
            let mut fresh = AccumulatorStack::new(net.clone(), Kernel::portable(), 1);
            fresh.refresh(0, &child);
            assert_eq!(stack.pair(1), fresh.pair(0), "{fen} {uci}");
        }
    }
}
