//! The two hot loops of the network, once per CPU level: adding and subtracting weight rows to an
//! accumulator, and the SCReLU dot product of the output. [`Kernel`] is the choice, made once per
//! process like `ply_chess::Pext::detect` (the CPU is asked at the first call, the answer cached);
//! the search stores the token and passes it down, so no call asks the CPU again.
//!
//! Both levels compute in wrapping `i16` (accumulators), exact `i32` terms `(v * v * w) >> 8` and a
//! wrapping `i32` sum, so the order of the additions does not change a bit: the AVX2 and AVX-512
//! kernels equal the portable one for every network and position (tested in `accumulator.rs`).

#[cfg(target_arch = "x86_64")]
use super::feature::FEATURES;
use super::network::output_term;
#[cfg(target_arch = "x86_64")]
use super::network::QA;
use std::sync::atomic::{AtomicU8, Ordering};

/// The CPU level of the network's loops. Only [`Kernel::detect`], [`Kernel::portable`],
/// [`Kernel::avx2`] and [`Kernel::avx512`] make one, each after asking the CPU, so holding the
/// AVX2 or AVX-512 level proves the CPU has its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Level);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// [`Kernel::detect`]'s cached answer: 0 = not asked yet, 1 = portable, 2 = AVX2, 3 = AVX-512.
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl Kernel {
    /// The best level of this CPU (AVX-512 when present, else AVX2, else portable), asked once
    /// per process.
    pub fn detect() -> Kernel {
        match DETECTED.load(Ordering::Relaxed) {
            1 => Kernel(Level::Portable),
            #[cfg(target_arch = "x86_64")]
            2 => Kernel(Level::Avx2),
            #[cfg(target_arch = "x86_64")]
            3 => Kernel(Level::Avx512),
            _ => {
                let k = Kernel::probe();
                let code = match k.0 {
                    Level::Portable => 1,
                    #[cfg(target_arch = "x86_64")]
                    Level::Avx2 => 2,
                    #[cfg(target_arch = "x86_64")]
                    Level::Avx512 => 3,
                };
                DETECTED.store(code, Ordering::Relaxed);
                k
            }
        }
    }

    /// Whether the CPU has AVX2 (asked each time: for [`Kernel::probe`] and the tests).
    #[cfg(target_arch = "x86_64")]
    fn has_avx2() -> bool {
        std::is_x86_feature_detected!("avx2")
    }

    /// Whether the CPU has the AVX-512 the 512-bit kernel uses: F (32-bit lanes) and BW (16-bit).
    #[cfg(target_arch = "x86_64")]
    fn has_avx512() -> bool {
        Kernel::has_avx2()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
    }

    /// Asks the CPU (no cache).
    #[cold]
    fn probe() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if Kernel::has_avx512() {
            return Kernel(Level::Avx512);
        }
        #[cfg(target_arch = "x86_64")]
        if Kernel::has_avx2() {
            return Kernel(Level::Avx2);
        }
        Kernel::portable()
    }

    /// From now on [`Kernel::detect`] answers the portable level whatever the CPU: for measuring
    /// the portable path on a CPU with AVX2 (`ply-chess bench --portable`). Call it before the
    /// first search.
    pub fn force_portable() {
        DETECTED.store(1, Ordering::Relaxed);
    }

    /// The portable level (any CPU): the reference for the others.
    pub fn portable() -> Kernel {
        Kernel(Level::Portable)
    }

    /// The AVX2 level if this CPU has AVX2 (whatever [`Kernel::detect`] chose).
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if Kernel::has_avx2() {
            return Some(Kernel(Level::Avx2));
        }
        None
    }

    /// The AVX-512 level if this CPU has AVX-512 F and BW.
    pub fn avx512() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if Kernel::has_avx512() {
            return Some(Kernel(Level::Avx512));
        }
        None
    }

    /// `"avx512"`, `"avx2"` or `"portable"`, for reports.
    pub fn name(self) -> &'static str {
        match self.0 {
            Level::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => "avx512",
        }
    }

    /// `dst = src + rows(add) - rows(sub)`, where `rows(f)` is input `f`'s `H` weights in the
    /// `[768][H]` matrix `weights`. Wrapping `i16` arithmetic. A refresh is `src` = the bias and
    /// every piece's input in `add`.
    #[inline]
    pub(crate) fn update(
        self,
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        #[cfg(target_arch = "x86_64")]
        let h = dst.len();
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            Level::Avx2
                if h.is_multiple_of(16)
                    && src.len() == h
                    && weights.len() == FEATURES * h
                    && add.iter().chain(sub).all(|&f| f < FEATURES) =>
            {
                // SAFETY: the token exists only when `is_x86_feature_detected!("avx2")` said yes;
                // the guard above checked the slice lengths and every row index, which is all
                // `avx2::update` reads and writes.
                unsafe { avx2::update(dst, src, weights, add, sub) }
            }
            #[cfg(target_arch = "x86_64")]
            Level::Avx512
                if h.is_multiple_of(32)
                    && src.len() == h
                    && weights.len() == FEATURES * h
                    && add.iter().chain(sub).all(|&f| f < FEATURES) =>
            {
                // SAFETY: the token exists only when AVX-512 F and BW were detected; the guard
                // checked the lengths and row indices `avx512::update` relies on.
                unsafe { avx512::update(dst, src, weights, add, sub) }
            }
            _ => portable::update(dst, src, weights, add, sub),
        }
    }

    /// The SCReLU dot product `sum (clamp(a, 0, QA)^2 * w) >> OUTPUT_SHIFT` over the side to
    /// move's accumulator with `weights[..H]` and the opponent's with `weights[H..]` (each term
    /// exact, the sum wrapping `i32`).
    #[inline]
    pub(crate) fn output(self, stm: &[i16], opp: &[i16], weights: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        let h = stm.len();
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 if h.is_multiple_of(16) && opp.len() == h && weights.len() == 2 * h => {
                // SAFETY: AVX2 is present (the token), and the guard checked the three lengths
                // `avx2::output` relies on.
                unsafe { avx2::output(stm, opp, weights) }
            }
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 if h.is_multiple_of(32) && opp.len() == h && weights.len() == 2 * h => {
                // SAFETY: AVX-512 F and BW are present (the token), and the guard checked the
                // three lengths `avx512::output` relies on.
                unsafe { avx512::output(stm, opp, weights) }
            }
            _ => portable::output(stm, opp, weights),
        }
    }
}

