#!/usr/bin/env python3
"""How far `ply-othello review` agrees with Edax on human games ply did not play (WTHOR).

    othello.py --edax PATH [--eval-file F] --wthor ../shared/othello/wthor/WTH_2020.wtb \
        [--games 1-12] [--level 18] [--exact 22] [--ply target/release/ply-othello] [--save F]

For every game it runs `ply-othello review --wthor FILE --game N --level L --exact E --json`,
then judges the same moves with Edax the same way: every position of the game where the side
to move has a move is written to one OBF file and solved by `edax -solve FILE -l L -n 1
-book-usage off` (Edax clears its tables before each position). The best score is Edax's score
of the position before the move; the played move's score is minus Edax's score of the next
position (the mover's own score when the opponent must pass; the final disc difference, empty
squares to the winner, when the move ends the game). loss = max(0, best - played) and the
judgement uses ply's lines: 0 best, 1 good, 2-3 inaccuracy, 4-7 mistake, 8+ blunder, and, as
ply does, a move whose two scores are both proven (Edax: searched to the end at 100 %) and
that keeps the result (both scores > 0 or both < 0) is at worst an inaccuracy. Forced moves
and passes are left out. At level L Edax searches midgame positions to depth L at 73 %
selectivity and, at level 18, the endgame from 27 empties (87 % from 25-27, 98 % from 22-24,
exact from 21); so that both solve the same positions exactly, Edax solves the positions with
`--edax-exact` empties or fewer (default: ply's `--exact`, 22) at level 60, i.e. exactly, in a
second run; `--edax-exact 0` leaves Edax's level table alone.

It prints the moves compared, the count per judgement for both, a 5x5 table (rows Edax,
columns ply), for "blunder or worse", "mistake or worse" and "inaccuracy or worse" how many
of Edax's marks ply also makes (recall) and how many of ply's marks Edax agrees with
(precision), and the mean absolute difference of the losses in discs. `--save F` writes every
move's two verdicts as JSON lines.

Needs python3 only (no packages), a release build of ply (`cargo build --release -p
ply-othello-cli`) and an Edax binary, which is not part of this repository: Edax-AVX
(github.com/okuhara/edax-reversi-AVX), built outside the repository by its own makefile
(docs/benchmarks/review.md names the commit and the target used). Edax needs evaluation
weights: its own `eval.dat` (distributed with its releases) as `data/eval.dat` beside its `bin`
folder, or any Edax-format file given with `--eval-file`, e.g. ply's v1 weights written by
`ply-othello weights --edax-out eval.dat` (then Edax's midgame scores share ply's evaluation:
only the searches differ; exact scores are independent either way). Edax runs in the folder
above its `bin`.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

JUDGEMENTS = ["best", "good", "inaccuracy", "mistake", "blunder"]
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def judgement_from_loss(loss):
    if loss <= 0:
        return 0
    if loss == 1:
        return 1
    if loss <= 3:
        return 2
    if loss <= 7:
        return 3
    return 4


# --- a small Othello board: 64 cells, index 8*row+col, a1 = 0, h8 = 63; 'X' black, 'O' white


def start_board():
    b = ["-"] * 64
    b[27] = b[36] = "O"  # d4 e5
    b[28] = b[35] = "X"  # e4 d5
    return b


def flips(b, sq, side):
    if b[sq] != "-":
        return []
    other = "O" if side == "X" else "X"
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and b[8 * r + c] == other:
            line.append(8 * r + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and b[8 * r + c] == side:
            out.extend(line)
    return out


def legal_moves(b, side):
    return [sq for sq in range(64) if flips(b, sq, side)]


def play(b, sq, side):
    f = flips(b, sq, side)
    if not f:
        raise ValueError(f"illegal move {sq_name(sq)}")
    b = list(b)
    b[sq] = side
    for s in f:
        b[s] = side
    return b


def final_score(b, side):
    """Disc difference from `side`'s view, empty squares to the winner."""
    mine = b.count(side)
    theirs = b.count("O" if side == "X" else "X")
    empties = 64 - mine - theirs
    if mine > theirs:
        mine += empties
    elif theirs > mine:
        theirs += empties
    return mine - theirs


def sq_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def sq_parse(s):
    return (int(s[1]) - 1) * 8 + "abcdefgh".index(s[0].lower())


