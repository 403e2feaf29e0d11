"""The companion's Train dialog (host_tools/companion/training.py): a named player's puzzles into the
household ladder, a PGN turned into the board's line, and what a bad request gets."""

import os

import pytest

from companion_support import ARTIFACTS, BROWSER_TESTS, CHROMIUM, served, sync_playwright
from host_tools.companion import training
from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.ladder import elo
from host_tools.ladder.ladder import Ladder

LEGAL = """[Event "Casual"]
[White "Legal"]
[Black "Saint Brie"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0
"""


@pytest.fixture
def board(tmp_path):
    b = SimulatedBoard(speed=0)            # step mode: time moves only when the test says
    b.ladder_path = str(tmp_path / "ladder.sqlite3")
    b.advance(300)
    return b


def drills(board):
    return [ev for ev in board.model.events if ev.get("ev") == "drill"]


def set_up(board):
    """The hands do what the LEDs ask (the simulator's own set-up), then the board sees it."""
    board.sim.set_up()
    board.advance(400)
    assert board.sim.app.game.in_sync()


def play(board, uci):
    """A move as hands make it: a victim off first, the piece on, a promotion's piece from the tray."""
    sim = board.sim
    pos = sim.app.game.position
    frm, to = uci[:2], uci[2:4]
    if sim.pieces[sim.square(to)]:
        sim.lift(to)
        sim.to_tray()
        board.advance(150)
    sim.lift(frm)
    board.advance(150)
    if len(uci) == 5:
        sim.to_tray()
        sim.place(to, uci[4].upper() if pos.turn == 0 else uci[4])
    else:
        sim.place(to)
    board.advance(700)


def test_a_named_players_puzzles_go_into_the_ladder_and_the_next_is_another(board):
    index = training.choose_puzzle(1000, (), "mateIn2")
    pid, fen, moves, rating, themes = training.puzzles()[index]
    board.act("train", {"mode": "puzzle", "player": "Anna", "theme": "mateIn2"})
    board.advance(200)
    start = drills(board)[-1]
    assert (start["state"], start["puzzle"], start["puzzle_rating"]) == ("start", pid, rating)
    set_up(board)
    for uci in moves:
        play(board, uci)
    done = drills(board)[-1]
    assert (done["state"], done["solved"], done["mistakes"]) == ("done", True, 0), done
    with Ladder(board.ladder_path) as ladder:
        standing = ladder.puzzles("Anna")
    assert standing["tried"] == [pid] and standing["attempts"] == standing["solved"] == 1
    assert standing["rating"] == 1000 + elo.change(1000, rating, 1.0)
    said = board.state()["training"]["said"]
    assert said.startswith("Anna: puzzle rating %d (+" % standing["rating"]), said
    # The next one for Anna: untried, nearest her new rating, the same theme.
    board.act("train", {"mode": "puzzle", "player": "Anna", "theme": "mateIn2"})
    board.advance(200)
    again = drills(board)[-1]
    expected = training.puzzles()[training.choose_puzzle(standing["rating"], [pid], "mateIn2")]
    assert again["puzzle"] == expected[0] != pid


def test_a_failed_puzzle_is_a_loss_in_the_ladder(board):
    index = training.choose_puzzle(1400, ())
    pid, fen, moves, rating, themes = training.puzzles()[index]
    board.act("train", {"mode": "puzzle", "player": "Bruno", "rating": 1400})
    board.advance(200)
    set_up(board)
    play(board, moves[0])
    game = board.sim.app.game
    wrong = next(m for m in game.position.legal_moves() if game.position.uci(m) != moves[1])
    play(board, game.position.uci(wrong))
    assert drills(board)[-1]["state"] == "wrong"
    set_up(board)                                   # the piece back, as the LEDs ask
    assert game.tracker.required == game.position.parse_uci(moves[1])    # then the solution is shown
    for uci in moves[1:]:
        play(board, uci)
    done = drills(board)[-1]
    assert (done["state"], done["solved"], done["mistakes"]) == ("done", False, 1), done
    with Ladder(board.ladder_path) as ladder:
        assert ladder.puzzles("Bruno")["rating"] == 1000 + elo.change(1000, rating, 0.0)


