//! The Othello requests. A game is sent as `position` (the start, OBF board form: 64 squares and the
//! side to move; the usual start when absent) and `moves` (`f5d6c3...`, `pa` for a pass; forced
//! passes may be left out). Every reply that changes the game carries the new [`GameState`].
//!
//! Scores are in discs from the side to move's view, as the engine gives them.
//!
//! With an opening book (`ply serve --othello-book FILE`, [`crate::book`]) a play request in a
//! position the book holds gets the book's move at once (`"book": true`, no search), hints list
//! the book moves (`"book": true` on each) and search only the others, and
//! `POST /api/othello/learn` adds a game to the book. A request with `book: false` searches as
//! without a book.

use crate::book::ServerBook;
use crate::error::ApiError;
use crate::job::{Job, Stream, StreamSearch};
use crate::limits::{
    check_length, clamp_book_randomness, clamp_clock, clamp_level, clamp_review_level, clamp_time,
    review_exact_from, DEFAULT_ANALYSIS_TIME, MAX_ANALYSIS_TIME, MAX_MOVE_TIME, MAX_OTHELLO_NODES,
    MAX_TIMED_MOVE, SOLVE_MAX_EMPTIES,
};
use ply_othello::{
    parse_ggf, parse_moves, parse_obf_line, to_ggf, Board, Color, Game, Position, Square,
};
use ply_othello_engine::book::BookMove;
use ply_othello_engine::{
    strength, Clock, Info, Limits, MoveScore, Outcome, ReviewOptions, ReviewReport, STRENGTHS,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A game and the search settings of a request (JSON body or query string).
#[derive(Debug, Default, Deserialize)]
pub struct GameRequest {
    /// Start position (OBF board form); the usual start when absent or empty.
    #[serde(default)]
    pub position: Option<String>,
    /// The moves played from it.
    #[serde(default)]
    pub moves: Option<String>,
    /// Level 1..=60 (clamped; a review's level 1..=20).
    #[serde(default)]
    pub level: Option<u32>,
    /// Time limit in milliseconds (clamped).
    #[serde(default)]
    pub ms: Option<u64>,
    /// A timed game: the time left on the clock of the side to move, in milliseconds (the
    /// engine's time management takes its share; with `level` or `ms`, the tighter wins).
    #[serde(default)]
    pub time: Option<u64>,
    /// A timed game: the increment of the side to move, in milliseconds.
    #[serde(default)]
    pub inc: Option<u64>,
    /// Play at a named strength level (`beginner` .. `full`, or its number; see
    /// `ply_othello_engine::STRENGTHS`): its search level and loss allowance, instead of `level`.
    #[serde(default)]
    pub strength: Option<String>,
    /// The seed of the loss allowance's draws and of the book's (the page draws one a game).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Use the server's opening book (default true): play its move while it holds the
    /// position, list its moves with the hints. False: search as without a book.
    #[serde(default)]
    pub book: Option<bool>,
    /// How far from the best a book move may be, in discs (0..=64, clamped; default 0: the
    /// best, ties drawn with `seed`).
    #[serde(default)]
    pub book_randomness: Option<i32>,
}

/// A text to load: an OBF position, a GGF record or a move list.
#[derive(Debug, Deserialize)]
pub struct LoadRequest {
    /// The text.
    pub text: String,
}

/// The state of a game, as the page draws it.
#[derive(Debug, Serialize)]
pub struct GameState {
    /// The start position (OBF board form), to send back with the moves.
    pub position: String,
    /// The moves played, passes included (`pa`).
    pub moves: Vec<String>,
    /// The current board, squares A1..H8: `X` black, `O` white, `-` empty.
    pub board: String,
    /// Who is to move: `black` or `white`.
    pub side: &'static str,
    /// The legal moves of the side to move (lower-case squares).
    pub legal: Vec<String>,
    /// True when neither side can move.
    pub over: bool,
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares.
    pub empties: u32,
    /// Final disc difference, Black minus White (empties to the winner), once the game is over.
    pub result: Option<i32>,
    /// The game as a GGF record.
    pub ggf: String,
}

/// One scored move.
#[derive(Debug, Serialize)]
pub struct ScoredMove {
    /// The move (lower-case square, `pa` for a pass).
    #[serde(rename = "move")]
    pub square: String,
    /// Score in discs from the mover's view.
    pub score: i32,
    /// True when the score is proven exact.
    pub exact: bool,
    /// Midgame depth, or empties when exact.
    pub depth: u8,
    /// Selectivity percent (100: no pruning).
    pub selectivity: u8,
    /// Principal variation starting with the move (a book move: its book line).
    pub pv: Vec<String>,
    /// True for a book move: its score is the book's value (not exact), its depth the level
    /// the book searched it at, its selectivity 0.
    pub book: bool,
}

/// The engine's move and the game after it.
#[derive(Debug, Serialize)]
pub struct PlayReply {
    /// The move played (lower-case square, `pa` for a pass).
    #[serde(rename = "move")]
    pub square: String,
    /// Its score in discs from the mover's view.
    pub score: i32,
    /// True when the score is proven exact.
    pub exact: bool,
    /// Depth of the search.
    pub depth: u8,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used.
    pub ms: u64,
    /// True for a move from the opening book, played without a search: the score is its book
    /// value, the depth the level the book searched it at, the variation its book line.
    pub book: bool,
    /// The game after the move.
    pub state: GameState,
}

/// Every move's exact score.
#[derive(Debug, Serialize)]
pub struct SolveReply {
    /// True when every score is proven (false when the node or time cap cut the solve short).
    pub exact: bool,
    /// The moves, best first.
    pub moves: Vec<ScoredMove>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used.
    pub ms: u64,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn name(sq: Square) -> String {
    if sq.is_pass() {
        "pa".to_string()
    } else {
        sq.name().to_ascii_lowercase()
    }
}

fn names(line: &[Square]) -> Vec<String> {
    line.iter().copied().map(name).collect()
}

/// Plays the forced pass of the side to move, so that the mover of a state always has a move
/// (or the game is over).
fn settle(game: &mut Game) {
    let b = game.position().board;
    if !b.is_game_over() && b.moves() == 0 {
        let _ = game.play(Square::PASS);
    }
}

/// The game of a request, every move checked.
///
/// # Errors
/// [`ApiError::BadPosition`] or [`ApiError::BadMove`] naming the first problem.
pub fn build_game(req: &GameRequest) -> Result<Game, ApiError> {
    let start = match req.position.as_deref().map(str::trim) {
        None | Some("") => Position::start(),
        Some(text) => {
            check_length("position", text)?;
            text.parse::<Position>()
                .map_err(|e| ApiError::BadPosition(e.to_string()))?
        }
    };
    let mut game = Game::new(start);
    play_list(&mut game, req.moves.as_deref().unwrap_or(""))?;
    Ok(game)
}

fn play_list(game: &mut Game, moves: &str) -> Result<(), ApiError> {
    check_length("moves", moves)?;
    let list = parse_moves(moves).map_err(|e| ApiError::BadMove(e.to_string()))?;
    for (i, sq) in list.into_iter().enumerate() {
        game.play_after_forced_pass(sq)
            .map_err(|e| ApiError::BadMove(format!("{e} (move {})", i + 1)))?;
    }
    settle(game);
    Ok(())
}

/// The state of `game`.
pub fn state_of(game: &Game) -> GameState {
    let pos = game.position();
    let b = pos.board;
    let (black, white) = (pos.black().count_ones(), pos.white().count_ones());
    GameState {
        position: game.start().to_string(),
        moves: names(game.moves()),
        board: pos.board_string(),
        side: color_name(pos.side),
        legal: Square::iter(b.moves()).map(name).collect(),
        over: b.is_game_over(),
        black,
        white,
        empties: 64 - black - white,
        result: b.is_game_over().then(|| game.final_score()),
        ggf: to_ggf(game),
    }
}

fn scored(m: &MoveScore) -> ScoredMove {
    ScoredMove {
        square: name(m.square),
        score: m.score,
        exact: m.exact,
        depth: m.depth,
        selectivity: m.selectivity,
        pv: names(&m.pv),
        book: false,
    }
}

/// The book, when there is one and the request does not say `book: false`.
fn book_of<'a>(
    book: Option<&'a Arc<ServerBook>>,
    req: &GameRequest,
) -> Option<&'a Arc<ServerBook>> {
    book.filter(|_| req.book != Some(false))
}

