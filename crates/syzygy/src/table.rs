//! One Syzygy table file (`.rtbw` WDL or `.rtbz` DTZ): header parsing and the raw lookup of a placement.
//!
//! File layout: magic (4 bytes), a flags byte (bit 0: two sides stored, bit 1: pawns), then per
//! leading-pawn file (one "file" for pawnless tables) the group order nibbles and the piece-order nibbles of
//! each side; then the size section of every sub-table ([`PairsData`]), the DTZ value maps, the sparse
//! indexes, the block lengths and finally the 64-byte aligned compressed blocks.

use crate::bytes::{slice, sparse_count, u16_le, u8_at, TableResult};
use crate::encoding::{
    encode_unique3, flip_diagonal, off_diagonal, BINOMIAL, LEAD_PAWNS_SIZE, LEAD_PAWN_IDX,
    MAP_A1D1D4, MAP_KK, MAP_PAWNS, MAX_PIECES, UNIQUE3_SIZE,
};
use crate::error::TableError;
use crate::material::{Material, BLACK, PAWN};
use crate::pairs::{PairsData, FLAG_LOSS_PLIES, FLAG_MAPPED, FLAG_STM, FLAG_WIDE, FLAG_WIN_PLIES};

/// Magic number of WDL files.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// Magic number of DTZ files.
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Which kind of table a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableKind {
    /// Win/draw/loss (`.rtbw`), both sides to move.
    Wdl,
    /// Distance to zeroing (`.rtbz`), one side to move.
    Dtz,
}

impl TableKind {
    /// File extension including the dot.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => ".rtbw",
            TableKind::Dtz => ".rtbz",
        }
    }
}

/// A placement already oriented to the table (white = the side named first), at most 7 pieces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placement {
    /// Squares (bit 0 = a1) of the pieces of each nibble code.
    pub(crate) boards: [u64; 16],
    /// Number of pieces.
    pub(crate) len: usize,
    /// 0 when the table's white side is to move, 1 otherwise.
    pub(crate) stm: usize,
}

/// One sub-table: the piece order chosen by the generator, its grouping and the compressed values.
#[derive(Debug, Clone, Default)]
struct SubTable {
    /// Piece codes in encoding order.
    pieces: [u8; MAX_PIECES],
    /// Sizes of the groups of like pieces (the leading group first).
    group_len: [u8; MAX_PIECES],
    /// Number of groups.
    groups: usize,
    /// Multiplier of each group's index.
    factor: [u64; MAX_PIECES],
    /// Number of indexes.
    size: u64,
    /// Compressed values.
    pairs: PairsData,
}

/// Where the four DTZ value maps of a leading-pawn file start (win, loss, cursed win, blessed loss).
#[derive(Debug, Clone, Copy, Default)]
struct DtzMaps {
    /// (file offset of the first entry, number of entries) of each map.
    maps: [(usize, usize); 4],
}

/// A parsed table over its bytes.
#[derive(Debug)]
pub(crate) struct Table<B> {
    bytes: B,
    kind: TableKind,
    has_pawns: bool,
    symmetric: bool,
    /// Nibble code of the leading pawns (pawn tables).
    lead_pawn: u8,
    /// Number of leading pawns.
    lead_count: usize,
    /// Whether the other side has pawns as well (second pawn group).
    both_pawns: bool,
    /// Number of sides stored (2 for asymmetric WDL tables).
    sides: usize,
    /// Sub-tables, index `file * sides + side`.
    subs: Vec<SubTable>,
    /// DTZ maps per leading-pawn file.
    dtz_maps: Vec<DtzMaps>,
}

