"""The companion's web server: Starlette on uvicorn, on loopback (and with ``--lan`` for paired
phones on the LAN: pairing.py).

The page gets the board's state over a WebSocket (``/ws``: the server pushes
the whole state whenever it changes; a slow page gets only the newest) and
sends actions on it as ``{"do": "lift", "square": "e2", "id": 1}``; the
answer is ``{"re": 1, "ok": true}`` or ``{"re": 1, "ok": false, "error": "..."}``.
``POST /api/act`` takes the same object, for scripts.

Defences (docs/companion.md): every HTTP request and WebSocket handshake must
name the server itself in ``Host`` (127.0.0.1, localhost or [::1] with this
port: a DNS-rebinding name is refused) and, when it has an ``Origin``, come
from this server's own page (a page of another site can neither read nor
drive the board): else 403. Bodies and WebSocket messages are bounded, a
request head or body must arrive within a few seconds (slow-loris), nested
JSON too deep for the parser is a clear error, and a closed tab is not an error.
"""

import asyncio
import contextlib
import json
import logging
import os
import socket
import sqlite3

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from host_tools.companion.boards import ActionError
from host_tools.companion.pairing import COOKIE, token_of

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
# The page's own files: every .html, .js and .css in static/ (the folder is the list), "/" its index.
FILES = dict([("/", "index.html")] + [("/" + name, name) for name in sorted(os.listdir(STATIC))
                                      if name.endswith((".html", ".js", ".css"))])
# The mirror board: lichess's chessground (GPL-3.0), installed by `make` (npm ci in tools/chessground),
# served from node_modules by a fixed allow-list, never a path taken from the request.
CHESSGROUND = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "tools", "chessground", "node_modules", "@lichess-org", "chessground")
VENDOR = {"/vendor/chessground.js": "dist/chessground.min.js",
          "/vendor/chessground.base.css": "assets/chessground.base.css",
          "/vendor/chessground.brown.css": "assets/chessground.brown.css",
          "/vendor/chessground.cburnett.css": "assets/chessground.cburnett.css"}
MAX_BODY = 8192            # bytes of a POST body
MAX_MESSAGE = 16384        # bytes of a WebSocket message from the page
PAIRED = "scacchiera.paired"  # the scope's key for a LAN connection's pairing token (Guard -> ws)
MAX_HEAD = 8192            # bytes of a request's headers
HEAD_SECONDS = 5           # a request's head must arrive within this
BODY_SECONDS = 5           # and its body within this
SEND_SECONDS = 10          # a page must take a message within this (its buffers full), else it is dropped
MAX_CONNECTIONS = 1000     # uvicorn's limit_concurrency: more get 503


def allowed_hosts(port):
    return set("%s:%d" % (name, port) for name in ("127.0.0.1", "localhost", "[::1]"))


# Every HTTP answer: no other page may frame this one (a localhost page could otherwise put it in
# an invisible frame and have the player click its buttons).
FRAME_HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'")]


class Guard:
    """ASGI middleware: Host and Origin must be this server's own loopback address, else 403;
    every HTTP answer says it may not be framed. With ``pairing`` (pairing.py, ``--lan``), a
    connection accepted on the LAN address must name it instead and be a paired browser's (401),
    and the pairing's own controls answer on loopback only."""

    def __init__(self, app, port, pairing=None, public=()):
        self.app = app
        self.pairing = pairing
        self.public = tuple(public)      # paths anyone may GET (a club's live PGN, for any relay)
        self.hosts = allowed_hosts(port)
        self.origins = set("http://" + h for h in self.hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and scope["path"].startswith(self.public):
            await self.app(scope, receive, send)
            return
        if scope["type"] in ("http", "websocket"):
            headers = dict((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope["headers"])
            if sum(len(k) + len(v) for k, v in scope["headers"]) > MAX_HEAD:
                if scope["type"] == "http":
                    await PlainTextResponse("headers over %d bytes" % MAX_HEAD, status_code=431)(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1009})
                return
            pairing = self.pairing
            # The LAN's by the address the connection was accepted on (the socket's), never a header.
            lan = pairing is not None and (scope.get("server") or ("",))[0] == pairing.address
            hosts, origins = (pairing.hosts, pairing.origins) if lan else (self.hosts, self.origins)
            status, reason = 403, None
            if headers.get("host", "").lower() not in hosts:
                reason = "this server answers only to %s" % " or ".join(sorted(hosts))
            elif "origin" in headers and headers["origin"].lower() not in origins:
                reason = "requests from other sites are refused"
            elif headers.get("sec-fetch-site") == "cross-site":
                reason = "requests from other sites are refused"
            elif lan and scope["path"] == "/pair" and scope["type"] == "http":
                await _pair(pairing, scope, receive, send)
                return
            elif lan and "/api/pairing" in scope["path"]:      # a club's boards have theirs too
                reason = "pairing is managed from the computer the board is plugged into"
            elif lan and not pairing.admits(headers.get("cookie")):
                status, reason = 401, "this browser is not paired: open the pairing link (its QR code is on the " \
                    "computer's page)"
            elif lan:
                scope[PAIRED] = token_of(headers.get("cookie"))    # an open page re-checks it (ws)
            if reason:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})   # refused before accept: HTTP 403
                else:
                    await PlainTextResponse(reason, status_code=status)(scope, receive, send)
                return
        if scope["type"] == "http":
            inner = send

            async def send(message):
                if message["type"] == "http.response.start":
                    message = dict(message, headers=list(message.get("headers") or ()) + FRAME_HEADERS)
                await inner(message)
        await self.app(scope, receive, send)


class BoundedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with a deadline for each send: a page that stops reading (its
    buffers full) is dropped after SEND_SECONDS, not kept with its buffers for ever (30 such
    clients held 116 MB). ``abort``: closing would wait to flush what the client never reads."""

    async def send(self, message):
        if not self.writable.is_set():
            try:
                await asyncio.wait_for(self.writable.wait(), SEND_SECONDS)
            except asyncio.TimeoutError:
                self.transport.abort()
                raise ClientDisconnected() from None
        await super().send(message)


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head: a client that sends
    its headers a byte at a time (slow-loris) is cut off after HEAD_SECONDS."""

    _head_timer = None

    def connection_made(self, transport):
        super().connection_made(transport)
        self._arm()

    def _arm(self):
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self):
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def data_received(self, data):
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()                 # a whole head arrived: the app has the request

    def on_response_complete(self):
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self, event):
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc):
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self):
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()


def parse_message(raw):
    """A message from the page or a script: one JSON object with a string ``do``, else ValueError."""
    try:
        msg = json.loads(raw)
    except RecursionError:
        raise ValueError("the message is nested too deeply")
    except ValueError:
        raise ValueError("the message must be one JSON object")
    if not isinstance(msg, dict):
        raise ValueError("the message must be one JSON object")
    if not isinstance(msg.get("do"), str):
        raise ValueError("the message needs \"do\": the action's name")
    return msg


class Hub:
    """The newest state, serialised once per change, and a wake-up for every page."""

    def __init__(self, board):
        self.board = board
        self.version = 0
        self.cached = None
        self.event = asyncio.Event()

    def changed(self):
        """(on the event loop) something changed: wake every page."""
        self.version += 1
        event, self.event = self.event, asyncio.Event()
        event.set()

    async def text(self):
        version = self.version
        if self.cached is None or self.cached[0] != version:
            state = await run_in_threadpool(self.board.state)
            self.cached = (version, json.dumps({"state": state}, separators=(",", ":")))
        return self.cached[1]


def ladder_table(path, month=None):
    """The household ladder's table for the page (host_tools/ladder: the general one, or a month's
    'YYYY-MM'): {"month", "rows", "note"}; no file yet: no rows and a note on how to start one."""
    from host_tools.ladder import db
    from host_tools.ladder.ladder import Ladder
    path = path or db.default_path()
    if not os.path.exists(path):
        return {"month": month, "rows": [], "note": "no ladder yet: add its players here, or tick \"rated\" in "
                "Players: a rated game that ends on the board goes into it with its players"}
    with Ladder(path) as ladder:
        return {"month": month, "rows": ladder.table(month), "note": None}


async def display_icons(request):
    """The display's icons, the firmware's own bitmaps (scacchiera/display/icons.py): the page draws
    the panel with them (display.js), so a new icon needs no copy."""
    from scacchiera.display import icons
    return JSONResponse({name: list(bits) for name, bits in zip(icons.NAMES[1:], icons.BITS)},
                        headers={"Cache-Control": "max-age=3600"})


# -- the routes: each reads what it serves from the app's state (board, hub, ladder, pairing) -------

def _own_path(request):
    """The request's path inside its app (a club mounts a board's page at /board/N/)."""
    return request.scope["path"][len(request.scope.get("root_path", "")):] or "/"


