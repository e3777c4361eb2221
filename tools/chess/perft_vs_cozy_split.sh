#!/bin/sh
# ply-chess's portable build (run-time PEXT dispatch, no target-cpu flags) against cozy-chess built
# with its `pext` feature and -C target-cpu=native, which cannot share one binary (RUSTFLAGS apply to
# every crate). Builds examples/perft_vs_cozy twice and runs `--engine ply` of the portable build and
# `--engine cozy` of the native one in alternation, ROUNDS times each, one round per process.
# Times are on-CPU thread times printed by the example; compare the Mnps lines.
#
#   tools/chess/perft_vs_cozy_split.sh [ROUNDS]      (from the repository root)
set -eu
ROUNDS=${1:-5}
nice -n 19 cargo build -j1 --release -p ply-chess --example perft_vs_cozy
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native nice -n 19 \
    cargo build -j1 --release -p ply-chess --example perft_vs_cozy --features cozy-chess/pext
PLY=target/release/examples/perft_vs_cozy
COZY=target/native/release/examples/perft_vs_cozy
LOG=$(mktemp)
i=0
while [ "$i" -lt "$ROUNDS" ]; do
    if [ $((i % 2)) -eq 0 ]; then
        nice -n 19 "$PLY" 1 --engine ply | grep ' round [0-9]' | tee -a "$LOG"
        nice -n 19 "$COZY" 1 --engine cozy | grep ' round [0-9]' | tee -a "$LOG"
    else
        nice -n 19 "$COZY" 1 --engine cozy | grep ' round [0-9]' | tee -a "$LOG"
        nice -n 19 "$PLY" 1 --engine ply | grep ' round [0-9]' | tee -a "$LOG"
    fi
    i=$((i + 1))
done
# Medians per position and engine ("ply NaN" / "cozy NaN" are the engine a process did not time).
for pos in $(awk '{print $1}' "$LOG" | sort -u); do
    p=$(awk -v pos="$pos" '$1 == pos && $6 != "NaN" {print $6}' "$LOG" | sort -g |
        awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    c=$(awk -v pos="$pos" '$1 == pos && $9 != "NaN" {print $9}' "$LOG" | sort -g |
        awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    echo "$pos: median ply (portable) $p Mnps, cozy (pext, native) $c Mnps, ratio $(echo "$p $c" | awk '{printf "%.2f", $1 / $2}')"
done
rm -f "$LOG"
