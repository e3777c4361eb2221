"""The static site (tools/site/build.sh, issue 59): the same pages with ply compiled to
WebAssembly, opened from a plain static file server (PLY_SITE_URL, python's http.server, set by
tools/web-tests/run.sh) with no ply server behind it. Both games are played to their end by
clicks with ply's replies, hints, a review and a long analysis stream in, the analysis is
stopped (its worker ends), and bad positions are refused on the page."""

import os

import pytest

from conftest import plies, skip_or_fail, wait_played
from test_game import load, refused
from test_pages import start_new_game, wait_idle
from test_review import review


@pytest.fixture(scope="session")
def site_url(base_url):
    url = os.environ.get("PLY_SITE_URL")
    if not url:
        skip_or_fail("static site tests: PLY_SITE_URL is not set (tools/web-tests/run.sh sets it "
                     "when it could build the site: the wasm32 target and wasm-bindgen are needed)")
    return url.rstrip("/")


def modules(page):
    """Records the WebAssembly modules the page fetches."""
    fetched = []
    page.on("request", lambda r: fetched.append(r.url) if r.url.endswith(".wasm") else None)
    return fetched


@pytest.fixture
def site(page, site_url):
    """A page of the static site whose requests never reach an API: the static server has none,
    and the test fails on any request for /api/. Chromium has WebAssembly SIMD: only the SIMD128
    module may be fetched."""
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    fetched = modules(page)
    yield page
    assert not asked, f"requests for an API: {asked}"
    assert fetched and all("/pkg/simd128/" in u for u in fetched), fetched


def open_site(page, url, name, level, color):
    page.goto(f"{url}/{name}.html")
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#level", level)
    page.select_option("#color", color)
    start_new_game(page)


def moves(page):
    return [m for m in page.inner_text("#moves").split() if not m.endswith(".")]


def test_othello_game_to_the_end_with_hints(site, site_url):
    open_site(site, site_url, "othello", "1", "black")
    # hints: every legal square gets a score
    site.check("#hints")
    site.wait_for_function(
        "() => document.querySelectorAll('#layer text.hint').length > 0 &&"
        " document.querySelectorAll('#layer text.hint').length ==="
        " document.querySelectorAll('#layer circle.legal').length"
    )
    site.uncheck("#hints")
    # a move ply's way is refused with a message
    site.click('rect[data-square="a1"]')
    assert "Illegal move: a1" in site.inner_text("#message")
    for _ in range(70):
        if "Game over" in site.inner_text("#status"):
            break
        legal = site.locator("#layer circle.legal")
        if legal.count():
            n = len(plies(site))
            site.click(f'rect[data-square="{legal.first.get_attribute("data-square")}"]')
            wait_played(site, n + 1)
        wait_idle(site)
    assert "Game over" in site.inner_text("#status"), site.inner_text("#status")
    assert len(moves(site)) >= 50
    # the finished game reviewed: both sides summed up
    review(site, "6")


def test_chess_game_to_mate_and_a_long_analysis_stopped(site, site_url):
    closed = []
    site.on("worker", lambda w: w.on("close", lambda _: closed.append(w.url)))
    open_site(site, site_url, "chess", "n:1000", "white")
    # a first move and ply's reply
    site.click('rect[data-square="e2"]')
    site.click('rect[data-square="e4"]')
    wait_played(site, 2)
    wait_idle(site)
    assert "ply played" in site.inner_text("#info")
    # a 30-second analysis streams its depths; switched off, its worker ends at once
    closed.clear()
    site.check("#analyse")
    site.wait_for_function("() => /depth \\d+/.test(document.getElementById('info').textContent)")
    site.wait_for_function("() => document.querySelectorAll('#pv li').length >= 1")
    site.uncheck("#analyse")
    for _ in range(50):
        if closed:
            break
        site.wait_for_timeout(100)
    assert closed, "the analysis worker was not ended"
    # a bad FEN is refused on the page
    assert "bad position" in refused(site, "8/8/8/8/8/8/8/9 w - - 0 1")
    # to the end: Black (ply) can only push its pawn, then Qb7 mates
    load(site, "k7/p7/2K5/8/8/8/8/1Q6 b - - 0 1")
    site.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 1")
    wait_idle(site)
    site.click('rect[data-square="b1"]')
    site.click('rect[data-square="b7"]')
    site.wait_for_function("() => document.getElementById('moves').textContent.includes('Qb7#')")
    wait_idle(site)
    assert "checkmate" in site.inner_text("#status").lower(), site.inner_text("#status")


def test_othello_bad_board_refused_and_the_shipped_book_plays(site, site_url):
    open_site(site, site_url, "othello", "1", "white")
    # the shipped book is on (the static site's health says so): ply's first move comes from it
    site.wait_for_function("() => !document.getElementById('book-row').hidden")
    site.wait_for_function("() => document.getElementById('moves').textContent.trim().length >= 2")
    wait_idle(site)
    assert "book" in site.inner_text("#pv"), site.inner_text("#pv")
    assert not site.is_visible("#learn")
    assert "bad position" in refused(site, "X" * 30 + "O" * 20 + "Z" * 14 + " X")


def test_a_browser_without_simd_gets_the_module_without(page, site_url):
    # a browser that refuses the SIMD probe (older Safari) loads the other module
    page.add_init_script("WebAssembly.validate = () => false;")
    fetched = modules(page)
    open_site(page, site_url, "chess", "n:1000", "white")
    page.click('rect[data-square="d2"]')
    page.click('rect[data-square="d4"]')
    wait_played(page, 2)
    wait_idle(page)
    assert fetched and all("/pkg/base/" in u for u in fetched), fetched


# Each engine's bench in the page's own thread: the module's `bench`, as tools/site/bench.py runs it.
BENCH = """async ([flavour, game]) => {
  const m = await import(`./assets/pkg/${flavour}/ply_web_wasm.js`);
  await m.default();
  return JSON.parse(m.bench(game));
}"""


def signatures():
    """The native benches' node counts (bench-signatures.txt, the lines without arguments)."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "bench-signatures.txt")
    with open(path) as f:
        lines = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return {words[0]: int(words[1]) for words in lines if len(words) == 2}


def test_both_modules_search_as_the_native_programs(page, site_url):
    # the same positions give the same node counts: the same search and evaluation, SIMD or not
    want = signatures()
    page.goto(f"{site_url}/index.html")
    for flavour in ["base", "simd128"]:
        for game in ["othello", "chess"]:
            got = page.evaluate(BENCH, [flavour, game])
            assert got["nodes"] == want[f"ply-{game}"], (flavour, game, got)
