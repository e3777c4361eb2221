//! The chess requests. A game is sent as `fen` (the start; the usual start when absent) and `moves`
//! (UCI or SAN, separated by spaces). Every reply that changes the game carries the new
//! [`ChessState`]. Scores are centipawns from the side to move's view, or moves to mate.

use crate::error::ApiError;
use crate::job::{Job, Sink, Stream, StreamSearch};
use crate::limits::{
    check_length, clamp_chess_nodes, clamp_clock, clamp_time, DEFAULT_ANALYSIS_TIME,
    DEFAULT_CHESS_NODES, DEFAULT_REVIEW_NODES, MAX_ANALYSIS_TIME, MAX_MOVE_TIME, MAX_MULTIPV,
    MAX_TIMED_MOVE, MAX_TREE_NODES,
};
use crate::tablebase;
use ply_chess::pgn::{self, PgnGame, TreeMove};
use ply_chess::{Color, Game, Move, Position};
use ply_chess_engine::review::{self, ReviewReport};
use ply_chess_engine::{mate_in, Bound, Control, Info, Limits, Reporter, Silent, Strength};
use ply_syzygy::Tablebase;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

/// A game and the search settings of a request (JSON body or query string).
#[derive(Debug, Default, Deserialize)]
pub struct ChessRequest {
    /// Start position (FEN); the usual start when absent or empty.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it (UCI or SAN, separated by spaces).
    #[serde(default)]
    pub moves: Option<String>,
    /// Node limit (clamped).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds (clamped).
    #[serde(default)]
    pub ms: Option<u64>,
    /// Principal variations of an analysis (1..=5).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// A timed game: the time left on the clock of the side to move, in milliseconds (the
    /// engine's time management takes its share; with `nodes` or `ms`, the tighter wins).
    #[serde(default)]
    pub time: Option<u64>,
    /// A timed game: the increment of the side to move, in milliseconds.
    #[serde(default)]
    pub inc: Option<u64>,
    /// Play at this rating (UCI_Elo's scale, clamped to 1350..=3000, full strength from 2520):
    /// a weakened engine (see `ply_chess_engine::Strength`).
    #[serde(default)]
    pub elo: Option<u32>,
    /// The seed of a weakened engine's choices (the page draws one a game).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A text to load: a FEN, a PGN game, or a move list from the start (UCI or SAN; PGN move
/// numbers, results, comments and variations are skipped).
#[derive(Debug, Deserialize)]
pub struct LoadRequest {
    /// The text.
    pub text: String,
}

/// One move of a move tree: the move and the node it is played after.
#[derive(Debug, Deserialize, Serialize)]
pub struct TreeNode {
    /// The index of the node it follows in the list (an earlier one), `null` for a move from the
    /// start position.
    pub parent: Option<usize>,
    /// The move (UCI, or SAN on the way in).
    #[serde(rename = "move")]
    pub mv: String,
    /// The move in SAN (in replies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
}

/// A move tree to write as PGN: the start position and the moves, a node's first child its
/// main continuation, the others its variations.
#[derive(Debug, Deserialize)]
pub struct ExportRequest {
    /// Start position (FEN); the usual start when absent or empty.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves (at most [`MAX_TREE_NODES`]).
    pub nodes: Vec<TreeNode>,
}

/// A PGN text.
#[derive(Debug, Serialize)]
pub struct ExportReply {
    /// The record: the main line with the variations.
    pub pgn: String,
}

/// A loaded game: the state of its main line and, for a PGN game, its whole move tree.
#[derive(Debug, Serialize)]
pub struct LoadReply {
    /// The game's main line.
    #[serde(flatten)]
    pub state: ChessState,
    /// Every move of the record, main line first, each variation after the move it replaces
    /// (for a FEN or a move list: the moves played).
    pub nodes: Vec<TreeNode>,
}

/// A legal move as the page offers it.
#[derive(Debug, Serialize)]
pub struct LegalMove {
    /// UCI text.
    pub uci: String,
    /// Square the piece leaves (`e2`).
    pub from: String,
    /// Square it goes to (for castling, the king's square; in Chess960 the rook's square, as
    /// UCI writes it there).
    pub to: String,
    /// SAN text.
    pub san: String,
    /// Promotion piece (`q`, `r`, `b`, `n`).
    pub promotion: Option<String>,
    /// For castling, the rook's square: the page castles on a click on the king's square or
    /// the rook's (in Chess960, `to` is the rook's square already).
    pub rook: Option<String>,
}

/// The state of a game, as the page draws it.
#[derive(Debug, Serialize)]
pub struct ChessState {
    /// The start position, to send back with the moves.
    pub start_fen: String,
    /// The current position.
    pub fen: String,
    /// The moves played (UCI).
    pub moves: Vec<String>,
    /// The moves played (SAN).
    pub san: Vec<String>,
    /// Squares a1, b1, ..., h8: FEN piece letters, `.` empty.
    pub board: String,
    /// Who is to move: `white` or `black`.
    pub side: &'static str,
    /// Legal moves.
    pub legal: Vec<LegalMove>,
    /// True when the side to move is in check.
    pub check: bool,
    /// `playing`, `checkmate`, `stalemate`, `fifty-move rule`, `insufficient material` or
    /// `threefold repetition`.
    pub status: &'static str,
    /// True when the game is over.
    pub over: bool,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// The game in PGN.
    pub pgn: String,
}

/// A search score from the side to move's view.
#[derive(Debug, Serialize)]
pub struct ScoreJson {
    /// Centipawns, when not a mate score.
    pub cp: Option<i32>,
    /// Moves to mate (negative: being mated).
    pub mate: Option<i32>,
}

/// The engine's move and the game after it.
#[derive(Debug, Serialize)]
pub struct PlayReply {
    /// The move (UCI).
    #[serde(rename = "move")]
    pub uci: String,
    /// The move (SAN).
    pub san: String,
    /// Its score.
    pub score: ScoreJson,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The game after the move.
    pub state: ChessState,
}

fn side_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// Reads one move token as UCI, then as SAN.
fn parse_move(pos: &Position, text: &str) -> Result<Move, ApiError> {
    pos.parse_uci(text)
        .or_else(|_| pos.parse_san(text))
        .map_err(|e| ApiError::BadMove(format!("{text}: {e}")))
}

/// True for a PGN token that is not a move: a move number, a result, an annotation glyph.
fn skip_token(t: &str) -> bool {
    t.chars().all(|c| c.is_ascii_digit() || c == '.')
        || matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
        || t.starts_with('$')
}

/// Strips a move number glued to a move (`1.e4`, `3...Nf6`).
fn strip_number(t: &str) -> &str {
    match t.rfind('.') {
        Some(i) if t[..i].chars().all(|c| c.is_ascii_digit() || c == '.') => &t[i + 1..],
        _ => t,
    }
}

fn play_list(game: &mut Game, moves: &str) -> Result<(), ApiError> {
    check_length("moves", moves)?;
    // drop PGN comments { ... } and ( ... ) variations
    let mut text = String::with_capacity(moves.len());
    let mut depth = 0usize;
    for c in moves.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    for (i, tok) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty() && !skip_token(t))
        .enumerate()
    {
        let tok = strip_number(tok);
        if tok.is_empty() {
            continue;
        }
        let m = parse_move(game.position(), tok)
            .map_err(|e| ApiError::BadMove(format!("{e} (move {})", i + 1)))?;
        // parsed from the current position's legal moves
        game.play(m)
            .map_err(|e| ApiError::BadMove(format!("{tok}: {e} (move {})", i + 1)))?;
    }
    Ok(())
}

