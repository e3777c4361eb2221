//! The chess routes: each reads its request, hands it to [`ply_web_api::chess`] with the
//! server's Syzygy tables, and runs the planned search on a slot.

use super::{Body, Params};
use crate::error::{ApiError, HttpError};
use crate::pool::{run_job, spawn_stream};
use crate::state::AppState;
use crate::stream::EventResponse;
use axum::extract::State;
use axum::Json;
use ply_web_api::chess::{
    self, Chess960Request, ChessRequest, ChessState, ExportReply, ExportRequest, LoadReply,
    LoadRequest, PlayReply, ProbeRequest, ReviewRequest,
};
use ply_web_api::tablebase::ProbeAnswer;

/// `POST /api/chess/state` ([`chess::state`]).
///
/// # Errors
/// 400 for a bad FEN or move.
pub async fn state(Body(req): Body<ChessRequest>) -> Result<Json<ChessState>, HttpError> {
    Ok(Json(chess::state(&req)?))
}

/// `POST /api/chess/load` ([`chess::load`]).
///
/// # Errors
/// 400 when the text is no FEN, PGN game or move list.
pub async fn load(Body(req): Body<LoadRequest>) -> Result<Json<LoadReply>, HttpError> {
    Ok(Json(chess::load(&req)?))
}

/// `POST /api/chess/pgn` ([`chess::export`]).
///
/// # Errors
/// 400 for a bad tree.
pub async fn export(Body(req): Body<ExportRequest>) -> Result<Json<ExportReply>, HttpError> {
    Ok(Json(chess::export(&req)?))
}

/// `POST /api/chess/play` ([`chess::play`], with the server's tables).
///
/// # Errors
/// 400 for a bad game, 409 when it is over, 503 when busy.
pub async fn play(
    State(app): State<AppState>,
    Body(req): Body<ChessRequest>,
) -> Result<Json<PlayReply>, HttpError> {
    let job = chess::play(app.tablebase.as_ref(), &req)?;
    Ok(Json(run_job(&app.pool, job).await?))
}

/// `GET /api/chess/analyse`: server-sent events ([`chess::analyse`]); the search stops when
/// the client goes.
///
/// # Errors
/// 400 for a bad game, 409 when it is over, 503 when busy (before the stream starts).
pub async fn analyse(
    State(app): State<AppState>,
    Params(req): Params<ChessRequest>,
) -> Result<EventResponse, HttpError> {
    let events = chess::analyse(app.tablebase.as_ref(), &req)?;
    Ok(spawn_stream(&app.pool, events).await?)
}

/// `GET /api/chess/review`: server-sent events ([`chess::review`]). The review holds one search
/// slot until it ends, and stops after the search in progress when the client goes.
///
/// # Errors
/// 400 for a bad game or one without moves ("nothing to review"), 503 when busy (before the
/// stream starts).
pub async fn review(
    State(app): State<AppState>,
    Params(req): Params<ReviewRequest>,
) -> Result<EventResponse, HttpError> {
    let events = chess::review(app.tablebase.as_ref(), &req)?;
    Ok(spawn_stream(&app.pool, events).await?)
}

/// `GET /api/chess/probe` ([`chess::probe`]), off the async threads (probing may read table
/// files from disk).
///
/// # Errors
/// 400 for a bad game.
pub async fn probe(
    State(app): State<AppState>,
    Params(req): Params<ProbeRequest>,
) -> Result<Json<ProbeAnswer>, HttpError> {
    let tb = app.tablebase.clone();
    let answer = tokio::task::spawn_blocking(move || chess::probe(tb.as_ref(), &req))
        .await
        .map_err(|e| ApiError::Internal(format!("the probe failed: {e}")))??;
    Ok(Json(answer))
}

/// `POST /api/chess/chess960` ([`chess::chess960`]).
///
/// # Errors
/// 400 for a number outside 0 to 959.
pub async fn chess960(Body(req): Body<Chess960Request>) -> Result<Json<ChessState>, HttpError> {
    Ok(Json(chess::chess960(&req)?))
}
