//! The `ply` binary: `ply serve [--bind ADDR] [--threads N] [--hash MiB]`.

use clap::Parser;

fn main() -> std::process::ExitCode {
    ply_web::cli::run(ply_web::cli::Cli::parse())
}
