// The game controller of the chess and Othello pages: the game (start position, moves, redo
// moves, a score per ply) kept in localStorage, ply's replies, undo/redo, load/export and the
// analysis stream. The server checks every move. Each page hands it an adapter with what is
// particular to its game:
//   name                 "chess" or "othello": the API is /api/<name>/, the storage key ply-<name>
//   startKey, startOf(s) the request field of the start position, and the start of a state `s`
//   graph                { range, plies }: the score graph's bound and its least width in plies
//   draw(st), status(st), moveText(st), exportText(st)   the board, status line, moves, record
//   levelParams()        the strength fields of a play request
//   played(r, side)      shows ply's reply `r`; returns its score as the graph counts it
//   stream               { path, what, controls, on(), params(), listen(side) }: the analysis
//                        stream; listen gives one stream's (data, done) -> graph score or undefined
//   reset()              clears what a new game makes stale
//   review               { sides, params(), settings(r), startValue(m), value(m), label(m, first),
//                        describe(m), sideSummary(r, side), showBest(m) }: the game review (below)
//   optional: saved() / restore(saved) (more to store), colorChanged(), settled() (after ply moved)
//
// Game review: the Review button sends the whole game line the page holds (the moves played to
// the current position and the redo moves after it) to /api/<name>/review and shows its
// progress; its report then draws the graph (with a dot per marked move), a move list of
// clickable moves with ?!, ?, ?? marks, a summary per side, and, for the move clicked or found by
// the mistake buttons, the position before it with the better move. The report is stored with
// the game and kept while the start and the line stay the same.

import { $, api, say, drawGraph, saveState, loadState, query } from "./common.js";

