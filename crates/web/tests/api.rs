//! The API in-process (tower `oneshot` on the router): status codes, JSON bodies, bad input,
//! the event streams and the bound on concurrent searches.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use ply_web::server::MAX_BODY;
use ply_web::{router, AppState, Config};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn app_with(config: Config) -> Router {
    router(AppState::new(config).expect("tables"))
}

fn app() -> Router {
    app_with(Config {
        hash_mib: 4,
        ..Config::default()
    })
}

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, String, String) {
    let r = app.clone().oneshot(req).await.expect("infallible");
    let status = r.status();
    let ctype = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = r.into_body().collect().await.expect("body").to_bytes();
    (status, ctype, String::from_utf8_lossy(&body).into_owned())
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String, String) {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn post(app: &Router, uri: &str, body: &Value) -> (StatusCode, Value) {
    post_text(app, uri, body.to_string()).await
}

/// `POST uri` with `body` as it is (JSON or not): the status and the reply, which must be JSON.
async fn post_text(app: &Router, uri: &str, body: String) -> (StatusCode, Value) {
    let req = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let (status, ctype, text) = send(app, req).await;
    assert!(
        ctype.starts_with("application/json"),
        "{uri}: {ctype} {text}"
    );
    (status, serde_json::from_str(&text).expect("JSON reply"))
}

fn assert_error(status: StatusCode, body: &Value, want: StatusCode, kind: &str) {
    assert_eq!(status, want, "{body}");
    assert_eq!(body["kind"], kind, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{body}"
    );
}

#[tokio::test]
async fn pages_are_embedded_and_nothing_else_is_served() {
    let app = app();
    for (path, mime) in [
        ("/", "text/html"),
        ("/chess", "text/html"),
        ("/othello", "text/html"),
        ("/assets/common.js", "text/javascript"),
        ("/assets/backend.js", "text/javascript"),
        ("/assets/game.js", "text/javascript"),
        ("/assets/editor.js", "text/javascript"),
        ("/assets/clock.js", "text/javascript"),
        ("/assets/othello.js", "text/javascript"),
        ("/assets/chess.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
    ] {
        let (status, ctype, body) = get(&app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(ctype.starts_with(mime), "{path}: {ctype}");
        assert!(!body.is_empty());
    }
    for path in [
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/../../etc/passwd",
        "/src/lib.rs",
        "/assets/",
        "/nope",
    ] {
        let (status, ctype, _) = get(&app, path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(ctype.starts_with("application/json"), "{path}");
    }
    let req = Request::builder()
        .method(Method::DELETE)
        .uri("/chess")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, req).await.0, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn othello_state_checks_every_move() {
    let app = app();
    let (s, b) = post(&app, "/api/othello/state", &json!({"moves": "f5d6c3"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b["moves"], json!(["f5", "d6", "c3"]));
    assert_eq!(b["side"], "white");
    assert!(b["ggf"].as_str().unwrap().contains("B[F5]W[D6]B[C3]"));
    let (s, b) = post(&app, "/api/othello/state", &json!({"moves": "f5f5"})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    let (s, b) = post(&app, "/api/othello/state", &json!({"moves": "x9"})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    let (s, b) = post(&app, "/api/othello/state", &json!({"position": "XO- X"})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_position");
    let long = "f5".repeat(5000);
    let (s, b) = post(&app, "/api/othello/state", &json!({ "moves": long })).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    let (s, b) = post(&app, "/api/othello/state", &json!({"moves": 5})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    // malformed JSON and a missing content type are JSON errors too
    let req = Request::post("/api/othello/state")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{bad"))
        .unwrap();
    let (s, ctype, _) = send(&app, req).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(ctype.starts_with("application/json"));
    let req = Request::post("/api/othello/state")
        .body(Body::from("{}"))
        .unwrap();
    let (s, ctype, _) = send(&app, req).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(ctype.starts_with("application/json"));
}

#[tokio::test]
async fn othello_load_reads_obf_ggf_and_move_lists() {
    let app = app();
    let (s, b) = post(&app, "/api/othello/load", &json!({"text": "f5d6c3d3c4"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["moves"].as_array().unwrap().len(), 5);
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
    let (s, b) = post(&app, "/api/othello/load", &json!({ "text": obf })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["side"], "black");
    let (_, g) = post(&app, "/api/othello/state", &json!({"moves": "f5d6"})).await;
    let (s, b) = post(&app, "/api/othello/load", &json!({ "text": g["ggf"] })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["moves"], json!(["f5", "d6"]));
    // a whole game's move list is longer than a board, and no board
    let game = "f5f6c4f4g6b4f7h7h6c6c3d2g5g7f8h5e6e7g4h4e8g8d6d7d8c8h8pad3f3b5b3b8e3c2a6c5\
                b2b7a8d1b6g3c1a5g2a4b1f2a2h2g1h1c7a3e1a1e2h3paa7paf1";
    let (s, b) = post(&app, "/api/othello/load", &json!({ "text": game })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["over"], true, "{b}");
    let (s, b) = post(
        &app,
        "/api/othello/load",
        &json!({ "text": "X".repeat(63) + "Z O" }),
    )
    .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_position");
    for bad in ["hello", "(;GM[Othello]BO[8 --];)", &"Z".repeat(64)] {
        let (s, b) = post(&app, "/api/othello/load", &json!({ "text": bad })).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {b}");
    }
}

/// FFO endgame #1 (black to move, 14 empties) and every move's exact score as the FFO suite
/// gives them (`fforum-1-19.obf`, data nobody here wrote).
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
const FFO_1_SCORES: [(&str, i64); 8] = [
    ("g8", 18),
    ("h1", 12),
    ("h7", 6),
    ("a2", 6),
    ("a3", 4),
    ("b1", -4),
    ("a4", -22),
    ("g2", -24),
];

#[tokio::test]
async fn othello_play_hint_and_solve() {
    let app = app();
    let (s, b) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5", "level": 2}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let mv = b["move"].as_str().unwrap();
    assert!(["d6", "f6", "f4"].contains(&mv), "{b}");
    assert_eq!(b["state"]["moves"][1], mv);
    // play a whole game at level 1, then check that over games are refused
    let mut moves = String::new();
    let mut solved = false;
    for _ in 0..80 {
        let (s, b) = post(
            &app,
            "/api/othello/play",
            &json!({"moves": moves, "level": 1}),
        )
        .await;
        if s == StatusCode::CONFLICT {
            assert_error(s, &b, StatusCode::CONFLICT, "game_over");
            break;
        }
        assert_eq!(s, StatusCode::OK, "{b}");
        moves = b["state"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let empties = b["state"]["empties"].as_u64().unwrap();
        if !solved && empties <= 12 && !b["state"]["over"].as_bool().unwrap() {
            let (s, r) = post(&app, "/api/othello/solve", &json!({ "moves": moves })).await;
            assert_eq!(s, StatusCode::OK, "{r}");
            assert_eq!(r["exact"], true, "{r}");
            let legal = b["state"]["legal"].as_array().unwrap().len();
            assert_eq!(r["moves"].as_array().unwrap().len(), legal, "{r}");
            solved = true;
        }
        if empties >= 40 {
            let (s, r) = post(&app, "/api/othello/solve", &json!({ "moves": moves })).await;
            assert_error(s, &r, StatusCode::BAD_REQUEST, "too_many_empties");
        }
    }
    assert!(solved);
    // FFO #1 (14 empties), every move's exact score as the suite publishes it
    let (s, r) = post(&app, "/api/othello/solve", &json!({ "position": FFO_1 })).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["exact"], true, "{r}");
    let got: Vec<(String, i64)> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["score"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut want: Vec<(String, i64)> = FFO_1_SCORES
        .iter()
        .map(|&(m, v)| (m.to_string(), v))
        .collect();
    let mut sorted = got.clone();
    sorted.sort();
    want.sort();
    assert_eq!(sorted, want, "{r}");
    assert_eq!(got[0], ("g8".to_string(), 18), "best first: {r}");
    let (s, b) = post(&app, "/api/othello/state", &json!({ "moves": moves })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b["over"], true, "{b}");
    assert!(b["result"].is_i64());
    // hints: a stream of info events, then done
    let (s, ctype, body) = get(&app, "/api/othello/hint?moves=f5d6&level=4&ms=5000").await;
    assert_eq!(s, StatusCode::OK);
    assert!(ctype.starts_with("text/event-stream"), "{ctype}");
    assert!(body.contains("event: info"), "{body}");
    assert!(body.contains("event: done"), "{body}");
    let (s, _, body) = get(&app, "/api/othello/hint?moves=f5f5").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    let (s, _, body) = get(&app, "/api/othello/hint?level=abc").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn chess_state_play_and_analysis() {
    let app = app();
    let (s, b) = post(&app, "/api/chess/state", &json!({"moves": "e4 e5 Nf3"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["san"], json!(["e4", "e5", "Nf3"]));
    assert_eq!(b["side"], "black");
    assert!(b["pgn"].as_str().unwrap().contains("1. e4 e5 2. Nf3 *"));
    let (s, b) = post(&app, "/api/chess/state", &json!({"moves": "e4 e4"})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    let (s, b) = post(&app, "/api/chess/state", &json!({"fen": "8/8/8 w - - 0 1"})).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_position");
    let (s, b) = post(
        &app,
        "/api/chess/play",
        &json!({"moves": "e2e4", "nodes": 5000}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["state"]["moves"].as_array().unwrap().len(), 2);
    let cp = b["score"]["cp"].as_i64().expect("no mate after 1. e4: {b}");
    assert!(cp.abs() < 150, "the opening is about level: {b}");
    // huge limits are clamped, not refused: a mate in one is found at once
    let (s, b) = post(
        &app,
        "/api/chess/play",
        &json!({"fen": "7k/8/5K2/6Q1/8/8/8/8 w - - 0 1", "nodes": u64::MAX}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["score"]["mate"], 1, "{b}");
    assert_eq!(b["state"]["status"], "checkmate");
    let (s, b) = post(&app, "/api/chess/play", &json!({"moves": "f3 e5 g4 Qh4#"})).await;
    assert_error(s, &b, StatusCode::CONFLICT, "game_over");
    let (s, ctype, body) = get(&app, "/api/chess/analyse?moves=e4&multipv=2&ms=300").await;
    assert_eq!(s, StatusCode::OK);
    assert!(ctype.starts_with("text/event-stream"));
    assert!(body.contains("\"multipv\":2"), "{body}");
    assert!(body.contains("event: done"), "{body}");
    // a mate in one: the analysis reports it, and its only mating move, in every line it sends
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let uri = format!(
        "/api/chess/analyse?fen={}&nodes=20000",
        fen.replace(' ', "%20")
    );
    let (s, _, body) = get(&app, &uri).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let events = sse_data(&body);
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(e, _)| e == "info")
        .map(|(_, d)| d)
        .collect();
    assert!(!infos.is_empty(), "{body}");
    for d in &infos {
        assert_eq!(d["score"]["mate"], 1, "{d}");
        assert_eq!(d["pv"][0], "Ra8#", "{d}");
    }
    let done = &events.last().expect("events").1;
    assert_eq!(
        (&done["move"], &done["score"]["mate"]),
        (&json!("Ra8#"), &json!(1)),
        "{body}"
    );
    let (s, _, body) = get(&app, "/api/chess/analyse?fen=nonsense").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "[Event \"x\"]\n\n1. d4 {best by test} d5 2. c4 (2. Nf3) e6 *"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["san"], json!(["d4", "d5", "c4", "e6"]));
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "1. e4 e5 1/2-1/2"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["san"], json!(["e4", "e5"]));
    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let (s, b) = post(&app, "/api/chess/load", &json!({ "text": fen })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["fen"], fen);
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "8/8/8/8/8/8/8/9 w - - 0 1"}),
    )
    .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_position");
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "1. e4 Ke7 Ke2 Kd6 Qh5 Kz9"}),
    )
    .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    // a PGN game from its FEN tag, a comment holding parentheses and a nested variation
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
                         1. e4 {a (b) c} Kd7 (1... Ke7 2. Ke2 (2. Kd2)) 2. e5 *"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["san"], json!(["e4", "Kd7", "e5"]));
    assert_eq!(b["start_fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    // an illegal move in a PGN game is named with its line and number
    let (s, b) = post(
        &app,
        "/api/chess/load",
        &json!({"text": "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *"}),
    )
    .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    assert!(
        b["error"]
            .as_str()
            .is_some_and(|e| e.contains("line 3: move 2. Ke3: illegal move")),
        "{b}"
    );
}

#[tokio::test]
async fn chess_move_trees_load_and_export_as_pgn() {
    let app = app();
    let text = "[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3) d6) 2. Nf3 (2. Bc4) Nc6 *";
    let (s, b) = post(&app, "/api/chess/load", &json!({ "text": text })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["san"], json!(["e4", "e5", "Nf3", "Nc6"]));
    let nodes = b["nodes"].as_array().expect("nodes");
    let flat: Vec<(Value, &str, &str)> = nodes
        .iter()
        .map(|n| {
            let s = |k: &str| n[k].as_str().unwrap_or("");
            (n["parent"].clone(), s("move"), s("san"))
        })
        .collect();
    let null = Value::Null;
    assert_eq!(
        flat,
        [
            (null.clone(), "e2e4", "e4"),
            (json!(0), "e7e5", "e5"),
            (json!(0), "c7c5", "c5"),
            (json!(2), "g1f3", "Nf3"),
            (json!(2), "b1c3", "Nc3"),
            (json!(3), "d7d6", "d6"),
            (json!(1), "g1f3", "Nf3"),
            (json!(1), "f1c4", "Bc4"),
            (json!(6), "b8c6", "Nc6"),
        ]
    );
    // the page sends its tree back (UCI; SAN is read too): the same record
    let (s, b) = post(&app, "/api/chess/pgn", &json!({ "nodes": nodes })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let pgn = b["pgn"].as_str().expect("pgn");
    assert!(
        pgn.contains("1. e4 e5 (1... c5 2. Nf3 (2. Nc3) 2... d6) 2. Nf3 (2. Bc4) 2... Nc6 *"),
        "{pgn}"
    );
    assert!(pgn.contains("[Event \"ply web\"]"), "{pgn}");
    let (s, b) = post(&app, "/api/chess/load", &json!({ "text": pgn })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(&b["nodes"], &Value::Array(nodes.clone()));
    // from a FEN, in SAN, with a result by the rules
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let body = json!({ "fen": fen, "nodes": [
        { "parent": null, "move": "Ra8#" }, { "parent": null, "move": "Kf1" } ] });
    let (s, b) = post(&app, "/api/chess/pgn", &body).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let pgn = b["pgn"].as_str().expect("pgn");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("1. Ra8# (1. Kf1) 1-0"), "{pgn}");
    // bad trees: a parent that comes later, an illegal move, too many moves
    let body =
        json!({ "nodes": [ { "parent": 1, "move": "e2e4" }, { "parent": null, "move": "d2d4" } ] });
    let (s, b) = post(&app, "/api/chess/pgn", &body).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    assert!(
        b["error"].as_str().is_some_and(|e| e.contains("node 0")),
        "{b}"
    );
    let body =
        json!({ "nodes": [ { "parent": null, "move": "e2e4" }, { "parent": 0, "move": "e2e4" } ] });
    let (s, b) = post(&app, "/api/chess/pgn", &body).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    assert!(
        b["error"].as_str().is_some_and(|e| e.contains("node 1")),
        "{b}"
    );
    let many: Vec<Value> = (0..=ply_web::limits::MAX_TREE_NODES)
        .map(|_| json!({ "parent": null, "move": "e2e4" }))
        .collect();
    let (s, b) = post(&app, "/api/chess/pgn", &json!({ "nodes": many })).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
}

#[tokio::test]
async fn a_rating_weakens_the_chess_engine_and_seeds_vary_its_moves() {
    let app = app();
    let mut weak = std::collections::BTreeSet::new();
    let mut full = std::collections::BTreeSet::new();
    for seed in 1..=12u64 {
        let body = json!({ "moves": "e2e4 e7e5 g1f3", "nodes": 20_000, "elo": 1000, "seed": seed });
        let (s, b) = post(&app, "/api/chess/play", &body).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        weak.insert(b["move"].as_str().expect("move").to_string());
        let body = json!({ "moves": "e2e4 e7e5 g1f3", "nodes": 20_000, "seed": seed });
        let (s, b) = post(&app, "/api/chess/play", &body).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        full.insert(b["move"].as_str().expect("move").to_string());
    }
    // the weakest rating plays several moves (each legal: the state took it), full strength
    // fewer (one, but for what the slots' tables keep from earlier searches)
    assert!(
        weak.len() >= 3 && full.len() < weak.len(),
        "{weak:?} {full:?}"
    );
}

#[tokio::test]
async fn a_named_othello_level_gives_discs_away_and_seeds_vary_its_moves() {
    let app = app();
    let mut weak = std::collections::BTreeSet::new();
    for seed in 1..=12u64 {
        let body = json!({ "moves": "f5d6c3d3c4", "strength": "beginner", "seed": seed });
        let (s, b) = post(&app, "/api/othello/play", &body).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        weak.insert(b["move"].as_str().expect("move").to_string());
    }
    assert!(weak.len() >= 2, "{weak:?}");
    // by number too; an unknown level is a 400 naming the levels
    let (s, b) = post(
        &app,
        "/api/othello/play",
        &json!({ "moves": "f5", "strength": "3" }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = post(
        &app,
        "/api/othello/play",
        &json!({ "strength": "grandmaster" }),
    )
    .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    assert!(
        b["error"].as_str().is_some_and(|e| e.contains("beginner")),
        "{b}"
    );
}

#[tokio::test]
async fn a_timed_game_s_move_keeps_to_its_clock() {
    let app = app();
    // budgets that take minutes untimed: the clock of 300 ms cuts them to its share
    for (uri, body) in [
        (
            "/api/chess/play",
            json!({ "moves": "e2e4", "nodes": 50_000_000u64, "time": 300, "inc": 0 }),
        ),
        (
            "/api/chess/play",
            json!({ "moves": "e2e4", "ms": 10_000, "time": 300, "inc": 100 }),
        ),
        (
            "/api/othello/play",
            json!({ "moves": "f5", "level": 60, "time": 300, "inc": 0 }),
        ),
    ] {
        let started = Instant::now();
        let (s, b) = post(&app, uri, &body).await;
        assert_eq!(s, StatusCode::OK, "{uri} {b}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{uri}: {:?} for a clock of 300 ms",
            started.elapsed()
        );
    }
    // a clock of hours is read as the longest clock; a bad one is a 400
    let (s, b) = post(
        &app,
        "/api/chess/play",
        &json!({ "moves": "", "nodes": 1000, "time": u64::MAX, "inc": u64::MAX }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = post(&app, "/api/othello/play", &json!({ "time": "soon" })).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
}

#[tokio::test]
async fn searches_are_bounded_and_a_dropped_stream_frees_its_slot() {
    let app = app_with(Config {
        hash_mib: 4,
        max_searches: 1,
        queue_wait: Duration::from_millis(100),
        ..Config::default()
    });
    // a long analysis holds the only slot while its stream is open
    let r = app
        .clone()
        .oneshot(
            Request::get("/api/chess/analyse?ms=30000")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let (s, b) = post(&app, "/api/othello/play", &json!({"level": 1})).await;
    assert_error(s, &b, StatusCode::SERVICE_UNAVAILABLE, "busy");
    let (s, _, body) = get(&app, "/api/othello/hint?level=1").await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    // requests that need no search still work
    let (s, _) = post(&app, "/api/chess/state", &json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // the client goes away: the search stops and the slot comes back within a moment
    drop(r);
    let start = Instant::now();
    loop {
        let (s, b) = post(&app, "/api/othello/play", &json!({"level": 1})).await;
        if s == StatusCode::OK {
            break;
        }
        assert_error(s, &b, StatusCode::SERVICE_UNAVAILABLE, "busy");
        // generous: the search polls its stop flag every few thousand nodes, so the slot comes
        // back in milliseconds even on a loaded machine; the analysis asked for the longest
        // time there is (30 s), so a slot back within 20 s was freed by the drop, not the clock
        assert!(start.elapsed() < Duration::from_secs(20), "slot not freed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, _, health) = get(&app, "/api/health").await;
    let h: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(h["slots"], 1);
}

/// The `(event, data)` pairs of a server-sent event stream.
fn sse_data(body: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut event = String::new();
    for line in body.lines() {
        if let Some(e) = line.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            out.push((
                event.clone(),
                serde_json::from_str(d).expect("JSON event data"),
            ));
        }
    }
    out
}

/// The query string of a probe of `fen` (spaces and `+` escaped).
fn probe_uri(fen: &str, moves: &str) -> String {
    let esc = |t: &str| {
        t.replace('%', "%25")
            .replace(' ', "%20")
            .replace('+', "%2B")
    };
    format!("/api/chess/probe?fen={}&moves={}", esc(fen), esc(moves))
}

async fn get_json(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (status, ctype, text) = get(app, uri).await;
    assert!(
        ctype.starts_with("application/json"),
        "{uri}: {ctype} {text}"
    );
    (status, serde_json::from_str(&text).expect("JSON reply"))
}

/// The shared 3- and 4-piece tables, or `None` after a visible skip (a failure under
/// `PLY_STRICT=1`).
fn shared_tables() -> Option<(String, ply_syzygy::Tablebase)> {
    let dir = ply_testkit::shared("syzygy/tables")?;
    let dir = dir.to_string_lossy().into_owned();
    let tb = ply_web::tablebase::open(&dir).expect("the shared tables open");
    Some((dir, tb))
}

#[tokio::test]
async fn probe_without_tables_says_so_and_checks_its_input() {
    let app = app();
    let (s, b) = get_json(&app, &probe_uri("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["status"], "no_tables", "{b}");
    assert!(b["message"].as_str().unwrap().contains("no tables"), "{b}");
    assert_eq!(b["max_pieces"], 0);
    assert!(
        b.get("position").is_none() && b.get("moves").is_none(),
        "{b}"
    );
    let (s, b) = get_json(&app, &probe_uri("8/8/8 w - - 0 1", "")).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_position");
    let (s, b) = get_json(&app, &probe_uri("", "e4 e4")).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_move");
    let (s, b) = get_json(&app, "/api/chess/probe?moves=e4&moves=e5").await;
    assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    let (_, b) = get_json(&app, "/api/health").await;
    assert_eq!(b["tablebase_pieces"], 0);
}

#[tokio::test]
async fn probe_answers_like_the_tables_and_the_truth_file() {
    let Some((_, tb)) = shared_tables() else {
        return;
    };
    let reference = ply_web::tablebase::open(&shared_tables().unwrap().0).unwrap();
    let app = router(
        AppState::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .expect("tables")
        .with_tablebase(tb),
    );
    let (_, b) = get_json(&app, "/api/health").await;
    assert_eq!(b["tablebase_pieces"], 4, "{b}");
    // KQvK: a win for White, a loss for Black; KvK: a draw
    for (fen, wdl, result) in [
        ("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", 2, "win"),
        ("4k3/8/8/8/8/8/8/4KQ2 b - - 0 1", -2, "loss"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, "draw"),
        ("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", -2, "loss"),
    ] {
        let (s, b) = get_json(&app, &probe_uri(fen, "")).await;
        assert_eq!(s, StatusCode::OK, "{fen}: {b}");
        assert_eq!(b["status"], "ok", "{fen}: {b}");
        assert_eq!(b["position"]["wdl"], wdl, "{fen}: {b}");
        assert_eq!(b["position"]["result"], result, "{fen}: {b}");
        // what `ply-chess probe` prints for the position (the same library call)
        let pos = ply_chess::Position::from_fen(fen).unwrap();
        let (w, d) = reference.probe_wdl_dtz(&pos).unwrap();
        assert_eq!(b["position"]["wdl"], i32::from(w as i8), "{fen}");
        assert_eq!(b["position"]["dtz"], d.0, "{fen}");
        // every legal move, best first, each scored like the position it leads to
        let moves = b["moves"].as_array().unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len(), "{fen}");
        assert_eq!(moves[0]["wdl"], b["position"]["wdl"], "{fen}: {b}");
        for m in moves {
            let mv = pos.parse_uci(m["uci"].as_str().unwrap()).unwrap();
            let after = reference.probe_wdl(&pos.play(mv)).unwrap();
            assert_eq!(m["wdl"], -i32::from(after as i8), "{fen}: {m}");
            assert_eq!(m["san"], pos.san(mv), "{fen}");
            assert!(m["dtz"].is_i64(), "{m}");
        }
    }
    // moves played from a start FEN are probed at the end: KQvK after Qf1-b5+, Black to move
    let (_, b) = get_json(&app, &probe_uri("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", "Qb5+")).await;
    assert_eq!(b["position"]["wdl"], -2, "{b}");
    assert!(
        b["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["wdl"] == -2),
        "{b}"
    );
    // the ground truth of the shared data (python-chess), a few dozen positions
    if let Some(text) = ply_testkit::shared_text("syzygy/truth.csv") {
        for line in text.lines().take(40) {
            let f: Vec<&str> = line.split(';').collect();
            let (s, b) = get_json(&app, &probe_uri(f[0], "")).await;
            assert_eq!(s, StatusCode::OK, "{line}");
            assert_eq!(b["position"]["wdl"].to_string(), f[1], "{line}: {b}");
            assert_eq!(b["position"]["dtz"].to_string(), f[2], "{line}: {b}");
        }
    }
    // positions the tables cannot answer
    for (fen, status) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "too_many_pieces"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "castling_rights"),
        ("", "too_many_pieces"),
    ] {
        let (s, b) = get_json(&app, &probe_uri(fen, "")).await;
        assert_eq!(s, StatusCode::OK, "{fen}: {b}");
        assert_eq!(b["status"], status, "{fen}: {b}");
        assert!(!b["message"].as_str().unwrap().is_empty());
        assert!(b.get("position").is_none(), "{b}");
    }
    // the engine searches with the tables: it keeps the win of KQvK
    let (s, b) = post(
        &app,
        "/api/chess/play",
        &json!({"fen": "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", "nodes": 2000}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let after = ply_chess::Position::from_fen(b["state"]["fen"].as_str().unwrap()).unwrap();
    assert_eq!(reference.probe_wdl(&after).unwrap(), ply_syzygy::Wdl::Loss);
}

#[tokio::test]
async fn chess960_starts_and_castles_king_takes_rook() {
    let app = app();
    let (s, b) = post(&app, "/api/chess/chess960", &json!({"number": 518})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["start_fen"], ply_chess::STARTPOS);
    let (s, b) = post(&app, "/api/chess/chess960", &json!({"number": 746})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let fen = b["start_fen"].as_str().unwrap().to_string();
    assert!(
        fen.starts_with("rknnbbqr/pppppppp/8/8/8/8/PPPPPPPP/RKNNBBQR w"),
        "{fen}"
    );
    for bad in [json!({"number": 960}), json!({"number": -1}), json!({})] {
        let (s, b) = post(&app, "/api/chess/chess960", &bad).await;
        assert_error(s, &b, StatusCode::BAD_REQUEST, "bad_request");
    }
    // knights out of the way, then White castles queen side: the king takes its rook
    let moves = "c1b3 c8b6 d1c3 d8c6";
    let (s, b) = post(
        &app,
        "/api/chess/state",
        &json!({"fen": fen, "moves": moves}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let castle = b["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["san"] == "O-O-O")
        .cloned()
        .expect("O-O-O is legal");
    assert_eq!(castle["uci"], "b1a1", "{castle}");
    assert_eq!(
        (&castle["to"], &castle["rook"]),
        (&json!("a1"), &json!("a1"))
    );
    let (s, b) = post(
        &app,
        "/api/chess/state",
        &json!({"fen": fen, "moves": format!("{moves} b1a1")}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b["fen"].as_str().unwrap().contains("/2KRBBQR b kq "), "{b}");
    assert_eq!(b["moves"][4], "b1a1");
    assert_eq!(b["san"][4], "O-O-O");
    let pgn = b["pgn"].as_str().unwrap();
    assert!(
        pgn.contains("[Variant \"Chess960\"]") && pgn.contains("3. O-O-O"),
        "{pgn}"
    );
    // a PGN of the game loads again, and the engine answers in 960 notation
    let (s, l) = post(&app, "/api/chess/load", &json!({ "text": pgn })).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(l["fen"], b["fen"]);
    let (s, p) = post(
        &app,
        "/api/chess/play",
        &json!({"fen": fen, "moves": format!("{moves} b1a1"), "nodes": 500}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["state"]["moves"].as_array().unwrap().len(), 6);
    // in standard chess a castling move names its rook too (the page castles on either click)
    let (_, b) = post(
        &app,
        "/api/chess/state",
        &json!({"fen": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}),
    )
    .await;
    let short = b["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["san"] == "O-O")
        .cloned()
        .unwrap();
    assert_eq!(
        (&short["uci"], &short["rook"]),
        (&json!("e1g1"), &json!("h1"))
    );
}

/// `{}` padded with spaces to `len` bytes: the same valid request at any length.
fn padded(len: usize) -> String {
    format!("{{{}}}", " ".repeat(len - 2))
}

/// The request-body limit [`ply_web::server::MAX_BODY`]: a body of exactly the limit is read,
/// one byte more is refused with the JSON 400 of every rejected body (`api`'s module docs).
#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_a_json_error() {
    assert_eq!(MAX_BODY, 64 * 1024);
    let app = app();
    // exactly the limit: read and answered (the start position)
    let (status, body) = post_text(&app, "/api/chess/state", padded(MAX_BODY)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["fen"]
            .as_str()
            .is_some_and(|f| f.starts_with("rnbqkbnr/")),
        "{body}"
    );
    // one byte more, and far more: 400 with the JSON error of a rejected body
    for len in [MAX_BODY + 1, 16 * MAX_BODY] {
        let (status, body) = post_text(&app, "/api/chess/state", padded(len)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{len}: {body}");
        assert_eq!(body["kind"], "bad_request", "{body}");
        let error = body["error"].as_str().unwrap_or("");
        assert!(error.contains("length limit"), "{len}: {body}");
    }
}
