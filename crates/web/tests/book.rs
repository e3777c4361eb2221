//! The Othello opening book of `ply serve --othello-book FILE`, in-process (tower `oneshot` on
//! the router, as api.rs): play answers the book's move at once (randomness within its window,
//! `book: false` searches), hints list the book moves marked, learn grows the book file and is
//! refused without a book that can learn; `/api/health` describes the book.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use ply_othello::{Board, Square};
use ply_othello_engine::book::{Book, Entry};
use ply_web::book::ServerBook;
use ply_web::{router, AppState, Config};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;
use tower::ServiceExt;

fn after(board: &Board, sq: Square) -> Board {
    board.next(sq.index(), board.flips(sq.index()))
}

/// The position after 1.f5 (White to move: d6, f4 or f6).
fn after_f5() -> Board {
    after(&Board::start(), Square::F5)
}

/// A level-1 book of the position after f5 whose moves score, for White: F6 +3 (its leaf, a
/// move the search does not play), D6 +1 and F4 −3 (both leading to positions in the book),
/// and of the position after f5 d6 (Black: its leaf C3, −1; the other moves out of the book).
fn sample_book() -> Book {
    let p = after_f5();
    let mut book = Book::new(1);
    book.insert(&p, Entry::new(3, 1, Some((Square::F6, 3))));
    let d6 = after(&p, Square::D6);
    book.insert(&d6, Entry::new(-1, 1, Some((Square::C3, -1))));
    let f4 = after(&p, Square::F4);
    book.insert(&f4, Entry::new(3, 1, None));
    book.negamax();
    book
}

fn write_book(path: &Path, book: &Book) {
    std::fs::write(path, book.to_bytes()).expect("write the book");
}

fn app_with_book(path: &Path) -> Router {
    let book = ServerBook::load(path).expect("a book");
    let state = AppState::new(Config {
        hash_mib: 4,
        ..Config::default()
    })
    .expect("tables")
    .with_othello_book(book);
    router(state)
}

