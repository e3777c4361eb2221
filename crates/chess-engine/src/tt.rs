//! The transposition table: buckets of four entries in one 64-byte cache line, shared lock-free
//! between search threads.
//!
//! Each entry is two `AtomicU64` words: the packed data and `key ^ data` (Hyatt and Mann's lockless
//! hashing). A torn write from a concurrent store makes the check `stored ^ data == key` fail, so a
//! reader sees either a consistent entry or a miss, without locks. The data word holds a 16-bit
//! compact move, the score, the static evaluation, the depth, the bound and a 6-bit generation used
//! to age out entries from earlier searches. Buckets are chosen by the high half of `key * len`,
//! so any table size works.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored (empty entry).
    None = 0,
    /// The score is an upper bound (fail low).
    Upper = 1,
    /// The score is a lower bound (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search with window (`alpha`, `beta`).
    #[inline]
    pub const fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move in compact form (0 = none).
    pub mv: u16,
    /// Score, node-relative for mates (see `value::to_tt`).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Search depth of the score.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

/// Entries per bucket.
const WAYS: usize = 4;

/// One cache line of entries.
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [[AtomicU64; 2]; WAYS],
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

/// Why a table of the size asked for could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {mb} MiB for the hash table")]
pub struct AllocError {
    /// The size asked for, in mebibytes.
    pub mb: usize,
}

const GEN_SHIFT: u32 = 58;
const BOUND_SHIFT: u32 = 56;
const DEPTH_SHIFT: u32 = 48;

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket), for tests.
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_new`] reports that instead.
    #[cfg(test)]
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` mebibytes (at least one bucket), or an error when the size in bytes
    /// overflows or the allocator refuses it. The memory is asked zeroed from the allocator, so a
    /// large table costs no time until its pages are used.
    ///
    /// # Errors
    /// [`AllocError`] naming the size.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let err = AllocError { mb };
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(err)?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let layout = std::alloc::Layout::array::<Bucket>(n).map_err(|_| err)?;
        // SAFETY: `layout` has a non-zero size (n >= 1 buckets of 64 bytes). The pointer is
        // checked for null. An all-zero `Bucket` is valid (atomics of 0, as `Bucket::default`),
        // and a `Box<[Bucket]>` of `n` elements frees with exactly `Layout::array::<Bucket>(n)`,
        // the layout it was allocated with.
        let buckets = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Bucket>();
            if ptr.is_null() {
                return Err(err);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n))
        };
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            *b = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from earlier searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to load the bucket of `key` (issued right after making a move).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint with no memory effect; `p` points into our own table,
            // and SSE is part of the x86-64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in &b.slots {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores a search result for `key`. Replaces the same key (keeping its move when `mv` is 0
    /// and skipping shallower non-exact results), else the least valuable slot: oldest generation
    /// first, then smallest depth.
    #[inline]
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in b.slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if check ^ data == key {
                let old = decode(data);
                if bound != Bound::Exact && depth + 3 < old.depth && old_gen(data) == gen {
                    return;
                }
                let mv = if mv == 0 { old.mv } else { mv };
                write(slot, key, encode(mv, score, eval, depth, bound, gen));
                return;
            }
            let age = ((gen + 64 - old_gen(data)) & 63) as i32;
            let value = decode(data).depth - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        write(
            &b.slots[victim],
            key,
            encode(mv, score, eval, depth, bound, gen),
        );
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for slot in &b.slots {
                let data = slot[1].load(Ordering::Relaxed);
                if data != 0 && old_gen(data) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * WAYS).max(1)) as u32
    }
}

#[inline(always)]
fn write(slot: &[AtomicU64; 2], key: u64, data: u64) {
    slot[0].store(key ^ data, Ordering::Relaxed);
    slot[1].store(data, Ordering::Relaxed);
}

#[inline(always)]
fn old_gen(data: u64) -> u64 {
    data >> GEN_SHIFT
}

#[inline(always)]
fn encode(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, gen: u64) -> u64 {
    let depth = (depth.clamp(-100, 127) + 100) as u64; // 0..=227 fits a byte
    mv as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | depth << DEPTH_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | gen << GEN_SHIFT
}

#[inline(always)]
fn decode(data: u64) -> Entry {
    Entry {
        mv: data as u16,
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> DEPTH_SHIFT) & 0xff) as i32 - 100,
        bound: match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        for (i, key) in [1u64, 0xdead_beef_0000_0001, u64::MAX, 42]
            .into_iter()
            .enumerate()
        {
            let i = i as i32;
            tt.store(
                key,
                0x1234 + i as u16,
                -30_000 + i,
                250 - i,
                7 - 10 * i,
                Bound::Lower,
            );
            let e = tt.probe(key).expect("stored");
            assert_eq!(e.mv, 0x1234 + i as u16);
            assert_eq!(e.score, -30_000 + i);
            assert_eq!(e.eval, 250 - i);
            assert_eq!(e.depth, 7 - 10 * i);
            assert_eq!(e.bound, Bound::Lower);
        }
        assert!(tt.probe(7).is_none());
    }

    #[test]
    fn same_key_keeps_move_and_aging_replaces() {
        let tt = TranspositionTable::new(1);
        tt.store(99, 77, 10, 0, 5, Bound::Exact);
        tt.store(99, 0, 12, 0, 6, Bound::Upper);
        let e = tt.probe(99).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (77, 12, 6, Bound::Upper));
        assert!(tt.hashfull() > 0 || tt.buckets.len() > 250);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn impossible_sizes_are_refused_not_aborted() {
        // bytes overflow usize
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(AllocError { mb: usize::MAX })
        );
        // fits usize but no allocator gives 2^62 bytes (`black_box`: an optimised build may
        // otherwise drop an allocation nobody reads and report success)
        let mb = 1usize << 42;
        assert_eq!(
            std::hint::black_box(TranspositionTable::try_new(mb)).err(),
            Some(AllocError { mb })
        );
        let tt = TranspositionTable::try_new(3).expect("3 MiB");
        assert_eq!(tt.size_mb(), 3);
    }

    #[test]
    fn size_is_respected() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.size_mb(), 2);
        tt.store(5, 1, 1, 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(5).is_none());
    }
}
