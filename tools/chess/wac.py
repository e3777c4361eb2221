#!/usr/bin/env python3
"""Tactics check: how many Win At Chess positions the engine solves at a fixed time per position.

Usage: tools/chess/wac.py ENGINE [SECONDS] [EPD]   (needs `pip install chess`)
A position counts as solved when the engine's best move is one of the `bm` moves.
"""
import sys

import chess
import chess.engine


def main():
    engine_path = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    epd_path = sys.argv[3] if len(sys.argv) > 3 else "../shared/chess/suites/wac.epd"
    solved, total, failed = 0, 0, []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Hash": 64})
        for line in open(epd_path):
            line = line.strip()
            if not line:
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as e:
                print(f"skipping unreadable EPD line ({e}): {line[:60]}", file=sys.stderr)
                continue
            best = ops.get("bm", [])
            result = engine.play(board, chess.engine.Limit(time=seconds))
            total += 1
            if result.move in best:
                solved += 1
            else:
                failed.append(ops.get("id", str(total)))
    print(f"solved {solved}/{total} at {seconds}s per position")
    print("failed:", " ".join(failed))


if __name__ == "__main__":
    main()
