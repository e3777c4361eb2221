//! A learned evaluation (NNUE, "efficiently updatable neural network"), format v2 of ply: one
//! hidden layer seen from both sides, `(768 -> H) x 2 -> 1`, squared clipped ReLU (SCReLU),
//! 16-bit integer weights and `N` output heads ("buckets") chosen by the number of pieces.
//!
//! The crate does no I/O: a front end reads the file and hands its bytes to
//! [`Network::from_bytes`]. This is the contract between the engine and the trainer (issue 35),
//! restated in full: both sides must agree on every line.
//!
//! # Inputs
//!
//! A piece of colour `c` (White 0, Black 1) and type `t` (pawn 0, knight 1, bishop 2, rook 3,
//! queen 4, king 5) on square `s` (a1 = 0, b1 = 1, ..., h8 = 63) switches on one of 768 inputs
//! for each perspective `p` ([`feature_index`]):
//!
//! ```text
//! index(p, c, t, s) = 384 * [c is not p] + 64 * t + (s mirrored top to bottom when p is Black)
//! ```
//!
//! so each side sees its own pieces in the first half and the board from its own back rank.
//! A perspective's accumulator is the feature bias plus the weight rows of its active inputs,
//! summed in `i16` (wrapping; the trainer's clipping keeps real networks far from the limits).
//!
//! # Output
//!
//! ```text
//! bucket  = min((pieces on the board - 2) / (32 / N), N - 1)
//! v       = clamp(acc, 0, QA)                          per hidden unit, QA = 255
//! s       = sum over units of (v * v * w) >> 8         side to move's half with out_w[bucket][..H],
//!           (each term exact in i32, the sum wrapping) the opponent's with out_w[bucket][H..]
//! eval    = (s + out_bias[bucket]) * SCALE / D         in i64; QB = 1024, SCALE = 400,
//!                                                      D = QA * QA * QB >> 8 = 260,100
//! ```
//!
//! in centipawns from the side to move's point of view, the division truncating toward zero, `>>`
//! arithmetic (flooring). `v * v * w` fits `i32` for every `i16` weight, so every kernel returns
//! the same value for every file.
//!
//! The float model behind it: `a = clamp(x, 0, 1)^2`, `out = a_stm . w[..H] + a_opp . w[H..] + b`,
//! `eval = out * 400`; quantised as feature weights and bias `round(x * QA)`, output weights
//! `round(x * QB)`, output bias `round(x * D)`. With `QB = 1024` the rounding of the output
//! weights costs a fraction of a centipawn; format v1 (`QB = 64`, the `i16` product `v * w`)
//! cost about 10 cp on average for a trained 256-wide network, which is why v2 exists.
//!
//! # File
//!
//! Little-endian throughout; the usual extension is `.nnue`.
//!
//! ```text
//! offset  type      field
//! 0       [u8; 8]   magic "PLYNNUE2"
//! 8       u32       H, hidden units per perspective (a multiple of 16, 16..=2048)
//! 12      u32       N, output buckets (1, 2, 4 or 8)
//! 16      u32       QA = 255
//! 20      u32       QB = 1024
//! 24      u32       SCALE = 400
//! 28      u32       activation = 1 (SCReLU)
//! 32      i16       feature weights [768][H]   (one input's H weights together)
//!         i16       feature bias [H]
//!         i16       output weights [N][2H]     (per bucket: side to move's H, then opponent's H)
//!         i32       output bias [N]
//! end     u64       FNV-1a 64 of every byte before it
//! ```
//!
//! The length is exactly `32 + 2 * (768H + H + 2HN) + 4N + 8`. [`Network::from_bytes`] checks
//! all of it and answers a malformed file with an [`NnueError`], never a panic.
//!
//! Format v1 (magic `PLYNNUE1`, `QB = 64`, output biases `i16` at scale `QA * QB`, the rest as
//! above) is still read: its output weights are multiplied by 16 and its biases by 255/16, which
//! evaluates within about a centipawn of v1's own formula.
//!
//! # In the search
//!
//! The search keeps an accumulator pair per ply and updates it lazily from the parent's
//! (see `accumulator.rs`); the additions and the output use the [`Kernel`] picked once per
//! process (AVX-512, AVX2 or portable, same bits).

//! # The built-in network
//!
//! [`EMBEDDED`] is the network the programs play with by default (`default.nnue` beside this
//! file, compiled in; `nets/README.md` at the repository root gives the data and the commands that
//! made it). [`Network::embedded`] reads it.

mod accumulator;
mod feature;
mod network;
mod simd;

pub use feature::{feature_index, output_bucket, FEATURES};
pub use network::{
    fnv1a, Network, NnueError, ACTIVATION_SCRELU, MAGIC, MAGIC_V1, OUTPUT_DIVISOR, OUTPUT_SHIFT,
    QA, QB, QB_V1, SCALE,
};

pub(crate) use accumulator::{AccumulatorStack, Delta};
pub use simd::Kernel;

/// The bytes of the built-in network (a `PLYNNUE2` file; see the module docs).
pub static EMBEDDED: &[u8] = include_bytes!("default.nnue");
