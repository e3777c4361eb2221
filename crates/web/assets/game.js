// The game controller of the chess and Othello pages: the game (start position, its move tree
// with a score per position, the line on the board) kept in localStorage, ply's replies,
// undo/redo, load/export and the analysis stream. The server checks every move. Each page hands
// it an adapter with what is particular to its game:
//   name                 "chess" or "othello": the API is /api/<name>/, the storage key ply-<name>
//   startKey, startOf(s) the request field of the start position, and the start of a state `s`
//   graph                { range, plies }: the score graph's bound and its least width in plies
//   draw(st), status(st)  the board and the status line
//   number(i, always)    the move number written before the move of ply index i ("" for none;
//                        `always` after a variation opens or closes, where Black's needs one)
//   exportText(game)     the record of the game (a promise or a text)
//   levelParams()        the strength fields of a play request
//   played(r, side)      shows ply's reply `r`; returns its score as the graph counts it
//   stream               { path, what, controls, on(), params(), listen(side) }: the analysis
//                        stream; listen gives one stream's (data, done) -> graph score or undefined
//   reset()              clears what a new game makes stale
//   review               { sides, params(), settings(r), startValue(m), value(m), label(m, first),
//                        describe(m), sideSummary(r, side), showBest(m) }: the game review (below)
//   optional: saved() / restore(saved) (more to store), colorChanged(), settled() (after ply moved),
//   editing() (the board editor is open: the clock stops), timeoutDraw(st, side) (a flag of
//   `side` is a draw: the other side cannot win, as chess's lone king)
//
// Timed games (clock.js): the Clock setting gives both sides a clock from the next game on (or
// from the position shown, when it changes). The clock of the side to move runs while the game
// goes on at the end of its line; undo, redo, a click in the move list, a review or the board
// editor stop it, and it runs again with the next move played. ply gets its time left and the
// increment with each request and keeps to them by its own time management; a flag that falls
// ends the game.
//
// The move tree: every line played or loaded is kept. A node is { m: move, t: its text (SAN),
// s: the score of the position after it, c: [children] }; a node's first child is its main
// continuation, the others are variations. The page is on one line of the tree (`moves`, the
// moves to the position shown, and `redo`, the moves after it, next one last): undo and redo walk
// it, a move that is not the line's next one starts a variation (or enters the one that has it),
// a click on a move of the list goes to it. "Promote" makes the variation the current move is in
// the main continuation at its branch; "Delete" removes the current move and all after it.
//
// Game review: the Review button sends the whole game line the page holds (the moves played to
// the current position and the redo moves after it) to /api/<name>/review and shows its
// progress; its report then draws the graph (with a dot per marked move), a move list of
// clickable moves with ?!, ?, ?? marks, a summary per side, and, for the move clicked or found by
// the mistake buttons, the position before it with the better move. The report is stored with
// the game and kept while the start and the line stay the same.

import { $, api, stream, say, drawGraph, saveState, loadState, query } from "./common.js";
import { GameClock, formatTime, parseControl } from "./clock.js";

// The marks of the judgements that are marked, and which count as mistakes for the buttons.
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const PLURAL = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
const sameLine = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);
const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);
const newNode = (m, t) => ({ m, t, s: null, c: [] });
const newSeed = () => Math.floor(Math.random() * 2 ** 31) + 1;

// The redo moves (next one last) after `added`, moves just played: the line goes on while they
// are its next moves; another move starts a new line, with nothing to redo.
function follow(redo, added) {
  redo = redo.slice();
  for (const m of added) {
    if (!redo.length || redo[redo.length - 1] !== m) return [];
    redo.pop();
  }
  return redo;
}

export class Game {
  constructor(adapter) {
    this.a = adapter;
    this.key = "ply-" + adapter.name;
    this.start = "";      // the start position ("" for the usual one)
    this.root = newNode(null, ""); // the move tree, from the start position
    this.moves = [];      // the line's moves to the position shown, as the server writes them (Othello passes: "pa")
    this.redo = [];       // the line's moves after it, the next one last
    this.st = null;       // the server's state of the game
    this.busy = false;    // ply is thinking
    this.turn = 0;        // counts update()s: a reply asked for by an older one is dropped
    this.source = null;   // the analysis stream
    this.review = null;   // the review of a game line: { start, line, settings, report }
    this.reviewing = null; // the review running: { src, start, line }
    this.focus = -1;      // the reviewed move whose better move is shown (index in the report)
    this.browsing = false; // walking through a reviewed game: ply does not move by itself
    this.clock = null;    // the clocks of a timed game (clock.js)
    this.seed = newSeed(); // the seed of a weakened engine's choices, new each game
  }

