// The board editor of the chess and Othello pages: set up any position by clicks and start a
// game from it. The server checks the position (POST /api/<name>/state with no moves); a good
// one starts a new game through Game.begin, a bad one leaves the game as it was and says why.
//
// Opening the page's <details id="setup"> starts editing with the game's current position;
// closing it (or Cancel) goes back to the game. While editing the page draws the editor's board
// in its own SVG instead of the game's, and a click on a square goes to the editor: the page's
// draw and click paths check `editor.editing` (a game drawn while editing draws the editor's
// board instead, so Flip and the like still work). A new game started some other way (New game,
// Load, Chess960) ends the editing: the page's reset() calls close(false).
//
// The controls, the same ids on both pages: #setup-palette (buttons with data-item, the item a
// click puts on a square; the empty square is the eraser), #setup-side (white / black),
// #setup-clear, #setup-start, #setup-current, #setup-play, #setup-cancel. Each page hands the
// editor an adapter with what is particular to its game:
//   name, key            the API is /api/<name>/state, the position goes in the field `key`
//   empty                the character of an empty square in `board`
//   start                { board, side }: the usual start position
//   read(st)             { board, side } of the game state `st` (board: 64 characters, a1..h8)
//   drawBoard(board)     draws the board (64 characters) on the page's SVG
//   text(ed)             the position text of the editor `ed` (ed.board, ed.side), as sent
//   optional: loaded(ed, st) (a position was taken from the state `st`, or the start when st is
//   null), cleared(ed) (the board was emptied), changed(ed) (the board or the side changed: the
//   page's own controls follow), explain(message, ed) (the server's error in clearer words)

import { $, api, say } from "./common.js";

export class Editor {
  constructor(game, adapter) {
    this.game = game;
    this.a = adapter;
    this.editing = false;
    this.board = [];        // 64 characters, a1..h8
    this.side = "white";
    this.item = null;       // what a click puts on a square

    const palette = [...document.querySelectorAll("#setup-palette button[data-item]")];
    this.palette = palette;
    palette.forEach(b => { b.onclick = () => this.choose(b.dataset.item); });
    this.choose(palette.length ? palette[0].dataset.item : adapter.empty);
    $("setup-side").onchange = () => { this.side = $("setup-side").value; this.changed(); };
    $("setup-clear").onclick = () => this.clear();
    $("setup-start").onclick = () => this.load(null);
    $("setup-current").onclick = () => this.load(this.game.st);
    $("setup-play").onclick = () => this.play();
    $("setup-cancel").onclick = () => { this.close(true); say(""); };
    $("setup").addEventListener("toggle", () => {
      if ($("setup").open && !this.editing) this.open();
      else if (!$("setup").open && this.editing) this.close(true);
    });
  }

  // Starts editing from the game's current position.
  open() {
    this.editing = true;
    $("setup").open = true;
    $("board").classList.add("editing");
    this.game.stopStream();
    this.load(this.game.st);
    say("Setting up a position: pick a piece, then click squares.");
  }

  // Ends editing and draws the game again (`redraw`; not when a new game is about to start).
  close(redraw) {
    if (!this.editing) return;
    this.editing = false;
    $("setup").open = false;
    $("board").classList.remove("editing");
    if (redraw) this.game.restartStream();
  }

  choose(item) {
    this.item = item;
    for (const b of this.palette) {
      const on = b.dataset.item === item;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", String(on));
    }
  }

  // A click on square `i` (0 = a1 .. 63 = h8): puts the chosen item there, or empties the
  // square when it holds that item already.
  click(i) {
    if (!this.editing) return;
    this.board[i] = this.board[i] === this.item ? this.a.empty : this.item;
    this.changed();
  }

  // Takes the position of the state `st` (the usual start when null).
  load(st) {
    const p = st ? this.a.read(st) : this.a.start;
    this.board = p.board.split("");
    this.side = p.side;
    this.a.loaded?.(this, st);
    this.changed();
  }

  clear() {
    this.board = new Array(64).fill(this.a.empty);
    this.a.cleared?.(this);
    this.changed();
  }

  changed() {
    $("setup-side").value = this.side;
    this.a.changed?.(this);
    this.draw();
  }

  draw() {
    if (this.editing) this.a.drawBoard(this.board.join(""));
  }

  // Asks the server to check the position; a good one starts a new game from it.
  async play() {
    if (!this.editing) return;
    let s;
    try {
      s = await api("/api/" + this.a.name + "/state", { [this.a.key]: this.a.text(this), moves: "" });
    } catch (e) {
      say(this.a.explain ? this.a.explain(e.message, this) : e.message, true);
      return;
    }
    if (!this.editing) return;   // cancelled while the server answered
    this.close(false);
    this.game.begin(s, "Position set up.");
  }
}
