//! Training positions in memory (the 32-byte records of [`packed`](super::packed), checked once
//! when read), the conversion of `datagen` text files to packed files, and the held-out split.

use super::packed::{Outcome, PackedError, PackedPosition, RECORD_BYTES};
use crate::datagen::{RecordError, Sample};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Most positions a [`Dataset`] holds: record indices fit in 31 bits, the top bit of an epoch
/// order's entry being [`MIRRORED`](super::model::MIRRORED).
pub const MAX_POSITIONS: usize = (1 << 31) - 1;

/// Why data could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A file could not be opened, read or written.
    #[error("{0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    /// A packed file whose length is not a multiple of 32 bytes.
    #[error("{0}: {1} bytes is not a whole number of 32-byte records")]
    Length(PathBuf, u64),
    /// A bad record in a packed file (0-based record number).
    #[error("{path}: record {index}: {source}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's number.
        index: u64,
        /// What is wrong with it.
        #[source]
        source: PackedError,
    },
    /// More positions than a training run indexes (2^31 - 1: an epoch order keeps a flag bit).
    #[error("more than {} positions in the data files", MAX_POSITIONS)]
    TooMany,
    /// A text line that is not a `datagen` line (1-based line number).
    #[error("{path}:{line}: {source}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line's number.
        line: u64,
        /// What is wrong with it.
        #[source]
        source: RecordError,
    },
    /// A text line whose position cannot be packed.
    #[error("{path}:{line}: {source}")]
    Pack {
        /// The file.
        path: PathBuf,
        /// The line's number.
        line: u64,
        /// Why it cannot be packed.
        #[source]
        source: PackedError,
    },
    /// No positions at all.
    #[error("no positions")]
    Empty,
}

/// Checked records in memory, 32 bytes a position.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    records: Vec<[u8; RECORD_BYTES]>,
}

impl Dataset {
    /// Checks every record; records beyond [`MAX_POSITIONS`] are dropped.
    ///
    /// # Errors
    /// The number of the first bad record and what is wrong with it.
    pub fn from_records(
        mut records: Vec<[u8; RECORD_BYTES]>,
    ) -> Result<Dataset, (u64, PackedError)> {
        records.truncate(MAX_POSITIONS);
        for (i, r) in records.iter().enumerate() {
            PackedPosition::decode(r).map_err(|e| (i as u64, e))?;
        }
        Ok(Dataset { records })
    }

    /// Reads packed files one after the other; `progress` gets the positions read so far.
    ///
    /// # Errors
    /// I/O errors, a length that is not a multiple of 32, a bad record.
    pub fn load(paths: &[PathBuf], mut progress: impl FnMut(u64)) -> Result<Dataset, DataError> {
        let mut records = Vec::new();
        for path in paths {
            let io = |e| DataError::Io(path.clone(), e);
            let file = std::fs::File::open(path).map_err(io)?;
            let len = file.metadata().map_err(io)?.len();
            if len % RECORD_BYTES as u64 != 0 {
                return Err(DataError::Length(path.clone(), len));
            }
            let first = records.len();
            if first as u64 + len / RECORD_BYTES as u64 > MAX_POSITIONS as u64 {
                return Err(DataError::TooMany);
            }
            records.reserve((len / RECORD_BYTES as u64) as usize);
            let mut reader = BufReader::with_capacity(1 << 20, file);
            let mut rec = [0u8; RECORD_BYTES];
            for index in 0..len / RECORD_BYTES as u64 {
                reader.read_exact(&mut rec).map_err(io)?;
                PackedPosition::decode(&rec).map_err(|source| DataError::Record {
                    path: path.clone(),
                    index,
                    source,
                })?;
                records.push(rec);
                if index % (1 << 20) == 0 {
                    progress(records.len() as u64);
                }
            }
            debug_assert_eq!(records.len() - first, (len / 32) as usize);
        }
        progress(records.len() as u64);
        Ok(Dataset { records })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The `i`-th record.
    ///
    /// # Panics
    /// When `i >= len()`.
    #[inline]
    pub fn record(&self, i: usize) -> &[u8; RECORD_BYTES] {
        &self.records[i]
    }

    /// Splits the positions into training and held-out ones: a game is held out when a hash
    /// of its index falls below `fraction` of the hash range, so all its positions go to the
    /// same side and the split is the same in every run on the same files.
    pub fn split(&self, fraction: f64) -> (Vec<u32>, Vec<u32>) {
        let limit = (fraction.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        let (mut train, mut held) = (Vec::new(), Vec::new());
        for (i, r) in self.records.iter().enumerate() {
            let game = u32::from_le_bytes([r[28], r[29], r[30], r[31]]);
            if fraction > 0.0 && ply_batch::splitmix(u64::from(game) ^ 0x6e6e_7565) < limit {
                held.push(i as u32);
            } else {
                train.push(i as u32);
            }
        }
        (train, held)
    }
}

/// What a conversion did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    /// Positions written.
    pub positions: u64,
    /// Blank lines skipped.
    pub blank: u64,
}

/// Converts `datagen` text files (`FEN;score;result;game`) into one packed file `out`, in
/// the order of the lines; `progress` gets the positions written so far, every 65 536 lines.
///
/// # Errors
/// I/O errors, and the first line that is not a `datagen` line or does not pack (a score
/// outside i16, a game index outside u32), with its file and line number.
pub fn convert(
    inputs: &[PathBuf],
    out: &Path,
    mut progress: impl FnMut(u64),
) -> Result<ConvertSummary, DataError> {
    let io_out = |e| DataError::Io(out.to_path_buf(), e);
    let mut writer = BufWriter::with_capacity(1 << 20, std::fs::File::create(out).map_err(io_out)?);
    let mut summary = ConvertSummary::default();
    for path in inputs {
        let io = |e| DataError::Io(path.clone(), e);
        let reader = BufReader::with_capacity(1 << 20, std::fs::File::open(path).map_err(io)?);
        for (n, line) in reader.lines().enumerate() {
            let line = line.map_err(io)?;
            if line.trim().is_empty() {
                summary.blank += 1;
                continue;
            }
            let number = n as u64 + 1;
            let bytes = pack_line(&line).map_err(|e| match e {
                LineError::Parse(source) => DataError::Line {
                    path: path.clone(),
                    line: number,
                    source,
                },
                LineError::Pack(source) => DataError::Pack {
                    path: path.clone(),
                    line: number,
                    source,
                },
            })?;
            writer.write_all(&bytes).map_err(io_out)?;
            summary.positions += 1;
            if summary.positions % (1 << 16) == 0 {
                progress(summary.positions);
            }
        }
    }
    writer.flush().map_err(io_out)?;
    progress(summary.positions);
    Ok(summary)
}

enum LineError {
    Parse(RecordError),
    Pack(PackedError),
}

/// The record of one `datagen` line.
fn pack_line(line: &str) -> Result<[u8; RECORD_BYTES], LineError> {
    let sample: Sample = line.parse().map_err(LineError::Parse)?;
    let pos = ply_chess::Position::from_fen(&sample.fen)
        .map_err(|_| LineError::Parse(RecordError::Position(sample.fen.clone())))?;
    let outcome = Outcome::from_white_score(sample.result).map_err(LineError::Pack)?;
    PackedPosition::from_position(&pos, sample.score, outcome, sample.game)
        .map(|p| p.encode())
        .map_err(LineError::Pack)
}