impl<B: AsRef<[u8]>> Table<B> {
    /// Parse a table of `material` from its bytes.
    pub(crate) fn new(bytes: B, kind: TableKind, material: &Material) -> TableResult<Table<B>> {
        let data = bytes.as_ref();
        let magic = slice(data, 0, 4).map_err(|_| TableError::BadMagic)?;
        let expected = if kind == TableKind::Wdl {
            WDL_MAGIC
        } else {
            DTZ_MAGIC
        };
        if magic != expected {
            return Err(TableError::BadMagic);
        }
        let header = u8_at(data, 4)?;
        let has_pawns = material.has_pawns();
        let symmetric = material.is_symmetric();
        if (header & 2 != 0) != has_pawns {
            return Err(TableError::Corrupted(
                "pawn flag does not match the file name",
            ));
        }
        let split = !symmetric && kind == TableKind::Wdl;
        if kind == TableKind::Wdl && (header & 1 != 0) != split {
            return Err(TableError::Corrupted(
                "split flag does not match the file name",
            ));
        }
        let sides = if split { 2 } else { 1 };
        let files = if has_pawns { 4 } else { 1 };
        let n = material.piece_count();
        let unique = material.has_unique_pieces();

        // Leading pawns: the side with fewer pawns (white when equal or when black has none).
        let (wp, bp) = (
            material.counts[usize::from(PAWN)],
            material.counts[usize::from(PAWN | BLACK)],
        );
        let white_leads = bp == 0 || (wp > 0 && bp >= wp);
        let lead_pawn = if white_leads { PAWN } else { PAWN | BLACK };
        let (lead_count, other_count) = if white_leads { (wp, bp) } else { (bp, wp) };
        let both_pawns = has_pawns && other_count > 0;

        let mut pos = 5;
        let mut subs = vec![SubTable::default(); files * sides];
        for file in 0..files {
            let first = u8_at(data, pos)?;
            let second = if both_pawns {
                u8_at(data, pos + 1)?
            } else {
                0xff
            };
            let orders = [[first & 15, second & 15], [first >> 4, second >> 4]];
            pos += 1 + usize::from(both_pawns);
            let piece_bytes = slice(data, pos, n)?;
            pos += n;
            for side in 0..sides {
                let sub = &mut subs[file * sides + side];
                for (k, &b) in piece_bytes.iter().enumerate() {
                    sub.pieces[k] = if side == 0 { b & 15 } else { b >> 4 };
                }
                check_pieces(
                    &sub.pieces[..n],
                    material,
                    has_pawns,
                    lead_pawn,
                    usize::from(lead_count),
                )?;
                set_groups(sub, n, has_pawns, unique, both_pawns, orders[side], file)?;
            }
        }
        pos += pos & 1;
        for sub in subs.iter_mut() {
            let (pairs, next) = PairsData::parse(data, pos, sub.size)?;
            sub.pairs = pairs;
            pos = next;
        }
        let mut dtz_maps = vec![DtzMaps::default(); files];
        if kind == TableKind::Dtz {
            for (file, maps) in dtz_maps.iter_mut().enumerate() {
                let flags = subs[file * sides].pairs.flags;
                if flags & FLAG_MAPPED == 0 {
                    continue;
                }
                if flags & FLAG_WIDE != 0 {
                    pos += pos & 1;
                    for map in maps.maps.iter_mut() {
                        let len = usize::from(u16_le(data, pos)?);
                        *map = (pos + 2, len);
                        pos += 2 + 2 * len;
                    }
                } else {
                    for map in maps.maps.iter_mut() {
                        let len = usize::from(u8_at(data, pos)?);
                        *map = (pos + 1, len);
                        pos += 1 + len;
                    }
                }
            }
            pos += pos & 1;
        }
        let too_big = || TableError::Corrupted("section size overflows");
        for sub in subs.iter_mut() {
            sub.pairs.sparse_off = pos;
            pos = sub
                .pairs
                .sparse_len
                .checked_mul(6)
                .and_then(|l| l.checked_add(pos))
                .ok_or_else(too_big)?;
        }
        for sub in subs.iter_mut() {
            sub.pairs.block_len_off = pos;
            pos = sub
                .pairs
                .block_len_count
                .checked_mul(2)
                .and_then(|l| l.checked_add(pos))
                .ok_or_else(too_big)?;
        }
        for sub in subs.iter_mut() {
            pos = pos.checked_add(63).ok_or_else(too_big)? & !63;
            sub.pairs.data_off = pos;
            pos = pos.checked_add(sub.pairs.data_len()).ok_or_else(too_big)?;
        }
        if pos > data.len() {
            return Err(TableError::Corrupted("file is truncated"));
        }
        if kind == TableKind::Dtz {
            for (file, maps) in dtz_maps.iter().enumerate() {
                let wide = subs[file * sides].pairs.flags & FLAG_WIDE != 0;
                for &(start, len) in &maps.maps {
                    slice(data, start, if wide { 2 * len } else { len })?;
                }
            }
        }
        Ok(Table {
            bytes,
            kind,
            has_pawns,
            symmetric,
            lead_pawn,
            lead_count: usize::from(lead_count),
            both_pawns,
            sides,
            subs,
            dtz_maps,
        })
    }

