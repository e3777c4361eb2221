//! `ply-fuzz`: writes the seed corpora of the fuzz targets and replays inputs through a target
//! without libFuzzer (to reproduce a finding on a stable toolchain).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ply-fuzz",
    about = "Seed corpora and replays of ply's fuzz targets"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write every target's seeds to OUT/<target>/ (the corpus folders of `cargo fuzz run`).
    Seeds {
        /// The reference data folder.
        #[arg(long, default_value = "../shared")]
        shared: PathBuf,
        /// Corpus root.
        #[arg(long, default_value = "fuzz/corpus")]
        out: PathBuf,
    },
    /// Run each file (or every file of each folder) through the target once.
    Run {
        /// Target name (`ply-fuzz list`).
        target: String,
        /// Input files or folders.
        inputs: Vec<PathBuf>,
    },
    /// List the targets.
    List,
}

fn main() -> ExitCode {
    match Args::parse().command {
        Command::List => {
            for t in ply_fuzz::TARGETS {
                println!("{}", t.name);
            }
        }
        Command::Seeds { shared, out } => {
            let mut seeds = ply_fuzz::seeds::builtin();
            seeds.extend(ply_fuzz::seeds::from_shared(&shared));
            for s in &seeds {
                let dir = out.join(s.target);
                if let Err(e) = std::fs::create_dir_all(&dir)
                    .and_then(|_| std::fs::write(dir.join(&s.name), &s.data))
                {
                    eprintln!("ply-fuzz: {}: {e}", dir.display());
                    return ExitCode::FAILURE;
                }
            }
            println!("{} seeds written under {}", seeds.len(), out.display());
        }
        Command::Run { target, inputs } => {
            let Some(t) = ply_fuzz::target(&target) else {
                eprintln!("ply-fuzz: unknown target {target:?} (ply-fuzz list)");
                return ExitCode::FAILURE;
            };
            let mut files = Vec::new();
            for p in inputs {
                match std::fs::read_dir(&p) {
                    Ok(dir) => files.extend(dir.filter_map(|e| e.ok().map(|e| e.path()))),
                    Err(_) => files.push(p),
                }
            }
            files.sort();
            for f in &files {
                match std::fs::read(f) {
                    Ok(data) => {
                        (t.run)(&data);
                        println!("ok {}", f.display());
                    }
                    Err(e) => {
                        eprintln!("ply-fuzz: {}: {e}", f.display());
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
    }
    ExitCode::SUCCESS
}
