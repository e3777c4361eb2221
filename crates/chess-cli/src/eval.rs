//! `ply-chess eval`: the static evaluation of a position as a per-term table of middlegame and
//! endgame values for each side, the phase, the endgame scale and the final score.

use ply_chess::{FenError, Position, STARTPOS};
use ply_chess_engine::{trace, Term, MAX_PHASE};

/// Arguments of `ply-chess eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Position in FEN.
    #[arg(long, default_value = STARTPOS)]
    fen: String,
}

/// Runs the subcommand.
pub fn run(args: &EvalArgs) -> Result<(), FenError> {
    let pos = Position::from_fen(&args.fen)?;
    let t = trace(&pos);
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
    let stm = match pos.side_to_move() {
        ply_chess::Color::White => t.white_value,
        ply_chess::Color::Black => -t.white_value,
    };
    println!(
        "Final evaluation: {} cp (White's view), {} cp (side to move)",
        t.white_value, stm
    );
    Ok(())
}