fn book_scored(book: &ServerBook, board: &Board, m: &BookMove) -> ScoredMove {
    ScoredMove {
        square: name(m.square),
        score: m.score,
        exact: false,
        depth: m.level,
        selectivity: 0,
        pv: names(&book.line(board, m)),
        book: true,
    }
}

/// A hint event `v` with the book moves `book` (best first): they join its moves (all best
/// first, book moves first on ties) and, when there are any, the event's score, variation
/// and move are the best book move's, marked `"book": true` (the move ply would play).
fn with_book(mut v: Value, book: &[ScoredMove]) -> Value {
    let Some(best) = book.first() else {
        v["book"] = json!(false);
        return v;
    };
    let mut moves: Vec<Value> = book.iter().map(|m| json!(m)).collect();
    if let Some(Value::Array(searched)) = v.get_mut("moves").map(Value::take) {
        moves.extend(searched);
    }
    // stable: on a tie the book move stays first
    moves.sort_by_key(|m| std::cmp::Reverse(m["score"].as_i64().unwrap_or(i64::MIN)));
    v["moves"] = Value::Array(moves);
    v["score"] = json!(best.score);
    v["pv"] = json!(best.pv);
    v["exact"] = json!(false);
    if v.get("move").is_some() {
        v["move"] = json!(best.square);
    }
    v["book"] = json!(true);
    v
}