fn start_position(fen: Option<&str>) -> Result<Position, ApiError> {
    match fen.map(str::trim) {
        None | Some("") => Ok(Position::startpos()),
        Some(text) => {
            check_length("fen", text)?;
            Position::from_fen(text).map_err(|e| ApiError::BadPosition(format!("{e}")))
        }
    }
}

/// The game of a request, every move checked.
///
/// # Errors
/// [`ApiError::BadPosition`] or [`ApiError::BadMove`] naming the first problem.
pub fn build_game(fen: Option<&str>, moves: Option<&str>) -> Result<Game, ApiError> {
    let mut game = Game::new(start_position(fen)?);
    play_list(&mut game, moves.unwrap_or(""))?;
    Ok(game)
}

fn board_of(fen: &str) -> String {
    let placement = fen.split(' ').next().unwrap_or("");
    let mut ranks: Vec<String> = placement
        .split('/')
        .map(|r| {
            let mut s = String::new();
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(n) => s.push_str(&".".repeat(n as usize)),
                    None => s.push(c),
                }
            }
            s
        })
        .collect();
    ranks.reverse(); // FEN lists rank 8 first
    ranks.concat()
}

fn legal_move(pos: &Position, m: Move, chess960: bool) -> LegalMove {
    let uci = m.uci(chess960).to_string();
    LegalMove {
        from: uci.get(0..2).unwrap_or("").to_string(),
        to: uci.get(2..4).unwrap_or("").to_string(),
        promotion: uci.get(4..5).map(str::to_string),
        rook: m.is_castle().then(|| m.to().to_string()),
        san: pos.san(m),
        uci,
    }
}

