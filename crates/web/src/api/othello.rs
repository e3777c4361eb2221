//! The Othello routes: each reads its request, hands it to [`ply_web_api::othello`] with the
//! server's book, and runs the planned search on a slot. Learning a game, which writes the
//! book's file, is the server's alone.

use super::{Body, Params};
use crate::book::LearnReport;
use crate::error::{ApiError, HttpError};
use crate::pool::{run_job, run_search, spawn_stream};
use crate::state::AppState;
use crate::stream::EventResponse;
use axum::extract::State;
use axum::Json;
use ply_web_api::othello::{self, GameRequest, GameState, LoadRequest, PlayReply, SolveReply};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `POST /api/othello/state` ([`othello::state`]).
///
/// # Errors
/// 400 for a bad position or move.
pub async fn state(Body(req): Body<GameRequest>) -> Result<Json<GameState>, HttpError> {
    Ok(Json(othello::state(&req)?))
}

/// `POST /api/othello/load` ([`othello::load`]).
///
/// # Errors
/// 400 when the text is no OBF position, GGF record or move list.
pub async fn load(Body(req): Body<LoadRequest>) -> Result<Json<GameState>, HttpError> {
    Ok(Json(othello::load(&req)?))
}

/// `POST /api/othello/play` ([`othello::play`], with the server's book).
///
/// # Errors
/// 400 for a bad game, 409 when it is over, 503 when busy.
pub async fn play(
    State(app): State<AppState>,
    Body(req): Body<GameRequest>,
) -> Result<Json<PlayReply>, HttpError> {
    let job = othello::play(app.othello_book.as_ref(), &req)?;
    Ok(Json(run_job(&app.pool, job).await?))
}

/// `POST /api/othello/solve` ([`othello::solve`]).
///
/// # Errors
/// 400 for a bad game or too many empties, 409 when it is over, 503 when busy.
pub async fn solve(
    State(app): State<AppState>,
    Body(req): Body<GameRequest>,
) -> Result<Json<SolveReply>, HttpError> {
    Ok(Json(run_job(&app.pool, othello::solve(&req)?).await?))
}

/// `GET /api/othello/hint`: server-sent events ([`othello::hint`], with the server's book); the
/// search stops when the client goes.
///
/// # Errors
/// 400 for a bad game, 409 when it is over, 503 when busy (before the stream starts).
pub async fn hint(
    State(app): State<AppState>,
    Params(req): Params<GameRequest>,
) -> Result<EventResponse, HttpError> {
    let events = othello::hint(app.othello_book.as_ref(), &req)?;
    Ok(spawn_stream(&app.pool, events).await?)
}

/// `GET /api/othello/review`: server-sent events ([`othello::review`]). The review holds one
/// search slot until it ends, and stops within milliseconds when the client goes.
///
/// # Errors
/// 400 for a bad game or one without moves ("nothing to review"), 503 when busy (before the
/// stream starts).
pub async fn review(
    State(app): State<AppState>,
    Params(req): Params<GameRequest>,
) -> Result<EventResponse, HttpError> {
    Ok(spawn_stream(&app.pool, othello::review(&req)?).await?)
}

/// Sets its flag when dropped: a request handler that goes away (the client left) stops the
/// search it started.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/othello/learn`: adds the game of the request (its start position and moves) to
/// the server's opening book, as NBoard's `learn` does: each position not yet in the book is
/// added with its best move out of the book searched at the book's level, the leaves that now
/// lead into the book are searched again, the values are backed up, and the book file is
/// written back (a temporary file renamed over it) before the reply
/// ([`LearnReport`]: `before`, `positions`, `added`, `searches`, `complete`). The learn holds
/// one search slot until it ends; other requests go on with the book as it was until then.
/// When the client goes away the searches stop and what was added is kept.
///
/// # Errors
/// 409 `no_book` when the server has no book or its book is not a file in ply's own format,
/// 409 `book_busy` while another game is being learned, 400 for a bad game, 503 when every
/// search slot is busy, 500 when the file cannot be written (the book stays as it was).
pub async fn learn(
    State(app): State<AppState>,
    Body(req): Body<GameRequest>,
) -> Result<Json<LearnReport>, HttpError> {
    let book = app.othello_book.clone().ok_or_else(|| {
        ApiError::NoBook("the server has no Othello book (ply serve --othello-book FILE)".into())
    })?;
    if book.writable_file().is_none() {
        return Err(ApiError::NoBook(
            "the server's Othello book was not read from a file in ply's own format, so it \
             cannot learn games"
                .into(),
        )
        .into());
    }
    let game = othello::build_game(&req)?;
    let start = game.start().board;
    let moves = game.moves().to_vec();
    let learning = book.start_learning().ok_or(ApiError::BookBusy)?;
    let lease = app.pool.acquire().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&stop));
    let report = run_search(lease, move |w| {
        let _learning = learning;
        book.learn(
            &mut w.othello,
            &start,
            &moves,
            &stop,
            ply_batch::write_atomically,
        )
    })
    .await?
    .map_err(ApiError::Internal)?;
    Ok(Json(report))
}
