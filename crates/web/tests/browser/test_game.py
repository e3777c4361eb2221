"""The game controller both pages share (assets/game.js), checked the same way in chess and
Othello: undo and redo against ply (ply's reply and your move go together; ply is not asked
again on redo), undo when ply opened the game and with both sides, reload restores the game
(start position, moves, redo moves, settings) from storage, load/export round trips, and the
move tree: variations made by playing another move, promoted, deleted, kept on reload, loaded
from and exported to PGN."""

import pytest

from conftest import PLAYED, plies
from test_pages import start_new_game, wait_idle

# Per game: the page, its weakest level, the side that moves first, a move from the usual start
# and another, a start position to load with the moves (clicks) played from it and a line of
# the record that shows it, and a text of two moves to load with a third move.
GAMES = {
    "chess": {
        "path": "/chess",
        "level": "n:1000",
        "slow": "ms:1000",
        "first": "white",
        "second": "black",
        "move": ["e2", "e4"],
        "other": ["d2", "d4"],
        "start": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "start_moves": [["e7", "e5"], ["g1", "f3"]],
        "start_side": "Black",
        "two": "1. e4 e5",
        "third": ["g1", "f3"],
        "record": '[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]',
    },
    "othello": {
        "path": "/othello",
        "level": "1",
        "slow": "20",
        "first": "black",
        "second": "white",
        "move": ["f5"],
        "other": ["d3"],
        # the usual board with White to move
        "start": "---------------------------OX------XO--------------------------- O",
        "start_moves": [["f4"], ["f5"]],
        "start_side": "White",
        "two": "f5d6",
        "third": ["c3"],
        "record": "BO[8 ---------------------------O*------*O--------------------------- O]W[F4]",
    },
}


@pytest.fixture(params=sorted(GAMES))
def game(request, page, base_url):
    """The page of one game, storage cleared, its level the weakest."""
    g = GAMES[request.param]
    page.goto(base_url + g["path"])
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#level", g["level"])
    return g


def wait_plies(page, n):
    page.wait_for_function(f"n => ({PLAYED})().length === n", arg=n)
    wait_idle(page)


def wait_line(page, moves):
    """Waits until the moves to the position shown are `moves` (a click on the move list may land
    on a line of the same length as the one shown before it)."""
    page.wait_for_function(f"want => JSON.stringify(({PLAYED})()) === JSON.stringify(want)", arg=moves)
    wait_idle(page)


def click(page, squares):
    for sq in squares:
        page.click(f'rect[data-square="{sq}"]')


def disabled(page, button):
    return page.is_disabled(f"#{button}")


def board(page):
    """Every piece or disc on the board, as square and kind."""
    return page.evaluate(
        "() => [...document.querySelectorAll('#board text.piece, #board circle.disc')]"
        ".map(e => e.dataset.square + ':' + (e.dataset.piece || e.getAttribute('class'))).sort()"
    )


def new_game(page, color):
    page.select_option("#color", color)
    start_new_game(page)


def submit(page, text):
    """Types `text` into the page's load box and presses Load."""
    if not page.is_visible("#load-text"):
        page.click("summary")
    page.fill("#load-text", text)
    page.click("#load")


def load(page, text):
    submit(page, text)
    page.wait_for_function("() => document.getElementById('message').textContent === 'Loaded.'")
    wait_idle(page)


def refused(page, text):
    """Loads `text`, which the page must refuse: returns its error message."""
    submit(page, text)
    page.wait_for_function("() => document.getElementById('message').classList.contains('error')")
    return page.inner_text("#message")


def export(page):
    """The record the Export button gives (the chess page asks the server for it)."""
    page.evaluate("() => { document.getElementById('export-text').value = ''; }")
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value !== ''")
    return page.input_value("#export-text")


def test_undo_takes_back_plys_reply_and_redo_replays_it(page, game):
    new_game(page, game["first"])
    assert disabled(page, "undo") and disabled(page, "redo")
    click(page, game["move"])
    wait_plies(page, 2)
    played, position, first = page.inner_text("#moves"), board(page), plies(page)[0]
    assert page.inner_text("#status").startswith(game["first"].title() + " to move")
    # undo: back to the start, where it is our move, in one step
    page.click("#undo")
    wait_plies(page, 0)
    assert page.inner_text("#status").startswith(game["first"].title() + " to move")
    assert disabled(page, "undo") and not disabled(page, "redo")
    # redo: our move and ply's reply again, the same reply (ply is not asked again)
    page.click("#redo")
    wait_plies(page, 2)
    assert page.inner_text("#moves") == played and board(page) == position
    assert disabled(page, "redo") and not disabled(page, "undo")
    # another move after an undo starts a variation: nothing is left to redo on it, and the
    # first line stays in the move list
    page.click("#undo")
    wait_plies(page, 0)
    click(page, game["other"])
    wait_plies(page, 2)
    assert plies(page)[0] != first
    assert disabled(page, "redo")
    assert first in page.inner_text("#moves") and page.locator("#moves .mv.var").count() == 2


def test_new_game_drops_the_reply_ply_was_thinking_about(page, game):
    page.select_option("#color", "both")
    click(page, game["move"])
    wait_plies(page, 1)
    # you take the side that moved, so ply thinks; a new game is asked for before it answers
    page.select_option("#level", game["slow"])
    with page.expect_response(lambda r: r.url.endswith("/play")) as reply:
        page.select_option("#color", game["first"])
        page.wait_for_function("() => document.getElementById('status').textContent.includes('thinking')")
        start_new_game(page)
        start = board(page)
    reply.value.body()
    # the reply came for the game before: the new one stays at its start, your move
    page.wait_for_timeout(200)
    assert plies(page) == [] and board(page) == start
    assert page.inner_text("#status").startswith(game["first"].title() + " to move")
    assert not disabled(page, "new") and disabled(page, "undo")