fn info_json(info: &Info) -> serde_json::Value {
    json!({
        "depth": info.depth,
        "selectivity": info.selectivity,
        "exact": info.exact,
        "score": info.score,
        "pv": names(&info.pv),
        "nodes": info.nodes,
        "ms": info.elapsed.as_millis() as u64,
        "moves": info.moves.iter().map(scored).collect::<Vec<_>>(),
    })
}

fn outcome_json(o: &Outcome) -> serde_json::Value {
    json!({
        "move": name(o.best),
        "depth": o.depth,
        "selectivity": o.selectivity,
        "exact": o.exact,
        "score": o.score,
        "pv": names(&o.pv),
        "nodes": o.nodes,
        "ms": o.elapsed.as_millis() as u64,
        "moves": o.moves.iter().map(scored).collect::<Vec<_>>(),
    })
}

/// `POST /api/othello/state`: checks a game and returns its state.
///
/// # Errors
/// 400 for a bad position or move.
pub fn state(req: &GameRequest) -> Result<GameState, ApiError> {
    Ok(state_of(&build_game(req)?))
}

/// `POST /api/othello/load`: reads an OBF position, a GGF record or a move list from the start.
///
/// # Errors
/// 400 when the text is none of them.
pub fn load(req: &LoadRequest) -> Result<GameState, ApiError> {
    let text = req.text.trim();
    check_length("text", text)?;
    let game = if text.starts_with('(') {
        let mut g = parse_ggf(text)
            .map_err(|e| ApiError::BadPosition(format!("GGF: {e}")))?
            .game;
        settle(&mut g);
        g
    } else {
        // a board, maybe a bad one, when most of its first 64 characters are OBF's board
        // characters (a whole game's move list has 120 characters, none of them)
        let squares = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(64)
            .filter(|c| matches!(c, 'X' | 'O' | 'x' | 'o' | '*' | '-' | '.'))
            .count();
        match parse_obf_line(text) {
            Ok(Some(obf)) => {
                let mut g = Game::new(obf.position);
                settle(&mut g);
                g
            }
            Err(e) if squares >= 32 => return Err(ApiError::BadPosition(format!("OBF: {e}"))),
            _ => {
                let mut g = Game::default();
                play_list(&mut g, text)?;
                g
            }
        }
    };
    Ok(state_of(&game))
}

