//! Decompression of one sub-table: canonical Huffman codes over "recursive pairing" symbols.
//!
//! Layout (per side and leading-pawn file): a flags byte, then either a single stored value or the block
//! size, the sparse-index span, padding, the block count, min/max code lengths, the lowest symbol of every
//! code length and the symbol pair tree. A value at index `i` is found through the sparse index (one entry
//! every `span` values), walking block lengths to the right block, Huffman-decoding symbols until the one
//! covering `i`, then descending its pair tree (Ronald de Man's answers in the talkchess thread
//! "Question to syzygy author", "sympat/symlen").

use crate::bytes::{prefetch, slice, u16_le, u32_be_or_zero, u32_le, u8_at, TableResult};
use crate::error::TableError;

/// Flag: this DTZ sub-table stores black to move (relative to the table's orientation).
pub(crate) const FLAG_STM: u8 = 1;
/// Flag: DTZ values go through one of four value maps.
pub(crate) const FLAG_MAPPED: u8 = 2;
/// Flag: DTZ of wins is stored in plies rather than moves.
pub(crate) const FLAG_WIN_PLIES: u8 = 4;
/// Flag: DTZ of losses is stored in plies rather than moves.
pub(crate) const FLAG_LOSS_PLIES: u8 = 8;
/// Flag: the DTZ value maps hold 16-bit entries.
pub(crate) const FLAG_WIDE: u8 = 16;
/// Flag: every position of the sub-table has the same value.
pub(crate) const FLAG_SINGLE_VALUE: u8 = 128;

/// Size in bytes of one sparse index entry (block `u32`, offset `u16`).
const SPARSE_ENTRY: usize = 6;
/// Number of leading bits decoded by one table lookup for small blocks (WDL). Measured against
/// Fathom in one process (2026-11-24): 11 bits 1.27x, 10 bits 1.18-1.27x, 9 bits 1.21x, 12 bits
/// 0.89-0.91x (its 8 KiB tables miss the cache as probes jump between tables).
const SMALL_BITS: u32 = 11;
/// Number of leading bits decoded by one table lookup for blocks of 512 bytes or more (DTZ), where
/// more codes are skipped per decoded value. Both chosen by measurement.
const LARGE_BITS: u32 = 12;

/// The decode window table of a sub-table (see [`build_lookup`]), as a fixed-size array so that
/// the decoding loop needs no bounds check and shifts by a constant.
#[derive(Debug, Clone)]
enum Lookup {
    /// `SMALL_BITS` bits.
    Small(Box<[u16; 1 << SMALL_BITS]>),
    /// `LARGE_BITS` bits.
    Large(Box<[u16; 1 << LARGE_BITS]>),
}

impl Default for Lookup {
    fn default() -> Lookup {
        Lookup::Small(Box::new([0; 1 << SMALL_BITS]))
    }
}

/// Marker for a leaf in the pair tree.
const LEAF: u16 = 0xfff;

/// Parsed header of one sub-table. Section offsets point into the table file; the small tables used by
/// every lookup (code bases, lowest symbols, symbol lengths, pair tree) are copied out at open time.
#[derive(Debug, Clone, Default)]
pub(crate) struct PairsData {
    /// Flag byte (`FLAG_*`).
    pub(crate) flags: u8,
    /// The value of a single-valued sub-table.
    single_value: u8,
    /// log2 of the byte size of a compressed block.
    block_size_log2: u32,
    /// log2 of the number of values between two sparse index entries.
    span_log2: u32,
    /// Number of sparse index entries.
    pub(crate) sparse_len: usize,
    /// Number of block length entries (blocks plus padding).
    pub(crate) block_len_count: usize,
    /// Number of compressed blocks.
    pub(crate) blocks: usize,
    /// Shortest Huffman code length.
    min_len: u32,
    /// `base[l]`: smallest left-aligned 64-bit code of length `min_len + l`.
    base: Vec<u64>,
    /// Lowest symbol number of each code length.
    lowest: Vec<u16>,
    /// The pair tree, one node per symbol.
    nodes: Vec<Node>,
    /// Bits per value in [`Node::packed`] (see [`pack_values`]).
    pack_bits: u32,
    /// Fast decoding of the top bits of the bit buffer (see [`build_lookup`]).
    lookup: Lookup,
    /// First code-length index the slow scan has to try.
    slow_start: usize,
    /// File offset of the sparse index.
    pub(crate) sparse_off: usize,
    /// File offset of the block lengths.
    pub(crate) block_len_off: usize,
    /// File offset of the compressed data.
    pub(crate) data_off: usize,
}

