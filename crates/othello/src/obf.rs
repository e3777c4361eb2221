//! Edax OBF lines: `<64 squares> <X|O>; A2:+38; C7:+36; ...`, each annotation being a move and its
//! exact score from the side to move. Lines starting with `%` (and empty lines) are comments.

use crate::{ParseError, Position, Square};

/// One OBF problem: the position and its annotated (move, score) list, in file order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Obf {
    /// Board and side to move.
    pub position: Position,
    /// Annotated moves (square, or [`Square::PASS`]) with their scores, as listed.
    pub moves: Vec<(Square, i32)>,
}

impl Obf {
    /// The best annotated score (None when there are no annotations).
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, s)| s).max()
    }

    /// The annotated moves that reach the best score.
    pub fn best_moves(&self) -> Vec<Square> {
        let best = self.best_score();
        self.moves
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }

    /// The file's best move: the first annotated move with the best score.
    pub fn best_move(&self) -> Option<Square> {
        let best = self.best_score()?;
        self.moves
            .iter()
            .find(|&&(_, s)| s == best)
            .map(|&(m, _)| m)
    }

    /// The annotated score of `mv` (the first annotation of it), if the file gives one.
    pub fn annotation(&self, mv: Square) -> Option<i32> {
        self.moves.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }

    /// Whether `mv` (a square or [`Square::PASS`]) can be played in the problem's position: a pass
    /// only when the side to move has no move and the game is not over.
    pub fn is_legal(&self, mv: Square) -> bool {
        let board = &self.position.board;
        if mv.is_pass() {
            board.moves() == 0 && !board.is_game_over()
        } else {
            board.moves() & mv.bit() != 0
        }
    }

    /// The annotated moves that cannot be played in the position, in file order: such a line
    /// is wrong whatever a solver answers.
    pub fn illegal_annotations(&self) -> Vec<Square> {
        self.moves
            .iter()
            .map(|&(m, _)| m)
            .filter(|&m| !self.is_legal(m))
            .collect()
    }

    /// Checks a solver's exact answer, `score` with `best_move` (`None`: no move to judge, e.g.
    /// a pass), against the annotations. An annotation of an illegal move makes the line
    /// wrong ([`Verdict::IllegalAnnotation`]) before anything else; then the score is judged;
    /// a wrong score is not judged further.
    pub fn check(&self, score: i32, best_move: Option<Square>) -> Verdict {
        if let Some(&mv) = self.illegal_annotations().first() {
            return Verdict::IllegalAnnotation { annotated: mv };
        }
        let (Some(best), Some(file_move)) = (self.best_score(), self.best_move()) else {
            return Verdict::Unannotated;
        };
        if score != best {
            return Verdict::WrongScore { expected: best };
        }
        let Some(mv) = best_move else {
            return Verdict::Correct;
        };
        if mv == file_move {
            return Verdict::Correct;
        }
        match self.annotation(mv) {
            Some(s) if s == best => Verdict::AlternativeBest { annotated: true },
            Some(_) => Verdict::WrongMove {
                expected: file_move,
            },
            None => Verdict::AlternativeBest { annotated: false },
        }
    }

    /// Checks a win/draw/loss answer: only the sign of `score` is judged (after the legality
    /// of the annotated moves, as in [`Obf::check`]).
    pub fn check_wdl(&self, score: i32) -> Verdict {
        if let Some(&mv) = self.illegal_annotations().first() {
            return Verdict::IllegalAnnotation { annotated: mv };
        }
        match self.best_score() {
            None => Verdict::Unannotated,
            Some(best) if best.signum() == score.signum() => Verdict::Correct,
            Some(best) => Verdict::WrongScore { expected: best },
        }
    }

    /// The annotations a solver's per-move scores (`scores`: move and exact score) disagree
    /// with, as (move, file score, solver score or `None` when it gave none), in file order.
    pub fn wrong_annotations(&self, scores: &[(Square, i32)]) -> Vec<(Square, i32, Option<i32>)> {
        self.moves
            .iter()
            .filter_map(|&(m, s)| {
                let got = scores.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v);
                (got != Some(s)).then_some((m, s, got))
            })
            .collect()
    }
}

