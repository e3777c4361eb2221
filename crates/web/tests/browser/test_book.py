"""The Othello page with an opening book: a second `ply serve --othello-book FILE` (the binary
of PLY_WEB_BIN, set by tools/web-tests/run.sh) on a small book in ply's own format written
here. The page shows the Book setting and the learn button, ply plays the book's reply at once
(its variation marked "book"), hints mark the book's moves, "Add game to book" grows the book,
and the Book setting off drops the marks; a named level plays without the book. The server
without a book hides the setting."""

import json
import os
import struct
import subprocess
import urllib.request

import pytest

from conftest import skip_or_fail, wait_played
from test_pages import start_new_game, wait_idle

FILES = "abcdefgh"


def square(name):
    """The index of a square: a1 = 0 ... h8 = 63."""
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


# the eight symmetries of the board, as maps of (row, column)
SYMMETRIES = [
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
    lambda r, c: (7 - c, 7 - r),
]


def image(sym, sq):
    r, c = sym(sq // 8, sq % 8)
    return 8 * r + c


def image_bits(sym, bits):
    return sum(1 << image(sym, i) for i in range(64) if bits >> i & 1)


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def ply_book(level, entries):
    """A book file in ply's own format (version 1): `entries` are (board, value, leaf, score)
    with `board` the server's state board string (a1..h8, X black, O white) and side to move,
    `leaf` a square name; each is stored in its canonical form, the smallest of its images."""
    records = []
    for (board, side), value, leaf, score in entries:
        black = sum(1 << i for i, ch in enumerate(board) if ch == "X")
        white = sum(1 << i for i, ch in enumerate(board) if ch == "O")
        p, o = (black, white) if side == "black" else (white, black)
        # a symmetric position has several smallest images: any of them is its canonical form
        sym = min(SYMMETRIES, key=lambda s: (image_bits(s, p), image_bits(s, o)))
        cp, co = image_bits(sym, p), image_bits(sym, o)
        records.append((cp, co, value, level, image(sym, square(leaf)), score))
    records.sort()
    out = b"PLYOBOOK" + struct.pack("<I", 1) + bytes([level, 0, 0, 0])
    out += struct.pack("<Q", len(records))
    for p, o, value, lvl, leaf, score in records:
        out += struct.pack("<QQbBBb", p, o, value, lvl, leaf, score)
    return out + struct.pack("<Q", fnv1a(out))


def state(base_url, moves):
    req = urllib.request.Request(
        base_url + "/api/othello/state",
        data=json.dumps({"moves": moves}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def book_server(base_url, tmp_path_factory):
    """`ply serve` with a level-1 book: after f5, White's F6 (+3 discs); after f5 f6, Black's
    first legal move (its leaf, −3 for Black). Yields (url, the leaf after f5 f6, the book file)."""
    binary = os.environ.get("PLY_WEB_BIN")
    if not binary or not os.path.isfile(binary):
        skip_or_fail("the book browser test: PLY_WEB_BIN is not set (run tools/web-tests/run.sh)")
    a = state(base_url, "f5")
    b = state(base_url, "f5f6")
    leaf = b["legal"][0]
    book = tmp_path_factory.mktemp("book") / "book.ply"
    book.write_bytes(
        ply_book(1, [((a["board"], a["side"]), 3, "f6", 3), ((b["board"], b["side"]), -3, leaf, -3)])
    )
    proc = subprocess.Popen(
        [binary, "serve", "--bind", "127.0.0.1:0", "--hash", "4", "--othello-book", str(book)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    if not line.startswith("ply: serving on "):
        proc.kill()
        pytest.fail(f"ply serve with a book: {line!r} {proc.stderr.read()!r}")
    url = line.split()[3].rstrip("/")
    yield url, leaf, book
    proc.terminate()
    proc.wait(timeout=10)


def test_othello_book_plays_marks_hints_and_learns(page, book_server):
    url, leaf, book = book_server
    page.goto(url + "/othello")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_function("() => !document.getElementById('book-row').hidden")
    assert page.is_enabled("#book")
    assert page.is_visible("#learn")
    assert page.inner_text("#book-info") == "2 positions"
    page.select_option("#level", "1")
    page.select_option("#color", "black")
    page.select_option("#book", "0")
    start_new_game(page)
    # ply's reply comes from the book: F6, marked "book" with its book value
    page.click('rect[data-square="f5"]')
    page.wait_for_function("() => document.getElementById('moves').textContent === 'f5 f6'")
    wait_idle(page)
    assert "book" in page.inner_text("#pv"), page.inner_text("#pv")
    assert "+3" in page.inner_text("#pv")
    # hints: the book's move marked, the others searched
    page.check("#hints")
    page.wait_for_function(
        "() => document.querySelectorAll('#layer text.book-mark').length === 1"
        " && document.querySelectorAll('#layer text.hint').length === "
        " document.querySelectorAll('#layer circle.legal').length"
    )
    assert page.get_attribute("#layer text.book-mark", "data-square") == leaf
    assert page.text_content(f'#layer text.hint.book[data-square="{leaf}"]') == "-3"
    assert page.locator("#layer text.hint:not(.book)").count() >= 1
    # the setting is stored with the game: "off" survives a reload, and hints lose the mark
    page.select_option("#book", "off")
    page.wait_for_function(
        "() => document.querySelectorAll('#layer text.book-mark').length === 0"
        " && document.querySelectorAll('#layer text.hint').length > 0"
    )
    page.reload()
    page.wait_for_function("() => !document.getElementById('book-row').hidden")
    assert page.input_value("#book") == "off"
    page.uncheck("#hints")
    # add the game to the book: the file grows, the page says how much
    page.click(f'rect[data-square="{leaf}"]')
    wait_played(page, 4)
    wait_idle(page)
    size = os.path.getsize(book)
    page.click("#learn")
    page.wait_for_function("() => /Added to the book/.test(document.getElementById('message').textContent)")
    assert os.path.getsize(book) > size
    positions = int(page.inner_text("#book-info").split()[0])
    assert positions > 2
    # a named level plays without the book: the setting waits, ply's reply is searched
    page.select_option("#book", "0")
    page.select_option("#level", "s:expert")
    assert not page.is_enabled("#book")
    start_new_game(page)
    page.click('rect[data-square="f5"]')
    wait_played(page, 2)
    wait_idle(page)
    assert "book" not in page.inner_text("#pv"), page.inner_text("#pv")
    page.select_option("#level", "1")
    assert page.is_enabled("#book")


def test_othello_without_a_book_hides_the_setting(page, base_url):
    page.goto(base_url + "/othello")
    page.wait_for_function("() => document.getElementById('status').textContent.length > 0")
    assert page.is_hidden("#book-row")
    assert page.is_hidden("#learn")