impl PairsData {
    /// Parse the size section at `pos` for a sub-table of `tb_size` values; returns the data and the
    /// position after the section.
    pub(crate) fn parse(
        data: &[u8],
        mut pos: usize,
        tb_size: u64,
    ) -> TableResult<(PairsData, usize)> {
        let flags = u8_at(data, pos)?;
        pos += 1;
        if flags & FLAG_SINGLE_VALUE != 0 {
            let value = u8_at(data, pos)?;
            let pairs = PairsData {
                flags,
                single_value: value,
                ..PairsData::default()
            };
            return Ok((pairs, pos + 1));
        }
        let block_size_log2 = u32::from(u8_at(data, pos)?);
        let span_log2 = u32::from(u8_at(data, pos + 1)?);
        if !(2..=16).contains(&block_size_log2) || span_log2 > 32 {
            return Err(TableError::Corrupted("block size or span out of range"));
        }
        let span = 1u64 << span_log2;
        let sparse_len = usize::try_from(tb_size.div_ceil(span))
            .map_err(|_| TableError::Corrupted("sparse index too large"))?;
        let padding = usize::from(u8_at(data, pos + 2)?);
        let blocks = u32_le(data, pos + 3)? as usize;
        let max_len = u32::from(u8_at(data, pos + 7)?);
        let min_len = u32::from(u8_at(data, pos + 8)?);
        pos += 9;
        if min_len == 0 || max_len < min_len || max_len > 32 {
            return Err(TableError::Corrupted("bad Huffman code lengths"));
        }
        let n_lens = (max_len - min_len + 1) as usize;
        let mut lowest = Vec::with_capacity(n_lens);
        for i in 0..n_lens {
            lowest.push(u16_le(data, pos + 2 * i)?);
        }
        pos += 2 * n_lens;
        // Canonical Huffman: longer codes have smaller values. base[l] is the first code of length
        // min_len + l, left-aligned in 64 bits, so a code's length is the first l with buf >= base[l].
        let mut base = vec![0u64; n_lens];
        for i in (0..n_lens - 1).rev() {
            base[i] = base[i + 1]
                .wrapping_add(u64::from(lowest[i]))
                .wrapping_sub(u64::from(lowest[i + 1]))
                / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b = b.checked_shl(64 - i as u32 - min_len).unwrap_or(0);
        }
        let n_syms = usize::from(u16_le(data, pos)?);
        pos += 2;
        let tree_bytes = slice(data, pos, 3 * n_syms)?;
        let tree: Vec<[u16; 2]> = tree_bytes
            .chunks_exact(3)
            .map(|lr| {
                let left = (u16::from(lr[1] & 0xf) << 8) | u16::from(lr[0]);
                let right = (u16::from(lr[2]) << 4) | u16::from(lr[1] >> 4);
                [left, right]
            })
            .collect();
        pos += 3 * n_syms + (n_syms & 1);
        let symlen = symbol_lengths(&tree)?;
        let bits = if block_size_log2 >= 9 {
            LARGE_BITS
        } else {
            SMALL_BITS
        };
        let (table, slow_start) = build_lookup(&base, &lowest, &symlen, min_len, bits);
        let wrong_size = |_| TableError::Corrupted("decode table size");
        let lookup = if bits == LARGE_BITS {
            Lookup::Large(table.into_boxed_slice().try_into().map_err(wrong_size)?)
        } else {
            Lookup::Small(table.into_boxed_slice().try_into().map_err(wrong_size)?)
        };
        let mut nodes: Vec<Node> = tree
            .iter()
            .zip(&symlen)
            .map(|(&[left, right], &len)| Node {
                packed: 0,
                count: len as u16 + 1,
                left,
                right,
                // Leaves have no children: their left field is the value.
                left_count: if len == 0 {
                    0
                } else {
                    symlen[usize::from(left)] as u16 + 1
                },
            })
            .collect();
        let pack_bits = pack_values(&mut nodes);
        let pairs = PairsData {
            flags,
            single_value: 0,
            block_size_log2,
            span_log2,
            sparse_len,
            block_len_count: blocks + padding,
            blocks,
            min_len,
            base,
            lowest,
            nodes,
            pack_bits,
            lookup,
            slow_start,
            sparse_off: 0,
            block_len_off: 0,
            data_off: 0,
        };
        Ok((pairs, pos))
    }

