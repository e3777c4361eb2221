//! Table discovery and the material-key registry: tables are found by name in the search path, opened
//! and memory-mapped on first use (one `OnceLock` per file, so the hot path takes no lock), and probed
//! through a plain description of the position ([`RawPosition`]) that does not depend on the move
//! generator.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

use crate::bytes::sparse_count;
use crate::encoding::MAX_PIECES;
use crate::error::{ProbeError, TableError};
use crate::material::{flip_key, Material, BLACK};
use crate::table::{Placement, Table, TableKind};
use crate::wdl::Wdl;

/// A position as plain bitboards (bit 0 = a1): `white[r]` / `black[r]` hold the squares of role `r`
/// (0 = pawn, 1 = knight, 2 = bishop, 3 = rook, 4 = queen, 5 = king).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawPosition {
    /// White pieces by role.
    pub white: [u64; 6],
    /// Black pieces by role.
    pub black: [u64; 6],
    /// Whether white is to move.
    pub white_to_move: bool,
}

/// One file slot: its path (if found) and the table, parsed on first use.
#[derive(Debug, Default)]
struct Slot {
    path: Option<PathBuf>,
    table: OnceLock<Result<Table<Mmap>, TableError>>,
}

impl Slot {
    fn get(&self, name: &str, kind: TableKind) -> Result<&Table<Mmap>, ProbeError> {
        let path = self
            .path
            .as_ref()
            .ok_or_else(|| ProbeError::MissingTable(format!("{name}{}", kind.extension())))?;
        self.table
            .get_or_init(|| {
                let material =
                    Material::from_name(name).ok_or(TableError::Corrupted("bad table name"))?;
                open_table(path, kind, &material)
            })
            .as_ref()
            .map_err(|error| ProbeError::BadTable {
                name: format!("{name}{}", kind.extension()),
                error: error.clone(),
            })
    }
}

/// Map and parse one table file.
fn open_table(
    path: &Path,
    kind: TableKind,
    material: &Material,
) -> Result<Table<Mmap>, TableError> {
    let io = |e: std::io::Error| TableError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let file = File::open(path).map_err(io)?;
    // SAFETY: the mapping is read-only and table files are never written while probing; like every
    // memory-mapped prober we rely on nobody truncating the file underneath us. All reads from the
    // mapping go through bounds-checked slices.
    let map = unsafe { Mmap::map(&file) }.map_err(io)?;
    Table::new(map, kind, material)
}

/// The tables of one material signature (white = the side named first in the file name).
#[derive(Debug)]
struct Entry {
    name: String,
    key: u64,
    symmetric: bool,
    wdl: Slot,
    dtz: Slot,
}