    /// Raw stored WDL value (-2..=2) of a placement, before capture resolution.
    pub(crate) fn probe_wdl(&self, p: &Placement) -> TableResult<i8> {
        debug_assert_eq!(self.kind, TableKind::Wdl);
        let (file, idx) = self.index(p, None)?;
        let sub = &self.subs[file * self.sides + p.stm.min(self.sides - 1)];
        let value = sub.pairs.decompress(self.bytes.as_ref(), idx)?;
        match value {
            0..=4 => Ok(value as i8 - 2),
            _ => Err(TableError::Corrupted("WDL value out of range")),
        }
    }

    /// Raw DTZ (in plies, before the zeroing-move offset) of a placement whose WDL is `wdl`, or `None`
    /// when the table stores the other side to move.
    pub(crate) fn probe_dtz(&self, p: &Placement, wdl: i8) -> TableResult<Option<u32>> {
        debug_assert_eq!(self.kind, TableKind::Dtz);
        let Some((file, idx)) = self.index_if_stored(p)? else {
            return Ok(None);
        };
        let sub = &self.subs[file];
        let data = self.bytes.as_ref();
        let mut value = u32::from(sub.pairs.decompress(data, idx)?);
        let flags = sub.pairs.flags;
        if flags & FLAG_MAPPED != 0 {
            let which = match wdl {
                2 => 0,
                -2 => 1,
                1 => 2,
                -1 => 3,
                _ => return Err(TableError::Corrupted("DTZ probed for a draw")),
            };
            let (start, len) = self.dtz_maps[file].maps[which];
            let i = value as usize;
            if i >= len {
                return Err(TableError::Corrupted("DTZ map index out of range"));
            }
            value = if flags & FLAG_WIDE != 0 {
                u32::from(u16_le(data, start + 2 * i)?)
            } else {
                u32::from(u8_at(data, start + i)?)
            };
        }
        let plies = match wdl {
            2 => flags & FLAG_WIN_PLIES != 0,
            -2 => flags & FLAG_LOSS_PLIES != 0,
            _ => false,
        };
        Ok(Some(if plies { value } else { value * 2 }))
    }

    /// File and index of a DTZ placement, or `None` when the sub-table of its leading-pawn file
    /// stores the other side to move.
    fn index_if_stored(&self, p: &Placement) -> TableResult<Option<(usize, u64)>> {
        let mut stored = true;
        let result = self.index(p, Some((p.stm, &mut stored)))?;
        Ok(stored.then_some(result))
    }

