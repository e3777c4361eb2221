#!/usr/bin/env python3
"""Node rates of the browser build against the native programs, on this machine, in one run
(issue 59): each engine's deterministic bench (the same positions, so the same node counts,
which the script checks) in headless Chromium (Debian's, through Playwright) on the static
site, and the native `bench` of the programs given; then the site's load time.

    tools/site/build.sh /tmp/site
    cargo build --release -p ply-othello-cli -p ply-chess-cli
    python3 tools/site/bench.py /tmp/site [--rounds 3] [--othello target/release/ply-othello]
                                          [--chess target/release/ply-chess]

Rounds alternate the native runs (the dispatched kernels, then `--portable`) and the browser's
(both modules: without and with SIMD128); the best rate of each is reported with its ratios to
the two native ones. Every run is single-threaded.
"""

import argparse
import functools
import http.server
import json
import subprocess
import threading
import time

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def native(binary, portable=False):
    args = [binary, "bench", "--json"] + (["--portable"] if portable else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["nodes"], r["nps"]


BENCH = """async ([flavour, game]) => {
  const m = await import(`./assets/pkg/${flavour}/ply_web_wasm.js`);
  await m.default();
  return JSON.parse(m.bench(game));
}"""
FLAVOURS = ["base", "simd128"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--othello", default="target/release/ply-othello")
    ap.add_argument("--chess", default="target/release/ply-chess")
    a = ap.parse_args()
    server, url = serve(a.site)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        # load time: from navigation until the page shows its game (module compiled, first state)
        loads = []
        for name in ["othello", "chess"]:
            for _ in range(3):
                page.goto(url + "/index.html")
                t = time.perf_counter()
                page.goto(f"{url}/{name}.html")
                page.wait_for_function(
                    "() => / to move/.test(document.getElementById('status').textContent)")
                loads.append((name, time.perf_counter() - t))
        page.goto(url + "/index.html")
        for game, binary in [("othello", a.othello), ("chess", a.chess)]:
            best = {k: 0 for k in ["native", "native portable"] + FLAVOURS}
            for _ in range(a.rounds):
                for kind, portable in [("native", False), ("native portable", True)]:
                    nodes, nps = native(binary, portable)
                    best[kind] = max(best[kind], nps)
                for flavour in FLAVOURS:
                    w = page.evaluate(BENCH, [flavour, game])
                    if w["nodes"] != nodes:
                        raise SystemExit(f"{game} ({flavour}): {w['nodes']} nodes in the browser, "
                                         f"{nodes} native")
                    best[flavour] = max(best[flavour], w["nps"])
            print(f"{game}: {nodes} nodes")
            for kind, nps in best.items():
                vs = ", ".join(f"{nps / best[ref]:.2f} of {ref}" for ref in ["native", "native portable"])
                print(f"  {kind:16} {nps:>11} nodes/s ({vs})")
        for name, secs in loads:
            print(f"load {name}.html: {secs * 1000:.0f} ms")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
