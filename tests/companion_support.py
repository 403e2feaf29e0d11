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
from host_tools.serving import in_thread

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
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium): browser tests skipped"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright is not installed: browser tests skipped"),
]


# Every console error and uncaught exception of the browser tests' pages: conftest.py fails the test
# that made one (zero console errors on every page: a hidden arrow once logged ~140 a page).
CONSOLE_ERRORS = []
CONTEXTS = []          # every browser context opened (conftest.py closes a test's own when it ends)
# Every visible text of a page in English that the Italian table (static/i18n.js) lacks, in every
# state a browser test reaches: conftest.py fails the test that showed one. Words are what has a
# word in lower case (a name, a move in SAN, "FEN" or "Elo" are the same in Italian); a text the
# page marks translate="no" is data. A line written by key (data-line: static/sentences.js) is
# written again in each language: one a table cannot write (no key, a field it lacks: "undefined"),
# or whose English is not what the page shows, is reported too; so is one written as an attribute
# (data-line-title, data-line-aria-label: showLineIn).
UNTRANSLATED = []
_COLLECT_UNTRANSLATED = """
(() => {
  let timer = null;
  const told = new Set();
  const ATTRIBUTES = ["title", "placeholder", "aria-label"];
  async function scan() {
    timer = null;
    if (!document.getElementById("ui-lang")) return;
    let i18n, sentences;
    try {
      i18n = await import(new URL("i18n.js", location.href).href);
      sentences = await import(new URL("sentences.js", location.href).href);
    } catch (e) { return; }
    if (document.documentElement.lang === "it") return;     // (asked after the import: it sets the language)
    const missing = [];
    const visible = (el) => el && !el.closest(i18n.SKIP) && el.getClientRects().length > 0 &&
      getComputedStyle(el).visibility !== "hidden";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const texts = n.nodeType === Node.TEXT_NODE ? (visible(n.parentElement) ? [n.nodeValue] : [])
        : ATTRIBUTES.filter((a) => n.hasAttribute(a) && !n.hasAttribute("data-line-" + a) && visible(n))
            .map((a) => n.getAttribute(a));
      for (const text of texts) {
        const trimmed = text.trim();
        if (/(^|[^A-Za-z])[a-z][a-z]/.test(trimmed) && !told.has(trimmed) && i18n.italian(trimmed) === null) {
          told.add(trimmed);
          missing.push(trimmed);
        }
      }
    }
    const keyed = [["line", "[data-line]", (el) => el.textContent]].concat(        // (no await since the walk: one moment)
      ATTRIBUTES.map((a) => ["line-" + a, "[data-line-" + a + "]", (el) => el.getAttribute(a)]));
    for (const [data, selector, shown] of keyed) {
      for (const el of document.querySelectorAll(selector)) {
        if (!visible(data === "line" ? el.parentElement : el)) continue;
        const problem = lineProblem(sentences, JSON.parse(el.getAttribute("data-" + data)), shown(el));
        if (problem && !told.has(problem)) {
          told.add(problem);
          missing.push(problem);
        }
      }
    }
    if (missing.length) window.__scacchieraUntranslated(location.pathname, missing);
  }
  function lineProblem(sentences, line, shown) {
    try {
      const en = sentences.sentence(line, "en"), it = sentences.sentence(line, "it");
      if (/undefined|NaN|\\[object/.test(en + it)) return "line " + line.key + " written as: " + en + " / " + it;
      if (en !== shown) return "line " + line.key + " shows " + shown + ", its English is " + en;
    } catch (e) {
      return "line " + line.key + " not written: " + e;
    }
    return null;
  }
  window.__scacchieraScan = scan;        // conftest.py's last look before a test's pages close
  const later = () => { if (timer === null) timer = setTimeout(scan, 150); };
  new MutationObserver(later).observe(document, { subtree: true, childList: true, characterData: true,
                                                 attributes: true });
  addEventListener("load", later);
})();
"""


class WatchedBrowser:
    """Chromium whose every page reports its console errors into CONSOLE_ERRORS."""

    def __init__(self, browser):
        self.browser = browser

    def new_context(self, **options):
        context = self.browser.new_context(**options)
        context.on("console", lambda m: m.type == "error" and CONSOLE_ERRORS.append("%s: %s" % (m.location.get("url"), m.text)))
        context.on("weberror", lambda e: CONSOLE_ERRORS.append("uncaught: %s" % e.error))
        context.expose_binding("__scacchieraUntranslated",
                               lambda source, path, texts: UNTRANSLATED.extend((path, t) for t in texts))
        context.add_init_script(_COLLECT_UNTRANSLATED)
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
    try:
        with in_thread(make_server(board, sock, ladder), [sock]) as bound:
            yield "http://127.0.0.1:%d" % bound
    finally:
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


# -- a person on the companion page, on a phone (390 x 844, touch) or a desktop (1280 x 800) ----------

SIZES = {"phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
         "desktop": {"viewport": {"width": 1280, "height": 800}}}


def finger_drag(page, start, end, steps=4):
    """A finger pressed at ``start`` (x, y), moved to ``end`` and lifted: real touch input (Chromium's
    Input.dispatchTouchEvent through the DevTools protocol), not mouse events."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x0 + (x1 - x0) * i / steps, "y": y0 + (y1 - y0) * i / steps}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.fixture(scope="module")
def browser():
    """Chromium for a module's browser tests (imported by the modules that use it)."""
    with chromium() as b:
        yield b


@pytest.fixture(params=list(SIZES))
def size(request):
    """Each test twice: on the phone and on the desktop."""
    return request.param