/// `POST /api/othello/play`: the engine's move at the asked level (time capped), from `book`
/// while it holds the position.
///
/// # Errors
/// 400 for a bad game, 409 when it is over.
pub fn play(book: Option<&Arc<ServerBook>>, req: &GameRequest) -> Result<Job<PlayReply>, ApiError> {
    let mut game = build_game(req)?;
    let board = game.position().board;
    if board.is_game_over() {
        return Err(ApiError::GameOver);
    }
    let clock = clamp_clock(req.time, req.inc);
    let named = match req.strength.as_deref() {
        None => None,
        Some(name) => Some(strength(name).ok_or_else(|| {
            let names: Vec<&str> = STRENGTHS.iter().map(|s| s.name).collect();
            ApiError::BadRequest(format!(
                "no strength level {name:?} (the levels: {})",
                names.join(", ")
            ))
        })?),
    };
    // the book first, whatever the level or clock (as the command-line front ends)
    if let Some(book) = book_of(book, req) {
        let randomness = clamp_book_randomness(req.book_randomness);
        if let Some(m) = book.choose(&board, randomness, req.seed.unwrap_or(0)) {
            let pv = names(&book.line(&board, &m));
            game.play(m.square)
                .map_err(|e| ApiError::Internal(format!("the book chose {}: {e}", m.square)))?;
            settle(&mut game);
            return Ok(Job::Ready(PlayReply {
                square: name(m.square),
                score: m.score,
                exact: false,
                depth: m.level,
                pv,
                nodes: 0,
                ms: 0,
                book: true,
                state: state_of(&game),
            }));
        }
    }
    let weakness = named.map(|s| s.weakness(req.seed.unwrap_or(0)));
    let limits = Limits {
        level: Some(named.map_or_else(|| clamp_level(req.level), |s| s.level)),
        // a timed game: the clock's share (the engine's time management), at most
        // MAX_TIMED_MOVE, or the asked time when that is shorter
        move_time: Some(match (clock, req.ms) {
            (Some(_), None) => MAX_TIMED_MOVE,
            _ => clamp_time(req.ms, MAX_MOVE_TIME, MAX_MOVE_TIME),
        }),
        clock: clock.map(|(remaining, increment)| Clock {
            remaining,
            increment,
            moves_to_go: None,
        }),
        nodes: Some(MAX_OTHELLO_NODES),
        ..Limits::default()
    };
    Ok(Job::Search(Box::new(move |w| {
        let stop = AtomicBool::new(false);
        let out = match weakness {
            Some(weak) => w
                .othello
                .think_weakened(&board, &limits, &weak, &stop, &mut |_| {}),
            None => w.othello.think(&board, &limits, &stop, &mut |_| {}),
        };
        game.play(out.best)
            .map_err(|e| ApiError::Internal(format!("the engine chose {}: {e}", out.best)))?;
        settle(&mut game);
        Ok(PlayReply {
            square: name(out.best),
            score: out.score,
            exact: out.exact,
            depth: out.depth,
            pv: names(&out.pv),
            nodes: out.nodes,
            ms: out.elapsed.as_millis() as u64,
            book: false,
            state: state_of(&game),
        })
    })))
}

/// `POST /api/othello/solve`: every move's exact score, for at most
/// [`SOLVE_MAX_EMPTIES`] empty squares.
///
/// # Errors
/// 400 for a bad game or too many empties, 409 when it is over.
pub fn solve(req: &GameRequest) -> Result<Job<SolveReply>, ApiError> {
    let game = build_game(req)?;
    let board = game.position().board;
    if board.is_game_over() {
        return Err(ApiError::GameOver);
    }
    let empties = 64 - (board.player() | board.opponent()).count_ones();
    if empties > SOLVE_MAX_EMPTIES {
        return Err(ApiError::TooManyEmpties {
            empties,
            max: SOLVE_MAX_EMPTIES,
        });
    }
    let limits = Limits {
        level: Some(60),
        all_moves: true,
        move_time: Some(MAX_MOVE_TIME),
        nodes: Some(MAX_OTHELLO_NODES),
        ..Limits::default()
    };
    Ok(Job::Search(Box::new(move |w| {
        let stop = AtomicBool::new(false);
        let out = w.othello.think(&board, &limits, &stop, &mut |_| {});
        Ok(SolveReply {
            exact: !out.moves.is_empty() && out.moves.iter().all(|m| m.exact),
            moves: out.moves.iter().map(scored).collect(),
            nodes: out.nodes,
            ms: out.elapsed.as_millis() as u64,
        })
    })))
}

