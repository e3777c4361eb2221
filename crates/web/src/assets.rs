//! The embedded pages, scripts and styles. Only the paths listed in [`ASSETS`] are served;
//! nothing is read from disk, so no request can reach a file outside them.

use crate::error::{ApiError, HttpError};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// One embedded file.
pub struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its content type.
    pub mime: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Every file the server serves outside the API.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        mime: HTML,
        body: include_bytes!("../assets/index.html"),
    },
    Asset {
        path: "/othello",
        mime: HTML,
        body: include_bytes!("../assets/othello.html"),
    },
    Asset {
        path: "/chess",
        mime: HTML,
        body: include_bytes!("../assets/chess.html"),
    },
    Asset {
        path: "/assets/style.css",
        mime: "text/css; charset=utf-8",
        body: include_bytes!("../assets/style.css"),
    },
    Asset {
        path: "/assets/common.js",
        mime: JS,
        body: include_bytes!("../assets/common.js"),
    },
    Asset {
        path: "/assets/backend.js",
        mime: JS,
        body: include_bytes!("../assets/backend.js"),
    },
    Asset {
        path: "/assets/game.js",
        mime: JS,
        body: include_bytes!("../assets/game.js"),
    },
    Asset {
        path: "/assets/editor.js",
        mime: JS,
        body: include_bytes!("../assets/editor.js"),
    },
    Asset {
        path: "/assets/clock.js",
        mime: JS,
        body: include_bytes!("../assets/clock.js"),
    },
    Asset {
        path: "/assets/othello.js",
        mime: JS,
        body: include_bytes!("../assets/othello.js"),
    },
    Asset {
        path: "/assets/chess.js",
        mime: JS,
        body: include_bytes!("../assets/chess.js"),
    },
    Asset {
        path: "/favicon.svg",
        mime: "image/svg+xml",
        body: include_bytes!("../assets/favicon.svg"),
    },
];

/// The asset at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// Serves an embedded file (GET or HEAD), or a 404 (405 for another method).
pub async fn serve(method: Method, uri: Uri) -> Response {
    let Some(asset) = find(uri.path()) else {
        return HttpError(ApiError::NotFound).into_response();
    };
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "method not allowed").into_response();
    }
    let mut r = asset.body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
        ),
    );
    r
}
