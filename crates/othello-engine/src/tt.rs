//! Transposition table for the endgame search (Edax `hash.c`), shared by all threads.
//!
//! Buckets of [`WAYS`] entries; a board may sit in any entry of the bucket its hash selects.
//! Each entry keeps the full board (no false hits), lower/upper score bounds, the two best
//! moves, the draft (empties searched and selectivity) and a date. The bucket is prefetched
//! while the caller generates moves (the Edax-AVX notes, `hash_prefetch`: prefetching removed most LLC misses).
//!
//! An entry is three 64-bit words `player ^ data | opponent ^ data | data` (lock-free hashing
//! after Hyatt and Mann): a reader rebuilds the board from the words and rejects an entry torn
//! by a concurrent writer because it no longer matches. `data` packs, from bit 0:
//! `lower: i8 | upper: i8 | moves: [u8; 2] | depth: u8 | selectivity: u8 | date: u8 | cost: u8`.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};

/// Entries per bucket.
pub const WAYS: usize = 4;

/// Marker for "no move" in [`Entry::moves`].
pub const NO_MOVE: u8 = 64;

/// Selectivity of an exact (non-probabilistic) search: the highest selectivity index (the
/// midgame's levels count up from 0 = 73% to this = 100%, as Edax's do), so that one test,
/// `entry.selectivity >= wanted`, serves both the midgame and the exact solver, and the
/// replacement rule keeps an exact entry over a selective one of the same depth.
pub const EXACT: u8 = 5;

/// One stored search result (decoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Lower bound of the score.
    pub lower: i8,
    /// Upper bound of the score.
    pub upper: i8,
    /// Best move then second best ([`NO_MOVE`] if none).
    pub moves: [u8; 2],
    /// Empties (depth) the bounds were searched to.
    pub depth: u8,
    /// Selectivity level of the search ([`EXACT`] for exact solving).
    pub selectivity: u8,
    /// Search generation that last wrote the entry.
    pub date: u8,
    /// log2 of the nodes the search took: costly results are kept longer.
    pub cost: u8,
}

impl Entry {
    /// The packed data word.
    #[inline(always)]
    fn data(&self) -> u64 {
        u64::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.moves[0],
            self.moves[1],
            self.depth,
            self.selectivity,
            self.date,
            self.cost,
        ])
    }

    /// Decodes the three words of a slot.
    #[inline(always)]
    fn unpack(w: [u64; 3]) -> Entry {
        let d = w[2].to_le_bytes();
        Entry {
            player: w[0] ^ w[2],
            opponent: w[1] ^ w[2],
            lower: d[0] as i8,
            upper: d[1] as i8,
            moves: [d[2], d[3]],
            depth: d[4],
            selectivity: d[5],
            date: d[6],
            cost: d[7],
        }
    }

    /// Replacement priority: older, shallower, cheaper entries go first.
    #[inline(always)]
    fn priority(&self, date: u8) -> u32 {
        (u32::from(self.date == date) << 16) | (u32::from(self.depth) << 8) | u32::from(self.cost)
    }
}

/// What a probe finds for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Lower bound of the score.
    pub lower: i32,
    /// Upper bound of the score.
    pub upper: i32,
    /// Best moves ([`NO_MOVE`] when unknown).
    pub moves: [u8; 2],
    /// Draft of the stored bounds.
    pub depth: u8,
    /// Selectivity of the stored bounds.
    pub selectivity: u8,
}

/// One slot: `player ^ data`, `opponent ^ data`, `data`.
#[derive(Default)]
struct Slot([AtomicU64; 3]);

impl Slot {
    #[inline(always)]
    fn load(&self) -> Entry {
        Entry::unpack([
            self.0[0].load(Relaxed),
            self.0[1].load(Relaxed),
            self.0[2].load(Relaxed),
        ])
    }

    #[inline(always)]
    fn save(&self, e: &Entry) {
        let d = e.data();
        self.0[0].store(e.player ^ d, Relaxed);
        self.0[1].store(e.opponent ^ d, Relaxed);
        self.0[2].store(d, Relaxed);
    }

