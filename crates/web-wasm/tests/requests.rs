//! The browser build's requests, run natively: each path routes to the request the server
//! routes it to, inputs are read as the server reads them (JSON bodies, query strings), and
//! errors carry the server's status and kind.

use ply_web_api::Sink;
use ply_web_wasm::{answer, Context, Worker};
use serde_json::Value;
use std::sync::Mutex;

/// Collects a stream's events; the last one is marked.
#[derive(Default)]
struct Events(Mutex<Vec<(String, Value, bool)>>);

impl Sink for Events {
    fn progress(&self, event: &str, data: &Value) -> bool {
        self.0
            .lock()
            .unwrap()
            .push((event.into(), data.clone(), false));
        true
    }
    fn last(&self, event: &str, data: &Value) {
        self.0
            .lock()
            .unwrap()
            .push((event.into(), data.clone(), true));
    }
    fn is_closed(&self) -> bool {
        false
    }
}

fn error(e: Value, status: u16, kind: &str) {
    assert_eq!(e["status"], status, "{e}");
    assert_eq!(e["kind"], kind, "{e}");
    assert!(e["error"].as_str().is_some_and(|t| !t.is_empty()), "{e}");
}

#[test]
fn requests_without_a_search_are_answered_on_the_page() {
    let ctx = Context::new();
    let s = answer(&ctx, "othello/state", r#"{"moves": "f5d6"}"#).unwrap();
    assert_eq!(
        (s["side"].as_str(), s["moves"].clone()),
        (Some("black"), serde_json::json!(["f5", "d6"]))
    );
    // the server's paths are read too
    let s = answer(&ctx, "/api/chess/state", r#"{"moves": "e4 e5 Nf3"}"#).unwrap();
    assert_eq!(s["san"], serde_json::json!(["e4", "e5", "Nf3"]));
    let h = answer(&ctx, "health", "").unwrap();
    assert_eq!(h["tablebase_pieces"], 0);
    assert!(
        h["othello_book"]["positions"].as_u64().unwrap() > 1000,
        "{h}"
    );
    assert_eq!(h["othello_book"]["learnable"], false);
    let p = answer(
        &ctx,
        "chess/probe",
        "fen=4k3/8/8/8/8/8/8/4KQ2%20w%20-%20-%200%201",
    )
    .unwrap();
    assert_eq!(p["status"], "no_tables", "{p}");
    error(
        answer(
            &ctx,
            "chess/state",
            r#"{"fen": "8/8/8/8/8/8/8/9 w - - 0 1"}"#,
        )
        .unwrap_err(),
        400,
        "bad_position",
    );
    error(
        answer(&ctx, "othello/load", r#"{"text": "f5f5"}"#).unwrap_err(),
        400,
        "bad_move",
    );
    error(
        answer(&ctx, "othello/state", "not json").unwrap_err(),
        400,
        "bad_request",
    );
    error(
        answer(&ctx, "chess/nope", "{}").unwrap_err(),
        404,
        "not_found",
    );
    error(
        answer(&ctx, "othello/learn", "{}").unwrap_err(),
        409,
        "no_book",
    );
    error(
        answer(&ctx, "othello/state", &" ".repeat(70_000)).unwrap_err(),
        400,
        "bad_request",
    );
    // a request that searches belongs to a worker
    error(
        answer(&ctx, "chess/play", "{}").unwrap_err(),
        400,
        "bad_request",
    );
}

#[test]
fn a_worker_plays_and_streams() {
    let mut w = Worker::new(2).unwrap();
    let none = Events::default();
    let r = w
        .request("chess/play", r#"{"moves": "e4", "nodes": 2000}"#, &none)
        .unwrap();
    assert_eq!(r["state"]["moves"].as_array().unwrap().len(), 2, "{r}");
    // from the start ply's reply comes from the shipped book, without a search
    let r = w.request("othello/play", "{}", &none).unwrap();
    assert_eq!(r["book"], true, "{r}");
    let r = w
        .request(
            "othello/play",
            r#"{"moves": "f5", "book": false, "level": 2}"#,
            &none,
        )
        .unwrap();
    assert_eq!(
        (
            r["book"].clone(),
            r["state"]["moves"].as_array().unwrap().len()
        ),
        (Value::Bool(false), 2)
    );
    error(
        w.request("othello/play", r#"{"moves": "f5f5"}"#, &none)
            .unwrap_err(),
        400,
        "bad_move",
    );
    assert!(none.0.lock().unwrap().is_empty());

    // streams: query strings, info events, then the last one
    for (path, query, first) in [
        ("othello/hint", "moves=f5d6&level=4&book=false", "info"),
        ("chess/analyse", "moves=e4&nodes=5000&multipv=2", "info"),
        ("othello/review", "moves=f5d6c3&level=2", "progress"),
        ("chess/review", "moves=e4%20e5&nodes=500", "progress"),
    ] {
        let events = Events::default();
        assert_eq!(w.request(path, query, &events).unwrap(), Value::Null);
        let got = events.0.into_inner().unwrap();
        assert!(got.len() >= 2, "{path}: {got:?}");
        assert_eq!(got[0].0, first, "{path}");
        let (name, data, last) = got.last().unwrap();
        assert!(*last && name == "done", "{path}: {name} {data}");
        assert!(got[..got.len() - 1].iter().all(|e| !e.2), "{path}");
    }
    error(
        w.request("chess/analyse", "nodes=x", &none).unwrap_err(),
        400,
        "bad_request",
    );
    error(
        w.request("othello/review", "", &none).unwrap_err(),
        400,
        "bad_request",
    );
}
