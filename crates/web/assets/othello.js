// The Othello page: the game lives here (start position and moves); the server checks every
// move, plays its own, streams hints and solves endgames.
"use strict";

const O = 0.6; // board offset (room for coordinates)
const FILES = "abcdefgh";
const KEY = "ply-othello";

let game = { position: "", moves: [], redo: [], scores: [] };
let st = null;        // the last state from the server
let busy = false;     // an engine move is being computed
let hintSource = null;
const $ = id => document.getElementById(id);

function sqName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }
function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (parseInt(name.slice(1), 10) - 1); }

function buildBoard() {
  const b = $("board");
  for (let i = 0; i < 8; i++) {
    svgEl("text", { x: O + i + 0.5, y: 0.3, class: "coord" }, b).textContent = FILES[i];
    svgEl("text", { x: 0.3, y: O + i + 0.5, class: "coord" }, b).textContent = String(i + 1);
  }
  for (let i = 0; i < 64; i++) {
    const r = svgEl("rect", { x: O + i % 8, y: O + Math.floor(i / 8), width: 1, height: 1, class: "sq", "data-square": sqName(i) }, b);
    r.addEventListener("click", () => clickSquare(sqName(i)));
  }
  svgEl("g", { id: "layer" }, b);
}

function human() { return $("color").value; }
function enginesTurn() { return st && !st.over && human() !== "both" && st.side !== human(); }

function render() {
  const layer = $("layer");
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  for (let i = 0; i < 64; i++) {
    const c = st.board[i];
    const cx = O + i % 8 + 0.5, cy = O + Math.floor(i / 8) + 0.5;
    if (c === "X" || c === "O") {
      svgEl("circle", { cx, cy, r: 0.42, class: "disc " + (c === "X" ? "black" : "white"), "data-square": sqName(i) }, layer);
    }
  }
  const last = [...st.moves].reverse().find(m => m !== "pa");
  if (last) {
    const i = sqIndex(last);
    svgEl("circle", { cx: O + i % 8 + 0.5, cy: O + Math.floor(i / 8) + 0.5, r: 0.08, class: "last" }, layer);
  }
  if (!enginesTurn()) {
    for (const m of st.legal) {
      const i = sqIndex(m);
      svgEl("circle", { cx: O + i % 8 + 0.5, cy: O + Math.floor(i / 8) + 0.5, r: 0.1, class: "legal", "data-square": m }, layer);
    }
  }
  $("discs").textContent = "Black " + st.black + " · White " + st.white + " · " + st.empties + " empty";
  let status;
  if (st.over) {
    const r = st.result;
    status = "Game over: " + (r > 0 ? "Black wins " : r < 0 ? "White wins " : "draw ") + (st.black) + "-" + (st.white);
  } else if (busy) {
    status = "ply is thinking…";
  } else {
    status = (st.side === "black" ? "Black" : "White") + " to move";
    if (st.moves.length && st.moves[st.moves.length - 1] === "pa") {
      status += " (" + (st.side === "black" ? "White" : "Black") + " had no move and passed)";
    }
  }
  $("status").textContent = status;
  $("moves").textContent = st.moves.join(" ");
  $("solve").disabled = st.over || st.empties > 22;
  $("undo").disabled = game.moves.length === 0;
  $("redo").disabled = game.redo.length === 0;
  drawGraph($("graph"), game.scores.slice(0, game.moves.length + 1), 64, 61);
  $("export-text").value = "";
}

function save() {
  saveState(KEY, { position: game.position, moves: game.moves, scores: game.scores, level: $("level").value, color: human() });
}

// Asks the server for the state of `moves`; on success it becomes the game.
async function setMoves(moves) {
  const s = await api("/api/othello/state", { position: game.position, moves: moves.join("") });
  st = s;
  game.moves = s.moves.slice();
  game.position = s.position;
  save();
  render();
}

// The score of the mover converted to Black's view.
function blackView(score, side) { return side === "black" ? score : -score; }

async function update() {
  stopHints();
  render();
  while (enginesTurn()) {
    busy = true;
    render();
    try {
      const side = st.side;
      const r = await api("/api/othello/play", { position: game.position, moves: game.moves.join(""), level: +$("level").value });
      game.scores[game.moves.length] = blackView(r.score, side);
      st = r.state;
      game.moves = st.moves.slice();
      $("pv").textContent = r.pv.join(" ") + "  (" + (r.score > 0 ? "+" : "") + r.score + (r.exact ? " exact" : "") + ")";
      save();
    } catch (e) {
      say(e.message, true);
      break;
    } finally {
      busy = false;
    }
  }
  render();
  if (st.over) say("Final score " + st.black + "-" + st.white);
  startHints();
}

async function clickSquare(sq) {
  if (!st || busy) return;
  if (st.over) { say("The game is over.", true); return; }
  if (enginesTurn()) { say("Wait: it is ply's turn.", true); return; }
  if (!st.legal.includes(sq)) { say("Illegal move: " + sq, true); return; }
  say("");
  try {
    game.redo = [];
    await setMoves(game.moves.concat([sq]));
  } catch (e) {
    say(e.message, true);
    return;
  }
  update();
}

