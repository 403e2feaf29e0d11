"""The companion's web server (real uvicorn on loopback): one board for every page, clear errors,
and refused: other sites, foreign Host names, oversized, slow and deeply nested requests."""

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import websockets

import board_config
from companion_support import served
from host_tools.companion import server as companion_server
from host_tools.companion.boards import TOUCH_MS, SimulatedBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def board():
    return SimulatedBoard(speed=4.0)


@pytest.fixture
def url(board):
    with served(board) as url:
        yield url


def port_of(url):
    return int(url.rsplit(":", 1)[1])


def request(url, method, path, body=None, headers=None, raw=None):
    """(status, parsed JSON or text) of one request; ``headers`` may replace Host."""
    conn = http.client.HTTPConnection("127.0.0.1", port_of(url), timeout=20)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    hdrs = {"Host": "127.0.0.1:%d" % port_of(url)}
    hdrs.update(headers or {})
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for k, v in hdrs.items():
        conn.putheader(k, v)
    if data is not None:
        conn.putheader("Content-Length", str(len(data)))
    conn.endheaders(data)
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    try:
        return res.status, json.loads(text)
    except ValueError:
        return res.status, text


def state(url):
    status, s = request(url, "GET", "/api/state")
    assert status == 200
    return s


def act(url, action, **fields):
    fields["do"] = action
    return request(url, "POST", "/api/act", fields)


def wait_for(url, predicate, timeout=10):
    deadline = time.monotonic() + timeout
    s = state(url)
    while not predicate(s):
        assert time.monotonic() < deadline, "timed out; last state: %s" % {k: s[k] for k in ("moves", "state", "leds")}
        time.sleep(0.02)
        s = state(url)
    return s


def ws_handshake(url, headers):
    """The status line and headers a WebSocket handshake gets (sent by hand, to choose every header)."""
    hdrs = {"Host": "127.0.0.1:%d" % port_of(url), "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"}
    hdrs.update(headers)
    head = "GET /ws HTTP/1.1\r\n" + "".join("%s: %s\r\n" % kv for kv in hdrs.items()) + "\r\n"
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=5) as s:
        s.sendall(head.encode())
        return s.recv(4096)


def ws_url(url):
    return "ws" + url[len("http"):] + "/ws"


def test_a_move_through_the_api_is_seen_by_every_page(url):
    wait_for(url, lambda s: s["ready"])
    assert act(url, "lift", square="e2") == (200, {"ok": True})
    assert act(url, "place", square="e4")[0] == 200
    s = wait_for(url, lambda s: s["moves"] == ["e2e4"] and "1. e4 *" in s["pgn"])
    assert s["san"] == ["e4"] and s["san_it"] == ["e4"] and s["turn"] == "black"
    assert s["board"] == {"kind": "simulated", "hands": True, "connected": True, "problem": None}
    assert "1. e4 *" in s["pgn"]


def test_the_page_gets_the_boards_own_buttons_and_option_specs(url):
    s = wait_for(url, lambda s: s["ready"] and s["option_specs"])
    assert s["buttons"] == [name for name, _pin in board_config.BUTTONS], "the hardware layer's button names"
    assert set(s["option_specs"]) == set(s["options"]) and s["option_specs"]["hints"]["type"] == "bool"
    assert act(url, "press", button="diag")[0] == 200
    wait_for(url, lambda s: any('"name": "diag"' in line for line in s["protocol"]))


