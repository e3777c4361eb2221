//! The review routes in-process (tower `oneshot` on the router): `GET /api/chess/review` and
//! `GET /api/othello/review` stream `progress` events and a `done` report; bad games are refused
//! before the stream starts; a client that goes away stops the review and frees its slot.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use ply_web::{router, AppState, Config};
use serde_json::Value;
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn app(max_searches: usize) -> Router {
    router(
        AppState::new(Config {
            hash_mib: 4,
            max_searches,
            queue_wait: Duration::from_millis(100),
            ..Config::default()
        })
        .expect("tables"),
    )
}

/// `GET uri`: the status and the whole body.
async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let r = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .expect("infallible");
    let status = r.status();
    let body = r.into_body().collect().await.expect("body").to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The `(event, data)` pairs of a server-sent event stream.
fn events(body: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut event = String::new();
    for line in body.lines() {
        if let Some(e) = line.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            out.push((event.clone(), serde_json::from_str(d).expect("JSON data")));
        }
    }
    out
}

/// Checks the progress events (`done` rising to `total`) and returns the `done` event's data.
fn finished(body: &str) -> Value {
    let evs = events(body);
    let (last, data) = evs.last().expect("events");
    assert_eq!(last, "done", "{body}");
    let progress: Vec<&Value> = evs
        .iter()
        .filter(|(e, _)| e == "progress")
        .map(|(_, d)| d)
        .collect();
    assert!(!progress.is_empty(), "{body}");
    let end = progress.last().unwrap();
    assert_eq!(end["done"], end["total"], "{body}");
    assert!(progress
        .windows(2)
        .all(|w| w[0]["done"].as_u64() <= w[1]["done"].as_u64()));
    data.clone()
}

fn esc(t: &str) -> String {
    t.replace('%', "%25")
        .replace(' ', "%20")
        .replace('+', "%2B")
        .replace('#', "%23")
}