function stopHints() {
  if (hintSource) { hintSource.close(); hintSource = null; }
  document.querySelectorAll("#layer .hint").forEach(e => e.remove());
}

function showScores(moves, exact) {
  document.querySelectorAll("#layer .hint").forEach(e => e.remove());
  const best = moves.length ? Math.max(...moves.map(m => m.score)) : 0;
  for (const m of moves) {
    if (m.move === "pa") continue;
    const i = sqIndex(m.move);
    const t = svgEl("text", {
      x: O + i % 8 + 0.5, y: O + Math.floor(i / 8) + 0.5,
      class: "hint" + (m.score === best ? " best" : ""), "data-square": m.move,
    }, $("layer"));
    t.textContent = (m.score > 0 ? "+" : "") + m.score + (exact || m.exact ? "" : "");
  }
}

function startHints() {
  if (!$("hints").checked || !st || st.over || enginesTurn() || busy) return;
  const q = query({ position: game.position, moves: game.moves.join(""), level: +$("level").value, ms: 10000 });
  const src = new EventSource("/api/othello/hint?" + q);
  hintSource = src;
  const side = st.side, ply = game.moves.length;
  const onData = (ev, done) => {
    if (hintSource !== src) return;
    const d = JSON.parse(ev.data);
    showScores(d.moves, d.exact);
    $("pv").textContent = d.pv.join(" ") + "  (" + (d.score > 0 ? "+" : "") + d.score +
      (d.exact ? " exact" : " depth " + d.depth + "@" + d.selectivity + "%") + ")" + (done ? "" : " …");
    game.scores[ply] = blackView(d.score, side);
    drawGraph($("graph"), game.scores.slice(0, game.moves.length + 1), 64, 61);
    if (done) { src.close(); hintSource = null; }
  };
  src.addEventListener("info", ev => onData(ev, false));
  src.addEventListener("done", ev => onData(ev, true));
  let got = false;
  src.addEventListener("info", () => { got = true; });
  src.onerror = () => {
    if (hintSource !== src) return;
    src.close();
    hintSource = null;
    if (!got) say("Hints unavailable: the server is busy (or gone); try again.", true);
  };
}

async function solve() {
  if (!st || st.over || busy) return;
  stopHints();
  say("Solving…");
  try {
    const r = await api("/api/othello/solve", { position: game.position, moves: game.moves.join("") });
    showScores(r.moves, r.exact);
    const b = r.moves[0];
    say((r.exact ? "Exact: " : "Not proven in time: ") + "best " + b.move + " " + (b.score > 0 ? "+" : "") + b.score + " (" + r.ms + " ms)");
    $("pv").textContent = b.pv.join(" ");
  } catch (e) {
    say(e.message, true);
  }
}

async function undo() {
  if (busy || game.moves.length === 0) return;
  const moves = game.moves.slice();
  try {
    // back to the last position where the human was to move (passes are replayed by the server)
    while (moves.length) {
      const m = moves.pop();
      if (m === "pa") continue;
      game.redo.push(m);
      if (moves.length === 0 || human() === "both") break;
      const s = await api("/api/othello/state", { position: game.position, moves: moves.join("") });
      if (s.side === human()) break;
    }
    say("");
    await setMoves(moves);
  } catch (e) { say(e.message, true); }
  update();
}

async function redo() {
  if (busy || game.redo.length === 0) return;
  const moves = game.moves.concat([game.redo.pop()]);
  try {
    // replay to the human's turn again
    await setMoves(moves);
    while (game.redo.length && human() !== "both" && st.side !== human() && !st.over) {
      await setMoves(game.moves.concat([game.redo.pop()]));
    }
    say("");
  } catch (e) { say(e.message, true); }
  update();
}

async function newGame(position) {
  stopHints();
  game = { position: position || "", moves: [], redo: [], scores: [] };
  say("");
  $("pv").textContent = "";
  try { await setMoves([]); } catch (e) { say(e.message, true); }
  update();
}

async function load() {
  const text = $("load-text").value;
  try {
    const s = await api("/api/othello/load", { text });
    stopHints();
    game = { position: s.position, moves: s.moves.slice(), redo: [], scores: [] };
    st = s;
    save();
    say("Loaded.");
    update();
  } catch (e) {
    say(e.message, true);
  }
}

async function start() {
  buildBoard();
  const saved = loadState(KEY);
  if (saved) {
    if (saved.level) $("level").value = saved.level;
    if (saved.color) $("color").value = saved.color;
    game.position = saved.position || "";
    game.scores = Array.isArray(saved.scores) ? saved.scores : [];
    try { await setMoves(saved.moves || []); } catch (e) { game.position = ""; await setMoves([]); }
  } else {
    await setMoves([]);
  }
  $("new").onclick = () => newGame("");
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("solve").onclick = solve;
  $("load").onclick = load;
  $("export").onclick = () => { $("export-text").value = st.ggf; };
  $("hints").onchange = () => { stopHints(); startHints(); };
  $("level").onchange = () => { save(); stopHints(); startHints(); };
  $("color").onchange = () => { save(); update(); };
  update();
}

start().catch(e => say(e.message, true));