    /// Bytes of compressed data of this sub-table.
    pub(crate) fn data_len(&self) -> usize {
        self.blocks << self.block_size_log2
    }

    /// Whether this sub-table stores a single value (no index sections).
    pub(crate) fn is_single_value(&self) -> bool {
        self.flags & FLAG_SINGLE_VALUE != 0
    }

    /// Stored value at index `idx`.
    pub(crate) fn decompress(&self, data: &[u8], idx: u64) -> TableResult<u16> {
        if self.is_single_value() {
            return Ok(u16::from(self.single_value));
        }
        let span = 1u64 << self.span_log2;
        let k = (idx >> self.span_log2) as usize;
        if k >= self.sparse_len {
            return Err(TableError::Corrupted("index beyond table"));
        }
        let entry = self.sparse_off + k * SPARSE_ENTRY;
        let mut block = u32_le(data, entry)? as usize;
        let mut offset = i64::from(u16_le(data, entry + 4)?);
        // The value is usually in this block: start loading it while the block lengths are read.
        prefetch(
            data,
            self.data_off.wrapping_add(block << self.block_size_log2),
        );
        offset += (idx & (span - 1)) as i64 - (span / 2) as i64;
        let block_len = |b: usize| -> TableResult<i64> {
            if b >= self.block_len_count {
                return Err(TableError::Corrupted("block index out of range"));
            }
            Ok(i64::from(u16_le(data, self.block_len_off + 2 * b)?))
        };
        while offset < 0 {
            block = block
                .checked_sub(1)
                .ok_or(TableError::Corrupted("block index underflow"))?;
            offset += block_len(block)? + 1;
        }
        loop {
            let len = block_len(block)?;
            if offset <= len {
                break;
            }
            offset -= len + 1;
            block += 1;
        }
        if block >= self.blocks {
            return Err(TableError::Corrupted("block index out of range"));
        }
        let start = self.data_off + (block << self.block_size_log2);
        let block_data = slice(data, start, 1 << self.block_size_log2)?;
        let sym = self.find_symbol(block_data, offset as u64)?;
        self.expand(sym.0, sym.1)
    }

    /// Decode Huffman symbols from the start of a block until the one covering value `offset`; returns
    /// that symbol and the offset inside it.
    #[inline]
    fn find_symbol(&self, block: &[u8], offset: u64) -> TableResult<(usize, u64)> {
        match &self.lookup {
            Lookup::Small(table) => {
                self.find_symbol_with::<SMALL_BITS, { 1 << SMALL_BITS }>(table, block, offset)
            }
            Lookup::Large(table) => {
                self.find_symbol_with::<LARGE_BITS, { 1 << LARGE_BITS }>(table, block, offset)
            }
        }
    }

    /// [`PairsData::find_symbol`] with a `BITS`-bit window table of `N = 2^BITS` entries.
    #[inline]
    fn find_symbol_with<const BITS: u32, const N: usize>(
        &self,
        lookup: &[u16; N],
        block: &[u8],
        mut offset: u64,
    ) -> TableResult<(usize, u64)> {
        let mut buf =
            (u64::from(u32_be_or_zero(block, 0)) << 32) | u64::from(u32_be_or_zero(block, 4));
        let mut next_word = 8usize;
        let mut bits_left = 64u32;
        loop {
            // At least 33 bits of the buffer are real data here, so the window is fully decoded.
            let window = lookup[(buf >> (64 - BITS)) as usize];
            let window_bits = u32::from(window >> WINDOW_COUNT_BITS);
            let window_count = u64::from(window & WINDOW_COUNT_MASK);
            let code_len = if window_bits != 0 {
                if offset >= window_count {
                    // Skip every code that fits in the window at once.
                    offset -= window_count;
                    window_bits
                } else {
                    // The value is in one of the window's codes: decode them one by one (no refill
                    // needed, they all lie in the window).
                    loop {
                        let (sym, len) = self.decode_one(buf, 0);
                        let count = self.count(sym)?;
                        if offset < count {
                            return Ok((sym, offset));
                        }
                        offset -= count;
                        buf <<= len;
                    }
                }
            } else {
                let (sym, len) = self.decode_one(buf, self.slow_start);
                let count = self.count(sym)?;
                if offset < count {
                    return Ok((sym, offset));
                }
                offset -= count;
                len
            };
            buf <<= code_len;
            bits_left -= code_len;
            if bits_left <= 32 {
                bits_left += 32;
                buf |= u64::from(u32_be_or_zero(block, next_word)) << (64 - bits_left);
                next_word += 4;
            }
        }
    }

