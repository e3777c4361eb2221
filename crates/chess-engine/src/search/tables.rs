//! What a search thread learns and keeps from one search to the next of the same game: the quiet
//! move histories, the static-evaluation correction history and the pawn-structure cache. The
//! [`Engine`](crate::Engine) keeps one [`ThreadTables`] per search thread and drops them for a
//! new game (UCI `ucinewgame`).

use crate::correction::Correction;
use crate::eval::PawnTable;
use crate::history::History;

/// One search thread's tables (about 1.5 MiB).
pub struct ThreadTables {
    pub(super) pawns: PawnTable,
    pub(super) history: History,
    pub(super) correction: Correction,
}

impl Default for ThreadTables {
    fn default() -> Self {
        ThreadTables::new()
    }
}

impl ThreadTables {
    /// Empty tables.
    pub fn new() -> ThreadTables {
        ThreadTables {
            pawns: PawnTable::new(),
            history: History::new(),
            correction: Correction::new(),
        }
    }
}