/// Plain Rust loops (which the compiler vectorises as far as the target allows). In WebAssembly
/// built with `simd128` (the static site's module for browsers that have it) they become 128-bit
/// loops: 2.0 times the rate of a build without it in the browser, and a hand-written SIMD128
/// kernel measured no faster (1.76 against 1.71 M nodes/s on the bench, within the noise).
mod portable {
    use super::*;

    pub(super) fn update(
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        let h = dst.len();
        dst.copy_from_slice(&src[..h]);
        for &f in add {
            if let Some(row) = weights.get(f * h..(f + 1) * h) {
                for (d, &w) in dst.iter_mut().zip(row) {
                    *d = d.wrapping_add(w);
                }
            }
        }
        for &f in sub {
            if let Some(row) = weights.get(f * h..(f + 1) * h) {
                for (d, &w) in dst.iter_mut().zip(row) {
                    *d = d.wrapping_sub(w);
                }
            }
        }
    }

    pub(super) fn output(stm: &[i16], opp: &[i16], weights: &[i16]) -> i32 {
        let h = stm.len();
        let mut s: i32 = 0;
        for (acc, w) in [(stm, &weights[..h]), (opp, &weights[h..])] {
            for (&a, &w) in acc.iter().zip(w) {
                s = s.wrapping_add(output_term(a, w));
            }
        }
        s
    }
}

