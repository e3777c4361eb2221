//! Reading PGN: a tokenizer over the text (tags, `{}` and `;` comments, `%` escape lines, `( )`,
//! `$n`, symbols) and a parser that plays each move on the board of its line, keeping a stack of
//! the variations open.

use super::{Line, PgnError, PgnErrorKind, PgnGame, PgnMove};
use crate::{Color, GameResult, Position};

/// The games of a PGN text, one at a time ([`read`]).
pub struct Reader<'a> {
    lex: Lexer<'a>,
    game: usize,
}

/// Reads the games of `text` one by one: each is a [`PgnGame`], or a [`PgnError`] naming the
/// game, line and move at fault, after which reading goes on at the next game's tags.
pub fn read(text: &str) -> Reader<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Reader {
        lex: Lexer {
            text,
            at: 0,
            line: 1,
        },
        game: 0,
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.lex.skip_space();
        if self.lex.at >= self.lex.text.len() {
            return None;
        }
        self.game += 1;
        let mut in_moves = false;
        match parse_game(&mut self.lex, &mut in_moves) {
            Ok(game) => Some(Ok(game)),
            Err((line, kind)) => {
                self.lex.skip_game(in_moves);
                Some(Err(PgnError {
                    game: self.game,
                    line,
                    kind,
                }))
            }
        }
    }
}

/// A token and the line it starts on.
#[derive(Debug)]
enum Token<'a> {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Nag(u8),
    Symbol(&'a str),
    End,
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

/// Characters that end a symbol.
fn ends_symbol(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$' | '"')
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn bump(&mut self, n: usize) {
        let taken = &self.text[self.at..self.at + n];
        self.line += taken.matches('\n').count();
        self.at += n;
    }

    /// Skips white space and `%` escape lines (a `%` in the first column hides its line).
    fn skip_space(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.bump(rest.len() - trimmed.len());
            let line_start = self.at == 0 || self.text.as_bytes()[self.at - 1] == b'\n';
            if line_start && self.rest().starts_with('%') {
                let end = self.rest().find('\n').unwrap_or(self.rest().len());
                self.bump(end);
                continue;
            }
            return;
        }
    }

    /// The next token, or what is malformed, with the line it starts on.
    fn next(&mut self) -> Result<(Token<'a>, usize), (usize, PgnErrorKind)> {
        self.skip_space();
        let line = self.line;
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            return Ok((Token::End, line));
        };
        let token = match c {
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                self.bump(end);
                Token::Comment(tidy(&rest[1..end]))
            }
            '{' => {
                let Some(end) = rest.find('}') else {
                    return Err((line, PgnErrorKind::OpenComment));
                };
                self.bump(end + 1);
                Token::Comment(tidy(&rest[1..end]))
            }
            '(' => {
                self.bump(1);
                Token::Open
            }
            ')' => {
                self.bump(1);
                Token::Close
            }
            '[' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                let (name, value, used) = tag(rest)
                    .ok_or_else(|| (line, PgnErrorKind::Tag(rest[..end].trim().into())))?;
                self.bump(used);
                Token::Tag(name, value)
            }
            '$' => {
                let digits = rest[1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len() - 1);
                let text = &rest[..1 + digits];
                self.bump(text.len());
                match text[1..].parse::<u8>() {
                    Ok(n) => Token::Nag(n),
                    Err(_) => return Err((line, PgnErrorKind::Unexpected(text.into()))),
                }
            }
            _ => {
                let end = rest.find(ends_symbol).unwrap_or(rest.len());
                if end == 0 {
                    self.bump(c.len_utf8());
                    return Err((line, PgnErrorKind::Unexpected(c.to_string())));
                }
                self.bump(end);
                Token::Symbol(&rest[..end])
            }
        };
        Ok((token, line))
    }

    /// Whether the next token starts a tag pair (looked at without taking it).
    fn at_tag(&mut self) -> bool {
        self.skip_space();
        self.rest().starts_with('[')
    }

    /// After an error: goes on to the next line that opens a tag pair once the game's moves
    /// (or, for an error among the tags, its remaining tags and then its moves) are behind.
    fn skip_game(&mut self, mut in_moves: bool) {
        // from the start of the next line
        match self.rest().find('\n') {
            Some(i) => self.bump(i + 1),
            None => return self.bump(self.rest().len()),
        }
        while !self.rest().is_empty() {
            let rest = self.rest();
            let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let line = rest[..end].trim();
            let opens_tag =
                line.starts_with('[') && line[1..].starts_with(|c: char| c.is_ascii_alphabetic());
            if opens_tag && in_moves {
                return;
            }
            if !line.is_empty() && !opens_tag {
                in_moves = true;
            }
            self.bump(end);
        }
    }
}

