// The Othello page: what is particular to Othello (the board, moves by clicks, the score of
// every move from hints or the exact solver, the server's opening book). The game itself is run
// by game.js.
//
// The opening book: when the server has one (GET /api/health, `othello_book`), the Book setting
// shows: off, or the randomness of ply's book moves (best: 0 discs, within 2 or 4 discs), sent
// with every play request (`book: false`, or `book_randomness` and the game's `seed`) and stored
// with the other settings; hints then show the book's values, marked "book". "Add game to book"
// (only for a book the server can write back) sends the game line to /api/othello/learn.

import { $, get, say, svgEl } from "./common.js";
import { Game, MARKS } from "./game.js";
import { Editor } from "./editor.js";

const O = 0.6; // board offset (room for coordinates)
const FILES = "abcdefgh";
const bookTitle = $("book").title; // the setting's own help, shown unless a named level is chosen
let bookInfo = null; // the server's opening book ({ positions, level, learnable }), null without one

const game = new Game({
  name: "othello",
  startKey: "position",
  startOf: s => s.position,
  graph: { range: 64, plies: 61 },
  draw,
  status,
  number: () => "",
  // GGF has no variations: the line up to the position shown
  exportText: g => g.st.ggf,
  // a named level: its search level and loss allowance, drawn from the game's seed
  // and the book setting: the book's moves drawn from the game's seed too
  levelParams: () => {
    const v = $("level").value;
    const level = v.startsWith("s:") ? { strength: v.slice(2), seed: game.seed } : { level: +v };
    // a named level plays without the book, as it was calibrated
    return Object.assign(level, namedLevel() ? (bookInfo ? { book: false } : {}) : bookParams());
  },
  played(r, side) {
    $("pv").textContent = r.pv.join(" ") + "  (" + signed(r.score) + (r.book ? " book" : r.exact ? " exact" : "") + ")";
    return blackView(r.score, side);
  },
  saved: () => ({ book: $("book").value }),
  restore(saved) {
    if ([...$("book").options].some(o => o.value === saved.book)) $("book").value = saved.book;
    showBook();
  },
  stream: {
    path: "hint", what: "Hints", controls: ["hints", "level", "book"],
    on: () => $("hints").checked,
    // hints at the search level chosen, or level 12 beside a named level; the book's moves
    // unless the book is off
    params: () => Object.assign({ level: $("level").value.startsWith("s:") ? 12 : +$("level").value, ms: 10000 },
      bookInfo && $("book").value === "off" ? { book: false } : {}),
    listen: side => (d, done) => {
      showScores(d.moves);
      $("pv").textContent = d.pv.join(" ") + "  (" + signed(d.score) +
        (d.book ? " book" : d.exact ? " exact" : " depth " + d.depth + "@" + d.selectivity + "%") + ")" + (done ? "" : " …");
      return blackView(d.score, side);
    },
  },
  review: {
    sides: ["black", "white"],
    params: () => ({ level: $("review-depth").value }),
    settings: r => "level " + r.level + ", exact from " + r.exact_from + " empties",
    startValue: m => blackView(m.score_best, m.side),
    value: m => blackView(m.score_played, m.side),
    label: m => m.move,
    // "12.c4?? blunder (+3 → −6 discs for White). Best: d3 (line: d3 c3 ...)"
    describe(m) {
      const side = m.side === "black" ? "Black" : "White";
      return m.ply + "." + m.move + (MARKS[m.judgement] || "") + " " + m.judgement + " (" + signed(m.score_best) +
        " \u2192 " + signed(m.score_played) + " discs for " + side + (m.exact ? ", exact" : "") + (m.forced ? ", the only move" : "") + "). " +
        (m.best === m.move ? "The engine's choice" : "Best: " + m.best) + " (line: " + m.pv.slice(0, 10).join(" ") + ")";
    },
    sideSummary: (r, side) => "lost " + r.loss[side] + " discs, " + r.mean_loss[side].toFixed(2) + " a move",
    showBest(m) {
      if (editor.editing) return;
      if (m.best !== m.move) mark("circle", m.move, { r: 0.3, class: "played-mark" });
      mark("circle", m.best, { r: 0.3, class: "best-mark" });
    },
  },
  reset() { editor.close(false); $("pv").textContent = ""; },
  editing: () => editor.editing,
});

function sqName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }
function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (parseInt(name.slice(1), 10) - 1); }
function signed(n) { return (n > 0 ? "+" : "") + n; }
// The score of the mover converted to Black's view.
function blackView(score, side) { return side === "black" ? score : -score; }

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

// A mark (a disc or dot, or a score if `name` is "text") centred on square `sq`, over the board.
function mark(name, sq, attrs) {
  const i = sqIndex(sq), [x, y] = name === "text" ? ["x", "y"] : ["cx", "cy"];
  return svgEl(name, Object.assign({ [x]: O + i % 8 + 0.5, [y]: O + Math.floor(i / 8) + 0.5, "data-square": sq }, attrs), $("layer"));
}