fn app_without_book() -> Router {
    router(
        AppState::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .expect("tables"),
    )
}

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, String) {
    let r = app.clone().oneshot(req).await.expect("infallible");
    let status = r.status();
    let body = r.into_body().collect().await.expect("body").to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

async fn post(app: &Router, uri: &str, body: &Value) -> (StatusCode, Value) {
    let req = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, text) = send(app, req).await;
    (status, serde_json::from_str(&text).expect("JSON reply"))
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// The events of a server-sent event stream: (name, data).
fn sse_data(body: &str) -> Vec<(String, Value)> {
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

/// The moves of a hint event as (move, score, book).
fn hint_moves(d: &Value) -> Vec<(String, i64, bool)> {
    d["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["score"].as_i64().unwrap(),
                m["book"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn play_answers_the_book_move_at_once_within_its_randomness() {
    let scratch = ply_testkit::Scratch::new("web-book-play");
    let file = scratch.file("book.ply");
    write_book(&file, &sample_book());
    let app = app_with_book(&file);
    // the search at this level does not play F6: the book's move is not the search's
    let (s, searched) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5", "level": 2, "book": false}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{searched}");
    assert_eq!(searched["book"], false, "{searched}");
    assert_ne!(searched["move"], "f6", "{searched}");
    assert!(searched["nodes"].as_u64().unwrap() > 0, "{searched}");
    // the book's best, whatever the seed, the level, a named level or a clock
    for (i, extra) in [
        json!({"level": 2}),
        json!({"level": 20, "seed": 7}),
        json!({"strength": "beginner", "seed": 3}),
        json!({"time": 60000, "inc": 1000}),
        json!({"level": 2, "book": true, "book_randomness": 0, "seed": 99}),
    ]
    .into_iter()
    .enumerate()
    {
        let mut req = json!({"moves": "f5"});
        req.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let (s, b) = post(&app, "/api/othello/play", &req).await;
        assert_eq!(s, StatusCode::OK, "{i}: {b}");
        assert_eq!(b["move"], "f6", "{i}: {b}");
        assert_eq!(b["book"], true, "{i}: {b}");
        assert_eq!(b["score"], 3, "{i}: {b}");
        assert_eq!(b["exact"], false, "{i}: {b}");
        assert_eq!(b["nodes"], 0, "{i}: {b}");
        assert_eq!(b["pv"], json!(["f6"]), "{i}: {b}");
        assert_eq!(b["state"]["moves"], json!(["f5", "f6"]), "{i}: {b}");
    }
    // a linked book move's variation is its book line: D6, then the leaf C3 of the position after it
    let (_, b) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5d6", "level": 2}),
    )
    .await;
    assert_eq!(
        (&b["move"], &b["book"]),
        (&json!("c3"), &json!(true)),
        "{b}"
    );
    // randomness 2: F6 (+3) or D6 (+1), both drawn over the seeds, never F4 (−3)
    let mut drawn = BTreeSet::new();
    for seed in 1..=40u64 {
        let (s, b) = post(
            &app,
            "/api/othello/play",
            &json!({"moves": "f5", "level": 2, "book_randomness": 2, "seed": seed}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{b}");
        assert_eq!(b["book"], true, "{b}");
        let mv = b["move"].as_str().unwrap().to_string();
        assert!(mv == "f6" || mv == "d6", "seed {seed}: {b}");
        if mv == "d6" {
            assert_eq!(b["score"], 1, "{b}");
            assert_eq!(b["pv"], json!(["d6", "c3"]), "{b}");
        }
        drawn.insert(mv);
        // the same seed draws the same move
        let (_, again) = post(
            &app,
            "/api/othello/play",
            &json!({"moves": "f5", "level": 2, "book_randomness": 2, "seed": seed}),
        )
        .await;
        assert_eq!(again["move"], b["move"], "seed {seed}");
    }
    assert_eq!(drawn.len(), 2, "{drawn:?}");
    // a wide window reaches F4 too; a huge one is clamped, not refused
    let mut wide = BTreeSet::new();
    for seed in 1..=40u64 {
        let (s, b) = post(
            &app,
            "/api/othello/play",
            &json!({"moves": "f5", "level": 1, "book_randomness": 1000, "seed": seed}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{b}");
        wide.insert(b["move"].as_str().unwrap().to_string());
    }
    assert_eq!(wide.len(), 3, "{wide:?}");
    // out of the book: a search
    let (s, b) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5d6c3", "level": 2}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["book"], false, "{b}");
    // the health route describes the book
    let (s, text) = get(&app, "/api/health").await;
    assert_eq!(s, StatusCode::OK);
    let h: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        h["othello_book"],
        json!({"positions": 3, "level": 1, "learnable": true}),
        "{h}"
    );
    let (_, text) = get(&app_without_book(), "/api/health").await;
    let h: Value = serde_json::from_str(&text).unwrap();
    assert!(h["othello_book"].is_null(), "{h}");
    // without a book the same request searches
    let (s, b) = post(
        &app_without_book(),
        "/api/othello/play",
        &json!({"moves": "f5", "level": 2}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["book"], false, "{b}");
}

#[tokio::test]
async fn hints_list_the_book_moves_marked() {
    let scratch = ply_testkit::Scratch::new("web-book-hint");
    let file = scratch.file("book.ply");
    write_book(&file, &sample_book());
    let app = app_with_book(&file);
    // every move of the position is in the book: one `done` event at once, no search
    let (s, body) = get(&app, "/api/othello/hint?moves=f5&level=4&ms=5000").await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let events = sse_data(&body);
    assert_eq!(events.len(), 1, "{body}");
    let (name, done) = &events[0];
    assert_eq!(name, "done");
    assert_eq!(done["book"], true, "{done}");
    assert_eq!((&done["move"], &done["score"]), (&json!("f6"), &json!(3)));
    assert_eq!(
        hint_moves(done),
        [
            ("f6".to_string(), 3, true),
            ("d6".to_string(), 1, true),
            ("f4".to_string(), -3, true)
        ]
    );
    // after f5 d6 the book has C3 (its leaf): marked, the other moves searched, not marked
    let (s, body) = get(&app, "/api/othello/hint?moves=f5d6&level=4&ms=5000").await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let events = sse_data(&body);
    assert!(events.iter().any(|(e, _)| e == "info"), "{body}");
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{body}");
    assert_eq!(done["book"], true, "{done}");
    assert_eq!(done["move"], "c3", "{done}");
    assert_eq!(done["pv"], json!(["c3"]), "{done}");
    let moves = hint_moves(done);
    let legal = after(&after_f5(), Square::D6).moves().count_ones() as usize;
    assert_eq!(moves.len(), legal, "{done}");
    for (mv, _, book) in &moves {
        assert_eq!(*book, mv == "c3", "{done}");
    }
    assert!(
        moves.windows(2).all(|w| w[0].1 >= w[1].1),
        "best first: {done}"
    );
    // book=false: a plain search, nothing marked
    let (s, body) = get(
        &app,
        "/api/othello/hint?moves=f5&level=2&ms=5000&book=false",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let events = sse_data(&body);
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{body}");
    assert_eq!(done["book"], false, "{done}");
    let moves = hint_moves(done);
    assert_eq!(moves.len(), 3, "{done}");
    assert!(moves.iter().all(|m| !m.2), "{done}");
    // out of the book: not marked
    let (_, body) = get(&app, "/api/othello/hint?moves=f5d6c3&level=2&ms=5000").await;
    let (_, done) = sse_data(&body).pop().unwrap();
    assert_eq!(done["book"], false, "{done}");
}

#[tokio::test]
async fn learn_grows_the_book_file_and_needs_a_book_that_can_learn() {
    let scratch = ply_testkit::Scratch::new("web-book-learn");
    let file = scratch.file("book.ply");
    write_book(&file, &sample_book());
    let app = app_with_book(&file);
    let game = "f5d6c3d3c4f4";
    // out of the book before
    let (_, b) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5d6c3d3", "level": 2}),
    )
    .await;
    assert_eq!(b["book"], false, "{b}");
    let (s, r) = post(&app, "/api/othello/learn", &json!({ "moves": game })).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["before"], 3, "{r}");
    assert_eq!(r["complete"], true, "{r}");
    let positions = r["positions"].as_u64().unwrap();
    // the start and the positions after each move (after f5 and f5d6 were in the book)
    assert!(positions >= 3 + 5, "{r}");
    assert_eq!(r["added"].as_u64().unwrap(), positions - 3, "{r}");
    assert!(r["searches"].as_u64().unwrap() > 0, "{r}");
    // the file was written back (whole: it reads), and the server plays from the new book
    let grown = Book::from_bytes(&std::fs::read(&file).unwrap()).expect("a whole book file");
    assert_eq!(grown.len() as u64, positions);
    assert!(grown.contains(&Board::start()));
    let leftovers: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "book.ply")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let (_, b) = post(
        &app,
        "/api/othello/play",
        &json!({"moves": "f5d6c3d3", "level": 2}),
    )
    .await;
    assert_eq!(b["book"], true, "{b}");
    let (_, text) = get(&app, "/api/health").await;
    let h: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(h["othello_book"]["positions"].as_u64(), Some(positions));
    // the same game again adds nothing
    let (s, r) = post(&app, "/api/othello/learn", &json!({ "moves": game })).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["added"], 0, "{r}");
    // a bad game is a 400, the book unchanged
    let (s, r) = post(&app, "/api/othello/learn", &json!({ "moves": "f5f5" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
    // no book, or a book in Edax's text form: 409 no_book
    let (s, r) = post(
        &app_without_book(),
        "/api/othello/learn",
        &json!({ "moves": game }),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{r}");
    assert_eq!(r["kind"], "no_book", "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("--othello-book"),
        "{r}"
    );
    let text_file = scratch.file("book.txt");
    std::fs::write(&text_file, sample_book().to_text()).unwrap();
    let text_app = app_with_book(&text_file);
    let (s, r) = post(&text_app, "/api/othello/learn", &json!({ "moves": game })).await;
    assert_eq!(s, StatusCode::CONFLICT, "{r}");
    assert_eq!(r["kind"], "no_book", "{r}");
    assert_eq!(
        std::fs::read_to_string(&text_file).unwrap(),
        sample_book().to_text()
    );
    // a text book still plays
    let (_, b) = post(
        &text_app,
        "/api/othello/play",
        &json!({"moves": "f5", "level": 2}),
    )
    .await;
    assert_eq!(
        (&b["move"], &b["book"]),
        (&json!("f6"), &json!(true)),
        "{b}"
    );
}