/// The game in PGN, as the page exports it.
fn pgn_of(game: &Game) -> String {
    let mut record = PgnGame::from_game(game);
    record.set_tag("Event", "ply web");
    record.set_tag("Round", "-");
    record.to_string()
}

/// The state of `game`.
pub fn state_of(game: &Game) -> ChessState {
    let pos = game.position();
    let chess960 = game.chess960();
    let status = game.status();
    let fen = pos.to_fen();
    ChessState {
        start_fen: game.start().to_fen(),
        board: board_of(&fen),
        moves: game
            .moves()
            .iter()
            .map(|m| m.uci(chess960).to_string())
            .collect(),
        side: side_name(pos.side_to_move()),
        legal: pos
            .legal_moves()
            .iter()
            .map(|&m| legal_move(pos, m, chess960))
            .collect(),
        check: pos.is_check(),
        status: status.as_str(),
        over: status.is_over(),
        result: game.result().as_str(),
        pgn: pgn_of(game),
        san: game.san_moves(),
        fen,
    }
}

fn score_json(score: i32) -> ScoreJson {
    match mate_in(score) {
        Some(m) => ScoreJson {
            cp: None,
            mate: Some(m),
        },
        None => ScoreJson {
            cp: Some(score),
            mate: None,
        },
    }
}

/// SAN of a line from `pos`, up to its first move that is not legal.
fn san_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::new();
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.san(m));
        p = p.play(m);
    }
    out
}

/// `POST /api/chess/state`: checks a game and returns its state.
///
/// # Errors
/// 400 for a bad FEN or move.
pub fn state(req: &ChessRequest) -> Result<ChessState, ApiError> {
    let game = build_game(req.fen.as_deref(), req.moves.as_deref())?;
    Ok(state_of(&game))
}

/// `POST /api/chess/load`: reads a FEN, a PGN game (its main line, from its `FEN` tag's
/// position; an error names the line and move at fault), or a bare move list (UCI or SAN).
///
/// # Errors
/// 400 when the text is neither.
pub fn load(req: &LoadRequest) -> Result<LoadReply, ApiError> {
    let text = req.text.trim();
    check_length("text", text)?;
    // a FEN's first field has 7 slashes (a PGN's `1/2-1/2` has one)
    let first = text.split_whitespace().next().unwrap_or("");
    let record = if first.matches('/').count() == 7 {
        PgnGame::from_game(&build_game(Some(text), None)?)
    } else if text.starts_with('[') {
        // PGN: the first game, from its FEN tag's position
        match pgn::read(text).next() {
            Some(Ok(record)) => record,
            Some(Err(e)) => return Err(ApiError::BadMove(e.to_string())),
            None => PgnGame::from_game(&Game::startpos()),
        }
    } else {
        // a move list from the start: UCI or SAN, PGN move text allowed
        PgnGame::from_game(&build_game(None, Some(text))?)
    };
    let game = record.game();
    Ok(LoadReply {
        nodes: tree_json(&record.start, &record.tree(), game.chess960()),
        state: state_of(&game),
    })
}

/// The nodes of a move tree from `start`, with their UCI and SAN.
fn tree_json(start: &Position, nodes: &[TreeMove], chess960: bool) -> Vec<TreeNode> {
    let mut after: Vec<Position> = Vec::with_capacity(nodes.len());
    nodes
        .iter()
        .map(|n| {
            // a tree from a record: every parent comes first and every move is legal
            let pos = n.parent.and_then(|p| after.get(p)).unwrap_or(start);
            let node = TreeNode {
                parent: n.parent,
                mv: n.mv.uci(chess960).to_string(),
                san: Some(pos.san(n.mv)),
            };
            after.push(pos.play(n.mv));
            node
        })
        .collect()
}