  human() { return $("color").value; }
  enginesTurn() {
    return !!this.st && !this.st.over && !this.flagged() && !this.browsing && this.human() !== "both" && this.st.side !== this.human();
  }
  flagged() { return this.clock ? this.clock.flag : null; }
  // The game line the page holds: the moves played and the redo moves after them.
  line() { return this.moves.concat(this.redo.slice().reverse()); }

  // The nodes of the positions along the path of moves `path`: the root, then the node of each
  // move; null from where the tree does not have the path.
  along(path) {
    const out = [this.root];
    let n = this.root;
    for (const m of path) {
      n = n && n.c.find(x => x.m === m);
      out.push(n || null);
    }
    return out;
  }

  // The node at the end of the path of moves `path`, or null when the tree has no such line.
  node(path) { return this.along(path)[path.length]; }

  // Adds the path `path` to the tree where it is not (a new move goes after the node's others:
  // a variation, or the main continuation of a node that had none) and returns its last node.
  grow(path) {
    let n = this.root;
    for (const m of path) {
      let next = n.c.find(x => x.m === m);
      if (!next) { next = newNode(m, m); n.c.push(next); }
      n = next;
    }
    return n;
  }

  // The moves after `node` along its main continuation.
  continuation(node) {
    const out = [];
    for (let n = node; n && n.c.length; n = n.c[0]) out.push(n.c[0].m);
    return out;
  }

  // The node of the position shown.
  here() { return this.grow(this.moves); }

  // The scores of the positions of the line (the start, then after each move), from the graph's
  // side; null where unknown.
  get scores() { return this.along(this.line()).map(n => (n ? n.s : null)); }

  // The tree as a flat list (a parent before its children, children in their order): what is
  // stored and what the export sends. { parent (index or null), move, san, s }.
  flatten() {
    const out = [], todo = this.root.c.slice().reverse().map(n => [n, null]);
    while (todo.length) {
      const [n, parent] = todo.pop();
      out.push({ parent, move: n.m, san: n.t, s: n.s });
      const index = out.length - 1;
      for (let k = n.c.length - 1; k >= 0; k--) todo.push([n.c[k], index]);
    }
    return out;
  }

  // A tree from a flat list (as flatten writes it, or the server's load reply), with `rootScore`.
  unflatten(nodes, rootScore = null) {
    const root = newNode(null, ""), all = [];
    root.s = rootScore;
    for (const x of Array.isArray(nodes) ? nodes : []) {
      const parent = x.parent === null || x.parent === undefined ? root : all[x.parent];
      if (!parent || typeof x.move !== "string") { all.push(null); continue; }
      const n = newNode(x.move, x.san || x.move);
      if (typeof x.s === "number") n.s = x.s;
      parent.c.push(n);
      all.push(n);
    }
    return root;
  }

  // Writes the text (SAN) of the moves the server state `s` gives along its line.
  labels(s) {
    if (!Array.isArray(s.san)) return;
    this.along(s.moves).slice(1).forEach((n, i) => { if (n && s.san[i]) n.t = s.san[i]; });
  }

  // Whether the position shown is in a variation, and the move that opens the innermost one.
  branch() {
    let n = this.root, at = null;
    for (const m of this.moves) {
      const k = n.c.findIndex(x => x.m === m);
      if (k < 0) break;
      if (k > 0) at = { parent: n, k };
      n = n.c[k];
    }
    return at;
  }
  // The request fields of the game with `moves` played.
  body(moves = this.moves) { return { [this.a.startKey]: this.start, moves: moves.join(" ") }; }
  api(what, body) { return api("/api/" + this.a.name + "/" + what, body); }