    /// Symbol and code length of the code at the top of `buf`, trying code lengths from `start` on.
    #[inline]
    fn decode_one(&self, buf: u64, start: usize) -> (usize, u32) {
        let last = self.base.len() - 1;
        let mut len = start;
        while len < last && buf < self.base[len] {
            len += 1;
        }
        let code_len = len as u32 + self.min_len;
        let sym =
            ((buf - self.base[len]) >> (64 - code_len)) as usize + usize::from(self.lowest[len]);
        (sym, code_len)
    }

    /// Number of values symbol `sym` expands to.
    #[inline]
    fn count(&self, sym: usize) -> TableResult<u64> {
        let node = self
            .nodes
            .get(sym)
            .ok_or(TableError::Corrupted("symbol out of range"))?;
        Ok(u64::from(node.count))
    }

    /// Descend the pair tree from `sym` (a symbol [`PairsData::count`] accepted) to the leaf value at
    /// `offset`.
    #[inline]
    fn expand(&self, sym: usize, mut offset: u64) -> TableResult<u16> {
        let corrupted = || TableError::Corrupted("symbol out of range");
        let mut node = *self.nodes.get(sym).ok_or_else(corrupted)?;
        let capacity = 64 / self.pack_bits;
        // Children always expand to fewer values than their parent (checked when the tree was
        // read), so this loop terminates; leaves are always packed.
        while u32::from(node.count) > capacity {
            let left_count = u64::from(node.left_count);
            let next = if offset < left_count {
                node.left
            } else {
                offset -= left_count;
                node.right
            };
            node = *self.nodes.get(usize::from(next)).ok_or_else(corrupted)?;
        }
        // offset < count <= capacity, so the shift stays below 64.
        let mask = (1u64 << self.pack_bits) - 1;
        Ok(((node.packed >> (self.pack_bits * offset as u32)) & mask) as u16)
    }
}

/// Store in every symbol that expands to at most `64 / bits` values those values, `bits` bits
/// each (first value lowest), where `bits` is the width of the largest leaf value: WDL values
/// (0..=4) take 3 bits, so a symbol of up to 21 values is expanded without walking the tree.
/// Returns `bits`.
fn pack_values(nodes: &mut [Node]) -> u32 {
    let largest = nodes
        .iter()
        .filter(|n| n.count == 1)
        .map(|n| n.left)
        .max()
        .unwrap_or(0);
    let bits = (16 - largest.leading_zeros()).max(1);
    let capacity = 64 / bits;
    // Children expand to fewer values than their parent: in order of count, children come first.
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_unstable_by_key(|&s| nodes[s].count);
    for s in order {
        let node = nodes[s];
        if u32::from(node.count) > capacity {
            break;
        }
        nodes[s].packed = if node.count == 1 {
            u64::from(node.left)
        } else {
            let (left, right) = (usize::from(node.left), usize::from(node.right));
            nodes[left].packed | nodes[right].packed << (bits * u32::from(node.left_count))
        };
    }
    bits
}

/// One symbol of the pair tree: what `expand` needs at each step, in one load.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// The values of a short symbol, packed (see [`pack_values`]); 0 for longer ones.
    packed: u64,
    /// Number of values the symbol expands to (1 for a leaf).
    count: u16,
    /// Left child, or the value itself for a leaf.
    left: u16,
    /// Right child (unused for a leaf).
    right: u16,
    /// Number of values the left child expands to (0 for a leaf).
    left_count: u16,
}

/// Bits of a window entry holding the value count; the bits above hold the code bits.
const WINDOW_COUNT_BITS: u32 = 12;
/// Mask of the value count in a window entry.
const WINDOW_COUNT_MASK: u16 = (1 << WINDOW_COUNT_BITS) - 1;

