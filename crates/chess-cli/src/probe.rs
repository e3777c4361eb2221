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
    let mut out = BufWriter::new(stdout.lock());
    if let Some(fen) = &args.fen {
        writeln!(out, "{}", probe_line(&tb, fen.trim()))?;
    }
    if let Some(path) = &args.file {
        let file = std::fs::File::open(path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        for line in BufReader::new(file).lines() {
            let line = line?;
            let fen = line.split(';').next().unwrap_or("").trim();
            if fen.is_empty() {
                continue;
            }
            writeln!(out, "{}", probe_line(&tb, fen))?;
        }
    }
    out.flush()
}

/// The output line of one position.
fn probe_line(tb: &Tablebase, fen: &str) -> String {
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => return format!("{fen};error;invalid FEN: {e}"),
    };
    match tb
        .probe_wdl(&pos)
        .and_then(|wdl| Ok((wdl, tb.probe_dtz(&pos)?)))
    {
        Ok((wdl, dtz)) => format!("{fen};{wdl};{dtz}"),
        Err(e) => format!("{fen};error;{e}"),
    }
}
