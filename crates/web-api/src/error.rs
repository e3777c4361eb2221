//! [`ApiError`]: every way a request can fail, with its HTTP status and JSON body.

use thiserror::Error;

/// Why a request failed. The reply is `{"error": <Display text>, "kind": <kind>}` with the
/// status of [`ApiError::status`].
#[derive(Debug, Error)]
pub enum ApiError {
    /// The request is malformed: bad JSON, a bad query, a field out of range.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// A position (FEN, OBF, GGF) that cannot be read or is not legal.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A move that cannot be read or is illegal where it is played.
    #[error("bad move: {0}")]
    BadMove(String),
    /// The game is over: there is nothing to search.
    #[error("the game is over")]
    GameOver,
    /// `solve` with too many empty squares.
    #[error("too many empty squares to solve: {empties} (at most {max})")]
    TooManyEmpties {
        /// Empty squares of the position.
        empties: u32,
        /// The most `solve` accepts.
        max: u32,
    },
    /// The server has no opening book to do this with (none, or not one it can write back).
    #[error("no opening book: {0}")]
    NoBook(String),
    /// The opening book is learning another game.
    #[error("the opening book is learning another game; try again when it is done")]
    BookBusy,
    /// Every search slot stayed busy while the request waited.
    #[error("busy: every search slot is in use, try again shortly")]
    Busy,
    /// No such page or route.
    #[error("not found")]
    NotFound,
    /// The server failed (a search thread could not start or died).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of the error: 400, 404, 409, 500 or 503.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_)
            | ApiError::BadPosition(_)
            | ApiError::BadMove(_)
            | ApiError::TooManyEmpties { .. } => 400,
            ApiError::GameOver | ApiError::NoBook(_) | ApiError::BookBusy => 409,
            ApiError::Busy => 503,
            ApiError::NotFound => 404,
            ApiError::Internal(_) => 500,
        }
    }

    /// A short machine-readable name of the error (`bad_request`, `busy`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::BadPosition(_) => "bad_position",
            ApiError::BadMove(_) => "bad_move",
            ApiError::GameOver => "game_over",
            ApiError::TooManyEmpties { .. } => "too_many_empties",
            ApiError::NoBook(_) => "no_book",
            ApiError::BookBusy => "book_busy",
            ApiError::Busy => "busy",
            ApiError::NotFound => "not_found",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl ApiError {
    /// The JSON body of the error: `{"error": <Display text>, "kind": <kind>}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.to_string(), "kind": self.kind() })
    }
}
