#!/usr/bin/env python3
"""Othello match between two GTP engines (e.g. `ply-othello gtp` and GRhino's `gtp-rhino`).

Openings are distinct N-move prefixes of WTHOR games whose perfect-play score (24 empties) is close
to a draw, chosen deterministically by --seed; each opening is played with both colours. Each side has
a per-game clock (--time seconds, no increment), sent with `time_left` before every `genmove` and
charged with the measured wall time of the reply; going over it is a time loss. An illegal move (the
other engine refuses it) loses the game. Reports W/D/L for engine A, points, disc differential, Elo with a
95% interval, time used per game by each engine, and every time loss / illegal move / crash.

Example (the issue's strength benchmark):
  tools/othello/gtp_match.py "target/release/ply-othello gtp" "/usr/games/gtp-rhino --level 5 --book 0" \\
      --games 200 --time 60 --untimed-b --wthor ../shared/othello/wthor
GRhino plays to a fixed depth per level and ignores clocks: with --untimed-b its clock is not enforced and
the time it used per game is printed, so A's --time can be set to it (equal time).
"""
import argparse
import glob
import math
import os
import random
import shlex
import subprocess
import sys
import time


class Gtp:
    """A GTP engine subprocess."""

    def __init__(self, cmd):
        self.cmd = cmd
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        """Sends one command; returns (ok, text). Raises RuntimeError if the engine died."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            out = self.p.stdout.readline()
            if out == "":
                raise RuntimeError(f"engine {self.cmd!r} died on {line!r}")
            out = out.rstrip("\r\n")
            if out == "" and lines:
                break
            if out == "" and not lines:
                continue
            lines.append(out)
        head = lines[0]
        ok = head.startswith("=")
        text = "\n".join([head[1:].strip()] + lines[1:]).strip()
        return ok, text

    def close(self):
        try:
            self.send("quit")
        except Exception:
            pass
        self.p.kill()


def load_openings(wthor_dir, plies, max_delta, seed, count):
    """Distinct `plies`-move prefixes of WTHOR games with |2*theoretical - 64| <= max_delta."""
    seen = set()
    files = sorted(glob.glob(os.path.join(wthor_dir, "WTH_*.wtb")))
    for path in files:
        data = open(path, "rb").read()
        for off in range(16, len(data) - 67, 68):
            g = data[off:off + 68]
            theo = g[7]
            if abs(2 * theo - 64) > max_delta:
                continue
            moves = []
            for b in g[8:8 + plies]:
                r, c = divmod(b, 10)
                if not (1 <= r <= 8 and 1 <= c <= 8):
                    break
                moves.append("abcdefgh"[c - 1] + str(r))
            if len(moves) == plies:
                seen.add(tuple(moves))
    ops = sorted(seen)
    random.Random(seed).shuffle(ops)
    return ops[:count]


def play_game(engines, opening, secs, untimed=None):
    """engines[0] is Black; `untimed` is an engine whose clock is not enforced (one that plays to a
    fixed depth, like GRhino). Returns (disc diff for Black, reason, time used per colour)."""
    colours = ["black", "white"]
    for e in engines:
        for cmd in ("boardsize 8", "clear_board", f"time_settings {secs} 0 0"):
            e.send(cmd)
    side = 0
    for mv in opening:
        for e in engines:
            ok, text = e.send(f"play {colours[side]} {mv}")
            if not ok:
                raise RuntimeError(f"opening move {mv} refused: {text}")
        side ^= 1
    clocks = [float(secs), float(secs)]
    used = [0.0, 0.0]
    passes = 0
    while passes < 2:
        me, other = engines[side], engines[1 - side]
        me.send(f"time_left {colours[side]} {max(clocks[side], 0.0):.3f} 0")
        t0 = time.monotonic()
        ok, mv = me.send(f"genmove {colours[side]}")
        dt = time.monotonic() - t0
        clocks[side] -= dt
        used[side] += dt
        if not ok:
            return (-64 if side == 0 else 64), f"genmove error by {colours[side]}: {mv}", used
        if clocks[side] < 0 and me is not untimed:
            return (-64 if side == 0 else 64), f"time loss by {colours[side]}", used
        mv = mv.lower()
        passes = passes + 1 if mv == "pass" else 0
        ok, text = other.send(f"play {colours[side]} {mv}")
        if not ok and mv == "pass":
            break  # the other engine already knows the game is over
        if not ok:
            return (-64 if side == 0 else 64), f"illegal move {mv} by {colours[side]}: {text}", used
        side ^= 1
    scores = [e.send("final_score")[1] for e in engines]

    def parse(s):
        s = s.strip().upper()
        if s in ("0", "DRAW"):
            return 0
        sign = 1 if s.startswith("B") else -1
        return sign * int(s.split("+")[1])

    diffs = [parse(s) for s in scores]
    if diffs[0] != diffs[1]:
        print(f"  warning: engines disagree on the score: {scores}", file=sys.stderr)
    return diffs[0], "normal", used


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine_a")
    ap.add_argument("engine_b")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--time", type=float, default=60.0, help="seconds per side per game")
    ap.add_argument("--plies", type=int, default=10, help="opening length")
    ap.add_argument("--max-delta", type=int, default=4, help="max |perfect-play disc diff| of openings")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--untimed-b", action="store_true",
                    help="do not enforce B's clock (B plays to a fixed depth); its time used is reported")
    ap.add_argument("--wthor", default=os.path.join(os.path.dirname(__file__), "../../../shared/othello/wthor"))
    args = ap.parse_args()

    openings = load_openings(args.wthor, args.plies, args.max_delta, args.seed, (args.games + 1) // 2)
    a, b = Gtp(args.engine_a), Gtp(args.engine_b)
    w = d = l = 0
    disc_sum = 0
    used_a = used_b = 0.0
    problems = []
    games = 0
    try:
        for i in range(args.games):
            opening = openings[(i // 2) % len(openings)]
            a_black = i % 2 == 0
            engines = [a, b] if a_black else [b, a]
            try:
                diff, reason, used = play_game(engines, opening, args.time, b if args.untimed_b else None)
            except RuntimeError as e:
                problems.append(f"game {i + 1}: crash: {e}")
                print(problems[-1])
                break
            a_diff = diff if a_black else -diff
            ua, ub = (used[0], used[1]) if a_black else (used[1], used[0])
            used_a += ua
            used_b += ub
            games += 1
            disc_sum += a_diff
            if a_diff > 0:
                w += 1
            elif a_diff < 0:
                l += 1
            else:
                d += 1
            if reason != "normal":
                problems.append(f"game {i + 1}: {reason}")
            print(f"game {games}: {' '.join(opening)} A {'black' if a_black else 'white'} "
                  f"{a_diff:+d} ({reason}; A {ua:.1f}s B {ub:.1f}s)  total +{w} ={d} -{l}", flush=True)
    finally:
        a.close()
        b.close()
    if games == 0:
        print("no game played")
        return 1
    score = (w + 0.5 * d) / games
    # standard error of the mean game score, then a 95% interval mapped to Elo
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * (0 - score) ** 2) / games
    se = math.sqrt(var / games)
    lo, hi = elo(score - 1.96 * se), elo(score + 1.96 * se)
    print(f"A = {args.engine_a}\nB = {args.engine_b}")
    print(f"games {games}: +{w} ={d} -{l}, A scores {100 * score:.1f}%, mean disc diff {disc_sum / games:+.2f}")
    print(f"Elo A-B {elo(score):+.0f} (95% {lo:+.0f} .. {hi:+.0f})")
    print(f"time per game: A {used_a / games:.2f}s, B {used_b / games:.2f}s")
    print(f"problems: {len(problems)}")
    for p in problems:
        print("  " + p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
