"""The pages as a person uses them: Othello played to the end by clicks against level 1, with
hints, solve, undo/redo, reload and export; chess with legal-move highlighting, the engine's
reply, live MultiPV analysis, promotion, undo/redo, reload and PGN export; bad input refused
with a message."""

import os

from conftest import plies, skip_or_fail, wait_played

SCREENSHOTS = os.environ.get("PLY_WEB_SCREENSHOTS")


def wait_idle(page):
    """Waits until ply has answered: the status no longer says it is thinking."""
    page.wait_for_function(
        "() => { const s = document.getElementById('status').textContent;"
        " return s && !s.includes('thinking'); }"
    )


def start_new_game(page):
    """Clicks New game and waits until the new game is on the page (its message) and ply has
    answered. A reply ply was still thinking about for the game before is dropped by the page, so
    what is shown afterwards is the new game's."""
    page.evaluate("document.getElementById('message').textContent = ''")
    page.click("#new")
    page.wait_for_function("() => document.getElementById('message').textContent === 'New game.'")
    wait_idle(page)


def test_index_links_both_games(page, base_url):
    page.goto(base_url + "/")
    assert page.title() == "ply"
    page.click("#link-othello")
    page.wait_for_url("**/othello")
    page.goto(base_url + "/")
    page.click("#link-chess")
    page.wait_for_url("**/chess")


def test_othello_game_to_the_end(page, base_url):
    page.goto(base_url + "/othello")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.select_option("#level", "1")
    page.select_option("#color", "black")
    start_new_game(page)
    assert page.inner_text("#status") == "Black to move"
    # an illegal square is refused with a message, and nothing is played
    page.click('rect[data-square="a1"]')
    assert "Illegal move: a1" in page.inner_text("#message")
    assert len(plies(page)) == 0
    # hints: every legal square gets a score, and a principal variation is shown
    page.check("#hints")
    page.wait_for_function(
        "() => document.querySelectorAll('#layer text.hint').length === 4"
    )
    assert page.inner_text("#pv").strip()
    page.uncheck("#hints")
    # the first move, and ply's answer
    page.click('rect[data-square="f5"]')
    wait_played(page, 2)
    wait_idle(page)
    assert page.inner_text("#status") == "Black to move"
    # undo takes back ply's move and ours; redo plays both again
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#moves .mv.line:not(.future)').length === 0")
    page.click("#redo")
    wait_played(page, 2)
    wait_idle(page)
    solved = False
    reloaded = False
    for _ in range(70):
        wait_idle(page)
        status = page.inner_text("#status")
        if status.startswith("Game over"):
            break
        discs = page.inner_text("#discs")
        empties = int(discs.split("·")[2].split()[0])
        if not solved and empties <= 14:
            page.click("#solve")
            page.wait_for_function(
                "() => /Exact|Not proven/.test(document.getElementById('message').textContent)"
            )
            assert "Exact" in page.inner_text("#message")
            assert page.locator("#layer text.hint").count() >= 1
            solved = True
        if not reloaded and len(plies(page)) >= 12:
            before = page.inner_text("#moves")
            page.reload()
            page.wait_for_function("() => document.getElementById('moves').textContent.length > 0")
            wait_idle(page)
            assert page.inner_text("#moves") == before
            reloaded = True
            if SCREENSHOTS:
                page.check("#hints")
                page.wait_for_function(
                    "() => document.querySelectorAll('#layer text.hint').length > 0"
                )
                page.wait_for_timeout(500)
                page.screenshot(path=os.path.join(SCREENSHOTS, "othello.png"))
                page.uncheck("#hints")
            continue
        legal = page.locator("#layer circle.legal")
        assert legal.count() > 0, status
        square = legal.first.get_attribute("data-square")
        n = len(plies(page))
        page.click(f'rect[data-square="{square}"]')
        wait_played(page, n + 1)
    wait_idle(page)
    assert page.inner_text("#status").startswith("Game over"), page.inner_text("#status")
    assert solved and reloaded
    # the score graph has points, and the game exports as GGF
    assert page.locator("#graph polyline").count() == 1
    page.click("summary")
    page.click("#export")
    assert page.input_value("#export-text").startswith("(;GM[Othello]")


def test_othello_bad_input_is_refused(page, base_url):
    page.goto(base_url + "/othello")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.select_option("#color", "both")
    page.click("summary")
    page.fill("#load-text", "f5d6zz")
    page.click("#load")
    page.wait_for_function("() => document.getElementById('message').classList.contains('error')")
    assert "bad move" in page.inner_text("#message")
    page.fill("#load-text", "f5d6c3")
    page.click("#load")
    page.wait_for_function("() => document.getElementById('moves').textContent === 'f5 d6 c3'")
    assert page.inner_text("#status") == "White to move"