/// Decode table for the first `bits` bits of the buffer (at most 15): for each prefix, the total
/// value count of the whole codes in the window (below 2^12, low 12 bits) and the bits they take
/// (high 4 bits, 0 when not even the first code fits), so runs of short codes are skipped in one
/// step. Two bytes an entry keep the table small in cache: probes jump between tables. Codes are
/// canonical: the length of the code at the top of the buffer is the first `l` with
/// `buffer >= base[l]`, and for lengths up to `bits` that test only looks at the top bits
/// (`base[l]` has no bits below its code length). Also returns where the length scan starts for
/// codes longer than the window.
fn build_lookup(
    base: &[u64],
    lowest: &[u16],
    symlen: &[u32],
    min_len: u32,
    bits: u32,
) -> (Vec<u16>, usize) {
    let last = base.len() - 1;
    let slow_start = ((bits + 1).saturating_sub(min_len) as usize).min(last);
    // Decode one code at the top of `buf` if it is at most `avail` bits long and a known symbol.
    let decode = |buf: u64, avail: u32| -> Option<(usize, u32)> {
        let mut len = 0;
        while len < last && buf < base[len] {
            len += 1;
        }
        let code_len = len as u32 + min_len;
        if code_len > avail || buf < base[len] {
            return None;
        }
        let sym = ((buf - base[len]) >> (64 - code_len)) + u64::from(lowest[len]);
        usize::try_from(sym)
            .ok()
            .filter(|&s| s < symlen.len())
            .map(|s| (s, code_len))
    };
    let table = (0..1u64 << bits)
        .map(|prefix| {
            let mut count = 0u64;
            let mut buf = prefix << (64 - bits);
            let mut used = 0u32;
            while let Some((sym, len)) = decode(buf, bits - used) {
                let total = count + u64::from(symlen[sym]) + 1;
                if total > u64::from(WINDOW_COUNT_MASK) {
                    break;
                }
                count = total;
                used += len;
                buf <<= len;
            }
            ((used as u16) << WINDOW_COUNT_BITS) | count as u16
        })
        .collect();
    (table, slow_start)
}

/// Bound on the number of values (minus one) a symbol may expand to, so that counts fit the 16-bit
/// fields of [`Node`]. Real tables stay far below it: their symbols expand to at most 256 values
/// (the generator stores the lengths in one byte).
const MAX_SYMLEN: u32 = u16::MAX as u32 - 1;

/// Number of values (minus one) each symbol expands to, checking that the pair tree only refers to
/// existing symbols, has no cycle (a malicious file could otherwise loop forever) and that no
/// symbol expands to more than `MAX_SYMLEN + 1` values.
fn symbol_lengths(tree: &[[u16; 2]]) -> TableResult<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    const IN_PROGRESS: u32 = u32::MAX - 1;
    let mut symlen = vec![UNSEEN; tree.len()];
    let mut stack: Vec<usize> = Vec::new();
    for root in 0..tree.len() {
        if symlen[root] != UNSEEN {
            continue;
        }
        stack.push(root);
        while let Some(&sym) = stack.last() {
            let [left, right] = tree[sym];
            if right == LEAF {
                symlen[sym] = 0;
                stack.pop();
                continue;
            }
            let (l, r) = (usize::from(left), usize::from(right));
            if l >= tree.len() || r >= tree.len() {
                return Err(TableError::Corrupted(
                    "pair tree refers to a missing symbol",
                ));
            }
            symlen[sym] = IN_PROGRESS;
            let mut pending = false;
            for child in [l, r] {
                match symlen[child] {
                    UNSEEN => {
                        stack.push(child);
                        pending = true;
                    }
                    IN_PROGRESS => return Err(TableError::Corrupted("cycle in pair tree")),
                    _ => {}
                }
            }
            if !pending {
                let total = u64::from(symlen[l]) + u64::from(symlen[r]) + 1;
                if total >= u64::from(MAX_SYMLEN) {
                    return Err(TableError::Corrupted("symbol expands to too many values"));
                }
                symlen[sym] = total as u32;
                stack.pop();
            }
        }
    }
    Ok(symlen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_lengths_of_a_small_tree() {
        // 0, 1 leaves; 2 = (0, 1); 3 = (2, 0).
        let tree = [[5, LEAF], [7, LEAF], [0, 1], [2, 0]];
        assert_eq!(symbol_lengths(&tree).unwrap(), vec![0, 0, 1, 2]);
    }

    #[test]
    fn cycles_and_dangling_children_are_errors() {
        assert!(symbol_lengths(&[[0, 1], [1, 0]]).is_err());
        assert!(symbol_lengths(&[[0, 0]]).is_err());
        assert!(symbol_lengths(&[[3, 4]]).is_err());
    }
}
