"""The simulator page in headless Chromium (Debian's package), driven by Playwright.

Skipped, with the reason printed, when Chromium or Playwright is missing;
`.ci/run` installs Chromium so CI always runs it. A screenshot of the board
is saved in test-artifacts/.
"""

import os

import pytest

from companion_support import ARTIFACTS, BROWSER_TESTS, CHROMIUM, served as serve_board, start_game, sync_playwright
from host_tools.companion.boards import SimulatedBoard

pytestmark = BROWSER_TESTS


@pytest.fixture
def served():
    board = SimulatedBoard()
    with serve_board(board) as url:
        yield board, url + "/"


@pytest.fixture
def page(served):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1300, "height": 950})
        page.goto(served[1])
        page.wait_for_selector("#conn:text('connected')")
        yield page
        browser.close()


def cell(page, name):
    return page.locator(".sq[data-square='%s']" % name)


def drag(page, fr, to, check_lifted=None):
    """Press on the piece, move to the target square, let go; optionally look at the LEDs mid-air."""
    page.locator("#board").scroll_into_view_if_needed()
    box = cell(page, fr).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    if check_lifted:
        check_lifted()
    target = cell(page, to).bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()


def moves_are(page, sans, timeout=5000):
    page.wait_for_function(
        "want => Array.from(document.querySelectorAll('#moves li')).map(li => li.textContent.trim()).join(' ').split(/\\s+/).filter(Boolean).join(' ') === want",
        arg=" ".join(sans), timeout=timeout)


def test_play_with_the_mouse(page):
    def lifted_e2():
        page.wait_for_selector(".sq[data-square='e2'][data-led='lifted']")
        assert cell(page, "e3").get_attribute("data-led") == "legal"
        assert cell(page, "e4").get_attribute("data-led") == "legal"

    drag(page, "e2", "e4", lifted_e2)
    moves_are(page, ["e4"])
    drag(page, "e7", "e5")
    moves_are(page, ["e4", "e5"])
    drag(page, "g1", "f3")
    moves_are(page, ["e4", "e5", "Nf3"])
    # An illegal placement: a bishop does not go straight down the file.
    drag(page, "f8", "f6")
    page.wait_for_selector(".sq[data-square='f6'][data-led='error']")
    assert cell(page, "f8").get_attribute("data-led") == "fix"
    assert page.locator("#state").text_content() == "error"
    drag(page, "f6", "c5")            # fixed: a legal square
    moves_are(page, ["e4", "e5", "Nf3", "Bc5"])
    # A capture: the victim into the tray first, then the knight.
    box = cell(page, "e5").bounding_box()
    page.mouse.move(box["x"] + 32, box["y"] + 32)
    page.mouse.down()
    tray = page.locator("#tray").bounding_box()
    page.mouse.move(tray["x"] + 20, tray["y"] + 20, steps=4)
    page.mouse.up()
    drag(page, "f3", "e5")
    moves_are(page, ["e4", "e5", "Nf3", "Bc5", "Nxe5"])
    drag(page, "g8", "f6")
    drag(page, "f1", "e2")
    moves_are(page, ["e4", "e5", "Nf3", "Bc5", "Nxe5", "Nf6", "Be2"])
    drag(page, "e8", "g8")            # castling, king first
    drag(page, "h8", "f8")
    moves_are(page, ["e4", "e5", "Nf3", "Bc5", "Nxe5", "Nf6", "Be2", "O-O"])
    page.locator("summary:text('Export')").click()
    pgn = page.locator("#pgn").input_value()
    assert "1. e4 e5 2. Nf3 Bc5 3. Nxe5 Nf6 4. Be2 O-O *" in pgn
    assert page.locator("#fen").input_value().startswith("rnbq1rk1/pppp1ppp/5n2/2b1N3/4P3/8/PPPPBPPP/RNBQK2R w KQ")
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, "simulator.png"), full_page=True)