    #[inline(always)]
    fn clear(&self) {
        for w in &self.0 {
            w.store(0, Relaxed);
        }
    }
}

/// A bucket (96 bytes), aligned so it always spans exactly two cache lines.
#[derive(Default)]
#[repr(C, align(32))]
struct Bucket([Slot; WAYS]);

/// Asks Linux to back the (still untouched) table with 2 MiB pages: random probes into a large
/// table otherwise miss the TLB on nearly every access (measured: most of the NWS time).
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (addr + HUGE - 1) & !(HUGE - 1);
    let end = (addr + len) & !(HUGE - 1);
    if end > start {
        // SAFETY: madvise only changes how the kernel backs pages of this process; the range
        // lies inside the mapping owned by the caller and MADV_HUGEPAGE never changes
        // its contents. A failure (e.g. THP disabled) is harmless and ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// The largest table size, in MiB, that the fallible constructors
/// ([`Engine::try_new`](crate::Engine::try_new), [`Solver::try_new`](crate::Solver::try_new))
/// accept on any machine: 1 TiB. [`hash_limit_mib`] lowers it to the machine's memory.
pub const MAX_HASH_MIB: usize = 1 << 20;

/// The largest table size, in MiB, that the fallible constructors will try to allocate here:
/// [`MAX_HASH_MIB`], or the machine's physical memory where the system says and it is smaller.
/// A larger request is refused without asking the system, so the answer does not depend on
/// whether the kernel would have granted it (under memory overcommit it may, and the table
/// would then thrash or the process be killed when its pages are used).
pub fn hash_limit_mib() -> usize {
    physical_mib().map_or(MAX_HASH_MIB, |m| m.clamp(1, MAX_HASH_MIB))
}

/// The machine's physical memory in MiB, where the system says.
fn physical_mib() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads the system's configuration; both names exist on Linux.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let bytes = u128::try_from(pages).ok()? * u128::try_from(page).ok()?;
        if bytes > 0 {
            return Some(usize::try_from(bytes >> 20).unwrap_or(usize::MAX));
        }
    }
    None
}

/// A transposition table that could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The size is above [`hash_limit_mib`]: this machine's memory, or [`MAX_HASH_MIB`].
    #[error(
        "hash tables of {mib} MiB are more than the {max} MiB allowed here \
         (this machine's memory, at most {MAX_HASH_MIB} MiB)"
    )]
    TooLarge {
        /// The size asked for.
        mib: usize,
        /// The limit it broke ([`hash_limit_mib`] when it was asked).
        max: usize,
    },
    /// The system refused the memory.
    #[error("cannot allocate {mib} MiB of hash tables: the system refused {bytes} bytes")]
    OutOfMemory {
        /// The size asked for.
        mib: usize,
        /// The allocation that was refused, in bytes.
        bytes: usize,
    },
}

/// The transposition table (`Sync`: threads share it by reference).
///
/// The memory comes zeroed from the system and is not written at creation, so the kernel
/// supplies (and zeroes) each page only when a search first touches it. A table may use only
/// a prefix of its buckets (its *active* size, see [`set_active_mib`](Self::set_active_mib)):
/// a small problem then touches, and [`clear`](Self::clear) rewrites, only that prefix. On a
/// shared 2-core machine, the first touch of the 256 MiB default cost 0.36 s of kernel time,
/// more than the whole exact solve of FFO #40.
pub struct Tt {
    buckets: Buckets,
    /// `active buckets - 1` (a power of two minus one): the index mask of probes and stores.
    mask: AtomicU64,
    /// Buckets that may hold entries: the largest active size since the last clear.
    dirty: AtomicUsize,
    date: AtomicU8,
}

