//! Evaluation weights: the packed per-stage model (what is trained and stored) and the unpacked
//! per-ply runtime tables (what is looked up), with the seed's table merging and the gathered
//! evaluation (the Edax-AVX notes, 4.4.7 / 4.5.0).

use super::features::Features;
use super::pattern::{
    self, EDAX_PACKED_LEN, EDAX_TABLE_LEN, KINDS, LANE_BASE, N_EDAX_FEATURES, N_EDAX_KINDS,
    N_FEATURES, N_KINDS, N_LANES, PACKED_BIAS, PACKED_LEN, TABLE_LEN, ZERO_GUARD,
};
use super::Eval;
use crate::kernel::{with_kernel, Cpu};

/// Number of plies of a game (0..=60 empties).
pub const N_PLIES: usize = 61;

/// Weights in the packed symmetry-class layout (Edax's kinds as in `eval.dat`, the extra kinds,
/// the bias), in 1/128 disc from the mover's view: one table of [`PACKED_LEN`] entries per stage
/// and the stage used at each number of empties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedWeights {
    /// Tables of the stages, each [`PACKED_LEN`] long.
    pub stages: Vec<Vec<i16>>,
    /// Stage used with `n` empties, indexed by `n` (0..=60).
    pub stage_of_empties: [u8; N_PLIES],
}

impl PackedWeights {
    /// All-zero weights with one stage per number of empties.
    pub fn zero_per_ply() -> PackedWeights {
        let mut stage_of_empties = [0u8; N_PLIES];
        for (e, s) in stage_of_empties.iter_mut().enumerate() {
            *s = e as u8;
        }
        PackedWeights {
            stages: vec![vec![0; PACKED_LEN]; N_PLIES],
            stage_of_empties,
        }
    }

    /// Checks the shape: every table [`PACKED_LEN`] long and every stage index valid.
    pub fn is_well_formed(&self) -> bool {
        !self.stages.is_empty()
            && self.stages.iter().all(|s| s.len() == PACKED_LEN)
            && self
                .stage_of_empties
                .iter()
                .all(|&s| (s as usize) < self.stages.len())
    }

    /// Whether any weight of the extra kinds is non-zero (otherwise the weights are Edax's
    /// kind, storable in `eval.dat` and evaluated on Edax's features alone).
    pub fn has_extra(&self) -> bool {
        let extra = KINDS[N_EDAX_KINDS].packed_offset as usize..PACKED_BIAS;
        self.stages
            .iter()
            .any(|s| s[extra.clone()].iter().any(|&v| v != 0))
    }

    /// Mover-view evaluation straight from the packed tables (slow reference, 1/128 disc).
    pub fn evaluate_reference(&self, player: u64, opponent: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones() as usize;
        let table = &self.stages[self.stage_of_empties[source_empties(empties)] as usize];
        let idx = pattern::packed_indices(&pattern::compute(player, opponent));
        idx.iter()
            .map(|&i| i32::from(table[i as usize]))
            .sum::<i32>()
            + i32::from(table[PACKED_BIAS])
    }
}

/// A stage in `eval.dat`'s layout ([`EDAX_PACKED_LEN`]: Edax's kinds, the bias) expanded to the
/// full layout with zero extra kinds. `None` if the length is not Edax's.
pub fn from_edax_layout(stage: &[i16]) -> Option<Vec<i16>> {
    if stage.len() != EDAX_PACKED_LEN {
        return None;
    }
    let mut out = vec![0i16; PACKED_LEN];
    out[..EDAX_PACKED_LEN - 1].copy_from_slice(&stage[..EDAX_PACKED_LEN - 1]);
    out[PACKED_BIAS] = stage[EDAX_PACKED_LEN - 1];
    Some(out)
}

/// The `eval.dat` part of a full stage: Edax's kinds and the bias (the extra kinds dropped).
pub fn to_edax_layout(stage: &[i16]) -> Vec<i16> {
    let mut out = stage[..EDAX_PACKED_LEN - 1].to_vec();
    out.push(stage[PACKED_BIAS]);
    out
}

/// Number of empties whose table a position with `empties` empties uses (the Edax-AVX notes'
/// merging:
/// 60/59 empties reuse 58/57, 10 and fewer reuse 12/11; the parity is kept).
pub const fn source_empties(empties: usize) -> usize {
    if empties >= 59 {
        empties - 2
    } else if empties <= 10 {
        12 - empties % 2
    } else {
        empties
    }
}

/// Runtime tables: per distinct (stage, parity) pair one unpacked table (bias first, then each
/// kind's `3^len` entries, with zero guards), already digit-swapped for odd numbers of empties
/// so that [`Features`] index them directly. Weights without extra kinds get Edax-sized tables
/// ([`EDAX_TABLE_LEN`]) and are evaluated on Edax's 46 features; others get [`TABLE_LEN`].
#[derive(Clone, Debug)]
pub struct Weights {
    data: Vec<i16>,
    table_of_empties: [u16; N_PLIES],
    /// Full or Edax-sized tables.
    layout: &'static Layout,
}

