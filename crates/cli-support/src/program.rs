//! Exit statuses and the start of a program, one convention for both programs of the workspace:
//! 0 success, 1 a runtime error (an unreadable file, a bad line or a wrong score in a batch
//! command), 2 a usage error (clap's own errors, values out of range, misplaced options).

use std::process::ExitCode;

/// Exit status of a runtime error.
pub const RUNTIME_ERROR: u8 = 1;

/// Exit status of a usage error.
pub const USAGE_ERROR: u8 = 2;

/// Reports a command-line error of clap's as `<program>: <clap's text>` on standard error with
/// the exit status of a usage error; `--help` and `--version` go to standard output with status
/// 0, as clap prints them (the process exits there).
pub fn usage_error(program: &str, e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    eprint!("{}", prefixed(program, &e.render().to_string()));
    ExitCode::from(USAGE_ERROR)
}

/// clap's rendered error text under the program's prefix instead of clap's own `error: `.
fn prefixed(program: &str, text: &str) -> String {
    format!(
        "{program}: {}",
        text.strip_prefix("error: ").unwrap_or(text)
    )
}

/// Lets a closed standard output (`... | head`) end the program quietly, as it does any Unix
/// tool, instead of making the next write fail or a `println!` panic: restores the default action
/// of `SIGPIPE`, which Rust's runtime sets to ignore. Call it first thing in `main`, before any
/// thread exists. Does nothing elsewhere than on Unix.
pub fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called at the start of `main`, before any other thread exists, so no thread can be
    // changing or relying on the signal's disposition; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Args {
        #[arg(long)]
        depth: u8,
    }

    #[test]
    fn clap_text_goes_under_the_program_prefix() {
        let e = Args::try_parse_from(["x", "--depth", "zz"]).unwrap_err();
        let text = prefixed("ply-test", &e.render().to_string());
        assert!(text.starts_with("ply-test: invalid value 'zz'"), "{text}");
        assert!(!text.contains("error: "), "{text}");
        assert_eq!(prefixed("p", "no prefix here"), "p: no prefix here");
    }
}
