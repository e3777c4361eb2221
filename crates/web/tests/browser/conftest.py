"""Fixtures of the browser tests: the server's address (PLY_WEB_URL, set by
tools/web-tests/run.sh) and a page of Debian's chromium driven by Playwright.

Without chromium or the playwright package the tests skip, printing a line that starts with
SKIPPED; with PLY_STRICT=1 they fail instead."""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("PLY_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def strict():
    """Strict mode, by the rule of ply_testkit::strict: PLY_STRICT set to anything but empty or 0."""
    return os.environ.get("PLY_STRICT", "") not in ("", "0")


def skip_or_fail(why):
    """A test that cannot run: a failure in strict mode, else a visible SKIPPED line and a skip."""
    if strict():
        pytest.fail(f"{why} (PLY_STRICT is set, so this may not skip)")
    print(f"\nSKIPPED {why}")
    pytest.skip(why)


# The moves of the line on the board up to the position shown, without move numbers (the move
# list marks them .line; those after the position shown are also .future). Counting these, not
# the words of the list's text, tells a move the page has played from one it is still sending:
# a click on the board before the page has the new position is read against the old one.
PLAYED = (
    "() => [...document.querySelectorAll('#moves .mv.line:not(.future)')]"
    ".map(e => e.textContent.split(' ').pop())"
)


def plies(page):
    """The moves played to the position shown, without move numbers."""
    return page.evaluate(PLAYED)


def wait_played(page, n):
    """Waits until the page shows at least `n` moves played."""
    page.wait_for_function(f"n => ({PLAYED})().length >= n", arg=n)

def _missing():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no chromium at {CHROMIUM}"
    if not os.environ.get("PLY_WEB_URL"):
        return "PLY_WEB_URL is not set (run tools/web-tests/run.sh)"
    return None


@pytest.fixture(scope="session")
def base_url():
    why = _missing()
    if why:
        skip_or_fail(f"browser tests: {why}")
    return os.environ["PLY_WEB_URL"].rstrip("/")


@pytest.fixture(scope="session")
def browser(base_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(30000)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