def test_italian_letters_and_options(page):
    page.select_option("#lang", "it")
    drag(page, "g1", "f3")
    moves_are(page, ["Cf3"])
    page.locator("summary:text('Options')").click()
    page.uncheck("#hints")
    box = cell(page, "b1").bounding_box()
    page.mouse.move(box["x"] + 32, box["y"] + 32)
    page.mouse.down()
    page.wait_for_selector(".sq[data-square='b1'][data-led='lifted']")
    assert cell(page, "c3").get_attribute("data-led") == ""
    page.mouse.up()


def test_a_capture_dragged_onto_the_enemy_piece_is_played_as_hands_do_it(page):
    """The taken piece goes off the board, then the piece lands: the firmware sees both (the piece
    once stayed "in the hand" with the reason far down the page)."""
    for fr, to in (("e2", "e4"), ("d7", "d5")):
        drag(page, fr, to)
    moves_are(page, ["e4", "d5"])
    drag(page, "e4", "d5")
    moves_are(page, ["e4", "d5", "exd5"])
    assert page.locator("#hand .piece").count() == 0 and page.locator("#error").text_content() == ""
    assert page.locator(".sq[data-square='d5'] .piece").count() == 1


def test_a_piece_cannot_be_put_on_an_occupied_square(page):
    drag(page, "e2", "e1")
    page.wait_for_function("document.getElementById('error').textContent.includes('occupied')")
    assert page.locator("#hand .piece").count() == 1      # still in the hand
    hand = page.locator("#hand .piece").bounding_box()
    page.mouse.move(hand["x"] + 10, hand["y"] + 10)
    page.mouse.down()
    target = cell(page, "e2").bounding_box()
    page.mouse.move(target["x"] + 32, target["y"] + 32, steps=4)
    page.mouse.up()
    page.wait_for_selector(".sq[data-square='e2'] .piece")
    assert page.locator("#error").text_content() == ""


def test_scacchi_sprint_tiles_are_dragged_from_the_hand(page):
    start_game(page, variant="sprint", seed=1)
    page.wait_for_selector("#sprint:not([hidden])")
    assert page.locator("#hand-white .piece").count() == 2      # a pawn and the rook just drawn
    rook = page.locator("#hand-white .piece[data-piece='R']")
    box = rook.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    target = cell(page, "a1").bounding_box()
    page.mouse.move(target["x"] + 32, target["y"] + 32, steps=4)
    page.mouse.up()
    moves_are(page, ["R@a1"])
    assert page.locator(".sq[data-square='a1'] .piece").get_attribute("data-piece") == "R"
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, "simulator-sprint.png"), full_page=True)


def test_a_chess960_game_from_the_dialog_and_castling_by_dropping_the_king_on_its_rook(page):
    assert page.locator("#ng-position-row").count() == 1
    page.click("#act-new")
    page.select_option("#variant", "chess960")
    assert page.locator("#ng-position-row").is_visible() and page.locator("#ng-seed-row").is_hidden()
    page.click("#ng-cancel")
    start_game(page, variant="chess960", position=74)          # nnrkbbqr: king d1, rook c1
    page.wait_for_selector(".sq[data-square='d1'] .piece[data-piece='K']")
    assert cell(page, "c1").locator(".piece").get_attribute("data-piece") == "R"
    for fr, to, sans in (("e2", "e3", ["e3"]), ("g7", "g6", ["e3", "g6"])):
        drag(page, fr, to)
        moves_are(page, sans)
    drag(page, "d1", "c1")              # king onto its rook: O-O-O, king and rook swap
    moves_are(page, ["e3", "g6", "O-O-O"])
    page.wait_for_selector(".sq[data-square='c1'] .piece[data-piece='K']")
    assert cell(page, "d1").locator(".piece").get_attribute("data-piece") == "R"


