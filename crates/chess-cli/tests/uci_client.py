#!/usr/bin/env python3
"""Drives the ply-chess UCI engine through python-chess (a real UCI client).

Usage: uci_client.py ENGINE [SYZYGY_DIR]. Exits non-zero on any failure. Called by uci_python.rs.
"""
import sys
import time

import chess
import chess.engine

ENGINE = sys.argv[1]
SYZYGY = sys.argv[2] if len(sys.argv) > 2 else None


def check(cond, msg):
    if not cond:
        raise SystemExit(f"FAIL: {msg}")


def main():
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30) as eng:
        for name in ["Hash", "Threads", "MultiPV", "Ponder", "SyzygyPath", "SyzygyProbeDepth",
                     "Move Overhead", "UCI_Chess960", "Clear Hash"]:
            check(name in eng.options, f"option {name} advertised")
        options = {"Hash": 8, "Threads": 2, "Move Overhead": 20, "SyzygyProbeDepth": 2}
        if SYZYGY:
            options["SyzygyPath"] = SYZYGY
        eng.configure(options)
        eng.configure({"Clear Hash": None})

        # Fixed searches.
        board = chess.Board()
        r = eng.play(board, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL)
        check(r.move in board.legal_moves, "depth search gives a legal move")
        check(r.info.get("depth") == 6, f"depth info {r.info}")
        r = eng.play(board, chess.engine.Limit(nodes=5000))
        check(r.move in board.legal_moves, "node search")
        t = time.monotonic()
        r = eng.play(board, chess.engine.Limit(time=0.2))
        check(time.monotonic() - t < 1.0, "movetime respected")
        mate = chess.Board("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1")
        info = eng.analyse(mate, chess.engine.Limit(mate=3))
        check(info["score"].relative.mate() is not None, f"mate found: {info}")
        infos = eng.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        check(len(infos) == 3 and len({i["pv"][0] for i in infos}) == 3, "MultiPV 3")

        # Infinite analysis stopped by the client.
        with eng.analysis(board) as analysis:
            time.sleep(0.3)
            analysis.stop()
            best = analysis.wait().move
        check(best in board.legal_moves, "infinite analysis")

        # Tablebase position (only meaningful with SyzygyPath).
        if SYZYGY:
            tb = chess.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
            info = eng.analyse(tb, chess.engine.Limit(depth=8))
            check(info.get("tbhits", 0) > 0, f"tbhits reported: {info}")

        # Pondering: a ponder search, then a ponderhit or a miss.
        eng.configure({"Threads": 1, "Move Overhead": 50})
        board = chess.Board()
        r = eng.play(board, chess.engine.Limit(time=0.1), ponder=True)
        check(r.ponder is not None, "ponder move offered")
        board.push(r.move)
        board.push(r.ponder)
        r = eng.play(board, chess.engine.Limit(time=0.1), ponder=True)
        check(r.move in board.legal_moves, "move after ponderhit")

        # A short bullet game against itself at 2+0.02: legal moves and no time loss. The clock
        # is charged with the full round trip of each move, as a GUI would.
        board = chess.Board()
        clocks = {chess.WHITE: 2.0, chess.BLACK: 2.0}
        inc = 0.02
        while not board.is_game_over(claim_draw=True) and board.ply() < 40:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t = time.monotonic()
            r = eng.play(board, limit)
            used = time.monotonic() - t
            clocks[board.turn] -= used
            check(clocks[board.turn] > 0, f"lost on time at ply {board.ply()} (used {used:.3f}s)")
            clocks[board.turn] += inc
            check(r.move in board.legal_moves, f"legal move at ply {board.ply()}")
            board.push(r.move)

        # Chess960: castling as king-takes-rook.
        b960 = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        r = eng.play(b960, chess.engine.Limit(depth=5))
        check(r.move in b960.legal_moves, "chess960 move")
        eng.ping()
    print("OK")


if __name__ == "__main__":
    main()
