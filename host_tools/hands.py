"""Simulated hands and switches driving the real application, in simulated time.

A script is one step per line (``#`` starts a comment; its first comment
lines may set it up: ``# fen: FEN``, ``# variant: sprint``, ``# seed: 42``)::

    lift e2        # the reed switch under e2 opens
    place e4       # the reed switch under e4 closes
    wait 250       # 250 ms pass; the matrix is scanned at the firmware's rate meanwhile
    press NAME     # a board button (see docs/gestures.md)
    send LINE      # a line arrives on the USB serial link
    set NAME VALUE # an option, as the protocol's set (set clock 5+3, set offer_every 2)

and, for tests, expectations checked at that point::

    expect moves e2e4 e7e5        # the game's moves so far, in UCI
    expect leds e4=last-move ...  # these squares have these meanings (others may be lit too)
    expect dark e5 e6             # these squares are not lit
    expect result 1-0 checkmate   # or: expect result *
    expect fen <FEN>
    expect state idle|lifted|pending|error|sync
    expect clock 59730 60000 b    # ms left, white's and black's, and whose runs (w, b or -)
    expect offer w                # who offers a draw (w, b or -)
    expect event drill state=done right=3   # the board's last event of that kind on the serial
                                            # link has these fields (values as JSON writes them)

Plain Python that also runs under MicroPython, so the same scenarios run
on both. ``Hands.step`` raises ``ScriptError`` naming the line for a bad
step, ``AssertionError`` for a failed expectation.
"""

import sys

from scacchiera.app import App
from scacchiera.leds.names import meanings as led_meanings
from scacchiera.link.report import STATE_NAMES
from scacchiera.rules.squares import parse_square

SCAN_MS = 5          # the hands' scan step; the firmware itself scans every 2 ms (runner.PERIOD_US)


class ScriptError(ValueError):
    pass


def _value(word):
    """A script word as an option's value: on/off/true/false, a whole number, or the word."""
    lower = word.lower()
    if lower in ("on", "true", "off", "false"):
        return lower in ("on", "true")
    return int(word) if word.isdigit() else word


def script_setup(text):
    """The set-up a script asks for in its first comment lines: ``# fen: ...``, ``# variant: sprint``,
    ``# seed: 42`` (all optional), as keyword arguments for Hands."""
    setup = {}
    for line in text.split("\n"):
        line = line.strip()
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        key = key.strip()
        if key in ("fen", "variant") and value.strip():
            setup[key] = value.strip()
        elif key == "seed" and value.strip().isdigit():
            setup["seed"] = int(value.strip())
    return setup


def read_script(args):
    """(text, (fen, profile, variant, seed)) of the hands script ``args.script``: its own set-up
    lines, the command line's options winning (the simulator's and the emulated Pico's command
    lines). OSError if it cannot be read."""
    with open(args.script) as f:
        text = f.read()
    setup = script_setup(text)
    return text, (args.fen or setup.get("fen"), args.profile, args.variant or setup.get("variant"),
                  args.seed if args.seed is not None else setup.get("seed"))


def check_scripts(paths, board_for):
    """Run each script file on a new ``board_for(**its set-up)``; one line each ("ok PATH" or
    "FAIL PATH: why": every script gets its line), then "N passed, N failed"; exits 1 on a failure
    (tests/mpy's checks under MicroPython)."""
    passed = failed = 0
    for path in paths:
        with open(path) as f:
            text = f.read()
        try:
            board_for(**script_setup(text)).run(text)
            passed += 1
            print("ok   " + path)
        except Exception as e:  # report and go on
            failed += 1
            print("FAIL %s: %r" % (path, e))
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        sys.exit(1)


def play_lines(board, text, events, describe=None, errors=(ScriptError,)):
    """Step ``board`` through the script's lines, printing what ``events()`` gained at each
    (with ``describe``; nothing if None). 0, or 1 with the first failure said on stderr."""
    for number, line in enumerate(text.split("\n"), 1):
        seen = len(events())
        try:
            board.step(line, number)
        except errors as e:
            message = str(e) if str(e).startswith("line ") else "line %d: %s" % (number, e)
            print("error: %s" % message, file=sys.stderr)
            return 1
        except AssertionError as e:
            print("error: line %d: expectation failed: %s" % (number, e), file=sys.stderr)
            return 1
        if describe is not None:
            for event in events()[seen:]:
                print(describe(event))
    return 0