    /// Leading-pawn file and index of a placement. For DTZ (`dtz_stm` given) the index is only computed
    /// when that file's sub-table stores the side to move; otherwise the flag is cleared.
    fn index(
        &self,
        p: &Placement,
        dtz_stm: Option<(usize, &mut bool)>,
    ) -> TableResult<(usize, u64)> {
        let n = p.len;
        if n > MAX_PIECES {
            return Err(TableError::Corrupted("too many pieces"));
        }
        let mut sq = [0u8; MAX_PIECES];
        let mut lead = 0;
        let mut file = 0;
        // What is left to place, by nibble code.
        let mut left = p.boards;
        if self.has_pawns {
            let pawns = &mut left[usize::from(self.lead_pawn & 15)];
            if sparse_count(*pawns) as usize != self.lead_count || self.lead_count > n {
                return Err(TableError::Corrupted("pawn count mismatch"));
            }
            while *pawns != 0 {
                sq[lead] = pawns.trailing_zeros() as u8;
                lead += 1;
                *pawns &= *pawns - 1;
            }
            let mut best = 0;
            for i in 1..lead {
                if MAP_PAWNS[usize::from(sq[i])] > MAP_PAWNS[usize::from(sq[best])] {
                    best = i;
                }
            }
            sq.swap(0, best);
            let f = sq[0] & 7;
            file = usize::from(f.min(7 - f));
        }
        if let Some((stm, stored)) = dtz_stm {
            let flags = self.subs[file * self.sides].pairs.flags;
            // Symmetric pawnless tables serve both sides to move.
            let both_sides = self.symmetric && !self.has_pawns;
            if !both_sides && usize::from(flags & FLAG_STM) != stm {
                *stored = false;
                return Ok((file, 0));
            }
        }
        let side = if self.kind == TableKind::Wdl {
            p.stm.min(self.sides - 1)
        } else {
            0
        };
        let sub = &self.subs[file * self.sides + side];
        // The other pieces in the generator's order: like pieces are taken lowest square first
        // (their order within a group does not change the index).
        for i in lead..n {
            let board = &mut left[usize::from(sub.pieces[i] & 15)];
            if *board == 0 {
                return Err(TableError::Corrupted("piece count mismatch"));
            }
            sq[i] = board.trailing_zeros() as u8;
            *board &= *board - 1;
        }
        if sq[0] & 7 > 3 {
            for s in &mut sq[..n] {
                *s ^= 7;
            }
        }
        let mut idx;
        if self.has_pawns {
            idx = LEAD_PAWN_IDX[lead][usize::from(sq[0])];
            sq[1..lead].sort_unstable_by_key(|&s| MAP_PAWNS[usize::from(s)]);
            for i in 1..lead {
                idx += BINOMIAL[i][usize::from(MAP_PAWNS[usize::from(sq[i])])];
            }
        } else {
            if sq[0] >> 3 > 3 {
                for s in &mut sq[..n] {
                    *s ^= 56;
                }
            }
            for i in 0..usize::from(sub.group_len[0]) {
                let off = off_diagonal(sq[i]);
                if off == 0 {
                    continue;
                }
                if off > 0 {
                    for s in &mut sq[i..n] {
                        *s = flip_diagonal(*s);
                    }
                }
                break;
            }
            idx = if sub.group_len[0] == 3 {
                encode_unique3(sq[0], sq[1], sq[2])
            } else {
                u64::from(MAP_KK[usize::from(MAP_A1D1D4[usize::from(sq[0])])][usize::from(sq[1])])
            };
        }
        idx *= sub.factor[0];
        let mut start = usize::from(sub.group_len[0]);
        let mut remaining_pawns = self.both_pawns;
        for g in 1..sub.groups {
            let len = usize::from(sub.group_len[g]);
            sq[start..start + len].sort_unstable();
            let mut n_group = 0u64;
            for (i, &s) in sq[start..start + len].iter().enumerate() {
                let adjust = sq[..start].iter().filter(|&&earlier| s > earlier).count();
                let free = usize::from(s) - adjust - if remaining_pawns { 8 } else { 0 };
                n_group += BINOMIAL[i + 1][free];
            }
            remaining_pawns = false;
            idx += n_group * sub.factor[g];
            start += len;
        }
        if idx >= sub.size {
            return Err(TableError::Corrupted("index beyond table size"));
        }
        Ok((file, idx))
    }
}