def test_the_page_reconnects_after_a_server_restart():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = browser.new_page()
        with serve_board(SimulatedBoard(), port):
            page.goto("http://127.0.0.1:%d/" % port)
            page.wait_for_selector("#conn:text('connected')")
        page.wait_for_selector("#conn.down", timeout=30000)
        board = SimulatedBoard()
        with serve_board(board, port):
            board.sim.lift("e2")
            board.sim.place("e4")
            page.wait_for_selector("#conn:not(.down)", timeout=30000)
            page.wait_for_selector(".sq[data-square='e4'] .piece", timeout=10000)
        browser.close()


def test_the_send_box_takes_a_whole_line_and_says_what_is_wrong(page):
    assert page.locator("#send").is_hidden(), "the developer's drawer is closed at first"
    page.locator("#serial-box summary").click()
    page.locator("#send").fill("   ")
    page.locator("#send-form button").click()
    page.wait_for_function("document.getElementById('error').textContent.includes('blank')")
    page.locator("#send").fill("x" * 513)
    page.locator("#send-form button").click()
    page.wait_for_function("document.getElementById('error').textContent.includes('at most 512 bytes')")
    line = '{"cmd": "status", "id": "%s"}' % ("i" * 32)
    page.locator("#send").fill("leds " + "x" * 300)            # 305 bytes: sent, the board answers (leds has no field)
    page.locator("#send-form button").click()
    page.wait_for_function("document.getElementById('protocol').textContent.includes('> leds xxx')")
    page.wait_for_function("document.getElementById('protocol').textContent.includes('too many words')")
    # The board's own refusal is said in words too, not only as a JSON line in the log.
    page.wait_for_function("document.getElementById('error').textContent.startsWith('The board refused “leds”')")
    assert "too many words" in page.locator("#explain").text_content()
    page.locator("#send").fill("y" * 9000)                      # too big for one message: said, not cut
    page.locator("#send-form button").click()
    page.wait_for_function("document.getElementById('error').textContent.includes('this one has 9000')")
    page.locator("#send").fill(line)
    page.locator("#send-form button").click()
    page.wait_for_function("document.getElementById('protocol').textContent.includes('\"re\": \"status\"')")
    page.wait_for_function("document.getElementById('error').textContent === ''")   # that refusal is old news
    # The log follows its newest line.
    at_end = page.evaluate("(() => { const l = document.getElementById('protocol');"
                           " return l.scrollTop + l.clientHeight >= l.scrollHeight - 4; })()")
    assert at_end


def launch(p):
    return p.chromium.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"])


def test_the_same_page_for_a_board_on_usb(tmp_path):
    """A real board (the firmware behind a pty): no simulated hands on the page, the game followed."""
    from companion_support import PtyBoard
    from host_tools.companion.boards import SerialBoard
    with PtyBoard(str(tmp_path / "ttyPico")) as pico:
        board = SerialBoard(pico.path, retry=(0.05, 0.2))
        with serve_board(board) as url, sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1300, "height": 950})
            page.goto(url + "/")
            page.wait_for_selector("#conn:text('connected (board on USB)')")
            page.wait_for_selector(".sq[data-square='e1'] .piece[data-piece='K']", state="attached")
            assert page.locator(".tray-row").is_hidden() and page.locator(".controls").is_hidden()
            # One board on screen: the mirror (the game as the board's rules see it); no simulated board.
            assert page.locator("#board").is_hidden() and page.locator("#mirror").is_visible()
            page.wait_for_selector("#mirror piece.white.king")
            pico.hands(lambda hw: hw.lift(12))
            page.wait_for_selector(".sq[data-square='e2'][data-led='lifted']", state="attached")
            pico.hands(lambda hw: hw.place(28))
            moves_are(page, ["e4"])
            assert page.locator(".sq[data-square='e4'] .piece").get_attribute("data-piece") == "P"
            assert page.locator("#last-move").text_content() == "last: 1. e4"
            pico.unplug()
            page.wait_for_selector("#conn.down:text('waiting for the board')")
            pico.plug()
            page.wait_for_selector("#conn:not(.down)", timeout=10000)
            os.makedirs(ARTIFACTS, exist_ok=True)
            page.screenshot(path=os.path.join(ARTIFACTS, "companion-usb.png"), full_page=True)
            browser.close()


