#!/usr/bin/env python3
"""Drives the ply-chess UCI engine through python-chess (a real UCI client).

Usage: uci_client.py ENGINE [SYZYGY_DIR]. Exits non-zero on any failure. Called by uci_python.rs.
Nothing here depends on how fast the machine is: searches are bounded by depth or nodes, and the
few clock checks allow many times the time asked for (a loaded shared box must not fail them).
"""
import logging
import sys
import time

import chess
import chess.engine

ENGINE = sys.argv[1]
SYZYGY = sys.argv[2] if len(sys.argv) > 2 else None


def check(cond, msg):
    if not cond:
        raise SystemExit(f"FAIL: {msg}")


class SentLines(logging.Handler):
    """Records the lines python-chess sends to the engine (its debug log writes `<< line`)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ": << " in message:
            self.lines.append(message.split(": << ", 1)[1])

    def take(self):
        lines, self.lines = self.lines, []
        return lines


def main():
    sent = SentLines()
    logger = logging.getLogger("chess.engine")
    logger.addHandler(sent)
    logger.setLevel(logging.DEBUG)
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
        # A 0.2 s move time ends by itself; the bound is 50 times that, so load cannot fail it.
        t = time.monotonic()
        r = eng.play(board, chess.engine.Limit(time=0.2))
        check(r.move in board.legal_moves, "movetime search gives a legal move")
        check(time.monotonic() - t < 10.0, "movetime search ends")
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

        # Pondering. After a move with ponder=True python-chess sends `go ponder` on the position
        # after the expected reply; when that reply comes it sends `ponderhit` (the engine then
        # answers with that search), otherwise `stop` and a fresh search. Both are checked in the
        # lines actually sent. python-chess only ponderhits within one game, so `game` is fixed.
        # Searches to a fixed depth on one thread after ucinewgame are the same on every run, so
        # whether bestmove names a ponder move does not depend on the machine's load.
        eng.configure({"Threads": 1, "Move Overhead": 50})
        game = object()
        board = chess.Board()
        r = eng.play(board, chess.engine.Limit(depth=7), ponder=True, game=game)
        check(r.ponder is not None, "ponder move offered")
        check(any(line.startswith("go ponder") for line in sent.take()), "go ponder sent")
        board.push(r.move)
        board.push(r.ponder)
        r = eng.play(board, chess.engine.Limit(depth=7), ponder=True, game=game)
        check("ponderhit" in sent.take(), "ponderhit sent on the expected reply")
        check(r.move in board.legal_moves, "move after ponderhit")
        check(r.ponder is not None, "ponder move offered after ponderhit")
        board.push(r.move)
        board.push(next(m for m in board.legal_moves if m != r.ponder))
        r = eng.play(board, chess.engine.Limit(depth=7), game=game)
        lines = sent.take()
        check("stop" in lines and "ponderhit" not in lines, f"a ponder miss stops: {lines}")
        check(r.move in board.legal_moves, "move after a ponder miss")

        # A 40-ply game against itself on a 60+0.6 clock, each move also capped at 20,000 nodes
        # so it ends in seconds whatever the load: legal moves, and no time loss with the clock
        # charged the full round trip of each move, as a GUI would.
        board = chess.Board()
        clocks = {chess.WHITE: 60.0, chess.BLACK: 60.0}
        inc = 0.6
        while not board.is_game_over(claim_draw=True) and board.ply() < 40:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc, nodes=20_000)
            t = time.monotonic()
            r = eng.play(board, limit, game=game)
            used = time.monotonic() - t
            clocks[board.turn] -= used
            check(clocks[board.turn] > 0, f"lost on time at ply {board.ply()} (used {used:.3f}s)")
            clocks[board.turn] += inc
            check(r.move in board.legal_moves, f"legal move at ply {board.ply()}")
            board.push(r.move)
        check(board.ply() == 40 or board.is_game_over(claim_draw=True), "game played out")

        # Chess960: castling as king-takes-rook.
        b960 = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        r = eng.play(b960, chess.engine.Limit(depth=5))
        check(r.move in b960.legal_moves, "chess960 move")
        eng.ping()
    print("OK")


if __name__ == "__main__":
    main()
