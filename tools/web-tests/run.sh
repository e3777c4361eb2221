#!/usr/bin/env bash
# Browser tests of `ply serve` (issue 38) and of the static site (issue 59): builds the binary and
# starts it on a free loopback port, builds the site (tools/site/build.sh, when the wasm32 target
# and wasm-bindgen are there) and serves it with python's http.server, runs
# crates/web/tests/browser with pytest (Playwright driving Debian's chromium), stops both.
#
#   tools/web-tests/run.sh                 # the tests
#   tools/web-tests/run.sh --screenshots   # the tests, and docs/othello.png, docs/chess.png
#
# Without chromium (/usr/bin/chromium) or the playwright Python package it prints a line starting
# with SKIPPED and exits 0; with PLY_STRICT=1 it fails instead. The server gets the shared Syzygy
# tables (../shared/syzygy/tables) when they are there, for the tablebase step (skipped, or under
# PLY_STRICT=1 failed, without them).
set -euo pipefail
cd "$(dirname "$0")/../.."

# strict mode by ply_testkit's rule: PLY_STRICT set to anything but empty or 0
strict() { [ -n "${PLY_STRICT:-}" ] && [ "${PLY_STRICT}" != "0" ]; }

missing=""
python3 -c "import playwright.sync_api, pytest" 2>/dev/null || missing="the playwright and pytest Python packages"
[ -x "${PLY_CHROMIUM:-/usr/bin/chromium}" ] || missing="${missing:+$missing and }chromium"
if [ -n "$missing" ]; then
    if strict; then
        echo "error: browser tests need $missing (PLY_STRICT is set)" >&2
        exit 1
    fi
    echo "SKIPPED browser tests: no $missing"
    exit 0
fi

if [ "${1:-}" = "--screenshots" ]; then
    mkdir -p docs
    export PLY_WEB_SCREENSHOTS="$PWD/docs"
fi

profile="${PLY_WEB_PROFILE:-ci}"
cargo build --quiet -p ply-web --profile "$profile"
bin="${CARGO_TARGET_DIR:-target}/$profile/ply"
# the book test starts a server of its own, with a book it writes
PLY_WEB_BIN="$(realpath "$bin")"
export PLY_WEB_BIN

# the shared Syzygy tables, when this checkout has them, for the tablebase step of the chess test
syzygy=()
tables="../shared/syzygy/tables"
if [ -d "$tables" ]; then
    syzygy=(--syzygy "$tables")
    export PLY_WEB_SYZYGY=1
elif strict; then
    echo "error: the tablebase step needs $tables (PLY_STRICT is set)" >&2
    exit 1
else
    echo "SKIPPED the tablebase step of the browser tests: no $tables"
fi

log="$(mktemp)"
# without the built-in Othello book, so that the pages' searches are what the tests see
"$bin" serve --bind 127.0.0.1:0 --hash 16 --no-othello-book "${syzygy[@]}" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
    url="$(sed -n 's|^ply: serving on \(http://[^ ]*\).*|\1|p' "$log")"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "error: ply serve stopped" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "error: ply serve printed no address" >&2; exit 1; }
echo "ply serve at $url"

# the static site (tools/site/build.sh) on a plain static file server, when it can be built
site_url=""
site_missing=""
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
    || site_missing="the wasm32-unknown-unknown target"
command -v wasm-bindgen >/dev/null || site_missing="${site_missing:+$site_missing and }the wasm-bindgen CLI"
if [ -z "$site_missing" ]; then
    site="$(mktemp -d)"
    tools/site/build.sh "$site/www"
    site_log="$site/http.log"
    python3 -u -m http.server --bind 127.0.0.1 --directory "$site/www" 0 >"$site_log" 2>&1 &
    site_pid=$!
    trap 'kill "$pid" "$site_pid" 2>/dev/null || true; wait "$pid" "$site_pid" 2>/dev/null || true; rm -rf "$log" "$site"' EXIT
    for _ in $(seq 1 100); do
        port="$(sed -n 's|^Serving HTTP on [^ ]* port \([0-9]*\).*|\1|p' "$site_log")"
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$site_log" >&2; echo "error: the static server printed no port" >&2; exit 1; }
    site_url="http://127.0.0.1:$port"
    echo "static site at $site_url"
else
    # test_site.py skips visibly (fails under PLY_STRICT) without PLY_SITE_URL
    echo "no static site: no $site_missing (tools/site/build.sh)"
fi
PLY_WEB_URL="$url" PLY_SITE_URL="$site_url" python3 -m pytest -q -p no:cacheprovider crates/web/tests/browser "${@:2}"
