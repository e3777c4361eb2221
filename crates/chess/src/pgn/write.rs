//! Writing PGN in export format: the seven-tag roster first (unknown values as `?`), the other
//! tags in their order, then the moves in SAN with their numbers, `$n` glyphs, `{}` comments and
//! `( )` variations, in lines of at most 80 characters, and the result.

use super::{Line, PgnGame};
use crate::{Color, Position, STARTPOS};
use std::fmt;

/// The seven-tag roster, in the order PGN's export format writes it, with the value of a tag
/// that is unknown.
pub(super) const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Longest line of move text.
const WIDTH: usize = 80;

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, unknown) in ROSTER {
            let value = match name {
                "Result" => self.result.as_str(),
                _ => self.tag(name).unwrap_or(unknown),
            };
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        for (name, value) in &self.tags {
            if !ROSTER.iter().any(|(n, _)| n == name) {
                writeln!(f, "[{name} \"{}\"]", escape(value))?;
            }
        }
        let fen = self.start.to_fen();
        if fen != STARTPOS && self.tag("FEN").is_none() {
            writeln!(f, "[SetUp \"1\"]\n[FEN \"{fen}\"]")?;
        }
        writeln!(f)?;
        let mut tokens = Vec::new();
        line_tokens(&mut tokens, &self.start, &self.line);
        tokens.push(self.result.as_str().to_string());
        let mut width = 0;
        let mut glue = false;
        for t in &tokens {
            // no space after '(' nor before ')'
            let space = width > 0 && !glue && t != ")";
            if width > 0 && width + usize::from(space) + t.len() > WIDTH {
                writeln!(f)?;
                width = 0;
            } else if space {
                f.write_str(" ")?;
                width += 1;
            }
            f.write_str(t)?;
            width += t.len();
            glue = t == "(";
        }
        writeln!(f)
    }
}

/// A comment as tokens (its words, the first opening the braces and the last closing them); a
/// `}` inside cannot be written and is left out.
fn comment_tokens(tokens: &mut Vec<String>, text: &str) {
    let clean = text.replace('}', "");
    let words: Vec<&str> = clean.split_whitespace().collect();
    if words.is_empty() {
        return;
    }
    let last = words.len() - 1;
    for (i, w) in words.iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i == last { "}" } else { "" };
        tokens.push(format!("{open}{w}{close}"));
    }
}

/// The tokens of `line`, played from `pos`.
fn line_tokens(tokens: &mut Vec<String>, pos: &Position, line: &Line) {
    for c in &line.comments {
        comment_tokens(tokens, c);
    }
    let mut pos = *pos;
    let mut numbered = false;
    for m in &line.moves {
        match pos.side_to_move() {
            Color::White => tokens.push(format!("{}.", pos.fullmove_number())),
            Color::Black if !numbered => tokens.push(format!("{}...", pos.fullmove_number())),
            Color::Black => {}
        }
        tokens.push(pos.san(m.mv));
        tokens.extend(m.nags.iter().map(|n| format!("${n}")));
        numbered = true;
        for c in &m.comments {
            comment_tokens(tokens, c);
            numbered = false;
        }
        for v in &m.variations {
            tokens.push("(".into());
            line_tokens(tokens, &pos, v);
            tokens.push(")".into());
            numbered = false;
        }
        pos = pos.play(m.mv);
    }
}