/// The buckets of a table: on Linux an anonymous mapping, which reads as zero and which the
/// kernel backs with memory page by page as it is first written (an allocation that the
/// allocator would zero itself, as Rust does for a 32-byte alignment, touches every page at
/// once); elsewhere an ordinary zeroed boxed slice.
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: `Buckets` owns its memory alone (as a `Box<[Bucket]>` would) and `Bucket` is made of
// atomics, which are `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access only ever goes through the atomics.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `n` zeroed buckets (`None` if the system refuses the memory).
    #[cfg(target_os = "linux")]
    fn zeroed(n: usize) -> Option<Buckets> {
        let bytes = n.checked_mul(std::mem::size_of::<Bucket>())?;
        // SAFETY: a fresh private anonymous mapping aliases nothing; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        advise_huge_pages(p as usize, bytes);
        // a mapping is page-aligned, more than `Bucket` needs
        let ptr = std::ptr::NonNull::new(p.cast::<Bucket>())?;
        Some(Buckets { ptr, len: n })
    }

    /// `n` zeroed buckets (`None` if the system refuses the memory).
    #[cfg(not(target_os = "linux"))]
    fn zeroed(n: usize) -> Option<Buckets> {
        let mut v: Vec<Bucket> = Vec::new();
        v.try_reserve_exact(n).ok()?;
        v.resize_with(n, Bucket::default);
        let b = Box::into_raw(v.into_boxed_slice());
        let ptr = std::ptr::NonNull::new(b.cast::<Bucket>())?;
        Some(Buckets { ptr, len: n })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `len` buckets owned by `self` and alive until it drops; zero bytes
        // are a valid `Bucket` (atomics only), so the memory is initialised from the start.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    #[cfg(target_os = "linux")]
    fn drop(&mut self) {
        // SAFETY: the mapping of exactly this size was made in `zeroed` and is unmapped once;
        // no reference into it outlives `self`. A failure would only leak the memory.
        unsafe {
            libc::munmap(
                self.ptr.as_ptr().cast(),
                self.len * std::mem::size_of::<Bucket>(),
            );
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn drop(&mut self) {
        // SAFETY: the pointer and length are those of the boxed slice made in `zeroed`, which
        // is rebuilt and freed once.
        drop(unsafe {
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ))
        });
    }
}

/// The number of buckets of a table of about `mib` MiB (a power of two, at least 1).
fn buckets_for(mib: usize) -> usize {
    let bytes = mib.max(1).saturating_mul(1 << 20);
    let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
    1usize << (usize::BITS - 1 - n.leading_zeros())
}