def test_undo_when_ply_opened_and_with_both_sides(page, game):
    new_game(page, game["second"])
    wait_plies(page, 1)
    # ply opened: there is no earlier position where we were to move
    assert disabled(page, "undo")
    opening = plies(page)
    if game["path"] == "/chess":
        click(page, ["e7", "e6"])  # legal after any first move
    else:
        click(page, [page.locator("#layer circle.legal").first.get_attribute("data-square")])
    wait_plies(page, 3)
    page.click("#undo")
    wait_plies(page, 1)
    assert plies(page) == opening
    assert page.inner_text("#status").startswith(game["second"].title() + " to move")
    # with both sides, undo and redo go one move at a time
    page.select_option("#color", "both")
    page.click("#redo")
    wait_plies(page, 2)
    page.click("#redo")
    wait_plies(page, 3)
    page.click("#undo")
    wait_plies(page, 2)
    assert not disabled(page, "redo")


def test_reload_restores_the_game(page, game):
    page.select_option("#color", "both")
    load(page, game["start"])
    assert page.inner_text("#status").startswith(game["start_side"] + " to move")
    for squares in game["start_moves"]:
        n = len(plies(page))
        click(page, squares)
        wait_plies(page, n + 1)
    page.click("#undo")
    wait_plies(page, 1)
    moves, position = page.inner_text("#moves"), board(page)
    page.reload()
    wait_plies(page, 1)
    # the start position, the moves, what is left to redo and the settings come back
    assert page.inner_text("#moves") == moves and board(page) == position
    assert page.input_value("#color") == "both" and page.input_value("#level") == game["level"]
    page.click("summary")
    assert game["record"] in export(page)
    assert not disabled(page, "redo")
    page.click("#redo")
    wait_plies(page, 2)


def test_load_export_round_trip(page, game):
    page.select_option("#color", "both")
    load(page, game["two"])
    assert len(plies(page)) == 2
    click(page, game["third"])
    wait_plies(page, 3)
    record, moves, position = export(page), page.inner_text("#moves"), board(page)
    assert record
    start_new_game(page)
    assert plies(page) == []
    load(page, record)
    assert page.inner_text("#moves") == moves and board(page) == position
    assert export(page) == record


def test_undo_closes_a_promotion_choice(page, base_url):
    """A promotion choice left open belongs to its position: undo closes it, and a piece
    chosen afterwards plays nothing."""
    page.goto(base_url + "/chess")
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#color", "both")
    load(page, "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    click(page, ["a1", "b1"])
    wait_plies(page, 1)
    click(page, ["h7", "g7"])
    wait_plies(page, 2)
    click(page, ["a7", "a8"])
    assert page.is_visible("#promo")
    page.click("#undo")
    wait_plies(page, 1)
    assert not page.is_visible("#promo")
    assert plies(page) == ["Kb1"]


def test_variations_are_kept_promoted_deleted_and_stored(page, game):
    page.select_option("#color", "both")
    load(page, game["two"])
    main = plies(page)
    # a move from the start position that is not the line's: a variation beside the first move
    page.click("#moves .mv >> nth=0")
    wait_plies(page, 1)
    page.click("#undo")
    wait_plies(page, 0)
    click(page, game["other"])
    wait_plies(page, 1)
    text = page.inner_text("#moves")
    assert page.locator("#moves .mv.var").count() == 1 and "(" in text and ")" in text, text
    assert [e.split()[-1] for e in page.eval_on_selector_all("#moves .mv:not(.var)", "es => es.map(e => e.textContent)")] == main
    # a click on a move of the main line goes there, with the rest of that line to redo
    page.click("#moves .mv:not(.var) >> nth=1")
    wait_plies(page, 2)
    assert plies(page) == main and disabled(page, "promote") and disabled(page, "redo")
    # back into the variation, which the reload keeps; promoted, it opens the list
    page.click("#moves .mv.var")
    wait_plies(page, 1)
    other = plies(page)[0]
    assert not disabled(page, "promote")
    page.reload()
    wait_plies(page, 1)
    assert page.inner_text("#moves") == text and plies(page) == [other]
    page.click("#promote")
    page.wait_for_function("() => !document.querySelector('#moves .mv').classList.contains('var')")
    assert page.locator("#moves .mv").first.inner_text().split()[-1] == other
    assert page.locator("#moves .mv.var").count() == 2 and disabled(page, "promote")
    # deleting the move shown leaves the other line, and the start position
    page.click("#delete")
    wait_plies(page, 0)
    assert page.locator("#moves .mv").count() == 2 and page.locator("#moves .mv.var").count() == 0
    assert other not in page.inner_text("#moves").split()


def test_a_pgn_with_variations_loads_and_exports_whole(page, base_url):
    page.goto(base_url + "/chess")
    page.evaluate("localStorage.clear()")
    page.reload()
    wait_idle(page)
    page.select_option("#color", "both")
    load(page, '[Event "x"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3) 2... d6) 2. Nf3 *')
    assert page.locator("#moves .mv.var").count() == 4
    assert plies(page) == ["e4", "e5", "Nf3"]
    record = export(page)
    assert "1. e4 e5 (1... c5 2. Nf3 (2. Nc3) 2... d6) 2. Nf3 *" in record, record
    # a variation's move from the list, then a new move there: a variation inside it
    page.click("#moves .mv.var >> text=Nc3")
    wait_line(page, ["e4", "c5", "Nc3"])
    click(page, ["b8", "c6"])
    wait_plies(page, 4)
    assert "(2. Nc3 Nc6)" in export(page)