/// Where each lane reads in a runtime table: its base and largest value. The largest value is
/// enforced before the lookup so that no index can leave the table whatever the lanes hold;
/// lanes that are not evaluated read a zero guard.
#[repr(C, align(32))]
#[derive(Debug)]
struct Lanes {
    max: [u16; N_LANES],
    /// Base minus one: the gather reads a 32-bit word whose high half is the wanted entry.
    gather_base: [i32; N_LANES],
    base: [u32; N_LANES],
}

const fn lanes(features: usize) -> Lanes {
    let mut l = Lanes {
        max: [0; N_LANES],
        gather_base: [ZERO_GUARD as i32 - 1; N_LANES],
        base: [ZERO_GUARD as u32; N_LANES],
    };
    let mut i = 0;
    while i < features {
        l.max[i] = (pattern::pow3(pattern::FEATURES[i].len as u32) - 1) as u16;
        l.base[i] = LANE_BASE[i];
        l.gather_base[i] = LANE_BASE[i] as i32 - 1;
        i += 1;
    }
    // the view flag (0 or 1) reads one of the two zero guards
    l.max[pattern::VIEW_LANE] = 1;
    l
}

/// A runtime table layout: its length, the kinds unpacked into it and the lanes evaluated.
#[derive(Debug)]
struct Layout {
    lanes: Lanes,
    table_len: usize,
    kinds: usize,
    features: usize,
}

/// Full tables: all 16 kinds, all 62 features.
static FULL: Layout = Layout {
    lanes: lanes(N_FEATURES),
    table_len: TABLE_LEN,
    kinds: N_KINDS,
    features: N_FEATURES,
};
/// Edax-sized tables: Edax's 12 kinds and 46 features, the other lanes read a zero guard.
static EDAX: Layout = Layout {
    lanes: lanes(N_EDAX_FEATURES),
    table_len: EDAX_TABLE_LEN,
    kinds: N_EDAX_KINDS,
    features: N_EDAX_FEATURES,
};

impl Weights {
    /// Unpacks packed weights into runtime tables, merging plies as the seed does.
    ///
    /// # Panics
    /// If `packed` is not well formed (see [`PackedWeights::is_well_formed`]); the readers
    /// only return well-formed weights.
    pub fn new(packed: &PackedWeights) -> Weights {
        Weights::with_layout(packed, packed.has_extra())
    }

    /// [`Weights::new`] with full tables (`full`) or Edax-sized ones (the extra kinds ignored).
    pub(crate) fn with_layout(packed: &PackedWeights, full: bool) -> Weights {
        assert!(packed.is_well_formed(), "malformed packed weights");
        let layout = if full { &FULL } else { &EDAX };
        let table_len = layout.table_len;
        let mut keys: Vec<(u8, usize)> = Vec::new();
        let mut table_of_empties = [0u16; N_PLIES];
        for (e, t) in table_of_empties.iter_mut().enumerate() {
            let src = source_empties(e);
            let key = (packed.stage_of_empties[src], src % 2);
            let pos = keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                keys.push(key);
                keys.len() - 1
            });
            *t = pos as u16;
        }
        let mut data = vec![0i16; keys.len() * table_len];
        for (t, &(stage, parity)) in keys.iter().enumerate() {
            unpack(
                &packed.stages[stage as usize],
                parity == 1,
                layout.kinds,
                &mut data[t * table_len..(t + 1) * table_len],
            );
        }
        Weights {
            data,
            table_of_empties,
            layout,
        }
    }

    /// Whether the extra kinds are evaluated (the weights have some).
    pub fn has_extra(&self) -> bool {
        self.layout.kinds == N_KINDS
    }

    /// Number of distinct runtime tables after merging.
    pub fn n_tables(&self) -> usize {
        self.data.len() / self.layout.table_len
    }

    /// The runtime table used with `n_empties` empties.
    #[inline]
    fn table(&self, n_empties: usize) -> &[i16] {
        let t = self.table_of_empties[n_empties.min(N_PLIES - 1)] as usize;
        let len = self.layout.table_len;
        &self.data[t * len..(t + 1) * len]
    }

    /// Evaluation of the side to move in 1/128 disc: AVX2 gathers when [`Cpu::detect`] finds
    /// AVX2, else scalar. For callers outside a search: the search copies call their kernel's
    /// evaluation directly, with no dispatch.
    pub fn evaluate(&self, f: &Features, n_empties: usize) -> i32 {
        with_kernel!(Cpu::detect(), |k| k.evaluate(self, f, n_empties))
    }

    /// Scalar evaluation: one table lookup per evaluated feature (46 or 62) plus the bias.
    pub fn evaluate_scalar(&self, f: &Features, n_empties: usize) -> i32 {
        let w = self.table(n_empties);
        let l = &self.layout.lanes;
        let lanes = f.lanes();
        let mut sum = i32::from(w[0]);
        for i in 0..self.layout.features {
            let v = lanes[i].min(l.max[i]);
            sum += i32::from(w[l.base[i] as usize + v as usize]);
        }
        sum
    }

    /// Gathered evaluation (Edax `eval_sse.c`; the Edax-AVX notes, 4.5.0
    /// `vpgatherdd`): 8-lane gathers of 32-bit words whose
    /// high halves are the wanted entries (six for Edax-sized tables, eight for full ones),
    /// then a horizontal sum.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn evaluate_avx2(&self, f: &Features, n_empties: usize) -> i32 {
        let w = self.table(n_empties);
        // SAFETY: AVX2 is the caller's promise; the lane tables match the table's size.
        unsafe {
            if self.has_extra() {
                gather_sum::<4>(w, f, &FULL.lanes)
            } else {
                gather_sum::<3>(w, f, &EDAX.lanes)
            }
        }
    }

    /// Evaluation of a board from scratch (side to move = `player`), in 1/128 disc.
    pub fn evaluate_board(&self, player: u64, opponent: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones() as usize;
        self.evaluate(&Features::new(player, opponent), empties)
    }
}