/// How a solver's answer compares with the annotations of an [`Obf`] problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The best score with the file's best move ([`Obf::best_move`]).
    Correct,
    /// The best score with another move that reaches it: one the file also annotates with the
    /// best score (`annotated`), or one the file does not annotate at all (its score is then
    /// the solver's word).
    AlternativeBest {
        /// Whether the file annotates the move (with the best score).
        annotated: bool,
    },
    /// A score other than the file's best score (for win/draw/loss: another sign).
    WrongScore {
        /// The file's best score.
        expected: i32,
    },
    /// The best score, but with a move the file annotates with a lower score.
    WrongMove {
        /// The file's best move.
        expected: Square,
    },
    /// The file annotates no move: nothing to check.
    Unannotated,
    /// The file annotates a move that cannot be played in the position (the first such).
    IllegalAnnotation {
        /// The illegal move (a square or [`Square::PASS`]).
        annotated: Square,
    },
}

impl Verdict {
    /// True for a wrong score, a wrong move or an illegal annotated move.
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Verdict::WrongScore { .. }
                | Verdict::WrongMove { .. }
                | Verdict::IllegalAnnotation { .. }
        )
    }
}

impl core::fmt::Display for Obf {
    /// Writes the line back in Edax's form (`<board> X; G8:+18; H1:+12;`).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{};", self.position)?;
        for &(m, s) in &self.moves {
            write!(f, " {m}:{s:+};")?;
        }
        Ok(())
    }
}

/// Reads a move token of an annotation: "A1".."H8" or "PS"/"PA" (pass), case-insensitive.
fn parse_move_token(t: &str) -> Option<Square> {
    if t.eq_ignore_ascii_case("ps") || t.eq_ignore_ascii_case("pa") {
        return Some(Square::PASS);
    }
    Square::from_coordinate(t.as_bytes())
}

/// Parses one OBF line; `Ok(None)` for a comment or empty line.
///
/// # Errors
/// A [`ParseError`] describing the first problem in the line.
pub fn parse_obf_line(line: &str) -> Result<Option<Obf>, ParseError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('%') {
        return Ok(None);
    }
    let (position, rest) = Position::parse_prefix(line)?;
    let mut moves = Vec::new();
    let mut parts = rest.split(';');
    // Text between the side token and the first ';' must be empty.
    if let Some(first) = parts.next() {
        if !first.trim().is_empty() {
            return Err(ParseError::Trailing(first.trim().to_string()));
        }
    }
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let bad = || ParseError::BadAnnotation(part.to_string());
        let (mv, score) = part.split_once(':').ok_or_else(bad)?;
        let mv = parse_move_token(mv.trim()).ok_or_else(bad)?;
        let score = score.trim();
        let digits = score.strip_prefix('+').unwrap_or(score);
        // Scores are disc differences: at most 64 in absolute value.
        let score: i32 = digits
            .parse()
            .ok()
            .filter(|s: &i32| s.abs() <= 64)
            .ok_or_else(bad)?;
        moves.push((mv, score));
    }
    Ok(Some(Obf { position, moves }))
}

