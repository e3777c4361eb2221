#!/usr/bin/env python3
"""How far `ply-chess review` agrees with Stockfish on games ply did not play.

    agreement.py games --out games.pgn [--games 16] [--elo 1400 1700] [--movetime 0.05] [--seed 1]
        Stockfish against itself at two UCI_Elo levels (its human-calibrated weak play) from
        positions of the shared 8-move book: games with human-like mistakes that ply never saw.
    agreement.py compare games.pgn review.jsonl [--depth 16] [--stockfish PATH]
        Judges every move of the games with Stockfish as lichess does (winning chances
        wc(cp) = 2/(1+exp(-0.00368208 cp)) - 1, cp capped at +-1000, a mate counting as 1000;
        a drop of the mover's wc of 0.1 / 0.2 / 0.3 is an inaccuracy / mistake / blunder where
        Stockfish's best move is not the one played) and compares with ply's judgements
        (`ply-chess review --json` lines): how many of Stockfish's blunders ply marks, and how
        many of ply's marks Stockfish agrees with. `--save FILE` keeps every move's verdict.

Needs python-chess and a Stockfish binary (`apt-get install stockfish`: /usr/games/stockfish).
"""
import argparse
import json
import math
import random
import sys

import chess
import chess.engine
import chess.pgn

BOOK = "../shared/chess/books/8mvs_+90_+99.epd"


def games(args):
    fens = [l.split(";")[0].strip() for l in open(args.book) if l.strip()]
    rng = random.Random(args.seed)
    engines = []
    for elo in args.elo:
        e = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        e.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
        engines.append((elo, e))
    with open(args.out, "w") as out:
        for g in range(args.games):
            fen = rng.choice(fens)
            board = chess.Board(fen)
            # the stronger and weaker side alternate colours
            white, black = engines[g % 2], engines[1 - g % 2]
            game = chess.pgn.Game()
            game.headers["Event"] = "review agreement"
            game.headers["Round"] = str(g + 1)
            game.headers["White"] = f"Stockfish 15.1 UCI_Elo {white[0]}"
            game.headers["Black"] = f"Stockfish 15.1 UCI_Elo {black[0]}"
            game.setup(board)
            node = game
            while not board.is_game_over(claim_draw=True) and board.ply() < 400:
                side = white if board.turn == chess.WHITE else black
                r = side[1].play(board, chess.engine.Limit(time=args.movetime))
                board.push(r.move)
                node = node.add_variation(r.move)
            game.headers["Result"] = board.result(claim_draw=True)
            print(game, file=out, end="\n\n")
            print(f"game {g + 1}: {len(game.end().board().move_stack)} plies, {game.headers['Result']}", file=sys.stderr)
    for _, e in engines:
        e.quit()


def wc(score):
    """lichess's winning chances of a python-chess PovScore for the side to move."""
    cp = score.score(mate_score=1000)
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def judge(drop):
    if drop >= 0.3:
        return "blunder"
    if drop >= 0.2:
        return "mistake"
    if drop >= 0.1:
        return "inaccuracy"
    return "good"


RANK = {"best": 0, "good": 1, "inaccuracy": 2, "mistake": 3, "blunder": 4}


def compare(args):
    reviews = [json.loads(l) for l in open(args.review) if l.strip()]
    by_game = {r["game"]: r for r in reviews}
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)
    pairs = []  # (stockfish judgement, ply judgement)
    verdicts = []  # every move's, for --save
    with open(args.games) as f:
        number = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            number += 1
            if number not in by_game:
                continue
            plies = by_game[number]["moves"]
            board = game.board()
            # one search a position, as the review does
            infos = []
            for move in game.mainline_moves():
                infos.append(sf.analyse(board, limit))
                board.push(move)
            if board.is_checkmate():
                final = None
            elif board.is_game_over(claim_draw=True):
                final = "draw"
            else:
                final = sf.analyse(board, limit)
            board = game.board()
            for i, move in enumerate(game.mainline_moves()):
                info = infos[i]
                before = wc(info["score"].pov(board.turn))
                best = info["pv"][0]
                if i + 1 < len(infos):
                    after = -wc(infos[i + 1]["score"].pov(not board.turn))
                elif final is None:
                    after = 1.0
                elif final == "draw":
                    after = 0.0
                else:
                    after = -wc(final["score"].pov(not board.turn))
                if move == best or board.legal_moves.count() == 1:
                    verdict = "best"
                else:
                    verdict = judge(before - after)
                mine = plies[i]["judgement"] if i < len(plies) else None
                pairs.append((verdict, mine))
                verdicts.append({"game": number, "ply": i + 1, "stockfish": verdict,
                                 "drop": round(before - after, 4), "ply_judgement": mine,
                                 "ply_loss": plies[i]["loss"] if i < len(plies) else None})
                board.push(move)
            print(f"game {number}: {len(plies)} moves", file=sys.stderr)
    sf.quit()
    if args.save:
        with open(args.save, "w") as out:
            for v in verdicts:
                print(json.dumps(v), file=out)
    report(pairs, len(by_game), args.depth)


def report(pairs, games, depth):
    n = len(pairs)
    print(f"{n} moves of {games} games; Stockfish 15.1 depth {depth} as reference")
    for level in ("blunder", "mistake", "inaccuracy"):
        k = RANK[level]
        sf_marked = [p for p in pairs if RANK[p[0]] >= k]
        ply_marked = [p for p in pairs if p[1] and RANK[p[1]] >= k]
        both = [p for p in pairs if RANK[p[0]] >= k and p[1] and RANK[p[1]] >= k]
        # a mark one level lower still counts as "marked" for recall at the level below
        near = [p for p in sf_marked if p[1] and RANK[p[1]] >= max(2, k - 1)]
        print(
            f"{level:>10} or worse: Stockfish {len(sf_marked):>3}, ply {len(ply_marked):>3}, both {len(both):>3}; "
            f"ply marks {pct(len(both), len(sf_marked))} of Stockfish's ({pct(len(near), len(sf_marked))} one level lower or more), "
            f"Stockfish agrees with {pct(len(both), len(ply_marked))} of ply's"
        )
    table = {}
    for a, b in pairs:
        table[(a, b)] = table.get((a, b), 0) + 1
    names = ["best", "good", "inaccuracy", "mistake", "blunder"]
    print("\nrows: Stockfish, columns: ply")
    print(f"{'':>11}" + "".join(f"{c:>11}" for c in names))
    for a in names:
        print(f"{a:>11}" + "".join(f"{table.get((a, b), 0):>11}" for b in names))


def pct(a, b):
    return f"{100 * a / b:.0f} %" if b else "-"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=16)
    g.add_argument("--elo", type=int, nargs=2, default=[1400, 1700])
    g.add_argument("--movetime", type=float, default=0.05)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--book", default=BOOK)
    g.add_argument("--stockfish", default="/usr/games/stockfish")
    c = sub.add_parser("compare")
    c.add_argument("games")
    c.add_argument("review")
    c.add_argument("--depth", type=int, default=16)
    c.add_argument("--stockfish", default="/usr/games/stockfish")
    c.add_argument("--save", help="write every move's Stockfish verdict and drop (JSON lines)")
    args = p.parse_args()
    games(args) if args.cmd == "games" else compare(args)


if __name__ == "__main__":
    main()
