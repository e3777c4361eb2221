//! The router (every route of the API and the pages) and the listener loop.

use crate::api::{chess, othello};
use crate::assets;
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::future::Future;
use tokio::net::TcpListener;

/// Largest request body accepted, bytes ([`ply_web_api::limits::MAX_REQUEST`]).
pub const MAX_BODY: usize = ply_web_api::limits::MAX_REQUEST;

/// The router of a server with `state`.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/othello/state", post(othello::state))
        .route("/api/othello/load", post(othello::load))
        .route("/api/othello/play", post(othello::play))
        .route("/api/othello/solve", post(othello::solve))
        .route("/api/othello/hint", get(othello::hint))
        .route("/api/othello/review", get(othello::review))
        .route("/api/othello/learn", post(othello::learn))
        .route("/api/chess/state", post(chess::state))
        .route("/api/chess/load", post(chess::load))
        .route("/api/chess/pgn", post(chess::export))
        .route("/api/chess/play", post(chess::play))
        .route("/api/chess/analyse", get(chess::analyse))
        .route("/api/chess/review", get(chess::review))
        .route("/api/chess/probe", get(chess::probe))
        .route("/api/chess/chess960", post(chess::chess960))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// `GET /api/health`: the search slots, all and free, the most pieces the tables hold
/// (0 without tables) and the Othello opening book (`othello_book`: its positions, level and
/// whether it learns, or null without a book).
async fn health(State(app): State<AppState>) -> Json<serde_json::Value> {
    Json(ply_web_api::health(
        app.pool.size(),
        app.pool.available(),
        app.tablebase.as_ref().map_or(0, |tb| tb.max_pieces()),
        app.othello_book.as_deref(),
    ))
}

/// Serves `state` on `listener` until `shutdown` completes.
///
/// # Errors
/// The listener's I/O error.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}
