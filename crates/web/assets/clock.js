// The clocks of a timed game (both pages): each side's time left, the running clock, the
// increment and the flag. Times are milliseconds; the clock of the side to move runs from
// `since`. game.js decides when a clock runs (the side to move, at the end of the line, while
// nobody browses, reviews or sets up a position) and asks the server's engine to keep to its
// own clock.

// The time controls offered: base minutes + increment seconds.
export const PRESETS = ["1+0", "3+2", "5+3", "10+5", "15+10", "30+20"];

// A time control from its text ("5+3": 5 minutes, 3 s a move); null when it is not one.
export function parseControl(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$/.exec(text || "");
  if (!m) return null;
  const base = Math.round(parseFloat(m[1]) * 60000), inc = Math.round(parseFloat(m[2]) * 1000);
  return base > 0 ? { base, inc } : null;
}

// A time as a clock shows it: 1:02:03, 4:05, or 9.8 under ten seconds.
export function formatTime(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
}

export class GameClock {
  constructor(base, inc, now = Date.now) {
    this.base = base;
    this.inc = inc;
    this.left = { white: base, black: base };
    this.turn = null;   // the side whose clock runs
    this.since = 0;     // when it started running
    this.flag = null;   // the side whose time ran out
    this.paused = false; // stopped by an undo or a reload until the next move is played
    this.now = now;
  }

  // A clock from what snapshot() wrote (stopped and paused), or null.
  static restore(saved) {
    if (!saved || !(saved.base > 0) || !saved.left) return null;
    const c = new GameClock(saved.base, saved.inc || 0);
    for (const side of ["white", "black"]) {
      const v = saved.left[side];
      c.left[side] = typeof v === "number" && v >= 0 ? v : saved.base;
    }
    c.flag = saved.flag === "white" || saved.flag === "black" ? saved.flag : null;
    c.paused = true;
    return c;
  }

  snapshot() {
    const left = { white: this.remaining("white"), black: this.remaining("black") };
    return { base: this.base, inc: this.inc, left, flag: this.flag };
  }

  // The time `side` has left now.
  remaining(side) {
    return this.left[side] - (this.turn === side ? this.now() - this.since : 0);
  }

  // Runs the clock of `side` (stopping the other).
  start(side) {
    if (this.turn === side) return;
    this.stop();
    this.turn = side;
    this.since = this.now();
  }

  // Stops the running clock, its time counted.
  stop() {
    if (!this.turn) return;
    this.left[this.turn] -= this.now() - this.since;
    this.turn = null;
  }

  // `side` has moved: its clock stops and, when it was running, gains the increment. False when
  // its time had run out first (the flag fell).
  moved(side) {
    const running = this.turn === side;
    this.stop();
    if (this.left[side] <= 0) {
      this.left[side] = 0;
      this.flag = side;
      return false;
    }
    if (running) this.left[side] += this.inc;
    return true;
  }

  // Whether the running clock has run out (its flag falls).
  check() {
    if (this.turn && this.remaining(this.turn) <= 0) {
      const side = this.turn;
      this.stop();
      this.left[side] = 0;
      this.flag = side;
    }
    return this.flag;
  }
}
