"""The simulator's web server: one simulated board, shared by every open page.

Standard library only, bound to 127.0.0.1. The page long-polls
``GET /api/state?since=VERSION`` (the answer comes when something changed, or
after a timeout), so it keeps working across a server restart: it simply
polls again. Actions are small JSON POSTs; anything malformed gets a 4xx
answer with ``{"error": "..."}`` and changes nothing.

Any web page the user visits can make the browser send requests to
127.0.0.1, and a DNS name can be rebound to it, so the server answers only
requests addressed to itself: a ``Host`` (and ``Origin``, when there is one)
of 127.0.0.1, localhost or [::1] with its own port, and JSON POSTs only (a
cross-origin page can send a ``text/plain`` POST without asking first).
A client cannot hold the server either: every read has a time limit, a
request body has a size limit and a deadline, and past MAX_CONNECTIONS open
connections the one that has waited longest for its request is closed.
A client that goes away (a closed tab) ends its request quietly.
"""

import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from host_tools.sim.device import SimBoard, SimError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 8192
POLL_SECONDS = 15
REQUEST_SECONDS = 10     # the most a client may take to send its request, and each read of it
MAX_CONNECTIONS = 64     # open connections (each a thread); long-polls of open pages among them
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


class UnknownAction(Exception):
    pass


class Clock(threading.Thread):
    """Simulated time follows wall time times ``speed``; speed 0 is step mode (time moves on request)."""

    def __init__(self, board, speed=1.0, period=0.01):
        super().__init__(daemon=True)
        self.board = board
        self.speed = speed
        self.period = period
        self.stopped = threading.Event()
        self.owed = 0.0

    def run(self):
        last = time.monotonic()
        while not self.stopped.wait(self.period):
            now = time.monotonic()
            self.owed += (now - last) * 1000 * self.speed
            last = now
            ms = int(self.owed)
            if ms:
                self.owed -= ms
                self.board.wait(ms)


class Simulator:
    """The board, its clock, and what the HTTP API can ask of them."""

    def __init__(self, fen=None, profile="fide", speed=1.0, variant=None, seed=None):
        self.board = SimBoard(fen, profile, variant, seed)
        self.changed = threading.Condition()
        self.clock = Clock(self.board, speed)
        self.watcher = threading.Thread(target=self._watch, daemon=True)

    def start(self):
        self.clock.start()
        self.watcher.start()

    def stop(self):
        self.clock.stopped.set()

    def _watch(self):
        """Wake the long-polls whenever the board's version moves."""
        seen = self.board.version
        while not self.clock.stopped.wait(0.02):
            if self.board.version != seen:
                seen = self.board.version
                with self.changed:
                    self.changed.notify_all()

    def wait_for_change(self, since, timeout=POLL_SECONDS):
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.board.version == since:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
        return self.state()

    def state(self):
        state = self.board.snapshot()
        state["speed"] = self.clock.speed
        return state

    # -- actions (each returns the new state, or raises ValueError) -----------------

    def act(self, action, body):
        b = self.board
        if action == "lift":
            b.lift(_text(body, "square"))
        elif action == "place":
            piece = body.get("piece")
            b.place(_text(body, "square"), None if piece is None else _text(body, "piece"))
        elif action == "tray":
            b.to_tray()
        elif action == "press":
            with b.lock:
                b.press(_text(body, "button"))
        elif action == "send":
            with b.lock:
                b.send(_text(body, "line"))
        elif action == "option":
            name = _text(body, "name")
            if "value" not in body:
                raise ValueError("'value' is missing")
            with b.lock:
                b.app.game.set_option(name, body["value"])
                b.app.dirty = True
                b._changed()
        elif action == "reset":
            fen = body.get("fen") or None
            profile = body.get("profile") or "fide"
            variant = body.get("variant") or None
            seed = body.get("seed")
            if fen is not None and not isinstance(fen, str):
                raise ValueError("'fen' must be a string")
            if profile not in ("fide", "casual"):
                raise ValueError("'profile' must be 'fide' or 'casual'")
            if variant not in (None, "chess", "sprint"):
                raise ValueError("'variant' must be 'chess' or 'sprint'")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
                raise ValueError("'seed' must be a whole number")
            b.reset(fen, profile, variant, seed if variant == "sprint" and fen is None else None)
        elif action == "clock":
            if "speed" in body:
                speed = body["speed"]
                if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0 <= speed <= 4:
                    raise ValueError("'speed' must be a number from 0 (step mode) to 4")
                self.clock.speed = float(speed)
                b._changed()
            if "advance" in body:
                ms = body["advance"]
                if isinstance(ms, bool) or not isinstance(ms, int) or not 0 < ms <= 60000:
                    raise ValueError("'advance' must be whole milliseconds from 1 to 60000")
                b.wait(ms)
                b._changed()
        else:
            raise UnknownAction(action)
        return self.state()


def _text(body, key):
    value = body.get(key)
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError("%r must be a non-empty string" % key)
    return value