/// Hasher for material keys, which are already well spread once multiplied by an odd constant.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A set of Syzygy tables found in one or more directories. `Send + Sync`: share it between search
/// threads by reference or `Arc`; after a table has been opened, probing it takes no lock.
#[derive(Debug, Default)]
pub struct Tablebase {
    entries: Vec<Entry>,
    by_key: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    max_pieces: usize,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Tables from a `:`-separated list of directories (as in the `SyzygyPath` UCI option).
    /// Directories that do not exist are skipped, as engines do with `SyzygyPath`.
    ///
    /// # Errors
    /// Fails if an existing directory cannot be read.
    pub fn open(path: &str) -> std::io::Result<Tablebase> {
        let mut tb = Tablebase::new();
        for dir in path.split(':').filter(|d| !d.is_empty()) {
            match tb.add_directory(dir) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                other => {
                    other?;
                }
            }
        }
        Ok(tb)
    }

    /// Register every `.rtbw` / `.rtbz` file of a directory whose name is a valid table name. Files are
    /// only opened on first probe. Returns the number of files added; a table already known from an
    /// earlier directory keeps its first path.
    ///
    /// # Errors
    /// Fails if the directory cannot be read.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> std::io::Result<usize> {
        let mut added = 0;
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        names.sort();
        for path in names {
            let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let (stem, kind) = if let Some(stem) = file_name.strip_suffix(".rtbw") {
                (stem, TableKind::Wdl)
            } else if let Some(stem) = file_name.strip_suffix(".rtbz") {
                (stem, TableKind::Dtz)
            } else {
                continue;
            };
            let Some(material) = Material::from_name(stem) else {
                continue;
            };
            if material.name() != stem {
                continue;
            }
            let key = material.key();
            let index = match self.by_key.get(&key) {
                Some(&i) if self.entries[i].key == key => i,
                Some(_) => continue, // the same material under its colour-swapped name
                None => {
                    self.entries.push(Entry {
                        name: stem.to_owned(),
                        key,
                        symmetric: material.is_symmetric(),
                        wdl: Slot::default(),
                        dtz: Slot::default(),
                    });
                    let i = self.entries.len() - 1;
                    self.by_key.insert(key, i);
                    self.by_key.entry(flip_key(key)).or_insert(i);
                    i
                }
            };
            let slot = match kind {
                TableKind::Wdl => &mut self.entries[index].wdl,
                TableKind::Dtz => &mut self.entries[index].dtz,
            };
            if slot.path.is_none() {
                slot.path = Some(path.clone());
                added += 1;
                self.max_pieces = self.max_pieces.max(material.piece_count());
            }
        }
        Ok(added)
    }

    /// Largest number of pieces of a registered table (0 if none).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Names of the registered materials, e.g. `KRvK`.
    pub fn table_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// Raw stored WDL value of a position, from the side to move's point of view, without capture or en
    /// passant resolution (the table may hold a "don't care" value where a capture decides the result).
    /// Only kings is a draw without a table.
    ///
    /// # Errors
    /// Invalid placements, missing or corrupted tables.
    pub fn probe_wdl_table(&self, pos: &RawPosition) -> Result<Wdl, ProbeError> {
        let Some((entry, placement)) = self.lookup(pos)? else {
            return Ok(Wdl::Draw);
        };
        let table = entry.wdl.get(&entry.name, TableKind::Wdl)?;
        let value = table
            .probe_wdl(&placement)
            .map_err(|error| bad(entry, TableKind::Wdl, error))?;
        Ok(Wdl::from_i8(value))
    }

    /// Raw DTZ table lookup for a position whose WDL is `wdl` (not a draw): the stored distance in plies
    /// (without the zeroing-move offset), or `None` when this table stores only the other side to move.
    ///
    /// # Errors
    /// Invalid placements, missing or corrupted tables.
    pub fn probe_dtz_table(&self, pos: &RawPosition, wdl: Wdl) -> Result<Option<u32>, ProbeError> {
        if wdl == Wdl::Draw {
            return Err(ProbeError::InvalidPosition("DTZ tables do not store draws"));
        }
        let Some((entry, placement)) = self.lookup(pos)? else {
            return Err(ProbeError::InvalidPosition("DTZ of a bare kings position"));
        };
        let table = entry.dtz.get(&entry.name, TableKind::Dtz)?;
        table
            .probe_dtz(&placement, wdl as i8)
            .map_err(|error| bad(entry, TableKind::Dtz, error))
    }

    /// Validate a position, find its table and orient the pieces to it. `None` for bare kings.
    #[inline(always)]
    fn lookup(&self, pos: &RawPosition) -> Result<Option<(&Entry, Placement)>, ProbeError> {
        let mut p = Placement {
            boards: [0; 16],
            len: 0,
            stm: 0,
        };
        let mut key = 0u64;
        let mut occupied = 0u64;
        let mut total = 0usize;
        for (colour, boards) in [(0u8, &pos.white), (BLACK, &pos.black)] {
            for (role, &bb) in boards.iter().enumerate() {
                if bb == 0 {
                    continue;
                }
                let count = sparse_count(bb) as usize;
                let code = role as u8 + 1 + colour;
                total += count;
                if total > MAX_PIECES {
                    let all = pos
                        .white
                        .iter()
                        .chain(&pos.black)
                        .map(|b| b.count_ones() as usize)
                        .sum();
                    return Err(ProbeError::TooManyPieces(all));
                }
                if occupied & bb != 0 {
                    return Err(ProbeError::InvalidPosition("two pieces on one square"));
                }
                occupied |= bb;
                key += (count as u64) << (4 * code);
                p.boards[usize::from(code)] = bb;
            }
        }
        p.len = total;
        const BACK_RANKS: u64 = 0xff00_0000_0000_00ff;
        if (pos.white[0] | pos.black[0]) & BACK_RANKS != 0 {
            return Err(ProbeError::InvalidPosition(
                "pawn on the first or last rank",
            ));
        }
        let single = |bb: u64| bb != 0 && bb & (bb - 1) == 0;
        if !single(pos.white[5]) || !single(pos.black[5]) {
            return Err(ProbeError::InvalidPosition(
                "each side needs exactly one king",
            ));
        }
        if total == 2 {
            return Ok(None);
        }
        let entry = match self.by_key.get(&key) {
            Some(&i) => &self.entries[i],
            None => return Err(ProbeError::MissingTable(material_name(key))),
        };
        let black_to_move = !pos.white_to_move;
        let flip = key != entry.key || (entry.symmetric && black_to_move);
        if flip {
            // Exchange the colours and mirror the ranks (a byte swap of a bitboard).
            let boards = p.boards;
            for (code, board) in p.boards.iter_mut().enumerate() {
                *board = boards[code ^ usize::from(BLACK)].swap_bytes();
            }
        }
        p.stm = usize::from(flip ^ black_to_move);
        Ok(Some((entry, p)))
    }
}

fn bad(entry: &Entry, kind: TableKind, error: TableError) -> ProbeError {
    ProbeError::BadTable {
        name: format!("{}{}", entry.name, kind.extension()),
        error,
    }
}

/// Name of the material of a key, stronger side first as in table file names (by material value
/// P=1, N=B=3, R=5, Q=9, then by piece count), for "missing table" messages.
fn material_name(key: u64) -> String {
    const VALUE: [u32; 8] = [0, 1, 3, 3, 5, 9, 0, 0];
    let counts: [u8; 16] = std::array::from_fn(|c| ((key >> (4 * c)) & 15) as u8);
    let strength = |side: &[u8]| {
        let value: u32 = side.iter().zip(VALUE).map(|(&n, v)| u32::from(n) * v).sum();
        let pieces: u32 = side.iter().map(|&n| u32::from(n)).sum();
        (value, pieces)
    };
    let oriented = if strength(&counts[8..]) > strength(&counts[..8]) {
        std::array::from_fn(|c| counts[c ^ 8])
    } else {
        counts
    };
    Material { counts: oriented }.name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_table_names_put_the_stronger_side_first() {
        let key = |name: &str| Material::from_name(name).unwrap().key();
        assert_eq!(material_name(key("KPPvKR")), "KRvKPP");
        assert_eq!(material_name(key("KRvKPP")), "KRvKPP");
        assert_eq!(material_name(key("KvKQ")), "KQvK");
    }
}
