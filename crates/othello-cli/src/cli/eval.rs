//! `ply-othello eval FILE.obf [--json]`: the static evaluation of every position of an OBF file,
//! in file order, one line each (discs, side to move's view, as a decimal). When the file
//! annotates exact scores, a table of mean absolute errors per number of empties goes to
//! standard error, so that anyone can measure the evaluation on positions of their own. A line
//! that does not parse is reported on standard error and skipped, a line that annotates an
//! illegal move is evaluated but its scores are not used (the exit status is then 1); a file
//! without any position is an error.

use super::CliError;
use clap::Args;
use ply_othello::parse_obf_line;
use ply_othello_engine::eval::{embedded_weights, parse_weights, LoadError, Weights};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// OBF file (`<board> <X|O>; A2:+38; ...` per line; the annotations are optional).
    file: PathBuf,
    /// One JSON object a line (`index`, `empties`, `score`, `exact` when annotated).
    #[arg(long)]
    json: bool,
    /// Evaluation weights instead of the built-in ones (ply or Edax `eval.dat` format).
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

/// One evaluated position, as printed with `--json`.
#[derive(Serialize)]
struct Line {
    /// 1-based number of the position in the file (comment lines not counted).
    index: usize,
    /// 1-based line number in the file.
    line: usize,
    /// Empty squares.
    empties: u32,
    /// Static evaluation in discs, side to move's view.
    score: f64,
    /// The file's best annotated score, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<i32>,
}

/// Error sums of one number of empties.
#[derive(Default)]
struct Errors {
    n: usize,
    abs: f64,
    square: f64,
}

impl Errors {
    /// Count, mean absolute error and root mean square error, aligned under the header.
    fn row(&self) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{:>9}  {:>11.3}  {:.3}",
            self.n,
            self.abs / n,
            (self.square / n).sqrt()
        )
    }
}

/// Runs `eval`.
pub fn run(a: &EvalArgs) -> Result<ExitCode, CliError> {
    let packed = match &a.eval_file {
        Some(path) => parse_weights(&super::read(path)?)?,
        None => embedded_weights().map_err(LoadError::from)?,
    };
    let weights = Weights::new(&packed);
    let text = super::read_text(&a.file)?;
    let mut errors: BTreeMap<u32, Errors> = BTreeMap::new();
    let mut out = std::io::stdout().lock();
    let (mut index, mut bad_lines) = (0, 0);
    for (lineno, text) in text.lines().enumerate() {
        let problem = match parse_obf_line(text) {
            Ok(Some(p)) => p,
            Ok(None) => continue,
            Err(e) => {
                bad_lines += 1;
                eprintln!("{}:{}: {e} (line skipped)", a.file.display(), lineno + 1);
                continue;
            }
        };
        index += 1;
        let board = problem.position.board;
        let empties = board.empty_count();
        let score = f64::from(weights.evaluate_board(board.player(), board.opponent())) / 128.0;
        let mut exact = problem.best_score();
        if let Some(&mv) = problem.illegal_annotations().first() {
            // the annotations are wrong: the position is evaluated but not measured against them
            bad_lines += 1;
            exact = None;
            eprintln!(
                "{}:{}: the annotated move {} is not legal in this position (scores not used)",
                a.file.display(),
                lineno + 1,
                mv
            );
        }
        if let Some(e) = exact {
            let err = errors.entry(empties).or_default();
            let d = score - f64::from(e);
            err.n += 1;
            err.abs += d.abs();
            err.square += d * d;
        }
        let written = if a.json {
            let line = Line {
                index,
                line: lineno + 1,
                empties,
                score,
                exact,
            };
            let json = serde_json::to_string(&line).expect("plain fields serialise");
            writeln!(out, "{json}")
        } else {
            writeln!(out, "{score:+.2}")
        };
        if written.is_err() {
            // standard output closed (`| head`): nothing more to say
            return Ok(ExitCode::SUCCESS);
        }
    }
    if index == 0 {
        return Err(CliError::NoPositions(a.file.display().to_string()));
    }
    if !errors.is_empty() {
        eprintln!("empties  positions  MAE (discs)  RMSE");
        let mut all = Errors::default();
        for (empties, e) in &errors {
            eprintln!("{empties:>7}  {}", e.row());
            all.n += e.n;
            all.abs += e.abs;
            all.square += e.square;
        }
        eprintln!("    all  {}", all.row());
    }
    Ok(if bad_lines == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
