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
# removed however the script ends (an error under set -e, Ctrl-C)
trap 'rm -f "$LOG"' EXIT
trap 'exit 130' INT TERM
i=0
while [ "$i" -lt "$ROUNDS" ]; do
    if [ $((i % 2)) -eq 0 ]; then
        nice -n 19 "$PLY" 1 --engine ply | grep ' round [0-9]' | sed "s/^/$i /" | tee -a "$LOG"
        nice -n 19 "$COZY" 1 --engine cozy | grep ' round [0-9]' | sed "s/^/$i /" | tee -a "$LOG"
    else
        nice -n 19 "$COZY" 1 --engine cozy | grep ' round [0-9]' | sed "s/^/$i /" | tee -a "$LOG"
        nice -n 19 "$PLY" 1 --engine ply | grep ' round [0-9]' | sed "s/^/$i /" | tee -a "$LOG"
    fi
    i=$((i + 1))
done
# Per position: each round's ratio (the two processes of one round ran back to back, so they saw
# about the same machine load), the median of those ratios, and each engine's median Mnps.
# Fields: $1 round, $2 position, $7 ply Mnps, $10 cozy Mnps ("NaN" for the engine not timed).
awk '
    $7 != "NaN" { ply[$2, $1] = $7 }
    $10 != "NaN" { cozy[$2, $1] = $10; pos[$2] = 1; if ($1 > last) last = $1 }
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        for (p in pos) {
            n = 0; line = ""
            for (r = 0; r <= last; r++) {
                n++; q[n] = ply[p, r] / cozy[p, r]; a[n] = ply[p, r]; b[n] = cozy[p, r]
                line = line sprintf(" %.2f", q[n])
            }
            printf "%s: ratios%s; median ratio %.2f; median ply (portable) %.1f Mnps, cozy (pext, native) %.1f Mnps\n",
                p, line, median(q, n), median(a, n), median(b, n)
        }
    }' "$LOG"
