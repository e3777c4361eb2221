#!/usr/bin/env bash
# Writes ply's web pages as a static site that needs no server (issue 59): both engines compiled
# to WebAssembly, answering the pages in the browser. Serve OUT_DIR with any static file server
# (`python3 -m http.server -d OUT_DIR`) or as a project page; `file://` does not load module
# scripts.
#
#   tools/site/build.sh OUT_DIR
#
# Needs the wasm32 target (`rustup target add wasm32-unknown-unknown`) and the wasm-bindgen CLI of
# the version in Cargo.lock (`cargo install wasm-bindgen-cli --version 0.2.130`).
#
# OUT_DIR gets index.html, chess.html, othello.html (the links between them rewritten to the
# .html names), favicon.svg and assets/: the pages' scripts with crates/web-wasm/js/backend.js
# in place of the server's, engine-worker.js, and pkg/base and pkg/simd128 (the module without
# and with WebAssembly SIMD, each with its glue).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: tools/site/build.sh OUT_DIR" >&2; exit 2; }
out="$1"
cd "$(dirname "$0")/../.."
root="$PWD"

want="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ -z "$have" ]; then
    echo "error: no wasm-bindgen CLI; install it with: cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi
if [ "$have" != "$want" ]; then
    echo "error: wasm-bindgen $have, but Cargo.lock has $want: cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/assets"
mkdir -p "$out/assets"

# Two modules: one with WebAssembly's 128-bit SIMD (the compiler vectorises the network's loops:
# twice the chess rate), and one without for browsers that lack it; backend.js picks one once.
# The SIMD build has a target folder of its own, so that both stay built.
target="${CARGO_TARGET_DIR:-$root/target}"
for flavour in base simd128; do
    if [ "$flavour" = simd128 ]; then
        dir="$target/wasm-simd128"
        flags="-C target-feature=+simd128"
    else
        dir="$target"
        flags=""
    fi
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
        cargo build --quiet -p ply-web-wasm --lib --target wasm32-unknown-unknown --profile wasm
    wasm-bindgen "$dir/wasm32-unknown-unknown/wasm/ply_web_wasm.wasm" --target web --no-typescript \
        --out-dir "$out/assets/pkg/$flavour"
done

assets=crates/web/assets
for f in "$assets"/*.js "$assets"/*.css; do
    cp "$f" "$out/assets/"
done
cp crates/web-wasm/js/backend.js crates/web-wasm/js/engine-worker.js "$out/assets/"
cp "$assets/favicon.svg" "$out/"
for page in index chess othello; do
    sed -e 's|href="chess"|href="chess.html"|g' -e 's|href="othello"|href="othello.html"|g' \
        "$assets/$page.html" >"$out/$page.html"
done
base="$(wc -c <"$out/assets/pkg/base/ply_web_wasm_bg.wasm")"
simd="$(wc -c <"$out/assets/pkg/simd128/ply_web_wasm_bg.wasm")"
echo "site: $out (WebAssembly: $base bytes, $simd with SIMD128)"