/// `POST /api/chess/pgn`: the PGN of a move tree (the main line with its variations), every
/// move checked.
///
/// # Errors
/// 400 for a bad FEN, a parent that is not an earlier node, a move that is not legal after its
/// parent, too many nodes or variations nested too deep.
pub fn export(req: &ExportRequest) -> Result<ExportReply, ApiError> {
    if req.nodes.len() > MAX_TREE_NODES {
        return Err(ApiError::BadRequest(format!(
            "too many moves ({}, at most {MAX_TREE_NODES})",
            req.nodes.len()
        )));
    }
    let start = start_position(req.fen.as_deref())?;
    let mut after: Vec<Position> = Vec::with_capacity(req.nodes.len());
    let mut nodes = Vec::with_capacity(req.nodes.len());
    for (i, n) in req.nodes.iter().enumerate() {
        let pos = match n.parent {
            None => &start,
            Some(p) => after.get(p).ok_or_else(|| {
                ApiError::BadRequest(format!("node {i}: its parent {p} is not an earlier node"))
            })?,
        };
        check_length("move", &n.mv)?;
        let mv = parse_move(pos, &n.mv).map_err(|e| ApiError::BadMove(format!("node {i}: {e}")))?;
        after.push(pos.play(mv));
        nodes.push(TreeMove {
            parent: n.parent,
            mv,
        });
    }
    let mut record =
        PgnGame::from_tree(start, &nodes).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    record.set_tag("Event", "ply web");
    record.set_tag("Round", "-");
    Ok(ExportReply {
        pgn: record.to_string(),
    })
}

/// The limits of a move search by `side`: the asked nodes or time (clamped), a default node
/// count when neither is asked, never more than [`MAX_MOVE_TIME`]. In a timed game the clock
/// limits it too, by the engine's time management (at most [`MAX_TIMED_MOVE`]); a fixed move
/// time is then cut to the clock's share.
fn move_limits(req: &ChessRequest, side: Color) -> Limits {
    let nodes = match (clamp_chess_nodes(req.nodes), req.ms) {
        (Some(n), _) => Some(n),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_CHESS_NODES),
    };
    let Some((time, inc)) = clamp_clock(req.time, req.inc) else {
        return Limits {
            nodes,
            movetime: Some(clamp_time(req.ms, MAX_MOVE_TIME, MAX_MOVE_TIME).as_millis() as u64),
            ..Limits::default()
        };
    };
    let mut limits = Limits {
        nodes,
        ..Limits::default()
    };
    limits.time[side.index()] = Some(time.as_millis() as u64);
    limits.inc[side.index()] = inc.as_millis() as u64;
    // the clock's share, as the engine will count it; a fixed time or a very long share is cut
    let hard = limits.budget(side, 0).hard.unwrap_or(MAX_TIMED_MOVE);
    let asked = req
        .ms
        .map(|ms| clamp_time(Some(ms), MAX_MOVE_TIME, MAX_MOVE_TIME));
    if hard > MAX_TIMED_MOVE || asked.is_some_and(|a| a < hard) {
        limits.movetime = Some(asked.unwrap_or(MAX_TIMED_MOVE).min(hard).as_millis() as u64);
    }
    limits
}

/// `POST /api/chess/play`: the engine's move (with the Syzygy tables `tablebase`, when given).
///
/// # Errors
/// 400 for a bad game, 409 when it is over.
pub fn play(
    tablebase: Option<&Arc<Tablebase>>,
    req: &ChessRequest,
) -> Result<Job<PlayReply>, ApiError> {
    let mut game = build_game(req.fen.as_deref(), req.moves.as_deref())?;
    if game.status().is_over() {
        return Err(ApiError::GameOver);
    }
    let limits = move_limits(req, game.position().side_to_move());
    let tablebase = tablebase.cloned();
    let pos = *game.position();
    let history = game.history();
    let strength = req
        .elo
        .map(|elo| Strength::from_elo(elo, req.seed.unwrap_or(0)));
    Ok(Job::Search(Box::new(move |w| {
        w.chess.set_tablebase(tablebase);
        w.chess.set_multipv(1);
        w.chess.set_strength(strength);
        let r = w
            .chess
            .think(&pos, &history, &limits, &Control::new(), &Silent);
        // the slot's engine serves other requests at full strength
        w.chess.set_strength(None);
        if !pos.is_legal(r.best) {
            return Err(ApiError::Internal("the engine found no move".into()));
        }
        let san = pos.san(r.best);
        game.play(r.best)
            .map_err(|_| ApiError::Internal("the engine found no move".into()))?;
        Ok(PlayReply {
            uci: r.best.uci(game.chess960()).to_string(),
            san,
            score: score_json(r.score),
            depth: r.depth,
            nodes: r.nodes,
            state: state_of(&game),
        })
    })))
}

/// Sends each search report as an `info` event; stops the search when the receiver is gone.
struct StreamReporter<'a> {
    sink: &'a dyn Sink,
    control: Arc<Control>,
    pos: Position,
}