def test_chess_play_analyse_promote(page, base_url):
    page.goto(base_url + "/chess")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.select_option("#level", "n:1000")
    page.select_option("#color", "white")
    start_new_game(page)
    # legal-move highlighting
    page.click('rect[data-square="e2"]')
    assert page.locator("circle.target").count() == 2
    page.click('rect[data-square="e4"]')
    wait_played(page, 2)
    wait_idle(page)
    assert page.inner_text("#moves").startswith("1. e4 ")
    assert "ply played" in page.inner_text("#info")
    # an illegal move is refused
    page.click('rect[data-square="g1"]')
    page.click('rect[data-square="g4"]')
    assert "Illegal move: g1-g4" in page.inner_text("#message")
    # live analysis with two lines
    page.select_option("#multipv", "2")
    page.check("#analyse")
    page.wait_for_function("() => document.querySelectorAll('#pv li').length === 2")
    page.wait_for_function("() => /depth \\d+/.test(document.getElementById('info').textContent)")
    if SCREENSHOTS:
        page.wait_for_timeout(1500)
        page.screenshot(path=os.path.join(SCREENSHOTS, "chess.png"))
    page.uncheck("#analyse")
    # undo both moves, redo them, reload keeps the game
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#moves .mv.line:not(.future)').length === 0")
    page.click("#redo")
    wait_played(page, 2)
    wait_idle(page)
    before = page.inner_text("#moves")
    page.reload()
    page.wait_for_function("() => document.getElementById('moves').textContent.length > 2")
    assert page.inner_text("#moves") == before
    # promotion: the page asks which piece
    page.click("summary")
    page.fill("#load-text", "8/8/8/8/8/8/8/9 w - - 0 1")
    page.click("#load")
    page.wait_for_function("() => document.getElementById('message').classList.contains('error')")
    assert "bad position" in page.inner_text("#message")
    page.fill("#load-text", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    page.click("#load")
    page.wait_for_function("() => document.getElementById('message').textContent === 'Loaded.'")
    page.click('rect[data-square="a7"]')
    page.click('rect[data-square="a8"]')
    assert page.is_visible("#promo")
    page.click('#promo button[data-piece="n"]')
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('a8=N')")
    wait_idle(page)
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value.includes('a8=N')")
    assert '[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]' in page.input_value("#export-text")


def piece_at(page, square):
    el = page.locator(f'text.piece[data-square="{square}"]')
    return el.get_attribute("data-piece") if el.count() else None


def test_chess960_castles_by_clicking_the_rook(page, base_url):
    page.goto(base_url + "/chess")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.select_option("#color", "both")
    page.fill("#n960", "746")
    page.click("#new960")
    page.wait_for_function(
        "() => document.getElementById('message').textContent === 'Chess960 position 746.'"
    )
    assert [piece_at(page, f"{f}1") for f in "abcdefgh"] == list("RKNNBBQR")
    # knights out, then the king clicks its rook: queen-side castling
    for a, b in [("c1", "b3"), ("c8", "b6"), ("d1", "c3"), ("d8", "c6")]:
        n = len(plies(page))
        page.click(f'rect[data-square="{a}"]')
        page.click(f'rect[data-square="{b}"]')
        wait_played(page, n + 1)
    page.click('rect[data-square="b1"]')
    page.click('rect[data-square="a1"]')
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('O-O-O')")
    assert (piece_at(page, "c1"), piece_at(page, "d1"), piece_at(page, "a1")) == ("K", "R", None)
    # a random position (no number typed) is one of the 960
    page.fill("#n960", "")
    page.click("#new960")
    page.wait_for_function(
        "() => /^Chess960 position \\d+\\.$/.test(document.getElementById('message').textContent)"
    )
    assert len(plies(page)) == 0
    page.fill("#n960", "960")
    page.click("#new960")
    assert "0 to 959" in page.inner_text("#message")


def test_chess_tablebase_results(page, base_url):
    if not os.environ.get("PLY_WEB_SYZYGY"):
        skip_or_fail("tablebase step: the server has no Syzygy tables (see run.sh)")
    page.goto(base_url + "/chess")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.select_option("#color", "both")
    assert page.is_hidden("#tb")  # the start position has too many pieces
    page.click("summary")
    page.fill("#load-text", "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")
    page.click("#load")
    page.wait_for_function("() => !document.getElementById('tb').hidden")
    page.wait_for_function("() => document.querySelectorAll('#tb-moves li').length > 0")
    assert page.inner_text("#tb-result").startswith("Tablebase: White wins (DTZ ")
    assert "win" in page.inner_text("#tb-moves li >> nth=0")
    # after a move, Black's view: every reply loses
    page.click('rect[data-square="f1"]')
    page.click('rect[data-square="b5"]')
    page.wait_for_function(
        "() => document.getElementById('tb-result').textContent.startsWith('Tablebase: White wins')"
        " && document.getElementById('status').textContent.startsWith('Black')"
    )
    # the move list is replaced when Black's probe answers, which may come after the status
    # line changed: wait for the new list (its first entry a loss) before reading it all
    page.wait_for_function(
        "() => { const li = document.querySelectorAll('#tb-moves li');"
        " return li.length > 0 && li[0].textContent.includes('loss'); }"
    )
    assert all("loss" in t for t in page.locator("#tb-moves li").all_inner_texts())
    page.fill("#load-text", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    page.click("#load")
    page.wait_for_function(
        "() => document.getElementById('tb-result').textContent === 'Tablebase: draw'"
    )
