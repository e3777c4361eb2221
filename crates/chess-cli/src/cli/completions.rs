//! `ply-chess completions <SHELL>`: the shell completion script of the program (clap_complete),
//! written to standard output, e.g. `ply-chess completions bash > ~/.local/share/bash-completion/completions/ply-chess`.

use clap_complete::Shell;
use std::io::Write;

/// Arguments of `ply-chess completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Why the script could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CompletionsError {
    /// Standard output refused the script.
    #[error("cannot write the completion script: {0}")]
    Write(#[from] std::io::Error),
}

/// Writes the completion script of `command` (the whole program's, named `bin`) for the shell.
pub fn run(
    args: &CompletionsArgs,
    command: &mut clap::Command,
    bin: &str,
) -> Result<(), CompletionsError> {
    // generated in memory first: clap_complete panics on a failed write
    let mut script = Vec::new();
    clap_complete::generate(args.shell, command, bin, &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