impl Reporter for StreamReporter<'_> {
    fn info(&self, info: &Info) {
        let ms = info.time.as_millis() as u64;
        let data = json!({
            "depth": info.depth,
            "seldepth": info.seldepth,
            "multipv": info.multipv,
            "score": score_json(info.score),
            "bound": match info.bound {
                Bound::Lower => "lower",
                Bound::Upper => "upper",
                _ => "exact",
            },
            "nodes": info.nodes,
            "nps": info.nodes * 1000 / ms.max(1),
            "ms": ms,
            "pv": san_line(&self.pos, &info.pv),
            "pv_uci": info.pv.iter().map(|m| m.uci(self.pos.is_chess960()).to_string()).collect::<Vec<_>>(),
        });
        if !self.sink.progress("info", &data) {
            self.control.stop();
        }
    }
}

/// `GET /api/chess/analyse`: events, an `info` event per completed depth and line (MultiPV up
/// to 5) and a `done` event with the best move; the search runs for `ms` (clamped, 5 s when
/// absent) or `nodes`, and stops when the receiver goes.
///
/// # Errors
/// 400 for a bad game, 409 when it is over.
pub fn analyse(tablebase: Option<&Arc<Tablebase>>, req: &ChessRequest) -> Result<Stream, ApiError> {
    let game = build_game(req.fen.as_deref(), req.moves.as_deref())?;
    if game.status().is_over() {
        return Err(ApiError::GameOver);
    }
    let limits = Limits {
        nodes: clamp_chess_nodes(req.nodes),
        movetime: Some(
            clamp_time(req.ms, DEFAULT_ANALYSIS_TIME, MAX_ANALYSIS_TIME).as_millis() as u64,
        ),
        ..Limits::default()
    };
    let multipv = req.multipv.unwrap_or(1).clamp(1, MAX_MULTIPV);
    let tablebase = tablebase.cloned();
    let pos = *game.position();
    let history = game.history();
    let control = Arc::new(Control::new());
    let stopper = Arc::clone(&control);
    Ok(Stream::Search(StreamSearch {
        stop: Box::new(move || stopper.stop()),
        run: Box::new(move |w, sink| {
            let reporter = StreamReporter {
                sink,
                control: Arc::clone(&control),
                pos,
            };
            w.chess.set_tablebase(tablebase);
            w.chess.set_multipv(multipv);
            let r = w.chess.think(&pos, &history, &limits, &control, &reporter);
            if !sink.is_closed() {
                let best = pos.is_legal(r.best).then(|| pos.san(r.best));
                sink.last(
                    "done",
                    &json!({
                        "move": best,
                        "uci": r.best.uci(pos.is_chess960()).to_string(),
                        "score": score_json(r.score),
                        "depth": r.depth,
                        "nodes": r.nodes,
                    }),
                );
            }
        }),
    }))
}

/// A game to review (query string).
#[derive(Debug, Default, Deserialize)]
pub struct ReviewRequest {
    /// Start position (FEN); the usual start when absent or empty.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it (UCI or SAN, separated by spaces).
    #[serde(default)]
    pub moves: Option<String>,
    /// Nodes of each position's search (clamped; [`DEFAULT_REVIEW_NODES`] when absent).
    #[serde(default)]
    pub nodes: Option<u64>,
}

/// The `done` event of a review: the library's report and the nodes each position got.
#[derive(Debug, Serialize)]
pub struct ReviewReply {
    /// Every move judged, and each side's accuracy and average centipawn loss.
    #[serde(flatten)]
    pub report: ReviewReport,
    /// Nodes of each position's search.
    pub nodes: u64,
}

