//! The pages' requests by path, as the server routes them: `othello/play` is what
//! `POST /api/othello/play` is to `ply serve`. A request that posts JSON to the server gives
//! its JSON body here; one the server streams (or answers to a GET) gives its query string.
//! Replies are JSON values, errors [`ApiError`]s, as the server's.

use ply_web_api::book::{default_book, ServerBook};
use ply_web_api::limits::MAX_REQUEST;
use ply_web_api::{chess, othello, tablebase, ApiError, Job, Stream};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// What the browser build has beside its engines: the opening book shipped with ply (the
/// server's default one); no Syzygy tables.
pub struct Context {
    /// The Othello book, read-only.
    pub book: Option<Arc<ServerBook>>,
}

impl Context {
    /// The context with the shipped book (none if it does not decode, which a test of the book
    /// crate guards against).
    pub fn new() -> Context {
        Context {
            book: default_book().ok().map(Arc::new),
        }
    }
}

impl Default for Context {
    fn default() -> Self {
        Context::new()
    }
}

/// A routed request: answered now, a job (its reply after a search), or a stream of events.
pub enum Routed {
    /// The reply.
    Answer(Value),
    /// The reply after a search.
    Job(Job<Value>),
    /// The events of a search.
    Stream(Stream),
}

fn parse_json<T: DeserializeOwned>(input: &str) -> Result<T, ApiError> {
    serde_json::from_str(input)
        .map_err(|e| ApiError::BadRequest(format!("the request is not the JSON asked for: {e}")))
}

fn parse_query<T: DeserializeOwned>(input: &str) -> Result<T, ApiError> {
    serde_urlencoded::from_str(input.trim_start_matches('?'))
        .map_err(|e| ApiError::BadRequest(format!("the query is not the one asked for: {e}")))
}

fn to_json<T: Serialize>(reply: &T) -> Result<Value, ApiError> {
    serde_json::to_value(reply).map_err(|e| ApiError::Internal(e.to_string()))
}

fn answer<T: Serialize>(reply: Result<T, ApiError>) -> Result<Routed, ApiError> {
    Ok(Routed::Answer(to_json(&reply?)?))
}

fn job<T: Serialize + 'static>(job: Result<Job<T>, ApiError>) -> Result<Routed, ApiError> {
    Ok(Routed::Job(match job? {
        Job::Ready(r) => Job::Ready(to_json(&r)?),
        Job::Search(search) => Job::Search(Box::new(move |e| to_json(&search(e)?))),
    }))
}

/// Routes the request `path` (`othello/play`, `chess/analyse`, ...; a leading `/api/` is
/// allowed) with its `input`.
///
/// # Errors
/// [`ApiError::NotFound`] for a path the server does not route, [`ApiError::BadRequest`] for an
/// input that does not parse, [`ApiError::NoBook`] for `othello/learn`, and the request's own
/// errors (a bad game, a game that is over).
pub fn route(ctx: &Context, path: &str, input: &str) -> Result<Routed, ApiError> {
    if input.len() > MAX_REQUEST {
        return Err(ApiError::BadRequest(format!(
            "the request is too long ({} bytes, at most {MAX_REQUEST})",
            input.len()
        )));
    }
    let book = ctx.book.as_ref();
    match path.trim_start_matches("/api/").trim_matches('/') {
        // one search at a time as far as the page knows, no tables, the shipped book (which
        // cannot learn: there is no file to write it back to)
        "health" => Ok(Routed::Answer(ply_web_api::health(
            1,
            1,
            0,
            ctx.book.as_deref(),
        ))),
        "othello/state" => answer(othello::state(&parse_json(input)?)),
        "othello/load" => answer(othello::load(&parse_json(input)?)),
        "othello/play" => job(othello::play(book, &parse_json(input)?)),
        "othello/solve" => job(othello::solve(&parse_json(input)?)),
        "othello/hint" => Ok(Routed::Stream(othello::hint(book, &parse_query(input)?)?)),
        "othello/review" => Ok(Routed::Stream(othello::review(&parse_query(input)?)?)),
        "othello/learn" => Err(ApiError::NoBook(
            "the page's book is the one shipped with ply and cannot learn games here; \
             `ply serve --othello-book FILE` can"
                .into(),
        )),
        "chess/state" => answer(chess::state(&parse_json(input)?)),
        "chess/load" => answer(chess::load(&parse_json(input)?)),
        "chess/pgn" => answer(chess::export(&parse_json(input)?)),
        "chess/chess960" => answer(chess::chess960(&parse_json(input)?)),
        "chess/play" => job(chess::play(None, &parse_json(input)?)),
        "chess/analyse" => Ok(Routed::Stream(chess::analyse(None, &parse_query(input)?)?)),
        "chess/review" => Ok(Routed::Stream(chess::review(None, &parse_query(input)?)?)),
        "chess/probe" => answer::<tablebase::ProbeAnswer>(chess::probe(None, &parse_query(input)?)),
        _ => Err(ApiError::NotFound),
    }
}

/// The error as the page reads it: the server's JSON body with its HTTP status.
pub fn error_json(e: &ApiError) -> Value {
    let mut body = e.body();
    body["status"] = json!(e.status());
    body
}
