//! Fuzz harnesses of every input path of ply: one function per target taking the raw bytes of an
//! input. The cargo-fuzz crate in `fuzz/` calls them under libFuzzer (coverage-guided, with
//! AddressSanitizer); this crate's tests replay every kept input (`fuzz/regressions/<target>/`)
//! and a seed corpus built from `../shared/` on a stable toolchain, so a fixed finding stays fixed.
//!
//! A harness panics only on a real bug: a panic inside the code under test, or a broken
//! invariant of what parsed (round trips, fast path == reference path). Inputs that would only
//! be slow (a 64 GiB hash, an unbounded search) are bounded first and the bound is documented
//! on the harness.
//!
//! ```
//! // every target takes any bytes without panicking
//! for target in ply_fuzz::TARGETS {
//!     (target.run)(b"position startpos\ngo depth 1\n");
//! }
//! ```
#![deny(missing_docs)]

pub mod chess;
pub mod othello;
pub mod seeds;

/// One fuzz target: its name (the file name under `fuzz/fuzz_targets/`) and its harness.
#[derive(Clone, Copy)]
pub struct Target {
    /// Name of the target.
    pub name: &'static str,
    /// The harness.
    pub run: fn(&[u8]),
}

/// Every target, in the order the documentation lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "fen",
        run: chess::fen,
    },
    Target {
        name: "book",
        run: chess::book,
    },
    Target {
        name: "records",
        run: chess::records,
    },
    Target {
        name: "uci",
        run: chess::uci,
    },
    Target {
        name: "syzygy",
        run: chess::syzygy,
    },
    Target {
        name: "obf",
        run: othello::obf,
    },
    Target {
        name: "ggf",
        run: othello::ggf,
    },
    Target {
        name: "wthor",
        run: othello::wthor,
    },
    Target {
        name: "weights",
        run: othello::weights,
    },
    Target {
        name: "labels",
        run: othello::labels,
    },
    Target {
        name: "openings",
        run: othello::openings,
    },
    Target {
        name: "gtp",
        run: othello::gtp,
    },
    Target {
        name: "nboard",
        run: othello::nboard,
    },
    Target {
        name: "text",
        run: othello::text,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}

/// The lines of an input (invalid UTF-8 replaced), without their line ends.
pub fn text_lines(data: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(data)
        .lines()
        .map(str::to_string)
        .collect()
}
