//! Perft: leaf count of the game tree to a fixed depth, with the standard convention (Aart Bik's
//! table): a forced pass uses up a ply, and a game that ended earlier counts as one leaf at every
//! greater depth. (Edax's own perft drops finished games.)
//!
//! The last ply is counted in bulk: a node at depth 1 has `max(popcount(moves), 1)` leaves (no move
//! means one pass or one finished game). The search is compiled once per CPU level (portable, AVX2,
//! AVX-512, see [`crate::kernel`]) and [`perft`] picks the best one once, at the root.

#[cfg(target_arch = "x86_64")]
use crate::kernel::{Avx2, Avx512};
use crate::kernel::{Cpu, Kernel, Portable};
use crate::Board;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Leaves of a depth-2 node with legal `moves`: each child counts its moves, or 1 (pass / game
/// end). The SIMD kernels compute the children's mobility several at a time.
trait Last2: Kernel {
    fn last2(self, player: u64, opponent: u64, moves: u64) -> u64;
}

impl Last2 for Portable {
    #[inline(always)]
    fn last2(self, player: u64, opponent: u64, mut moves: u64) -> u64 {
        let mut total = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = self.flip(sq, player, opponent);
            total += self
                .moves(opponent ^ f, player ^ f ^ (1u64 << sq))
                .count_ones()
                .max(1) as u64;
        }
        total
    }
}

/// Depth-2 leaves with the children's mobility computed `$lanes` at a time by `$batch`.
macro_rules! last2_batch {
    ($k:ident, $lanes:literal, $batch:path) => {
        #[cfg(target_arch = "x86_64")]
        impl Last2 for $k {
            #[inline(always)]
            fn last2(self, player: u64, opponent: u64, mut moves: u64) -> u64 {
                let mut total = 0;
                let (mut ps, mut os) = ([0u64; $lanes], [0u64; $lanes]);
                while moves != 0 {
                    let mut n = 0;
                    while moves != 0 && n < $lanes {
                        let sq = moves.trailing_zeros() as usize;
                        moves &= moves - 1;
                        let f = self.flip(sq, player, opponent);
                        ps[n] = opponent ^ f;
                        os[n] = player ^ f ^ (1u64 << sq);
                        n += 1;
                    }
                    // SAFETY: the token `self` proves the features of its level, which include
                    // those of `$batch`.
                    let m = unsafe { $batch(&ps, &os) };
                    total += m[..n]
                        .iter()
                        .map(|x| x.count_ones().max(1) as u64)
                        .sum::<u64>();
                }
                total
            }
        }
    };
}

last2_batch!(Avx2, 4, crate::moves::avx2::get_moves_x4);
last2_batch!(Avx512, 8, crate::moves::avx512::get_moves_x8);

/// A perft compiled for one kernel.
trait PerftCopy: Kernel {
    /// Leaf count below `(player, opponent)` to `depth >= 1` plies.
    fn perft(self, player: u64, opponent: u64, depth: u32) -> u64;
}

/// The perft copy of kernel `$k`, compiled with `$attr` (see [`crate::for_each_kernel!`]).
macro_rules! perft_copy {
    ($k:ty, $(#[$attr:meta])*) => {
        impl PerftCopy for $k {
            fn perft(self, player: u64, opponent: u64, depth: u32) -> u64 {
                $(#[$attr])*
                fn search(k: $k, player: u64, opponent: u64, depth: u32) -> u64 {
                    let mut moves = k.moves(player, opponent);
                    if moves == 0 {
                        if depth <= 1 || k.moves(opponent, player) == 0 {
                            return 1; // one pass at the last ply, or a finished game
                        }
                        return search(k, opponent, player, depth - 1);
                    }
                    if depth <= 1 {
                        return moves.count_ones() as u64;
                    }
                    if depth == 2 {
                        return k.last2(player, opponent, moves);
                    }
                    let mut total = 0;
                    while moves != 0 {
                        let sq = moves.trailing_zeros() as usize;
                        moves &= moves - 1;
                        let f = k.flip(sq, player, opponent);
                        total += search(k, opponent ^ f, player ^ f ^ (1u64 << sq), depth - 1);
                    }
                    total
                }
                // SAFETY: `self` is a token of this kernel: it exists only after detection proved
                // the features `search` is compiled with.
                #[allow(unused_unsafe)]
                unsafe {
                    search(self, player, opponent, depth)
                }
            }
        }
    };
}

crate::for_each_kernel!(perft_copy);

/// Leaf count of `board` to `depth` plies with the CPU level `cpu`; `None` when the running CPU
/// does not support it. Depth 0 counts the position itself (1).
pub fn perft_with(board: Board, depth: u32, cpu: Cpu) -> Option<u64> {
    if !cpu.is_supported() {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    Some(crate::with_kernel!(cpu, |k| k.perft(
        board.player(),
        board.opponent(),
        depth
    )))
}

/// Leaf count of `board` to `depth` plies, with the best CPU level of the running machine.
pub fn perft(board: Board, depth: u32) -> u64 {
    perft_with(board, depth, Cpu::detect()).unwrap_or(0)
}

/// Splits the tree `split` plies deep into sub-perfts `(board, depth)`; finished games met on the
/// way are added to `leaves` (they count as one leaf at every greater depth).
fn split_tree(
    board: Board,
    depth: u32,
    split: u32,
    tasks: &mut Vec<(Board, u32)>,
    leaves: &mut u64,
) {
    if split == 0 || depth <= 1 {
        tasks.push((board, depth));
        return;
    }
    let mut moves = board.moves();
    if moves == 0 {
        if board.opponent_moves() == 0 {
            *leaves += 1;
        } else {
            split_tree(board.passed(), depth - 1, split - 1, tasks, leaves);
        }
        return;
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        split_tree(
            board.next(sq, crate::flip(sq, board.player(), board.opponent())),
            depth - 1,
            split - 1,
            tasks,
            leaves,
        );
    }
}

/// Leaf count of `board` to `depth` plies on `threads` threads (each running [`perft_with`] at the
/// best CPU level on sub-trees taken from a shared list); same result as [`perft`].
pub fn perft_parallel(board: Board, depth: u32, threads: usize) -> u64 {
    let threads = threads.max(1);
    if threads == 1 || depth < 6 {
        return perft(board, depth);
    }
    let cpu = Cpu::detect();
    let (mut tasks, mut leaves) = (Vec::new(), 0u64);
    // 4 plies give a few hundred sub-trees from the start position: enough to balance the threads.
    split_tree(board, depth, 4, &mut tasks, &mut leaves);
    let next = AtomicUsize::new(0);
    let sum: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut n = 0u64;
                    while let Some(&(b, d)) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
                        n += perft_with(b, d, cpu).unwrap_or(0);
                    }
                    n
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    leaves + sum
}

/// Simple reference perft (scalar moves and flips, no bulk counting) for tests.
pub fn perft_reference(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = crate::moves::scalar::get_moves(board.player(), board.opponent());
    if moves == 0 {
        if crate::moves::scalar::get_moves(board.opponent(), board.player()) == 0 {
            return 1;
        }
        return perft_reference(board.passed(), depth - 1);
    }
    (0..64)
        .filter(|&sq| moves >> sq & 1 != 0)
        .map(|sq| {
            let f = crate::flip::scalar::flip(sq, board.player(), board.opponent());
            perft_reference(board.next(sq, f), depth - 1)
        })
        .sum()
}
