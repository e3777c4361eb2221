//! [`HttpError`]: an [`ApiError`] as an HTTP reply, its status and JSON body.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
pub use ply_web_api::ApiError;

/// An [`ApiError`] on its way out: the reply is `{"error": <Display text>, "kind": <kind>}`
/// with the status of [`ApiError::status`].
#[derive(Debug)]
pub struct HttpError(pub ApiError);

impl From<ApiError> for HttpError {
    fn from(e: ApiError) -> Self {
        HttpError(e)
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(self.0.body())).into_response()
    }
}
