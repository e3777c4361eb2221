#!/usr/bin/env python3
"""Checks that ply reads an Edax book as Edax does, and that Edax reads ply's book.dat (issue 58).

    tools/othello-book/compare_edax.py --ply PLY-OTHELLO --edax "EDAX -eval-file eval.dat -n 1" BOOK.dat

BOOK.dat is a book made by Edax's own commands (`book new`, `book deviate`, `book save`). The
script compares, and prints one line for each check:

1. every position: Edax's `book export` (its text form: board, level, leaf, leaf score) against
   ply's `book export --format text` of the same file, as sets of lines;
2. every position (or the first --max of Edax's export): Edax's `book show` after `setboard`
   (the position's value, each book move's score, the leaf) against ply's `book show --level 0`
   of the same board;
3. the way back: ply writes the book as Edax's book.dat (`book export --format edax`), Edax
   loads it and exports it, and the lines must again be the same.

Exit status 0 when every check holds, 1 otherwise. Edax is a peer built outside the repository;
nothing here builds or ships it.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

MOVE = re.compile(r"^([A-H][1-8]|PA)\s+([+-]?\d+)\s+book( leaf)?,")
EDAX_MOVE = re.compile(r"([\[<])([A-Ha-h][1-8]|PS|ps|PA|pa):([+-]?\d+)[\]>]")
MARKER = "Edax version"


def run(cmd, stdin=None, merge=False):
    """Runs cmd and returns its standard output (and error, with merge), failing loudly on a
    non-zero status."""
    done = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                          text=True, timeout=3600)
    if done.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} failed ({done.returncode}): {done.stdout.strip()[-500:]} "
                 f"{(done.stderr or '').strip()}")
    return done.stdout


def edax(edax_cmd, book, commands):
    """Edax's console output for the commands, run on the book (stdin closed at the end); its
    standard error is merged in, in order (`version` writes there)."""
    cmd = shlex.split(edax_cmd) + ["-q", "-book-file", book]
    return run(cmd, "mode 3\n" + "".join(c + "\n" for c in commands), merge=True)


def sorted_lines(path):
    """The non-empty lines of a text export, sorted (record order means nothing in a book)."""
    with open(path) as f:
        return sorted(line.strip() for line in f if line.strip())


def edax_export(edax_cmd, book, out):
    edax(edax_cmd, book, [f"book export {out}"])
    return sorted_lines(out)


def ply_export(ply, book, out):
    run([ply, "book", "export", book, out, "--format", "text"])
    return sorted_lines(out)


def ply_show(ply, book, position):
    """{move: value} of ply's book moves of the position (a board), and the leaf's move."""
    args = [ply, "book", "show", book, position, "--level", "0"]
    moves, leaf = {}, None
    for text in run(args).splitlines():
        m = MOVE.match(text.strip())
        if m:
            moves[m.group(1)] = int(m.group(2))
            if m.group(3):
                leaf = m.group(1)
    return moves, leaf


def edax_shows(edax_cmd, book, boards):
    """Edax's (value, {move: score}, leaf) of each board, one console run for all of them."""
    commands = []
    for board in boards:
        commands += [f"setboard {board}", "book show", "version"]
    text = edax(edax_cmd, book, commands)
    blocks = text.split(MARKER)
    if len(blocks) != len(boards) + 1:
        sys.exit(f"Edax answered {len(blocks) - 1} of {len(boards)} `book show` commands")
    blocks = blocks[:-1]
    shown = []
    for block in blocks:
        best = re.search(r"Best score: ([+-]?\d+)", block)
        moves_line = re.search(r"Moves:(.*)", block)
        if not best or not moves_line:
            shown.append(None)
            continue
        moves, leaf = {}, None
        for kind, mv, score in EDAX_MOVE.findall(moves_line.group(1)):
            mv = mv.upper().replace("PS", "PA")
            moves[mv] = int(score)
            if kind == "<":
                leaf = mv
        shown.append((int(best.group(1)), moves, leaf))
    return shown


def board_of(export_line):
    """The board of an export line (64 squares and the side to move, `X`: Edax's form)."""
    squares, rest = export_line.split(" ", 1)
    return squares + rest[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ply", required=True, help="the ply-othello binary")
    p.add_argument("--edax", required=True, help="Edax's command line (no -book-file)")
    p.add_argument("--max", type=int, default=0, help="most positions shown (default 0: all)")
    p.add_argument("book", help="a book.dat made by Edax")
    a = p.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        mine = ply_export(a.ply, a.book, os.path.join(tmp, "ply.txt"))
        theirs = edax_export(a.edax, a.book, os.path.join(tmp, "edax.txt"))
        same = mine == theirs
        ok &= same
        print(f"positions: Edax exports {len(theirs)}, ply {len(mine)}; "
              f"{'the same lines' if same else 'DIFFERENT: ' + str(len(set(mine) ^ set(theirs))) + ' lines differ'}")

        boards = [board_of(line) for line in theirs][: a.max or None]
        shown = edax_shows(a.edax, a.book, boards)
        bad = 0
        for board, edax_view in zip(boards, shown):
            moves, leaf = ply_show(a.ply, a.book, board)
            ply_view = (max(moves.values()) if moves else None, moves, leaf)
            if edax_view != ply_view:
                bad += 1
                if bad <= 5:
                    print(f"  {board}: Edax {edax_view}, ply {ply_view}")
        ok &= bad == 0
        print(f"book show: {len(boards)} positions, {len(boards) - bad} the same "
              f"(value, every book move's score, leaf), {bad} different")

        back = os.path.join(tmp, "from-ply.dat")
        run([a.ply, "book", "export", a.book, back, "--format", "edax"])
        again = edax_export(a.edax, back, os.path.join(tmp, "edax-again.txt"))
        same = again == theirs
        ok &= same
        print(f"ply's book.dat loaded by Edax: {len(again)} positions, "
              f"{'the same lines' if same else 'DIFFERENT'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
