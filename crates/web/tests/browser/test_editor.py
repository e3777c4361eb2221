"""The board editor on both pages (assets/editor.js): "Set up a position" opens it on the game's
position, clicks put the chosen piece or disc on the board (the same one again empties the
square), "Play from here" has the server check the position and starts a game from it, and a
position the server refuses leaves the game as it was, with the reason."""

from test_game import board, click, plies
from test_pages import wait_idle


def open_page(page, base_url, path):
    page.goto(base_url + path)
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#color", "both")


def editing(page):
    return page.evaluate("() => document.getElementById('board').classList.contains('editing')")


def open_editor(page):
    page.click("#setup > summary")
    page.wait_for_function("() => document.getElementById('board').classList.contains('editing')")


def put(page, item, squares):
    page.click(f'#setup-palette button[data-item="{item}"]')
    click(page, squares)


def play_from_here(page):
    page.click("#setup-play")
    page.wait_for_function(
        "() => document.getElementById('message').textContent === 'Position set up.'"
    )
    wait_idle(page)
    assert not editing(page)


def refused(page):
    """Plays from the editor's position, which the server refuses: returns the message shown."""
    page.click("#setup-play")
    page.wait_for_function("() => document.getElementById('message').classList.contains('error')")
    assert editing(page)
    return page.inner_text("#message")


def export(page):
    if not page.is_visible("#export"):
        page.click("summary")  # the first one: Load / export
    # the record may come from the server: wait for it
    page.evaluate("() => { document.getElementById('export-text').value = ''; }")
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value !== ''")
    return page.input_value("#export-text")


def right(page, r):
    return f'#setup-castle input[data-right="{r}"]'


def test_chess_editor_sets_up_krk(page, base_url):
    open_page(page, base_url, "/chess")
    open_editor(page)
    # the editor starts from the game's position; Clear empties it
    assert len(board(page)) == 32
    page.click("#setup-clear")
    assert board(page) == []
    # a click puts the chosen piece; the same piece again empties the square
    put(page, "K", ["e1"])
    assert board(page) == ["e1:K"]
    click(page, ["e1"])
    assert board(page) == []
    put(page, "K", ["e1"])
    put(page, "R", ["h1"])
    put(page, "k", ["e8"])
    assert board(page) == ["e1:K", "e8:k", "h1:R"]
    # castling is offered only where king and rook stand
    assert page.is_enabled(right(page, "K"))
    assert all(page.is_disabled(right(page, r)) for r in "Qkq")
    page.check(right(page, "K"))
    page.select_option("#setup-side", "white")
    play_from_here(page)
    assert page.inner_text("#status") == "White to move"
    assert board(page) == ["e1:K", "e8:k", "h1:R"]
    assert plies(page) == []
    record = export(page)
    assert '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]' in record
    # the game is stored with its start, as any other
    page.reload()
    wait_idle(page)
    assert board(page) == ["e1:K", "e8:k", "h1:R"]

    # no black king: refused with the reason, and the game stays as it was
    open_editor(page)
    assert board(page) == ["e1:K", "e8:k", "h1:R"]
    assert page.is_checked(right(page, "K"))
    put(page, ".", ["e8"])
    assert board(page) == ["e1:K", "h1:R"]
    assert "Black has no king" in refused(page)
    page.click("#setup-cancel")
    assert not editing(page)
    assert board(page) == ["e1:K", "e8:k", "h1:R"]
    assert page.inner_text("#status") == "White to move"
    assert export(page) == record

    # the side not to move in check is refused too; with Black to move it plays
    open_editor(page)
    put(page, "R", ["e5"])
    assert "Black is in check, but it is White to move" in refused(page)
    page.select_option("#setup-side", "black")
    play_from_here(page)
    assert page.inner_text("#status") == "Black to move (check)"


def test_chess_editor_start_position_and_en_passant(page, base_url):
    open_page(page, base_url, "/chess")
    open_editor(page)
    page.click("#setup-clear")
    page.click("#setup-start")
    assert len(board(page)) == 32
    assert all(page.is_checked(right(page, r)) for r in "KQkq")
    # en passant: offered behind a pawn that may just have moved two squares, when it can be taken
    page.click("#setup-clear")
    put(page, "K", ["e1"])
    put(page, "k", ["e8"])
    put(page, "P", ["e5"])
    put(page, "p", ["d5"])
    page.select_option("#setup-side", "white")
    options = page.eval_on_selector_all("#setup-ep option", "os => os.map(o => o.value)")
    assert options == ["", "d6"]
    page.select_option("#setup-ep", "d6")
    play_from_here(page)
    assert '[FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"]' in export(page)
    click(page, ["e5", "d6"])
    page.wait_for_function("() => document.getElementById('moves').textContent.includes('exd6')")


def test_othello_editor(page, base_url):
    open_page(page, base_url, "/othello")
    open_editor(page)
    assert len(board(page)) == 4
    page.click("#setup-clear")
    assert board(page) == []
    # a click while editing places a disc, it plays no move
    put(page, "X", ["d4", "e4", "d5"])
    put(page, "O", ["e5", "f5"])
    click(page, ["f5"])  # the same disc again: empty
    assert board(page) == ["d4:disc black", "d5:disc black", "e4:disc black", "e5:disc white"]
    page.select_option("#setup-side", "black")
    play_from_here(page)
    assert page.inner_text("#discs") == "Black 3 · White 1 · 60 empty"
    assert page.inner_text("#status") == "Black to move"
    assert page.locator("#layer circle.legal").count() > 0

    # White to move has no move but Black has: the server passes for White
    open_editor(page)
    page.click("#setup-clear")
    put(page, "X", ["a1"])
    put(page, "O", ["b2"])
    page.select_option("#setup-side", "white")
    play_from_here(page)
    assert page.inner_text("#discs") == "Black 1 · White 1 · 62 empty"
    assert page.inner_text("#status") == "Black to move (White had no move and passed)"
    assert page.inner_text("#moves").split() == ["pa"]

    # neither side can move: the game is over
    open_editor(page)
    page.click("#setup-clear")
    put(page, "X", ["a1"])
    put(page, "O", ["h8"])
    play_from_here(page)
    assert page.inner_text("#status").startswith("Game over: draw 1-1")
