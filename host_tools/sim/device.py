"""The simulated board: the real firmware, with simulated switches, LEDs, clock, serial link and flash.

``FirmwareHands`` runs the Pico's own main loop (firmware/main.py and
scacchiera/runner.py: debounce, move recognition, game, LED frame, serial
protocol, journal) on a fake hardware layer (host_tools/fakehw/fakehal.py):
only the raw I/O is simulated. ``SimBoard`` adds what a person handles: which
piece stands where (to draw it: the firmware never knows), a hand, a tray; its whole
moves are whole_moves.py's.
"""

import json
import tempfile
import threading

from host_tools import _paths  # noqa: F401  (firmware/ and host_tools/fakehw/ on the path)
from host_tools.hands import Hands, ScriptError
from host_tools.sim import pty_link
from host_tools.sim.pieces import CAPTURE_GAP_MS, SimError, piece_letter as _piece_letter
from host_tools.sim.whole_moves import WholeMoves

from scacchiera import start as firmware_main
from fakehal import FakeHardware, FakeDisplay
from memfs import MemFS
from simclock import Clock, Reset
from scacchiera.storage.fs import OsFS
from scacchiera.link.commands import option_values
from scacchiera.link.report import STATE_NAMES
from scacchiera.leds.names import NAMES as LED_NAMES, meanings as led_meanings
from scacchiera.display.icons import NAMES as ICON_NAMES
from scacchiera.rules.variants import new_position, variant_of, CHESS, CHESS960, SPRINT
from scacchiera.rules.squares import PIECE_SYMBOLS, parse_square, square_name

PIECE_LETTERS = "KQRBNPkqrbnp"
# The spare pieces beside the board, so a promotion has its new piece (kept apart from the pieces taken).
SPARES = "QRBNqrbn"
OTHERS_MS = 300       # the hands make the computer's announced move this long after it is lit


BUTTON_MS = 150       # how long a simulated button press lasts
NEW_STEPS = 400       # main-loop steps (1 s) the board has to answer the constructor's ``new``