/// `GET /api/chess/review`: events reviewing every move of the game
/// ([`ply_chess_engine::review`]): a `progress` event (`{"done", "total"}`, positions searched)
/// after each search, then `done` with the [`ReviewReply`], or `error` (`{"error"}`). Each
/// position gets `nodes` (clamped, [`DEFAULT_REVIEW_NODES`] when absent; never more than
/// [`MAX_MOVE_TIME`]). The review stops after the search in progress when the receiver goes.
///
/// # Errors
/// 400 for a bad game or one without moves ("nothing to review").
pub fn review(tablebase: Option<&Arc<Tablebase>>, req: &ReviewRequest) -> Result<Stream, ApiError> {
    let game = build_game(req.fen.as_deref(), req.moves.as_deref())?;
    if game.moves().is_empty() {
        return Err(ApiError::BadRequest("nothing to review".into()));
    }
    let nodes = clamp_chess_nodes(req.nodes).unwrap_or(DEFAULT_REVIEW_NODES);
    let limits = Limits {
        nodes: Some(nodes),
        movetime: Some(MAX_MOVE_TIME.as_millis() as u64),
        ..Limits::default()
    };
    let tablebase = tablebase.cloned();
    let cancel = Arc::new(review::Cancel::new());
    let cancel_on_drop = Arc::clone(&cancel);
    Ok(Stream::Search(StreamSearch {
        stop: Box::new(move || cancel_on_drop.cancel()),
        run: Box::new(move |w, sink| {
            w.chess.set_tablebase(tablebase);
            let mut progress = |done: usize, total: usize| {
                if !sink.progress("progress", &json!({ "done": done, "total": total })) {
                    cancel.cancel();
                }
            };
            let result = review::review(&mut w.chess, &game, &limits, &cancel, &mut progress);
            if sink.is_closed() {
                return;
            }
            match result {
                Ok(r) => {
                    let reply = ReviewReply {
                        report: ReviewReport::of(&r),
                        nodes,
                    };
                    match serde_json::to_value(&reply) {
                        Ok(v) => sink.last("done", &v),
                        Err(e) => sink.last("error", &json!({ "error": e.to_string() })),
                    }
                }
                Err(e) => sink.last("error", &json!({ "error": e.to_string() })),
            }
        }),
    }))
}

/// The game of a tablebase probe (query string).
#[derive(Debug, Default, Deserialize)]
pub struct ProbeRequest {
    /// Start position (FEN); the usual start when absent or empty.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it (UCI or SAN, separated by spaces).
    #[serde(default)]
    pub moves: Option<String>,
}

/// `GET /api/chess/probe`: the Syzygy result (WDL, DTZ) of the game's position and of each legal
/// move, best first. A position the tables cannot answer is still a 200 reply whose `status`
/// says why: `no_tables`, `too_many_pieces`, `castling_rights`, `unavailable`
/// ([`tablebase::ProbeAnswer`]).
///
/// Probing may read table files from disk: the server runs it off its async threads.
///
/// # Errors
/// 400 for a bad game.
pub fn probe(
    tablebase: Option<&Arc<Tablebase>>,
    req: &ProbeRequest,
) -> Result<tablebase::ProbeAnswer, ApiError> {
    let game = build_game(req.fen.as_deref(), req.moves.as_deref())?;
    Ok(tablebase::probe(
        tablebase.map(Arc::as_ref),
        game.position(),
        game.chess960(),
    ))
}

/// A Chess960 start position to set up.
#[derive(Debug, Deserialize)]
pub struct Chess960Request {
    /// Its number, 0 to 959 (518 is the usual start).
    pub number: u64,
}

/// `POST /api/chess/chess960`: the game that starts from Chess960 position `number` (castling
/// moves are then written king takes rook, `e1h1`).
///
/// # Errors
/// 400 for a number outside 0 to 959.
pub fn chess960(req: &Chess960Request) -> Result<ChessState, ApiError> {
    let fen = ply_chess::chess960::start_fen(req.number)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let game = build_game(Some(&fen), None)?;
    Ok(state_of(&game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_pgn() {
        let g = build_game(None, Some("e4 e7e5 Nf3")).unwrap();
        let s = state_of(&g);
        assert_eq!(s.moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(s.san, ["e4", "e5", "Nf3"]);
        assert_eq!(s.side, "black");
        assert_eq!(&s.board[..8], "RNBQKB.R");
        assert!(s.pgn.contains("1. e4 e5 2. Nf3 *"), "{}", s.pgn);
        let g = build_game(None, Some("1.f3 e5 2. g4 Qh4#")).unwrap();
        let s = state_of(&g);
        assert_eq!((s.status, s.result, s.over), ("checkmate", "0-1", true));
        assert!(matches!(
            build_game(None, Some("e5")),
            Err(ApiError::BadMove(_))
        ));
        assert!(matches!(
            build_game(Some("not a fen"), None),
            Err(ApiError::BadPosition(_))
        ));
    }

    #[test]
    fn promotions_are_offered() {
        let g = build_game(Some("8/P6k/8/8/8/8/8/K7 w - - 0 1"), None).unwrap();
        let s = state_of(&g);
        let promos: Vec<_> = s.legal.iter().filter_map(|m| m.promotion.clone()).collect();
        assert_eq!(promos.len(), 4);
    }
}