  // Whether the user may move now; when not, says why (silent while ply thinks).
  ready() {
    if (!this.st || this.busy) return false;
    if (this.st.over || this.flagged()) { say("The game is over.", true); return false; }
    if (this.enginesTurn()) { say("Wait: it is ply's turn.", true); return false; }
    return true;
  }

  save() {
    saveState(this.key, Object.assign({
      start: this.start, moves: this.moves, redo: this.redo, tree: this.flatten(), rootScore: this.root.s,
      level: $("level").value, color: this.human(), review: this.review, browsing: this.browsing,
      reviewDepth: $("review-depth").value, clock: this.clock && this.clock.snapshot(), seed: this.seed,
      clockSetting: $("clock").value, clockCustom: $("clock-custom-text").value,
    }, this.a.saved?.()));
  }

  // Asks the server for the state of `moves`; on success it becomes the game, with `redo` to
  // replay, and the line goes into the tree.
  async setMoves(moves, redo = this.redo) {
    const s = await this.api("state", this.body(moves));
    this.st = s;
    this.moves = s.moves.slice();
    this.start = this.a.startOf(s);
    // the server plays a forced pass itself: it is the next redo move when the line has it
    this.absorb(follow(redo, s.moves.slice(moves.length)), s);
    this.save();
    this.render();
  }

  // Puts the line (the moves and `redo`) into the tree with the move texts of state `s`; a line
  // with nothing to redo goes on along the tree's main continuation.
  absorb(redo, s) {
    this.redo = redo;
    const n = this.grow(this.line());
    if (!redo.length) this.redo = this.continuation(n).reverse();
    this.labels(s);
  }

  render() {
    const st = this.st;
    if (this.reviewing && (this.reviewing.start !== this.start || !sameLine(this.reviewing.line, this.line()))) {
      this.endReview("Review cancelled: the game changed.");
    }
    const rv = this.currentReview();
    this.a.draw(st);
    this.runClock();
    $("status").textContent = this.busy ? "ply is thinking…" : this.flagged() ? this.flagText() : this.a.status(st);
    this.renderMoves(rv);
    $("undo").disabled = this.busy || this.undoTarget() < 0;
    $("redo").disabled = this.busy || this.redo.length === 0;
    $("promote").disabled = this.busy || !this.branch();
    $("delete").disabled = this.busy || this.moves.length === 0;
    this.renderReview(rv);
    this.drawGraph();
    this.drawClock();
  }

  // The time control chosen ({ base, inc } in ms), or null for none; a custom one that does not
  // read is none, and says so.
  clockSetting() {
    const v = $("clock").value;
    $("clock-custom").hidden = v !== "custom";
    if (!v) return null;
    const c = parseControl(v === "custom" ? $("clock-custom-text").value : v);
    if (!c) say("A time control is minutes + seconds a move, such as 5+3.", true);
    return c;
  }

  // New clocks for the game from the position shown, by the setting (none without one).
  newClock() {
    const c = this.clockSetting();
    this.clock = c ? new GameClock(c.base, c.inc) : null;
  }

  // Runs the clock of the side to move while the game goes on at the end of its line (see the
  // top of this file), else stops it.
  runClock() {
    const c = this.clock, st = this.st;
    if (!c) return;
    const live = st && !st.over && !c.flag && !c.paused && !this.browsing && !this.reviewing &&
      this.redo.length === 0 && !this.a.editing?.();
    if (live) c.start(st.side); else c.stop();
  }

  // Stops the clocks until the next move is played (undo, redo).
  pauseClock() {
    if (this.clock) { this.clock.stop(); this.clock.paused = true; }
  }

  flagText() {
    const side = this.flagged(), name = s => s[0].toUpperCase() + s.slice(1);
    const other = side === "white" ? "black" : "white";
    return "Game over: " + name(side) + " lost on time" +
      (this.a.timeoutDraw?.(this.st, side) ? ", a draw: " + name(other) + " cannot win" : ", " + name(other) + " wins");
  }