def hands_timed(text):
    """Does the script pin times to the ms of these hands' 5 ms scans (a ``# timing: hands``
    comment line at its head)? The firmware's own loop (the simulator's scripted mode, the
    emulated Pico) steps every 2 ms and sees a change up to 5 ms sooner: such a script's
    exact times hold only here."""
    for line in text.split("\n"):
        line = line.strip()
        if not line.startswith("#"):
            return False
        if line[1:].strip().startswith("timing: hands"):
            return True
    return False


class Hands:
    """The physical board: which squares hold a magnet, a clock, and the app scanning it."""

    def __init__(self, app=None, fen=None, profile="fide", setup=True, chatter=None, variant=None, seed=None):
        events = []
        app = app or App(fen, profile, listener=events.append, variant=variant, seed=seed)
        # Set up as the position stands (a Chess960 start too: its set-up guide then begins).
        rows = bytearray(app.game.position.occupancy()) if setup else bytearray(8)
        self._start(app, rows, 0, chatter, events)
        app.boot(self.rows, self.now)

    def _start(self, app, rows, now, chatter, events):
        """The state every kind of hands has: the board it drives, the magnets, the clock."""
        self.app = app
        self.rows = rows
        self.now = now
        self.chatter = chatter       # optional: f(square, present) -> list of (ms, level) bounces
        self.bounces = []            # (time, square, level) contacts still to happen
        self.events = events         # the game's events
        self.protocol = []           # lines the board sent on the serial link

    @staticmethod
    def _rows_of(occupancy):
        rows = bytearray(8)
        for sq in range(64):
            if occupancy[sq]:
                rows[sq >> 3] |= 1 << (sq & 7)
        return rows

    def present(self, square):
        return (self.rows[square >> 3] >> (square & 7)) & 1

    def _set(self, square, level):
        if level:
            self.rows[square >> 3] |= 1 << (square & 7)
        else:
            self.rows[square >> 3] &= ~(1 << (square & 7)) & 0xFF

    def touch(self, square, level):
        """A magnet arrives (1) or leaves (0): the contact may bounce first."""
        self._set(square, level)
        if self.chatter is not None:
            last = 0
            for delay, bounce in self.chatter(square, level):
                self.bounces.append((self.now + delay, square, bounce))
                last = max(last, delay)
            if last:
                self.bounces.append((self.now + last + 1, square, level))

    def wait(self, ms):
        """Let ``ms`` of simulated time pass, scanning at the firmware's rate meanwhile."""
        end = self.now + ms
        while self.now < end:
            if self.bounces:
                keep = []
                for when, square, level in self.bounces:
                    if when <= self.now:
                        self._set(square, level)
                    else:
                        keep.append((when, square, level))
                self.bounces = keep
            self.scan(end)

    def scan(self, end):
        """One scan of the switches (a subclass may run the whole firmware loop instead)."""
        self.now += min(SCAN_MS, end - self.now)
        self.app.scan(self.rows, self.now)

    # -- scripts ------------------------------------------------------------

    def run(self, text):
        for number, line in enumerate(text.split("\n"), 1):
            self.step(line, number)

    def step(self, line, number=0):
        line = line.split("#", 1)[0].strip()
        if not line:
            return
        words = line.split()
        verb = words[0]
        try:
            if verb in ("lift", "place"):
                if len(words) != 2:
                    raise ScriptError("%s takes one square" % verb)
                square = parse_square(words[1])
                level = 1 if verb == "place" else 0
                if self.present(square) == level:
                    raise ScriptError("%s %s: the square is already %s" % (
                        verb, words[1], "occupied" if level else "empty"))
                self.touch(square, level)
                self.wait(SCAN_MS)
            elif verb == "wait":
                if len(words) != 2 or not words[1].isdigit():
                    raise ScriptError("wait takes a number of milliseconds")
                self.wait(int(words[1]))
            elif verb == "press":
                if len(words) != 2:
                    raise ScriptError("press takes a button name")
                self.press(words[1])
            elif verb == "send":
                self.send(line[4:].strip())
            elif verb == "set":
                if len(words) != 3:
                    raise ScriptError("set takes an option's name and a value")
                self.set_option(words[1], _value(words[2]))
            elif verb == "expect":
                self.expect(words[1:])
            else:
                raise ScriptError("unknown step %r" % verb)
        except ValueError as e:
            raise ScriptError("line %d: %s" % (number, e))

    def press(self, name):
        raise ScriptError("no button named %r" % name)

    def send(self, line):
        raise ScriptError("no serial protocol in this build")

    def set_option(self, name, value):
        """Set an option the game holds (ValueError if it refuses)."""
        self.app.game.set_option(name, value)

    # -- what the board shows ------------------------------------------------

    def moves(self):
        pos = self.app.game.position
        return [pos.uci(m) for m in pos.move_stack]

    def leds(self):
        return led_meanings(self.app.compose())

    def state(self):
        return STATE_NAMES[self.app.game.tracker.state]

    def result(self):
        """The result as scripts write it: ["*"] while the game goes on, else [result, termination]."""
        game = self.app.game
        return ["*"] if game.result is None else list(game.result)

    def fen(self):
        return self.app.game.position.fen()

    def offer(self):
        """Who offers a draw: "w", "b" or "-"."""
        offer = self.app.game.offer
        return "wb"[offer] if offer >= 0 else "-"

    def clock(self):
        """The clocks as scripts write them: [white's ms, black's ms, whose runs (w, b or -)]."""
        clocks = self.app.game.clocks
        running = clocks.running
        return [str(clocks.left_ms(True, self.now)), str(clocks.left_ms(False, self.now)),
                "-wb"[running]]

    def expect(self, words):
        """An ``expect`` step, checked against what the board shows (moves, result, ... from the methods above)."""
        if not words:
            raise ScriptError("expect what?")
        what, args = words[0], words[1:]
        if what in ("leds", "dark"):
            self.expect_leds(args, what == "dark")
        elif what == "moves":
            got = self.moves()
            assert got == args, "moves: got %s, expected %s" % (got, args)
        elif what == "result":
            got = self.result()
            assert got == args, "result: got %s, expected %s" % (got, args)
        elif what == "fen":
            got = self.fen()
            assert got == " ".join(args), "fen: got %s" % got
        elif what == "state":
            got = self.state()
            assert got == args[0], "state: got %s, expected %s" % (got, args[0])
        elif what == "clock":
            got = self.clock()
            assert got == args, "clock: got %s, expected %s" % (got, args)
        elif what == "offer":
            got = self.offer()
            assert [got] == args, "offer: got %s, expected %s" % (got, args)
        elif what == "event":
            self.expect_event(args)
        else:
            raise ScriptError("unknown expectation %r" % what)

    def expect_event(self, args):
        """The last serial event of kind ``args[0]`` has the ``name=value`` fields ``args[1:]``."""
        import json
        if not args:
            raise ScriptError("expect event which?")
        last = None
        for line in self.protocol:
            if line[:1] == "{":
                ev = json.loads(line)
                if ev.get("ev") == args[0]:
                    last = ev
        assert last is not None, "no %s event" % args[0]
        for item in args[1:]:
            name, _, value = item.partition("=")
            got = last.get(name)
            text = got if isinstance(got, str) else json.dumps(got)
            assert text == value, "event %s: %s is %s, expected %s (%s)" % (args[0], name, text, value, last)

    def expect_leds(self, items, dark):
        """``square=meaning`` items lit so (or, ``dark``, squares unlit)."""
        leds = self.leds()
        for item in items:
            if dark:
                assert item not in leds, "led %s: lit as %s" % (item, leds.get(item))
            else:
                name, meaning = item.split("=")
                assert leds.get(name) == meaning, "led %s: got %s, expected %s (all: %s)" % (
                    name, leds.get(name), meaning, leds)