async def page(request):
    return FileResponse(os.path.join(STATIC, FILES[_own_path(request)]),
                        headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


async def vendor(request):
    path = os.path.join(CHESSGROUND, VENDOR[_own_path(request)])
    if not os.path.isfile(path):
        return PlainTextResponse("chessground is not installed: run `make deps` (npm ci in tools/chessground)",
                                 status_code=404)
    return FileResponse(path, headers={"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"})


async def get_state(request):
    return JSONResponse(await run_in_threadpool(request.app.state.board.state), headers={"Cache-Control": "no-store"})


async def get_ladder(request):
    from host_tools.ladder.db import LadderError
    try:
        table = await run_in_threadpool(ladder_table, request.app.state.ladder,
                                        request.query_params.get("month") or None)
    except LadderError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    except (sqlite3.Error, UnicodeError, ValueError, OverflowError) as e:    # a damaged ladder file
        return JSONResponse({"error": "the ladder cannot be read (%s: %s)" % (type(e).__name__, e)},
                            status_code=503)
    return JSONResponse(table, headers={"Cache-Control": "no-store"})


async def act(request):
    """``POST /api/act``: one action, as the WebSocket takes it (for scripts)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return JSONResponse({"error": "the body is over %d bytes" % MAX_BODY}, status_code=413)
    try:
        body = await asyncio.wait_for(_read_body(request), BODY_SECONDS)
    except asyncio.TimeoutError:
        return JSONResponse({"error": "the body did not arrive in time"}, status_code=408)
    except OverflowError:
        return JSONResponse({"error": "the body is over %d bytes" % MAX_BODY}, status_code=413)
    try:
        msg = parse_message(body)
        await run_in_threadpool(request.app.state.board.act, msg.pop("do"), msg)
    except (ActionError, ValueError) as e:
        return JSONResponse({"ok": False, "error": str(e)}, status_code=400)
    return JSONResponse({"ok": True})


async def ws(websocket: WebSocket):
    """``/ws``: the board's state pushed (the newest only), the page's actions answered. A paired
    phone's page (on the LAN) is closed (1008) when the pairings are revoked, and each of its
    actions checks its pairing first."""
    board, hub = websocket.app.state.board, websocket.app.state.hub
    pairing, token = websocket.app.state.pairing, websocket.scope.get(PAIRED)
    await websocket.accept()
    lock = asyncio.Lock()
    revoked = asyncio.Event()
    loop = asyncio.get_running_loop()

    def cut():
        loop.call_soon_threadsafe(revoked.set)

    async def close_when_revoked():
        await revoked.wait()
        pusher.cancel()
        async with lock:
            await websocket.close(code=1008, reason="pairing revoked")

    async def send(text):
        async with lock:
            await websocket.send_text(text)

    async def push():
        seen = None
        try:
            while True:
                if hub.version == seen:
                    await hub.event.wait()
                    continue
                seen = hub.version
                await send(await hub.text())
        except OSError:
            pass                        # the page stopped reading and was dropped (BoundedWebSocket)

    pusher = asyncio.ensure_future(push())
    closer = None
    if token is not None:
        pairing.watch(cut)
        closer = asyncio.ensure_future(close_when_revoked())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if token is not None and not pairing.holds(token):
                cut()                           # revoked: nothing more from this page
                break
            raw = message.get("text")
            answer = {"re": None, "ok": True}
            try:
                if raw is None:
                    raise ValueError("messages are JSON text, not binary")
                if len(raw) > MAX_MESSAGE:
                    raise ValueError("the message is over %d bytes" % MAX_MESSAGE)
                msg = parse_message(raw)
                answer["re"] = msg.pop("id", None)
                await run_in_threadpool(board.act, msg.pop("do"), msg)
            except (ActionError, ValueError) as e:
                answer.update(ok=False, error=str(e))
            await send(json.dumps(answer))
    except (WebSocketDisconnect, RuntimeError):
        pass                            # the page went away: nothing to say
    finally:
        pusher.cancel()
        if closer is not None:
            pairing.unwatch(cut)
            if revoked.is_set():
                await asyncio.gather(closer, return_exceptions=True)   # the close frame sent
            else:
                closer.cancel()


async def get_pairing(request):
    """The desktop page's phone panel (loopback only: Guard): the link, its QR code, how many paired."""
    pairing = request.app.state.pairing
    if pairing is None:
        return JSONResponse({"lan": False}, headers={"Cache-Control": "no-store"})
    return JSONResponse({"lan": True, "link": pairing.link(), "svg": pairing.qr("svg"), "paired": pairing.paired()},
                        headers={"Cache-Control": "no-store"})


async def revoke_pairing(request):
    pairing = request.app.state.pairing
    if pairing is None:
        return JSONResponse({"ok": False, "error": "the page is on loopback only (no --lan)"}, status_code=400)
    pairing.revoke()
    return JSONResponse({"ok": True})


ROUTES = [Route(path, page) for path in FILES] + [Route(path, vendor) for path in VENDOR] + [
    Route("/icons.json", display_icons), Route("/api/state", get_state), Route("/api/act", act, methods=["POST"]),
    Route("/api/ladder", get_ladder), Route("/api/pairing", get_pairing),
    Route("/api/pairing/revoke", revoke_pairing, methods=["POST"]), WebSocketRoute("/ws", ws)]


def wake_pages(state, loop, also=None):
    """Give ``state.board`` (a board, or a club) its pages' Hub: its changes, from any thread, wake
    them; ``also()`` is called on each change too (a club follows its boards' games)."""
    hub = state.hub = Hub(state.board)

    def on_change():
        if also is not None:
            also()
        try:
            loop.call_soon_threadsafe(hub.changed)
        except RuntimeError:           # the loop has closed: the server is stopping
            pass
    state.board.on_change = on_change


@contextlib.asynccontextmanager
async def lifespan(app):
    """The board runs while the server does; its changes wake the pages (Hub) from any thread."""
    board = app.state.board
    wake_pages(app.state, asyncio.get_running_loop())
    board.start()
    try:
        yield
    finally:
        board.on_change = lambda: None
        await run_in_threadpool(board.stop)


def create_app(board, port, ladder=None, pairing=None):
    """The ASGI app for ``board`` served on ``port``; the board's changes wake the pages. ``ladder``:
    the ladder's file (default: host_tools.ladder's own), where the board's rated games go too;
    ``pairing``: the LAN's paired browsers (pairing.py), None on loopback only. Guard checks every
    request's Host, Origin and (on the LAN) pairing before the routes see it."""
    return Guard(board_app(board, ladder, pairing, lifespan), port, pairing)


def board_app(board, ladder=None, pairing=None, lifespan=None):
    """A board's page and its API as one Starlette app (a club mounts one per board, at /board/N/)."""
    from host_tools.ladder import db
    board.ladder_path = ladder or db.default_path()
    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.state.board = board
    app.state.ladder = ladder
    app.state.pairing = pairing
    return app


async def _pair(pairing, scope, receive, send):
    """``/pair?key=...`` on the LAN: the current key gets this browser its cookie, then the page.
    Only a GET redeems it: a HEAD (a chat app's link preview) leaves the key for the phone."""
    from urllib.parse import parse_qs
    if scope.get("method") != "GET":
        await PlainTextResponse("open the pairing link in the phone's browser", status_code=405,
                                headers={"Allow": "GET"})(scope, receive, send)
        return
    key = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("key") or [None])[0]
    token = pairing.redeem(key)
    if token is None:
        await PlainTextResponse("this pairing key is not valid (used, revoked or mistyped): scan the new code "
                                "on the computer's page", status_code=403)(scope, receive, send)
        return
    cookie = "%s=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000" % (COOKIE, token)
    await PlainTextResponse("paired", status_code=303, headers={"Location": "/", "Set-Cookie": cookie,
                                                                "Cache-Control": "no-store"})(scope, receive, send)


