//! A game record shared by the protocols: the position, the moves played (with passes) and undo.

use crate::{Color, Position, Square};

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The square is not a legal move for the side to move.
    #[error("illegal move {0}")]
    Illegal(String),
    /// A pass while the side to move has a legal move.
    #[error("pass is illegal: a move is available")]
    IllegalPass,
    /// The game is over: nobody can move.
    #[error("the game is over")]
    GameOver,
}

/// A game from some start position: every position reached, so undo is a pop.
#[derive(Debug, Clone)]
pub struct Game {
    history: Vec<Position>,
    moves: Vec<Square>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            history: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    ///
    /// # Panics
    /// Never: the history is created with the start position and undo never removes it (the
    /// `expect` states that invariant).
    pub fn position(&self) -> Position {
        *self
            .history
            .last()
            .expect("a game always holds its start position")
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.history[0]
    }

    /// Every position from the start to the current one (one more than [`Game::moves`]).
    pub fn positions(&self) -> &[Position] {
        &self.history
    }

    /// The moves played so far (squares, [`Square::PASS`] for passes).
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// Plays `sq` (or [`Square::PASS`]) for the side to move after checking legality.
    ///
    /// # Errors
    /// [`MoveError`] when the move is illegal or the game is over.
    pub fn play(&mut self, sq: Square) -> Result<(), MoveError> {
        let mut pos = self.position();
        if pos.board.is_game_over() {
            return Err(MoveError::GameOver);
        }
        if sq.is_pass() {
            if pos.board.moves() != 0 {
                return Err(MoveError::IllegalPass);
            }
            pos.pass();
        } else if !pos.play(sq) {
            return Err(MoveError::Illegal(sq.to_string()));
        }
        self.history.push(pos);
        self.moves.push(sq);
        Ok(())
    }

    /// Plays `sq` for `color`, first passing for the side to move when it is `color`'s
    /// opponent and has no move (GUIs often leave forced passes implicit).
    ///
    /// # Errors
    /// [`MoveError`] when the move is illegal for `color`.
    pub fn play_as(&mut self, color: Color, sq: Square) -> Result<(), MoveError> {
        let pos = self.position();
        if sq.is_pass() && pos.board.is_game_over() {
            // Engines answer `pass` once nobody can move; relaying it changes nothing.
            return Ok(());
        }
        if pos.side != color && pos.board.moves() == 0 && !pos.board.is_game_over() {
            self.play(Square::PASS)?;
        }
        if self.position().side != color {
            if sq.is_pass() {
                // A pass by the side that just moved is a no-op in GTP terms.
                return Ok(());
            }
            return Err(MoveError::Illegal(format!(
                "{} (not {}'s turn)",
                sq,
                color_name(color)
            )));
        }
        self.play(sq)
    }

    /// Plays `sq` for the side to move, first taking its forced pass when it has no move and
    /// `sq` is a square (GUIs and typed move lists often leave such passes out).
    ///
    /// # Errors
    /// [`MoveError`] when the move is illegal.
    pub fn play_after_forced_pass(&mut self, sq: Square) -> Result<(), MoveError> {
        let pos = self.position();
        let color = if !sq.is_pass() && pos.board.moves() == 0 {
            pos.side.other()
        } else {
            pos.side
        };
        self.play_as(color, sq)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.history.pop();
            true
        } else {
            false
        }
    }

    /// Disc difference Black minus White; once the game is over the empties go to the winner
    /// ([`crate::board::final_score`]).
    pub fn final_score(&self) -> i32 {
        let pos = self.position();
        if pos.board.is_game_over() {
            crate::board::final_score(pos.black(), pos.white())
        } else {
            pos.black().count_ones() as i32 - pos.white().count_ones() as i32
        }
    }
}

/// "black" or "white".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_undo_and_illegal_moves() {
        let mut g = Game::default();
        assert_eq!(g.play(Square::A1), Err(MoveError::Illegal("A1".into())));
        assert_eq!(g.play(Square::PASS), Err(MoveError::IllegalPass));
        g.play(Square::F5).unwrap();
        assert_eq!(g.position().side, Color::White);
        assert!(g.undo());
        assert_eq!(g.position(), Position::start());
        assert!(!g.undo());
    }

    #[test]
    fn a_pass_after_the_end_is_accepted_as_a_no_op() {
        let mut g = Game::new(Position::from_colors(1, 0, Color::White).unwrap());
        assert_eq!(g.play_as(Color::White, Square::PASS), Ok(()));
        assert_eq!(g.play_as(Color::Black, Square::PASS), Ok(()));
        assert!(g.moves().is_empty());
        assert_eq!(g.play(Square::PASS), Err(MoveError::GameOver));
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        // Black owns A1 only, White nothing: game over, Black wins 64-0.
        let g = Game::new(Position::from_colors(1, 0, Color::Black).unwrap());
        assert_eq!(g.final_score(), 64);
        let g = Game::new(Position::from_colors(0, 3, Color::White).unwrap());
        assert_eq!(g.final_score(), -64);
    }
}