class FirmwareHands(Hands):
    """Hands (see host_tools/hands.py) on a board that runs the whole firmware loop.

    ``fs`` is the flash: a folder on disk (``OsFS``) or in memory (``MemFS``,
    the default). A new board boots like a Pico: it resumes the game saved
    on its flash, or starts one. ``fen``: a game to start, set up on the board.
    ``display``: the board has the optional 128 x 64 panel (a FakeDisplay). ``occupied``: the
    squares with a piece at power-on (default: ``fen``'s), for a board that boots mid-game.
    """

    def __init__(self, fen=None, profile="fide", fs=None, chatter=None, variant=None, seed=None, display=True,
                 occupied=None, clock=None, cause="power_on"):
        self.hw = FakeHardware(fs=fs if fs is not None else MemFS(), display=FakeDisplay() if display else None,
                               clock=clock)
        self.hw.cause = cause
        pos = new_position(fen, profile, variant, seed)
        self.hw.set_squares(occupied if occupied is not None else [sq for sq in range(64) if pos.piece_at(sq)])
        self.runner = firmware_main.build(self.hw)
        if fen is not None or profile != "fide" or variant_of(pos) != CHESS:
            command = {"cmd": "new", "profile": profile}
            for name, value in (("fen", fen), ("variant", variant), ("seed", seed)):
                if value is not None:
                    command[name] = value
            self._new_game(command)
        events = []
        self.runner.app.listeners.append(events.append)
        self._start(self.runner.app, bytearray(self.hw.occupied), self.hw.ticks_ms(), chatter, events)
        self._collect()

    def _new_game(self, command):
        """Start a game as a host does: the protocol's ``new``, through the main loop (its reply not logged)."""
        command["id"] = "sim:new"
        sent = self.hw.serial.sent
        self.hw.send(command)
        for _ in range(NEW_STEPS):
            firmware_main.serve(self.runner, 1)
            for i in range(len(sent)):
                reply = json.loads(sent[i])
                if reply.get("id") == "sim:new":
                    del sent[i]
                    if not reply.get("ok"):
                        raise SimError("the board refused the set-up: %s" % reply.get("message"))
                    return
        raise SimError("the board did not answer new")

    def scan(self, end):
        """One pass of the firmware's main loop, its clock paced by the loop itself. A crash the
        firmware met resets the board (start.serve), which boots again as a Pico does."""
        self.hw.occupied[:] = self.rows
        try:
            firmware_main.serve(self.runner, 1)
        except Reset:
            self._collect()
            lines = self.protocol
            self.reboot("watchdog")
            self.protocol[:0] = lines      # the link goes on: the host sees the board's boot line
        self.now = self.hw.ticks_ms()
        self._collect()

    def reboot(self, cause="power_on"):
        """Power off and on (``cause``: or the firmware's own reset): the firmware boots again from
        the same flash and resumes its game; the pieces stay where they stand, time runs on."""
        occupied = [sq for sq in range(64) if self.present(sq)]
        FirmwareHands.__init__(self, fs=self.hw.fs, display=self.hw.display is not None, occupied=occupied,
                               clock=Clock(self.now), cause=cause)

    def _collect(self):
        sent = self.hw.serial.sent
        if sent:
            self.protocol.extend(line.rstrip("\n") for line in sent)
            del sent[:]

    def press(self, name):
        if name not in self.hw.button_names:
            raise ScriptError("no button named %r (the board has: %s)" % (name, ", ".join(self.hw.button_names)))
        self.hw.press(name, True)
        self.wait(BUTTON_MS)
        self.hw.press(name, False)
        self.wait(20)

    def send(self, line):
        """A line arrives on the serial link, as a host would send it."""
        self.hw.send(line)
        self.wait(20)

    def set_option(self, name, value):
        """As the protocol's set: the option applied and saved in the journal."""
        self.runner.set_option(name, value)


