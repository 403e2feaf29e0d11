"""Shared by the companion's tests: a board served by the real uvicorn on a loopback port, in a thread."""

import contextlib
import json
import os
import shutil
import threading
import time

import chess
import pytest

from host_tools.companion.boards import Board
from host_tools.companion.engine import python_chess_board
from host_tools.companion.server import bind, make_server

# The browser tests (headless Chromium through Playwright): skipped, and said so, without either.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test-artifacts")
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover
    sync_playwright = None
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_TESTS = [
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium): browser tests skipped"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright is not installed: browser tests skipped"),
]


# Every console error and uncaught exception of the browser tests' pages: conftest.py fails the test
# that made one (zero console errors on every page: a hidden arrow once logged ~140 a page).
CONSOLE_ERRORS = []
CONTEXTS = []          # every browser context opened (conftest.py closes a test's own when it ends)


class WatchedBrowser:
    """Chromium whose every page reports its console errors into CONSOLE_ERRORS."""

    def __init__(self, browser):
        self.browser = browser

    def new_context(self, **options):
        context = self.browser.new_context(**options)
        context.on("console", lambda m: m.type == "error" and CONSOLE_ERRORS.append("%s: %s" % (m.location.get("url"), m.text)))
        context.on("weberror", lambda e: CONSOLE_ERRORS.append("uncaught: %s" % e.error))
        CONTEXTS.append(context)
        return context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def __getattr__(self, name):
        return getattr(self.browser, name)


@contextlib.contextmanager
def chromium():
    """Headless Chromium through Playwright, closed at the end (a browser test's module fixture)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield WatchedBrowser(browser)
        finally:
            browser.close()


@contextlib.contextmanager
def served(board, port=0, timeout=10, ladder=None):
    """``board``'s page on 127.0.0.1; yields the base URL ("http://127.0.0.1:PORT")."""
    sock = bind(port)
    server = make_server(board, sock, ladder)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield "http://127.0.0.1:%d" % sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


class PtyBoard:
    """The firmware on fake hardware behind a pseudo-terminal: a board on a "USB serial port".

    ``path`` is a symlink to the pty's device, as /dev/serial/by-id/... would be:
    ``unplug()`` closes the pty (the host's reads fail), ``plug()`` opens a new
    one behind the same path. The firmware's loop runs in a thread, in simulated
    time (one loop pass per real millisecond or so); ``hands(f)`` runs ``f(hw)``
    between passes (lift/place on ``hw``).
    """

    def __init__(self, path):
        import firmware_support  # noqa: F401  (firmware/ and fakehw/ on the path)
        from scacchiera import start as firmware_main
        from fakehal import FakeHardware
        self.path = path
        self.firmware = firmware_main
        self.hw = FakeHardware()
        self.hw.serial.raw = bytearray()   # every byte the board writes goes to the pty (JSON lines or DGT's binary)
        self.hw.set_squares(firmware_support.START_SQUARES)
        self.runner = firmware_main.build(self.hw, firmware_support.PERIOD_US)
        self.lock = threading.Lock()
        self.passed = threading.Condition(self.lock)   # notified after each pass of the firmware's loop
        self.master = self.slave = None
        self.received = bytearray()       # every byte the host sent
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self.plug()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(5)
        self.unplug()

    def plug(self):
        import os
        import tty
        with self.lock:
            master, slave = os.openpty()
            tty.setraw(slave)
            tmp = self.path + ".new"
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.path)
            self.master, self.slave = master, slave

    def unplug(self):
        import os
        with self.lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    os.close(fd)
            self.master = self.slave = None
            if os.path.lexists(self.path):
                os.unlink(self.path)
            del self.hw.serial.raw[:]        # what the board wrote meanwhile went nowhere

    def hands(self, f):
        with self.lock:
            f(self.hw)

    def wait(self, ms, host=None):
        """Until the firmware's simulated clock has moved ``ms`` on (its passes run in their thread,
        as fast as the machine lets them: a pace in the hands' time, never the wall clock's);
        ``host()`` is called meanwhile (a host reading what comes)."""
        with self.lock:
            end = self.hw.ticks_ms() + ms
            while self.hw.ticks_ms() < end:
                if host is not None:
                    host()
                assert self.passed.wait(10) or self.thread.is_alive(), "the firmware's loop stopped"

    def _run(self):
        import os
        import select
        while not self.stopped.is_set():
            with self.lock:
                master = self.master
                if master is not None:
                    ready, _, _ = select.select([master], [], [], 0)
                    if ready:
                        try:
                            data = os.read(master, 4096)
                        except OSError:           # no host has the port open
                            data = b""
                        self.received += data
                        self.hw.send_bytes(data)
                self.firmware.serve(self.runner, 1)
                self.passed.notify_all()
                out = bytes(self.hw.serial.raw)
                del self.hw.serial.raw[:]
                if master is not None and out:
                    os.write(master, out)
            time.sleep(0.001)