  drawClock() {
    const c = this.clock;
    $("clocks").hidden = !c;
    if (!c) return;
    for (const side of ["white", "black"]) {
      const e = $("clock-" + side), left = c.remaining(side);
      e.textContent = formatTime(left);
      e.classList.toggle("running", c.turn === side);
      e.classList.toggle("low", left < 10000);
      e.classList.toggle("flagged", c.flag === side);
    }
  }

  // Ten times a second: the clocks shown, and the flag when the running one runs out.
  tickClock() {
    const c = this.clock;
    if (!c) return;
    if (c.turn && c.check()) {
      this.stopStream();
      this.save();
      say(this.flagText() + ".");
      this.render();
      return;
    }
    this.drawClock();
  }

  drawGraph() {
    const rv = this.currentReview();
    if (rv && sameLine(rv.line, this.line())) {
      const values = this.reviewValues(rv), at = this.entries(rv.line);
      const marks = [];
      rv.report.moves.forEach((m, k) => {
        if (!MARKS[m.judgement]) return;
        marks.push({ ply: at[k] + 1, cls: m.judgement, title: this.a.review.label(m, true) + MARKS[m.judgement] + " " + m.judgement,
          click: () => this.gotoMove(k) });
      });
      drawGraph($("graph"), values, this.a.graph.range, Math.max(this.a.graph.plies, values.length),
        { marks, cursor: this.moves.length });
      return;
    }
    const values = this.scores, n = this.moves.length + 1;
    // the known scores of the line, up to its last known one
    let end = values.length;
    while (end > n && (values[end - 1] === null || values[end - 1] === undefined)) end--;
    drawGraph($("graph"), values.slice(0, end), this.a.graph.range, Math.max(this.a.graph.plies, end),
      { cursor: this.moves.length });
  }

  // The index in `line` of each move a review judges (passes, "pa", are not judged).
  entries(line) {
    const at = [];
    line.forEach((m, i) => { if (m !== "pa") at.push(i); });
    return at;
  }

  // The stored review while its line is in the tree; it is dropped when another game starts or
  // its line is deleted.
  currentReview() {
    const rv = this.review;
    if (!rv) return null;
    const same = rv.start === this.start && Array.isArray(rv.line) && this.node(rv.line) && rv.report &&
      Array.isArray(rv.report.moves) && rv.report.moves.length === this.entries(rv.line).length;
    if (same) return rv;
    this.review = null;
    this.focus = -1;
    this.save();
    return null;
  }

  // The graph's value at each position of the reviewed line (the start, then after each move).
  reviewValues(rv) {
    const R = this.a.review, ms = rv.report.moves, values = [ms.length ? R.startValue(ms[0]) : 0];
    let k = 0;
    rv.line.forEach((mv, i) => { values.push(mv === "pa" ? values[i] : R.value(ms[k++])); });
    return values;
  }

  // The move tree as text: the main line, each variation in parentheses after the move it
  // replaces; every move a span that goes to its position when clicked. The moves of the line
  // on the board are .line (those after the position shown also .future, the last one shown
  // .current); those in a variation are .var; moves of the reviewed line carry its judgements.
  renderMoves(rv) {
    const box = $("moves"), line = this.line(), cursor = this.moves.length;
    while (box.firstChild) box.removeChild(box.firstChild);
    const judged = new Map();     // ply index on the reviewed line -> its report entry
    if (rv) this.entries(rv.line).forEach((i, k) => judged.set(i, k));
    const text = t => box.appendChild(document.createTextNode(t));
    let gap = false;              // a space goes before the next move
    const move = (n, path, onLine, onReview, nested, numbered) => {
      const i = path.length - 1, span = document.createElement("span");
      if (gap) text(" ");
      gap = true;
      span.className = "mv";
      span.dataset.ply = i + 1;
      let label = this.a.number(i, numbered) + (n.t || n.m);
      if (n.m === "pa") span.classList.add("pass");
      if (onReview && judged.has(i)) {
        const k = judged.get(i), m = rv.report.moves[k];
        span.classList.add(m.judgement);
        span.title = m.judgement;
        label += MARKS[m.judgement] || "";
        span.addEventListener("click", () => this.gotoMove(k));
      } else {
        span.addEventListener("click", () => this.goto(path));
      }
      if (onLine) {
        span.classList.add("line");
        if (i === cursor - 1) span.classList.add("current");
        if (i >= cursor) span.classList.add("future");
      }
      if (nested) span.classList.add("var");
      span.textContent = label;
      box.appendChild(span);
    };
    // the line that opens with the first of `alternatives` (after the moves `path`), the others
    // as its variations
    const walk = (alternatives, path, onLine, onReview, nested) => {
      let numbered = true;
      while (alternatives.length) {
        const [main, ...others] = alternatives, i = path.length, here = path.concat([main.m]);
        const mainOn = onLine && line[i] === main.m, mainReviewed = onReview && rv.line[i] === main.m;
        move(main, here, mainOn, mainReviewed, nested, numbered);
        numbered = false;
        for (const o of others) {
          text(" (");
          gap = false;
          walk([o], path, onLine && line[i] === o.m, onReview && rv.line[i] === o.m, true);
          text(")");
          numbered = true;
        }
        [alternatives, path, onLine, onReview] = [main.c, here, mainOn, mainReviewed];
      }
    };
    walk(this.root.c, [], true, !!rv, false);
  }

