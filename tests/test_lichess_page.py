"""The page's "Play on Lichess" box in headless Chromium: log-in state, a game against Lichess's AI
started by its button, the clocks, the board's move reaching (fake) Lichess, resigning by its button.
The fake Lichess of test_lichess.py; screenshots in test-artifacts/."""

import os
import time

import pytest

from companion_support import ARTIFACTS, BROWSER_TESTS, CHROMIUM, served, sync_playwright
from fake_lichess import FakeLichess, Served
from host_tools.companion.boards import SimulatedBoard

pytestmark = BROWSER_TESTS
TOKEN = "lip_goodtoken123"


def wait(what, predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting for %s" % what
        time.sleep(0.05)


def test_a_game_against_the_ai_from_the_page(tmp_path):
    fake = FakeLichess(token=TOKEN)
    fake.next_script = "e2e4 e7e5 f1c4 b8c6".split()
    with Served(fake) as lichess, sync_playwright() as p:
        board = SimulatedBoard()
        board.play_lichess(token=TOKEN, base_url=lichess.url, token_path=str(tmp_path / "token"), ladder_path=None,
                           archive_dir=str(tmp_path / "archive"))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            with served(board) as url:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("dialog", lambda d: d.accept())
                page.goto(url + "/")
                page.wait_for_selector("#conn:text('connected')")     # the rest of the page works alongside
                page.wait_for_selector("#lichess-account:text('logged in as Player')", state="attached")
                page.click("#lichess-box summary")
                assert page.is_hidden("#lichess-login") and page.is_visible("#lichess-start")
                page.select_option("#lichess-color", "white")
                page.fill("#lichess-level", "4")
                page.click("#lichess-ai")
                page.wait_for_selector("#lichess-game:visible")
                page.wait_for_selector("#lichess-opponent:text('Lichess AI level 4')")
                assert page.inner_text("#lichess-clock-white") == "10:00"
                wait("the board set up", lambda: board.lichess.game.phase == "play")
                board.act("lift", {"square": "e2"})
                time.sleep(0.1)
                board.act("place", {"square": "e4"})
                gid = board.lichess.game.id
                wait("e2e4 at Lichess, e7e5 back", lambda: fake.moves(gid) == ["e2e4", "e7e5"])
                page.wait_for_selector("#board .piece")
                page.wait_for_selector("#turn:text('black')")   # companion.js's own rendering goes on
                os.makedirs(ARTIFACTS, exist_ok=True)
                page.screenshot(path=os.path.join(ARTIFACTS, "page-lichess-game.png"), full_page=True)
                page.click("#lichess-resign")
                page.wait_for_selector("#lichess-last:text('resign')")
                assert fake.games[gid].status == "resign" and fake.games[gid].winner == "black"
                assert errors == []
                assert TOKEN not in page.content()
        finally:
            browser.close()
            board.lichess.stop()


def test_incoming_challenges_accepted_and_declined_by_the_pages_buttons(tmp_path):
    """Through the page's WebSocket, as a person does it (the page's request id once hid the challenge's)."""
    fake = FakeLichess(token=TOKEN)
    with Served(fake) as lichess, sync_playwright() as p:
        board = SimulatedBoard()
        board.play_lichess(token=TOKEN, base_url=lichess.url, token_path=str(tmp_path / "token"), ladder_path=None,
                           archive_dir=str(tmp_path / "archive"))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            with served(board) as url:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(url + "/")
                page.wait_for_selector("#lichess-account:text('logged in as Player')", state="attached")
                page.click("#lichess-box summary")
                bob = fake.send_challenge("bob")
                mary = fake.send_challenge("mary")
                page.wait_for_selector("#lichess-challenges li:has-text('Bob')")
                page.wait_for_selector("#lichess-challenges li:has-text('Mary')")
                page.click("#lichess-challenges li:has-text('Bob') button:text('decline')")
                page.wait_for_selector("#lichess-challenges li:has-text('Bob')", state="detached")
                assert bob not in fake.challenges and bob not in fake.games, "declined at Lichess"
                page.click("#lichess-challenges li:has-text('Mary') button:text('accept')")
                page.wait_for_selector("#lichess-game:visible")
                page.wait_for_selector("#lichess-opponent:text('Mary')")
                assert mary in fake.games, "accepted at Lichess: its game is on"
                assert "no such challenge" not in page.content() and errors == []
        finally:
            browser.close()
            board.lichess.stop()