// The marks of the judgements that are marked, and which count as mistakes for the buttons.
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const PLURAL = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
const sameLine = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);

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
    this.moves = [];      // the moves played, as the server writes them (Othello passes: "pa")
    this.redo = [];       // the moves undone, the next one last
    this.scores = [];     // per ply, from the graph's side; null where unknown
    this.st = null;       // the server's state of the game
    this.busy = false;    // ply is thinking
    this.source = null;   // the analysis stream
    this.review = null;   // the review of a game line: { start, line, settings, report }
    this.reviewing = null; // the review running: { src, start, line }
    this.focus = -1;      // the reviewed move whose better move is shown (index in the report)
    this.browsing = false; // walking through a reviewed game: ply does not move by itself
  }

  human() { return $("color").value; }
  enginesTurn() {
    return !!this.st && !this.st.over && !this.browsing && this.human() !== "both" && this.st.side !== this.human();
  }
  // The game line the page holds: the moves played and the redo moves after them.
  line() { return this.moves.concat(this.redo.slice().reverse()); }
  // The request fields of the game with `moves` played.
  body(moves = this.moves) { return { [this.a.startKey]: this.start, moves: moves.join(" ") }; }
  api(what, body) { return api("/api/" + this.a.name + "/" + what, body); }

  // Whether the user may move now; when not, says why (silent while ply thinks).
  ready() {
    if (!this.st || this.busy) return false;
    if (this.st.over) { say("The game is over.", true); return false; }
    if (this.enginesTurn()) { say("Wait: it is ply's turn.", true); return false; }
    return true;
  }

  save() {
    saveState(this.key, Object.assign({
      start: this.start, moves: this.moves, redo: this.redo, scores: this.scores,
      level: $("level").value, color: this.human(), review: this.review, browsing: this.browsing,
      reviewDepth: $("review-depth").value,
    }, this.a.saved?.()));
  }

  // Asks the server for the state of `moves`; on success it becomes the game, with `redo` to
  // replay (a new line drops the scores of the old one).
  async setMoves(moves, redo = this.redo) {
    const s = await this.api("state", this.body(moves));
    this.st = s;
    this.moves = s.moves.slice();
    this.start = this.a.startOf(s);
    // the server plays a forced pass itself: it is the next redo move when the line has it
    this.redo = follow(redo, s.moves.slice(moves.length));
    if (!redo.length) this.scores.length = Math.min(this.scores.length, this.moves.length + 1);
    this.save();
    this.render();
  }

  render() {
    const st = this.st;
    if (this.reviewing && (this.reviewing.start !== this.start || !sameLine(this.reviewing.line, this.line()))) {
      this.endReview("Review cancelled: the game changed.");
    }
    const rv = this.currentReview();
    this.a.draw(st);
    $("status").textContent = this.busy ? "ply is thinking…" : this.a.status(st);
    if (rv) this.renderMoves(rv);
    else $("moves").textContent = this.a.moveText(st);
    $("undo").disabled = this.busy || this.undoTarget() < 0;
    $("redo").disabled = this.busy || this.redo.length === 0;
    this.renderReview(rv);
    this.drawGraph();
  }

  drawGraph() {
    const rv = this.currentReview();
    if (rv) {
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
    const n = this.moves.length + 1;
    drawGraph($("graph"), this.scores.slice(0, n), this.a.graph.range, Math.max(this.a.graph.plies, n));
  }

  // The index in `line` of each move a review judges (passes, "pa", are not judged).
  entries(line) {
    const at = [];
    line.forEach((m, i) => { if (m !== "pa") at.push(i); });
    return at;
  }

  // The stored review when it belongs to the game line on the page; a review of another line is
  // dropped (a different move was played, or another game started).
  currentReview() {
    const rv = this.review;
    if (!rv) return null;
    const line = this.line();
    const same = rv.start === this.start && sameLine(rv.line, line) && rv.report && Array.isArray(rv.report.moves) && rv.report.moves.length === this.entries(line).length;
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

  // The moves of the reviewed line as clickable spans with their marks; the moves after the
  // current position (the redo moves) are dimmed.
  renderMoves(rv) {
    const box = $("moves"), R = this.a.review, at = this.entries(rv.line), cursor = this.moves.length;
    while (box.firstChild) box.removeChild(box.firstChild);
    let k = 0;
    rv.line.forEach((mv, i) => {
      const span = document.createElement("span");
      span.dataset.ply = i + 1;
      if (mv === "pa") {
        span.className = "mv pass";
        span.textContent = "pa";
      } else {
        const m = rv.report.moves[k], index = k++;
        span.className = "mv " + m.judgement;
        span.textContent = R.label(m, at[0] === i) + (MARKS[m.judgement] || "");
        span.title = m.judgement;
        span.addEventListener("click", () => this.gotoMove(index));
      }
      if (i === cursor - 1) span.classList.add("current");
      if (i >= cursor) span.classList.add("future");
      box.appendChild(span);
      box.appendChild(document.createTextNode(" "));
    });
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
    if (this.focus >= 0 && at[this.focus] === this.moves.length) {
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
    const at = this.entries(rv.line), cursor = this.moves.length;
    const focused = this.focus >= 0 && at[this.focus] === cursor;
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
    const src = new EventSource("/api/" + this.a.name + "/review?" + query(Object.assign(this.body(line), params)));
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
      const values = this.currentReview() ? this.reviewValues(this.review) : [];
      values.forEach((v, i) => { this.scores[i] = v; });
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
    await this.go(this.moves.slice(0, k), this.redo.concat(this.moves.slice(k).reverse()));
  }

  async redoMoves() {
    if (this.busy || !this.redo.length) return;
    this.browsing = false;
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
  // line (and its review); another move starts a new line: the redo moves go.
  async play(move) {
    say("");
    const same = this.redo.length && this.redo[this.redo.length - 1] === move;
    this.browsing = false;
    try { await this.setMoves(this.moves.concat([move]), same ? this.redo.slice(0, -1) : []); } catch (e) { say(e.message, true); return; }
    this.update();
  }

  // Lets ply move while it is its turn, then starts the analysis stream.
  async update() {
    this.stopStream();
    this.render();
    while (this.enginesTurn()) {
      this.busy = true;
      this.render();
      try {
        const side = this.st.side, ply = this.moves.length;
        const r = await this.api("play", Object.assign(this.body(), this.a.levelParams()));
        this.scores[ply] = this.a.played(r, side);
        this.st = r.state;
        this.moves = r.state.moves.slice();
        this.redo = follow(this.redo, this.moves.slice(ply));
        this.save();
      } catch (e) {
        say(e.message, true);
        break;
      } finally {
        this.busy = false;
      }
    }
    this.render();
    this.a.settled?.();
    this.startStream();
  }

  // Starts over from the server state `s` (a new game, a loaded one, a Chess960 start).
  begin(s, message) {
    this.stopStream();
    this.endReview("");
    Object.assign(this, { st: s, start: this.a.startOf(s), moves: s.moves.slice(), redo: [], scores: [],
      review: null, focus: -1, browsing: false });
    this.a.reset();
    this.save();
    say(message);
    this.update();
  }

  async newGame() {
    try { this.begin(await this.api("state", { moves: "" }), ""); } catch (e) { say(e.message, true); }
  }

  async load() {
    try { this.begin(await this.api("load", { text: $("load-text").value }), "Loaded."); } catch (e) { say(e.message, true); }
  }

  // The stream's messages carry no position: those of a stream no longer current are dropped.
  startStream() {
    const S = this.a.stream, st = this.st;
    if (!S.on() || !st || st.over || this.busy || this.reviewing || this.enginesTurn()) return;
    const src = new EventSource("/api/" + this.a.name + "/" + S.path + "?" + query(Object.assign(this.body(), S.params())));
    this.source = src;
    const show = S.listen(st.side), ply = this.moves.length;
    let got = false;
    const on = done => ev => {
      if (this.source !== src) return;
      got = true;
      const v = show(JSON.parse(ev.data), done);
      if (v !== undefined) { this.scores[ply] = v; this.drawGraph(); }
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
      this.a.restore?.(saved);
      this.start = saved.start ?? saved.fen ?? saved.position ?? "";   // fen, position: older pages
      this.review = saved.review && Array.isArray(saved.review.line) ? saved.review : null;
      this.browsing = !!saved.browsing;
      this.scores = Array.isArray(saved.scores) ? saved.scores : [];
      const redo = Array.isArray(saved.redo) ? saved.redo : [];
      try { await this.setMoves(saved.moves || [], redo); } catch (e) {
        Object.assign(this, { start: "", scores: [], review: null, browsing: false });
        await this.setMoves([], []);
      }
    } else {
      await this.setMoves([], []);
    }
    $("new").onclick = () => this.newGame();
    $("undo").onclick = () => this.undo();
    $("redo").onclick = () => this.redoMoves();
    $("load").onclick = () => this.load();
    $("export").onclick = () => { $("export-text").value = this.a.exportText(this.st); };
    $("level").addEventListener("change", () => this.save());
    $("color").onchange = () => { this.browsing = false; this.a.colorChanged?.(); this.save(); this.update(); };
    $("review").onclick = () => this.startReview();
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
