#!/usr/bin/env bash
# Grows the Othello opening book shipped with ply (crates/othello-engine/src/book/default.plybook)
# by the project's own commands, resuming where it stopped (issue 58).
#
#   tools/othello-book/build.sh grow [ROUNDS]   # more deviation rounds (all of them without ROUNDS)
#   tools/othello-book/build.sh finish          # end the round in progress, copy the book in
#
# The work file is $PLY_BOOK_DIR/default.ply (default ~/ply-data/book). When it is missing, it
# starts from the shipped book, so that a machine that lost its work folder goes on from what
# the repository holds. The book is deterministic: the shipped one is, byte for byte, what
#   ply-othello book new default.ply --level 18
#   ply-othello book deepen default.ply --plies 24 --hash 64 --rounds R
# gives for the R in docs/benchmarks/othello-book.md, whatever --jobs and however often the
# job was stopped and resumed. `grow` runs at the lowest priority (nice 19) with one search per
# core (PLY_BOOK_JOBS to change it); stop it at any time (Ctrl-C or kill), `grow` resumes it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
shipped="$repo/crates/othello-engine/src/book/default.plybook"
dir="${PLY_BOOK_DIR:-$HOME/ply-data/book}"
jobs="${PLY_BOOK_JOBS:-$(nproc)}"
bin="${PLY_OTHELLO:-}"
if [ -z "$bin" ]; then
    cargo build --quiet --release -p ply-othello-cli --manifest-path "$repo/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$repo/target}/release/ply-othello"
fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f default.ply ]; then
    cp "$shipped" default.ply
    echo "started from the shipped book ($shipped)"
fi
case "${1:-}" in
    grow)
        rounds=()
        [ -n "${2:-}" ] && rounds=(--rounds "$2")
        nice -n 19 "$bin" book deepen default.ply --plies 24 --hash 64 --jobs "$jobs" "${rounds[@]}"
        ;;
    finish)
        # --rounds 0: finish the plan of the round in progress (values backed up), start no other
        nice -n 19 "$bin" book deepen default.ply --plies 24 --hash 64 --jobs "$jobs" --rounds 0
        "$bin" book info default.ply
        cp default.ply "$shipped"
        echo "copied to $shipped"
        ;;
    *)
        sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
