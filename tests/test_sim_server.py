"""The simulator's web server: one board for every client, errors for bad requests, loopback only."""

import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from host_tools.sim.server import Simulator, make_server


@pytest.fixture
def url():
    sim = Simulator(speed=4.0)
    server = make_server(sim, port=0)
    sim.start()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d" % server.server_address[1]
    server.shutdown()
    server.server_close()
    sim.stop()


def call(url, path, body=None, method=None, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method or ("POST" if data is not None else "GET"))
    try:
        with urllib.request.urlopen(req, timeout=20) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


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