  // Goes to the position after the moves `path`: along the line on the board when it is on it
  // (the rest stays to redo), else on the line through it and its main continuation. ply does
  // not move there by itself (as in a review), whoever is to move.
  async goto(path) {
    if (this.busy) return;
    const line = this.line(), node = this.node(path);
    if (!node) return;
    const rest = isPrefix(path, line) ? line.slice(path.length) : this.continuation(node);
    this.focus = -1;
    this.browsing = true;
    await this.go(path.slice(), rest.reverse());
  }

  // Makes the variation the position shown is in its branch's main continuation.
  promote() {
    const b = this.branch();
    if (this.busy || !b) return;
    const [n] = b.parent.c.splice(b.k, 1);
    b.parent.c.unshift(n);
    this.save();
    this.render();
  }

  // Removes the last move shown (a forced pass goes with the move before it) and every move
  // after it, and goes to the position before it.
  async remove() {
    let k = this.moves.length - 1;
    while (k > 0 && this.moves[k] === "pa") k--;
    if (this.busy || k < 0) return;
    const path = this.moves.slice(0, k), parent = this.node(path), gone = this.moves[k];
    if (!parent) return;
    parent.c = parent.c.filter(x => x.m !== gone);
    this.browsing = true;
    await this.go(path, this.continuation(parent).reverse());
  }

  // The review's controls, summary and the better move of the move in focus.
  renderReview(rv) {
    const running = !!this.reviewing;
    $("review").disabled = running || this.busy || !this.st;
    $("review-cancel").hidden = !running;
    $("review-nav").hidden = !rv;
    const summary = $("review-summary");
    while (summary.firstChild) summary.removeChild(summary.firstChild);
    $("review-move").textContent = "";
    if (!rv) return;
    const R = this.a.review, ms = rv.report.moves;
    const head = document.createElement("div");
    head.textContent = "Review (" + R.settings(rv.report) + ")";
    summary.appendChild(head);
    for (const side of R.sides) {
      const counts = Object.keys(MARKS).map(j => {
        const n = ms.filter(m => m.side === side && m.judgement === j).length;
        return n + " " + (n === 1 ? j : PLURAL[j]);
      });
      const line = document.createElement("div");
      line.className = "side-summary";
      line.dataset.side = side;
      line.textContent = side[0].toUpperCase() + side.slice(1) + ": " + R.sideSummary(rv.report, side) + " · " + counts.join(", ");
      summary.appendChild(line);
    }
    const at = this.entries(rv.line);
    if (this.focus >= 0 && at[this.focus] === this.moves.length && isPrefix(this.moves, rv.line)) {
      const m = ms[this.focus];
      $("review-move").textContent = R.describe(m);
      R.showBest(m);
    }
  }

  // Goes to the position before the reviewed move `k` (the rest of the line becomes the redo
  // moves) and shows its better move. ply does not move there, whoever is to move.
  async gotoMove(k) {
    const rv = this.currentReview();
    if (!rv || this.busy) return;
    const i = this.entries(rv.line)[k];
    this.focus = k;
    this.browsing = true;
    await this.go(rv.line.slice(0, i), rv.line.slice(i).reverse());
  }

