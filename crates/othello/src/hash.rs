//! CRC32C (Castagnoli) board hashing, as the Edax-AVX notes describe for Edax 4.5: two 64-bit
//! CRC32C steps, the SSE4.2 `crc32` instruction when present and a table-driven fallback giving identical values.
//!
//! The CRC is the raw update (no initial or final inversion), exactly what `_mm_crc32_u64` computes.
//!
//! This module sits below [`crate::kernel`], whose tokens hash with these functions; the hash
//! with the detected CPU's kernel is [`Board::hash`](crate::Board::hash).

/// Reflected CRC32C polynomial.
const POLY: u32 = 0x82F6_3B78;

const fn build_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut j = 1;
    while j < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[j - 1][i];
            t[j][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            i += 1;
        }
        j += 1;
    }
    t
}

/// Slicing-by-8 tables: `TABLES[j][b]` is the CRC of byte `b` followed by `j` zero bytes.
static TABLES: [[u32; 256]; 8] = build_tables();

/// CRC32C update of `crc` with the 8 little-endian bytes of `data` (portable).
#[inline(always)]
pub fn crc32c_u64_portable(crc: u32, data: u64) -> u32 {
    let x = data ^ crc as u64;
    let b = x.to_le_bytes();
    TABLES[7][b[0] as usize]
        ^ TABLES[6][b[1] as usize]
        ^ TABLES[5][b[2] as usize]
        ^ TABLES[4][b[3] as usize]
        ^ TABLES[3][b[4] as usize]
        ^ TABLES[2][b[5] as usize]
        ^ TABLES[1][b[6] as usize]
        ^ TABLES[0][b[7] as usize]
}

/// CRC32C update with the SSE4.2 instruction; callable safely from code compiled with `sse4.2`.
///
/// # Safety
/// The CPU must support SSE4.2 (`is_x86_feature_detected!("sse4.2")`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
#[inline]
pub fn crc32c_u64_sse42(crc: u32, data: u64) -> u32 {
    core::arch::x86_64::_mm_crc32_u64(crc as u64, data) as u32
}

/// Combines the two CRCs of a board into a 64-bit key: high half from `player`, low half from both.
#[inline(always)]
fn combine(crc_player: u32, crc_both: u32) -> u64 {
    ((crc_player as u64) << 32) | crc_both as u64
}

/// Board hash, portable: `crc(player)` in the high half, `crc(crc(player), opponent)` in the low half.
#[inline(always)]
pub fn hash_portable(player: u64, opponent: u64) -> u64 {
    let a = crc32c_u64_portable(0, player);
    combine(a, crc32c_u64_portable(a, opponent))
}

/// Board hash with the SSE4.2 instruction; same value as [`hash_portable`].
///
/// # Safety
/// The CPU must support SSE4.2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
#[inline]
pub fn hash_sse42(player: u64, opponent: u64) -> u64 {
    let a = crc32c_u64_sse42(0, player);
    combine(a, crc32c_u64_sse42(a, opponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard CRC32C check value: "123456789" with inversion gives 0xE3069283.
    #[test]
    fn check_value() {
        let data = b"12345678";
        let crc = !crc32c_u64_portable(!0, u64::from_le_bytes(*data));
        // Finish with the byte '9' bitwise.
        let mut c = !crc ^ b'9' as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
        }
        assert_eq!(!c, 0xE306_9283);
    }

    #[test]
    fn hardware_matches_portable() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("sse4.2") {
            let mut rng = ply_testkit::XorShift64::new(0x9E37_79B9_7F4A_7C15);
            for _ in 0..100_000 {
                let x = rng.next();
                let y = x.rotate_left(29);
                // SAFETY: SSE4.2 checked above.
                let hw = unsafe { hash_sse42(x, y) };
                assert_eq!(hw, hash_portable(x, y));
            }
            return;
        }
        ply_testkit::skip_unsupported("no SSE4.2: only the portable CRC32C is checked");
    }
}
