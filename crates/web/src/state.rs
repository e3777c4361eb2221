//! [`AppState`]: what every handler shares.

use crate::book::ServerBook;
use crate::limits::Config;
use crate::pool::{Pool, PoolError};
use ply_syzygy::Tablebase;
use std::sync::Arc;

/// The server's shared state: its settings, its search slots, the Syzygy tables and the Othello
/// opening book.
#[derive(Clone)]
pub struct AppState {
    /// The settings.
    pub config: Arc<Config>,
    /// The search slots.
    pub pool: Arc<Pool>,
    /// The Syzygy tables of `--syzygy`, shared by every chess search and the probe route.
    pub tablebase: Option<Arc<Tablebase>>,
    /// The Othello opening book of `--othello-book` (or the default one), shared by every
    /// Othello request and grown by `POST /api/othello/learn`.
    pub othello_book: Option<Arc<ServerBook>>,
}

impl AppState {
    /// The state of a server with `config` (allocates every slot's tables).
    ///
    /// # Errors
    /// [`PoolError`] when the tables cannot be allocated.
    pub fn new(config: Config) -> Result<AppState, PoolError> {
        let pool = Pool::new(&config)?;
        Ok(AppState {
            config: Arc::new(config),
            pool: Arc::new(pool),
            tablebase: None,
            othello_book: None,
        })
    }

    /// The same state with the Syzygy tables `tablebase` (see [`crate::tablebase::open`]).
    pub fn with_tablebase(self, tablebase: Tablebase) -> AppState {
        AppState {
            tablebase: Some(Arc::new(tablebase)),
            ..self
        }
    }

    /// The same state with the Othello opening book `book` (see [`ServerBook::load`]).
    pub fn with_othello_book(self, book: ServerBook) -> AppState {
        AppState {
            othello_book: Some(Arc::new(book)),
            ..self
        }
    }
}
