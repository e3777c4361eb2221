//! What `GET /api/health` answers, the server's and the browser build's alike: the search
//! slots, all and free, the most pieces the Syzygy tables hold (0 without tables) and the
//! Othello book (its positions, level and whether it learns; null without a book).

use crate::book::ServerBook;
use serde_json::{json, Value};

/// The health reply of a backend with `slots` search slots, `free` of them free now, tables up
/// to `tablebase_pieces` pieces and the Othello book `book`.
pub fn health(
    slots: usize,
    free: usize,
    tablebase_pieces: usize,
    book: Option<&ServerBook>,
) -> Value {
    json!({
        "ok": true,
        "slots": slots,
        "free": free,
        "tablebase_pieces": tablebase_pieces,
        "othello_book": book.map(ServerBook::info),
    })
}