/// `GET /api/othello/hint`: events, an `info` event (every legal move's score, the principal
/// variation) after each iteration and a `done` event at the end; the search runs to the
/// asked level within `ms` (clamped) and stops when the receiver goes. In a position `book`
/// holds (unless `book=false`), every event lists the book moves too
/// (`"book": true`, their book values) and leads with the best of them (`"book": true` on the
/// event), and only the other moves are searched; when the book gives every legal move, a
/// single `done` event comes at once.
///
/// # Errors
/// 400 for a bad game, 409 when it is over.
pub fn hint(book: Option<&Arc<ServerBook>>, req: &GameRequest) -> Result<Stream, ApiError> {
    let game = build_game(req)?;
    let board = game.position().board;
    if board.is_game_over() {
        return Err(ApiError::GameOver);
    }
    let (book, booked) = match book_of(book, req) {
        Some(b) => {
            let moves = b.moves(&board);
            let mask = moves.iter().fold(0, |mask, m| mask | m.square.bit());
            let scored: Vec<ScoredMove> = moves.iter().map(|m| book_scored(b, &board, m)).collect();
            (scored, mask)
        }
        None => (Vec::new(), 0),
    };
    let others = board.moves() & !booked;
    if !book.is_empty() && others == 0 {
        // every move from the book: nothing to search
        let best = &book[0];
        let done = json!({
            "move": best.square, "depth": best.depth, "selectivity": 0, "exact": false,
            "score": best.score, "pv": best.pv, "nodes": 0, "ms": 0, "moves": book, "book": true,
        });
        return Ok(Stream::Ready(vec![("done", done)]));
    }
    let limits = Limits {
        level: Some(clamp_level(req.level)),
        all_moves: true,
        move_time: Some(clamp_time(req.ms, DEFAULT_ANALYSIS_TIME, MAX_ANALYSIS_TIME)),
        nodes: Some(MAX_OTHELLO_NODES),
        search_moves: (!book.is_empty()).then_some(others),
        ..Limits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stop_on_drop = Arc::clone(&stop);
    Ok(Stream::Search(StreamSearch {
        stop: Box::new(move || stop_on_drop.store(true, Ordering::Relaxed)),
        run: Box::new(move |w, sink| {
            let out = w.othello.think(&board, &limits, &stop, &mut |info| {
                if !sink.progress("info", &with_book(info_json(info), &book)) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            if !sink.is_closed() {
                sink.last("done", &with_book(outcome_json(&out), &book));
            }
        }),
    }))
}

/// `GET /api/othello/review`: events reviewing every move of the game
/// ([`ply_othello_engine::review()`]): `progress` events (`{"done", "total"}`, searches made)
/// before the first search and after each, then `done` with the [`ReviewReport`], or `error`
/// (`{"error"}`). The midgame searches go to `level` (clamped by [`clamp_review_level`]); the
/// positions with at most [`review_exact_from`] empties are solved exactly. The review stops
/// within milliseconds when the receiver goes.
///
/// # Errors
/// 400 for a bad game or one without moves ("nothing to review").
pub fn review(req: &GameRequest) -> Result<Stream, ApiError> {
    let game = build_game(req)?;
    if game.moves().iter().all(|m| m.is_pass()) {
        return Err(ApiError::BadRequest("nothing to review".into()));
    }
    let start = game.start();
    let moves = game.moves().to_vec();
    let level = clamp_review_level(req.level);
    let options = ReviewOptions {
        level,
        exact_from: review_exact_from(level),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stop_on_drop = Arc::clone(&stop);
    Ok(Stream::Search(StreamSearch {
        stop: Box::new(move || stop_on_drop.store(true, Ordering::Relaxed)),
        run: Box::new(move |w, sink| {
            let mut progress = |done: usize, total: usize| {
                if !sink.progress("progress", &json!({ "done": done, "total": total })) {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            let result = ply_othello_engine::review(
                &mut w.othello,
                start,
                &moves,
                &options,
                &stop,
                &mut progress,
            );
            if sink.is_closed() {
                return;
            }
            match result {
                Ok(r) => match serde_json::to_value(ReviewReport::of(&r, &options)) {
                    Ok(v) => sink.last("done", &v),
                    Err(e) => sink.last("error", &json!({ "error": e.to_string() })),
                },
                Err(e) => sink.last("error", &json!({ "error": e.to_string() })),
            }
        }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(position: Option<&str>, moves: &str) -> GameRequest {
        GameRequest {
            position: position.map(str::to_string),
            moves: Some(moves.to_string()),
            ..GameRequest::default()
        }
    }

    #[test]
    fn games_are_checked() {
        let g = build_game(&req(None, "f5d6c3")).unwrap();
        assert_eq!(g.moves().len(), 3);
        let s = state_of(&g);
        assert_eq!(s.side, "white");
        assert_eq!(s.moves, ["f5", "d6", "c3"]);
        assert!(s.ggf.starts_with("(;GM[Othello]"));
        assert!(matches!(
            build_game(&req(None, "f5f5")),
            Err(ApiError::BadMove(_))
        ));
        assert!(matches!(
            build_game(&req(None, "zz")),
            Err(ApiError::BadMove(_))
        ));
        assert!(matches!(
            build_game(&req(Some("XO"), "")),
            Err(ApiError::BadPosition(_))
        ));
    }

    #[test]
    fn a_forced_pass_is_played() {
        // White (B1) to move has no move; Black (A1) has C1: the state moves on to Black.
        let pos = format!("XO{} O", "-".repeat(62));
        let g = build_game(&req(Some(&pos), "")).unwrap();
        let s = state_of(&g);
        assert_eq!(s.moves, ["pa"], "{s:?}");
        assert_eq!(s.side, "black");
        assert_eq!(s.legal, ["c1"]);
    }
}
