// The chess page: what is particular to chess (the board, moves by clicks, promotion, Chess960,
// the evaluation bar, the tablebase panel). The game itself is run by game.js.

import { $, api, get, say, svgEl, query, signed } from "./common.js";
import { Game, MARKS } from "./game.js";
import { Editor } from "./editor.js";

const O = 0.6;
const FILES = "abcdefgh";
const GLYPH = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };

let sel = null;        // the square whose moves are shown, and the state it was picked in
let flipped = false;
let pending = null;    // moves waiting for a promotion choice, and the state they belong to
let tbPieces = 0;      // most pieces the server's Syzygy tables hold (0: none)
let tbAsked = 0;       // the latest tablebase request (older answers are dropped)

const game = new Game({
  name: "chess",
  startKey: "fen",
  startOf: s => s.start_fen,
  graph: { range: 10, plies: 40 },
  draw,
  status: st => st.over ? "Game over: " + st.status + " (" + st.result + ")"
    : (st.side === "white" ? "White" : "Black") + " to move" + (st.check ? " (check)" : ""),
  number: moveNumberAt,
  // the PGN of the whole tree, variations included
  exportText: async g => (await api("/api/chess/pgn", {
    fen: g.start, nodes: g.flatten().map(n => ({ parent: n.parent, move: n.move })),
  })).pgn,
  // a rating: a weakened engine (its own depth and node caps, at most a million nodes), its
  // choices drawn from the game's seed
  levelParams() {
    const [kind, value] = $("level").value.split(":");
    if (kind === "elo") return { elo: +value, nodes: 1000000, seed: game.seed };
    return kind === "ms" ? { ms: +value } : { nodes: +value };
  },
  played(r, side) {
    $("info").textContent = "ply played " + r.san + " (" + scoreText(r.score) + ", depth " + r.depth + ", " + r.nodes + " nodes)";
    return whitePawns(r.score, side);
  },
  stream: {
    path: "analyse", what: "Analysis", controls: ["analyse", "multipv"],
    on: () => $("analyse").checked,
    params: () => ({ multipv: $("multipv").value, ms: 30000 }),
    listen: showAnalysis,
  },
  review: {
    sides: ["white", "black"],
    params: () => ({ nodes: $("review-depth").value }),
    settings: r => (r.nodes >= 1000 ? r.nodes / 1000 + "k" : r.nodes) + " nodes a position",
    startValue: m => reviewPawns(m.score_best, m.side === "white" ? 1 : -1),
    value: m => reviewPawns(m.score_after_white, 1, m.side === "white" ? 1 : -1),
    label: (m, first) => moveNumber(m, first) + m.san,
    describe: describeMove,
    sideSummary: (r, side) => "accuracy " + perSide(r.accuracy[side], " %") + ", ACPL " + perSide(r.acpl[side], ""),
    showBest(m) {
      if (m.best !== m.uci) arrow(m.uci, "played-arrow");
      arrow(m.best, "best-arrow");
    },
  },
  reset() { editor.close(false); flipped = game.human() === "black"; $("info").textContent = ""; $("pv").textContent = ""; },
  editing: () => editor.editing,
  // a flag is a draw when the other side has a lone king (it cannot mate)
  timeoutDraw: (st, side) => !st.board.split("").some(c => c !== "." && c.toLowerCase() !== "k" &&
    (side === "white" ? c === c.toLowerCase() : c === c.toUpperCase())),
  colorChanged() { flipped = game.human() === "black"; },
  saved: () => ({ flipped }),
  restore(saved) { flipped = !!saved.flipped; },
  settled: showTablebase,
});

function sqName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }
function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (parseInt(name[1], 10) - 1); }
// Top-left corner of square `i` on the drawing.
function place(i) {
  const f = i % 8, r = Math.floor(i / 8);
  return flipped ? { x: O + 7 - f, y: O + r } : { x: O + f, y: O + 7 - r };
}

