#!/usr/bin/env python3
"""Strategic Test Suite score: the points an engine earns on STS 1-15 at a fixed time a position.

Usage: tools/chess/sts.py EPD ENGINE [ENGINE ...] [--time SECONDS] [--hash MB] [--option NAME=VALUE ...]
(needs `pip install chess`). EPD is the suite with its scoring fields, e.g. the public
`STS1-STS15_LAN_v3.epd` (not shipped here): `c9` lists moves in UCI notation and `c8` their
points (10 for the best move), or else `c0` gives `SAN=points` pairs. Each engine plays every
position from a fresh search (`ucinewgame` first, the given hash); the output is the total, the
per-theme totals and the number of best moves found, one engine after another. `--option` sets a
UCI option on each engine that has it (e.g. both `MoveOverhead=10` and `Move Overhead=10`, so
that an engine whose default overhead is larger does not think for less of the fixed time).
"""
import argparse
import sys

import chess
import chess.engine


def scoring(board, ops):
    """The points of each move (chess.Move -> int) from the EPD operations."""
    points = {}
    if "c9" in ops and "c8" in ops:
        moves, values = str(ops["c9"]).split(), str(ops["c8"]).split()
        for m, v in zip(moves, values):
            points[chess.Move.from_uci(m)] = int(v)
    elif "c0" in ops:
        for part in str(ops["c0"]).split(","):
            san, _, v = part.strip().partition("=")
            points[board.parse_san(san)] = int(v)
    return points


def theme(ops):
    """The theme of a position: its id without the trailing number."""
    ident = str(ops.get("id", "?"))
    return ident.rsplit(".", 1)[0]


def run(engine_path, suite, seconds, hash_mb, options):
    total, best, themes = 0, 0, {}
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        wanted = {"Hash": hash_mb, **options}
        engine.configure({k: v for k, v in wanted.items() if k in engine.options})
        for board, ops, points in suite:
            result = engine.play(board, chess.engine.Limit(time=seconds), game=object())
            got = points.get(result.move, 0)
            total += got
            best += got == 10
            themes[theme(ops)] = themes.get(theme(ops), 0) + got
    return total, best, themes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("epd")
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--time", type=float, default=0.1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    options = {}
    for o in args.option:
        name, sep, value = o.partition("=")
        if not sep:
            ap.error(f"--option {o!r}: expected NAME=VALUE")
        options[name] = value
    suite = []
    for n, line in enumerate(open(args.epd), 1):
        if not line.strip():
            continue
        try:
            board, ops = chess.Board.from_epd(line)
            suite.append((board, ops, scoring(board, ops)))
        except ValueError as e:
            print(f"line {n}: skipped ({e})", file=sys.stderr)
    for path in args.engines:
        total, best, themes = run(path, suite, args.time, args.hash, options)
        print(f"{path}: {total} / {10 * len(suite)} points, best move {best} / {len(suite)}")
        print("  " + ", ".join(f"{t} {v}" for t, v in themes.items()))


if __name__ == "__main__":
    main()
