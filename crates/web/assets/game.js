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
//   optional: saved() / restore(saved) (more to store), colorChanged(), settled() (after ply moved)

import { $, api, say, drawGraph, saveState, loadState, query } from "./common.js";

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
  }

  human() { return $("color").value; }
  enginesTurn() { return !!this.st && !this.st.over && this.human() !== "both" && this.st.side !== this.human(); }
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
      level: $("level").value, color: this.human(),
    }, this.a.saved?.()));
  }

  // Asks the server for the state of `moves`; on success it becomes the game, with `redo` to
  // replay (a new line drops the scores of the old one).
  async setMoves(moves, redo = this.redo) {
    const s = await this.api("state", this.body(moves));
    this.st = s;
    this.moves = s.moves.slice();
    this.start = this.a.startOf(s);
    this.redo = redo;
    if (!redo.length) this.scores.length = Math.min(this.scores.length, this.moves.length + 1);
    this.save();
    this.render();
  }

  render() {
    const st = this.st;
    this.a.draw(st);
    $("status").textContent = this.busy ? "ply is thinking…" : this.a.status(st);
    $("moves").textContent = this.a.moveText(st);
    $("undo").disabled = this.busy || this.undoTarget() < 0;
    $("redo").disabled = this.busy || this.redo.length === 0;
    this.drawGraph();
  }

  drawGraph() {
    const n = this.moves.length + 1;
    drawGraph($("graph"), this.scores.slice(0, n), this.a.graph.range, Math.max(this.a.graph.plies, n));
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
    await this.go(this.moves.slice(0, k), this.redo.concat(this.moves.slice(k).reverse()));
  }

  async redoMoves() {
    if (this.busy || !this.redo.length) return;
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

  // Plays the user's move (a new line: the redo moves go), then ply's reply when it is its turn.
  async play(move) {
    say("");
    try { await this.setMoves(this.moves.concat([move]), []); } catch (e) { say(e.message, true); return; }
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
    Object.assign(this, { st: s, start: this.a.startOf(s), moves: s.moves.slice(), redo: [], scores: [] });
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
    if (!S.on() || !st || st.over || this.busy || this.enginesTurn()) return;
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
      this.a.restore?.(saved);
      this.start = saved.start ?? saved.fen ?? saved.position ?? "";   // fen, position: older pages
      this.scores = Array.isArray(saved.scores) ? saved.scores : [];
      const redo = Array.isArray(saved.redo) ? saved.redo : [];
      try { await this.setMoves(saved.moves || [], redo); } catch (e) {
        Object.assign(this, { start: "", scores: [] });
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
    $("color").onchange = () => { this.a.colorChanged?.(); this.save(); this.update(); };
    for (const id of this.a.stream.controls) $(id).addEventListener("change", () => this.restartStream());
    this.update();
  }
}