// Draws the game's state `st`; while the board editor is open, its board instead (`setup`: `st`
// is the editor's board).
function draw(st, setup = false) {
  if (!setup && editor.editing) { editor.draw(); return; }
  const b = $("board");
  while (b.firstChild) b.removeChild(b.firstChild);
  for (let k = 0; k < 8; k++) {
    const file = flipped ? 7 - k : k, rank = flipped ? k : 7 - k;
    svgEl("text", { x: O + k + 0.5, y: 0.3, class: "coord" }, b).textContent = FILES[file];
    svgEl("text", { x: 0.3, y: O + k + 0.5, class: "coord" }, b).textContent = String(rank + 1);
  }
  const selected = sel && sel.st === st ? sel.square : null;
  // a promotion choice belongs to the position it was asked in (undo, redo or a load close it)
  if (pending && pending.st !== st) { pending = null; $("promo").hidden = true; }
  const lastUci = st.moves.length ? st.moves[st.moves.length - 1] : null;
  const targets = selected ? st.legal.filter(m => m.from === selected).map(m => m.to) : [];
  for (let i = 0; i < 64; i++) {
    const p = place(i), name = sqName(i);
    const light = (i % 8 + Math.floor(i / 8)) % 2 === 1;
    let cls = "sq " + (light ? "light" : "dark");
    if (name === selected) cls += " selected";
    else if (lastUci && (lastUci.slice(0, 2) === name || lastUci.slice(2, 4) === name)) cls += " lastmove";
    const r = svgEl("rect", { x: p.x, y: p.y, width: 1, height: 1, class: cls, "data-square": name }, b);
    r.addEventListener("click", () => clickSquare(name));
    const c = st.board[i];
    if (c !== ".") {
      const white = c === c.toUpperCase();
      if (c.toLowerCase() === "k" && st.check && (white ? "white" : "black") === st.side) {
        svgEl("circle", { cx: p.x + 0.5, cy: p.y + 0.5, r: 0.45, class: "checked" }, b);
      }
      svgEl("text", { x: p.x + 0.5, y: p.y + 0.55, class: "piece " + (white ? "w" : "b"), "data-square": name, "data-piece": c }, b)
        .textContent = GLYPH[c.toLowerCase()];
    }
    if (targets.includes(name)) {
      svgEl("circle", { cx: p.x + 0.5, cy: p.y + 0.5, r: 0.16, class: "target", "data-square": name }, b);
    }
  }
  const known = game.scores.slice(0, game.moves.length + 1).filter(v => v !== null && v !== undefined);
  setEvalBar(known.length ? known[known.length - 1] : 0);
}

// A score object ({cp, mate}) from the mover's view, in pawns from White's view (mates as ±10).
function whitePawns(score, side) {
  let v = score.mate !== null && score.mate !== undefined ? (score.mate > 0 ? 10 : -10) : score.cp / 100;
  return side === "white" ? v : -v;
}