async def _read_body(request):
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise OverflowError
    return bytes(body)


def bind(port, address="127.0.0.1"):
    """A listening socket on 127.0.0.1 (or ``address``: the LAN's, ``--lan``; port 0: any free one);
    OSError if taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Nagle off for every connection: Linux gives an accepted socket the listening socket's
    # TCP_NODELAY (asyncio sets it only on sockets it made with proto=IPPROTO_TCP). Without it a state
    # pushed right after another waited for the page's delayed ACK (switch -> page p90 76 ms; 39 ms).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((address, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def make_server(board, sock, ladder=None, pairing=None):
    """A uvicorn server for ``board`` on the bound socket ``sock`` (``server.run(sockets=[sock])``, and
    the LAN's socket too with ``pairing``); ``ladder``: the ladder's file for the page's table
    (default: $SCACCHIERA_LADDER_DB or the user's)."""
    return serve_app(create_app(board, sock.getsockname()[1], ladder, pairing))


def serve_app(app):
    """A uvicorn server for the ASGI ``app`` (create_app's, or a club's), with the bounds above."""
    config = uvicorn.Config(
        app, http=BoundedH11, ws=BoundedWebSocket, lifespan="on",
        ws_max_size=MAX_MESSAGE, ws_ping_interval=20, ws_ping_timeout=20,
        ws_per_message_deflate=False, timeout_keep_alive=5, limit_concurrency=MAX_CONNECTIONS,
        h11_max_incomplete_event_size=16384, access_log=False, log_level="warning", server_header=False)
    return uvicorn.Server(config)


def quiet_disconnects():
    """A closed tab mid-answer is normal: keep uvicorn's error log for real errors."""
    class _Filter(logging.Filter):
        def filter(self, record):
            text = record.getMessage()
            return not any(w in text for w in ("ConnectionResetError", "BrokenPipeError", "ConnectionClosed"))
    logging.getLogger("uvicorn.error").addFilter(_Filter())
