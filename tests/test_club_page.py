"""The club page in a browser (headless Chromium, a phone's width): the boards, a tournament made
from the ladder's players, a round paired and sent to the boards, a board's own page at /board/N/,
a result set by the arbiter into the standings."""

import pytest

from companion_support import BROWSER_TESTS, chromium
from host_tools.companion.boards import SimulatedBoard
from test_club import NAMES, club_served

pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def test_a_round_on_the_club_page_at_a_phones_width(browser, tmp_path):
    boards = [SimulatedBoard(speed=0) for _ in range(3)]
    with club_served(tmp_path, boards, NAMES[:4]) as (club, url):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        page.wait_for_selector("#boards tbody tr >> nth=2")
        assert page.locator("#boards tbody tr").count() == 3
        assert "down" not in (page.locator("#conn").get_attribute("class") or "")
        page.wait_for_selector("#t-players input >> nth=3")          # the ladder's four players
        for box in page.locator("#t-players input").all():
            box.check()
        page.fill("#t-name", "Giovedì al circolo")
        page.select_option("#t-system", "round-robin")
        page.click("#new-tournament button[type=submit]")
        page.wait_for_selector("#tournament:not([hidden])")
        assert "Giovedì al circolo" in page.locator("#t-title").text_content()
        assert page.locator("#standings tbody tr").count() == 4
        page.click("#pair")
        page.wait_for_selector("#pairings tbody tr >> nth=1")
        rnd = club.tournament.current()
        first = rnd["games"][0]
        white = club.tournament.name_of(first["white"])
        assert page.locator("#pairings tbody tr").first.locator("td").nth(1).text_content() == white
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390     # no sideways scroll
        # Each board's page is its number's link, on the phone's screen (the Link column was off it);
        # the last move in SAN, as everywhere else (it was h5f7).
        right = page.evaluate("(n) => document.querySelectorAll('#boards tbody tr')[n].querySelector('a')"
                              ".getBoundingClientRect().right", first["board"] - 1)
        assert 0 < right <= 390, right
        played = boards[first["board"] - 1]
        for _ in range(40):
            played.advance(20)
        played.act("lift", {"square": "g1"})
        played.advance(100)
        played.act("place", {"square": "f3"})
        for _ in range(60):
            played.advance(20)
        page.wait_for_function("(n) => document.querySelectorAll('#boards tbody tr')[n].children[5].textContent === '1. Nf3'",
                               arg=first["board"] - 1)
        # The board's own page, linked from the club page, shows the pairing's players.
        for board in boards:
            board.advance(200)
        board_page = context.new_page()
        board_page.on("pageerror", lambda e: errors.append(str(e)))
        board_page.goto(url + "/board/%d/" % first["board"])
        board_page.wait_for_selector("#conn:text('connected')")
        board_page.wait_for_function("want => document.getElementById('name-white').textContent.includes(want)",
                                     arg=white)
        # The arbiter gives board 1 a result: the standings follow.
        page.locator("#pairings tbody tr").first.locator("select").first.select_option("1-0")
        page.wait_for_function("() => [...document.querySelectorAll('#standings tbody tr td:nth-child(4)')]"
                               ".some((td) => td.textContent === '1')")
        assert club.tournament.game(1, first["board"])["result"] == "1-0"
        assert "1-0 (arbiter)" in page.locator("#pairings tbody tr").first.text_content()
        # A player withdraws (the page asks first): the standings say so.
        page.on("dialog", lambda d: d.accept())
        page.locator("#standings tbody tr").last.locator("button").click()
        page.wait_for_selector("#standings td:text-matches('withdrew')")
        assert sum(bool(p.get("withdrawn")) for p in club.tournament.players) == 1
        page.click("#ui-lang")                                   # in Italian
        page.wait_for_selector("h2:text-is('Classifica'), h3:text-is('Classifica')")
        assert page.locator("#pair").text_content() == "Abbina il turno successivo"
        assert errors == []
        context.close()