#[tokio::test]
async fn chess_review_finds_the_queen_blunder() {
    let app = app(1);
    let moves = "e4 e5 Qh5 Nc6 Qxe5+ Nxe5";
    let (s, body) = get(
        &app,
        &format!("/api/chess/review?moves={}&nodes=20000", esc(moves)),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let r = finished(&body);
    assert_eq!(r["nodes"], 20000, "{r}");
    let list = r["moves"].as_array().unwrap();
    let san: Vec<&str> = list.iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(san, ["e4", "e5", "Qh5", "Nc6", "Qxe5+", "Nxe5"], "{r}");
    let qxe5 = &list[4];
    assert_eq!(qxe5["judgement"], "blunder", "{qxe5}");
    assert_eq!(qxe5["side"], "white");
    assert_eq!(qxe5["ply"], 5);
    assert_ne!(qxe5["best"], "d1e5");
    assert!(!qxe5["best_san"].as_str().unwrap().is_empty());
    assert_eq!(qxe5["pv"][0], qxe5["best"], "{qxe5}");
    assert!(qxe5["cp_loss"].as_i64().unwrap() >= 300, "{qxe5}");
    // Black to move after the blunder: White's view of the position after it is bad for White
    assert!(
        qxe5["score_after_white"]["cp"].as_i64().unwrap() < -300,
        "{qxe5}"
    );
    // taking the queen is Black's best (or as good)
    assert!(
        ["best", "good"].contains(&list[5]["judgement"].as_str().unwrap()),
        "{r}"
    );
    for side in ["white", "black"] {
        let a = r["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a), "{r}");
        assert!(r["acpl"][side].as_f64().unwrap() >= 0.0, "{r}");
    }
    assert!(r["accuracy"]["white"].as_f64() < r["accuracy"]["black"].as_f64());
    // the slot is back once the stream ends (the search thread returns it just after)
    let start = Instant::now();
    while free_slots(&app).await == 0 {
        assert!(start.elapsed() < Duration::from_secs(5), "slot not back");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn chess_review_refuses_bad_games_before_streaming() {
    let app = app(1);
    for (uri, kind) in [
        ("/api/chess/review", "bad_request"),
        ("/api/chess/review?moves=", "bad_request"),
        ("/api/chess/review?moves=e4%20e4", "bad_move"),
        ("/api/chess/review?fen=nonsense&moves=e4", "bad_position"),
        ("/api/chess/review?moves=e4&nodes=many", "bad_request"),
    ] {
        let (s, body) = get(&app, uri).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {body}");
        let b: Value = serde_json::from_str(&body).expect("a JSON error");
        assert_eq!(b["kind"], kind, "{uri}: {b}");
    }
    let (_, body) = get(&app, "/api/chess/review?moves=").await;
    assert!(body.contains("nothing to review"), "{body}");
}

/// The keys of a move of the Othello `done` report, the same as a move of
/// `ply-othello review --json` (checked against the same list in
/// `crates/othello-cli/tests/review_cli.rs`): both print `ply_othello_engine::ReviewReport`.
const OTHELLO_MOVE_KEYS: [&str; 12] = [
    "best",
    "empties",
    "exact",
    "forced",
    "judgement",
    "loss",
    "move",
    "ply",
    "pv",
    "score_best",
    "score_played",
    "side",
];

/// The keys of the Othello `done` report (`ply-othello review --json` adds `game` and
/// `seconds`).
const OTHELLO_REPORT_KEYS: [&str; 5] = ["exact_from", "level", "loss", "mean_loss", "moves"];

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

/// White to move with 9 empties: H4 wins by 30, A6 by 20, G1 loses by 6 (exact scores).
const ENDING: &str = "OXO-X---OXXOXXXOOXOXXXXXXXXXOOX-XXXOOXOX-XOOOXOOXXXOOOOOOX--O-OO O";

#[tokio::test]
async fn othello_review_judges_an_exact_ending_and_a_short_opening() {
    let app = app(1);
    let (s, body) = get(
        &app,
        &format!(
            "/api/othello/review?position={}&moves=g1&level=4",
            esc(ENDING)
        ),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let r = finished(&body);
    let m = &r["moves"][0];
    assert_eq!(keys(&r), OTHELLO_REPORT_KEYS, "{r}");
    assert_eq!(keys(m), OTHELLO_MOVE_KEYS, "{m}");
    assert_eq!(
        (&m["move"], &m["side"], &m["empties"]),
        (&Value::from("g1"), &Value::from("white"), &Value::from(9)),
        "{m}"
    );
    assert_eq!(
        (&m["best"], &m["score_best"]),
        (&"h4".into(), &30.into()),
        "{m}"
    );
    assert_eq!(
        (&m["score_played"], &m["loss"]),
        (&(-6).into(), &36.into()),
        "{m}"
    );
    assert_eq!(
        (&m["exact"], &m["judgement"]),
        (&true.into(), &"blunder".into())
    );
    assert_eq!(m["pv"][0], "h4", "{m}");
    assert_eq!(r["loss"]["white"], 36, "{r}");
    assert_eq!(r["mean_loss"]["white"], 36.0, "{r}");
    assert_eq!(r["loss"]["black"], 0, "{r}");
    assert_eq!(
        (&r["level"], &r["exact_from"]),
        (&4.into(), &10.into()),
        "{r}"
    );

    // a short opening at a low level: every move judged, in order
    let (s, body) = get(&app, "/api/othello/review?moves=f5d6c3d3c4f4&level=2").await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let r = finished(&body);
    let list = r["moves"].as_array().unwrap();
    let moves: Vec<&str> = list.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["f5", "d6", "c3", "d3", "c4", "f4"], "{r}");
    for (i, m) in list.iter().enumerate() {
        assert_eq!(m["ply"], i + 1, "{m}");
        assert_eq!(m["side"], if i % 2 == 0 { "black" } else { "white" }, "{m}");
        let loss = m["loss"].as_i64().unwrap();
        let (best, played) = (
            m["score_best"].as_i64().unwrap(),
            m["score_played"].as_i64().unwrap(),
        );
        assert_eq!(loss, (best - played).max(0), "{m}");
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"]
                .contains(&m["judgement"].as_str().unwrap()),
            "{m}"
        );
    }
    assert_eq!(list[0]["loss"], 0, "the four first moves are alike: {r}");
    // the default level and the clamp
    let (s, body) = get(&app, "/api/othello/review?moves=f5d6&level=999").await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let r = finished(&body);
    assert_eq!(r["level"], ply_web::limits::MAX_OTHELLO_REVIEW_LEVEL, "{r}");
}

#[tokio::test]
async fn othello_review_refuses_bad_games_before_streaming() {
    let app = app(1);
    for (uri, kind) in [
        ("/api/othello/review", "bad_request"),
        ("/api/othello/review?moves=f5f5", "bad_move"),
        ("/api/othello/review?position=XO&moves=f5", "bad_position"),
        ("/api/othello/review?moves=f5&level=high", "bad_request"),
    ] {
        let (s, body) = get(&app, uri).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {body}");
        let b: Value = serde_json::from_str(&body).expect("a JSON error");
        assert_eq!(b["kind"], kind, "{uri}: {b}");
    }
    let (_, body) = get(&app, "/api/othello/review").await;
    assert!(body.contains("nothing to review"), "{body}");
}

/// The free slots of `/api/health`.
async fn free_slots(app: &Router) -> u64 {
    let (_, h) = get(app, "/api/health").await;
    let h: Value = serde_json::from_str(&h).unwrap();
    h["free"].as_u64().unwrap()
}

/// Opens a long review at `uri`, reads its first event, checks that it holds the only slot, drops
/// the stream and waits for the slot to come back well before the review could have ended.
async fn dropped_review_frees_its_slot(app: &Router, uri: &str) {
    let r = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "{uri}");
    let mut body = r.into_body();
    let frame = body.frame().await.expect("a first event").expect("data");
    let text = String::from_utf8_lossy(frame.data_ref().expect("data")).into_owned();
    assert!(text.contains("event: progress"), "{text}");
    assert_eq!(free_slots(app).await, 0, "the review holds the slot");
    // a second review finds every slot busy
    let (s, b) = get(app, uri).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
    drop(body);
    let start = Instant::now();
    while free_slots(app).await == 0 {
        // the chess review stops after the search in progress (a fraction of a second), the
        // Othello one within milliseconds; either review would run for minutes
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "slot not freed: {uri}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_dropped_review_stream_stops_the_review_and_frees_its_slot() {
    let app = app(1);
    // 60 plies at a million nodes a position
    let game = "g1f3 e7e6 d2d4 c7c5 e2e3 b8c6 a2a3 d7d5 d4c5 f8c5 b2b4 c5e7 c1b2 e7f6 c2c3 e6e5 \
                f3d2 g8h6 f1e2 e8g8 c3c4 d5d4 d2e4 f6e7 b4b5 f7f5 e4g3 d8b6 d1c2 f5f4 g3e4 f4e3 \
                b5c6 e3f2 e1f1 b6c6 b2c1 c8f5 b1d2 h6g4 e2g4 f5g4 a3a4 a8d8 c2d3 f8f4 e4g3 g4e6 \
                d3b3 e5e4 g3e2 f4f8 c1b2 e4e3 b3d3 e3d2 h2h4 e6c4 d3d2 c6e4";
    dropped_review_frees_its_slot(
        &app,
        &format!("/api/chess/review?moves={}&nodes=1000000", esc(game)),
    )
    .await;
    // a random-looking Othello game reviewed at the highest level
    let game = "f5f6c4f4g6b4f7h7h6c6c3d2g5g7f8h5e6e7g4h4e8g8d6d7d8c8h8pad3f3b5b3b8e3c2a6c5\
                b2b7a8d1b6g3c1a5g2a4b1f2a2h2g1h1c7a3e1a1e2h3paa7paf1";
    dropped_review_frees_its_slot(&app, &format!("/api/othello/review?moves={game}&level=60"))
        .await;
}
