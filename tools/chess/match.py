#!/usr/bin/env python3
"""Engine match runner (python-chess): plays ENGINE against OPPONENT from book openings with both
colours, at base+increment, and reports W/D/L, Elo with a 95% interval, and every time loss,
illegal move or crash. Needs `pip install chess`.

Example (the issue's strength benchmark):
  tools/chess/match.py target/release/ply-chess /usr/games/toga2 --games 200 --tc 10+0.1 \
      --book ../shared/chess/books/8mvs_+90_+99.epd --hash 16 --concurrency 1
Opponent options (e.g. `--opt OwnBook=false`) are passed with --opt NAME=VALUE (repeatable),
options of ENGINE with --engine-opt NAME=VALUE.

Self-play A/B tests on a loaded machine can use `--nodes N` instead of a clock: every move is
searched to N nodes, so the result does not depend on how much CPU the box has to spare.
`--pgn FILE` appends every game.
"""
import argparse
import math
import random
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def play_game(engines, names, board, tc, nodes=None, move_overhead_slack=0.0):
    """Plays one game from `board` (moves are pushed onto it); engines[0] is White.
    Returns (result for White: 1, 0.5, 0), reason."""
    base, inc = tc
    clocks = [base, base]
    for e in engines:
        e.protocol.send_line("ucinewgame")
    while not board.is_game_over(claim_draw=True):
        side = 0 if board.turn == chess.WHITE else 1
        if nodes:
            limit = chess.engine.Limit(nodes=nodes)
        else:
            limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1],
                                       white_inc=inc, black_inc=inc)
        start = time.monotonic()
        try:
            result = engines[side].play(board, limit)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as err:
            return (0.0 if side == 0 else 1.0), f"{names[side]} crashed or illegal: {err}"
        used = time.monotonic() - start
        clocks[side] -= used
        if not nodes and clocks[side] < -move_overhead_slack:
            return (0.0 if side == 0 else 1.0), f"{names[side]} lost on time"
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return (0.0 if side == 0 else 1.0), f"{names[side]} illegal move {result.move}"
        board.push(result.move)
        if board.ply() > 600:
            return 0.5, "adjudicated draw (length)"
    outcome = board.outcome(claim_draw=True)
    if outcome.winner is None:
        return 0.5, outcome.termination.name
    return (1.0 if outcome.winner == chess.WHITE else 0.0), outcome.termination.name


def elo(score, n, var):
    def to_elo(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)
    margin = 1.96 * math.sqrt(var / n) if n else 0
    return to_elo(score), to_elo(score - margin), to_elo(score + margin)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("opponent")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--book", default="../shared/chess/books/8mvs_+90_+99.epd")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opt", action="append", default=[], help="opponent option NAME=VALUE")
    ap.add_argument("--engine-opt", action="append", default=[], help="engine option NAME=VALUE")
    ap.add_argument("--nodes", type=int, default=None, help="fixed nodes per move (no clock)")
    ap.add_argument("--pgn", default=None, help="append the games to this PGN file")
    args = ap.parse_args()

    openings = [l.split(";")[0].strip() for l in open(args.book) if l.strip()]
    openings = [" ".join(o.split()[:4]) + " 0 1" for o in openings]
    random.Random(args.seed).shuffle(openings)
    tc = parse_tc(args.tc)
    results = []  # score of ENGINE per game
    problems = []
    lock = threading.Lock()
    next_game = [0]

    def open_engine(path, opts):
        e = chess.engine.SimpleEngine.popen_uci(path)
        config = {"Hash": args.hash, "Threads": 1}
        config.update(opts)
        e.configure({k: v for k, v in config.items() if k in e.options})
        return e

    opp_opts = dict(o.split("=", 1) for o in args.opt)
    eng_opts = dict(o.split("=", 1) for o in args.engine_opt)
    failures = []

    def worker():
        ours = theirs = None
        try:
            ours = open_engine(args.engine, eng_opts)
            theirs = open_engine(args.opponent, opp_opts)
            play_games(ours, theirs)
        except Exception as err:  # report and stop this worker; the others finish their games
            with lock:
                failures.append(repr(err))
                next_game[0] = args.games
        finally:
            for e in (ours, theirs):
                if e is not None:
                    try:
                        e.quit()
                    except Exception:
                        e.close()

    def play_games(ours, theirs):
        """Plays games until the shared counter reaches --games."""
        while True:
            with lock:
                g = next_game[0]
                if g >= args.games:
                    return
                next_game[0] += 1
            fen = openings[(g // 2) % len(openings)]
            board = chess.Board(fen)
            if g % 2 == 0:
                s, why = play_game([ours, theirs], ["engine", "opponent"], board, tc, args.nodes)
                score = s
            else:
                s, why = play_game([theirs, ours], ["opponent", "engine"], board, tc, args.nodes)
                score = 1 - s
            with lock:
                if args.pgn:
                    game = chess.pgn.Game.from_board(board)
                    white, black = ("engine", "opponent") if g % 2 == 0 else ("opponent", "engine")
                    game.headers["White"] = args.engine if white == "engine" else args.opponent
                    game.headers["Black"] = args.engine if black == "engine" else args.opponent
                    game.headers["Round"] = str(g + 1)
                    game.headers["Result"] = {1.0: "1-0", 0.0: "0-1"}.get(s, "1/2-1/2")
                    game.headers["Termination"] = why
                    with open(args.pgn, "a") as out:
                        print(game, file=out, end="\n\n")
                results.append(score)
                if "time" in why or "illegal" in why or "crash" in why:
                    problems.append(f"game {g}: {why}")
                w = results.count(1.0)
                d = results.count(0.5)
                l = results.count(0.0)
                print(f"game {g + 1}: {score} ({why})  total +{w} ={d} -{l}", flush=True)

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    n = len(results)
    w, d, l = results.count(1.0), results.count(0.5), results.count(0.0)
    mean = sum(results) / n if n else 0
    var = sum((r - mean) ** 2 for r in results) / n if n else 0
    e, lo, hi = elo(mean, n, var)
    print(f"{n} games: W {w} D {d} L {l}, score {mean:.3f}, Elo {e:+.0f} (95% {lo:+.0f} .. {hi:+.0f})")
    print(f"problems (time losses, illegal moves, crashes): {len(problems)}")
    for p in problems:
        print("  " + p)
    for f in failures:
        print("runner failure: " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