@pytest.mark.parametrize("fields, code, words", [
    ({"do": "lift", "square": 5}, 400, "non-empty string"),
    ({"do": "lift", "square": "e9"}, 400, "not a square"),
    ({"do": "lift", "square": "e4"}, 400, "empty"),
    ({"do": "place", "square": "e1"}, 400, "occupied"),
    ({"do": "place", "square": "e4", "piece": "X"}, 400, "not a piece"),
    ({"do": "clock", "speed": 99}, 400, "speed"),
    ({"do": "new", "fen": "8/8/8 w"}, 400, "FEN"),
    ({"do": "explode"}, 400, "no such action"),
    ({"do": "game", "op": "explode"}, 400, "'op' is one of"),
    ({"do": "past", "op": "explode"}, 400, "'op' is list, open, import or analyse"),
    ({"do": "past", "op": "analyse", "game": 3}, 400, "open game 3 first"),
    ({"do": "move", "uci": "e2e5"}, 400, "not a legal move here"),
    ({"do": "fill", "square": "e4"}, 400, "no piece for e4"),
    ({"do": "hands", "computer": 1}, 400, "'computer' must be true or false"),
    ({"do": "past", "op": "open", "game": "1"}, 400, "archived game's number"),
    ({"do": "past", "op": "import", "game": 3}, 400, "open game 3 first"),
    ({"do": "game", "op": "undo", "side": "w"}, 400, "'side' is w or b"),
    ({"do": "send", "line": ""}, 400, "blank"),
    ({"do": "send", "line": "x" * 513}, 400, "at most 512 bytes; this one has 513"),
    ({"do": "send", "line": "status\nresign"}, 400, "line break"),
    ({"do": "send", "line": "ok\x15resign"}, 400, "control character"),
    ({"do": "send", "line": "\x03"}, 400, "control character"),
    ({"square": "e2"}, 400, "\"do\""),
])
def test_bad_actions_get_clear_errors_and_change_nothing(url, fields, code, words):
    before = wait_for(url, lambda s: s["ready"])
    status, answer = request(url, "POST", "/api/act", fields)
    assert status == code and words in answer["error"]
    after = state(url)
    assert (after["fen"], after["pieces"], after["hand"]) == (before["fen"], before["pieces"], before["hand"])


def test_options_go_to_the_board_as_protocol_lines(url):
    wait_for(url, lambda s: s["ready"])
    assert act(url, "option", name="hints", value=False)[0] == 200
    s = wait_for(url, lambda s: s["options"]["hints"] is False)
    assert any(line.startswith('> {"cmd":"set","name":"hints","value":false,"id":') for line in s["protocol"])
    act(url, "option", name="hints", value="yes")
    s = wait_for(url, lambda s: "refused" in s["protocol"][-1])
    assert s["options"]["hints"] is False


def test_a_line_of_512_bytes_is_sent(url):
    wait_for(url, lambda s: s["ready"])
    line = "new " + "x" * 508
    assert len(line) == 512
    assert act(url, "send", line=line)[0] == 200
    s = wait_for(url, lambda s: any("refused" in l and '"new"' in l for l in s["protocol"]))
    assert "> " + line in s["protocol"]


# -- what other sites and names get --------------------------------------------------------

@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://127.0.0.1:1"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Host": "evil.example"},
    {"Host": "rebind.example:%(port)d"},
    {"Host": "127.0.0.1"},
])
def test_other_sites_and_names_can_neither_read_nor_drive_the_board(url, headers):
    headers = dict((k, v % {"port": port_of(url)} if "%" in v else v) for k, v in headers.items())
    before = wait_for(url, lambda s: s["ready"])
    assert request(url, "POST", "/api/act", {"do": "send", "line": "resign"}, headers)[0] == 403
    assert request(url, "POST", "/api/act", raw=b'{"do": "send", "line": "resign"}',
                   headers=dict(headers, **{"Content-Type": "text/plain"}))[0] == 403
    assert request(url, "GET", "/api/state", headers=headers)[0] == 403
    assert request(url, "GET", "/", headers=headers)[0] == 403

    assert ws_handshake(url, headers).startswith(b"HTTP/1.1 403")
    # A line the page may send goes after any that got through: once its reply is in, nothing else came.
    assert act(url, "send", line='{"cmd": "leds", "id": "fence"}')[0] == 200
    after = wait_for(url, lambda s: any('"id": "fence"' in line for line in s["protocol"]))
    assert after["result"] == "*" and after["moves"] == before["moves"]


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_servers_own_names_are_served(url, name):
    origin = "http://%s:%d" % (name, port_of(url))
    host = "%s:%d" % (name, port_of(url))
    assert request(url, "GET", "/", headers={"Host": host, "Origin": origin})[0] == 200
    assert request(url, "GET", "/", headers={"Host": "[::1]:%d" % port_of(url)})[0] == 200

    async def handshake():
        async with websockets.connect(ws_url(url), origin=origin, open_timeout=5) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert "state" in asyncio.run(handshake())
    assert ws_handshake(url, {"Host": host, "Origin": origin}).startswith(b"HTTP/1.1 101")