def test_a_pgn_becomes_the_boards_line(board):
    board.act("train", {"mode": "guess", "side": "b", "pgn": LEGAL})
    board.advance(300)
    start = drills(board)[-1]
    assert (start["state"], start["mode"], start["plies"], start["side"]) == ("start", "guess", 13, "b")
    assert board.sim.app.game.tracker.required == board.sim.app.game.position.parse_uci("e2e4")


def test_a_long_game_is_sent_in_several_lines(board):
    moves = " ".join("%d. Nf3 Nf6 %d. Ng1 Ng8" % (2 * i + 1, 2 * i + 2) for i in range(50))
    board.act("train", {"mode": "replay", "pgn": moves})
    board.advance(400)
    lines = [line for line in board.model.log if line.startswith("> ") and '"cmd":"line"' in line]
    assert len(lines) == 3                          # 200 plies, 80 a line
    assert drills(board)[-1]["plies"] == 200


@pytest.mark.parametrize("fields, message", [
    ({"mode": "chess"}, "'mode' is one of"),
    ({"mode": "guess", "side": "w"}, "no PGN given"),
    ({"mode": "guess", "side": "w", "pgn": "1. e4 e5 2. Ke3"}, "cannot be read"),
    ({"mode": "replay", "pgn": '[Variant "Chess960"]\n[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]\n'
      '[SetUp "1"]\n\n9. g3 *'}, "standard chess"),
    ({"mode": "guess", "side": "g", "pgn": LEGAL}, "'side' is w or b"),
    ({"mode": "puzzle", "player": "Anna", "theme": "zwischenzug"}, "no puzzle has the theme"),
    ({"mode": "guess", "side": "w", "pgn": LEGAL, "game": 3}, "no game 4"),
])
def test_bad_requests_get_clear_errors(board, fields, message):
    with pytest.raises(ActionError, match=message):
        board.act("train", fields)


# -- the page -------------------------------------------------------------------------------------

def test_the_page_starts_a_guess_the_move_drill_and_says_each_judgement(tmp_path):
    """The Train dialog: a PGN pasted, Black's moves to guess; the board shows White's first move, a
    wrong guess is said under the board, then the right one."""
    board = SimulatedBoard(speed=4.0)
    with sync_playwright() as p, served(board, ladder=str(tmp_path / "ladder.sqlite3")) as url:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url + "/")
            page.wait_for_selector("#conn:text('connected')")
            page.click("#act-new")
            page.click("#act-train")                 # New game's "Train…"
            page.select_option("#tr-mode", "guess")
            assert page.locator("#tr-puzzle-rows").is_hidden() and page.locator("#tr-pgn").is_visible()
            page.check("input[name=tr-side][value=b]")
            page.fill("#tr-pgn", LEGAL)
            page.click("#tr-form button[type=submit]")
            page.wait_for_selector("#drill-news:text(\"Your moves are Black's\")")
            with board.sim.lock:
                play(board, "e2e4")
                play(board, "d7d6")                  # not the game's 1...e5
            page.wait_for_selector("#drill-news:text('Not d6:')")              # in SAN, as the page writes moves
            with board.sim.lock:
                set_up(board)
                play(board, "e7e5")
            page.wait_for_selector("#drill-news:text('Right: e5')")
            page.screenshot(path=os.path.join(ARTIFACTS, "train-guess-phone.png"))
            assert not errors, errors
        finally:
            browser.close()
            board.stop()


for _mark in BROWSER_TESTS:          # the page's test needs Chromium and Playwright (the others do not)
    test_the_page_starts_a_guess_the_move_drill_and_says_each_judgement = _mark(
        test_the_page_starts_a_guess_the_move_drill_and_says_each_judgement)
