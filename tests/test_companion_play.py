"""The companion page as a player uses it, on a phone (390 x 844, touch) and a desktop (1280 x 800).

Each test plays through the page only (drags, taps, the new game dialog) and asserts what is on
screen: the board, whose turn, both clocks, the last move, the sentence that says what to do now and
the game's buttons inside the first viewport, without scrolling. Screenshots go to test-artifacts/
(docs/companion.md shows two of them).
"""

import random

import chess
import pytest

from companion_support import BROWSER_TESTS, BUTTONS, Player, browser, served, one_size, size, start_game  # noqa: F401 (fixtures)
from host_tools.companion.boards import SimulatedBoard

pytestmark = BROWSER_TESTS

@pytest.fixture
def board():
    yield SimulatedBoard()


@pytest.fixture
def computer_board():
    from host_tools.companion.engine import engines
    b = SimulatedBoard()
    b.play_computer(engines())
    b.computer.think = 0.05                  # the tests' pace; the level is the engine's own
    yield b


def player_on(browser, board, url, size):
    p = Player(browser, board, url, size)
    return p


def computer_id(board):
    ids = board.computer.describe()["engines"]
    return "stockfish" if "stockfish" in ids else ids[0]


def make_shown(p, game):
    """The computer's move, lit on the board (show), made by the hands."""
    p.page.wait_for_function("window.scacchiera.state.show", timeout=20000)
    move = chess.Move.from_uci(p.page.evaluate("window.scacchiera.state.show"))
    assert move in game.legal_moves
    p.play(game, move)


def test_the_first_viewport_holds_the_game_and_its_buttons(browser, computer_board, size):
    with served(computer_board) as url:
        p = player_on(browser, computer_board, url, size)
        start_game(p.page, opponent="computer " + computer_id(computer_board), colour="white", clock="5+3")
        p.page.wait_for_selector("#clock-white:not([hidden])")
        game = chess.Board()
        p.play(game, chess.Move.from_uci("e2e4"))
        p.page.wait_for_function("window.scacchiera.state.show", timeout=20000)
        p.said("The board asks for")
        assert p.page.inner_text("#last-move") == "last: 1. e4"
        assert p.page.inner_text("#clock-white b") != "" and p.page.inner_text("#clock-black b") != ""
        assert p.page.inner_text("#name-black") == computer_board.computer.name
        p.assert_first_viewport()
        for button in BUTTONS:
            box = p.page.locator(button).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (button, box)
        assert p.page.locator("#mirror").is_hidden()           # one board on screen: the simulator's
        p.shot("first-viewport")
        # The narrowest phone: still no sideways scroll, the board and the buttons still in.
        p.page.set_viewport_size({"width": 320, "height": 640})
        p.page.wait_for_timeout(100)
        p.assert_first_viewport("#board", "#act-new", "#act-resign", "#flip")
        assert not p.errors


# The phone's whole game (52 s) in make test-long: make test plays the desktop's, and every phone
# gesture is in make test through the shorter phone tests above and below.
@one_size("desktop")
def test_a_whole_game_against_the_computer(browser, computer_board, size):
    """The person (White: legal moves at random, seeded) against the computer at full strength, every
    move made by drags on the page, to the end: the result said on screen."""
    rng = random.Random(2026)
    with served(computer_board) as url:
        p = player_on(browser, computer_board, url, size)
        start_game(p.page, opponent="computer " + computer_id(computer_board), colour="white")
        game = chess.Board()
        while not game.is_game_over() and len(game.move_stack) < 160:
            if game.turn == chess.WHITE:
                moves = [m for m in game.legal_moves if m.promotion in (None, chess.QUEEN)]
                p.play(game, rng.choice(moves))
            else:
                make_shown(p, game)
            assert computer_board.state()["fen"].split(" ")[0] == game.board_fen()
        outcome = game.outcome()
        assert outcome is not None, "160 plies and no end"
        result = outcome.result()
        p.page.wait_for_function("r => window.scacchiera.state.result === r", arg=result)
        text = p.said("Game over")
        assert {"1-0": "White wins", "0-1": "Black wins"}.get(result, "Drawn") in text
        p.assert_first_viewport("#board", "#explain", "#act-new")
        assert p.page.locator("#act-resign").is_disabled()
        p.shot("game-over")
        assert not p.errors


def test_a_capture_by_drag_onto_the_enemy_piece(browser, board, size):
    with served(board) as url:
        p = player_on(browser, board, url, size)
        game = chess.Board()
        for uci in ("e2e4", "d7d5", "e4d5"):
            p.play(game, chess.Move.from_uci(uci))
        # The victim left the board first, then the pawn landed: the firmware saw both, in that order.
        assert board.state()["san"] == ["e4", "d5", "exd5"]
        assert board.state()["tray"].count("p") == 1
        p.page.wait_for_function("document.getElementById('captured-white').textContent === '♟'")
        assert p.page.inner_text("#adv-white") == "+1"
        p.assert_first_viewport("#bar-white", "#last-move")
        assert p.page.inner_text("#last-move") == "last: 2. exd5"
        assert not p.errors


