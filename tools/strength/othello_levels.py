#!/usr/bin/env python3
"""Calibrates ply's named Othello strength levels (issue 57) by matches, and fits one Elo scale.

    othello_levels.py run --edax PATH --eval-file EVAL [--ply target/release/ply-othello] \
        [--rhino /usr/games/gtp-rhino] [--games 200] [--seed 57] --dir DIR
    othello_levels.py fit --dir DIR [--anchor edax1] [--markdown]

`run` plays every pairing of the plan below with `ply-othello match --strength S --opponent CMD
--games N --seed SEED --hash 16 --json` (the 100 built-in openings, each with both colours, play
by level: no clocks, so the results do not depend on the machine's load), one JSON summary per
pairing in DIR (`S-vs-OPP.json`); a pairing whose file exists is skipped, so a stopped run resumes.
Opponents: Edax-AVX at level L (`-gtp -l L -eval-file EVAL -book-usage off -n 1 -ponder off`: ply's
v1 weights as Edax's eval.dat, from `ply-othello weights --edax-out`), GRhino at level L (`--book 0`)
and ply itself at level L, unweakened (`ply-othello gtp --level L`).

`fit` reads DIR's summaries and fits a Bradley-Terry model (draws as half points) by maximum
likelihood: one rating per player, the anchor (default Edax level 1) at 0. It prints each player's
rating with a 95 % interval from the fit's curvature, each pairing's score against the score the
ratings predict, and for every named level the Edax level nearest to it.

Needs python3 only; Edax is not part of this repository (see docs/benchmarks/othello-strength.md).
"""

import argparse
import json
import math
import os
import subprocess
import sys

# Each named level against the opponents around it: Edax levels, GRhino levels, ply's levels.
PLAN = {
    "beginner": {"edax": [1, 2], "rhino": [1, 2], "ply": [1]},
    "casual": {"edax": [1, 2, 3], "rhino": [1, 2], "ply": [1, 2]},
    "club": {"edax": [2, 4, 6], "rhino": [2, 3], "ply": [2, 4]},
    "strong": {"edax": [4, 6, 8], "rhino": [3], "ply": [4, 8]},
    "expert": {"edax": [8, 10, 12], "rhino": [], "ply": []},
}
# GRhino's levels 4 and 5 are left out: without a clock over GTP they take from seconds to minutes a
# move (a game in 20-250 s), 200 games hours; level 3 is already far below the strong level.
NAMED = list(PLAN)


def opponents(args):
    edax = (
        f"{args.edax} -gtp -eval-file {args.eval_file} -book-usage off -n 1 -ponder off"
    )
    rhino = f"{args.rhino} --book 0"
    ply = f"{args.ply} gtp --hash 16"
    for strength, opp in PLAN.items():
        for level in opp["edax"]:
            yield strength, f"edax{level}", f"{edax} -l {level}"
        for level in opp["rhino"]:
            yield strength, f"rhino{level}", f"{rhino} --level {level}"
        for level in opp["ply"]:
            yield strength, f"ply{level}", f"{ply} --level {level}"


def run(args):
    os.makedirs(args.dir, exist_ok=True)
    for strength, name, command in opponents(args):
        out = os.path.join(args.dir, f"{strength}-vs-{name}.json")
        if os.path.exists(out) and os.path.getsize(out) > 0:
            continue
        cmd = [
            args.ply, "match", "--strength", strength, "--opponent", command,
            "--games", str(args.games), "--seed", str(args.seed), "--hash", "16", "--json",
        ]
        print(f"{strength} vs {name} ...", flush=True)
        with open(out + ".log", "w") as log:
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit status {done.returncode} (see {out}.log)")
        with open(out + ".tmp", "w") as f:
            f.write(done.stdout)
        os.replace(out + ".tmp", out)