def wthor_moves(path, n):
    with open(path, "rb") as f:
        data = f.read()
    off = 16 + 68 * (n - 1)
    if off + 68 > len(data):
        raise SystemExit(f"{path}: no game {n}")
    rec = data[off + 8 : off + 68]
    return [(v // 10 - 1) * 8 + (v % 10 - 1) for v in rec if v]


def positions(moves):
    """Replays the game: for each move (passes skipped) the position before it, the mover,
    whether it was forced, and what follows: ('next', board, side_to_move) or ('end', score)."""
    b, side, out = start_board(), "X", []
    for i, mv in enumerate(moves):
        if not legal_moves(b, side):
            side = "O" if side == "X" else "X"  # a pass
        legal = legal_moves(b, side)
        if mv not in legal:
            raise ValueError(f"move {i + 1} ({sq_name(mv)}): illegal")
        after = play(b, mv, side)
        other = "O" if side == "X" else "X"
        if legal_moves(after, other):
            nxt = ("next", after, other)
        elif legal_moves(after, side):
            nxt = ("next", after, side)
        else:
            nxt = ("end", final_score(after, side))
        out.append({"board": b, "side": side, "move": mv, "forced": len(legal) == 1, "next": nxt})
        b, side = after, other
    return out


def obf_line(b, side):
    return "".join(b) + " " + side


# --- running the engines


def run_ply(args, game):
    cmd = [args.ply, "review", "--wthor", args.wthor, "--game", str(game), "--level", str(args.level),
           "--exact", str(args.exact), "--threads", "1", "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    return json.loads(lines[0])


ROW = re.compile(r"^\s*(\d+)\|\s*(\d+)(?:@\s*(\d+)%)?\s+([<>? ]?)([+-]\d+)\s")


def run_edax(args, obf_lines):
    """Solves every line; returns [(score, exact)] in order. Lines with `--edax-exact` empties
    or fewer are solved exactly (level 60), the others at `--level`."""
    small = [i for i, l in enumerate(obf_lines) if l[:64].count("-") <= args.edax_exact]
    large = [i for i, l in enumerate(obf_lines) if l[:64].count("-") > args.edax_exact]
    out = [None] * len(obf_lines)
    for group, level in [(large, args.level), (small, 60)]:
        if group:
            solved = run_edax_level(args, [obf_lines[i] for i in group], level)
            for i, r in zip(group, solved):
                out[i] = r
    return out


def run_edax_level(args, obf_lines, level):
    """Solves every line at `level`; returns [(score, exact)] in order."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.write("\n".join(obf_lines) + "\n")
        path = f.name
    edax = os.path.abspath(args.edax)
    cmd = [edax, "-solve", path, "-l", str(level), "-n", "1", "-book-usage", "off", "-verbose", "1"]
    if args.eval_file:
        cmd += ["-eval-file", os.path.abspath(args.eval_file)]
    cwd = os.path.dirname(os.path.dirname(edax))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    finally:
        if not args.keep:
            os.unlink(path)
    out = {}
    for line in r.stdout.splitlines():
        m = ROW.match(line)
        if m:
            n, depth, sel, _bound, score = m.groups()
            empties = obf_lines[int(n) - 1][:64].count("-")
            out[int(n)] = (int(score), sel is None and int(depth) == empties)
    if r.returncode != 0 or len(out) != len(obf_lines):
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}, {len(out)} of {len(obf_lines)} "
                         f"positions read\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return [out[i + 1] for i in range(len(obf_lines))]


def edax_version(args):
    r = subprocess.run([os.path.abspath(args.edax), "-v"], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(args.edax))))
    for line in (r.stdout + r.stderr).splitlines():
        if "Edax" in line:
            return line.strip()
    return "?"


def parse_games(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def pct(a, b):
    return f"{a}/{b} = {100.0 * a / b:.0f} %" if b else f"{a}/0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edax", required=True, help="Edax binary (e.g. /tmp/peers/edax/bin/lEdax-x86-64-v3)")
    ap.add_argument("--eval-file", help="Edax-format weights (default: Edax's data/eval.dat)")
    ap.add_argument("--wthor", required=True, help="a WTHOR .wtb file")
    ap.add_argument("--games", default="1-12", help="game numbers: 1-12 or 1,5,9-11")
    ap.add_argument("--level", type=int, default=18, help="both engines' level (default 18)")
    ap.add_argument("--exact", type=int, default=22, help="ply's --exact (default 22)")
    ap.add_argument("--edax-exact", type=int, default=None,
                    help="Edax solves positions with this many empties or fewer exactly (level 60); "
                         "default: --exact, as ply; 0: Edax's own level table only")
    ap.add_argument("--ply", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "..", "target", "release", "ply-othello"),
                    help="the ply-othello binary (default: this repository's target/release)")
    ap.add_argument("--save", help="write every compared move as a JSON line")
    ap.add_argument("--keep", action="store_true", help="keep the temporary OBF file")
    args = ap.parse_args()
    if args.edax_exact is None:
        args.edax_exact = args.exact

    rows = []
    t_ply = t_edax = 0.0
    for g in parse_games(args.games):
        t0 = time.time()
        review = run_ply(args, g)
        t_ply += time.time() - t0
        moves = wthor_moves(args.wthor, g)
        pos = positions(moves)
        ply_moves = review["moves"]
        if [m["move"] for m in ply_moves] != [sq_name(p["move"]) for p in pos]:
            raise SystemExit(f"game {g}: ply's move list differs from the WTHOR record")
        # every position where the side to move has a move, once
        index, lines = {}, []
        for p in pos:
            for b, side in [(p["board"], p["side"])] + ([p["next"][1:]] if p["next"][0] == "next" else []):
                key = obf_line(b, side)
                if key not in index:
                    index[key] = len(lines)
                    lines.append(key)
        t0 = time.time()
        solved = run_edax(args, lines)
        t_edax += time.time() - t0
        n_game = 0
        for p, pm in zip(pos, ply_moves):
            if p["forced"] or pm["forced"]:
                continue
            best, best_exact = solved[index[obf_line(p["board"], p["side"])]]
            if p["next"][0] == "end":
                played, played_exact = p["next"][1], True
            else:
                s, e = solved[index[obf_line(*p["next"][1:])]]
                played, played_exact = (-s if p["next"][2] != p["side"] else s), e
            loss = max(0, best - played)
            j = judgement_from_loss(loss)
            exact = best_exact and played_exact
            if exact and ((best > 0 and played > 0) or (best < 0 and played < 0)):
                j = min(j, 2)
            rows.append({"game": g, "ply": pm["ply"], "move": pm["move"], "empties": pm["empties"],
                         "edax": {"best": best, "played": played, "loss": loss, "exact": exact,
                                  "judgement": JUDGEMENTS[j]},
                         "ply_review": {"best": pm["score_best"], "played": pm["score_played"],
                                        "loss": pm["loss"], "exact": pm["exact"],
                                        "judgement": pm["judgement"]}})
            n_game += 1
        print(f"game {g}: {n_game} moves compared, {len(lines)} positions for Edax", file=sys.stderr)

    if args.save:
        with open(args.save, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")

    n = len(rows)
    ej = [JUDGEMENTS.index(r["edax"]["judgement"]) for r in rows]
    pj = [JUDGEMENTS.index(r["ply_review"]["judgement"]) for r in rows]
    print(f"{edax_version(args)}, level {args.level}, exact from {args.edax_exact} empties; "
          f"ply level {args.level}, exact from {args.exact}")
    print(f"{args.wthor} games {args.games}: {n} moves compared (forced moves and passes left out)")
    print(f"time: ply review {t_ply:.1f} s, Edax {t_edax:.1f} s (wall)")
    print()
    print(f"{'':12}" + "".join(f"{j:>11}" for j in JUDGEMENTS))
    print(f"{'Edax':12}" + "".join(f"{ej.count(k):>11}" for k in range(5)))
    print(f"{'ply':12}" + "".join(f"{pj.count(k):>11}" for k in range(5)))
    print()
    print("rows Edax, columns ply")
    print(f"{'':12}" + "".join(f"{j:>11}" for j in JUDGEMENTS))
    for a in range(5):
        print(f"{JUDGEMENTS[a]:12}" + "".join(
            f"{sum(1 for e, p in zip(ej, pj) if e == a and p == b):>11}" for b in range(5)))
    print()
    for name, k in [("blunder or worse", 4), ("mistake or worse", 3), ("inaccuracy or worse", 2)]:
        both = sum(1 for e, p in zip(ej, pj) if e >= k and p >= k)
        ne = sum(1 for e in ej if e >= k)
        np_ = sum(1 for p in pj if p >= k)
        print(f"{name:20} Edax marks {ne:3}, ply marks {np_:3}, both {both:3}; "
              f"recall {pct(both, ne)}, precision {pct(both, np_)}")
    print()
    if n:
        diff = [abs(r["edax"]["loss"] - r["ply_review"]["loss"]) for r in rows]
        print(f"mean |loss(ply) - loss(Edax)|: {sum(diff) / n:.2f} discs over {n} moves")
        for label, sel in [(f"> {args.exact} empties", lambda r: r["empties"] > args.exact),
                           (f"<= {args.exact} empties", lambda r: r["empties"] <= args.exact)]:
            d = [abs(r["edax"]["loss"] - r["ply_review"]["loss"]) for r in rows if sel(r)]
            if d:
                print(f"  {label:16} {sum(d) / len(d):.2f} discs over {len(d)} moves")
        sb = [abs(r["edax"]["best"] - r["ply_review"]["best"]) for r in rows]
        print(f"mean |best score(ply) - best score(Edax)|: {sum(sb) / n:.2f} discs")


if __name__ == "__main__":
    main()
