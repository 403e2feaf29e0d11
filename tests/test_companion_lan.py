"""The phone beside a real board (--lan, host_tools/companion/pairing.py): the page on the LAN for a
browser paired with a one-time key, refused to everything else. The LAN address is 127.0.0.2 here (a
loopback address standing in for it) and its host names are made up: no traffic leaves this machine."""

import contextlib
import http.client
import json
import time

import pytest
import websockets.sync.client

from companion_support import BROWSER_TESTS, CHROMIUM, sync_playwright
from host_tools.companion.boards import SimulatedBoard
from host_tools.companion.pairing import COOKIE, Pairing
from host_tools.companion.server import bind, make_server
from host_tools.serving import in_thread

LAN = "127.0.0.2"
NAME = "scacchiera-pi.local"


@pytest.fixture
def lan(tmp_path):
    """(board, port, pairing): the simulator's page on 127.0.0.1 and on the "LAN" 127.0.0.2."""
    board = SimulatedBoard(speed=4.0)
    sock = bind(0)
    port = sock.getsockname()[1]
    lan_sock = bind(port, LAN)
    pairing = Pairing(LAN, port, names=(NAME,))
    with running(make_server(board, sock, str(tmp_path / "ladder.sqlite3"), pairing), sock, lan_sock):
        yield board, port, pairing


@contextlib.contextmanager
def running(server, sock, lan_sock):
    """``server`` on 127.0.0.1 and the "LAN" (its two sockets), in a thread, until the block ends."""
    try:
        with in_thread(server, [sock, lan_sock]):
            yield
    finally:
        sock.close()
        lan_sock.close()


def get(address, port, path, host=None, cookie=None, method="GET", body=None):
    """(status, headers, text) of one request to ``address``, Host ``host`` (default the address)."""
    conn = http.client.HTTPConnection(address, port, timeout=20)
    headers = {"Host": host or "%s:%d" % (address, port)}
    if cookie:
        headers["Cookie"] = cookie
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    text = res.read().decode(errors="replace")
    conn.close()
    return res.status, dict((k.lower(), v) for k, v in res.getheaders()), text


ROUTES = ["/", "/index.html", "/companion.js", "/room.js", "/vendor/chessground.js", "/api/state", "/api/ladder"]


def pair(port, pairing):
    """Open the pairing link as a phone does: the cookie it gets."""
    key = pairing.link().split("key=")[1]
    status, headers, _ = get(LAN, port, "/pair?key=" + key)
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return cookie.split(";")[0]


def ws_refused(port, cookie=None):
    """Whether the page's WebSocket on the LAN address is refused (its Host is that address)."""
    headers = {}
    if cookie:
        headers["Cookie"] = cookie
    try:
        with websockets.sync.client.connect("ws://%s:%d/ws" % (LAN, port), additional_headers=headers,
                                            open_timeout=10) as ws:
            ws.recv(timeout=10)
        return False
    except websockets.exceptions.InvalidStatus as e:
        return e.response.status_code in (401, 403)


def test_without_the_key_every_route_and_the_websocket_are_refused(lan):
    board, port, pairing = lan
    for path in ROUTES:
        assert get(LAN, port, path)[0] == 401, path
        assert get(LAN, port, path, cookie="%s=forged" % COOKIE)[0] == 401, path
    assert get(LAN, port, "/api/act", method="POST", body={"do": "lift", "square": "e2"})[0] == 401
    assert ws_refused(port) and ws_refused(port, cookie="%s=forged" % COOKIE)
    # The loopback names sent to the LAN address do not make it loopback: the socket decides.
    assert get(LAN, port, "/api/state", host="127.0.0.1:%d" % port)[0] == 403
    assert get(LAN, port, "/api/state", host="evil.example:%d" % port)[0] == 403
    assert get(LAN, port, "/pair?key=wrong")[0] == 403
    assert board.state()["pieces"][12] == "P", "nothing moved"
    # The computer's own page is as before: loopback, no key.
    assert get("127.0.0.1", port, "/")[0] == 200 and get("127.0.0.1", port, "/api/state")[0] == 200


def test_the_key_pairs_one_browser_once_and_then_the_page_plays(lan):
    board, port, pairing = lan
    key = pairing.link().split("key=")[1]
    # A chat app's link preview (HEAD) leaves the key for the phone (it used it up).
    status, headers, _ = get(LAN, port, "/pair?key=" + key, method="HEAD")
    assert status == 405 and "set-cookie" not in headers
    cookie = pair(port, pairing)
    assert get(LAN, port, "/pair?key=" + key)[0] == 403, "the key works once"
    for path in ROUTES:
        assert get(LAN, port, path, cookie=cookie)[0] == 200, path
    assert get(LAN, port, "/api/state", host="%s:%d" % (NAME, port), cookie=cookie)[0] == 200
    # The pairing's controls stay on the computer.
    assert get(LAN, port, "/api/pairing", cookie=cookie)[0] == 403
    assert get(LAN, port, "/api/pairing/revoke", method="POST", body={}, cookie=cookie)[0] == 403
    # The page's WebSocket: the state pushed, an action played.
    with websockets.sync.client.connect("ws://%s:%d/ws" % (LAN, port), open_timeout=10,
                                        additional_headers={"Cookie": cookie,
                                                            "Origin": "http://%s:%d" % (LAN, port)}) as ws:
        assert "pieces" in json.loads(ws.recv(timeout=10))["state"]
        for i, (action, square) in enumerate((("lift", "e2"), ("place", "e4"))):
            ws.send(json.dumps({"do": action, "square": square, "id": i}))
        deadline = time.monotonic() + 10
        while board.state()["moves"] != ["e2e4"]:
            assert time.monotonic() < deadline, board.state()["moves"]
            time.sleep(0.05)
    # Another key for the next phone; the first stays paired.
    assert pair(port, pairing) != cookie and pairing.paired() == 2