/// Sum of the bias and the entries of table `w` that the first `8 * R` lanes of `f` select
/// through `l` (two 8-lane gathers per 256-bit register of lanes).
///
/// # Safety
/// The CPU must support AVX2, `R <= 4`, and `l` must be the lanes of `w`'s layout
/// ([`FULL`] for [`TABLE_LEN`], [`EDAX`] for [`EDAX_TABLE_LEN`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn gather_sum<const R: usize>(w: &[i16], f: &Features, l: &Lanes) -> i32 {
    use std::arch::x86_64::*;
    debug_assert!(R <= 4 && w.len() == if R == 4 { TABLE_LEN } else { EDAX_TABLE_LEN });
    let mut sum = _mm256_setzero_si256();
    let lanes = f.lanes().as_ptr() as *const __m256i;
    let maxes = l.max.as_ptr() as *const __m256i;
    let bases = l.gather_base.as_ptr() as *const __m256i;
    let base_ptr = w.as_ptr() as *const i32;
    for r in 0..R {
        // SAFETY: lanes, maxes and bases are 32-byte aligned arrays of 64 u16 / 64 i32
        // (`Features` and `Lanes` are `align(32)`, `max` and `gather_base` start at offsets 0
        // and 128), so r < R <= 4 and 2 * r + 1 < 8 stay in bounds. Each clamped lane v
        // satisfies 0 <= base - 1 + v and base + v < the table's length (evaluated lanes index
        // their kind's table, which the table holds; the others read a zero guard that both
        // table sizes hold), so the 4-byte word read at short index base - 1 + v lies inside
        // the table.
        unsafe {
            let v = _mm256_min_epu16(
                _mm256_load_si256(lanes.add(r)),
                _mm256_load_si256(maxes.add(r)),
            );
            let lo = _mm256_add_epi32(
                _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)),
                _mm256_load_si256(bases.add(2 * r)),
            );
            let hi = _mm256_add_epi32(
                _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)),
                _mm256_load_si256(bases.add(2 * r + 1)),
            );
            let d0 = _mm256_i32gather_epi32::<2>(base_ptr, lo);
            let d1 = _mm256_i32gather_epi32::<2>(base_ptr, hi);
            sum = _mm256_add_epi32(sum, _mm256_srai_epi32(d0, 16));
            sum = _mm256_add_epi32(sum, _mm256_srai_epi32(d1, 16));
        }
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256(sum, 1),
    );
    let s = _mm_hadd_epi32(s, s);
    let s = _mm_hadd_epi32(s, s);
    _mm_cvtsi128_si32(s) + i32::from(w[0])
}

/// Rounds a 1/128-disc evaluation to discs, clamped to -63..=63 as Edax does.
pub fn to_discs(score: i32) -> i32 {
    let s = if score >= 0 {
        (score + 64) / 128
    } else {
        (score - 64) / 128
    };
    s.clamp(-63, 63)
}

