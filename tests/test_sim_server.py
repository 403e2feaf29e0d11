"""The simulator's web server: one board for every client, errors for bad requests, loopback only."""

import json
import socket
import struct
import threading
import time
import urllib.error
import urllib.request

import pytest

from host_tools.sim.server import Simulator, make_server


class Served:
    """A simulator's server on a free loopback port, run in a thread."""

    def __init__(self, request_seconds=10):
        self.sim = Simulator(speed=4.0)
        self.server = make_server(self.sim, port=0, request_seconds=request_seconds)
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.sim.start()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.sim.stop()


@pytest.fixture
def served():
    s = Served(request_seconds=1)
    yield s
    s.close()


@pytest.fixture
def url(served):
    return served.url


def call(url, path, body=None, method=None, raw=None, headers=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    try:
        with urllib.request.urlopen(req, timeout=20) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def until(predicate, timeout=5):
    """Wait for a condition (polling it), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting for %s" % predicate
        time.sleep(0.01)


def wait_for(url, predicate, timeout=5):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, state = call(url, "/api/state")
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError("timed out; last state: %s" % {k: state[k] for k in ("moves", "state", "leds")})


def test_a_move_by_one_client_is_seen_by_another(url):
    assert call(url, "/api/lift", {"square": "e2"})[0] == 200
    assert call(url, "/api/place", {"square": "e4"})[0] == 200
    state = wait_for(url, lambda s: s["moves"] == ["e2e4"])
    # A second client long-polling from that version wakes up on the next change.
    results = []
    t = threading.Thread(target=lambda: results.append(call(url, "/api/state?since=%d" % state["version"])))
    t.start()
    time.sleep(0.2)
    call(url, "/api/lift", {"square": "e7"})
    t.join(10)
    assert results and results[0][1]["hand"] == "p"


@pytest.mark.parametrize("path, body, raw, code, words", [
    ("/api/lift", None, b"not json", 400, "JSON object"),
    ("/api/lift", None, b"[1, 2]", 400, "JSON object"),
    ("/api/lift", {"square": 5}, None, 400, "non-empty string"),
    ("/api/lift", {"square": "e9"}, None, 400, "not a square"),
    ("/api/lift", {"square": "e4"}, None, 400, "empty"),
    ("/api/place", {"square": "e1"}, None, 400, "occupied"),
    ("/api/place", {"square": "e4", "piece": "X"}, None, 400, "not a piece"),
    ("/api/option", {"name": "hints", "value": "yes"}, None, 400, "true or false"),
    ("/api/option", {"name": "colour", "value": 1}, None, 400, "unknown option"),
    ("/api/clock", {"speed": 99}, None, 400, "speed"),
    ("/api/reset", {"fen": "8/8/8 w"}, None, 400, "FEN"),
    ("/api/explode", {}, None, 404, "no such action"),
    ("/nowhere", {}, None, 404, "no such endpoint"),
    ("/api/lift", None, b"x" * 9000, 413, "over"),
])
def test_bad_requests_get_clear_errors_and_change_nothing(url, path, body, raw, code, words):
    before = call(url, "/api/state")[1]
    status, answer = call(url, path, body, raw=raw)
    assert status == code and words in answer["error"]
    after = call(url, "/api/state")[1]
    assert (after["fen"], after["pieces"], after["hand"]) == (before["fen"], before["pieces"], before["hand"])


def test_other_methods_and_paths(url):
    assert call(url, "/api/state", method="DELETE")[0] == 405
    assert call(url, "/../../etc/passwd")[0] == 404
    assert call(url, "/api/state?since=abc")[0] == 400
    with urllib.request.urlopen(url + "/", timeout=5) as res:
        assert b"Scacchiera simulator" in res.read()


def test_garbage_on_the_socket_does_not_stop_the_server(url):
    host, port = url[len("http://"):].split(":")
    for junk in (b"\x00\xff garbage\r\n\r\n", b"GET\r\n\r\n", b"POST /api/lift HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n{"):
        with socket.create_connection((host, int(port)), timeout=5) as s:
            s.sendall(junk)
            s.recv(1024)
    assert call(url, "/api/state")[0] == 200


def test_listens_on_loopback_only(url):
    port = int(url.rsplit(":", 1)[1])
    # Find an address of this machine that is not loopback, if it has one.
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
        socket.create_connection((address, port), timeout=2).close()


def test_step_mode_moves_time_only_on_request(url):
    call(url, "/api/clock", {"speed": 0})
    t0 = call(url, "/api/state")[1]["now"]
    time.sleep(0.3)
    assert call(url, "/api/state")[1]["now"] == t0
    call(url, "/api/lift", {"square": "g1"})
    call(url, "/api/place", {"square": "f3"})
    assert call(url, "/api/state")[1]["moves"] == []
    state = call(url, "/api/clock", {"advance": 400})[1]
    assert state["moves"] == ["g1f3"] and state["now"] >= t0 + 400


# -- hostile or careless clients (issue 10) ------------------------------------------

def raw_request(served, text, timeout=5):
    """Send raw bytes; the whole answer (b"" if the server closed without one)."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=timeout) as s:
        s.sendall(text)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return answer
            answer += chunk


def post(served, body, content_type="application/json", host=None, origin=None, length=None):
    head = "POST /api/send HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n" % (
        host or "127.0.0.1:%d" % served.port, content_type, len(body) if length is None else length)
    if origin:
        head += "Origin: %s\r\n" % origin
    return raw_request(served, head.encode() + b"\r\n" + body)


RESIGN = b'{"line": "resign"}'


@pytest.mark.parametrize("content_type, host, origin, code", [
    ("text/plain", None, "http://evil.example", b"403"),        # what any page's fetch() may send
    ("application/json", None, "http://evil.example", b"403"),
    ("application/json", None, "null", b"403"),
    ("application/json", "evil.example:{port}", None, b"403"),  # DNS rebinding: the Host says so
    ("application/json", "127.0.0.1:1", None, b"403"),
    ("text/plain", None, None, b"415"),
    ("application/x-www-form-urlencoded", None, None, b"415"),
])
def test_requests_from_other_sites_are_refused_and_change_nothing(served, content_type, host, origin, code):
    before = call(served.url, "/api/state")[1]
    answer = post(served, RESIGN, content_type, host and host.format(port=served.port), origin)
    assert answer.split(b" ")[1] == code, answer
    after = call(served.url, "/api/state")[1]
    assert after["result"] == before["result"] == "*" and after["protocol"] == before["protocol"]


def test_the_own_page_and_its_names_are_served(served):
    port = served.port
    for host, origin in (("127.0.0.1:%d", None), ("localhost:%d", "http://localhost:%d"),
                         ("[::1]:%d", "http://[::1]:%d"), ("127.0.0.1:%d", "http://127.0.0.1:%d")):
        answer = post(served, b'{"line": "status"}', host=host % port, origin=origin and origin % port)
        assert answer.startswith(b"HTTP/1.0 200"), answer
    assert raw_request(served, b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n").split(b" ")[1] == b"403"
    assert post(served, RESIGN).startswith(b"HTTP/1.0 200")
    assert call(served.url, "/api/state")[1]["result"] == "0-1"


def test_slow_clients_cannot_hold_the_server(served):
    threads = threading.active_count()
    slow = []
    try:
        for _ in range(300):       # slow loris: requests that never end
            s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % served.port)
            slow.append(s)
        until(lambda: served.server.open <= served.server.max_connections)
        assert threading.active_count() <= threads + served.server.max_connections + 5
        started = time.monotonic()
        assert call(served.url, "/api/state")[0] == 200
        assert time.monotonic() - started < 2
    finally:
        for s in slow:
            s.close()


def test_a_body_shorter_than_its_length_is_answered_after_the_time_limit(served):
    started = time.monotonic()
    answer = post(served, b'{"line": "st', length=100)     # the rest never comes
    assert answer.split(b" ")[1] == b"400" and b"shorter than its Content-Length" in answer
    assert 0.9 < time.monotonic() - started < 4            # request_seconds=1


def test_deeply_nested_json_gets_400(served):
    answer = post(served, b"[" * 4000 + b"]" * 4000)
    assert answer.split(b" ")[1] == b"400" and b"JSON object" in answer
    answer = post(served, b'{"line": ' + b"[" * 4000 + b"]" * 4000 + b"}")
    assert answer.split(b" ")[1] == b"400"
    assert call(served.url, "/api/state")[0] == 200


def test_when_every_connection_is_a_long_poll_a_new_one_is_told_to_retry(served):
    served.server.max_connections = 3
    version = call(served.url, "/api/state")[1]["version"]
    polls = []
    try:
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            s.sendall(b"GET /api/state?since=%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (version, served.port))
            polls.append(s)
        until(lambda: served.server.open == 3 and not served.server.reading)
        answer = raw_request(served, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % served.port)
        assert answer.split(b" ")[1] == b"503", answer
    finally:
        for s in polls:
            s.close()


def test_a_closed_tab_is_not_an_error(served, capfd):
    threads = threading.active_count()
    version = call(served.url, "/api/state")[1]["version"]
    for _ in range(3):
        # A page long-polls, then goes away (closed or reloaded) before the answer.
        s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
        s.sendall(b"GET /api/state?since=%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (version, served.port))
        until(lambda: threading.active_count() > threads)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))   # reset, as a tab does
        s.close()
        version = call(served.url, "/api/lift", {"square": "g1"})[1]["version"]      # the answer is due now
        until(lambda: threading.active_count() == threads)
        version = call(served.url, "/api/place", {"square": "g1"})[1]["version"]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err


def test_the_page_is_told_a_claimable_draw_pulses_slowly():
    from host_tools.sim.device import SimBoard
    board = SimBoard()
    for _ in range(2):
        for fr, to in (("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")):
            board.lift(fr)
            board.wait(100)
            board.place(to)
            board.wait(400)
    e1 = board.snapshot()["led_squares"][4]
    assert e1["meaning"] == "claim" and e1["blink"] == 2         # sim.js: class "blink slow"
    board.send("claim")
    board.wait(100)
    e1 = board.snapshot()["led_squares"][4]
    assert e1["meaning"] == "draw" and not e1["blink"]