def test_the_computers_page_shows_the_code_and_revokes_every_phone(lan):
    board, port, pairing = lan
    cookie = pair(port, pairing)
    status, _, text = get("127.0.0.1", port, "/api/pairing")
    info = json.loads(text)
    assert status == 200 and info["lan"] and info["link"] == pairing.link() and info["svg"].startswith("<svg")
    assert info["paired"] == 1
    assert get("127.0.0.1", port, "/api/pairing/revoke", method="POST", body={})[0] == 200
    assert get(LAN, port, "/api/state", cookie=cookie)[0] == 401, "revoked"
    assert json.loads(get("127.0.0.1", port, "/api/pairing")[2])["link"] != info["link"], "a new key"


def test_revoking_cuts_an_open_page_at_once_and_it_can_do_nothing_more(lan):
    """4 s after "Revoke every phone" an open page played e2-e4 and resigned over its WebSocket (the
    pairing was checked at the handshake only). Now the revoke closes it (1008) and an action that
    races the close is not taken."""
    board, port, pairing = lan
    cookie = pair(port, pairing)
    with websockets.sync.client.connect("ws://%s:%d/ws" % (LAN, port), open_timeout=10,
                                        additional_headers={"Cookie": cookie,
                                                            "Origin": "http://%s:%d" % (LAN, port)}) as ws:
        assert "pieces" in json.loads(ws.recv(timeout=10))["state"]
        assert get("127.0.0.1", port, "/api/pairing/revoke", method="POST", body={})[0] == 200
        try:
            for i, (action, square) in enumerate((("lift", "e2"), ("place", "e4"))):
                ws.send(json.dumps({"do": action, "square": square, "id": i}))
            while True:                          # the pushes already on their way, then the close
                ws.recv(timeout=20)
        except websockets.exceptions.ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1008, e
    assert board.state()["pieces"][12] == "P" and board.state()["moves"] == [], "nothing moved"
    assert ws_refused(port, cookie), "and it cannot come back"


@pytest.mark.parametrize("browser_ready", [pytest.param(True, marks=BROWSER_TESTS)])
def test_a_phone_opens_the_link_and_plays_on_the_page(lan, browser_ready):
    board, port, pairing = lan
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
            page = context.new_page()
            assert page.goto("http://%s:%d/" % (LAN, port)).status == 401
            page.goto(pairing.link())
            page.wait_for_selector("#conn:text('connected')")
            assert page.url == "http://%s:%d/" % (LAN, port)
            page.evaluate("window.scacchiera.post('lift', {square: 'e2'})")
            page.evaluate("window.scacchiera.post('place', {square: 'e4'})")
            page.wait_for_function("window.scacchiera.state && window.scacchiera.state.moves.length === 1")
            assert board.state()["moves"] == ["e2e4"]
            assert page.locator("#phone-box").is_hidden(), "no pairing controls on a phone"
            # The computer's page: the next phone's code, one phone paired, and the revoke button.
            desk = browser.new_page(viewport={"width": 1280, "height": 800})
            desk.goto("http://127.0.0.1:%d/" % port)
            desk.wait_for_selector("#phone-box:not([hidden])")
            desk.click("#phone-box summary")
            desk.wait_for_selector("#phone-qr svg")
            assert desk.inner_text("#phone-link") == pairing.link() and "1 paired" in desk.inner_text("#phone-paired")
            desk.click("#phone-revoke")
            desk.wait_for_selector("#phone-paired:text('none paired yet')")
            assert page.goto("http://%s:%d/" % (LAN, port)).status == 401, "the phone is out"
        finally:
            browser.close()


def test_a_clubs_pages_on_the_lan_are_for_paired_browsers(tmp_path):
    """A club (host_tools/club) with --lan: every board's page and the club's API want the pairing's
    cookie; a board's pairing controls stay on the computer; the live feed is public."""
    from host_tools.club.club import Club
    from host_tools.club.server import make_club_server
    boards = [SimulatedBoard(speed=0) for _ in range(2)]
    sock = bind(0)
    port = sock.getsockname()[1]
    lan_sock = bind(port, LAN)
    pairing = Pairing(LAN, port, names=(NAME,))
    club = Club(boards, str(tmp_path / "club"), str(tmp_path / "ladder.sqlite3"))
    server = make_club_server(club, sock, str(tmp_path / "ladder.sqlite3"), pairing)
    try:
        with running(server, sock, lan_sock):
            for path in ("/", "/club/api/state", "/board/1/", "/board/2/api/state"):
                assert get(LAN, port, path)[0] == 401, path
            assert get(LAN, port, "/board/1/api/pairing")[0] == 403
            assert get(LAN, port, "/broadcast/current.pgn")[0] == 404          # public: no round yet, not 401
            status, headers, _ = get(LAN, port, "/pair?key=" + pairing.link().split("key=")[1])
            assert status == 303
            cookie = headers["set-cookie"].split(";")[0]
            for path in ("/", "/club/api/state", "/board/1/", "/board/2/api/state"):
                assert get(LAN, port, path, cookie=cookie)[0] == 200, path
            assert get(LAN, port, "/board/1/api/pairing", cookie=cookie)[0] == 403
            assert get("127.0.0.1", port, "/board/1/api/pairing")[0] == 200    # the computer's own page
    finally:
        for board in boards:
            board.sim.flash.cleanup()
