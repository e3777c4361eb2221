//! The JSON and event-stream routes, one module per game (each hands its requests to
//! [`ply_web_api`]), and the extractors they share: request bodies and queries whose rejections
//! become [`ApiError`]s (JSON, 400) instead of axum's plain text.

pub mod chess;
pub mod othello;

use crate::error::{ApiError, HttpError};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A JSON body whose rejection is an [`ApiError::BadRequest`].
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = HttpError;

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
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Params(v)),
            Err(e) => Err(rejected_query(e)),
        }
    }
}

fn rejected_json(e: JsonRejection) -> HttpError {
    HttpError(ApiError::BadRequest(e.body_text()))
}

fn rejected_query(e: QueryRejection) -> HttpError {
    HttpError(ApiError::BadRequest(e.body_text()))
}
