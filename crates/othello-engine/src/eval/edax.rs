//! Reader and writer of Edax's `eval.dat`: a 28-byte header (u32 "EDAX", u32 "EVAL", u32
//! version, release, build, f64 date; all byte-swapped when the first word reads "XADE"), then
//! for each of the 61 plies (ply = 60 - empties) 114,364 `i16` in the packed symmetry-class
//! layout of Edax's 12 kinds of [`super::pattern::KINDS`] and the bias, mover's view, 1/128
//! disc. Read, they become weights whose extra kinds are zero; only such weights can be written.

use super::pattern::EDAX_PACKED_LEN;
use super::weights::{from_edax_layout, to_edax_layout, PackedWeights, N_PLIES};

/// First header word as read little-endian from a native (little-endian) file: "EDAX".
const EDAX: u32 = 0x4544_4158;
/// Second header word: "EVAL".
const EVAL: u32 = 0x4556_414C;
/// Header length in bytes.
const HEADER_LEN: usize = 28;
/// Whole file length.
pub const FILE_LEN: usize = HEADER_LEN + N_PLIES * EDAX_PACKED_LEN * 2;

/// Errors reading an `eval.dat`.
#[derive(Debug, thiserror::Error)]
pub enum EdaxError {
    /// The first two words are neither "EDAX EVAL" nor their byte-swapped form.
    #[error("not an Edax evaluation file (bad header)")]
    BadHeader,
    /// The file is not exactly header + 61 plies of weights long.
    #[error("eval.dat has {0} bytes, expected {FILE_LEN}")]
    BadLength(usize),
    /// Weights that use patterns beyond Edax's cannot be written as an `eval.dat`.
    #[error("these weights use patterns beyond Edax's, which eval.dat cannot hold")]
    ExtraPatterns,
}

/// Version fields of an `eval.dat` header.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdaxHeader {
    /// Version number.
    pub version: u32,
    /// Release number.
    pub release: u32,
    /// Build number.
    pub build: u32,
    /// Date field (Edax stores a floating-point date).
    pub date: f64,
}

/// A whole `eval.dat`: the header, the byte order it was stored in, and one packed stage per ply
/// (stage `i` = ply `i`, so the weights map `n` empties to stage `60 - n`).
#[derive(Clone, Debug, PartialEq)]
pub struct EdaxFile {
    /// Header fields.
    pub header: EdaxHeader,
    /// Whether the file is byte-swapped (big-endian words).
    pub swapped: bool,
    /// The weights, one stage per ply.
    pub weights: PackedWeights,
}