function scoreText(score) {
  if (score.mate !== null && score.mate !== undefined) return "#" + score.mate;
  return (score.cp > 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

// A review score ({cp} or {mate}) in pawns from White's view (mates as ±10): `sign` turns its
// view to White's; a mate in 0 (the position is checkmate) is a win for the side `mated` (1:
// White, -1: Black) did mate.
function reviewPawns(score, sign, mated = sign) {
  if (score.mate !== undefined) return score.mate === 0 ? 10 * mated : score.mate > 0 ? 10 * sign : -10 * sign;
  return sign * score.cp / 100;
}

// A review score as text from White's view (`sign` as above): +0.3, −9.1, #3, #−2, or # for
// checkmate.
function reviewText(score, sign) {
  if (score.mate !== undefined) return score.mate === 0 ? "#" : "#" + signed(sign * score.mate).replace("+", "");
  return signed(sign * score.cp / 100, 1);
}

// The number before the move of ply index `i` of the game: "3. " before White's, "3... " before
// Black's when `always` (it opens a line), from the start FEN's side and move number.
function moveNumberAt(i, always) {
  const f = (game.start || "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").split(" ");
  const k = i + (f[1] === "b" ? 1 : 0), n = (parseInt(f[5], 10) || 1) + Math.floor(k / 2);
  return k % 2 === 0 ? n + ". " : always ? n + "... " : "";
}

// "3. " before White's move, "3... " before Black's when it opens the list; from the FEN's
// move number.
function moveNumber(m, first) {
  const n = m.fen_before.split(" ")[5] || "1";
  return m.side === "white" ? n + ". " : first ? n + "... " : "";
}

function perSide(v, unit) { return v === null || v === undefined ? "\u2013" : v.toFixed(1) + unit; }

// "3.Qxe5+?? blunder (−0.3 → −9.1). Best: Nf3 (line: Nf3 Nf6 ...)", scores from White's view.
function describeMove(m) {
  const sign = m.side === "white" ? 1 : -1;
  let t = moveNumber(m, true).replace(" ", "") + m.san + (MARKS[m.judgement] || "") + " " + m.judgement +
    " (" + reviewText(m.score_best, sign) + " \u2192 " + reviewText(m.score_after_white, 1) + ")" +
    (m.forced ? ", the only move" : "") + (m.exact ? ", by the tablebases" : "") + ".";
  if (m.best === m.uci) return t + " The engine's choice" + (m.pv_san.length > 1 ? " (line: " + m.pv_san.slice(0, 8).join(" ") + ")" : "") + ".";
  return t + " Best: " + m.best_san + " (line: " + m.pv_san.slice(0, 8).join(" ") + ")";
}

// An arrow over the board for the UCI move `uci` (from its first square to its second).
function arrow(uci, cls) {
  if (editor.editing) return;
  const a = place(sqIndex(uci.slice(0, 2))), z = place(sqIndex(uci.slice(2, 4)));
  const x1 = a.x + 0.5, y1 = a.y + 0.5, x2 = z.x + 0.5, y2 = z.y + 0.5;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const head = 0.38, w = 0.22, bx = x2 - ux * head, by = y2 - uy * head;
  const g = svgEl("g", { class: "arrow " + cls, "data-from": uci.slice(0, 2), "data-to": uci.slice(2, 4) }, $("board"));
  svgEl("line", { x1, y1, x2: bx, y2: by }, g);
  const pts = [[x2, y2], [bx - uy * w, by + ux * w], [bx + uy * w, by - ux * w]];
  svgEl("polygon", { points: pts.map(p => p[0].toFixed(3) + "," + p[1].toFixed(3)).join(" ") }, g);
}

// Sets the bar to `pawns` (White's view) and returns it.
function setEvalBar(pawns) {
  const frac = 1 / (1 + Math.exp(-pawns * 0.7));
  $("evalwhite").style.height = (frac * 100).toFixed(1) + "%";
  return pawns;
}

// The analysis of one stream: its lines (MultiPV) and the score of the first.
function showAnalysis(side) {
  const lines = [];
  return (d, done) => {
    if (done) { $("info").textContent += " · done"; return undefined; }
    lines[d.multipv - 1] = d;
    const ol = $("pv");
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    lines.forEach(l => {
      if (!l) return;
      const li = document.createElement("li");
      li.textContent = scoreText(l.score) + "  " + l.pv.slice(0, 12).join(" ");
      ol.appendChild(li);
    });
    if (d.multipv !== 1) return undefined;
    $("info").textContent = "depth " + d.depth + "/" + d.seldepth + " · " + scoreText(d.score) +
      " · " + d.nodes + " nodes · " + Math.round(d.nps / 1000) + " kn/s";
    return setEvalBar(whitePawns(d.score, side));
  };
}

// Who wins, in words, from a WDL of the side `side` to move (or to have moved).
function resultWords(wdl, side) {
  const other = side === "white" ? "Black" : "White", me = side === "white" ? "White" : "Black";
  if (wdl === 2) return me + " wins";
  if (wdl === 1) return me + " wins, but the fifty-move rule draws";
  if (wdl === -1) return other + " wins, but the fifty-move rule draws";
  if (wdl === -2) return other + " wins";
  return "draw";
}

// Asks the server's Syzygy tables about the position when it has few enough pieces.
async function showTablebase() {
  const box = $("tb"), st = game.st;
  const pieces = st ? st.board.split("").filter(c => c !== ".").length : 99;
  const ask = ++tbAsked;
  if (!tbPieces || pieces > tbPieces) { box.hidden = true; return; }
  let r;
  try {
    r = await get("/api/chess/probe?" + query(game.body()));
  } catch (e) {
    r = { status: "error", message: "tablebase: " + e.message };
  }
  if (ask !== tbAsked) return;
  const ol = $("tb-moves");
  while (ol.firstChild) ol.removeChild(ol.firstChild);
  box.hidden = false;
  if (r.status !== "ok") {
    $("tb-result").textContent = "Tablebase: " + r.message;
    return;
  }
  const p = r.position;
  $("tb-result").textContent = "Tablebase: " + resultWords(p.wdl, st.side) +
    (p.wdl !== 0 && p.dtz !== null ? " (DTZ " + Math.abs(p.dtz) + ")" : "");
  r.moves.forEach(m => {
    const li = document.createElement("li");
    li.className = m.wdl > 0 ? "win" : m.wdl < 0 ? "loss" : "draw";
    li.textContent = m.san.padEnd(7) + " " + m.result + (m.wdl !== 0 && m.dtz !== null ? " DTZ " + Math.abs(m.dtz) : "");
    li.dataset.uci = m.uci;
    ol.appendChild(li);
  });
}

function clickSquare(name) {
  if (editor.editing) { editor.click(sqIndex(name)); return; }
  if (pending || !game.ready()) return;
  const st = game.st, selected = sel && sel.st === st ? sel.square : null;
  const from = st.legal.filter(m => m.from === name);
  if (selected && selected !== name) {
    // castling: the king's destination or its rook (in Chess960 `to` is the rook already)
    const moves = st.legal.filter(m => m.from === selected && (m.to === name || m.rook === name));
    if (moves.length === 1) { sel = null; game.play(moves[0].uci); return; }
    if (moves.length > 1) { choosePromotion(moves); return; }
    if (from.length === 0) {
      say("Illegal move: " + selected + "-" + name, true);
      sel = null;
      game.render();
      return;
    }
  }
  if (from.length) {
    sel = { square: name, st };
    say("");
  } else {
    sel = null;
    if (st.board[sqIndex(name)] !== ".") say("That piece has no legal move.", true);
  }
  game.render();
}

function choosePromotion(moves) {
  pending = { moves, st: game.st };
  $("promo").hidden = false;
}

function promote(piece) {
  const moves = pending && pending.st === game.st ? pending.moves : [];
  pending = null;
  $("promo").hidden = true;
  sel = null;
  const m = moves.find(x => x.promotion === piece);
  if (m) game.play(m.uci);
  else game.render();
}

// A Chess960 game from the number typed (0-959), or from a random one.
async function newChess960() {
  const text = $("n960").value.trim();
  const number = text === "" ? Math.floor(Math.random() * 960) : Number(text);
  if (!Number.isInteger(number) || number < 0 || number > 959) {
    say("A Chess960 position is a number from 0 to 959.", true);
    return;
  }
  try {
    game.begin(await api("/api/chess/chess960", { number }), "Chess960 position " + number + ".");
  } catch (e) {
    say(e.message, true);
  }
}

// The board editor (editor.js): the chess parts are the castling rights, offered where the king
// stands on its first rank with a rook beside it on that wing (KQkq: the outermost rook, as in
// Chess960), and the en passant square, offered behind a pawn that may just have moved two
// squares when a pawn of the side to move can take it.
let setupEp = "";     // the en passant square chosen ("" for none)
const rightBoxes = () => [...document.querySelectorAll("#setup-castle input[data-right]")];

function canCastle(board, right) {
  const white = right === "K" || right === "Q", rank = white ? 0 : 7;
  const kings = [];
  board.forEach((c, i) => { if (c === (white ? "K" : "k")) kings.push(i); });
  if (kings.length !== 1 || Math.floor(kings[0] / 8) !== rank) return false;
  const kf = kings[0] % 8, kingside = right.toLowerCase() === "k";
  for (let f = 0; f < 8; f++) {
    if (board[rank * 8 + f] === (white ? "R" : "r") && (kingside ? f > kf : f < kf)) return true;
  }
  return false;
}

function epSquares(board, side) {
  const white = side === "white", ep = white ? 5 : 2, at = white ? 4 : 3, from = white ? 6 : 1;
  const ours = white ? "P" : "p", theirs = white ? "p" : "P", out = [];
  for (let f = 0; f < 8; f++) {
    if (board[ep * 8 + f] === "." && board[from * 8 + f] === "." && board[at * 8 + f] === theirs &&
        ((f > 0 && board[at * 8 + f - 1] === ours) || (f < 7 && board[at * 8 + f + 1] === ours))) {
      out.push(FILES[f] + (ep + 1));
    }
  }
  return out;
}

function setupChanged(ed) {
  for (const b of rightBoxes()) {
    b.disabled = !canCastle(ed.board, b.dataset.right);
    if (b.disabled) b.checked = false;
  }
  const sel = $("setup-ep"), squares = epSquares(ed.board, ed.side);
  while (sel.options.length > 1) sel.remove(1);
  for (const sq of squares) sel.add(new Option(sq, sq));
  sel.value = squares.includes(setupEp) ? setupEp : "";
  setupEp = sel.value;
}

function setupFen(ed) {
  const ranks = [];
  for (let r = 7; r >= 0; r--) {
    let text = "", run = 0;
    for (let f = 0; f < 8; f++) {
      const c = ed.board[r * 8 + f];
      if (c === ".") { run++; continue; }
      if (run) text += run;
      run = 0;
      text += c;
    }
    ranks.push(text + (run ? run : ""));
  }
  const rights = rightBoxes().filter(b => b.checked && !b.disabled).map(b => b.dataset.right).join("");
  return ranks.join("/") + " " + ed.side[0] + " " + (rights || "-") + " " + (setupEp || "-") + " 0 1";
}

// The server's FEN error in the editor's words.
function setupError(message, ed) {
  if (!message.startsWith("bad position: ")) return message;
  let why = message.slice("bad position: ".length);
  if (why === "the side not to move is in check") {
    const [mover, other] = ed.side === "white" ? ["White", "Black"] : ["Black", "White"];
    why = other + " is in check, but it is " + mover + " to move";
  }
  return "Not a legal position: " + why + ".";
}

const editor = new Editor(game, {
  name: "chess",
  key: "fen",
  empty: ".",
  start: { board: "RNBQKBNRPPPPPPPP" + ".".repeat(32) + "pppppppprnbqkbnr", side: "white" },
  read: st => ({ board: st.board, side: st.side }),
  drawBoard: board => draw({ board, moves: [], legal: [], check: false }, true),
  loaded(ed, st) {
    const fields = st ? st.fen.split(" ") : ["", "", "KQkq", "-"];
    for (const b of rightBoxes()) b.checked = fields[2].includes(b.dataset.right);
    setupEp = fields[3] === "-" ? "" : fields[3];
  },
  cleared() {
    for (const b of rightBoxes()) b.checked = false;
    setupEp = "";
  },
  changed: setupChanged,
  text: setupFen,
  explain: setupError,
});
$("setup-ep").onchange = () => { setupEp = $("setup-ep").value; };

async function start() {
  try {
    const h = await get("/api/health");
    tbPieces = h.tablebase_pieces || 0;
  } catch (e) { tbPieces = 0; }
  $("new960").onclick = newChess960;
  $("flip").onclick = () => { flipped = !flipped; game.save(); game.render(); };
  document.querySelectorAll("#promo button").forEach(b => { b.onclick = () => promote(b.dataset.piece); });
  await game.run();
}

start().catch(e => say(e.message, true));
