//! `ply-chess nnue-data convert`: `datagen` text files to the packed 32-byte records the NNUE
//! trainer reads (`ply_chess_tools::nnue::packed`).

use ply_chess_tools::nnue::dataset::{self, DataError};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ply-chess nnue-data`.
#[derive(clap::Args)]
pub struct NnueDataArgs {
    #[command(subcommand)]
    command: NnueDataCommand,
}

#[derive(clap::Subcommand)]
enum NnueDataCommand {
    /// Convert `datagen` text files (`FEN;score;result;game`) to one packed file, in order.
    Convert {
        /// Text files, one or more (`--in A.txt --in B.txt`).
        #[arg(long = "in", num_args = 1.., required = true)]
        inputs: Vec<PathBuf>,
        /// The packed file to write (replaced if it exists).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs the subcommand.
///
/// # Errors
/// I/O errors and the first bad line, with its file and number.
pub fn run(a: &NnueDataArgs) -> Result<(), DataError> {
    match &a.command {
        NnueDataCommand::Convert { inputs, out } => {
            let start = Instant::now();
            let bar = ply_batch::progress_bar(
                0,
                std::io::stderr().is_terminal(),
                "{spinner} {pos} positions [{elapsed}] {per_sec}",
            );
            let summary = dataset::convert(inputs, out, |n| bar.set_position(n))?;
            bar.finish_and_clear();
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{} positions ({} bytes) written to {} in {secs:.1} s{}",
                summary.positions,
                summary.positions * 32,
                out.display(),
                if summary.blank > 0 {
                    format!("; {} blank lines skipped", summary.blank)
                } else {
                    String::new()
                }
            );
            Ok(())
        }
    }
}