class Handler(BaseHTTPRequestHandler):
    server_version = "ScacchieraSim/1"
    sim = None  # set by make_server
    timeout = REQUEST_SECONDS   # the socket's time-out for each read and write

    def log_message(self, fmt, *args):  # quiet: the page polls often
        pass

    def _refused(self):
        """Why this request is not addressed to this server by one of its own pages, or None."""
        port = self.server.server_address[1]
        own = ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port)
        if self.headers.get("Host", "").lower() not in own:
            return "the Host must be this server's own loopback address"
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in tuple("http://" + h for h in own):
            return "requests from other sites are refused"
        return None

    def _read_body(self, length):
        """The request body, read within the handler's time-out in all; TimeoutError if it does not all come."""
        deadline = time.monotonic() + self.timeout
        chunks = []
        got = 0
        try:
            while got < length:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.connection.settimeout(left)
                chunk = self.rfile.read1(length - got)
                if not chunk:
                    raise TimeoutError     # the client closed before sending it all
                chunks.append(chunk)
                got += len(chunk)
        finally:
            self.connection.settimeout(self.timeout)
        return b"".join(chunks)

    def _send(self, code, payload, content_type="application/json"):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _error(self, code, message):
        self._send(code, {"error": message})

    def do_GET(self):
        self.server.request_read(self.connection)
        refused = self._refused()
        if refused:
            return self._error(403, refused)
        url = urlparse(self.path)
        if url.path == "/api/state":
            query = parse_qs(url.query)
            since = query.get("since", [None])[0]
            if since is None:
                return self._send(200, self.sim.state())
            try:
                since = int(since)
            except ValueError:
                return self._error(400, "'since' must be a whole number")
            return self._send(200, self.sim.wait_for_change(since))
        name = "index.html" if url.path in ("/", "/index.html") else url.path.lstrip("/")
        if "/" in name or name.startswith(".") or not os.path.isfile(os.path.join(STATIC, name)):
            return self._error(404, "no such page: %s" % url.path)
        with open(os.path.join(STATIC, name), "rb") as f:
            body = f.read()
        self._send(200, body, CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))

    def do_POST(self):
        url = urlparse(self.path)
        refused = self._refused()
        if refused:
            self.close_connection = True
            return self._error(403, refused)
        if not url.path.startswith("/api/"):
            return self._error(404, "no such endpoint: %s" % url.path)
        if self.headers.get_content_type() != "application/json":
            self.close_connection = True
            return self._error(415, "the body must be JSON, sent as Content-Type: application/json")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return self._error(400, "bad Content-Length")
        if length > MAX_BODY:
            return self._error(413, "request body over %d bytes" % MAX_BODY)
        try:
            raw = self._read_body(length) if length > 0 else b"{}"
        except TimeoutError:
            self.close_connection = True
            return self._error(400, "the body is shorter than its Content-Length (%d bytes)" % length)
        self.server.request_read(self.connection)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return self._error(400, "the body must be a JSON object")
        if not isinstance(body, dict):
            return self._error(400, "the body must be a JSON object")
        try:
            state = self.sim.act(url.path[len("/api/"):], body)
        except UnknownAction:
            return self._error(404, "no such action: %s" % url.path)
        except (SimError, ValueError) as e:
            return self._error(400, str(e))
        self._send(200, state)

    def do_PUT(self):
        self._error(405, "use GET or POST")

    do_DELETE = do_PATCH = do_PUT


class Server(ThreadingHTTPServer):
    """A thread per connection, at most MAX_CONNECTIONS of them; client disconnects are not errors."""

    daemon_threads = True
    request_queue_size = 64
    max_connections = MAX_CONNECTIONS

    def __init__(self, address, handler):
        super().__init__(address, handler)
        self.lock = threading.Lock()
        self.open = 0
        self.reading = {}       # connections still sending their request, oldest first

    def process_request(self, request, client_address):
        with self.lock:
            if self.open >= self.max_connections:
                if not self.reading:
                    # Every connection is being answered (long-polls): 503, try again in a second.
                    self._refuse(request)
                    return
                oldest = next(iter(self.reading))
                del self.reading[oldest]
                _close_quietly(oldest)        # its thread sees the end of its input and ends
            self.open += 1
            self.reading[request] = True
        super().process_request(request, client_address)

    def _refuse(self, request):
        body = b'{"error": "too many connections"}'
        try:
            request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                            b"Content-Length: %d\r\nRetry-After: 1\r\n\r\n%s" % (len(body), body))
        except OSError:
            pass
        self.shutdown_request(request)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.lock:
                self.open -= 1
                self.reading.pop(request, None)

    def request_read(self, request):
        """The request has arrived whole: its connection is no longer a candidate for closing."""
        with self.lock:
            self.reading.pop(request, None)

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return      # a closed tab, a client that stopped sending: nothing to report
        super().handle_error(request, client_address)


def _close_quietly(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def make_server(sim, port=8765, host="127.0.0.1", request_seconds=REQUEST_SECONDS):
    """An HTTP server for ``sim`` on loopback (port 0: any free port)."""
    handler = type("BoundHandler", (Handler,), {"sim": sim, "timeout": request_seconds})
    return Server((host, port), handler)
