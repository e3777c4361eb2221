// The chess page: the game lives here (start FEN and moves); the server checks every move,
// plays its own and streams analysis.
"use strict";

const O = 0.6;
const FILES = "abcdefgh";
const KEY = "ply-chess";
const GLYPH = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };

let game = { fen: "", moves: [], redo: [], scores: [] };
let st = null;
let busy = false;
let selected = null;   // the square whose moves are shown
let flipped = false;
let pending = null;    // moves waiting for a promotion choice
let source = null;     // the analysis stream
let tbPieces = 0;      // most pieces the server's Syzygy tables hold (0: none)
let tbAsked = 0;       // the latest tablebase request (older answers are dropped)
const $ = id => document.getElementById(id);

function sqName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }
function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (parseInt(name[1], 10) - 1); }
// Top-left corner of square `i` on the drawing.
function place(i) {
  const f = i % 8, r = Math.floor(i / 8);
  return flipped ? { x: O + 7 - f, y: O + r } : { x: O + f, y: O + 7 - r };
}

function human() { return $("color").value; }
function enginesTurn() { return st && !st.over && human() !== "both" && st.side !== human(); }

function render() {
  const b = $("board");
  while (b.firstChild) b.removeChild(b.firstChild);
  for (let k = 0; k < 8; k++) {
    const file = flipped ? 7 - k : k, rank = flipped ? k : 7 - k;
    svgEl("text", { x: O + k + 0.5, y: 0.3, class: "coord" }, b).textContent = FILES[file];
    svgEl("text", { x: 0.3, y: O + k + 0.5, class: "coord" }, b).textContent = String(rank + 1);
  }
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
  let status;
  if (st.over) status = "Game over: " + st.status + " (" + st.result + ")";
  else if (busy) status = "ply is thinking…";
  else status = (st.side === "white" ? "White" : "Black") + " to move" + (st.check ? " (check)" : "");
  $("status").textContent = status;
  $("moves").textContent = pgnBody(st);
  $("undo").disabled = game.moves.length === 0;
  $("redo").disabled = game.redo.length === 0;
  drawGraph($("graph"), game.scores.slice(0, game.moves.length + 1), 10, Math.max(40, game.moves.length + 1));
}

// The numbered move text of the state (from the PGN it carries).
function pgnBody(s) {
  const lines = s.pgn.split("\n").filter(l => l && !l.startsWith("["));
  return lines.join(" ");
}

function save() {
  saveState(KEY, { fen: game.fen, moves: game.moves, scores: game.scores, level: $("level").value, color: human(), flipped });
}

async function setMoves(moves) {
  const s = await api("/api/chess/state", { fen: game.fen, moves: moves.join(" ") });
  st = s;
  game.moves = s.moves.slice();
  game.fen = s.start_fen;
  save();
  render();
}

