//! ply's own compressed weight format, small enough to ship inside the binary.
//!
//! Layout (little-endian): magic `PLYOEVAL`, u32 version, u16 number of stages, u16
//! quantum `q`, 61 bytes stage of each number of empties, u32 compressed length, then a zlib
//! stream of the stages' packed tables as `v / q` zigzag-encoded `u16`, split into a low-byte
//! plane followed by a high-byte plane (rarely used high bytes compress to almost nothing).
//! Version 1 stages hold Edax's kinds and the bias (`eval.dat`'s layout, the extra kinds zero);
//! version 2 stages the full layout. [`encode`] writes version 1 when the extra kinds are zero.

use super::pattern::{EDAX_PACKED_LEN, PACKED_LEN};
use super::weights::{from_edax_layout, to_edax_layout, PackedWeights, N_PLIES};

const MAGIC: &[u8; 8] = b"PLYOEVAL";
/// Stages in `eval.dat`'s layout.
const VERSION_EDAX: u32 = 1;
/// Stages in the full layout.
const VERSION_FULL: u32 = 2;
const HEADER_LEN: usize = 8 + 4 + 2 + 2 + N_PLIES + 4;
/// Most stages a file may hold.
const MAX_STAGES: usize = N_PLIES;

/// Errors decoding ply's weight format.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FormatError {
    /// Not a ply weight file, or an unknown version.
    #[error("not a ply evaluation file (bad magic or version)")]
    BadMagic,
    /// The header or the data is inconsistent.
    #[error("corrupted ply evaluation file: {0}")]
    Corrupted(&'static str),
}

/// Encodes packed weights. Every value must be a multiple of `quantum` (>= 1).
///
/// # Panics
/// If the weights are malformed, `quantum` is 0 or a value is not a multiple of it.
pub fn encode(w: &PackedWeights, quantum: u16) -> Vec<u8> {
    assert!(w.is_well_formed() && w.stages.len() <= MAX_STAGES && quantum >= 1);
    let full = w.has_extra();
    let stages: Vec<Vec<i16>> = if full {
        w.stages.clone()
    } else {
        w.stages.iter().map(|s| to_edax_layout(s)).collect()
    };
    let n: usize = stages.iter().map(Vec::len).sum();
    let mut planes = vec![0u8; 2 * n];
    for (i, &v) in stages.iter().flatten().enumerate() {
        assert_eq!(i32::from(v) % i32::from(quantum), 0, "value not quantised");
        let q = (i32::from(v) / i32::from(quantum)) as i16;
        let z = ((q << 1) ^ (q >> 15)) as u16;
        planes[i] = z as u8;
        planes[n + i] = (z >> 8) as u8;
    }
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&planes, 9);
    let mut out = Vec::with_capacity(HEADER_LEN + data.len());
    out.extend_from_slice(MAGIC);
    let version = if full { VERSION_FULL } else { VERSION_EDAX };
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(w.stages.len() as u16).to_le_bytes());
    out.extend_from_slice(&quantum.to_le_bytes());
    out.extend_from_slice(&w.stage_of_empties);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&data);
    out
}

/// Decodes weights written by [`encode`].
///
/// # Errors
/// [`FormatError`] on any malformed input (never panics).
pub fn decode(bytes: &[u8]) -> Result<PackedWeights, FormatError> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    let stage_len = match u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) {
        VERSION_EDAX => EDAX_PACKED_LEN,
        VERSION_FULL => PACKED_LEN,
        _ => return Err(FormatError::BadMagic),
    };
    let n_stages = usize::from(u16::from_le_bytes([bytes[12], bytes[13]]));
    let quantum = i32::from(u16::from_le_bytes([bytes[14], bytes[15]]));
    if n_stages == 0 || n_stages > MAX_STAGES || quantum == 0 {
        return Err(FormatError::Corrupted("stage count or quantum"));
    }
    let mut stage_of_empties = [0u8; N_PLIES];
    stage_of_empties.copy_from_slice(&bytes[16..16 + N_PLIES]);
    if stage_of_empties.iter().any(|&s| usize::from(s) >= n_stages) {
        return Err(FormatError::Corrupted("stage index"));
    }
    let p = 16 + N_PLIES;
    let len = u32::from_le_bytes([bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]]) as usize;
    if bytes.len() != HEADER_LEN + len {
        return Err(FormatError::Corrupted("length"));
    }
    let n = n_stages * stage_len;
    let planes =
        miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&bytes[HEADER_LEN..], 2 * n)
            .map_err(|_| FormatError::Corrupted("compressed data"))?;
    if planes.len() != 2 * n {
        return Err(FormatError::Corrupted("decompressed size"));
    }
    let mut stages = Vec::with_capacity(n_stages);
    for s in 0..n_stages {
        let mut t = Vec::with_capacity(stage_len);
        for i in s * stage_len..(s + 1) * stage_len {
            let z = u16::from(planes[i]) | u16::from(planes[n + i]) << 8;
            let q = i32::from((z >> 1) as i16 ^ -((z & 1) as i16));
            let v = q * quantum;
            t.push(i16::try_from(v).map_err(|_| FormatError::Corrupted("value range"))?);
        }
        if stage_len != PACKED_LEN {
            t = from_edax_layout(&t).ok_or(FormatError::Corrupted("stage length"))?;
        }
        stages.push(t);
    }
    Ok(PackedWeights {
        stages,
        stage_of_empties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let mut w = crate::eval::weights::tests::random_packed(3);
        for v in w.stages.iter_mut().flatten() {
            *v = *v / 4 * 4;
        }
        w.stages[0][0] = i16::MIN;
        w.stages[1][5] = 32764;
        let bytes = encode(&w, 4);
        assert_eq!(decode(&bytes).unwrap(), w);
        assert_eq!(bytes[8], 2, "extra kinds: version 2");
        // without extra kinds: version 1, Edax's layout, decoded back to the same weights
        let mut edax = w.clone();
        for stage in &mut edax.stages {
            *stage = from_edax_layout(&to_edax_layout(stage)).unwrap();
        }
        let short = encode(&edax, 4);
        assert_eq!(short[8], 1);
        assert_eq!(decode(&short).unwrap(), edax);
        assert_eq!(decode(&bytes[..10]), Err(FormatError::BadMagic));
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 20] ^= 0x55;
        assert!(decode(&bad).is_err());
        let mut bad = bytes.clone();
        bad[16] = 200;
        assert_eq!(decode(&bad), Err(FormatError::Corrupted("stage index")));
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    }
}