  // The next (dir 1) or previous (dir -1) move of `side` (either when null) judged an
  // inaccuracy or worse, from the current position, going round at the ends of the game.
  async stepMistake(side, dir) {
    const rv = this.currentReview();
    if (!rv || this.busy) return;
    const at = this.entries(rv.line), on = isPrefix(this.moves, rv.line);
    // off the reviewed line, from where the current line leaves it
    let cursor = this.moves.length;
    if (!on) { cursor = 0; while (this.moves[cursor] === rv.line[cursor]) cursor++; }
    const focused = on && this.focus >= 0 && at[this.focus] === cursor;
    const ks = [];
    rv.report.moves.forEach((m, k) => { if (MARKS[m.judgement] && (!side || m.side === side)) ks.push(k); });
    if (!ks.length) {
      say("No mistake" + (side ? " by " + side[0].toUpperCase() + side.slice(1) : "") + " in this game.");
      return;
    }
    // past the last one (or before the first), it goes round to the other end
    const k = dir > 0 ? ks.find(k => at[k] > cursor || (at[k] === cursor && !focused)) ?? ks[0]
      : ks.slice().reverse().find(k => at[k] < cursor) ?? ks[ks.length - 1];
    await this.gotoMove(k);
  }

  // Reviews the game line on the page (see the top of this file).
  startReview() {
    if (this.reviewing || this.busy || !this.st) return;
    const line = this.line();
    if (!line.some(m => m !== "pa")) { say("Nothing to review: play or load a game first.", true); return; }
    this.stopStream();
    const params = this.a.review.params();
    const src = stream("/api/" + this.a.name + "/review?" + query(Object.assign(this.body(line), params)));
    const run = { src, start: this.start, line };
    this.reviewing = run;
    say("");
    $("review-status").textContent = "Reviewing…";
    src.addEventListener("progress", ev => {
      if (this.reviewing !== run) return;
      const d = JSON.parse(ev.data);
      $("review-status").textContent = "Reviewing… " + d.done + "/" + d.total;
    });
    src.addEventListener("done", ev => {
      if (this.reviewing !== run) return;
      this.endReview("");
      this.review = { start: run.start, line: run.line, settings: params, report: JSON.parse(ev.data) };
      this.focus = -1;
      if (this.currentReview()) {
        const values = this.reviewValues(this.review);
        this.along(run.line).forEach((n, i) => { if (n) n.s = values[i]; });
      }
      this.save();
      this.render();
      this.startStream();
    });
    // both the server's `error` event (with data) and a failed or lost connection
    src.addEventListener("error", ev => {
      if (this.reviewing !== run) return;
      let why = "the server is busy (or gone); try again.";
      try { if (ev.data) why = JSON.parse(ev.data).error; } catch (e) { /* keep the default */ }
      this.endReview("");
      say("Review failed: " + why, true);
      this.render();
      this.startStream();
    });
    this.render();
  }

  // Closes the review's stream (the server stops the review and frees its search slot).
  endReview(text) {
    if (!this.reviewing) return;
    this.reviewing.src.close();
    this.reviewing = null;
    $("review-status").textContent = text;
  }

  cancelReview() {
    if (!this.reviewing) return;
    this.endReview("Review cancelled.");
    this.render();
    this.startStream();
  }

  // Undo and redo, the same in both games (lichess's takeback, the Edax and Egaroucid GUIs):
  // against ply, undo goes back to the latest earlier position where you were to move, so it
  // takes back ply's reply and your move together (only your move when it ended the game); with
  // "both sides" it takes back one move. A forced pass is never a stop: it goes with the move
  // before it. Redo replays up to the next such stop. Neither asks ply again. Undo is off while
  // ply thinks and when no earlier position is yours (ply opened the game).
  rest(k, next) {
    const h = this.human(), flip = (this.moves.length - k) & 1;
    const side = flip ? (this.st.side === "white" ? "black" : "white") : this.st.side;
    return next !== "pa" && (h === "both" || side === h);
  }

  undoTarget() {
    let k = this.moves.length - 1;
    while (k >= 0 && !this.rest(k, this.moves[k])) k--;
    return k;
  }