/// Fills one runtime table with the first `kinds` kinds of a packed stage; `swapped` for odd
/// numbers of empties, whose features have digit 0 = the side not to move.
fn unpack(packed: &[i16], swapped: bool, kinds: usize, out: &mut [i16]) {
    out.fill(0);
    out[0] = packed[PACKED_BIAS];
    for (k, kind) in KINDS.iter().enumerate().take(kinds) {
        let classes = pattern::class_of_kind(k);
        let len = u32::from(kind.len);
        let size = pattern::pow3(len) as usize;
        let dst = &mut out[kind.table_offset as usize..kind.table_offset as usize + size];
        let src =
            &packed[kind.packed_offset as usize..(kind.packed_offset + kind.classes) as usize];
        for (idx, d) in dst.iter_mut().enumerate() {
            let i = if swapped {
                pattern::swap_digits(idx as u32, len) as usize
            } else {
                idx
            };
            *d = src[classes[i] as usize];
        }
    }
    debug_assert_eq!(out[ZERO_GUARD], 0);
    debug_assert_eq!(out[out.len() - 1], 0);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::features::tests::random_games;
    use crate::eval::pattern::tests::symmetries;
    use crate::kernel::Portable;
    use ply_testkit::XorShift64;

    /// Random packed weights (deterministic), one stage per two plies.
    pub(crate) fn random_packed(seed: u64) -> PackedWeights {
        let mut rng = XorShift64::new(seed | 1);
        let n_stages = 31;
        let stages = (0..n_stages)
            .map(|_| {
                (0..PACKED_LEN)
                    .map(|_| ((rng.next() >> 20) % 2001) as i16 - 1000)
                    .collect()
            })
            .collect();
        let mut stage_of_empties = [0u8; N_PLIES];
        for (e, s) in stage_of_empties.iter_mut().enumerate() {
            *s = (e / 2) as u8;
        }
        PackedWeights {
            stages,
            stage_of_empties,
        }
    }

    fn transform(b: u64, s: fn(u8) -> u8) -> u64 {
        (0..64)
            .filter(|&x| b >> x & 1 != 0)
            .fold(0, |acc, x| acc | 1u64 << s(x as u8))
    }

    /// Every evaluation path agrees with the packed reference and with the board's symmetries;
    /// `edax_too`: the Edax-sized layout gives the same scores as the full one.
    fn check_paths(packed: &PackedWeights, edax_too: bool) {
        let w = Weights::new(packed);
        assert_eq!(w.has_extra(), packed.has_extra());
        assert_eq!(w.n_tables(), 48);
        let full = Weights::with_layout(packed, true);
        let mut n = 0;
        random_games(60, 12345, |p, o, f| {
            let e = (!(p | o)).count_ones() as usize;
            let s = Portable.evaluate(&w, f, e);
            assert_eq!(s, w.evaluate(f, e), "dispatch vs scalar");
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = crate::kernel::Avx2::detect() {
                assert_eq!(s, k.evaluate(&w, f, e), "gather vs scalar");
                assert_eq!(s, k.evaluate(&full, f, e), "full gather");
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = crate::kernel::Avx512::detect() {
                assert_eq!(s, k.evaluate(&w, f, e), "AVX-512 copy vs scalar");
            }
            if edax_too {
                assert_eq!(s, Portable.evaluate(&full, f, e), "Edax-sized vs full");
            }
            assert_eq!(
                s,
                packed.evaluate_reference(p, o),
                "runtime vs packed reference"
            );
            for sym in symmetries() {
                assert_eq!(
                    s,
                    w.evaluate_board(transform(p, sym), transform(o, sym)),
                    "symmetry"
                );
            }
            n += 1;
        });
        assert!(n > 1000);
    }

    #[test]
    fn scalar_gather_reference_and_symmetry_agree() {
        // all 62 features weighted
        let packed = random_packed(7);
        assert!(packed.has_extra());
        check_paths(&packed, false);
        // Edax's features only: Edax-sized tables, same scores as the full layout
        let mut edax = packed.clone();
        for stage in &mut edax.stages {
            *stage = from_edax_layout(&to_edax_layout(stage)).unwrap();
        }
        assert!(!edax.has_extra());
        check_paths(&edax, true);
    }

    #[test]
    fn merged_plies_share_tables() {
        let w = Weights::new(&PackedWeights::zero_per_ply());
        assert_eq!(w.table_of_empties[60], w.table_of_empties[58]);
        assert_eq!(w.table_of_empties[59], w.table_of_empties[57]);
        assert_eq!(w.table_of_empties[0], w.table_of_empties[12]);
        assert_eq!(w.table_of_empties[9], w.table_of_empties[11]);
        assert_ne!(w.table_of_empties[12], w.table_of_empties[11]);
        assert_eq!(w.n_tables(), 48);
    }

    #[test]
    fn rounding_to_discs() {
        assert_eq!(to_discs(0), 0);
        assert_eq!(to_discs(63), 0);
        assert_eq!(to_discs(64), 1);
        assert_eq!(to_discs(-64), -1);
        assert_eq!(to_discs(-200), -2);
        assert_eq!(to_discs(100_000), 63);
    }
}