START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def status_reply(moves=(), game=1, **more):
    """A board's ``status`` reply (its fields as docs/protocol.md has them), with ``more`` added
    (the newer fields: clock, material, offer, options ...)."""
    fields = dict(fen=START_FEN, moves=list(moves), turn="b" if len(moves) % 2 else "w", state="idle",
                  result="*", termination=None, in_sync=True, show=None,
                  options={"profile": "fide", "hints": True}, game=game)
    fields.update(more)
    return fields


class ScriptedBoard(Board):
    """A board played by the test: every line the companion sends is kept in ``sent`` (parsed),
    and ``feed(msg)`` is a line from the board. ``answer(status)`` replies to the companion's
    own pending requests like a board (hello, watch, leds, occupancy, status, pgn), so firmware
    features that have not landed yet (clocks, material, suggest) can be fed as lines."""

    kind = "scripted"

    def __init__(self, commands=("hello", "status", "show", "set")):
        self.sent = []
        self.answered = set()
        self.commands = dict.fromkeys(commands, {})
        super().__init__()
        self.model.connected()

    def _write(self, line):
        self.sent.append(json.loads(line) if line.startswith("{") else line)

    def feed(self, msg):
        self.model.feed(msg if isinstance(msg, str) else json.dumps(msg))
        self.notify()

    def answer(self, status=None, pgn='[Event "Scacchiera"]\n\n*\n'):
        """Reply to every request of the companion's own not answered yet: hello with ``commands``,
        no LEDs lit, no occupancy, ``status`` (default: the start), ``pgn``."""
        while True:
            pending = [r for r in self.sent if isinstance(r, dict) and str(r.get("id", ""))[:1] == "c"
                       and r["id"] not in self.answered]
            if not pending:
                return
            request = pending[0]
            self.answered.add(request["id"])
            fields = {"hello": {"proto": 1, "firmware": "scripted", "commands": self.commands},
                      "leds": {"frame": {}}, "occupancy": {"squares": []},
                      "status": status or status_reply(), "pgn": {"pgn": pgn}}.get(request["cmd"], {})
            self.feed(dict(fields, re=request["cmd"], ok=True, id=request["id"]))


# -- whole games on the simulated board: simulated time and a person's hands --------------------

def step_until(board, predicate, what, timeout=30):
    """Let simulated time pass (10 ms a step) until ``predicate(state)``; the state."""
    deadline = time.monotonic() + timeout
    while True:
        board.advance(10)
        s = board.state()
        if predicate(s):
            return s
        assert time.monotonic() < deadline, "timed out waiting for %s: %s" % (what, {k: s[k] for k in ("moves", "show", "state", "leds")})


def make(board, s, uci):
    """A person's hands make the move the LEDs show (captured piece first, then the piece; castling king first)."""
    game = python_chess_board(s["fen"], [])
    move = chess.Move.from_uci(uci)
    frm, to = uci[:2], uci[2:4]
    if game.is_capture(move):
        victim = chess.square_name(move.to_square if not game.is_en_passant(move)
                                   else move.to_square + (-8 if game.turn == chess.WHITE else 8))
        board.act("lift", {"square": victim})
        board.act("tray", {})
        board.advance(60)
    board.act("lift", {"square": frm})
    board.advance(60)
    if move.promotion:
        letter = chess.piece_symbol(move.promotion)
        board.act("place", {"square": to, "piece": letter.upper() if game.turn == chess.WHITE else letter})
        board.act("tray", {})
    else:
        board.act("place", {"square": to})
    if game.is_castling(move):
        rook_from, rook_to = (("h", "f") if move.to_square % 8 == 6 else ("a", "d"))
        rank = frm[1]
        board.advance(60)
        board.act("lift", {"square": rook_from + rank})
        board.advance(60)
        board.act("place", {"square": rook_to + rank})


def start_game(page, opponent=None, colour=None, clock=None, variant=None, seed=None, rated=None, level=None,
               position=None):
    """The page's "new game" dialog, as a person uses it: the choices given, then Start."""
    page.click("#act-new")
    page.wait_for_selector("#new-game[open]")
    if opponent:
        page.select_option("#ng-opponent", opponent)
    if level:
        page.wait_for_function("want => document.querySelector(`#ng-level option[value='${want}']`)", arg=level)
        page.select_option("#ng-level", level)
    if colour:
        page.check("input[name=ng-colour][value=%s]" % colour)
    if clock:
        page.select_option("#ng-clock", clock)
    if variant:
        page.select_option("#variant", variant)
    if seed is not None:
        page.fill("#seed-in", str(seed))
    if position is not None:
        page.fill("#position-in", str(position))
    if rated is not None:
        page.set_checked("#ng-rated", rated)
    page.click("#reset")
    page.wait_for_selector("#new-game", state="hidden")