  async undo() {
    const k = this.undoTarget();
    if (this.busy || k < 0) return;
    this.browsing = false;
    this.pauseClock();
    await this.go(this.moves.slice(0, k), this.redo.concat(this.moves.slice(k).reverse()));
  }

  async redoMoves() {
    if (this.busy || !this.redo.length) return;
    this.browsing = false;
    this.pauseClock();
    const moves = this.moves.slice(), redo = this.redo.slice();
    do moves.push(redo.pop());
    while (redo.length && !this.rest(moves.length, redo[redo.length - 1]));
    await this.go(moves, redo);
  }

  async go(moves, redo) {
    this.stopStream();
    try { await this.setMoves(moves, redo); say(""); } catch (e) { say(e.message, true); }
    this.update();
  }

  // Plays the user's move, then ply's reply when it is its turn. The next redo move keeps the
  // line; another move goes into its variation (a new one, or the one the tree has).
  async play(move) {
    say("");
    const same = this.redo.length && this.redo[this.redo.length - 1] === move;
    this.browsing = false;
    const c = this.clock;
    if (c) {
      c.paused = false;
      if (!c.moved(this.st.side)) { this.save(); say(this.flagText() + "."); this.render(); return; }
    }
    try { await this.setMoves(this.moves.concat([move]), same ? this.redo.slice(0, -1) : []); } catch (e) { say(e.message, true); return; }
    this.update();
  }

  // Lets ply move while it is its turn, then starts the analysis stream. A newer update (a new
  // game, a loaded one, another side or clock while ply thinks) takes over: the reply this one
  // waits for then belongs to a game that is no longer shown, and it is dropped.
  async update() {
    const turn = ++this.turn;
    this.busy = false;
    this.stopStream();
    this.render();
    while (this.enginesTurn()) {
      this.busy = true;
      this.render();
      try {
        const side = this.st.side, ply = this.moves.length, node = this.here(), c = this.clock;
        const timed = c ? { time: Math.max(0, Math.round(c.remaining(side))), inc: c.inc } : {};
        const r = await this.api("play", Object.assign(this.body(), this.a.levelParams(), timed));
        if (turn !== this.turn) return;
        // the reply came after ply's time ran out: the flag fell first, the move does not count
        if (c && !c.moved(side)) { say(this.flagText() + "."); break; }
        node.s = this.a.played(r, side);
        this.st = r.state;
        this.moves = r.state.moves.slice();
        this.absorb(follow(this.redo, this.moves.slice(ply)), r.state);
        this.save();
      } catch (e) {
        if (turn !== this.turn) return;
        say(e.message, true);
        break;
      } finally {
        if (turn === this.turn) this.busy = false;
      }
    }
    this.render();
    this.a.settled?.();
    this.startStream();
  }

  // Starts over from the server state `s` (a new game, a loaded one, a Chess960 start); a loaded
  // record's variations come as `s.nodes` (a flat tree, see flatten).
  begin(s, message) {
    this.stopStream();
    this.endReview("");
    Object.assign(this, { st: s, start: this.a.startOf(s), moves: s.moves.slice(), redo: [],
      root: this.unflatten(s.nodes), review: null, focus: -1, browsing: false });
    this.absorb([], s);
    this.newClock();
    this.seed = newSeed();
    this.a.reset();
    this.save();
    say(message);
    this.update();
  }

  async newGame() {
    try { this.begin(await this.api("state", { moves: "" }), "New game."); } catch (e) { say(e.message, true); }
  }

  async load() {
    try { this.begin(await this.api("load", { text: $("load-text").value }), "Loaded."); } catch (e) { say(e.message, true); }
  }

  // The stream's messages carry no position: those of a stream no longer current are dropped.
  startStream() {
    const S = this.a.stream, st = this.st;
    if (!S.on() || !st || st.over || this.busy || this.reviewing || this.enginesTurn()) return;
    const src = stream("/api/" + this.a.name + "/" + S.path + "?" + query(Object.assign(this.body(), S.params())));
    this.source = src;
    const show = S.listen(st.side), node = this.here();
    let got = false;
    const on = done => ev => {
      if (this.source !== src) return;
      got = true;
      const v = show(JSON.parse(ev.data), done);
      if (v !== undefined) { node.s = v; this.drawGraph(); }
      if (done) this.stopStream();
    };
    src.addEventListener("info", on(false));
    src.addEventListener("done", on(true));
    src.onerror = () => {
      if (this.source !== src) return;
      this.stopStream();
      if (!got) say(S.what + " unavailable: the server is busy (or gone); try again.", true);
    };
  }

