//! `ply-chess probe`: WDL and DTZ of positions from Syzygy tables, one output line per position:
//! `FEN;wdl;dtz`, or `FEN;error;<message>` when the position cannot be probed; with `--json`, one
//! JSON object a line instead (`{"fen":..,"wdl":..,"dtz":..}` or `{"fen":..,"error":..}`). Every
//! position is answered; when some could not be probed the run ends with an error (exit 1).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use ply_chess::Position;
use ply_syzygy::Tablebase;

/// Arguments of `ply-chess probe`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["fen", "file"])))]
pub struct ProbeArgs {
    /// Table directories, `:`-separated (like the UCI `SyzygyPath` option).
    #[arg(long)]
    syzygy: String,
    /// One position in FEN.
    #[arg(long)]
    fen: Option<String>,
    /// A file with one position per line; only the first `;`-separated field (the FEN) is read.
    #[arg(long)]
    file: Option<PathBuf>,
    /// One JSON object a line instead of `FEN;wdl;dtz`.
    #[arg(long)]
    json: bool,
}

/// What can stop `probe` or make it fail.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// A table directory exists but cannot be read.
    #[error("cannot open the Syzygy tables {0}: {1}")]
    Tables(String, #[source] std::io::Error),
    /// No table in the path (a mistyped path would otherwise fail every position).
    #[error("no Syzygy table (*.rtbw) found in {0}")]
    NoTables(String),
    /// The input file cannot be read.
    #[error("cannot read {0}: {1}")]
    Input(PathBuf, #[source] std::io::Error),
    /// Standard output cannot be written.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    /// Some positions were answered with an error line.
    #[error("{failed} of {total} positions could not be probed (their lines say why)")]
    Failed {
        /// Positions answered with an error.
        failed: u64,
        /// Positions read.
        total: u64,
    },
}

/// One answer in `--json` form.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    fen: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    wdl: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dtz: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Runs the subcommand.
///
/// # Errors
/// Tables or input that cannot be read, and [`ProbeError::Failed`] after the last position when
/// some positions (a bad FEN, a position the tables do not hold) could not be probed.
pub fn run(args: &ProbeArgs) -> Result<(), ProbeError> {
    let tb =
        Tablebase::open(&args.syzygy).map_err(|e| ProbeError::Tables(args.syzygy.clone(), e))?;
    if tb.max_pieces() == 0 {
        return Err(ProbeError::NoTables(args.syzygy.clone()));
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut total, mut failed) = (0u64, 0u64);
    let mut answer = |fen: &str, out: &mut BufWriter<_>| -> std::io::Result<()> {
        total += 1;
        if !probe_line(&tb, fen, args.json, out)? {
            failed += 1;
        }
        Ok(())
    };
    if let Some(fen) = &args.fen {
        answer(fen.trim(), &mut out)?;
    }
    if let Some(path) = &args.file {
        let input_error = |e| ProbeError::Input(path.clone(), e);
        let file = std::fs::File::open(path).map_err(input_error)?;
        let mut input = BufReader::with_capacity(1 << 16, file);
        // One buffer for every line: no allocation per position.
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line).map_err(input_error)? == 0 {
                break;
            }
            // A line that is not UTF-8 is a line that cannot be probed, not the end of the run.
            let text = String::from_utf8_lossy(&line);
            // The first field, trimmed (which also drops the line ending).
            let fen = text.split(';').next().unwrap_or("").trim();
            if fen.is_empty() {
                continue;
            }
            answer(fen, &mut out)?;
        }
    }
    out.flush()?;
    if failed > 0 {
        return Err(ProbeError::Failed { failed, total });
    }
    Ok(())
}

/// Writes the output line of one position; `Ok(false)` when it is an error line.
fn probe_line(
    tb: &Tablebase,
    fen: &str,
    json: bool,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    let result = Position::from_fen(fen)
        .map_err(|e| format!("invalid FEN: {e}"))
        .and_then(|pos| tb.probe_wdl_dtz(&pos).map_err(|e| e.to_string()));
    if json {
        let line = match &result {
            Ok((wdl, dtz)) => JsonLine {
                fen,
                wdl: Some(i32::from(*wdl as i8)),
                dtz: Some(dtz.0),
                error: None,
            },
            Err(e) => JsonLine {
                fen,
                wdl: None,
                dtz: None,
                error: Some(e.clone()),
            },
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
        return Ok(result.is_ok());
    }
    match result {
        Ok((wdl, dtz)) => {
            // Formatted by hand: this is the line written for every position.
            let mut buf = [0u8; 24];
            let mut len = 0;
            buf[len] = b';';
            len += 1;
            len += write_int(i32::from(wdl as i8), &mut buf[len..]);
            buf[len] = b';';
            len += 1;
            len += write_int(dtz.0, &mut buf[len..]);
            buf[len] = b'\n';
            len += 1;
            out.write_all(fen.as_bytes())?;
            out.write_all(&buf[..len])?;
            Ok(true)
        }
        Err(e) => {
            writeln!(out, "{fen};error;{e}")?;
            Ok(false)
        }
    }
}

/// Writes `v` in decimal at the start of `buf` (at least 11 bytes); returns the length.
fn write_int(v: i32, buf: &mut [u8]) -> usize {
    let mut digits = [0u8; 10];
    let mut n = v.unsigned_abs();
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut len = 0;
    if v < 0 {
        buf[0] = b'-';
        len = 1;
    }
    for &d in digits[..count].iter().rev() {
        buf[len] = d;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::write_int;

    #[test]
    fn integers_are_written_like_display() {
        for v in [0, 1, -1, 9, -10, 101, -1234, i32::MAX, i32::MIN] {
            let mut buf = [0u8; 11];
            let len = write_int(v, &mut buf);
            assert_eq!(std::str::from_utf8(&buf[..len]).unwrap(), v.to_string());
        }
    }
}