class SimBoard(FirmwareHands, WholeMoves):
    """The simulated hands and board, with the pieces' identities, a tray and a lock for the web server;
    whole moves as hands make them are WholeMoves' (whole_moves.py).

    The flash is a temporary folder: a restart of the simulator (``reset``)
    starts a fresh board, while the board itself can resume what it saved.
    """

    def __init__(self, fen=None, profile="fide", variant=None, seed=None):
        self.lock = threading.RLock()
        self.log_limit = 500
        self.version = 0            # bumped on every visible change (the page polls it)
        self.flash = None
        self.pty = None             # the USB link on a pseudo-terminal, for other programs (open_pty)
        self.reset(fen, profile, variant, seed)

    # -- set-up -------------------------------------------------------------

    def reset(self, fen=None, profile="fide", variant=None, seed=None):
        """A new simulator: the firmware boots with the pieces of ``fen`` (or the variant's start) set up."""
        with self.lock:
            pos = new_position(fen, profile, variant, seed)   # ValueError if bad, before anything changes
            self.pieces = [""] * 64
            for sq in range(64):
                code = pos.piece_at(sq)
                if code:
                    self.pieces[sq] = _piece_letter(code)
            self.tray = []            # the pieces taken off the board (captured, put aside)
            self.spares = list(SPARES)
            self.hand = ""            # the piece being held
            self.hand_from = None     # the square it was lifted from
            self.sim_events = []
            if self.flash is not None:
                self.flash.cleanup()
            self.flash = tempfile.TemporaryDirectory(prefix="scacchiera-flash-")
            FirmwareHands.__init__(self, fen, profile, fs=OsFS(self.flash.name), variant=variant, seed=seed)
            self.app.listeners.append(self._event)
            if self.pty is not None:
                pty_link.attach(self.runner, self.pty)
            self._changed()

    def reboot(self, cause="power_on"):
        """Power off and on (a cut, a watchdog reset): the firmware boots again from the same flash
        and resumes its game; the pieces stay where they stand, the hand and the tray too."""
        with self.lock:
            FirmwareHands.reboot(self, cause)
            self.app.listeners.append(self._event)
            if self.pty is not None:
                pty_link.attach(self.runner, self.pty)
            self._changed()

    def open_pty(self):
        """The board's USB serial link on a pseudo-terminal as well (host_tools/sim/pty_link.py): its
        path, which a program opens as a serial port."""
        with self.lock:
            if self.pty is None:
                self.pty = pty_link.PtyPort()
                pty_link.attach(self.runner, self.pty)
            return self.pty.path

    def new_game(self, fen=None, profile=None, variant=None, seed=None, position=None):
        """A new game on this board, as on a real one: the protocol's ``new`` (the board keeps its
        options: a clock, hints, the opponent), then the simulated hands set its pieces up at once.
        ``reset`` instead starts a fresh board (a new flash: options back to their defaults)."""
        with self.lock:
            command = {"cmd": "new"}
            for name, value in (("fen", fen), ("profile", profile), ("variant", variant), ("seed", seed),
                                ("position", position)):
                if value is not None:
                    command[name] = value
            self._new_game(command)          # SimError (the board's words) if it refuses
            self.tray = []
            self.spares = list(SPARES)
            self.hand = ""
            self.hand_from = None
            self.set_up()

    def set_up(self):
        """The hands set the pieces as the game has them (a new game's, a drill's, a move the board
        took back), at once; a Chess960 set-up step by step as its guide asks."""
        with self.lock:
            game = self.app.game
            pos = game.position
            for _ in range(7):                # a Chess960 set-up is guided in six steps
                # The hands make the board what it asks for now: every piece where the game has
                # it, or the set-up guide's step (tracking/setup_guide.py): clear, then K, Q, ...
                if game.tracker.guide_piece >= 0:
                    to_empty, to_fill = game.sync_squares()
                    for sq in to_empty:
                        self.pieces[sq] = ""
                    for sq in to_fill:
                        self.pieces[sq] = _piece_letter(pos.piece_at(sq))
                else:
                    self.pieces = [_piece_letter(pos.piece_at(sq)) if pos.piece_at(sq) else "" for sq in range(64)]
                for sq in range(64):
                    self._set(sq, 1 if self.pieces[sq] else 0)
                self.wait(100)                # the firmware sees the set-up: in sync
                if game.in_sync():
                    break
            self._changed()

    def _event(self, event):
        self.sim_events.append(event)
        if len(self.sim_events) > self.log_limit:
            del self.sim_events[0]
        if event["kind"] == "move":
            self._show_played(event["uci"])
        self._changed()

    def _show_played(self, uci):
        """Draw the piece the game has on a move's square: the hands swap a promoted pawn,
        and a Sprint tile is the one the board chose."""
        if uci[1] != "@" and len(uci) < 5:
            return
        sq = parse_square(uci[-3:-1] if len(uci) == 5 else uci[2:4])
        code = self.app.game.position.piece_at(sq)
        letter = _piece_letter(code) if code else ""
        if letter and self.pieces[sq] and self.pieces[sq] != letter:
            self.spares.append(self.pieces[sq])
            self._take_from_beside(letter)
            self.pieces[sq] = letter

    def _changed(self):
        self.version += 1

    # -- the hands ----------------------------------------------------------------

    @staticmethod
    def square(name):
        try:
            return parse_square(name)
        except (ValueError, TypeError):
            raise SimError("not a square: %r" % (name,))

    def touch(self, square, level, piece=None):
        """A piece leaves a square (into the hand) or arrives (from the hand, or ``piece`` from the tray)."""
        with self.lock:
            name = square_name(square)
            if level:
                victim, incoming = self.pieces[square], piece or self.hand
                if victim and incoming and victim.isupper() != incoming.isupper():
                    self._take_off(square)       # a capture dropped onto its victim: as hands do it
                elif victim and incoming == self.hand and self._castles_onto(square):
                    return
                elif victim:
                    raise SimError("%s is occupied: take its piece off first" % name)
                if piece is None:
                    piece = self.hand or self._tray_default(square)
                    if not piece:
                        raise SimError("no piece in the hand to place on %s" % name)
                if piece not in PIECE_LETTERS:
                    raise SimError("not a piece: %r (use one of %s)" % (piece, PIECE_LETTERS))
                if piece == self.hand:
                    self.hand = ""
                    self.hand_from = None
                elif piece in self._tiles(self.app.game.position.turn):
                    pass              # a Sprint tile from the player's hand (the game counts them)
                elif not self._take_from_beside(piece):
                    raise SimError("no %r in the hand, the tray or the spares" % piece)
                self.pieces[square] = piece
            else:
                if not self.pieces[square]:
                    raise SimError("%s is empty: nothing to lift" % name)
                if self.hand:
                    self.tray.append(self.hand)   # the other hand puts it aside
                self.hand = self.pieces[square]
                self.hand_from = square
                self.pieces[square] = ""
            FirmwareHands.touch(self, square, level)
            self._changed()

    def _castles_onto(self, square):
        """Chess960 on the page: the king in the hand dropped onto its own rook castles, in FIDE's
        order (the king is off the board): the rook to its square, then the king to its."""
        pos = self.app.game.position
        rook, king = self.pieces[square], self.hand
        if variant_of(pos) != CHESS960 or king not in ("K", "k") or rook != ("R" if king == "K" else "r"):
            return False
        from scacchiera.rules.chess960 import castle_targets
        kto, rto = castle_targets(pos.king_square(0 if king == "K" else 1), square)
        if (self.pieces[kto] and kto != square) or (self.pieces[rto] and rto != square):
            return False                 # not a castling: "occupied" as for any square
        self.pieces[square] = ""
        FirmwareHands.touch(self, square, 0)
        self.wait(CAPTURE_GAP_MS)
        self.pieces[rto] = rook
        FirmwareHands.touch(self, rto, 1)
        self.wait(CAPTURE_GAP_MS)
        self.pieces[kto] = king
        self.hand = ""
        self.hand_from = None
        FirmwareHands.touch(self, kto, 1)
        self._changed()
        return True

    def _take_off(self, square):
        """The victim of a capture leaves the board for the tray, and the firmware sees the square
        empty before the capturing piece lands there (a page drag onto an enemy piece)."""
        self.tray.append(self.pieces[square])
        self.pieces[square] = ""
        FirmwareHands.touch(self, square, 0)
        self.wait(CAPTURE_GAP_MS)

    def _take_from_beside(self, piece):
        """A piece taken from beside the board: the pieces taken first (a captured piece put back),
        then the spares (a promotion's new piece). False if neither has one."""
        for pile in (self.tray, self.spares):
            if piece in pile:
                pile.remove(piece)
                return True
        return False

    def lift(self, name):
        self.touch(self.square(name), 0)

    def place(self, name, piece=None):
        self.touch(self.square(name), 1, piece)

    def _tray_default(self, sq):
        """A script's place with an empty hand: in Scacchi Sprint a tile of the player's
        (the one just drawn first), else a queen on a promotion square, else the last piece put aside."""
        tiles = self._tiles(self.app.game.position.turn)
        if tiles:
            drawn = self.app.game.position.drawn_tile()
            letter = PIECE_SYMBOLS[drawn] if drawn else ""
            return letter.upper() if letter.upper() in tiles else letter if letter in tiles else tiles[0]
        want = "Q" if sq >> 3 == 7 else "q" if sq >> 3 == 0 else ""
        if want and (want in self.tray or want in self.spares):
            return want
        return self.tray[-1] if self.tray else ""

    def _tiles(self, color=None):
        """Scacchi Sprint: the letters of the tiles in the players' hands (the game's), '' for chess."""
        pos = self.app.game.position
        if variant_of(pos) != SPRINT:
            return ""
        out = ""
        for c in (0, 1) if color is None else (color,):
            for t in (5, 4, 3, 2, 1):
                letter = PIECE_SYMBOLS[t].upper() if c == 0 else PIECE_SYMBOLS[t]
                out += letter * pos.hand_count(c, t)
        return out

    def to_tray(self):
        """The piece in the hand goes to the tray (a captured piece leaves the board)."""
        with self.lock:
            if self.hand:
                self.tray.append(self.hand)
                self.hand = ""
                self.hand_from = None
                self._changed()

    def wait(self, ms):
        with self.lock:
            shows = self.hw.display.shows if self.hw.display is not None else 0
            before = (self.app.game.tracker.state, self.app.game.tracker.seq, len(self.protocol), shows)
            FirmwareHands.wait(self, ms)
            shows = self.hw.display.shows if self.hw.display is not None else 0
            if before != (self.app.game.tracker.state, self.app.game.tracker.seq, len(self.protocol), shows):
                self._changed()

    def press(self, name):
        with self.lock:
            FirmwareHands.press(self, name)
            self._changed()

    def send(self, line):
        with self.lock:
            FirmwareHands.send(self, line)
            self._changed()

    # -- what the board shows ---------------------------------------------------------

    def display_state(self):
        """The simulated panel's lines and icons' names ({} without a panel)."""
        panel = self.hw.display
        if panel is None:
            return {}
        return {"display": list(panel.lines), "display_icons": [ICON_NAMES[i] for i in panel.icons]}

    def snapshot(self):
        """Everything the page and the scripted mode report, as plain data."""
        with self.lock:
            app = self.app
            game = app.game
            pos = game.position
            frame = app.compose()
            pixels = self.hw.pixels      # the strip, as the firmware last wrote it
            events = self.sim_events
            sans_en, sans_it = [], []
            replay = new_position(pos.start_fen, pos.profile, CHESS960 if variant_of(pos) == CHESS960 else None)
            for m in pos.move_stack:
                sans_en.append(replay.san(m, "en"))
                sans_it.append(replay.san(m, "it"))
                replay.push(m)
            leds = []
            for sq in range(64):
                r, g, b, blink = app.palette.rgb(frame[sq])
                leds.append({"meaning": LED_NAMES[frame[sq]], "rgb": [r, g, b], "blink": blink})
            sprint = None
            if variant_of(pos) == SPRINT:
                drawn = pos.drawn_tile()
                sprint = {"hands": {"white": self._tiles(0), "black": self._tiles(1)},
                          "decks": {"white": pos.deck_left(0), "black": pos.deck_left(1)},
                          "drawn": PIECE_SYMBOLS[drawn] if drawn else "", "seed": pos.seed}
            return {
                "variant": variant_of(pos),
                "sprint": sprint,
                "fen": pos.fen(),
                "moves": [pos.uci(m) for m in pos.move_stack],
                "san": sans_en,
                "san_it": sans_it,
                "result": game.result[0] if game.result else "*",
                "termination": game.result[1] if game.result else None,
                "in_sync": game.in_sync(),
                "state": STATE_NAMES[game.tracker.state],
                "leds": led_meanings(frame),
                "led_squares": leds,
                "pixels": list(pixels),
                "pieces": list(self.pieces),
                "hand": self.hand,
                "hand_from": self.hand_square(),
                "dests": self.destinations(),
                "tray": list(self.tray),
                "spares": list(self.spares),
                "turn": "white" if pos.turn == 0 else "black",
                "options": option_values(self.runner),
                "display": self.display_state().get("display"),
                "pgn": pos.pgn(),
                "events": events[-50:],
                "protocol": self.protocol[-200:],
                "now": self.now,
                "version": self.version,
            }
