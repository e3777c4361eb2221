//! `ply-chess eval`: the static evaluation of a position as a per-term table of middlegame and
//! endgame values for each side, the phase, the endgame scale and the final score; with
//! `--json`, the same as one JSON object. With `--eval-file`, the network's evaluation of the
//! position is printed beside the hand-made one (JSON: `network`, side to move's view).

use ply_chess::{FenError, Position, STARTPOS};
use ply_chess_cli::evalfile::{self, EvalFileError};
use ply_chess_engine::{trace, Score, Term, MAX_PHASE, SCALE_NORMAL};

/// Arguments of `ply-chess eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Position in FEN.
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// Print one JSON object: each term's mg, eg and tapered total (White minus Black, and
    /// per side), the phase, the scale and the final score.
    #[arg(long)]
    json: bool,
    /// A network file (or `<embedded>`) whose evaluation is printed beside the hand-made one;
    /// default: none.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<String>,
}

/// What can stop `eval`.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The FEN is not a position.
    #[error("invalid FEN: {0}")]
    Fen(#[from] FenError),
    /// The `--eval-file` gives no network.
    #[error("--eval-file {0}")]
    EvalFile(#[from] EvalFileError),
    /// The JSON report cannot be made (never, in practice).
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Middlegame and endgame halves of a packed value and their blend at the position's phase.
#[derive(serde::Serialize)]
struct Tapered {
    mg: i32,
    eg: i32,
    total: i32,
}

/// One evaluation term in the JSON report.
#[derive(serde::Serialize)]
struct JsonTerm {
    name: &'static str,
    white: Tapered,
    black: Tapered,
    /// White minus Black.
    #[serde(flatten)]
    net: Tapered,
}

/// The JSON report.
#[derive(serde::Serialize)]
struct JsonEval {
    fen: String,
    terms: Vec<JsonTerm>,
    /// Sum of the terms (White minus Black), blended.
    total: Tapered,
    phase: i32,
    max_phase: i32,
    scale: i32,
    scale_normal: i32,
    /// Final evaluation in centipawns from White's side.
    white: i32,
    /// Final evaluation in centipawns from the side to move.
    side_to_move: i32,
    /// The network's evaluation from the side to move (with `--eval-file`).
    #[serde(skip_serializing_if = "Option::is_none")]
    network: Option<i32>,
}

/// Runs the subcommand.
///
/// # Errors
/// [`EvalError::Fen`] for a FEN that is not a position, [`EvalError::EvalFile`] for an
/// `--eval-file` that is not a network.
pub fn run(args: &EvalArgs) -> Result<(), EvalError> {
    let pos = Position::from_fen(&args.fen)?;
    let network = match &args.eval_file {
        Some(value) => evalfile::load(value)?,
        None => None,
    };
    let net_eval = network.as_deref().map(|net| net.evaluate(&pos));
    let t = trace(&pos);
    let stm = match pos.side_to_move() {
        ply_chess::Color::White => t.white_value,
        ply_chess::Color::Black => -t.white_value,
    };
    if args.json {
        let blend = |s: Score| Tapered {
            mg: i32::from(s.mg()),
            eg: i32::from(s.eg()),
            total: s.taper_scaled(t.phase, MAX_PHASE, t.scale, SCALE_NORMAL),
        };
        let report = JsonEval {
            fen: pos.to_fen(),
            terms: Term::ALL
                .iter()
                .zip(t.terms)
                .map(|(term, [w, b])| JsonTerm {
                    name: term.name(),
                    white: blend(w),
                    black: blend(b),
                    net: blend(w - b),
                })
                .collect(),
            total: blend(t.total),
            phase: t.phase,
            max_phase: MAX_PHASE,
            scale: t.scale,
            scale_normal: SCALE_NORMAL,
            white: t.white_value,
            side_to_move: stm,
            network: net_eval,
        };
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "{:<12} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
        "Term", "W mg", "W eg", "B mg", "B eg", "mg", "eg"
    );
    println!("{}", "-".repeat(62));
    for (i, term) in Term::ALL.iter().enumerate() {
        let [w, b] = t.terms[i];
        let d = w - b;
        println!(
            "{:<12} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            term.name(),
            w.mg(),
            w.eg(),
            b.mg(),
            b.eg(),
            d.mg(),
            d.eg()
        );
    }
    println!("{}", "-".repeat(62));
    println!(
        "{:<12} | {:>29} | {:>6} {:>6}",
        "Total",
        "",
        t.total.mg(),
        t.total.eg()
    );
    println!(
        "Phase {} / {MAX_PHASE}, endgame scale {} / 64",
        t.phase, t.scale
    );
    println!(
        "Final evaluation: {} cp (White's view), {} cp (side to move)",
        t.white_value, stm
    );
    if let (Some(net), Some(v)) = (network.as_deref(), net_eval) {
        let white = match pos.side_to_move() {
            ply_chess::Color::White => v,
            ply_chess::Color::Black => -v,
        };
        println!(
            "Network evaluation: {white} cp (White's view), {v} cp (side to move) [{}]",
            evalfile::describe(Some(net))
        );
    }
    Ok(())
}