# -- oversized, slow, nested, garbage ------------------------------------------------------

def test_oversized_requests_are_refused(url):
    status, answer = request(url, "POST", "/api/act", raw=b"x" * 9000)
    assert status == 413 and "over 8192 bytes" in answer["error"]
    status, _ = request(url, "GET", "/", headers={"X-Big": "y" * 20000})
    assert status == 431

    async def big_message():
        async with websockets.connect(ws_url(url), open_timeout=5) as ws:
            await ws.recv()
            await ws.send("x" * (companion_server.MAX_MESSAGE + 10))
            with pytest.raises(websockets.ConnectionClosed) as e:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            return e.value.rcvd.code
    assert asyncio.run(big_message()) == 1009          # "message too big"
    assert state(url)["result"] == "*"


def test_deeply_nested_json_gets_a_clear_error(url):
    deep = b"[" * 4000 + b"]" * 4000
    status, answer = request(url, "POST", "/api/act", raw=deep)
    assert status == 400 and "nested too deeply" in answer["error"]
    status, answer = request(url, "POST", "/api/act", raw=b"{" * 4000)
    assert status == 400 and answer["error"]

    async def nested():
        async with websockets.connect(ws_url(url), open_timeout=5) as ws:
            await ws.recv()
            await ws.send("[" * 10000 + "]" * 3000)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if "re" in msg:
                    return msg
    assert asyncio.run(nested()) == {"re": None, "ok": False, "error": "the message is nested too deeply"}


@pytest.mark.parametrize("message, error", [
    (b"\x00\xff binary", "messages are JSON text, not binary"),
    ("[1, 2]", "the message must be one JSON object"),
    ("{\"do\": 5}", "the message needs \"do\": the action's name"),
    ("{\"do\": \"lift\", \"square\": \"e4\", \"id\": 7}", "e4 is empty: nothing to lift"),
])
def test_bad_websocket_messages_get_an_answer_and_the_page_stays(url, message, error):
    async def send():
        async with websockets.connect(ws_url(url), open_timeout=5) as ws:
            await ws.send(message)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if "re" in msg:
                    break
            await ws.send(json.dumps({"do": "tray", "id": 8}))     # the connection still works
            while True:
                ok = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if "re" in ok:
                    return msg, ok
    msg, ok = asyncio.run(send())
    assert msg["ok"] is False and msg["error"] == error
    assert ok == {"re": 8, "ok": True}


def test_slow_requests_are_cut_off_and_do_not_harm_the_board(url, monkeypatch):
    monkeypatch.setattr(companion_server, "HEAD_SECONDS", 1.0)
    monkeypatch.setattr(companion_server, "BODY_SECONDS", 1.0)
    port = port_of(url)
    # 200 slow-loris connections, each with half a request head...
    slow = []
    for _ in range(200):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
        slow.append(s)
    # ... and a normal request is still answered at once,
    t0 = time.monotonic()
    assert request(url, "GET", "/api/state")[0] == 200
    assert time.monotonic() - t0 < 2
    # and a body shorter than its Content-Length gets 408 instead of a hung answer.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 100\r\n\r\n{\"do\"" % port)
        assert s.recv(1024).startswith(b"HTTP/1.1 408")
    # The slow ones are closed by the server once their time is up.
    for s in slow:
        s.settimeout(5)
        try:
            assert s.recv(1024) == b""
        except ConnectionResetError:
            pass
        s.close()
    assert act(url, "lift", square="e2")[0] == 200


