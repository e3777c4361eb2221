"""Timed games on both pages: the clock of the side to move runs, ply answers on its own clock,
undo stops the clocks, a flag that falls ends the game (a draw when the other side has a lone
king), and the clocks come back after a reload."""

import pytest

from test_game import PLAYED, click, load, wait_plies
from test_pages import wait_idle
from test_review import open_page

START = {"chess": ("/chess", "white", "black"), "othello": ("/othello", "black", "white")}


def set_clock(page, control):
    if control in ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20"):
        page.select_option("#clock", control)
    else:
        page.select_option("#clock", "custom")
        page.fill("#clock-custom-text", control)
        page.press("#clock-custom-text", "Enter")
        page.dispatch_event("#clock-custom-text", "change")


def seconds(page, side):
    text = page.inner_text(f"#clock-{side}")
    parts = [float(p) for p in text.split(":")]
    total = 0.0
    for p in parts:
        total = total * 60 + p
    return total


@pytest.mark.parametrize("game", sorted(START))
def test_a_flag_ends_the_game(page, base_url, game):
    path, first, second = START[game]
    open_page(page, base_url, path, "both")
    assert not page.is_visible("#clocks")
    set_clock(page, "0.05+0")  # three seconds each
    assert page.is_visible("#clocks")
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('lost on time')", timeout=15000
    )
    status = page.inner_text("#status")
    assert status == f"Game over: {first.title()} lost on time, {second.title()} wins", status
    assert "flagged" in page.get_attribute(f"#clock-{first}", "class")
    assert page.inner_text(f"#clock-{first}") == "0.0"
    assert seconds(page, second) == pytest.approx(3.0, abs=0.05)
    # no move after the flag
    click(page, ["e2", "e4"] if game == "chess" else ["f5"])
    assert "The game is over." in page.inner_text("#message")
    # a reload keeps the fallen flag; a new game starts new clocks
    page.reload()
    page.wait_for_function("() => document.getElementById('status').textContent.includes('lost on time')")
    page.click("#new")
    # the new game's status comes with the server's answer, later on a busy server
    page.wait_for_function("() => !document.getElementById('status').textContent.startsWith('Game over')")
    assert page.inner_text(f"#clock-{first}") in ("3.0", "2.9", "2.8", "2.7")


def test_a_lone_king_cannot_win_on_time(page, base_url):
    open_page(page, base_url, "/chess", "both")
    load(page, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    set_clock(page, "0.03+0")
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('lost on time')", timeout=15000
    )
    assert page.inner_text("#status") == "Game over: White lost on time, a draw: Black cannot win"


@pytest.mark.parametrize("game", sorted(START))
def test_ply_plays_on_its_clock_and_undo_stops_the_clocks(page, base_url, game):
    path, first, second = START[game]
    open_page(page, base_url, path, first)
    page.select_option("#level", "n:100000" if game == "chess" else "20")
    set_clock(page, "1+1")
    page.wait_for_function(f"() => document.getElementById('clock-{first}').classList.contains('running')")
    click(page, ["e2", "e4"] if game == "chess" else ["f5"])
    wait_plies(page, 2)
    # ply thought on its own clock (a minute, a second a move): less than a minute and a second
    # left, and never more than the clock had
    assert 0 < seconds(page, second) <= 61.0
    page.wait_for_function(f"() => document.getElementById('clock-{first}').classList.contains('running')")
    assert "running" not in page.get_attribute(f"#clock-{second}", "class")
    # undo stops both clocks until the next move
    page.click("#undo")
    wait_plies(page, 0)
    page.wait_for_timeout(300)
    assert page.locator("#clocks .clock.running").count() == 0
    before = seconds(page, first)
    page.wait_for_timeout(1200)
    assert seconds(page, first) == before
    # the clocks come back after a reload, stopped until a move is played
    page.reload()
    wait_idle(page)
    assert page.is_visible("#clocks") and page.input_value("#clock") == "custom"
    assert page.locator("#clocks .clock.running").count() == 0
    click(page, ["d2", "d4"] if game == "chess" else ["d3"])
    wait_plies(page, 2)
    page.wait_for_function(f"() => document.getElementById('clock-{first}').classList.contains('running')")


@pytest.mark.parametrize("game", sorted(START))
def test_a_timed_game_against_ply_ends_on_the_players_flag(page, base_url, game):
    path, first, second = START[game]
    open_page(page, base_url, path, first)
    page.select_option("#level", "n:1000" if game == "chess" else "2")
    set_clock(page, "0.08+0")  # 4.8 seconds each
    click(page, ["e2", "e4"] if game == "chess" else ["f5"])
    wait_plies(page, 2)
    # ply answered on its own clock, which then stopped; the player's runs down to the flag
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('lost on time')", timeout=15000
    )
    status = page.inner_text("#status")
    assert status == f"Game over: {first.title()} lost on time, {second.title()} wins", status
    assert "flagged" in page.get_attribute(f"#clock-{first}", "class")
    assert 0 < seconds(page, second) < 4.8
    assert page.locator("#clocks .clock.running").count() == 0
    # nobody moves after the flag: the player's move is refused, ply does not move
    click(page, ["d2", "d4"] if game == "chess" else ["d3"])
    assert "The game is over." in page.inner_text("#message")
    page.wait_for_timeout(500)
    assert page.evaluate(f"({PLAYED})().length") == 2


def test_a_rating_level_plays_a_weakened_engine(page, base_url):
    open_page(page, base_url, "/chess", "white")
    page.select_option("#level", "elo:1400")
    with page.expect_request("**/api/chess/play") as request:
        click(page, ["e2", "e4"])
    body = request.value.post_data_json
    assert body["elo"] == 1400 and body["seed"] > 0, body
    wait_plies(page, 2)
    # the level is kept with the game
    page.reload()
    wait_idle(page)
    assert page.input_value("#level") == "elo:1400"


def test_a_named_othello_level_plays_a_weakened_engine(page, base_url):
    open_page(page, base_url, "/othello", "black")
    page.select_option("#level", "s:club")
    with page.expect_request("**/api/othello/play") as request:
        click(page, ["f5"])
    body = request.value.post_data_json
    assert body["strength"] == "club" and body["seed"] > 0 and "level" not in body, body
    wait_plies(page, 2)