  stopStream() {
    if (this.source) { this.source.close(); this.source = null; }
  }

  restartStream() {
    this.stopStream();
    this.render();
    this.startStream();
  }

  // Restores the stored game (or starts the usual one), wires the shared controls, lets ply move.
  async run() {
    const saved = loadState(this.key);
    if (saved) {
      if (saved.level) $("level").value = saved.level;
      if (saved.color) $("color").value = saved.color;
      if (saved.reviewDepth) $("review-depth").value = saved.reviewDepth;
      if (typeof saved.clockSetting === "string") $("clock").value = saved.clockSetting;
      if (typeof saved.clockCustom === "string" && saved.clockCustom) $("clock-custom-text").value = saved.clockCustom;
      $("clock-custom").hidden = $("clock").value !== "custom";
      this.clock = GameClock.restore(saved.clock);
      if (Number.isInteger(saved.seed) && saved.seed > 0) this.seed = saved.seed;
      this.a.restore?.(saved);
      this.start = saved.start ?? saved.fen ?? saved.position ?? "";   // fen, position: older pages
      this.review = saved.review && Array.isArray(saved.review.line) ? saved.review : null;
      this.browsing = !!saved.browsing;
      const redo = Array.isArray(saved.redo) ? saved.redo : [];
      this.root = this.unflatten(saved.tree, typeof saved.rootScore === "number" ? saved.rootScore : null);
      // older pages kept one line and a score per ply
      if (!Array.isArray(saved.tree) && Array.isArray(saved.scores)) {
        const line = (saved.moves || []).concat(redo.slice().reverse());
        this.root.s = saved.scores[0] ?? null;
        line.forEach((m, i) => { this.grow(line.slice(0, i + 1)).s = saved.scores[i + 1] ?? null; });
      }
      try { await this.setMoves(saved.moves || [], redo); } catch (e) {
        Object.assign(this, { start: "", root: newNode(null, ""), review: null, browsing: false });
        await this.setMoves([], []);
      }
    } else {
      await this.setMoves([], []);
    }
    $("new").onclick = () => this.newGame();
    $("undo").onclick = () => this.undo();
    $("redo").onclick = () => this.redoMoves();
    $("load").onclick = () => this.load();
    $("export").onclick = async () => {
      try { $("export-text").value = await this.a.exportText(this); } catch (e) { say(e.message, true); }
    };
    $("promote").onclick = () => this.promote();
    $("delete").onclick = () => this.remove();
    $("level").addEventListener("change", () => this.save());
    $("color").onchange = () => { this.browsing = false; this.a.colorChanged?.(); this.save(); this.update(); };
    $("review").onclick = () => this.startReview();
    const clockChanged = () => {
      this.newClock();
      if (this.clock) say("Clocks set: " + formatTime(this.clock.base) + " + " + this.clock.inc / 1000 + " s a move, from this position.");
      this.save();
      this.update();
    };
    $("clock").onchange = clockChanged;
    $("clock-custom-text").onchange = clockChanged;
    setInterval(() => this.tickClock(), 100);
    $("review-cancel").onclick = () => this.cancelReview();
    $("review-depth").addEventListener("change", () => this.save());
    for (const side of this.a.review.sides) {
      $("prev-" + side).onclick = () => this.stepMistake(side, -1);
      $("next-" + side).onclick = () => this.stepMistake(side, 1);
    }
    // n / p: the next or previous mistake of either side
    document.addEventListener("keydown", ev => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.key === "n") this.stepMistake(null, 1);
      else if (ev.key === "p") this.stepMistake(null, -1);
    });
    for (const id of this.a.stream.controls) $(id).addEventListener("change", () => this.restartStream());
    this.update();
  }
}