function levelParams() {
  const [kind, value] = $("level").value.split(":");
  return kind === "ms" ? { ms: +value } : { nodes: +value };
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

function setEvalBar(pawns) {
  const frac = 1 / (1 + Math.exp(-pawns * 0.7));
  $("evalwhite").style.height = (frac * 100).toFixed(1) + "%";
}

async function update() {
  stopAnalysis();
  selected = null;
  render();
  while (enginesTurn()) {
    busy = true;
    render();
    try {
      const side = st.side;
      const body = Object.assign({ fen: game.fen, moves: game.moves.join(" ") }, levelParams());
      const r = await api("/api/chess/play", body);
      game.scores[game.moves.length] = whitePawns(r.score, side);
      setEvalBar(game.scores[game.moves.length]);
      st = r.state;
      game.moves = st.moves.slice();
      $("info").textContent = "ply played " + r.san + " (" + scoreText(r.score) + ", depth " + r.depth + ", " + r.nodes + " nodes)";
      save();
    } catch (e) {
      say(e.message, true);
      break;
    } finally {
      busy = false;
    }
  }
  render();
  if (st.over) say("Game over: " + st.status + " (" + st.result + ")");
  showTablebase();
  startAnalysis();
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
  const box = $("tb");
  const pieces = st ? st.board.split("").filter(c => c !== ".").length : 99;
  const ask = ++tbAsked;
  if (!tbPieces || pieces > tbPieces) { box.hidden = true; return; }
  let r;
  try {
    const q = query({ fen: game.fen, moves: game.moves.join(" ") });
    const res = await fetch("/api/chess/probe?" + q);
    r = await res.json();
    if (!res.ok) throw new Error(r.error || ("HTTP " + res.status));
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

async function playUci(uci) {
  say("");
  try {
    game.redo = [];
    await setMoves(game.moves.concat([uci]));
  } catch (e) {
    say(e.message, true);
    return;
  }
  update();
}

function clickSquare(name) {
  if (!st || busy) return;
  if (pending) return;
  if (st.over) { say("The game is over.", true); return; }
  if (enginesTurn()) { say("Wait: it is ply's turn.", true); return; }
  const from = st.legal.filter(m => m.from === name);
  if (selected && selected !== name) {
    // castling: the king's destination or its rook (in Chess960 `to` is the rook already)
    const moves = st.legal.filter(m => m.from === selected && (m.to === name || m.rook === name));
    if (moves.length === 1) { selected = null; playUci(moves[0].uci); return; }
    if (moves.length > 1) { choosePromotion(moves); return; }
    if (from.length === 0) {
      say("Illegal move: " + selected + "-" + name, true);
      selected = null;
      render();
      return;
    }
  }
  if (from.length) {
    selected = name;
    say("");
  } else {
    selected = null;
    if (st.board[sqIndex(name)] !== ".") say("That piece has no legal move.", true);
  }
  render();
}

function choosePromotion(moves) {
  pending = moves;
  $("promo").hidden = false;
}

function promote(piece) {
  const moves = pending || [];
  pending = null;
  $("promo").hidden = true;
  selected = null;
  const m = moves.find(x => x.promotion === piece);
  if (m) playUci(m.uci);
  else render();
}

function stopAnalysis() {
  if (source) { source.close(); source = null; }
}

function startAnalysis() {
  if (!$("analyse").checked || !st || st.over || busy || enginesTurn()) return;
  const q = query({ fen: game.fen, moves: game.moves.join(" "), multipv: $("multipv").value, ms: 30000 });
  const src = new EventSource("/api/chess/analyse?" + q);
  source = src;
  const side = st.side, ply = game.moves.length;
  const lines = [];
  src.addEventListener("info", ev => {
    if (source !== src) return;
    const d = JSON.parse(ev.data);
    lines[d.multipv - 1] = d;
    const ol = $("pv");
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    lines.forEach(l => {
      if (!l) return;
      const li = document.createElement("li");
      li.textContent = scoreText(l.score) + "  " + l.pv.slice(0, 12).join(" ");
      ol.appendChild(li);
    });
    if (d.multipv === 1) {
      $("info").textContent = "depth " + d.depth + "/" + d.seldepth + " · " + scoreText(d.score) +
        " · " + d.nodes + " nodes · " + Math.round(d.nps / 1000) + " kn/s";
      game.scores[ply] = whitePawns(d.score, side);
      setEvalBar(game.scores[ply]);
      drawGraph($("graph"), game.scores.slice(0, game.moves.length + 1), 10, Math.max(40, game.moves.length + 1));
    }
  });
  src.addEventListener("done", () => {
    if (source === src) { src.close(); source = null; $("info").textContent += " · done"; }
  });
  let got = false;
  src.addEventListener("info", () => { got = true; });
  src.onerror = () => {
    if (source !== src) return;
    src.close();
    source = null;
    if (!got) say("Analysis unavailable: the server is busy (or gone); try again.", true);
  };
}

async function undo() {
  if (busy || game.moves.length === 0) return;
  stopAnalysis();
  const moves = game.moves.slice();
  game.redo.push(moves.pop());
  // back to the human's turn when playing against ply
  if (human() !== "both" && moves.length && (moves.length % 2 === 0) !== (sideAtStart() === human())) {
    game.redo.push(moves.pop());
  }
  try { await setMoves(moves); say(""); } catch (e) { say(e.message, true); }
  update();
}

// The side to move of the start position.
function sideAtStart() {
  const f = (game.fen || "").split(" ");
  return f[1] === "b" ? "black" : "white";
}

async function redo() {
  if (busy || game.redo.length === 0) return;
  try {
    await setMoves(game.moves.concat([game.redo.pop()]));
    if (game.redo.length && human() !== "both" && st.side !== human() && !st.over) {
      await setMoves(game.moves.concat([game.redo.pop()]));
    }
    say("");
  } catch (e) { say(e.message, true); }
  update();
}

async function newGame() {
  stopAnalysis();
  game = { fen: "", moves: [], redo: [], scores: [] };
  flipped = human() === "black";
  $("info").textContent = "";
  $("pv").textContent = "";
  setEvalBar(0);
  say("");
  try { await setMoves([]); } catch (e) { say(e.message, true); }
  update();
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
    const s = await api("/api/chess/chess960", { number });
    stopAnalysis();
    game = { fen: s.start_fen, moves: [], redo: [], scores: [] };
    st = s;
    flipped = human() === "black";
    $("info").textContent = "";
    $("pv").textContent = "";
    setEvalBar(0);
    save();
    say("Chess960 position " + number + ".");
    update();
  } catch (e) {
    say(e.message, true);
  }
}

async function load() {
  try {
    const s = await api("/api/chess/load", { text: $("load-text").value });
    stopAnalysis();
    game = { fen: s.start_fen, moves: s.moves.slice(), redo: [], scores: [] };
    st = s;
    save();
    say("Loaded.");
    update();
  } catch (e) {
    say(e.message, true);
  }
}

async function start() {
  try {
    const h = await (await fetch("/api/health")).json();
    tbPieces = h.tablebase_pieces || 0;
  } catch (e) { tbPieces = 0; }
  const saved = loadState(KEY);
  if (saved) {
    if (saved.level) $("level").value = saved.level;
    if (saved.color) $("color").value = saved.color;
    flipped = !!saved.flipped;
    game.fen = saved.fen || "";
    game.scores = Array.isArray(saved.scores) ? saved.scores : [];
    try { await setMoves(saved.moves || []); } catch (e) { game.fen = ""; await setMoves([]); }
  } else {
    await setMoves([]);
  }
  $("new").onclick = newGame;
  $("new960").onclick = newChess960;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("flip").onclick = () => { flipped = !flipped; save(); render(); };
  $("load").onclick = load;
  $("export").onclick = () => { $("export-text").value = st.pgn; };
  $("analyse").onchange = () => { stopAnalysis(); startAnalysis(); };
  $("multipv").onchange = () => { stopAnalysis(); startAnalysis(); };
  $("level").onchange = save;
  $("color").onchange = () => { flipped = human() === "black"; save(); update(); };
  document.querySelectorAll("#promo button").forEach(b => { b.onclick = () => promote(b.dataset.piece); });
  update();
}

start().catch(e => say(e.message, true));