@one_size("desktop")
def test_takeback_against_the_computer(browser, computer_board, size):
    """Take back: the computer's reply and the person's move go; the words and the LEDs say which
    pieces to put back, and once the hands did, it is the person's move again."""
    with served(computer_board) as url:
        p = player_on(browser, computer_board, url, size)
        start_game(p.page, opponent="computer " + computer_id(computer_board), colour="white")
        game = chess.Board()
        p.play(game, chess.Move.from_uci("g1f3"))
        make_shown(p, game)
        p.page.click("#act-undo")
        text = p.said("The pieces on the board do not match the game yet.")
        p.assert_first_viewport("#explain", "#board")
        leds = computer_board.state()["leds"]
        empty = sorted(sq for sq, m in leds.items() if m == "to-empty")
        fill = sorted(sq for sq, m in leds.items() if m == "to-fill")
        assert "g1" in fill and "f3" in empty and all(sq in text for sq in empty + fill)
        # The hands put both pieces back where the lights say.
        reply = game.peek()
        for move in (reply, game.move_stack[0]):
            piece_to, piece_from = chess.square_name(move.to_square), chess.square_name(move.from_square)
            p.drag(piece_to, piece_from)
        p.moves_are(0)
        p.said("White to move.")
        assert computer_board.state()["in_sync"]
        assert p.page.inner_text("#last-move") == ""
        assert not p.errors


@one_size("phone")
def test_a_draw_offer_accepted_and_a_resignation(browser, board, size):
    with served(board) as url:
        p = player_on(browser, board, url, size)
        game = chess.Board()
        for uci in ("e2e4", "e7e5"):
            p.play(game, chess.Move.from_uci(uci))
        p.page.click("#act-offer")                         # Black, who just moved, offers
        p.page.wait_for_selector("#act-accept:visible")
        p.assert_first_viewport("#act-accept", "#act-decline", "#offer")
        p.page.click("#act-accept")
        p.page.wait_for_function("window.scacchiera.state.result === '1/2-1/2'")
        assert "Drawn" in p.said("Game over")
        p.assert_first_viewport("#explain")
        # A new game from the dialog, then White resigns with the button.
        start_game(p.page, opponent="person")
        p.moves_are(0)
        game = chess.Board()
        p.play(game, chess.Move.from_uci("d2d4"))
        p.page.click("#act-resign")
        p.page.wait_for_function("window.scacchiera.state.result !== '*'")
        assert "Game over" in p.said("Game over")
        p.assert_first_viewport("#explain", "#act-new")
        p.shot("resigned")
        assert not p.errors


@one_size("phone")
def test_a_sprint_game(browser, board, size):
    """Scacchi Sprint from the dialog: the hand of tiles under the board, a tile dragged onto a square."""
    with served(board) as url:
        p = player_on(browser, board, url, size)
        start_game(p.page, variant="sprint", seed=1)
        p.page.wait_for_selector("#sprint:not([hidden])")
        assert p.page.locator("#hand-white .piece").count() == 2      # a pawn and the rook just drawn
        p.assert_first_viewport("#board", "#sprint", "#explain", "#act-new", "#act-resign")
        rook = p.page.locator("#hand-white .piece[data-piece='R']").bounding_box()
        x, y = p.centre("a1")
        if size == "phone":
            cdp = p.context.new_cdp_session(p.page)
            x0, y0 = rook["x"] + rook["width"] / 2, rook["y"] + rook["height"] / 2
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
            for i in range(1, 5):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                    {"x": x0 + (x - x0) * i / 4, "y": y0 + (y - y0) * i / 4}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            cdp.detach()
        else:
            p.page.mouse.move(rook["x"] + 10, rook["y"] + 10)
            p.page.mouse.down()
            p.page.mouse.move(x, y, steps=4)
            p.page.mouse.up()
        p.moves_are(1)
        assert board.state()["san"] == ["R@a1"]
        assert p.page.inner_text("#last-move") == "last: 1. R@a1"
        p.shot("sprint")
        assert not p.errors


@one_size("desktop")
def test_the_whole_page_in_italian_and_back(browser, board, size):
    """The header's button: the page's words in Italian (the buttons, the turn, the board's sentences
    about a piece on a wrong square, the dialog), remembered after a reload, and back to English."""
    with served(board) as url:
        p = player_on(browser, board, url, size)
        p.page.click("#ui-lang")
        p.page.wait_for_function("document.documentElement.lang === 'it'")
        assert [p.page.inner_text(b + " span:last-child") for b in ("#act-new", "#act-undo", "#act-resign", "#flip")] == \
            ["Nuova", "Ritira", "Abbandona", "Gira"]
        assert p.said("Muove il Bianco.")
        game = chess.Board()
        p.play(game, chess.Move.from_uci("e2e4"))
        p.page.wait_for_function("document.getElementById('last-move').textContent === 'ultima: 1. e4'")
        board.act("lift", {"square": "g1"})
        board.act("place", {"square": "g4"})
        p.said("Rimettilo a posto: metti il cavallo bianco di nuovo su g1 (giallo).")
        assert "the" not in p.page.inner_text("#explain")
        p.assert_first_viewport("#explain", "#act-new")
        p.shot("italian")
        board.act("lift", {"square": "g4"})
        board.act("place", {"square": "g1"})
        p.said("Muove il Nero.")
        p.page.click("#act-new")
        assert p.page.inner_text("#ng-title") == "Nuova partita" and p.page.inner_text("#reset") == "Inizia"
        p.page.click("#ng-cancel")
        p.page.reload()
        p.page.wait_for_function("document.getElementById('turn-words').textContent === 'Muove il Nero'")
        p.page.click("#ui-lang")
        p.page.wait_for_function("document.getElementById('turn-words').textContent === 'Black to move'")
        assert p.page.inner_text("#act-new span:last-child") == "New" and p.said("Black to move.")
        assert not p.errors