def test_garbage_on_the_socket_does_not_stop_the_server(url):
    port = port_of(url)
    for junk in (b"\x00\xff garbage\r\n\r\n", b"GET\r\n\r\n",
                 b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 99999999\r\n\r\n{" % port):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(junk)
            s.recv(1024)
    assert request(url, "GET", "/api/state")[0] == 200


def test_other_methods_and_paths(url):
    assert request(url, "DELETE", "/api/state")[0] == 405
    assert request(url, "GET", "/api/act")[0] == 405
    assert request(url, "GET", "/../../etc/passwd")[0] == 404
    assert request(url, "GET", "/companion.js")[0] == 200
    status, text = request(url, "GET", "/")
    assert status == 200 and "<title>Scacchiera</title>" in text


def test_listens_on_loopback_only(url):
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.connect(("10.255.255.255", 1))   # no packet is sent for a UDP connect
        address = probe.getsockname()[0]
        probe.close()
    except OSError:
        address = None
    if not address or address.startswith("127."):
        pytest.skip("this machine has no non-loopback address to try")
    with pytest.raises(OSError):
        socket.create_connection((address, port_of(url)), timeout=2).close()


def test_step_mode_moves_time_only_on_request(url):
    wait_for(url, lambda s: s["ready"])
    act(url, "clock", speed=0)
    t0 = state(url)["now"]
    act(url, "lift", square="g1")
    act(url, "place", square="f3")
    assert state(url)["moves"] == [] and state(url)["now"] == t0
    act(url, "clock", advance=400)
    s = wait_for(url, lambda s: s["moves"] == ["g1f3"], timeout=3)
    assert s["now"] >= t0 + 400


def test_two_moves_sent_between_two_ticks_of_the_clock_are_both_played():
    """A busy host once delivered a page's four touches (two moves) between two ticks of the
    simulator's clock: four switches changed in one scan and the board said "wrong square". A
    hand's touch takes time on the simulator (TOUCH_MS), paid back by the wall clock."""
    board = SimulatedBoard()                    # running speed, its clock thread not started
    board.advance(500)
    t0 = board.state()["now"]
    for action, square in (("lift", "e2"), ("place", "e4"), ("lift", "d7"), ("place", "d5")):
        board.act(action, {"square": square})
    assert board.state()["now"] == t0 + 4 * TOUCH_MS
    board.advance(1500)
    assert board.sim.snapshot()["moves"] == ["e2e4", "d7d5"]


# -- many pages ------------------------------------------------------------------------------

def test_a_hundred_pages_at_once(url):
    """100 WebSocket clients: each gets the state, one of them moves, all see the move."""
    async def main():
        clients = []
        for _ in range(100):
            clients.append(await websockets.connect(ws_url(url), open_timeout=10))
        try:
            for ws in clients:
                assert "state" in json.loads(await asyncio.wait_for(ws.recv(), 10))
            await clients[0].send(json.dumps({"do": "lift", "square": "e2", "id": 1}))
            await clients[0].send(json.dumps({"do": "place", "square": "e4", "id": 2}))

            async def sees_the_move(ws):
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 15))
                    if "state" in msg and msg["state"]["moves"] == ["e2e4"]:
                        return True
            return await asyncio.gather(*(sees_the_move(ws) for ws in clients))
        finally:
            await asyncio.gather(*(ws.close() for ws in clients))
    assert asyncio.run(main()) == [True] * 100
    assert state(url)["moves"] == ["e2e4"]


def test_pushed_states_do_not_wait_for_the_pages_acks(board, monkeypatch):
    """Nagle off on every accepted connection: with it on, a state pushed right after another waited
    for the page's delayed ACK (~40 ms on Linux), and switch -> page took 76 ms at p90 (make bench)."""
    seen = []
    made = companion_server.BoundedH11.connection_made

    def connection_made(self, transport):
        made(self, transport)
        sock = transport.get_extra_info("socket")
        seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    monkeypatch.setattr(companion_server.BoundedH11, "connection_made", connection_made)

    async def one_page(url):
        async with websockets.connect(ws_url(url), open_timeout=10) as ws:
            assert "state" in json.loads(await asyncio.wait_for(ws.recv(), 10))
    with served(board) as url:
        asyncio.run(one_page(url))
        assert state(url)["moves"] == []
    assert len(seen) >= 2 and all(seen), seen


# -- the terminal ----------------------------------------------------------------------------