impl Tt {
    /// A table of about `mib` mebibytes (rounded down to a power of two of buckets, at least 1).
    ///
    /// # Panics
    /// If the memory cannot be allocated: only for the small fixed sizes used internally and
    /// in tests; sizes that come from a user go through [`try_new`](Self::try_new).
    pub fn new(mib: usize) -> Tt {
        match Tt::try_new(mib) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mib` mebibytes, or an error when the size is above [`hash_limit_mib`] or
    /// the system refuses the memory (nothing is aborted). All of it is active.
    pub fn try_new(mib: usize) -> Result<Tt, TableError> {
        Tt::try_with_active(mib, mib)
    }

    /// Like [`try_new`](Self::try_new), with only about `active_mib` MiB in use at first (see
    /// [`set_active_mib`](Self::set_active_mib)); the rest is not touched until it is needed.
    pub fn try_with_active(mib: usize, active_mib: usize) -> Result<Tt, TableError> {
        let max = hash_limit_mib();
        if mib > max {
            return Err(TableError::TooLarge { mib, max });
        }
        let n = buckets_for(mib);
        let buckets = Buckets::zeroed(n).ok_or(TableError::OutOfMemory {
            mib,
            bytes: n * std::mem::size_of::<Bucket>(),
        })?;
        let active = buckets_for(active_mib).min(n);
        Ok(Tt {
            buckets,
            mask: AtomicU64::new(active as u64 - 1),
            dirty: AtomicUsize::new(active),
            date: AtomicU8::new(1),
        })
    }

    /// Uses only about the first `mib` MiB of the table from now on (at most all of it; a
    /// power of two of buckets). Call it only while no search runs. Entries stored under
    /// another size are simply not found again (a probe never gives a false hit).
    pub fn set_active_mib(&self, mib: usize) {
        let active = buckets_for(mib).min(self.buckets.len());
        self.mask.store(active as u64 - 1, Relaxed);
        self.dirty.fetch_max(active, Relaxed);
    }

    /// The size in use, in buckets.
    pub fn active_buckets(&self) -> usize {
        self.mask.load(Relaxed) as usize + 1
    }

    /// Starts a new search generation: entries from older ones are replaced first.
    pub fn new_search(&self) {
        let d = self.date.load(Relaxed).wrapping_add(1).max(1);
        self.date.store(d, Relaxed);
    }

    /// Empties the table.
    ///
    /// Only the buckets that may have been written since the last clear are rewritten; the
    /// rest is still as the system gave it, zero (and possibly not yet in memory).
    pub fn clear(&self) {
        let dirty = self.dirty.load(Relaxed).min(self.buckets.len());
        for b in &self.buckets[..dirty] {
            for s in &b.0 {
                s.clear();
            }
        }
        self.dirty.store(self.active_buckets(), Relaxed);
        self.date.store(1, Relaxed);
    }

    #[inline(always)]
    fn index(&self, hash: u64) -> usize {
        (hash & self.mask.load(Relaxed)) as usize
    }

    /// Hints the CPU to load the bucket of `hash` into cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.buckets[self.index(hash)] as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint that never faults; `p` and `p + 64` lie within the
            // 96-byte bucket, and SSE is part of the x86-64 baseline.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Looks `player`/`opponent` up in the bucket of `hash`.
    #[inline(always)]
    pub fn probe(&self, hash: u64, player: u64, opponent: u64) -> Option<Probe> {
        let bucket = &self.buckets[self.index(hash)];
        bucket
            .0
            .iter()
            .map(Slot::load)
            .find(|e| e.player == player && e.opponent == opponent)
            .map(|e| Probe {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                moves: e.moves,
                depth: e.depth,
                selectivity: e.selectivity,
            })
    }

    /// Stores the result of a search of `depth` empties with window `(alpha, beta)` that
    /// returned `score` with best move `best`: a fail-high gives a lower bound, a fail-low an
    /// upper bound, anything in between an exact score. Same-draft bounds are merged; a
    /// deeper draft replaces a shallower one; otherwise the least valuable slot is replaced.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &self,
        hash: u64,
        player: u64,
        opponent: u64,
        depth: u8,
        selectivity: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
        nodes: u64,
    ) {
        let date = self.date.load(Relaxed);
        let cost = (64 - nodes.leading_zeros()) as u8;
        let (lower, upper) = if score >= beta {
            (score, 64)
        } else if score <= alpha {
            (-64, score)
        } else {
            (score, score)
        };
        let bucket = &self.buckets[self.index(hash)].0;
        let mut victim = 0;
        let mut victim_priority = u32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let mut e = slot.load();
            if e.player == player && e.opponent == opponent {
                if depth > e.depth || selectivity > e.selectivity {
                    e.lower = lower as i8;
                    e.upper = upper as i8;
                } else if depth == e.depth && selectivity == e.selectivity {
                    e.lower = e.lower.max(lower as i8);
                    e.upper = e.upper.min(upper as i8);
                    if e.lower > e.upper {
                        // inconsistent bounds only come from search instability: keep the newest
                        e.lower = lower as i8;
                        e.upper = upper as i8;
                    }
                } else {
                    return;
                }
                e.depth = depth;
                e.selectivity = selectivity;
                e.date = date;
                e.cost = e.cost.max(cost);
                if best != NO_MOVE && best != e.moves[0] {
                    e.moves = [best, e.moves[0]];
                }
                slot.save(&e);
                return;
            }
            let pr = e.priority(date);
            if pr < victim_priority {
                victim = i;
                victim_priority = pr;
            }
        }
        bucket[victim].save(&Entry {
            player,
            opponent,
            lower: lower as i8,
            upper: upper as i8,
            moves: [best, NO_MOVE],
            depth,
            selectivity,
            date,
            cost,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_that_cannot_be_allocated_are_refused() {
        let max = hash_limit_mib();
        assert!((1..=MAX_HASH_MIB).contains(&max), "{max}");
        for mib in [max + 1, MAX_HASH_MIB + 1, usize::MAX] {
            assert_eq!(
                Tt::try_new(mib).err(),
                Some(TableError::TooLarge { mib, max }),
                "{mib}"
            );
        }
        assert!(Tt::try_new(1).is_ok());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_limit_is_the_machines_memory() {
        // /proc/meminfo's MemTotal is the memory the kernel manages, a little below the
        // physical pages sysconf counts (the kernel's own image and reserved ranges)
        let meminfo = std::fs::read_to_string("/proc/meminfo").expect("Linux has /proc/meminfo");
        let kib: usize = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("MemTotal");
        let physical = physical_mib().expect("sysconf gives the physical memory on Linux");
        assert!(kib >> 10 <= physical && physical <= (kib >> 10) * 11 / 10 + 64);
        assert_eq!(hash_limit_mib(), physical.min(MAX_HASH_MIB));
    }

    #[test]
    fn bucket_is_96_bytes() {
        assert_eq!(std::mem::size_of::<Bucket>(), 96);
    }

    #[test]
    fn pack_unpack_round_trips() {
        let e = Entry {
            player: 0x1234,
            opponent: 0x8000_0000_0000_0001,
            lower: -64,
            upper: 38,
            moves: [12, NO_MOVE],
            depth: 30,
            selectivity: 5,
            date: 200,
            cost: 40,
        };
        let d = e.data();
        assert_eq!(Entry::unpack([e.player ^ d, e.opponent ^ d, d]), e);
    }

    #[test]
    fn concurrent_writers_never_produce_a_false_hit() {
        let tt = Tt::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let (p, o) = (i * 4 + t + 1, (i * 4 + t) << 20);
                        let score = (p % 60) as i32 - 30;
                        tt.store(i & 7, p, o, 20, EXACT, -65, 65, score, 1, 1);
                        if let Some(e) = tt.probe(i & 7, p, o) {
                            assert_eq!(e.lower, score);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = Tt::new(1);
        tt.store(12345, 1, 2, 20, EXACT, -3, -1, -2, 19, 1000);
        let p = tt.probe(12345, 1, 2).expect("stored");
        assert_eq!((p.lower, p.upper, p.moves[0], p.depth), (-2, -2, 19, 20));
        // fail high merges into a lower bound
        tt.store(99, 5, 6, 10, EXACT, 3, 4, 8, 7, 10);
        tt.store(99, 5, 6, 10, EXACT, 9, 10, 9, 8, 10);
        let p = tt.probe(99, 5, 6).expect("stored");
        assert_eq!((p.lower, p.upper, p.moves), (8, 9, [8, 7]));
        // another board in the same bucket does not alias
        assert_eq!(tt.probe(99, 5, 7), None);
    }

    #[test]
    fn clear_forgets_entries_of_a_larger_active_size() {
        let tt = Tt::try_with_active(4, 1).expect("small table");
        assert_eq!(tt.active_buckets(), buckets_for(1));
        tt.set_active_mib(4);
        let h = buckets_for(4) as u64 - 1; // the last bucket: outside the 1 MiB prefix
        tt.store(h, 1, 2, 20, EXACT, -3, -1, -2, 19, 1000);
        assert!(tt.probe(h, 1, 2).is_some());
        tt.set_active_mib(1);
        assert!(
            tt.probe(h, 1, 2).is_none(),
            "another bucket under the smaller mask"
        );
        tt.clear();
        tt.set_active_mib(4);
        assert!(
            tt.probe(h, 1, 2).is_none(),
            "cleared although no longer active"
        );
        assert_eq!(tt.active_buckets(), buckets_for(4));
        tt.set_active_mib(1 << 10);
        assert_eq!(
            tt.active_buckets(),
            buckets_for(4),
            "never above the capacity"
        );
    }

    #[test]
    fn full_bucket_replaces_least_valuable() {
        let tt = Tt::new(1);
        let h = 7;
        for i in 0..WAYS as u64 {
            tt.store(h, i + 1, 0, 10 + i as u8, EXACT, 0, 1, 0, 0, 100);
        }
        tt.store(h, 100, 0, 30, EXACT, 0, 1, 0, 0, 100);
        assert!(
            tt.probe(h, 1, 0).is_none(),
            "the shallowest entry is replaced"
        );
        assert!(tt.probe(h, 100, 0).is_some());
        assert!(tt.probe(h, 4, 0).is_some());
    }
}
