//! The server's limits as a client meets them: `ply serve --max-searches N` run as the real
//! binary (N searches hold N slots, the next search request waits and gets 503 `busy`, a slot
//! comes back when its client goes away, and the slot count follows N, not the default), and
//! the request-body limit [`ply_web::server::MAX_BODY`] on the router in-process (a body of
//! exactly the limit is read, one byte more is refused with the JSON 400 of every rejected
//! body, as `api`'s module documentation says).

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use ply_web::server::MAX_BODY;
use ply_web::{router, AppState, Config};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tower::ServiceExt;

mod common;

use common::Server;

impl Server {
    /// Sends one request (`Connection: close`) and returns the status and the JSON body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        let status = reply
            .get(9..12)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line: {reply}"));
        let (_, json) = reply.split_once("\r\n\r\n").expect("headers end");
        let json = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {reply}"));
        (status, json)
    }

    /// `GET /api/health`: the slots, all and free.
    fn slots(&self) -> (u64, u64) {
        let (status, h) = self.request("GET", "/api/health", "");
        assert_eq!(status, 200, "{h}");
        (h["slots"].as_u64().unwrap(), h["free"].as_u64().unwrap())
    }

    /// Opens a long chess analysis (an event stream that holds a search slot while it is open)
    /// and returns its connection once the server has answered 200.
    fn hold_a_slot(&self) -> TcpStream {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        write!(
            s,
            "GET /api/chess/analyse?ms=20000 HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut reader = BufReader::new(s.try_clone().unwrap());
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        s
    }

    /// `POST /api/othello/play` of the first move at level 1: a search that needs a slot.
    fn play(&self) -> (u16, Value) {
        self.request("POST", "/api/othello/play", r#"{"level": 1}"#)
    }
}

/// Asserts a successful first move of Othello.
fn assert_played(status: u16, body: &Value) {
    assert_eq!(status, 200, "{body}");
    let mv = body["move"].as_str().unwrap_or("");
    assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{body}");
}

#[test]
fn max_searches_bounds_the_searches_of_the_real_server() {
    // one slot: a held stream leaves none, the next search waits and is told busy
    let one = Server::start(&["--max-searches", "1"]);
    assert_eq!(one.slots(), (1, 1));
    let stream = one.hold_a_slot();
    assert_eq!(one.slots(), (1, 0));
    let (status, busy) = one.play();
    assert_eq!(status, 503, "{busy}");
    assert_eq!(busy["kind"], "busy", "{busy}");
    assert!(
        busy["error"].as_str().is_some_and(|e| e.contains("busy")),
        "{busy}"
    );
    // the client goes away: its search stops and the slot serves the next request
    drop(stream);
    let start = Instant::now();
    loop {
        let (status, body) = one.play();
        if status == 200 {
            assert_played(status, &body);
            break;
        }
        assert_eq!(body["kind"], "busy", "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the slot never came back"
        );
    }
    drop(one);

    // three slots, one more than the default: two held streams still leave one for a move
    let three = Server::start(&["--max-searches", "3"]);
    assert_eq!(three.slots(), (3, 3));
    let held = [three.hold_a_slot(), three.hold_a_slot()];
    assert_eq!(three.slots(), (3, 1));
    let (status, body) = three.play();
    assert_played(status, &body);
    drop(held);
    drop(three);

    // 0 is raised to one slot (a server that could never search would be useless)
    assert_eq!(Server::start(&["--max-searches", "0"]).slots(), (1, 1));
}

/// `POST /api/chess/state` with `body` on a router of the default settings: the status and the
/// reply, which must be JSON.
async fn post_state(body: String) -> (StatusCode, Value) {
    let app = router(
        AppState::new(Config {
            hash_mib: 2,
            max_searches: 1,
            ..Config::default()
        })
        .expect("tables"),
    );
    let req = Request::post("/api/chess/state")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let r = app.oneshot(req).await.expect("infallible");
    let status = r.status();
    let ctype = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = r.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(ctype.starts_with("application/json"), "{ctype}: {text}");
    (status, serde_json::from_str(&text).expect("a JSON reply"))
}

/// `{}` padded with spaces to `len` bytes: the same valid request at any length.
fn padded(len: usize) -> String {
    format!("{{{}}}", " ".repeat(len - 2))
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_a_json_error() {
    assert_eq!(MAX_BODY, 64 * 1024);
    // exactly the limit: read and answered (the start position)
    let (status, body) = post_state(padded(MAX_BODY)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["fen"]
            .as_str()
            .is_some_and(|f| f.starts_with("rnbqkbnr/")),
        "{body}"
    );
    // one byte more, and far more: 400 with the JSON error of a rejected body
    for len in [MAX_BODY + 1, 16 * MAX_BODY] {
        let (status, body) = post_state(padded(len)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{len}: {body}");
        assert_eq!(body["kind"], "bad_request", "{body}");
        let error = body["error"].as_str().unwrap_or("");
        assert!(error.contains("length limit"), "{len}: {body}");
    }
}