@pytest.mark.parametrize("engine, level", [("stockfish", "elo 1450"), ("scacchiera", "level 2")])
def test_play_the_computer_from_the_page(served, page, engine, level):
    from host_tools.companion.engine import engines
    board = served[0]
    board.play_computer(engines())
    if engine not in board.computer.describe()["engines"]:
        pytest.skip("no Stockfish (apt-get install stockfish): only the project's own engine is offered")
    board.computer.start()
    page.reload()
    page.wait_for_selector("#conn:text('connected')")
    start_game(page, opponent="computer " + engine, level=level, colour="white")
    page.wait_for_function("window.scacchiera.state.computer.sides.join() === 'black'")
    assert page.locator("#name-black").text_content() == board.computer.name
    drag(page, "e2", "e4")
    moves_are(page, ["e4"])
    # The computer's move as the page's state has it (its LEDs can come before the status that names it:
    # the board's state read at once once said None at a load of 6-7).
    page.wait_for_function("window.scacchiera.state.show", timeout=15000)
    shown = page.evaluate("window.scacchiera.state.show")
    page.wait_for_selector(".sq[data-square='%s'][data-led='show-from']" % shown[:2], timeout=15000)
    assert cell(page, shown[:2]).get_attribute("data-led") == "show-from"
    assert cell(page, shown[2:4]).get_attribute("data-led") == "show-to"
    c = board.state()["computer"]
    assert c["engine"] == engine and c[level.split()[0]] == int(level.split()[1])
    # The engine's move made by the hands, then a hint for White from the page's button.
    drag(page, shown[:2], shown[2:4])
    page.wait_for_function("window.scacchiera.state.moves.length === 2", timeout=10000)
    assert board.state()["moves"][1] == shown
    page.wait_for_function("document.getElementById('state').textContent === 'idle'")
    page.click("#hint")
    page.wait_for_function("document.getElementById('explain').textContent.includes('Hint:')", timeout=15000)
    hint = board.state()["suggestion"]
    page.wait_for_selector(".sq[data-square='%s'][data-led='suggest-from']" % hint[:2])   # lit as a suggestion
    assert page.locator("#computer-hint").text_content().startswith("hint: " + hint)
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, "computer-%s.png" % engine), full_page=True)


def test_the_display_panel_and_its_menu_buttons(page):
    """The simulated board's 128 x 64 panel shows the firmware's lines; the page's buttons drive the menu."""
    page.wait_for_function("() => document.getElementById('oled') && "
                           "JSON.parse(document.getElementById('oled').dataset.lines)[1] === 'White to move'")
    page.click("#buttons button[data-button='menu']")
    page.wait_for_function("() => JSON.parse(document.getElementById('oled').dataset.lines)[0] === 'Menu  ok: change'")
    size = page.evaluate("() => [document.getElementById('oled').width, document.getElementById('oled').height]")
    assert size[0] == 2 * size[1], "a 128 x 64 panel, scaled"
    page.locator("#oled").screenshot(path=os.path.join(ARTIFACTS, "display.png"))


def test_the_board_by_keyboard_with_names_for_a_screen_reader(page):
    """Tab to a square, Enter lifts its piece, Enter on another square puts it down; each square is
    named with what stands on it."""
    assert cell(page, "e2").get_attribute("aria-label") == "e2, white pawn"
    assert cell(page, "e4").get_attribute("aria-label") == "e4, empty"
    cell(page, "e2").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".sq[data-square='e2'][data-led='lifted']")
    cell(page, "e4").focus()
    page.keyboard.press("Enter")
    moves_are(page, ["e4"])
    page.wait_for_function("document.querySelector(\".sq[data-square='e4']\").getAttribute('aria-label').startsWith('e4, white pawn')")
