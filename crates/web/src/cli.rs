//! The command line: `ply serve [--bind ADDR] [--threads N] [--hash MiB] [--max-searches N]
//! [--syzygy DIR] [--othello-book FILE]`.

use crate::book::{BookLoadError, ServerBook};
use crate::limits::{Config, MAX_HASH_MIB, MAX_THREADS};
use crate::pool::PoolError;
use crate::state::AppState;
use crate::tablebase::SyzygyError;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use thiserror::Error;

/// `ply`: chess and Othello in a browser.
#[derive(Debug, Parser)]
#[command(
    name = "ply",
    version = ply_cli_support::VERSION,
    about = "ply: chess and Othello engines in a browser"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the pages and the API (loopback only unless --bind says otherwise).
    Serve(ServeArgs),
}

/// Options of `ply serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Threads of each search.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table of each search slot, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Searches that may run at once (others wait briefly, then get 503).
    #[arg(long, default_value_t = 2)]
    pub max_searches: usize,
    /// Syzygy table directory (several: separated by `:`): every chess search uses the tables,
    /// and the chess page shows their results for positions with few enough pieces.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
    /// Othello opening book (ply's own book file, Edax's book.dat or Edax's text form): ply plays
    /// from it while it holds the position, hints show its values, and the page can add games
    /// to it when the file is in ply's own format. Default: the book built into ply (which
    /// does not learn).
    #[arg(long, value_name = "FILE", conflicts_with = "no_othello_book")]
    pub othello_book: Option<std::path::PathBuf>,
    /// Play Othello without an opening book (every move searched).
    #[arg(long)]
    pub no_othello_book: bool,
}

/// Why `ply` stopped with an error.
#[derive(Debug, Error)]
pub enum CliError {
    /// The tables could not be allocated.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The Syzygy tables could not be opened.
    #[error(transparent)]
    Syzygy(#[from] SyzygyError),
    /// The Othello book could not be read.
    #[error(transparent)]
    Book(#[from] BookLoadError),
    /// The runtime could not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The error.
        source: std::io::Error,
    },
    /// The server failed.
    #[error("server error: {0}")]
    Serve(std::io::Error),
}

impl ServeArgs {
    /// The server settings these options give (clamped to sane bounds).
    pub fn config(&self) -> Config {
        Config {
            threads: self.threads.clamp(1, MAX_THREADS),
            hash_mib: self.hash.clamp(2, MAX_HASH_MIB),
            max_searches: self.max_searches.clamp(1, 64),
            ..Config::default()
        }
    }

    /// The Othello opening book: none with `--no-othello-book`, the file of `--othello-book`,
    /// else the book shipped with ply ([`crate::book::default_book`]).
    ///
    /// # Errors
    /// [`BookLoadError`] naming the file when it cannot be read or is not a book (or the
    /// built-in book when its bytes do not decode).
    pub fn othello_book(&self) -> Result<Option<ServerBook>, BookLoadError> {
        if self.no_othello_book {
            return Ok(None);
        }
        match &self.othello_book {
            Some(path) => ServerBook::load(path).map(Some),
            None => crate::book::default_book()
                .map(Some)
                .map_err(|source| BookLoadError::Format {
                    path: "(built in)".into(),
                    source,
                }),
        }
    }
}

/// Runs the command line; the exit code is 0 after a clean shutdown (Ctrl-C).
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Serve(args) => match serve(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ply: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn serve(args: &ServeArgs) -> Result<(), CliError> {
    let tablebase = args
        .syzygy
        .as_deref()
        .map(crate::tablebase::open)
        .transpose()?;
    let book = args.othello_book()?;
    let mut state = AppState::new(args.config())?;
    let mut tables_note = None;
    if let Some(tb) = tablebase {
        tables_note = Some(format!(
            "ply: Syzygy tables up to {} pieces ({} materials)",
            tb.max_pieces(),
            tb.table_names().count()
        ));
        state = state.with_tablebase(tb);
    }
    let mut book_note = None;
    if let Some(book) = book {
        let info = book.info();
        book_note = Some(format!(
            "ply: Othello book{}: {} positions, level {}{}",
            book.file()
                .map_or(" (built in)".to_string(), |f| format!(" {}", f.display())),
            info.positions,
            info.level,
            if info.learnable { ", learns games" } else { "" }
        ));
        state = state.with_othello_book(book);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .map_err(|source| CliError::Bind {
                addr: args.bind.clone(),
                source,
            })?;
        let addr = listener.local_addr().map_err(CliError::Serve)?;
        println!("ply: serving on http://{addr}/ (chess: /chess, Othello: /othello)");
        // the notes are for people: a closed standard output (a test that read the address)
        // must not stop the server
        for note in tables_note.iter().chain(&book_note) {
            let _ = writeln!(std::io::stdout(), "{note}");
        }
        if !addr.ip().is_loopback() {
            eprintln!("ply: warning: {addr} is reachable beyond this machine; ply has no login");
        }
        let _ = std::io::stdout().flush();
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        crate::server::serve(listener, state, shutdown)
            .await
            .map_err(CliError::Serve)
    })
}
