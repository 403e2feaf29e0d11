"""The companion page as a person sees it, in headless Chromium at a desktop's size (1280 x 800)
and a phone's (390 x 844): the mirror board's coloured pieces, no sideways scroll, the legend of
the LED colours (compared with the firmware's palette), the state said in words for a piece on a
wrong square, an out-of-sync board, a takeback half-done, a castling's wait for the king and a
Sprint tile the rules refused, the move list to click through, and the PGN's headers.

The hands are the simulated board's own (the page's drags, or the same actions sent from the
test). Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

import json
import os
import time

import pytest

from companion_support import (ARTIFACTS, BROWSER_TESTS, ScriptedBoard, chromium, finger_drag, one_size, served as serve_board,
                                start_game, status_reply)
from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from host_tools.companion.boards import SimulatedBoard
from host_tools.companion.engine import OWN, OWN_COMMAND
from scacchiera.leds.names import NAMES as LED_NAMES
from scacchiera.leds.palette import default_colours

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def serving(b):
    """``b`` served on a free port, its page's address in ``b.url``; a scripted board answers first."""
    with serve_board(b) as url:
        b.url = url + "/"
        if isinstance(b, ScriptedBoard):
            b.answer()
        yield b


@pytest.fixture
def board(request):
    b = SimulatedBoard()
    if request.node.get_closest_marker("usb_view"):
        b.hands = False       # shown as a board on USB is: the mirror is the board, the tests' hands move it
    yield from serving(b)


def open_page(browser, board, size="desktop", context=None):
    width, height = SIZES[size]
    page = (context or browser.new_context(viewport={"width": width, "height": height})).new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(board.url)
    page.wait_for_selector("#conn:text('connected'), #conn:text('connesso')")
    page.wait_for_selector("body:not(.mirror-on) #board .piece, body.mirror-on #mirror piece")   # the one board on screen
    page.errors = errors
    return page


def shot(page, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, "page-%s.png" % name), full_page=True)


def hands(board, *steps):
    """Simulated hands: ("lift", "e2"), ("place", "e4"), ("wait", ms) — wait lets simulated time pass."""
    for step in steps:
        if step[0] == "wait":
            board.act("clock", {"advance": step[1]}) if board.speed == 0 else time.sleep(step[1] / 1000)
        else:
            board.act(step[0], dict(zip(("square", "piece"), step[1:])))


def said(page, text, timeout=8000):
    """Wait until the words beside the mirror say ``text``; returns them."""
    page.wait_for_function("t => document.getElementById('explain').textContent.includes(t)", arg=text,
                           timeout=timeout, polling=50)
    return page.locator("#explain").text_content()


# How many squares of the mirror show a class (chessground hides squares it no longer uses).
MARKED = "Array.from(document.querySelectorAll('#mirror square.%s')).filter(e => e.style.display !== 'none').length"


SHOWN_MOVES = "Array.from(document.querySelectorAll('#moves .mv')).map(b => b.textContent).join(' ')"