def pairings(directory):
    """(player, opponent, games, points) for every summary in `directory`."""
    rows = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json") or "-vs-" not in name:
            continue
        player, opponent = name[:-5].split("-vs-", 1)
        with open(os.path.join(directory, name)) as f:
            v = json.load(f)
        games = v["games"]
        points = v["wins"] + 0.5 * v["draws"]
        rows.append((player, opponent, games, points))
    return rows


def expected(d):
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))


def fit(rows, anchor):
    players = sorted({p for r in rows for p in r[:2]})
    if anchor not in players:
        sys.exit(f"the anchor {anchor} played no pairing")
    free = [p for p in players if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    r = [0.0] * len(free)
    k = math.log(10) / 400.0

    def rating(p):
        return 0.0 if p == anchor else r[index[p]]

    # Newton's method on the log-likelihood (scores are sufficient statistics per pairing)
    for _ in range(100):
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]
        for a, b, n, s in rows:
            e = expected(rating(a) - rating(b))
            g = k * (s - n * e)
            h = k * k * n * e * (1 - e)
            for p, sign in ((a, 1), (b, -1)):
                if p in index:
                    grad[index[p]] += sign * g
            for p in (a, b):
                for q in (a, b):
                    if p in index and q in index:
                        hess[index[p]][index[q]] += h if p == q else -h
        step = solve(hess, grad)
        for i, d in enumerate(step):
            r[i] += max(-400.0, min(400.0, d))
        if max(abs(d) for d in step) < 1e-6:
            break
    cov = invert(hess)
    ratings = {p: rating(p) for p in players}
    spread = {p: 0.0 if p == anchor else 1.96 * math.sqrt(cov[index[p]][index[p]]) for p in players}
    return ratings, spread


def solve(m, v):
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[pivot] = a[pivot], a[c]
        for i in range(n):
            if i != c and a[c][c] != 0:
                f = a[i][c] / a[c][c]
                for j in range(c, n + 1):
                    a[i][j] -= f * a[c][j]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def invert(m):
    n = len(m)
    cols = []
    for j in range(n):
        e = [0.0] * n
        e[j] = 1.0
        cols.append(solve(m, e))
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def report(args):
    rows = pairings(args.dir)
    if not rows:
        sys.exit(f"no match summaries in {args.dir}")
    ratings, spread = fit(rows, args.anchor)
    order = sorted(ratings, key=ratings.get)
    bar = "|" if args.markdown else ""
    print(f"{bar} player {bar} Elo (anchor {args.anchor} = 0) {bar} 95 % {bar} nearest Edax level {bar}")
    if args.markdown:
        print("|---|---|---|---|")
    edax = {p: v for p, v in ratings.items() if p.startswith("edax")}
    for p in order:
        near = ""
        if p in NAMED and edax:
            e = min(edax, key=lambda q: abs(edax[q] - ratings[p]))
            near = f"Edax level {e[4:]} ({ratings[p] - edax[e]:+.0f})"
        print(f"{bar} {p} {bar} {ratings[p]:+.0f} {bar} ±{spread[p]:.0f} {bar} {near} {bar}")
    print()
    print(f"{bar} pairing {bar} games {bar} score {bar} the fit's {bar}")
    if args.markdown:
        print("|---|---|---|---|")
    for a, b, n, s in rows:
        e = expected(ratings[a] - ratings[b])
        print(f"{bar} {a} vs {b} {bar} {n} {bar} {100 * s / n:.1f} % {bar} {100 * e:.1f} % {bar}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play the pairings")
    r.add_argument("--edax", required=True)
    r.add_argument("--eval-file", required=True)
    r.add_argument("--ply", default="target/release/ply-othello")
    r.add_argument("--rhino", default="/usr/games/gtp-rhino")
    r.add_argument("--games", type=int, default=200)
    r.add_argument("--seed", type=int, default=57)
    r.add_argument("--dir", required=True)
    f = sub.add_parser("fit", help="fit the ratings")
    f.add_argument("--dir", required=True)
    f.add_argument("--anchor", default="edax1")
    f.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    run(args) if args.cmd == "run" else report(args)


if __name__ == "__main__":
    main()
