"""Game review on both pages (assets/game.js): the Review button reviews the game line, the move
list gets marks and the graph dots, the mistake buttons and clicks go to the position before a
move and show the better one (an arrow in chess, a ringed square in Othello), ply does not move
while you walk through the review, the review survives a reload and goes when the line changes."""

from test_game import board, click, load
from test_pages import wait_idle


def open_page(page, base_url, path, color):
    page.goto(base_url + path)
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#color", color)


def review(page, depth):
    """Reviews the game on the page at the review depth `depth` (a fast one) and waits for it."""
    page.select_option("#review-depth", depth)
    page.click("#review")
    page.wait_for_function(
        "() => document.querySelectorAll('#review-summary .side-summary').length === 2", timeout=60000
    )
    assert page.inner_text("#review-status") == ""
    assert page.is_visible("#review-nav") and not page.is_visible("#review-cancel")


def spans(page):
    return page.eval_on_selector_all("#moves .mv", "es => es.map(e => e.textContent)")


def test_chess_review_marks_the_blunder_and_shows_the_better_move(page, base_url):
    open_page(page, base_url, "/chess", "white")
    load(page, "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5")
    review(page, "20000")
    summary = page.inner_text("#review-summary")
    assert "White: accuracy" in summary and "ACPL" in summary and "1 blunder" in summary, summary
    moves = spans(page)
    assert len(moves) == 6 and moves[0] == "1. e4", moves
    assert "3. Qxe5+??" in moves, moves
    assert page.locator("#moves .mv.blunder").first.inner_text() == "3. Qxe5+??"
    assert page.locator("#graph circle.mark.blunder").count() == 1
    # White's mistakes, one after the other, up to the blunder: the position before it, the
    # later moves kept to redo, and the engine's better move as an arrow
    white_errors = [m for m in moves[0:5:2] if m.endswith("?") or m.endswith("?!")]
    assert white_errors[-1] == "3. Qxe5+??", moves
    for _ in white_errors:
        before = page.inner_text("#review-move")
        page.click("#next-white")
        page.wait_for_function(
            "t => { const s = document.getElementById('review-move').textContent; return s && s !== t; }",
            arg=before,
        )
    text = page.inner_text("#review-move")
    assert text.startswith("3.Qxe5+?? blunder (") and "Best: " in text and "(line: " in text, text
    assert page.inner_text("#status") == "White to move"
    pieces = board(page)
    assert "h5:Q" in pieces and "e5:p" in pieces and "c6:n" in pieces, pieces
    arrow = page.locator("#board g.best-arrow")
    assert arrow.count() == 1
    assert arrow.get_attribute("data-from") + arrow.get_attribute("data-to") != "h5e5"
    assert page.locator("#board g.played-arrow").get_attribute("data-to") == "e5"
    assert not page.is_disabled("#redo") and len(spans(page)) == 6
    assert page.locator("#moves .mv.current").inner_text() == "Nc6"
    # Black's move, where ply (Black) is to move: ply waits while you walk through the review
    page.click("#moves .mv:last-child")
    page.wait_for_function("() => document.getElementById('review-move').textContent.startsWith('3...Nxe5')")
    page.wait_for_timeout(800)
    wait_idle(page)
    assert page.inner_text("#status").startswith("Black to move") and len(spans(page)) == 6
    # the graph's mark goes to the blunder too
    page.click("#graph circle.mark.blunder")
    page.wait_for_function("() => document.getElementById('review-move').textContent.startsWith('3.Qxe5+??')")
    # the review is stored with the game
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#review-summary .side-summary').length === 2")
    assert len(spans(page)) == 6
    # another move starts a variation (ply answers in it); the review stays with its line
    click(page, ["f1", "c4"])
    page.wait_for_function("() => document.querySelectorAll('#moves .mv.var').length === 2")
    wait_idle(page)
    assert page.is_visible("#review-nav") and "1 blunder" in page.inner_text("#review-summary")
    assert page.locator("#moves .mv.var").first.inner_text() == "3. Bc4"
    assert page.locator("#moves .mv.blunder").count() == 1
    # the PGN export keeps the variation
    page.click("summary")
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value.includes('(3. Bc4')")
    # promoted, the variation is the main line and the reviewed moves its variation
    page.click("#promote")
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value.includes('3. Bc4')"
                           " && document.getElementById('export-text').value.includes('(3. Qxe5+')")
    # deleting ply's reply leaves Bc4 with nothing after it; ply waits while you edit
    reply = page.locator("#moves .mv.current").inner_text()
    page.click("#delete")
    page.wait_for_function("() => document.querySelector('#moves .mv.current').textContent === '3. Bc4'")
    page.wait_for_timeout(800)
    assert page.inner_text("#status").startswith("Black to move"), page.inner_text("#status")
    assert reply not in page.locator("#moves .mv").all_inner_texts()


def test_chess_review_can_be_cancelled(page, base_url):
    open_page(page, base_url, "/chess", "both")
    load(page, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O")
    page.select_option("#review-depth", "1000000")
    page.click("#review")
    page.wait_for_function("() => /Reviewing… \\d+\\/17/.test(document.getElementById('review-status').textContent)")
    page.click("#review-cancel")
    assert page.inner_text("#review-status") == "Review cancelled."
    assert not page.is_disabled("#review") and not page.is_visible("#review-nav")
    # the server frees the review's search slot
    page.wait_for_function(
        "async () => { const h = await (await fetch('/api/health')).json(); return h.free === h.slots; }",
        polling=200,
    )


def test_othello_review_marks_and_the_better_square(page, base_url):
    open_page(page, base_url, "/othello", "black")
    load(page, "f5f6c4f4g6b4f7h7h6c6c3d2")
    review(page, "6")
    summary = page.inner_text("#review-summary")
    assert "Black: lost" in summary and "White: lost" in summary and "a move" in summary, summary
    assert "level 6, exact from 12 empties" in summary, summary
    moves = spans(page)
    assert moves[0] == "f5" and len(moves) == 12, moves
    marks = page.locator("#graph circle.mark")
    assert marks.count() >= 1
    assert page.locator("#moves .mv.inaccuracy, #moves .mv.mistake, #moves .mv.blunder").count() == marks.count()
    # a click on a move: the position before it and the best square ringed
    page.click("#moves .mv >> nth=2")
    page.wait_for_function("() => document.getElementById('review-move').textContent.startsWith('3.c4')")
    assert page.inner_text("#status") == "Black to move"
    assert page.locator("#layer circle.disc").count() == 6
    best = page.locator("#layer circle.best-mark")
    assert best.count() == 1
    assert best.get_attribute("data-square") in page.inner_text("#review-move")
    # White's move: ply plays White but waits while you walk through the review
    page.click("#moves .mv >> nth=3")
    page.wait_for_function("() => document.getElementById('review-move').textContent.startsWith('4.f4')")
    page.wait_for_timeout(800)
    wait_idle(page)
    assert page.inner_text("#status") == "White to move" and len(spans(page)) == 12
    # the first marked move, from the graph
    marks.last.click()
    page.wait_for_function(
        "() => / (inaccuracy|mistake|blunder) \\(/.test(document.getElementById('review-move').textContent)"
    )
    assert page.locator("#layer circle.best-mark").count() == 1
