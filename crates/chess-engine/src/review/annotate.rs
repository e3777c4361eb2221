//! A reviewed game written back as PGN: `[%eval]` comments, `?!`/`?`/`??` glyphs and the better
//! line as a variation, the way lichess exports its analysis (readable by lichess, ChessBase,
//! python-chess and ply's own reader).

use ply_chess::pgn::{Line, PgnGame, PgnMove};
use ply_chess::{Color, Move, Position};

use super::{GameReview, Judgement};
use crate::value::{is_mate, mate_in, TB_WIN_BOUND};

/// The `[%eval ...]` comment of a score of a position whose side to move is `stm` (scores the
/// side to move's view, as the search gives them): White's view in pawns with two decimals
/// (`[%eval 0.35]`), or `[%eval #3]` / `[%eval #-3]` for a mate in moves (positive when White
/// mates). Tablebase wins count as ±100 pawns less their distance.
pub fn eval_comment(score: i32, stm: Color) -> String {
    let sign = if stm == Color::White { 1 } else { -1 };
    let white = sign * score;
    if is_mate(score) {
        // moves to mate counted for the side to move (negative when it is mated), then turned
        let moves = sign * mate_in(score).unwrap_or(0);
        format!("[%eval #{moves}]")
    } else if white.abs() >= TB_WIN_BOUND {
        let pawns = f64::from(white.signum())
            * (100.0 - f64::from(crate::value::TB_WIN - white.abs()) / 100.0);
        format!("[%eval {pawns:.2}]")
    } else {
        format!("[%eval {:.2}]", f64::from(white) / 100.0)
    }
}

/// Glyphs of move quality (`!` `?` `!!` `??` `!?` `?!`): replaced by the review's where it marks
/// a move.
const QUALITY_NAGS: std::ops::RangeInclusive<u8> = 1..=6;

/// `game` with the review written into its main line: each move gets its `[%eval]` (the position
/// after it, from the review's search; none after a checkmate) and, when marked, its glyph, a
/// comment (`Mistake. Nf3 was best.`) and the engine's line from the position before it as a
/// variation. What the game already held (tags, comments, glyphs of unmarked moves, variations)
/// is kept; `annotator` goes into the `Annotator` tag, and a comment before the first move gives
/// each side's accuracy and average centipawn loss.
///
/// The review must be of `game`'s main line (the moves are matched in order; extra moves of
/// either are left as they are).
pub fn annotate(game: &PgnGame, review: &GameReview, annotator: &str) -> PgnGame {
    let mut out = game.clone();
    out.set_tag("Annotator", annotator);
    let summary = summary(review);
    if !summary.is_empty() {
        out.line.comments.push(summary);
    }
    for (pm, mr) in out.line.moves.iter_mut().zip(&review.moves) {
        if pm.mv != mr.played {
            break;
        }
        let after = mr.before.play(mr.played);
        let mut comment = String::new();
        if !after.is_checkmate() {
            comment = eval_comment(mr.score_after, after.side_to_move());
        }
        if let Some(nag) = mr.judgement.nag() {
            pm.nags.retain(|n| !QUALITY_NAGS.contains(n));
            pm.nags.push(nag);
            let name = match mr.judgement {
                Judgement::Inaccuracy => "Inaccuracy",
                Judgement::Mistake => "Mistake",
                _ => "Blunder",
            };
            let text = format!("{name}. {} was best.", mr.before.san(mr.best));
            comment = if comment.is_empty() {
                text
            } else {
                format!("{text} {comment}")
            };
            pm.variations.push(variation(&mr.before, &mr.pv));
        }
        if !comment.is_empty() {
            pm.comments.push(comment);
        }
    }
    out
}

/// The engine's line as a variation (moves as far as they are legal).
fn variation(start: &Position, pv: &[Move]) -> Line {
    let mut pos = *start;
    let mut moves = Vec::new();
    for &m in pv {
        let Ok(next) = pos.try_play(m) else { break };
        moves.push(PgnMove::new(m));
        pos = next;
    }
    Line {
        comments: Vec::new(),
        moves,
    }
}

/// `White: accuracy 91.2 %, 18 cp lost a move on average, 1 inaccuracy; Black: ...`.
fn summary(review: &GameReview) -> String {
    let mut parts = Vec::new();
    for color in [Color::White, Color::Black] {
        let (Some(acc), Some(acpl)) = (review.accuracy[color.index()], review.acpl[color.index()])
        else {
            continue;
        };
        let mut counts = Vec::new();
        for (j, one, many) in [
            (Judgement::Inaccuracy, "inaccuracy", "inaccuracies"),
            (Judgement::Mistake, "mistake", "mistakes"),
            (Judgement::Blunder, "blunder", "blunders"),
        ] {
            let n = review.count(color, j);
            if n > 0 {
                counts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        }
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        let mut s = format!("{name}: accuracy {acc:.1} %, average centipawn loss {acpl:.0}");
        if !counts.is_empty() {
            s.push_str(&format!(", {}", counts.join(", ")));
        }
        parts.push(s);
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::MATE;

    #[test]
    fn eval_comments_are_white_s_view() {
        assert_eq!(eval_comment(35, Color::White), "[%eval 0.35]");
        assert_eq!(eval_comment(35, Color::Black), "[%eval -0.35]");
        assert_eq!(eval_comment(0, Color::Black), "[%eval 0.00]");
        // White to move mates in 2 (3 plies)
        assert_eq!(eval_comment(MATE - 3, Color::White), "[%eval #2]");
        // Black to move is mated in 1 (2 plies): White mates in 1
        assert_eq!(eval_comment(-(MATE - 2), Color::Black), "[%eval #1]");
        // Black to move mates in 1
        assert_eq!(eval_comment(MATE - 1, Color::Black), "[%eval #-1]");
        let tb = eval_comment(crate::value::TB_WIN - 10, Color::White);
        assert_eq!(tb, "[%eval 99.90]");
    }
}