def test_closed_tabs_print_no_tracebacks():
    """The real command (make sim): pages that vanish mid-answer leave the terminal quiet."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--port", str(port), "--no-browser"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(2)]     # the engine found or not, then the address
        assert any("http://127.0.0.1:%d/" % port in line for line in lines), lines
        url = "http://127.0.0.1:%d" % port

        async def vanish():
            for _ in range(5):
                ws = await websockets.connect(ws_url(url), open_timeout=10)
                await ws.recv()
                await ws.send(json.dumps({"do": "send", "line": "status", "id": 1}))
                ws.transport.abort()          # the tab is closed: no closing handshake
        asyncio.run(vanish())
        for _ in range(20):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"GET /companion.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        assert request(url, "GET", "/api/state")[0] == 200
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err and "Error" not in err, err


def test_chessground_is_served_from_node_modules_by_an_allow_list(url):
    """The mirror board's files come from tools/chessground's node_modules (installed by `make`):
    the four allowed names only; no other path reaches the package's folder."""
    status, text = request(url, "GET", "/vendor/chessground.js")
    assert status == 200 and "export{" in text.replace(" ", "") and "Chessground" in text
    for name in ("base", "brown", "cburnett"):
        status, text = request(url, "GET", "/vendor/chessground.%s.css" % name)
        assert status == 200 and "cg-" in text
    for path in ("/vendor/chessground.min.js", "/vendor/../package.json", "/vendor/dist/api.js",
                 "/vendor/%2e%2e/%2e%2e/README.md", "/vendor/", "/page.js/../server.py"):
        status, _ = request(url, "GET", path)
        assert status == 404, path
    status, text = request(url, "GET", "/page.js")
    assert status == 200 and 'from "./vendor/chessground.js"' in text


def test_every_answer_says_it_may_not_be_framed(url):
    conn = http.client.HTTPConnection("127.0.0.1", port_of(url), timeout=20)
    for path in ("/", "/api/state"):
        conn.request("GET", path, headers={"Host": "127.0.0.1:%d" % port_of(url)})
        res = conn.getresponse()
        res.read()
        assert res.status == 200
        assert res.getheader("X-Frame-Options") == "DENY"
        assert res.getheader("Content-Security-Policy") == "frame-ancestors 'none'"
    conn.close()


def test_a_page_that_never_reads_is_dropped_after_the_send_deadline(board, monkeypatch):
    """A WebSocket client that stops reading: once its buffers are full, the server waits
    SEND_SECONDS for room, then drops it (it was kept, with its buffers, for ever). The test waits
    for each step to happen (the buffers full, the client dropped), not for a guessed time: how many
    states fill the kernel's buffers depends on the machine."""
    import base64
    import threading
    monkeypatch.setattr(companion_server, "SEND_SECONDS", 1.0)
    blocked, dropped, pushing = threading.Event(), threading.Event(), threading.Event()
    send = companion_server.BoundedWebSocket.send

    async def watched_send(self, message):
        pushing.set()
        if not self.writable.is_set():
            blocked.set()                          # the client's buffers are full: the deadline runs
        try:
            await send(self, message)
        except companion_server.ClientDisconnected:
            dropped.set()
            raise
    monkeypatch.setattr(companion_server.BoundedWebSocket, "send", watched_send)
    # A small send buffer on the server's side (an accepted socket inherits its listener's): the
    # kernel's would grow to megabytes, and how many states fill them depends on the machine.
    import companion_support
    bind = companion_support.bind

    def small_bind(port):
        sock = bind(port)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        return sock
    monkeypatch.setattr(companion_support, "bind", small_bind)
    with served(board) as url:
        port = port_of(url)
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        client.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
        assert client.recv(12) == b"HTTP/1.1 101"
        # The board changes, the server pushes each state; the client reads nothing, until the
        # server finds no room for the next one.
        for _ in range(20000):
            pushing.clear()
            board.act("lift", {"square": "e2"})
            board.act("place", {"square": "e2"})
            assert pushing.wait(30), "the server pushed no state after a change"   # each change pushed
            if blocked.is_set():
                break
        assert blocked.is_set(), "the client's buffers never filled"
        assert dropped.wait(60), "the server still holds the connection of a page that never read"
        client.settimeout(10)
        ended = False
        try:
            for _ in range(100000):                # what the kernel buffered, then the end
                if not client.recv(65536):
                    ended = True
                    break
        except ConnectionResetError:
            ended = True
        except socket.timeout:
            pass
        client.close()
        assert ended, "the client was dropped, yet its connection did not end"


