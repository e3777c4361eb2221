//! Text shared by the protocols and the command line: principal variations, search depths,
//! scores, the board diagram and the move table (book moves marked `book`).

use ply_othello::{Color, Position, Square};
use ply_othello_engine::book::BookMove;
use ply_othello_engine::MoveScore;

/// A move as NBoard writes it: the square's name, `PA` for a pass.
pub fn nboard_move(sq: Square) -> &'static str {
    if sq.is_pass() {
        "PA"
    } else {
        sq.name()
    }
}

/// `F5D6C3`: moves without separators (NBoard's `search` lines), `PA` for passes.
pub fn pv_compact(pv: &[Square]) -> String {
    pv.iter().map(|&m| nboard_move(m)).collect()
}

/// `F5 D6 C3`: moves separated by spaces, `PS` for passes (Edax's style).
pub fn pv_spaced(pv: &[Square]) -> String {
    pv.iter().map(|m| m.name()).collect::<Vec<_>>().join(" ")
}

/// `21@73%` for a selective search, `21` without selectivity.
pub fn depth_text(depth: u8, selectivity: u8) -> String {
    if selectivity < 100 {
        format!("{depth}@{selectivity}%")
    } else {
        depth.to_string()
    }
}

/// The `<depth> [<freeform>]` end of an NBoard `search` line: the depth, then the
/// selectivity or `exact`.
pub fn nboard_depth(depth: u8, selectivity: u8, exact: bool) -> String {
    if exact {
        format!("{depth} exact")
    } else if selectivity < 100 {
        format!("{depth} {selectivity}%")
    } else {
        depth.to_string()
    }
}

/// `+4`, `-12`, `+0`: a score in discs with its sign.
pub fn score_text(score: i32) -> String {
    format!("{score:+}")
}

/// The board in Edax's style: `*` Black, `O` White, `.` a legal move of the side to move,
/// `-` other empty squares; columns A-H, rows 1-8; disc counts and the side to move beside it.
pub fn board_diagram(pos: &Position) -> String {
    let (b, w) = (pos.black(), pos.white());
    let legal = pos.board.moves();
    let mut s = String::from("  A B C D E F G H\n");
    for row in 0..8 {
        s.push_str(&(row + 1).to_string());
        for col in 0..8 {
            let sq = 8 * row + col;
            let c = if b >> sq & 1 == 1 {
                '*'
            } else if w >> sq & 1 == 1 {
                'O'
            } else if legal >> sq & 1 == 1 {
                '.'
            } else {
                '-'
            };
            s.push(' ');
            s.push(c);
        }
        s.push_str(&format!(" {}", row + 1));
        match row {
            1 => s.push_str(&format!("   * Black {:2} discs", b.count_ones())),
            2 => s.push_str(&format!("   O White {:2} discs", w.count_ones())),
            3 => s.push_str(&format!("   {} empties", 64 - (b | w).count_ones())),
            5 => s.push_str(&if pos.board.is_game_over() {
                "   game over".to_string()
            } else {
                format!(
                    "   {} to move{}",
                    match pos.side {
                        Color::Black => "* Black",
                        Color::White => "O White",
                    },
                    if legal == 0 { " (must pass)" } else { "" }
                )
            }),
            _ => {}
        }
        s.push('\n');
    }
    s.push_str("  A B C D E F G H");
    s
}

/// A table of root moves: move, score, depth (`=` after an exact score) and variation.
pub fn move_table(moves: &[MoveScore]) -> Vec<String> {
    let mut lines = move_table_header();
    lines.extend(moves.iter().map(move_row));
    lines
}

/// The two header lines of [`move_table`].
pub fn move_table_header() -> Vec<String> {
    vec![
        " move | score | depth   | principal variation".to_string(),
        "------+-------+---------+--------------------".to_string(),
    ]
}

/// A row of [`move_table`]: a searched move.
pub fn move_row(m: &MoveScore) -> String {
    table_row(
        m.square,
        m.score,
        &format!(
            "{}{}",
            depth_text(m.depth, m.selectivity),
            if m.exact { " =" } else { "" }
        ),
        &m.pv,
    )
}

/// A row of [`move_table`] for a move of the opening book: `book` in the depth column, its
/// book value and its book line.
pub fn book_row(m: &BookMove, line: &[Square]) -> String {
    table_row(m.square, m.score, "book", line)
}

fn table_row(square: Square, score: i32, depth: &str, pv: &[Square]) -> String {
    format!(
        "  {:>3} | {:>5} | {:<7} | {}",
        square.name(),
        score_text(score),
        depth,
        pv_spaced(pv)
    )
}

/// An NBoard hint line for a book move: `book <line> <eval> <games> <depth>`, the protocol's
/// form of a hint that comes from the book (ply's book counts no games: 0; the depth is the
/// level its value was searched at).
pub fn nboard_book_line(m: &BookMove, line: &[Square]) -> String {
    format!(
        "book {} {:.2} 0 {}",
        pv_compact(line),
        f64::from(m.score),
        m.level
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        let pv = [Square::F5, Square::PASS, Square::D6];
        assert_eq!(pv_compact(&pv), "F5PAD6");
        assert_eq!(pv_spaced(&pv), "F5 PS D6");
        assert_eq!(depth_text(21, 73), "21@73%");
        assert_eq!(depth_text(24, 100), "24");
        assert_eq!(nboard_depth(24, 100, true), "24 exact");
        assert_eq!(nboard_depth(12, 73, false), "12 73%");
        assert_eq!(score_text(0), "+0");
        assert_eq!(score_text(-6), "-6");
        let d = board_diagram(&Position::start());
        assert!(d.contains("4 - - . O * - - - 4"), "{d}");
        assert!(d.contains("5 - - - * O . - - 5"), "{d}");
        assert!(d.contains("* Black to move"), "{d}");
        let t = move_table(&[MoveScore {
            square: Square::F5,
            score: -2,
            depth: 20,
            selectivity: 100,
            exact: true,
            pv: vec![Square::F5, Square::D6],
        }]);
        assert_eq!(t[2], "   F5 |    -2 | 20 =    | F5 D6");
        let book = BookMove {
            square: Square::F5,
            score: -2,
            linked: true,
            level: 12,
        };
        assert_eq!(
            book_row(&book, &[Square::F5, Square::D6]),
            "   F5 |    -2 | book    | F5 D6"
        );
        assert_eq!(
            nboard_book_line(&book, &[Square::F5, Square::D6]),
            "book F5D6 -2.00 0 12"
        );
    }
}
