//! Edax OBF lines: `<64 squares> <X|O>; A2:+38; C7:+36; ...`, each annotation being a move and its
//! exact score from the side to move. Lines starting with `%` (and empty lines) are comments.

use crate::square::{square_from_bytes, PASS};
use crate::{ParseError, Position};

/// One OBF problem: the position and its annotated (move, score) list, in file order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Obf {
    /// Board and side to move.
    pub position: Position,
    /// Annotated moves (square, or [`PASS`]) with their scores, as listed.
    pub moves: Vec<(usize, i32)>,
}

impl Obf {
    /// The best annotated score (None when there are no annotations).
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, s)| s).max()
    }

    /// The annotated moves that reach the best score.
    pub fn best_moves(&self) -> Vec<usize> {
        let best = self.best_score();
        self.moves
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }
}

impl core::fmt::Display for Obf {
    /// Writes the line back in Edax's form (`<board> X; G8:+18; H1:+12;`).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{};", self.position)?;
        for &(m, s) in &self.moves {
            write!(f, " {}:{s:+};", crate::square_name(m))?;
        }
        Ok(())
    }
}

/// Reads a move token of an annotation: "A1".."H8" or "PS"/"PA" (pass), case-insensitive.
fn parse_move_token(t: &str) -> Option<usize> {
    if t.eq_ignore_ascii_case("ps") || t.eq_ignore_ascii_case("pa") {
        return Some(PASS);
    }
    square_from_bytes(t.as_bytes())
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
        assert_eq!(o.moves[0], (62, 18));
        assert_eq!(o.moves[7], (14, -24));
        assert_eq!(o.best_moves(), vec![62]);
        assert_eq!(o.to_string(), line);
        assert_eq!(parse_obf_line("% comment"), Ok(None));
        assert_eq!(parse_obf_line("   "), Ok(None));
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
            vec![(PASS, 0)]
        );
    }
}