def one_size(kept):
    """A test whose steps do not depend on the screen: ``make test`` runs it on ``kept`` alone (the
    size its gestures matter most on), ``make test-long`` on the other too."""
    return pytest.mark.parametrize("size", [pytest.param(name, marks=() if name == kept else pytest.mark.slow)
                                            for name in SIZES])


# What a player needs without scrolling (issue: "phone first"), and the buttons among them.
FIRST_VIEWPORT = ("#board", "#turn-line", "#clock-white", "#clock-black", "#last-move", "#explain",
                  "#act-new", "#act-undo", "#act-offer", "#act-resign", "#hint", "#flip")
BUTTONS = ("#act-new", "#act-undo", "#act-offer", "#act-resign", "#hint", "#flip")


class Player:
    """A page on a simulated board, and the hands of a person who uses only that page."""

    def __init__(self, browser, board, url, size):
        self.board = board
        self.size = size
        self.context = browser.new_context(**SIZES[size])
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: d.accept())          # "Resign this game?": yes
        self.page.goto(url + "/")
        self.page.wait_for_selector("#conn:text('connected')")
        self.page.wait_for_selector("#board .piece")

    def centre(self, square):
        box = self.page.locator(".sq[data-square='%s']" % square).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def drag_to(self, square, point, steps=4):
        """A piece taken from ``square`` and let go at ``point``: a finger on the phone (touch events
        through the DevTools protocol), the mouse on the desktop."""
        x0, y0 = self.centre(square)
        x1, y1 = point
        if self.size == "phone":
            finger_drag(self.page, (x0, y0), point, steps)
        else:
            self.page.mouse.move(x0, y0)
            self.page.mouse.down()
            self.page.mouse.move(x1, y1, steps=steps)
            self.page.mouse.up()

    def drag(self, fr, to):
        self.drag_to(fr, self.centre(to))
        self.page.wait_for_function("([fr, to]) => !window.scacchiera.state.hand", arg=[fr, to])

    def take_off(self, square):
        """A piece dragged off the board (let go over the page's header): into the tray."""
        header = self.page.locator("header").bounding_box()
        self.drag_to(square, (header["x"] + 30, header["y"] + header["height"] / 2))
        self.page.wait_for_function("sq => !window.scacchiera.state.hand", arg=square)

    def play(self, game, move):
        """``move`` (python-chess, legal in ``game``) made with the pieces, as hands make it: a capture
        dropped onto its victim, castling king first, en passant with the victim taken off first."""
        fr, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        if game.is_castling(move):
            rook_from, rook_to = {"g1": ("h1", "f1"), "c1": ("a1", "d1"),
                                  "g8": ("h8", "f8"), "c8": ("a8", "d8")}[to]
            self.drag(fr, to)
            self.drag(rook_from, rook_to)
        elif game.is_en_passant(move):
            self.take_off(to[0] + fr[1])
            self.drag(fr, to)
        else:
            self.drag(fr, to)
            # An underpromotion (the computer's, now and then): the new piece tapped, queen -> knight ->
            # rook -> bishop (docs/gestures.md), before the board takes the queen.
            for _ in range({chess.KNIGHT: 1, chess.ROOK: 2, chess.BISHOP: 3}.get(move.promotion, 0)):
                for action, there in (("lift", False), ("place", True)):
                    # Each touch held until the board's debounced switches have seen it (its occupancy).
                    self.page.evaluate("([action, sq]) => window.scacchiera.post(action, {square: sq})", [action, to])
                    self.page.wait_for_function("([sq, there]) => (window.scacchiera.state.occupancy || [])"
                                                ".includes(sq) === there", arg=[to, there])
        game.push(move)
        self.moves_are(len(game.move_stack))

    def tap(self, square):
        """A finger's tap on the phone, a click on the desktop (the square scrolled into sight first)."""
        self.page.locator(".sq[data-square='%s']" % square).scroll_into_view_if_needed()
        x, y = self.centre(square)
        if self.size == "phone":
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def tap_move(self, game, move):
        """``move`` made by taps only: the piece, then (once its squares show) the square it goes to;
        the simulated hands make the rest of the move (a victim, a castling's rook, a queen)."""
        fr, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        self.tap(fr)
        self.page.wait_for_function("([fr, to]) => { const s = window.scacchiera.state; return s.hand_from === fr && "
                                    "s.dests.includes(to) && document.querySelector(`.sq[data-square='${to}']`)"
                                    ".classList.contains('dest'); }", arg=[fr, to])
        self.tap(to)
        game.push(move)
        self.moves_are(len(game.move_stack))
        self.page.wait_for_function("() => !window.scacchiera.state.hand && window.scacchiera.state.in_sync")

    def moves_are(self, plies, timeout=15000):
        self.page.wait_for_function("n => window.scacchiera.state.moves.length === n", arg=plies, timeout=timeout)

    def in_first_viewport(self, selector):
        box = self.page.locator(selector).bounding_box()
        width, height, scrolled = self.page.evaluate("[innerWidth, innerHeight, scrollY]")
        return box is not None and scrolled == 0 and box["x"] >= 0 and box["y"] >= 0 and \
            box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5

    def assert_first_viewport(self, *selectors):
        self.page.evaluate("scrollTo(0, 0)")
        for selector in selectors or FIRST_VIEWPORT:
            assert self.in_first_viewport(selector), (self.size, selector, self.page.locator(selector).bounding_box())
        assert self.page.evaluate("document.scrollingElement.scrollWidth") <= self.page.evaluate("innerWidth")

    def said(self, text, timeout=10000):
        self.page.wait_for_function("t => document.getElementById('explain').textContent.includes(t)",
                                    arg=text, timeout=timeout)
        return self.page.inner_text("#explain")

    def shot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.page.screenshot(path=os.path.join(ARTIFACTS, "play-%s-%s.png" % (name, self.size)))