impl EdaxFile {
    /// Parses the bytes of an `eval.dat`.
    ///
    /// # Errors
    /// [`EdaxError::BadHeader`] or [`EdaxError::BadLength`] on a malformed file.
    pub fn parse(bytes: &[u8]) -> Result<EdaxFile, EdaxError> {
        if bytes.len() < 8 {
            return Err(EdaxError::BadLength(bytes.len()));
        }
        let w0 = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let w1 = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
        let swapped = if w0 == EDAX && w1 == EVAL {
            false
        } else if w0 == EDAX.swap_bytes() && w1 == EVAL.swap_bytes() {
            true
        } else {
            return Err(EdaxError::BadHeader);
        };
        if bytes.len() != FILE_LEN {
            return Err(EdaxError::BadLength(bytes.len()));
        }
        let u32_at = |i: usize| {
            let b = [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]];
            if swapped {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            }
        };
        let mut d = [0u8; 8];
        d.copy_from_slice(&bytes[20..28]);
        let date = if swapped {
            f64::from_be_bytes(d)
        } else {
            f64::from_le_bytes(d)
        };
        let header = EdaxHeader {
            version: u32_at(8),
            release: u32_at(12),
            build: u32_at(16),
            date,
        };
        let stages = bytes[HEADER_LEN..]
            .chunks_exact(EDAX_PACKED_LEN * 2)
            .map(|ply| {
                let edax: Vec<i16> = ply
                    .chunks_exact(2)
                    .map(|c| {
                        if swapped {
                            i16::from_be_bytes([c[0], c[1]])
                        } else {
                            i16::from_le_bytes([c[0], c[1]])
                        }
                    })
                    .collect();
                from_edax_layout(&edax).expect("chunks of Edax's stage length")
            })
            .collect();
        let mut stage_of_empties = [0u8; N_PLIES];
        for (e, s) in stage_of_empties.iter_mut().enumerate() {
            *s = (60 - e) as u8;
        }
        Ok(EdaxFile {
            header,
            swapped,
            weights: PackedWeights {
                stages,
                stage_of_empties,
            },
        })
    }

    /// An `eval.dat` of `weights` with a version-1 header, in the little-endian byte order Edax
    /// writes on x86.
    ///
    /// # Errors
    /// [`EdaxError::ExtraPatterns`] when the weights use the extra kinds.
    pub fn new(weights: PackedWeights) -> Result<EdaxFile, EdaxError> {
        if weights.has_extra() {
            return Err(EdaxError::ExtraPatterns);
        }
        Ok(EdaxFile {
            header: EdaxHeader {
                version: 1,
                release: 0,
                build: 0,
                date: 0.0,
            },
            swapped: false,
            weights,
        })
    }

    /// Serialises to the `eval.dat` layout: each ply gets the stage its number of empties uses
    /// (Edax's kinds and the bias; [`EdaxFile::new`] and [`EdaxFile::parse`] only make files
    /// whose extra kinds are zero).
    ///
    /// # Panics
    /// If the weights are not well formed (see [`PackedWeights::is_well_formed`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        assert!(self.weights.is_well_formed(), "malformed packed weights");
        let mut out = Vec::with_capacity(FILE_LEN);
        let put = |out: &mut Vec<u8>, v: u32| {
            out.extend_from_slice(&if self.swapped {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            })
        };
        put(&mut out, EDAX);
        put(&mut out, EVAL);
        put(&mut out, self.header.version);
        put(&mut out, self.header.release);
        put(&mut out, self.header.build);
        out.extend_from_slice(&if self.swapped {
            self.header.date.to_be_bytes()
        } else {
            self.header.date.to_le_bytes()
        });
        for ply in 0..N_PLIES {
            let stage = &self.weights.stages[self.weights.stage_of_empties[60 - ply] as usize];
            for v in to_edax_layout(stage) {
                out.extend_from_slice(&if self.swapped {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::features::tests::random_games;
    use crate::eval::weights::Weights;
    use ply_testkit::XorShift64;

    fn random_file(swapped: bool) -> Vec<u8> {
        let mut rng = XorShift64::new(0x1234_5678_9ABC_DEF1);
        let mut bytes = Vec::with_capacity(FILE_LEN);
        let words = [EDAX, EVAL, 4, 4, 0];
        for w in words {
            bytes.extend_from_slice(&if swapped {
                w.to_be_bytes()
            } else {
                w.to_le_bytes()
            });
        }
        let date = 20_231_122.5f64;
        bytes.extend_from_slice(&if swapped {
            date.to_be_bytes()
        } else {
            date.to_le_bytes()
        });
        while bytes.len() < FILE_LEN {
            bytes.push(rng.next() as u8);
        }
        bytes
    }

    #[test]
    fn round_trip_byte_for_byte_both_byte_orders() {
        for swapped in [false, true] {
            let bytes = random_file(swapped);
            let file = EdaxFile::parse(&bytes).expect("valid file");
            assert_eq!(file.swapped, swapped);
            assert_eq!(file.header.version, 4);
            assert_eq!(file.header.date, 20_231_122.5);
            assert!(
                file.to_bytes() == bytes,
                "round trip differs (swapped = {swapped})"
            );
        }
        // both byte orders decode to the same weights
        let a = EdaxFile::parse(&random_file(false)).unwrap();
        let mut b = a.clone();
        b.swapped = true;
        assert_eq!(EdaxFile::parse(&b.to_bytes()).unwrap().weights, a.weights);
    }

    #[test]
    fn written_file_evaluates_identically() {
        let mut packed = crate::eval::weights::tests::random_packed(99);
        assert!(matches!(
            EdaxFile::new(packed.clone()),
            Err(EdaxError::ExtraPatterns)
        ));
        for stage in &mut packed.stages {
            *stage = from_edax_layout(&to_edax_layout(stage)).unwrap();
        }
        let file = EdaxFile::new(packed.clone()).unwrap();
        let back = EdaxFile::parse(&file.to_bytes()).unwrap();
        let (w1, w2) = (Weights::new(&packed), Weights::new(&back.weights));
        random_games(20, 5, |p, o, _| {
            assert_eq!(w1.evaluate_board(p, o), w2.evaluate_board(p, o))
        });
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(matches!(
            EdaxFile::parse(b"EDA"),
            Err(EdaxError::BadLength(3))
        ));
        assert!(matches!(
            EdaxFile::parse(&[0u8; 64]),
            Err(EdaxError::BadHeader)
        ));
        let mut bytes = random_file(false);
        bytes.pop();
        assert!(matches!(
            EdaxFile::parse(&bytes),
            Err(EdaxError::BadLength(_))
        ));
    }
}
