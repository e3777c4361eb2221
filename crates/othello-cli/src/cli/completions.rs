//! `ply-othello completions <SHELL>`: the shell completion script of the program
//! (clap_complete), written to standard output, e.g.
//! `ply-othello completions bash > ~/.local/share/bash-completion/completions/ply-othello`.

use super::CliError;
use clap_complete::Shell;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `ply-othello completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the completion script of `command` (the whole program's, named `bin`) for the shell.
///
/// # Errors
/// [`CliError::Write`] when standard output refuses the script.
pub fn run(
    args: &CompletionsArgs,
    command: &mut clap::Command,
    bin: &str,
) -> Result<ExitCode, CliError> {
    // generated in memory first: clap_complete panics on a failed write
    let mut script = Vec::new();
    clap_complete::generate(args.shell, command, bin, &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)
        .and_then(|()| out.flush())
        .map_err(|source| CliError::Write {
            path: "standard output".into(),
            source,
        })?;
    Ok(ExitCode::SUCCESS)
}