// Draws the game's state `st`; while the board editor is open, its board instead (`setup`: `st`
// is the editor's board).
function draw(st, setup = false) {
  if (!setup && editor.editing) { editor.draw(); return; }
  const layer = $("layer");
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  for (let i = 0; i < 64; i++) {
    const c = st.board[i];
    if (c === "X" || c === "O") mark("circle", sqName(i), { r: 0.42, class: "disc " + (c === "X" ? "black" : "white") });
  }
  const last = [...st.moves].reverse().find(m => m !== "pa");
  if (last) mark("circle", last, { r: 0.08, class: "last" });
  if (!game.enginesTurn()) {
    for (const m of st.legal) mark("circle", m, { r: 0.1, class: "legal" });
  }
  $("discs").textContent = "Black " + st.black + " · White " + st.white + " · " + st.empties + " empty";
  $("solve").disabled = st.over || st.empties > 22;
}

function status(st) {
  if (st.over) {
    const r = st.result;
    return "Game over: " + (r > 0 ? "Black wins " : r < 0 ? "White wins " : "draw ") + st.black + "-" + st.white;
  }
  const passed = st.moves.length && st.moves[st.moves.length - 1] === "pa";
  return (st.side === "black" ? "Black" : "White") + " to move" +
    (passed ? " (" + (st.side === "black" ? "White" : "Black") + " had no move and passed)" : "");
}

function clickSquare(sq) {
  if (editor.editing) { editor.click(sqIndex(sq)); return; }
  if (!game.ready()) return;
  if (!game.st.legal.includes(sq)) { say("Illegal move: " + sq, true); return; }
  game.play(sq);
}

// Writes the score of every move on its square, the best ones in white; a book move's value in
// the book's colour, with a small "book" under it.
function showScores(moves) {
  if (editor.editing) return;
  document.querySelectorAll("#layer .hint, #layer .book-mark").forEach(e => e.remove());
  const best = moves.length ? Math.max(...moves.map(m => m.score)) : 0;
  for (const m of moves) {
    if (m.move === "pa") continue;
    const t = mark("text", m.move, { class: "hint" + (m.score === best ? " best" : "") + (m.book ? " book" : "") });
    t.textContent = signed(m.score);
    if (m.book) {
      const i = sqIndex(m.move);
      svgEl("text", { x: O + i % 8 + 0.5, y: O + Math.floor(i / 8) + 0.83, class: "book-mark", "data-square": m.move },
        $("layer")).textContent = "book";
    }
  }
}

// True while the level chosen is a named strength level (beginner ... expert).
function namedLevel() {
  return $("level").value.startsWith("s:");
}

// The book fields of a play request: none without a book, `book: false` when it is off, else
// its randomness and the game's seed.
function bookParams() {
  if (!bookInfo) return {};
  const v = $("book").value;
  return v === "off" ? { book: false } : { book_randomness: +v, seed: game.seed };
}

// Asks the server about its book; the Book setting and the learn button show only with one.
async function loadBook() {
  try {
    bookInfo = (await get("/api/health")).othello_book || null;
  } catch (e) {
    bookInfo = null;
  }
  showBook();
}

function showBook() {
  $("book-row").hidden = !bookInfo;
  // the named levels play without the book (they were calibrated so): the setting waits
  $("book").disabled = !bookInfo || namedLevel();
  $("book").title = namedLevel() ? "The named levels play without the book" : bookTitle;
  $("learn").hidden = !(bookInfo && bookInfo.learnable);
  $("book-info").textContent = bookInfo ? bookInfo.positions + " position" + (bookInfo.positions === 1 ? "" : "s") : "";
}

// Adds the game line (the moves played and those to redo) to the server's book.
async function learn() {
  if (!bookInfo || !bookInfo.learnable || !game.st) return;
  $("learn").disabled = true;
  say("Adding the game to the book…");
  try {
    const r = await game.api("learn", game.body(game.line()));
    bookInfo.positions = r.positions;
    showBook();
    say("Added to the book: " + r.added + " new position" + (r.added === 1 ? "" : "s") + " (" + r.positions + " in all)" +
      (r.complete ? "." : "; stopped before the end."));
    if (!game.busy) game.restartStream();
  } catch (e) {
    say(e.message, true);
  } finally {
    $("learn").disabled = false;
  }
}

async function solve() {
  const st = game.st;
  if (!st || st.over || game.busy) return;
  game.stopStream();
  say("Solving…");
  try {
    const r = await game.api("solve", game.body());
    showScores(r.moves);
    const b = r.moves[0];
    say((r.exact ? "Exact: " : "Not proven in time: ") + "best " + b.move + " " + signed(b.score) + " (" + r.ms + " ms)");
    $("pv").textContent = b.pv.join(" ");
  } catch (e) {
    say(e.message, true);
  }
}

// The board editor (editor.js): an Othello position is its 64 squares (a1..h8, X black, O white,
// - empty) and the side to move, the OBF board form the server reads.
const editor = new Editor(game, {
  name: "othello",
  key: "position",
  empty: "-",
  start: { board: "-".repeat(27) + "OX" + "-".repeat(6) + "XO" + "-".repeat(27), side: "black" },
  read: st => ({ board: st.board, side: st.side }),
  drawBoard(board) {
    const black = board.split("X").length - 1, white = board.split("O").length - 1;
    draw({ board, moves: [], legal: [], black, white, empties: 64 - black - white, over: true }, true);
  },
  text: ed => ed.board.join("") + " " + (ed.side === "black" ? "X" : "O"),
});

buildBoard();
$("solve").onclick = solve;
$("learn").onclick = learn;
$("book").addEventListener("change", () => game.save());
$("level").addEventListener("change", showBook);
// the book first: ply's first move may come from it
loadBook().then(() => game.run()).catch(e => say(e.message, true));