/// 16 lanes of `i16` per 256-bit register.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::network::OUTPUT_SHIFT;
    use super::QA;
    use core::arch::x86_64::*;

    /// [`super::portable::update`] 16 units at a time: each register of `src` takes all of its
    /// rows before it is stored.
    ///
    /// # Safety
    /// AVX2 must be present; `src.len() == dst.len()`, a multiple of 16, and every index in
    /// `add` and `sub` must be a row of `weights` (`(f + 1) * dst.len() <= weights.len()`).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        let h = dst.len();
        let w = weights.as_ptr();
        let mut i = 0;
        while i < h {
            // SAFETY: `i + 16 <= h` and every row `f` has `h` weights from `f * h` (the caller's
            // promise), so each unaligned 32-byte load and store stays inside its slice.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
                for &f in add {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(w.add(f * h + i).cast()));
                }
                for &f in sub {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(w.add(f * h + i).cast()));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
            }
            i += 16;
        }
    }

    /// [`super::portable::output`] 16 units at a time: clamp with max/min, widen `v` and `w` to
    /// `i32` (two registers of 8), `v * v * w` by two 32-bit `mullo` (exact: at most
    /// 255^2 * 32768 < 2^31), shift right arithmetically and add.
    ///
    /// # Safety
    /// AVX2 must be present; `opp.len() == stm.len()`, a multiple of 16, and
    /// `weights.len() == 2 * stm.len()`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn output(stm: &[i16], opp: &[i16], weights: &[i16]) -> i32 {
        let h = stm.len();
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, base) in [(stm, 0), (opp, h)] {
            let mut i = 0;
            while i < h {
                // SAFETY: `i + 16 <= h`, `acc` has `h` entries and `weights` `2h` (the
                // caller's promise), so both unaligned loads are in bounds.
                unsafe {
                    let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                    let w = _mm256_loadu_si256(weights.as_ptr().add(base + i).cast());
                    let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                    let v_lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v));
                    let v_hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(v));
                    let w_lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(w));
                    let w_hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(w));
                    let t_lo = _mm256_mullo_epi32(_mm256_mullo_epi32(v_lo, v_lo), w_lo);
                    let t_hi = _mm256_mullo_epi32(_mm256_mullo_epi32(v_hi, v_hi), w_hi);
                    let t = _mm256_add_epi32(
                        _mm256_srai_epi32::<{ OUTPUT_SHIFT as i32 }>(t_lo),
                        _mm256_srai_epi32::<{ OUTPUT_SHIFT as i32 }>(t_hi),
                    );
                    sum = _mm256_add_epi32(sum, t);
                }
                i += 16;
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, one register.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }
}

/// 32 lanes of `i16` per 512-bit register (AVX-512 F and BW).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::network::OUTPUT_SHIFT;
    use super::QA;
    use core::arch::x86_64::*;

    /// [`super::portable::update`] 32 units at a time.
    ///
    /// # Safety
    /// AVX-512 F and BW must be present; `src.len() == dst.len()`, a multiple of 32, and every
    /// index in `add` and `sub` must be a row of `weights` (`(f + 1) * dst.len() <= weights.len()`).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn update(
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        let h = dst.len();
        let w = weights.as_ptr();
        let mut i = 0;
        while i < h {
            // SAFETY: `i + 32 <= h` and every row `f` has `h` weights from `f * h` (the caller's
            // promise), so each unaligned 64-byte load and store stays inside its slice.
            unsafe {
                let mut v = _mm512_loadu_si512(src.as_ptr().add(i).cast());
                for &f in add {
                    v = _mm512_add_epi16(v, _mm512_loadu_si512(w.add(f * h + i).cast()));
                }
                for &f in sub {
                    v = _mm512_sub_epi16(v, _mm512_loadu_si512(w.add(f * h + i).cast()));
                }
                _mm512_storeu_si512(dst.as_mut_ptr().add(i).cast(), v);
            }
            i += 32;
        }
    }

    /// [`super::portable::output`] 32 units at a time, as [`super::avx2::output`] does with 16.
    ///
    /// # Safety
    /// AVX-512 F and BW must be present; `opp.len() == stm.len()`, a multiple of 32, and
    /// `weights.len() == 2 * stm.len()`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn output(stm: &[i16], opp: &[i16], weights: &[i16]) -> i32 {
        let h = stm.len();
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for (acc, base) in [(stm, 0), (opp, h)] {
            let mut i = 0;
            while i < h {
                // SAFETY: `i + 32 <= h`, `acc` has `h` entries and `weights` `2h` (the
                // caller's promise), so both unaligned loads are in bounds.
                unsafe {
                    let a = _mm512_loadu_si512(acc.as_ptr().add(i).cast());
                    let w = _mm512_loadu_si512(weights.as_ptr().add(base + i).cast());
                    let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), top);
                    let v_lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(v));
                    let v_hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(v));
                    let w_lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(w));
                    let w_hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(w));
                    let t_lo = _mm512_mullo_epi32(_mm512_mullo_epi32(v_lo, v_lo), w_lo);
                    let t_hi = _mm512_mullo_epi32(_mm512_mullo_epi32(v_hi, v_hi), w_hi);
                    let t = _mm512_add_epi32(
                        _mm512_srai_epi32::<{ OUTPUT_SHIFT }>(t_lo),
                        _mm512_srai_epi32::<{ OUTPUT_SHIFT }>(t_hi),
                    );
                    sum = _mm512_add_epi32(sum, t);
                }
                i += 32;
            }
        }
        _mm512_reduce_add_epi32(sum)
    }
}