/// Check that a sub-table's piece order is a permutation of the table's material with the leading
/// pawns first, so that the index computation only ever sees placements it can encode.
fn check_pieces(
    pieces: &[u8],
    material: &Material,
    has_pawns: bool,
    lead: u8,
    lead_count: usize,
) -> TableResult<()> {
    let mut counts = [0u8; 16];
    for &p in pieces {
        counts[usize::from(p)] += 1;
    }
    if counts != material.counts {
        return Err(TableError::Corrupted(
            "piece order does not match the file name",
        ));
    }
    if has_pawns {
        if pieces[..lead_count].iter().any(|&p| p != lead) {
            return Err(TableError::Corrupted("leading pawns are not first"));
        }
        let other = lead ^ BLACK;
        let other_count = usize::from(material.counts[usize::from(other)]);
        if pieces[lead_count..lead_count + other_count]
            .iter()
            .any(|&p| p != other)
        {
            return Err(TableError::Corrupted("pawns are not grouped first"));
        }
    } else if pieces[0] & 7 == PAWN {
        return Err(TableError::Corrupted("pawn in a pawnless table"));
    }
    Ok(())
}

/// Group like pieces and compute each group's multiplier from the stored group order (de Man,
/// "Question to syzygy author": "norm" and "factor").
fn set_groups(
    sub: &mut SubTable,
    n: usize,
    has_pawns: bool,
    unique: bool,
    both_pawns: bool,
    order: [u8; 2],
    file: usize,
) -> TableResult<()> {
    let mut first_len: i32 = if has_pawns {
        0
    } else if unique {
        3
    } else {
        2
    };
    let mut groups = 0;
    sub.group_len = [0; MAX_PIECES];
    sub.group_len[0] = 1;
    for i in 1..n {
        first_len -= 1;
        if first_len > 0 || sub.pieces[i] == sub.pieces[i - 1] {
            sub.group_len[groups] += 1;
        } else {
            groups += 1;
            sub.group_len[groups] = 1;
        }
    }
    groups += 1;
    sub.groups = groups;
    let binom = |k: u8, n: i32| -> TableResult<u64> {
        usize::try_from(n)
            .ok()
            .and_then(|n| BINOMIAL.get(usize::from(k))?.get(n).copied())
            .ok_or(TableError::Corrupted("group size out of range"))
    };
    let mut next = if both_pawns { 2 } else { 1 };
    let mut free = 64
        - i32::from(sub.group_len[0])
        - if both_pawns {
            i32::from(sub.group_len[1])
        } else {
            0
        };
    let mut idx: u64 = 1;
    let mut assigned = [false; 2];
    let mut k = 0u8;
    let overflow = || TableError::Corrupted("table size overflows");
    while next < groups || k == order[0] || k == order[1] {
        if k == order[0] {
            sub.factor[0] = idx;
            assigned[0] = true;
            let lead = if has_pawns {
                *LEAD_PAWNS_SIZE
                    .get(usize::from(sub.group_len[0]))
                    .ok_or(TableError::Corrupted("too many leading pawns"))?
                    .get(file)
                    .ok_or(overflow())?
            } else if unique {
                UNIQUE3_SIZE
            } else {
                462
            };
            idx = idx.checked_mul(lead).ok_or_else(overflow)?;
        } else if k == order[1] {
            sub.factor[1] = idx;
            assigned[1] = true;
            let b = binom(sub.group_len[1], 48 - i32::from(sub.group_len[0]))?;
            idx = idx.checked_mul(b).ok_or_else(overflow)?;
        } else {
            sub.factor[next] = idx;
            let b = binom(sub.group_len[next], free)?;
            idx = idx.checked_mul(b).ok_or_else(overflow)?;
            free -= i32::from(sub.group_len[next]);
            next += 1;
        }
        k += 1;
        if k > 15 {
            break;
        }
    }
    if !assigned[0] || (both_pawns && !assigned[1]) {
        return Err(TableError::Corrupted("bad group order"));
    }
    sub.size = idx;
    Ok(())
}