def moves_are(page, sans, timeout=8000):
    """Wait until the move list reads ``sans``; on a timeout, say what it read instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function("want => %s === want" % SHOWN_MOVES, arg=" ".join(sans), timeout=timeout, polling=50)
    except PlaywrightTimeout:
        raise AssertionError("the move list reads %r, not %r" % (page.evaluate(SHOWN_MOVES), " ".join(sans)))


@pytest.mark.usb_view
@pytest.mark.parametrize("size", SIZES)
def test_mirror_legend_and_no_sideways_scroll(browser, board, size):
    page = open_page(browser, board, size)
    # chessground's pieces, coloured: 8 white pawns, 8 black pawns, both kings.
    assert page.locator("#mirror piece.white.pawn").count() == 8
    assert page.locator("#mirror piece.black.pawn").count() == 8
    assert page.locator("#mirror piece.white.king").count() == 1
    assert page.locator("#mirror piece.black.king").count() == 1
    # Nothing wider than the window: no sideways scroll; one board on screen, inside it.
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.locator("#board").is_hidden()
    box = page.locator("#mirror").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)
    # The legend: one entry per LED meaning, the palette's colour and blinking, in words.
    entries = page.evaluate("""Array.from(document.querySelectorAll('#legend li')).map(li => ({
        meaning: li.dataset.meaning, colour: getComputedStyle(li.querySelector('.swatch')).backgroundColor,
        blinks: li.querySelector('.swatch').classList.contains('blink'), words: li.textContent}))""")
    assert [e["meaning"] for e in entries] == list(LED_NAMES[1:])
    for e in entries:
        r, g, b, blink = default_colours()[LED_NAMES.index(e["meaning"])]
        assert e["colour"] == "rgb(%d, %d, %d)" % (r, g, b), e
        assert e["blinks"] == bool(blink), e
        assert e["words"].strip() != e["meaning"], "no words for %s" % e["meaning"]
    assert page.locator("#legend-box").is_visible()
    shot(page, "start-" + size)
    assert page.errors == []


@pytest.mark.usb_view
@pytest.mark.parametrize("size", SIZES)
def test_a_piece_on_a_wrong_square_is_said_with_its_squares(browser, board, size):
    page = open_page(browser, board, size)
    hands(board, ("lift", "e2"), ("place", "e5"))
    text = said(page, "put the white pawn back on e2")
    assert "on e5" in text
    # The diagram marks both squares: e5 to empty, e2 to fill.
    page.wait_for_selector("#mirror square.mark-empty")
    page.wait_for_selector("#mirror square.mark-fill")
    assert page.locator("#explain.act").count() == 1
    # The words are in sight without scrolling: under the board on a phone, beside it on a desktop.
    words = page.locator("#explain").bounding_box()
    mirror = page.locator("#mirror").bounding_box()
    assert words["y"] + words["height"] <= page.evaluate("innerHeight"), words
    if size == "phone":
        assert words["y"] >= mirror["y"] + mirror["height"]
    else:
        assert words["x"] >= mirror["x"] + mirror["width"] and words["y"] < mirror["y"] + mirror["height"]
    shot(page, "error-" + size)
    hands(board, ("lift", "e5"), ("place", "e2"))
    said(page, "White to move.")
    page.wait_for_function("() => " + MARKED % "mark-fill" + " === 0", timeout=3000, polling=50)


@pytest.mark.usb_view
def test_out_of_sync_after_the_undo_button(browser, board):
    page = open_page(browser, board, "phone")
    hands(board, ("lift", "e2"), ("place", "e4"))
    moves_are(page, ["e4"])
    board.act("press", {"button": "undo"})        # the game takes e4 back: the pawn must follow
    text = said(page, "do not match the game")
    assert "Take the piece off e4" in text
    assert "Put the white pawn on e2" in text
    shot(page, "out-of-sync-phone")
    hands(board, ("lift", "e4"), ("place", "e2"))
    said(page, "White to move.")


@pytest.mark.usb_view
def test_a_takeback_half_done_says_the_position_to_restore(browser, board):
    page = open_page(browser, board)
    board.act("option", {"name": "takeback", "value": True})
    hands(board, ("lift", "e2"), ("place", "e4"), ("wait", 400))
    hands(board, ("lift", "d7"), ("place", "d5"), ("wait", 400))
    hands(board, ("lift", "d5"), ("tray",), ("wait", 200), ("lift", "e4"), ("wait", 200), ("place", "d5"))
    moves_are(page, ["e4", "d5", "exd5"])
    hands(board, ("lift", "d5"), ("wait", 200), ("place", "e4"))    # the white pawn back first
    text = said(page, "Taking back exd5")
    assert "put the white pawn back on e4 and the black pawn back on d5" in text
    assert "to keep exd5, put the white pawn back on d5" in text
    shot(page, "takeback-desktop")


@pytest.mark.usb_view
def test_the_castling_wait_is_said(browser, board):
    board.act("new", {"fen": "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"})
    board.act("clock", {"speed": 0})                 # step mode: the wait lasts until the test moves time
    page = open_page(browser, board)
    hands(board, ("lift", "h1"), ("wait", 100), ("place", "f1"), ("wait", 400))
    text = said(page, "waits a moment")
    assert "put the king on g1" in text
    shot(page, "castling-wait-desktop")
    hands(board, ("lift", "e1"), ("wait", 100), ("place", "g1"), ("wait", 1500))
    moves_are(page, ["O-O"])


@pytest.mark.usb_view
def test_the_move_the_board_asks_for_is_an_arrow(browser, board):
    page = open_page(browser, board)
    board.act("send", {"line": json.dumps({"cmd": "show", "uci": "g1f3"})})   # as the computer does
    text = said(page, "The board asks for the white knight from g1 to f3")
    # chessground draws the arrow as an SVG line with an arrow head.
    page.wait_for_function("document.querySelectorAll('#mirror svg line[marker-end]').length === 1", polling=50)
    shot(page, "show-desktop")
    # Another move than the one asked for: not taken, and the words say what the board waits for.
    hands(board, ("lift", "e2"), ("wait", 100), ("place", "e4"), ("wait", 600))
    text = said(page, "The board takes only the move it asks for: g1 to f3")
    assert "put the white pawn back on e2" in text and board.state()["moves"] == []
    hands(board, ("lift", "e4"), ("wait", 100), ("place", "e2"), ("wait", 400))
    said(page, "The board asks for the white knight from g1 to f3")
    hands(board, ("lift", "g1"), ("wait", 100), ("place", "f3"))
    moves_are(page, ["Nf3"])
    page.wait_for_function("document.querySelectorAll('#mirror svg line[marker-end]').length === 0", polling=50)
    assert "asks for" not in page.locator("#explain").text_content()


@pytest.mark.usb_view
def test_a_pending_promotion_is_said(browser, board):
    board.act("new", {"fen": "8/P6k/8/8/8/8/8/4K3 w - - 0 1"})
    board.act("clock", {"speed": 0})
    page = open_page(browser, board, "phone")
    hands(board, ("lift", "a7"), ("wait", 100), ("place", "a8"), ("wait", 100))
    text = said(page, "Promotion on a8")
    assert "counts as a queen" in text and "tap it" in text
    shot(page, "promotion-phone")
    hands(board, ("wait", 3000))
    moves_are(page, ["a8=Q"])


@pytest.mark.usb_view
def test_a_sprint_tile_the_rules_refuse_is_explained(browser, board):
    board.act("new", {"variant": "sprint", "seed": 5})   # White's tile just drawn: a queen (turn 1)
    page = open_page(browser, board)
    hands(board, ("place", "d3", "Q"))
    moves_are(page, ["P@d3"])
    text = said(page, "The tile just drawn is a queen")
    assert "a queen may not be placed before turn 8 (this is turn 1)" in text
    assert "took a pawn" in text
    assert "Black's tile just drawn" in text


@pytest.mark.usb_view
def test_a_sprint_tile_chosen_by_a_tap_is_no_refusal(browser, board):
    """The knight just drawn is allowed on d3; the player taps the placed tile to make it a pawn:
    the words say the choice, never that the rules refused the knight."""
    board.act("new", {"variant": "sprint", "seed": 8})   # White's tile just drawn: a knight; the hand N, P
    page = open_page(browser, board)
    hands(board, ("place", "d3", "N"), ("wait", 300))
    said(page, "the tile placed on d3 counts as a knight")
    hands(board, ("lift", "d3"), ("wait", 100), ("place", "d3"), ("wait", 300))   # a tap: the next tile
    text = said(page, "the tile placed on d3 counts as a pawn")
    assert "just drawn is a knight, but" not in text
    moves_are(page, ["P@d3"])
    text = said(page, "Black to move.")
    assert "but" not in text and "took a pawn" not in text


def test_the_move_list_shows_earlier_positions(browser, board):
    page = open_page(browser, board)
    for fr, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        hands(board, ("lift", fr), ("place", to), ("wait", 400))
    moves_are(page, ["e4", "e5", "Nf3"])
    page.locator("#moves .mv", has_text="e4").first.click()
    page.wait_for_selector("#viewing:not([hidden])")
    assert "after 1. e4" in page.locator("#viewing").text_content()
    # The mirror shows the position after 1. e4: the pawn on e4, e7 still home, the knight on g1.
    assert page.locator("#mirror piece.white.knight").count() == 2
    assert page.evaluate(MARKED % "last-move") == 2
    shot(page, "move-list-desktop")
    page.locator("#forward").click()
    assert "after 1… e5" in page.locator("#viewing").text_content()
    page.locator("#live").click()
    page.wait_for_selector("#viewing", state="hidden")


def test_a_phone_plays_with_its_scaled_board_and_taps_the_move_list(browser, board):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = open_page(browser, board, context=context)
    square = page.locator(".sq[data-square='e2']").bounding_box()
    assert square["width"] < 64                  # the board shrank to fit
    for fr, to in (("e2", "e4"), ("e7", "e5")):
        mouse_drag(page, fr, to)
        time.sleep(0.4)
    moves_are(page, ["e4", "e5"])
    page.locator("#moves .mv", has_text="e4").first.tap()
    page.wait_for_selector("#viewing:not([hidden])")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    shot(page, "phone-moves")
    context.close()


def mouse_drag(page, fr, to):
    """The mouse takes the piece on the simulated board's ``fr`` to ``to`` (the page's own hands),
    once the page shows that piece and an empty hand, as a person waits to see the last move land
    (the page decides at the press whether it lifts a piece, from the newest state it has)."""
    page.wait_for_function(
        """sq => { const s = window.scacchiera.state;
                   const i = 'abcdefgh'.indexOf(sq[0]) + 8 * (Number(sq[1]) - 1);
                   return s && !s.hand && !!s.pieces[i]; }""", arg=fr, polling=50)
    page.locator("#board").scroll_into_view_if_needed()
    a = page.locator(".sq[data-square='%s']" % fr).bounding_box()
    b = page.locator(".sq[data-square='%s']" % to).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
    page.mouse.up()


def test_pgn_headers_names_and_settings_kept(browser, board):
    """A game played through the page with its players named: the page's PGN export is, byte for
    byte, the game as the board archived it, with the host's headers (names, site, date, time control)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = open_page(browser, board, context=context)
    page.locator("summary", has_text="Options").click()
    page.fill("#clock", "5+3")
    page.press("#clock", "Enter")
    page.wait_for_function("window.scacchiera.state.options.clock === '5+3'", polling=50)
    mouse_drag(page, "f2", "f3")
    moves_are(page, ["f3"])
    page.locator("summary", has_text="Players and export").click()
    page.fill("#white-name", "Anna Rossi")
    page.fill("#black-name", "Bruno")
    page.fill("#site", "Casa \"al mare\"")
    page.select_option("#lang", "it")
    page.wait_for_function("document.getElementById('pgn').value.includes('Anna Rossi')", polling=50)
    for fr, to in (("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        mouse_drag(page, fr, to)
    moves_are(page, ["f3", "e5", "g4", "Dh4#"])
    page.wait_for_function("document.getElementById('pgn').value.includes('[Result \"0-1\"]')", polling=50)
    text = page.locator("#pgn").input_value()
    headers = dict(line[1:-1].split(" ", 1) for line in text.split("\n\n")[0].split("\n"))
    assert headers["White"] == '"Anna Rossi"' and headers["Black"] == '"Bruno"'
    assert headers["Site"] == '"Casa \\"al mare\\""'
    assert headers["Event"] == '"Scacchiera"' and headers["Result"] == '"0-1"'
    assert headers["TimeControl"] == '"300+3"'
    assert headers["Date"] == time.strftime('"%Y.%m.%d"')      # the host's day (the board has no clock)
    assert text.split("\n\n")[1] == "1. f3 e5 2. g4 Qh4# 0-1\n"
    # The board's archive has the very same text: its last archived game, asked on its serial line.
    games = board_reply(board, {"cmd": "games"})["games"]
    archived = board_reply(board, {"cmd": "pgn", "game": games[-1]["game"]})["pgn"]
    assert archived == text
    assert board_pgn(board) == text
    # Reloaded: the names and the language are still there.
    page.reload()
    page.wait_for_selector("#conn:text('connected'), #conn:text('connesso')")
    assert page.locator("#white-name").input_value() == "Anna Rossi"
    assert page.locator("#lang").input_value() == "it"
    # A new game restarts the simulated board with its default letters: the page gives it the saved
    # ones, and the companion the names (the new game's tags).
    start_game(page)
    page.wait_for_function("window.scacchiera.state.moves.length === 0 && window.scacchiera.state.options.lang === 'it'",
                           polling=50, timeout=8000)
    hands(board, ("lift", "g1"), ("place", "f3"), ("wait", 400))
    moves_are(page, ["Cf3"])
    assert page.locator("#lang").input_value() == "it" and board.state()["options"]["lang"] == "it"
    page.wait_for_function("document.getElementById('pgn').value.includes('Anna Rossi')", polling=50)
    assert page.locator("#pgn").input_value() == board_pgn(board)
    context.close()


def test_the_players_are_the_board_games_and_every_page_shows_them(browser, board):
    """Names typed on one page become the board's game's tags; another page shows them; a companion
    that restarts (a new Players panel) takes them back from the board's game, and a page shows them
    again: one source, the board's game, and no copy kept in the browser."""
    from host_tools.companion.players import Players
    first = open_page(browser, board)
    first.locator("summary", has_text="Players and export").click()
    first.fill("#white-name", "Anna")
    first.fill("#black-name", "Bruno")
    first.fill("#site", "Casa")
    deadline = time.monotonic() + 8
    while '[Site "Casa"]' not in board.state()["pgn"]:
        assert time.monotonic() < deadline, board.state()["pgn"]
        time.sleep(0.05)
    text = board_pgn(board)
    assert '[White "Anna"]' in text and '[Black "Bruno"]' in text
    assert time.strftime('[Date "%Y.%m.%d"]') in text and '[TimeControl "-"]' in text
    second = open_page(browser, board)
    second.wait_for_function("document.getElementById('white-name').value === 'Anna'", polling=50)
    assert second.locator("#black-name").input_value() == "Bruno"
    assert second.locator("#pgn").input_value() == text
    assert "Anna" not in second.evaluate("JSON.stringify(localStorage)")     # nothing kept in the browser
    board.players = Players()                           # the companion restarted: it knows no names
    board.model.keep()                                  # (as after the board's next reply): taken from its game
    third = open_page(browser, board)
    third.wait_for_function("document.getElementById('white-name').value === 'Anna'", polling=50)
    assert board.players.given == {"white": "Anna", "black": "Bruno", "site": "Casa", "rated": False}


def test_a_rated_game_has_no_hints_and_says_so_in_its_pgn(browser, board):
    """The Players panel's "rated (ladder)": the board's suggest option off (the hint button
    disabled), its PGN's Event "Scacchiera rated" for the ladder's import; unticked, both back."""
    page = open_page(browser, board)
    assert board.state()["options"]["suggest"] is True and not page.locator("#hint").is_disabled()
    page.locator("summary", has_text="Players and export").click()
    page.check("#rated")
    page.wait_for_function("window.scacchiera.state.options.suggest === false", polling=50)
    page.wait_for_function("document.getElementById('hint').disabled", polling=50)
    page.wait_for_function("document.getElementById('pgn').value.includes('[Event \"Scacchiera rated\"]')",
                           polling=50)
    assert board.state()["options"]["suggest"] is False
    assert '[Event "Scacchiera rated"]' in board_pgn(board)
    page.uncheck("#rated")
    page.wait_for_function("window.scacchiera.state.options.suggest === true", polling=50)
    page.wait_for_function("!document.getElementById('hint').disabled", polling=50)
    page.wait_for_function("document.getElementById('pgn').value.includes('[Event \"Scacchiera\"]')", polling=50)
    assert '[Event "Scacchiera"]' in board_pgn(board)


@pytest.mark.parametrize("size", SIZES)
def test_the_boards_refusal_is_said_in_words(browser, board, size):
    """A value the board refuses (the clock option typed wrong in Options): its reason beside the
    mirror and in the red message area, not only as a JSON line in the log."""
    page = open_page(browser, board, size)
    page.locator("summary", has_text="Options").click()
    page.fill("#clock", "abc")
    page.press("#clock", "Enter")
    text = said(page, "The board refused “set”: clock must be off or M+S")
    assert "White to move." in text
    page.wait_for_function("document.getElementById('error').textContent.includes('clock must be off or M+S')",
                           polling=50)
    shot(page, "refusal-" + size)
    hands(board, ("lift", "e2"), ("place", "e4"))      # the game moves on: the refusal is old news
    page.wait_for_function("!document.getElementById('explain').textContent.includes('refused')", polling=50)
    assert page.locator("#error").text_content() == ""


def test_a_crash_of_the_board_is_said_after_its_restart(browser, scripted):
    page = open_page(browser, scripted)
    scripted.feed({"ev": "crash", "error": "ZeroDivisionError('x')"})
    scripted.feed({"ev": "boot", "proto": 1, "firmware": "scripted", "cause": "reset"})
    scripted.answer()                                   # the companion shakes hands again
    text = said(page, "The board's program failed (ZeroDivisionError('x')) and restarted")
    assert "White to move." in text
    scripted.feed({"ev": "move", "uci": "e2e4"})
    scripted.answer(status_reply(["e2e4"]))
    said(page, "Black to move.")
    assert "failed" not in page.locator("#explain").text_content()


def test_the_log_follows_its_newest_line_unless_scrolled_up(browser, board):
    page = open_page(browser, board)
    page.locator("#serial-box summary").click()
    log = page.locator("#protocol")
    at_end = "l => l.scrollTop + l.clientHeight >= l.scrollHeight - 4"
    for i in range(30):
        board.act("send", {"line": "status"})
    page.wait_for_function("document.getElementById('protocol').textContent.split('> status').length > 30", polling=50)
    assert log.evaluate("l => l.scrollHeight > l.clientHeight * 2")       # it overflows
    assert log.evaluate(at_end)
    log.evaluate("l => { l.scrollTop = 0; }")                          # the person reads older lines
    board.act("send", {"line": "hello"})
    page.wait_for_function("document.getElementById('protocol').textContent.includes('> hello')", polling=50)
    assert log.evaluate("l => l.scrollTop") == 0                       # not pulled away from them
    log.evaluate("l => { l.scrollTop = l.scrollHeight; }")
    board.act("send", {"line": "leds"})
    page.wait_for_function("document.getElementById('protocol').textContent.includes('> leds')", polling=50)
    assert log.evaluate(at_end)


def board_reply(board, cmd):
    """The board's reply to ``cmd``, asked on its serial line as any host would."""
    rid = "t%d" % time.monotonic_ns()
    board.act("send", {"line": json.dumps(dict(cmd, id=rid))})
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        for line in board.state()["protocol"]:
            if line.startswith("< ") and '"%s"' % rid in line:
                return json.loads(line[2:])
        time.sleep(0.05)
    raise AssertionError("the board did not answer %s" % cmd["cmd"])


def board_pgn(board):
    """The board's own `pgn` reply (the game on the board)."""
    return board_reply(board, {"cmd": "pgn"})["pgn"]


# -- touch, on a phone ----------------------------------------------------------------------------

def touch_drag(page, fr, to, steps=5):
    """A finger on ``fr``'s piece, slid to the square ``to`` and lifted."""
    b = page.locator(".sq[data-square='%s']" % to).bounding_box()
    cdp_drag_to(page, fr, (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2), steps)


def cdp_drag_to(page, fr, point, steps=5):
    """A finger on ``fr``'s piece, slid to ``point`` (x, y in the viewport) and lifted."""
    a = page.locator(".sq[data-square='%s']" % fr).bounding_box()
    finger_drag(page, (a["x"] + a["width"] / 2, a["y"] + a["height"] / 2), point, steps)


def test_a_phone_plays_by_touch(browser, board):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  device_scale_factor=2)
    page = open_page(browser, board, context=context)
    pointer_types = []
    page.expose_function("seenPointer", lambda kind: pointer_types.append(kind))
    page.evaluate("document.getElementById('board').addEventListener('pointerdown', e => seenPointer(e.pointerType))")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    for fr, to, sans in (("e2", "e4", ["e4"]), ("e7", "e5", ["e4", "e5"]), ("g1", "f3", ["e4", "e5", "Nf3"])):
        touch_drag(page, fr, to)
        moves_are(page, sans)
    assert set(pointer_types) == {"touch"}          # the page saw fingers, not a mouse
    touch_drag(page, "b8", "c6")
    moves_are(page, ["e4", "e5", "Nf3", "Nc6"])
    # A capture by touch: the victim slid off the board (lifted anywhere off it: into the tray),
    # then the knight onto its square.
    header = page.locator("header").bounding_box()
    cdp_drag_to(page, "e5", (header["x"] + header["width"] / 2, header["y"] + header["height"] / 2))
    page.wait_for_selector("#tray .piece[data-piece='p']", state="attached")   # the black pawn, off the board
    touch_drag(page, "f3", "e5")
    moves_are(page, ["e4", "e5", "Nf3", "Nc6", "Nxe5"])
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390   # a long move list: no sideways scroll
    assert board.state()["pieces"][36] == "N"      # e5: the white knight, moved by a finger
    shot(page, "phone-touch")
    context.close()


# -- the game room: clocks, material, a draw offer, the ladder (fed as the board's lines) -----------

@pytest.fixture
def scripted():
    yield from serving(ScriptedBoard(commands=("hello", "status", "show", "set", "tag")))


def test_clocks_material_and_an_offer_are_shown_when_the_board_has_them(browser, scripted):
    page = open_page(browser, scripted)
    assert page.locator("#clock-white").is_hidden() and page.locator("#material").is_hidden()   # none yet
    scripted.feed({"ev": "new_game"})
    scripted.answer(status_reply(clock={"control": "5+3", "white": 300000, "black": 300000, "running": None},
                                 material={"w": 39, "b": 39}, options={"profile": "fide", "clock": "5+3"}))
    page.wait_for_selector("#clock-white:not([hidden])")
    assert page.locator("#clock-white b").text_content() == "5:00"
    assert page.locator("#clock-black b").text_content() == "5:00"
    assert "White 39 · Black 39 (even)" in page.locator("#material").text_content()
    # White's clock starts: the page counts it down between the board's reports.
    scripted.feed({"ev": "clock", "white": 12000, "black": 300000, "running": "w"})
    page.wait_for_selector("#clock-white.running")
    page.wait_for_function("document.querySelector('#clock-white b').textContent.includes('.')", timeout=5000)
    first = float(page.locator("#clock-white b").text_content())
    time.sleep(0.5)
    assert first - 1.0 < float(page.locator("#clock-white b").text_content()) < first   # ticking
    assert page.locator("#clock-black b").text_content() == "5:00"
    # After 1. e4: Black's clock runs, White got the bonus; material after a capture; an offer.
    scripted.feed({"ev": "clock", "white": 15000, "black": 300000, "running": "b"})
    scripted.feed({"ev": "offer", "by": "w"})
    scripted.answer(status_reply(["e2e4"], clock={"control": "5+3", "white": 15000, "black": 299000, "running": "b"},
                                 material={"w": 39, "b": 36}, offer="w", options={"profile": "fide", "clock": "5+3"}))
    page.wait_for_selector("#clock-black.running")
    assert not page.locator("#clock-white").evaluate("e => e.classList.contains('running')")
    assert page.locator("#clock-white b").text_content() == "0:15"
    assert "(White +3)" in page.locator("#material").text_content()
    assert "White offers a draw" in page.locator("#offer").text_content()
    # The clock option as the PGN's TimeControl: given to the board, whose PGN the page exports.
    deadline = time.monotonic() + 5
    while {"cmd": "tag", "name": "TimeControl", "value": "300+3"} not in [
            {k: v for k, v in r.items() if k != "id"} for r in scripted.sent if isinstance(r, dict)]:
        assert time.monotonic() < deadline, "no tag TimeControl 300+3 sent: %s" % scripted.sent[-5:]
        time.sleep(0.05)
    # A flag falls.
    scripted.feed({"ev": "clock", "white": 15000, "black": 0, "running": None})
    page.wait_for_selector("#clock-black.flag")
    shot(page, "room-clocks")
    # The clock switched off: the faces go.
    scripted.feed({"ev": "new_game"})
    scripted.answer(status_reply(clock=None))
    page.wait_for_selector("#clock-white", state="hidden")
    assert not page.errors


def test_the_ladder_table_in_a_panel(browser, tmp_path, monkeypatch):
    from host_tools.ladder.ladder import Ladder
    path = str(tmp_path / "ladder.sqlite3")
    board = ScriptedBoard()
    with serve_board(board, ladder=path) as url:
        board.url = url + "/"
        board.answer()
        page = open_page(browser, board)
        page.locator("#ladder-box summary").click()
        page.wait_for_function("document.getElementById('ladder-note').textContent.includes('no ladder yet')")
        with Ladder(path) as ladder:
            ladder.add_player("Anna")
            ladder.add_player("Nonno", 1400)
            ladder.record("Anna", "Nonno", "1-0", 30, time.strftime("%Y-%m-%d"))
            expected = ladder.table()
        page.select_option("#ladder-month", "")
        page.locator("#ladder-box summary").click()          # closed and opened again: read again
        page.locator("#ladder-box summary").click()
        page.wait_for_selector("#ladder tbody tr:nth-child(2)")
        rows = page.eval_on_selector_all("#ladder tbody tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent))")
        assert rows == [[str(r[k]) for k in ("rank", "name", "elo", "games", "wins", "draws", "losses")] for r in expected]
        assert rows[0][1] == "Nonno" and rows[1][1] == "Anna"
        page.select_option("#ladder-month", "this")              # this month: everyone from 1000
        page.wait_for_function("document.querySelector('#ladder tbody tr td:nth-child(2)').textContent === 'Anna'")
        assert not page.errors


def test_a_late_answer_for_the_general_table_never_paints_over_the_month_chosen(browser, tmp_path):
    """The panel opened (general table asked for), then "this month" chosen: when the general answer
    arrives last (a busy host), the month's table stays. CI once saw the general one win."""
    from host_tools.ladder.ladder import Ladder
    path = str(tmp_path / "ladder.sqlite3")
    with Ladder(path) as ladder:
        ladder.add_player("Anna")
        ladder.add_player("Nonno", 1400)
        ladder.record("Anna", "Nonno", "1-0", 30, time.strftime("%Y-%m-%d"))
    board = ScriptedBoard()
    with serve_board(board, ladder=path) as url:
        board.url = url + "/"
        board.answer()
        page = open_page(browser, board)
        held = []
        page.route("**/api/ladder", lambda route: held.append(route))   # the general table: held back
        page.locator("#ladder-box summary").click()
        for _ in range(10000):                                   # Playwright calls the route as it pumps
            if held:
                break
            page.evaluate("0")
        assert held, "the open panel asked for no table"
        page.select_option("#ladder-month", "this")
        page.wait_for_function("document.querySelector('#ladder tbody tr td:nth-child(2)')?.textContent === 'Anna'")
        with page.expect_event("requestfinished", lambda r: r.url.endswith("/api/ladder")):
            held[0].continue_()
        page.evaluate("() => new Promise(done => setTimeout(done, 0))")   # its handler has run
        names = page.eval_on_selector_all("#ladder tbody tr td:nth-child(2)", "cells => cells.map(c => c.textContent)")
        assert names == ["Anna", "Nonno"]
        assert not page.errors


def test_players_added_and_a_rated_game_recorded_from_the_page(browser, tmp_path):
    """The Ladder panel does its job with the companion's own Python: no command to type (the one it
    showed failed with the system Python), players added here, a rated game played on the board in it."""
    from host_tools.ladder.ladder import Ladder
    path = str(tmp_path / "ladder.sqlite3")
    board = SimulatedBoard()
    with serve_board(board, ladder=path) as url:
        board.url = url + "/"
        page = open_page(browser, board)
        page.locator("#ladder-box summary").click()
        page.wait_for_function("document.getElementById('ladder-note').textContent.includes('no ladder yet')")
        assert "python" not in page.inner_text("#ladder-box")
        for name in ("Anna", "Bruno"):
            page.fill("#ladder-name", name)
            page.click("#ladder-add")
            page.wait_for_selector("#ladder tbody td:text-is('%s')" % name)
        page.locator("summary", has_text="Players and export").click()
        page.fill("#white-name", "Anna")
        page.fill("#black-name", "Carla")                 # new to the ladder: added with the game
        page.check("#rated")
        page.wait_for_function("document.getElementById('pgn').value.includes('[Event \"Scacchiera rated\"]')",
                               polling=50)
        for fr, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
            mouse_drag(page, fr, to)
        moves_are(page, ["f3", "e5", "g4", "Qh4#"])
        page.wait_for_selector("#ladder tbody td:text-is('Carla')")
        page.wait_for_function("document.getElementById('ladder-said').textContent.includes('recorded in the ladder')")
        with Ladder(path) as ladder:
            games = ladder.games()
        assert [(g["white"], g["black"], g["result"]) for g in games] == [("Anna", "Carla", "0-1")]
        rows = page.eval_on_selector_all("#ladder tbody tr", "rows => rows.map(r => [r.cells[1].textContent, r.cells[3].textContent])")
        assert ["Carla", "1"] in rows and ["Anna", "1"] in rows and ["Bruno", "0"] in rows
        assert not page.errors


@pytest.mark.usb_view
def test_a_position_set_up_in_check_shows_the_check(browser, board):
    """No move has given the check (a FEN set up so): the mirror marks the king from the board's LED."""
    board.act("new", {"fen": "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1"})
    page = open_page(browser, board)
    said(page, "White is in check.")
    page.wait_for_selector("#mirror square.check", state="attached")
    assert board.state()["leds"].get("e1") == "check"
    # The set-up position's pieces in their colours: the white king, the black king and queen.
    # (a piece still sliding in has the class "anim" too: at a load of 6-7 the queen was caught so)
    pieces = page.eval_on_selector_all(
        "#mirror piece:not(.fading)", "ps => ps.map(p => [...p.classList].filter(c => c !== 'anim').join(' ')).sort()")
    assert pieces == ["black king", "black queen", "white king"]


def test_the_computers_levels_are_one_scale_with_the_elo_named(browser, board):
    """Elo in steps of 100 over the range the engine reports (Stockfish 16: 1320-3190), its top
    included even off the step, then full strength; no Skill Level mixed in (33 items, two scales,
    before). The project's engine: its levels with the Elo measured for each."""
    page = open_page(browser, board)
    in_english = """(levels) => Promise.all([import('/companion.js'), import('/sentences.js')]).then(([m, s]) =>
        m.levelChoices(levels).map(([v, w]) => [v, typeof w === 'string' ? w : s.sentence(w, 'en')]))"""
    choices = page.evaluate(in_english, {"elo": [1320, 3190], "skill": [0, 20], "level": None})
    values = [v for v, _ in choices]
    elos = [int(v.split()[1]) for v in values if v.startswith("elo ")]
    assert elos[0] == 1320 and elos[-1] == 3190 and elos[-2] == 3120 and len(elos) == 20
    assert elos == sorted(elos) and not [v for v in values if v.startswith("skill ")]
    assert choices[-1] == ["", "full strength (above Elo 3190)"]
    own = page.evaluate(in_english, {"elo": None, "skill": None, "level": [1, 7], "level_elo": {"1": 480, "7": 1740}})
    assert own[0] == ["level 1", "Level 1 (about Elo 480)"] and own[-1] == ["level 7", "Level 7 (about Elo 1740)"]
    assert len(own) == 7


@one_size("phone")
def test_takeback_draw_and_resign_from_the_pages_buttons(browser, board, size):
    """The game's actions were gestures on the board only: the page's buttons do them (44 px tall)."""
    page = open_page(browser, board, size)
    page.on("dialog", lambda d: d.accept())
    assert page.locator("#act-undo").is_disabled() and page.locator("#act-offer").is_disabled()
    assert page.locator("#act-resign").bounding_box()["height"] >= 44
    mouse_drag(page, "e2", "e4")
    moves_are(page, ["e4"])
    page.click("#act-undo")
    page.wait_for_function("window.scacchiera.state.moves.length === 0")
    board.act("lift", {"square": "e4"})                 # the hands put the pawn back
    board.act("place", {"square": "e2"})
    page.wait_for_function("window.scacchiera.state.in_sync")
    for fr, to in (("e2", "e4"), ("e7", "e5")):
        mouse_drag(page, fr, to)
    moves_are(page, ["e4", "e5"])
    page.click("#act-offer")                              # Black, who just moved, offers
    page.wait_for_selector("#act-accept:visible")
    assert page.locator("#offer").is_visible() and page.locator("#act-offer").is_hidden()
    page.click("#act-decline")
    page.wait_for_selector("#act-accept", state="hidden")
    mouse_drag(page, "d2", "d4")
    moves_are(page, ["e4", "e5", "d4"])
    page.click("#act-offer")                              # now White (one offer per 5 moves each)
    page.wait_for_selector("#act-accept:visible")
    page.click("#act-accept")
    page.wait_for_function("window.scacchiera.state.result === '1/2-1/2'")
    page.wait_for_selector("#score-white:visible")
    assert page.locator("#act-resign").is_disabled() and page.locator("#act-undo").is_disabled()
    assert page.inner_text("#score-white") == page.inner_text("#score-black") == "½"   # in the players' bars
    board.act("new", {})
    page.wait_for_function("window.scacchiera.state.result === '*' && window.scacchiera.state.moves.length === 0")
    assert page.locator("#score-white").is_hidden()
    mouse_drag(page, "e2", "e4")
    moves_are(page, ["e4"])
    page.click("#act-resign")                             # Black to move resigns
    page.wait_for_function("window.scacchiera.state.result === '1-0'")
    page.wait_for_selector("#score-white:visible")
    assert (page.inner_text("#score-white"), page.inner_text("#score-black")) == ("1", "0")
    assert page.locator("#act-undo").is_disabled(), "no takeback once a result stands"
    assert not page.errors


def test_an_offer_to_the_computer_is_answered_by_it_not_by_the_offering_person(browser):
    """Against the computer the person who offers gets no Accept or Decline: the line says the computer
    answers, and it does (here it declines, a level position), said in words; Hint is off once the
    game is over."""
    b = SimulatedBoard()
    b.play_computer([(OWN, OWN_COMMAND)])
    b.computer.think = 0.05
    with serve_board(b) as url:                # (the computer's thread runs from here)
        b.url = url + "/"
        page = open_page(browser, b)
        page.on("dialog", lambda d: d.accept())
        page.wait_for_function("window.scacchiera.state.ready")
        b.act("computer", {"sides": ["black"]})
        page.wait_for_function("window.scacchiera.state.options.opponent === 'host'")
        mouse_drag(page, "e2", "e4")
        moves_are(page, ["e4"])
        with b.computer.lock:                                 # the computer busy: its answer waits
            page.click("#act-offer")                          # the person (White) offers
            page.wait_for_selector("#offer:visible")
            assert page.inner_text("#offer") == "White offers a draw: Scacchiera answers."
            assert page.locator("#act-accept").is_hidden() and page.locator("#act-decline").is_hidden()
        said(page, "Black declines the draw: the game goes on.")
        page.wait_for_selector("#offer", state="hidden")
        assert not page.locator("#hint").is_disabled()
        page.click("#act-resign")
        page.wait_for_function("window.scacchiera.state.result === '0-1'")
        page.wait_for_selector("#hint:disabled")
        assert not page.errors
    b.computer.stop()


def test_arrow_keys_walk_the_moves_f_flips_and_the_page_follows_a_dark_system(browser, board):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    page = open_page(browser, board, context=context)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(29, 26, 22)"
    for fr, to in (("e2", "e4"), ("e7", "e5")):
        mouse_drag(page, fr, to)
    moves_are(page, ["e4", "e5"])
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#viewing:visible")
    page.wait_for_function("document.getElementById('viewing-text').textContent === 'after 1. e4'")
    # One board in one look: the earlier position on the simulated board itself (its squares and
    # pieces, the move marked, no light), not on the mirror.
    assert page.locator("#board").is_visible() and page.locator("#mirror").is_hidden()
    assert page.evaluate("document.querySelector('.sq[data-square=e5] .piece') === null")
    assert page.evaluate("document.querySelector('.sq[data-square=e4] .piece').dataset.piece") == "P"
    assert sorted(page.eval_on_selector_all("#board .sq.last", "cs => cs.map(c => c.dataset.square)")) == ["e2", "e4"]
    assert page.eval_on_selector_all("#board .led.on", "ls => ls.length") == 0
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('viewing-text').textContent === 'the start position'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('viewing-text').textContent === 'after 1. e4'")
    page.keyboard.press("End")
    page.wait_for_selector("#viewing", state="hidden")
    assert page.locator("#board").is_visible() and page.locator("#mirror").is_hidden()
    first_square = "document.querySelector('#board .sq').dataset.square"
    assert page.evaluate("scacchieraMirror.state.orientation") == "white" and page.evaluate(first_square) == "a8"
    page.keyboard.press("f")
    assert page.evaluate("scacchieraMirror.state.orientation") == "black"
    # Both boards and the players' bars turn: h1 top left, White's bar above the board.
    assert page.evaluate(first_square) == "h1"
    assert page.locator("#bar-white").bounding_box()["y"] < page.locator("#board").bounding_box()["y"]
    page.reload()
    page.wait_for_selector("#board .piece")
    assert page.evaluate("scacchieraMirror.state.orientation") == "black", "remembered"
    assert page.evaluate(first_square) == "h1"
    page.click("#flip")
    assert page.evaluate("scacchieraMirror.state.orientation") == "white"
    assert not page.errors


def test_the_legend_says_what_the_lights_on_now_mean(browser, board):
    """Only the meanings lit now (a colour is never listed twice on screen), every one on request."""
    page = open_page(browser, board)
    visible = "() => Array.from(document.querySelectorAll('#legend li')).filter(li => !li.hidden).map(li => li.dataset.meaning)"
    page.wait_for_selector("#legend-none:visible")
    assert page.evaluate(visible) == []
    board.act("lift", {"square": "g1"})
    page.wait_for_function("window.scacchiera.state.leds.g1 !== undefined")
    lit = sorted(set(board.state()["leds"].values()))
    page.wait_for_function("(n) => (%s)().length === n" % visible, arg=len(lit))
    assert sorted(page.evaluate(visible)) == lit and page.locator("#legend-none").is_hidden()
    page.check("#legend-all")
    assert len(page.evaluate(visible)) == page.locator("#legend li").count() > len(lit)
    assert not page.errors


def test_the_pieces_each_side_took_are_shown_with_the_material(browser, board):
    page = open_page(browser, board, "phone")
    assert page.inner_text("#captured-white") == "" and page.inner_text("#adv-white") == ""
    for fr, to in (("e2", "e4"), ("d7", "d5"), ("e4", "d5")):
        mouse_drag(page, fr, to)
    moves_are(page, ["e4", "d5", "exd5"])
    page.wait_for_function("document.getElementById('captured-white').textContent === '♟'")
    assert page.inner_text("#captured-black") == "" and page.inner_text("#adv-white") == "+1"
    # Beside White's name, in the first viewport of a phone.
    assert page.locator("#bar-white").bounding_box()["y"] + 34 <= 844
    assert not page.errors


@one_size("phone")
def test_a_past_game_is_listed_opened_downloaded_and_imported_into_the_ladder(browser, tmp_path, size):
    from host_tools.ladder.ladder import Ladder
    path = str(tmp_path / "ladder.sqlite3")
    board = SimulatedBoard()
    with serve_board(board, ladder=path) as url:
        board.url = url + "/"
        page = open_page(browser, board, size)
        page.locator("summary", has_text="Players and export").click()
        page.fill("#white-name", "Anna")
        page.fill("#black-name", "Bruno")
        page.wait_for_function("document.getElementById('pgn').value.includes('Bruno')", polling=50)
        for fr, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
            mouse_drag(page, fr, to)
        moves_are(page, ["f3", "e5", "g4", "Qh4#"])
        board.act("new", {})                                  # the next game: the mate is archived
        page.wait_for_function("window.scacchiera.state.moves.length === 0")
        page.locator("#past-box summary").click()
        page.wait_for_selector("#past-games button[data-game='1']")
        page.click("#past-games button[data-game='1']")
        page.wait_for_selector("#past-open:visible")
        text = page.inner_text("#past-pgn")
        assert '[White "Anna"]' in text and "2. g4 Qh4# 0-1" in text
        # Move by move on its own small board: the mate first, then back to 1... e5.
        page.wait_for_function("document.getElementById('past-at').textContent === '2… Qh4#'")
        assert page.locator("#past-board piece.black.queen").count() == 1
        for _ in range(2):
            page.click("#past-back")
        assert page.inner_text("#past-at") == "1… e5"
        page.wait_for_function("document.querySelectorAll('#past-board piece.white.pawn').length === 8")
        page.click("#past-first")
        assert page.inner_text("#past-at") == "the start"
        href = page.get_attribute("#past-download", "href")
        assert "Qh4%23" in href and page.get_attribute("#past-download", "download") == "scacchiera-1.pgn"
        page.click("#past-import")
        page.wait_for_function("document.getElementById('ladder-said').textContent.includes('imported into the ladder')")
        with Ladder(path) as ladder:
            assert [(g["white"], g["black"], g["result"]) for g in ladder.games()] == [("Anna", "Bruno", "0-1")]
        assert not page.errors


def test_the_boards_hardware_settings_are_apart_from_the_games(browser, board):
    page = open_page(browser, board)
    page.locator("summary", has_text="Options").click()
    for name in ("settle_ms", "brightness", "profile"):
        assert page.locator("#board-options #%s" % name).count() == 1, name
    for name in ("hints", "clock", "takeback"):
        assert page.locator("#options-list #%s" % name).count() == 1, name
    assert not page.errors


def test_a_move_a_capture_and_a_check_are_heard_and_muting_is_remembered(browser, board):
    page = open_page(browser, board)
    for fr, to in (("e2", "e4"), ("d7", "d5"), ("e4", "d5"), ("d8", "d5"), ("f1", "b5")):
        mouse_drag(page, fr, to)
    moves_are(page, ["e4", "d5", "exd5", "Qxd5", "Bb5+"])
    page.wait_for_function("window.scacchieraSounds.length === 5")
    assert page.evaluate("window.scacchieraSounds") == ["move", "move", "capture", "capture", "check"]
    assert page.inner_text("#mute") == "sound on"
    page.click("#mute")
    page.reload()
    page.wait_for_selector("#board .piece")
    assert page.inner_text("#mute") == "sound off" and page.get_attribute("#mute", "aria-pressed") == "true"
    assert not page.errors


def test_the_last_ten_seconds_of_a_clock_are_heard_once(browser, scripted):
    page = open_page(browser, scripted)
    scripted.feed({"ev": "new_game"})
    scripted.answer(status_reply(clock={"control": "5+3", "white": 12000, "black": 300000, "running": "w"},
                                 options={"profile": "fide", "clock": "5+3"}))
    page.wait_for_selector("#clock-white:not([hidden])")
    assert "low time" not in page.evaluate("window.scacchieraSounds")
    for left in (9500, 8000):
        scripted.feed({"ev": "clock", "white": left, "black": 300000, "running": "w"})
        scripted.answer(status_reply(clock={"control": "5+3", "white": left, "black": 300000, "running": "w"},
                                     options={"profile": "fide", "clock": "5+3"}))
        # each state drawn before the next comes (a state's sounds are played as it is drawn)
        page.wait_for_function("s => window.scacchiera.state.clock && window.scacchiera.state.clock.white === s",
                               arg=left)
    assert page.evaluate("window.scacchieraSounds.filter(s => s === 'low time').length") == 1
    assert not page.errors


@pytest.mark.parametrize("size", SIZES)
def test_italian_leaves_no_english_and_the_buttons_fit_their_column(browser, board, size):
    """In Italian 13 texts stayed English (the lights' legend, every Options label, the display's
    caption, the players line...), "Abbandona" overflowed its button, and on the desktop the game's
    buttons overflowed their column onto the legend's checkbox."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script("try { localStorage.setItem('scacchiera-ui-lang', 'it'); } catch (e) {}")
    page = open_page(browser, board, size, context)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.check("#legend-all")                                   # every meaning of the legend shown
    page.wait_for_function("document.getElementById('players').textContent.includes('Bianco')")
    english = page.evaluate("""async () => {
      const meanings = (await import('/sentences.js')).MEANINGS;
      const labels = (await import('/companion.js')).OPTION_LABELS;
      const shown = document.body.innerText;
      return [...Object.values(meanings), ...Object.values(labels), "The board's display (128 × 64)", "White – Black"]
        .filter((text) => shown.includes(text));
    }""")
    assert english == [], english
    assert "Suggerimento" in page.inner_text("#hint") or page.locator("#hint").is_hidden()
    # Every button of the row at once (an offer to answer, the computer's hint): each word fits its
    # button, every button within the row's column, none over the legend's checkbox.
    boxes = page.evaluate("""() => {
      const row = document.getElementById('game-actions');
      row.querySelectorAll('button').forEach((b) => { b.hidden = false; });
      const r = row.getBoundingClientRect();
      const check = document.getElementById('legend-all').getBoundingClientRect();
      return [...row.querySelectorAll('button')].map((b) => {
        const x = b.getBoundingClientRect();
        return { id: b.id, fits: b.scrollWidth <= b.clientWidth, inside: x.left >= r.left - 1 && x.right <= r.right + 1,
                 overCheckbox: x.left < check.right && x.right > check.left && x.top < check.bottom && x.bottom > check.top };
      });
    }""")
    assert all(b["fits"] and b["inside"] and not b["overCheckbox"] for b in boxes), boxes
    shot(page, "italian-%s" % size)