/// A comment's text with its white space runs made single spaces.
fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads `[Name "value"]` at the start of `text`: the name, the value (with `\"` and `\\`
/// undone) and the bytes used.
fn tag(text: &str) -> Option<(String, String, usize)> {
    let inner = &text[1..];
    let name_len = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    if name_len == 0 {
        return None;
    }
    let name = &inner[..name_len];
    let after = &inner[name_len..];
    let quote = after.find('"')?;
    if !after[..quote].trim().is_empty() {
        return None;
    }
    let mut value = String::new();
    let mut chars = after[quote + 1..].char_indices();
    let close = loop {
        match chars.next()? {
            (_, '\\') => value.push(chars.next()?.1),
            (i, '"') => break i,
            (_, '\n') => return None,
            (_, c) => value.push(c),
        }
    };
    let tail = &after[quote + 1 + close + 1..];
    let bracket = tail.find(']')?;
    if !tail[..bracket].trim().is_empty() {
        return None;
    }
    let used = 1 + name_len + quote + 1 + close + 1 + bracket + 1;
    Some((name.to_string(), value, used))
}

/// One line being read: its moves so far, the position after them and the one before the last.
struct Frame {
    line: Line,
    pos: Position,
    before_last: Option<Position>,
}

impl Frame {
    fn new(pos: Position) -> Frame {
        Frame {
            line: Line::default(),
            pos,
            before_last: None,
        }
    }

    fn comment(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        match self.line.moves.last_mut() {
            Some(m) => m.comments.push(text),
            None => self.line.comments.push(text),
        }
    }

    fn nag(&mut self, nag: u8) -> Result<(), PgnErrorKind> {
        match self.line.moves.last_mut() {
            Some(m) => {
                m.nags.push(nag);
                Ok(())
            }
            None => Err(PgnErrorKind::Unexpected(format!("${nag}"))),
        }
    }
}

/// The glyph of a move suffix (`!`, `?`, `!!`, `??`, `!?`, `?!`).
fn suffix_nag(text: &str) -> Option<u8> {
    match text {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    }
}

/// A move number (`12.`, `12...`) before a move, which may be glued to it (`12.e4`): the rest.
fn strip_number(text: &str) -> &str {
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    if digits == 0 {
        return text;
    }
    let rest = &text[digits..];
    let dots = rest.find(|c: char| c != '.').unwrap_or(rest.len());
    if dots == 0 && !rest.is_empty() {
        return text; // digits glued to something else: not a number
    }
    &rest[dots..]
}

/// The number PGN writes before a move of `pos` (`12.` or `12...`).
fn number_of(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove_number()),
        Color::Black => format!("{}...", pos.fullmove_number()),
    }
}

fn parse_game(lex: &mut Lexer<'_>, in_moves: &mut bool) -> Result<PgnGame, (usize, PgnErrorKind)> {
    let mut tags = Vec::new();
    while lex.at_tag() {
        if let (Token::Tag(name, value), _) = lex.next()? {
            tags.push((name, value));
        }
    }
    *in_moves = true;
    let line = lex.line;
    let start = match tags.iter().find(|(n, _)| n == "FEN") {
        Some((_, fen)) => Position::from_fen(fen).map_err(|e| (line, PgnErrorKind::Fen(e)))?,
        None => Position::startpos(),
    };
    let mut stack = vec![Frame::new(start)];
    let result = loop {
        if stack.len() == 1 && lex.at_tag() {
            // the next game's tags, this one's result left out
            break None;
        }
        let (token, line) = lex.next()?;
        let at = |kind| (line, kind);
        let top = stack.len() - 1;
        match token {
            Token::End => break None,
            Token::Tag(..) => return Err(at(PgnErrorKind::OpenVariation)),
            Token::Comment(text) => stack[top].comment(text),
            Token::Nag(n) => stack[top].nag(n).map_err(at)?,
            Token::Open => {
                let before = stack[top]
                    .before_last
                    .ok_or_else(|| at(PgnErrorKind::VariationFirst))?;
                stack.push(Frame::new(before));
            }
            Token::Close => {
                if stack.len() == 1 {
                    return Err(at(PgnErrorKind::StrayClose));
                }
                let child = stack.pop().map(|f| f.line).unwrap_or_default();
                if let Some(m) = stack[top - 1].line.moves.last_mut() {
                    m.variations.push(child);
                }
            }
            Token::Symbol(text) => {
                if let Some(result) = GameResult::from_pgn(text) {
                    if stack.len() == 1 {
                        break Some(result);
                    }
                    continue; // a result written at the end of a variation says nothing
                }
                if let Some(n) = suffix_nag(text) {
                    stack[top].nag(n).map_err(at)?;
                    continue;
                }
                let san = strip_number(text);
                if san.is_empty() || san == "e.p." {
                    continue;
                }
                let frame = &mut stack[top];
                let bare = san.trim_end_matches(['!', '?']);
                let mv = frame.pos.parse_san(bare).map_err(|source| {
                    at(PgnErrorKind::Move {
                        number: number_of(&frame.pos),
                        text: san.to_string(),
                        source,
                    })
                })?;
                let mut pm = PgnMove::new(mv);
                pm.nags.extend(suffix_nag(&san[bare.len()..]));
                frame.line.moves.push(pm);
                frame.before_last = Some(frame.pos);
                frame.pos = frame.pos.play(mv);
            }
        }
    };
    if stack.len() > 1 {
        return Err((lex.line, PgnErrorKind::OpenVariation));
    }
    let result = result
        .or_else(|| {
            tags.iter()
                .find(|(n, _)| n == "Result")
                .and_then(|(_, v)| GameResult::from_pgn(v))
        })
        .unwrap_or(GameResult::Undecided);
    let line = stack.pop().map(|f| f.line).unwrap_or_default();
    Ok(PgnGame {
        tags,
        start,
        line,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_escapes_and_numbers() {
        assert_eq!(
            tag(r#"[White "O\"Kelly \\ x"] rest"#),
            Some(("White".into(), "O\"Kelly \\ x".into(), 23))
        );
        assert_eq!(tag("[White O'Kelly]"), None);
        assert_eq!(tag("[\"x\"]"), None);
        assert_eq!(strip_number("12."), "");
        assert_eq!(strip_number("12...Nf6"), "Nf6");
        assert_eq!(strip_number("e4"), "e4");
        assert_eq!(strip_number("1-0"), "1-0");
    }
}
