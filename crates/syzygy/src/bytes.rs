//! Checked little/big-endian readers over table bytes: every read is bounds-checked and returns
//! [`TableError::Corrupted`] instead of panicking.

use crate::error::TableError;

/// Result type of the table layer.
pub(crate) type TableResult<T> = Result<T, TableError>;

/// Byte at `pos`.
#[inline]
pub(crate) fn u8_at(data: &[u8], pos: usize) -> TableResult<u8> {
    data.get(pos)
        .copied()
        .ok_or(TableError::Corrupted("read past end of file"))
}

/// Little-endian `u16` at `pos`.
#[inline]
pub(crate) fn u16_le(data: &[u8], pos: usize) -> TableResult<u16> {
    match data.get(pos..pos.wrapping_add(2)) {
        Some(&[a, b]) => Ok(u16::from_le_bytes([a, b])),
        _ => Err(TableError::Corrupted("read past end of file")),
    }
}

/// Little-endian `u32` at `pos`.
#[inline]
pub(crate) fn u32_le(data: &[u8], pos: usize) -> TableResult<u32> {
    match data.get(pos..pos.wrapping_add(4)) {
        Some(&[a, b, c, d]) => Ok(u32::from_le_bytes([a, b, c, d])),
        _ => Err(TableError::Corrupted("read past end of file")),
    }
}

/// Big-endian `u32` at `pos`, with bytes outside `data` read as zero. Used for the Huffman bit buffer,
/// which legitimately prefetches up to four bytes past the end of a block.
#[inline]
pub(crate) fn u32_be_or_zero(data: &[u8], pos: usize) -> u32 {
    match data.get(pos..pos.wrapping_add(4)) {
        Some(&[a, b, c, d]) => u32::from_be_bytes([a, b, c, d]),
        _ => {
            let mut word = 0u32;
            for i in 0..4 {
                let byte = pos
                    .checked_add(i)
                    .and_then(|p| data.get(p))
                    .copied()
                    .unwrap_or(0);
                word = (word << 8) | u32::from(byte);
            }
            word
        }
    }
}

/// Start loading the cache line of `data[pos]` without waiting for it (a hint: nothing happens
/// when `pos` is out of range or the target has no prefetch instruction).
#[inline(always)]
pub(crate) fn prefetch(data: &[u8], pos: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    if let Some(byte) = data.get(pos) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is enabled for this build (checked by the `cfg`), and a prefetch only hints
        // the cache: it never faults and reads or writes nothing the program can see. The pointer
        // comes from a reference into `data` anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast::<i8>()) };
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
    let _ = (data, pos);
}

/// Number of set bits of a bitboard that usually has very few (table positions have at most seven
/// pieces): one step per bit, which beats the portable `count_ones` (a dozen instructions when the
/// build may not assume the `popcnt` instruction).
#[inline(always)]
pub(crate) fn sparse_count(mut bb: u64) -> u32 {
    let mut n = 0;
    while bb != 0 {
        bb &= bb - 1;
        n += 1;
    }
    n
}

/// `len` bytes starting at `pos`.
#[inline]
pub(crate) fn slice(data: &[u8], pos: usize, len: usize) -> TableResult<&[u8]> {
    pos.checked_add(len)
        .and_then(|end| data.get(pos..end))
        .ok_or(TableError::Corrupted("section past end of file"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_checked() {
        let data = [1u8, 2, 3, 4, 5];
        assert_eq!(u16_le(&data, 0), Ok(0x0201));
        assert_eq!(u32_le(&data, 1), Ok(0x0504_0302));
        assert!(u32_le(&data, 2).is_err());
        assert!(u16_le(&data, usize::MAX).is_err());
        assert!(u8_at(&data, 5).is_err());
        assert_eq!(u32_be_or_zero(&data, 3), 0x0405_0000);
        assert_eq!(u32_be_or_zero(&data, usize::MAX - 1), 0);
        assert!(slice(&data, 4, 2).is_err());
        assert!(slice(&data, usize::MAX, 2).is_err());
    }
}
