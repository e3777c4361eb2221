#!/usr/bin/env python3
"""Rounds of `ply-othello book deepen` whose searches are made as Ray tasks (tools/cluster/run.py).

    python3 tools/cluster/book_rounds.py --binary target/release/ply-othello --book book.ply \\
        --rounds 10 --shards 64 --plies 24 --hash 64 [-- run.py options, e.g. --address auto]

Each round is three steps: `ply-othello book plan BOOK --plies P` writes the round's plan
(BOOK.plan); run.py runs `book searches BOOK --hash H --shard K/N --out ...` as N tasks, their
files gathered in BOOK.searches/; `book apply BOOK BOOK.searches/shard-*.txt` runs the round with
those searches (making any it lacks) and backs the values up. The book is the one
`book deepen BOOK --plies P --hash H --rounds R` makes, byte for byte.

Stopping and resuming: run it again. A pending plan (an interrupted round) is searched and
applied before new rounds are planned, and run.py skips the shards already complete. Rounds end
early when a plan has no step (the book is complete for these windows).

Every worker reads BOOK and BOOK.plan, so the book must be at the same path on every machine
(a shared folder), or the cluster a local one (no --address).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(cmd: list[str]) -> str:
    """Runs `cmd`, echoing its output; its standard output, or exit on failure."""
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(done.stdout)
    if done.returncode != 0:
        sys.exit(f"book_rounds: {cmd[0]} exited with {done.returncode}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="the ply-othello binary")
    parser.add_argument("--book", required=True, help="the book file (ply's form)")
    parser.add_argument("--rounds", type=int, required=True, help="rounds to run (at most)")
    parser.add_argument("--shards", type=int, required=True, help="tasks a round")
    parser.add_argument("--plies", type=int, default=16, help="as deepen --plies (16)")
    parser.add_argument("--hash", type=int, default=64, help="MiB of each search's tables (64)")
    parser.add_argument("driver", nargs=argparse.REMAINDER, help="-- run.py's own options")
    args = parser.parse_args()
    extra = [a for a in args.driver if a != "--"]
    binary = str(Path(args.binary).resolve())
    book = Path(args.book).resolve()
    plan = Path(str(book) + ".plan")
    searches = Path(str(book) + ".searches")
    for r in range(1, args.rounds + 1):
        if not plan.exists():
            run([binary, "book", "plan", str(book), "--plies", str(args.plies)])
            if not plan.exists():
                print(f"round {r}: nothing left to plan", file=sys.stderr)
                break
        run([
            sys.executable, str(HERE / "run.py"), "--binary", binary,
            "--shards", str(args.shards), "--out", str(searches), *extra,
            "--", "book", "searches", str(book), "--hash", str(args.hash),
        ])
        files = [str(searches / f"shard-{k}-of-{args.shards}.txt") for k in range(args.shards)]
        run([binary, "book", "apply", str(book), *files, "--hash", str(args.hash)])
        shutil.rmtree(searches, ignore_errors=True)
        print(f"round {r} done", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
