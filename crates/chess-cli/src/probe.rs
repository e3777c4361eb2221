//! `ply-chess probe`: WDL and DTZ of positions from Syzygy tables, one output line per position:
//! `FEN;wdl;dtz`, or `FEN;error;<message>` when the position cannot be probed.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
}

/// Runs the subcommand; fails only when the tables or the input file cannot be read.
pub fn run(args: &ProbeArgs) -> ExitCode {
    match try_run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn try_run(args: &ProbeArgs) -> std::io::Result<()> {
    let tb = Tablebase::open(&args.syzygy)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if let Some(fen) = &args.fen {
        probe_line(&tb, fen.trim(), &mut out)?;
    }
    if let Some(path) = &args.file {
        let file = std::fs::File::open(path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut input = BufReader::with_capacity(1 << 16, file);
        // One buffer for every line: no allocation per position.
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            // Like `BufRead::lines`: a line that is not UTF-8 ends the run with an error.
            let text = std::str::from_utf8(&line).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                )
            })?;
            // The first field, trimmed (which also drops the line ending).
            let fen = text.split(';').next().unwrap_or("").trim();
            if fen.is_empty() {
                continue;
            }
            probe_line(&tb, fen, &mut out)?;
        }
    }
    out.flush()
}

/// Writes the output line of one position.
fn probe_line(tb: &Tablebase, fen: &str, out: &mut impl Write) -> std::io::Result<()> {
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => return writeln!(out, "{fen};error;invalid FEN: {e}"),
    };
    match tb.probe_wdl_dtz(&pos) {
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
            out.write_all(&buf[..len])
        }
        Err(e) => writeln!(out, "{fen};error;{e}"),
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