def test_a_new_game_keeps_the_boards_options(url):
    """As a real board does: a 1+0 clock and hints off set just before stay (the simulator once rebooted)."""
    wait_for(url, lambda s: s["ready"])
    assert act(url, "option", name="clock", value="1+0")[0] == 200
    assert act(url, "option", name="hints", value=False)[0] == 200
    assert act(url, "lift", square="e2")[0] == 200
    assert act(url, "place", square="e4")[0] == 200
    wait_for(url, lambda s: s["moves"] == ["e2e4"])
    assert act(url, "new")[0] == 200
    s = wait_for(url, lambda s: s["moves"] == [] and s["in_sync"] and s["ready"])
    assert s["options"]["clock"] == "1+0" and s["options"]["hints"] is False
    assert s["pieces"][12] == "P" and s["pieces"][28] == "", "the hands set the new game up"


def test_a_piece_put_on_an_enemy_piece_takes_it_first(url):
    """As hands do: the victim off the board (the firmware sees d5 empty), then the capturing piece."""
    wait_for(url, lambda s: s["ready"])
    for square, action in (("e2", "lift"), ("e4", "place"), ("d7", "lift"), ("d5", "place"), ("e4", "lift")):
        assert act(url, action, square=square)[0] == 200
        time.sleep(0.2)
    assert act(url, "place", square="d5")[0] == 200
    s = wait_for(url, lambda s: len(s["moves"]) == 3)
    assert s["moves"] == ["e2e4", "d7d5", "e4d5"] and s["pieces"][35] == "P" and s["hand"] == ""
    assert act(url, "lift", square="d5")[0] == 200
    assert act(url, "place", square="d1")[1]["error"].endswith("take its piece off first"), "one's own piece stays"


def test_no_takeback_once_a_result_stands(board, url):
    """Take back after Resign revived the game on the page (0-1 back to *, two plies taken back);
    after a mate too. Once a result stands the board refuses every takeback: the page's, the
    board's button, the hands putting the last move back (the board asks for it again)."""
    wait_for(url, lambda s: s["ready"])
    for frm, to in (("f2", "f3"), ("e7", "e5")):
        act(url, "lift", square=frm)
        act(url, "place", square=to)
        wait_for(url, lambda s, n=frm + to: s["moves"][-1:] == [n])
    assert act(url, "game", op="resign", side="b")[0] == 200
    wait_for(url, lambda s: s["pgn"].rstrip().endswith("1-0"))
    refusals = state(url)["refusals"]
    act(url, "game", op="undo")
    s = wait_for(url, lambda s: s["refusals"] > refusals)           # the board's answer to it
    assert (s["refusal"]["re"], s["refusal"]["error"]) == ("undo", "invalid_state"), s["refusal"]
    assert act(url, "press", button="undo")[0] == 200      # the button acts in the scan that reads it
    s = wait_for(url, lambda s: s["pgn"].rstrip().endswith("1-0"))
    assert s["moves"] == ["f2f3", "e7e5"], s["moves"]
    # A mate, then the mating queen put back on d8 by hand: the game stays over.
    assert act(url, "new")[0] == 200
    wait_for(url, lambda s: s["moves"] == [] and s["pgn"].rstrip().endswith("*"))
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        act(url, "lift", square=frm)
        act(url, "place", square=to)
        wait_for(url, lambda s, n=frm + to: s["moves"][-1:] == [n])
    wait_for(url, lambda s: s["pgn"].rstrip().endswith("0-1"))
    act(url, "lift", square="h4")
    act(url, "place", square="d8")
    # Past the settle time of the board's own clock (a takeback would have been committed by then),
    # the board still shows the queen as lifted from h4: the game stays as it ended.
    placed = state(url)["now"]
    wait_for(url, lambda s: s["now"] >= placed + 600)
    assert state(url)["leds"].get("h4") == "lifted"
    refusals = state(url)["refusals"]
    act(url, "game", op="undo")
    assert wait_for(url, lambda s: s["refusals"] > refusals)["refusal"]["re"] == "undo"
    s = wait_for(url, lambda s: s["pgn"].rstrip().endswith("Qh4# 0-1"))
    assert s["moves"][-1] == "d8h4" and s["state"] != "idle", (s["moves"], s["state"])   # the queen asked back