/// Parses a whole OBF file, skipping comment and empty lines.
///
/// # Errors
/// [`ParseError::AtLine`] with the 1-based line number of the first bad line.
pub fn parse_obf(text: &str) -> Result<Vec<Obf>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_obf_line(line) {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err(e) => return Err(ParseError::AtLine(i + 1, Box::new(e))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn ffo_line() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
        let o = parse_obf_line(line).unwrap().unwrap();
        assert_eq!(o.position.side, Color::Black);
        assert_eq!(o.moves.len(), 8);
        assert_eq!(o.moves[0], (Square::G8, 18));
        assert_eq!(o.moves[7], (Square::G2, -24));
        assert_eq!(o.best_moves(), vec![Square::G8]);
        assert_eq!(o.to_string(), line);
        assert_eq!(parse_obf_line("% comment"), Ok(None));
        assert_eq!(parse_obf_line("   "), Ok(None));
    }

    /// FFO #1: Black to move; G8 (62), H1 (7), H7 (55) and A2 (8) are among its legal moves,
    /// A1 (0) and B2 (9) are not.
    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

    #[test]
    fn verdicts() {
        let o = parse_obf_line(&format!("{FFO1}; G8:+18; H1:+18; H7:-2;"))
            .unwrap()
            .unwrap();
        assert_eq!(o.best_move(), Some(Square::G8));
        assert_eq!(o.check(18, Some(Square::G8)), Verdict::Correct);
        assert_eq!(o.check(18, None), Verdict::Correct);
        assert_eq!(
            o.check(18, Some(Square::H1)),
            Verdict::AlternativeBest { annotated: true }
        );
        assert_eq!(
            o.check(18, Some(Square::A2)),
            Verdict::AlternativeBest { annotated: false }
        );
        assert_eq!(
            o.check(18, Some(Square::H7)),
            Verdict::WrongMove {
                expected: Square::G8
            }
        );
        assert_eq!(
            o.check(2, Some(Square::G8)),
            Verdict::WrongScore { expected: 18 }
        );
        assert!(
            o.check(2, Some(Square::G8)).is_error() && !o.check(18, Some(Square::A2)).is_error()
        );
        assert_eq!(o.check_wdl(1), Verdict::Correct);
        assert_eq!(o.check_wdl(0), Verdict::WrongScore { expected: 18 });
        assert_eq!(
            o.wrong_annotations(&[(Square::G8, 18), (Square::H1, 18), (Square::H7, -2)]),
            vec![]
        );
        assert_eq!(
            o.wrong_annotations(&[(Square::G8, 18), (Square::H7, -4)]),
            vec![(Square::H1, 18, None), (Square::H7, -2, Some(-4))]
        );
        let bare = parse_obf_line(&format!("{FFO1};")).unwrap().unwrap();
        assert_eq!(bare.check(0, Some(Square::G8)), Verdict::Unannotated);
        assert_eq!(bare.check_wdl(0), Verdict::Unannotated);
    }

    #[test]
    fn an_illegal_annotated_move_is_an_error_not_an_alternative() {
        // A1 is not a legal move of FFO #1: whatever the solver answers, the line is wrong
        let o = parse_obf_line(&format!("{FFO1}; A1:+18; G8:+18;"))
            .unwrap()
            .unwrap();
        assert!(o.is_legal(Square::G8) && !o.is_legal(Square::A1) && !o.is_legal(Square::PASS));
        assert_eq!(o.illegal_annotations(), vec![Square::A1]);
        for verdict in [
            o.check(18, Some(Square::G8)),
            o.check(18, Some(Square::A2)),
            o.check_wdl(1),
        ] {
            assert_eq!(
                verdict,
                Verdict::IllegalAnnotation {
                    annotated: Square::A1
                }
            );
            assert!(verdict.is_error());
        }
        // a pass is legal only when the side to move has no move and the game goes on
        let over = parse_obf_line(&format!("{}XX X; PS:-2;", "-".repeat(62)))
            .unwrap()
            .unwrap();
        assert_eq!(
            over.illegal_annotations(),
            vec![Square::PASS],
            "the game is over"
        );
        let must_pass = parse_obf_line(&format!("OX{} X; PS:-2;", "-".repeat(62)))
            .unwrap()
            .unwrap();
        assert_eq!(must_pass.illegal_annotations(), vec![], "White can play C1");
    }

    #[test]
    fn bad_annotations() {
        let board = "-".repeat(64);
        for bad in ["Z9:+1", "A1+3", "A1:+x", "A1:+65", "A1:99999999999"] {
            let line = format!("{board} O; {bad};");
            assert_eq!(
                parse_obf_line(&line),
                Err(ParseError::BadAnnotation(bad.to_string()))
            );
        }
        assert_eq!(
            parse_obf_line(&format!("{board} O junk; A1:+1")),
            Err(ParseError::Trailing("junk".into()))
        );
        assert_eq!(
            parse_obf_line(&format!("{board} O; PS:+0"))
                .unwrap()
                .unwrap()
                .moves,
            vec![(Square::PASS, 0)]
        );
    }
}
