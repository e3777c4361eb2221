//! The JSON and event-stream API, one module per game, and the extractors they share: request
//! bodies and queries whose rejections become [`ApiError`]s (JSON, 400) instead of axum's plain
//! text.

pub mod chess;
pub mod othello;

use crate::error::ApiError;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A JSON body whose rejection is an [`ApiError::BadRequest`].
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(v)),
            Err(e) => Err(rejected_json(e)),
        }
    }
}

/// A query string whose rejection is an [`ApiError::BadRequest`].
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Params(v)),
            Err(e) => Err(rejected_query(e)),
        }
    }
}

fn rejected_json(e: JsonRejection) -> ApiError {
    ApiError::BadRequest(e.body_text())
}

fn rejected_query(e: QueryRejection) -> ApiError {
    ApiError::BadRequest(e.body_text())
}

/// Refuses a text field longer than [`MAX_TEXT`](crate::limits::MAX_TEXT).
///
/// # Errors
/// [`ApiError::BadRequest`] naming the field.
pub fn check_length(field: &str, text: &str) -> Result<(), ApiError> {
    if text.len() > crate::limits::MAX_TEXT {
        Err(ApiError::BadRequest(format!(
            "{field} is too long ({} bytes, at most {})",
            text.len(),
            crate::limits::MAX_TEXT
        )))
    } else {
        Ok(())
    }
}
