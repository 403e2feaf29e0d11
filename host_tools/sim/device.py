"""The simulated board: the real firmware, with simulated switches, LEDs, clock, serial link and flash.

``FirmwareHands`` runs the Pico's own main loop (firmware/main.py and
scacchiera/runner.py: debounce, move recognition, game, LED frame, serial
protocol, journal) on a fake hardware layer (host_tools/fakehw/fakehal.py):
only the raw I/O is simulated. ``SimBoard`` adds what a person handles: which
piece stands where (to draw it: the firmware never knows), a hand, a tray.
"""

import tempfile
import threading

from host_tools import _paths  # noqa: F401  (firmware/ and host_tools/fakehw/ on the path)
from host_tools.hands import Hands, ScriptError

import main as firmware_main
from fakehal import FakeHardware
from memfs import MemFS
from scacchiera.storage.fs import OsFS
from scacchiera.leds import frame as led_frame
from scacchiera.rules import Position
from scacchiera.rules.variants import new_position, variant_of, CHESS
from scacchiera.rules.squares import PIECE_SYMBOLS, parse_square, square_name

PIECE_LETTERS = "KQRBNPkqrbnp"
# Spare pieces in the tray from the start, so a promotion has its new piece.
SPARES = "QRBNqrbn"


class SimError(ValueError):
    """A request the simulated hands cannot do (the message says why)."""


def _piece_letter(code):
    letter = PIECE_SYMBOLS[code & 7]
    return letter.upper() if code >> 3 == 0 else letter


BUTTON_MS = 150       # how long a simulated button press lasts


class FirmwareHands(Hands):
    """Hands (see host_tools/hands.py) on a board that runs the whole firmware loop.

    ``fs`` is the flash: a folder on disk (``OsFS``) or in memory (``MemFS``,
    the default). A new board boots like a Pico: it resumes the game saved
    on its flash, or starts one. ``fen``: a game to start, set up on the board.
    """

    def __init__(self, fen=None, profile="fide", fs=None, chatter=None, variant=None, seed=None):
        self.hw = FakeHardware(fs=fs if fs is not None else MemFS())
        pos = new_position(fen, profile, variant, seed)
        self.hw.set_squares([sq for sq in range(64) if pos.piece_at(sq)])
        self.runner = firmware_main.build(self.hw)
        if fen is not None or profile != "fide" or variant_of(pos) != CHESS:
            self.runner.app.game.new_game(fen, profile, variant=variant, seed=seed)
        self.now = self.hw.ticks_ms()
        self.rows = bytearray(self.hw.occupied)
        self.app = self.runner.app
        self.chatter = chatter
        self.bounces = []
        self.events = []
        self.app.listeners.append(self.events.append)
        self.protocol = []           # lines the board sent on the serial link
        self._collect()

    def scan(self, end):
        """One pass of the firmware's main loop, its clock paced by the loop itself."""
        self.hw.occupied[:] = self.rows
        firmware_main.serve(self.runner, 1)
        self.now = self.hw.ticks_ms()
        self._collect()

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


class SimBoard(FirmwareHands):
    """The simulated hands and board, with the pieces' identities, a tray and a lock for the web server.

    The flash is a temporary folder: a restart of the simulator (``reset``)
    starts a fresh board, while the board itself can resume what it saved.
    """

    def __init__(self, fen=None, profile="fide"):
        self.lock = threading.RLock()
        self.log_limit = 500
        self.version = 0            # bumped on every visible change (the page polls it)
        self.flash = None
        self.reset(fen, profile)

    # -- set-up -------------------------------------------------------------

    def reset(self, fen=None, profile="fide"):
        """A new simulator: the firmware boots with the pieces of ``fen`` set up on the board."""
        with self.lock:
            pos = Position(fen, profile)          # ValueError on a bad FEN, before anything changes
            self.pieces = [""] * 64
            for sq in range(64):
                code = pos.piece_at(sq)
                if code:
                    self.pieces[sq] = _piece_letter(code)
            self.tray = list(SPARES)
            self.hand = ""            # the piece being held
            self.sim_events = []
            if self.flash is not None:
                self.flash.cleanup()
            self.flash = tempfile.TemporaryDirectory(prefix="scacchiera-flash-")
            FirmwareHands.__init__(self, fen, profile, fs=OsFS(self.flash.name))
            self.app.listeners.append(self._event)
            self._changed()

    def _event(self, event):
        self.sim_events.append(event)
        if len(self.sim_events) > self.log_limit:
            del self.sim_events[0]
        if event["kind"] in ("move", "takeback"):
            self._show_promoted()
        self._changed()

    def _show_promoted(self):
        """Draw the piece the game has where a pawn was put on the last rank (the hands swap it)."""
        pos = self.app.game.position
        for sq in list(range(8)) + list(range(56, 64)):
            code = pos.piece_at(sq)
            if code and self.pieces[sq] in ("P", "p"):
                self.pieces[sq] = _piece_letter(code)

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
                if self.pieces[square]:
                    raise SimError("%s is occupied: take its piece off first" % name)
                if piece is None:
                    piece = self.hand or self._tray_default(square)
                    if not piece:
                        raise SimError("no piece in the hand to place on %s" % name)
                if piece not in PIECE_LETTERS:
                    raise SimError("not a piece: %r (use one of %s)" % (piece, PIECE_LETTERS))
                if piece == self.hand:
                    self.hand = ""
                elif piece in self.tray:
                    self.tray.remove(piece)
                else:
                    raise SimError("no %r in the hand or the tray" % piece)
                self.pieces[square] = piece
            else:
                if not self.pieces[square]:
                    raise SimError("%s is empty: nothing to lift" % name)
                if self.hand:
                    self.tray.append(self.hand)   # the other hand puts it aside
                self.hand = self.pieces[square]
                self.pieces[square] = ""
            FirmwareHands.touch(self, square, level)
            self._changed()

    def lift(self, name):
        self.touch(self.square(name), 0)

    def place(self, name, piece=None):
        self.touch(self.square(name), 1, piece)

    def _tray_default(self, sq):
        """A script's place with an empty hand: a queen on a promotion square, else the last piece put aside."""
        want = "Q" if sq >> 3 == 7 else "q" if sq >> 3 == 0 else ""
        if want and want in self.tray:
            return want
        return self.tray[-1] if self.tray else ""

    def to_tray(self):
        """The piece in the hand goes to the tray (a captured piece leaves the board)."""
        with self.lock:
            if self.hand:
                self.tray.append(self.hand)
                self.hand = ""
                self._changed()

    def wait(self, ms):
        with self.lock:
            before = (self.app.game.tracker.state, self.app.game.tracker.seq, len(self.protocol))
            FirmwareHands.wait(self, ms)
            if before != (self.app.game.tracker.state, self.app.game.tracker.seq, len(self.protocol)):
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
            replay = Position(pos.start_fen, pos.profile)
            for m in pos.move_stack:
                sans_en.append(replay.san(m, "en"))
                sans_it.append(replay.san(m, "it"))
                replay.push(m)
            leds = []
            for sq in range(64):
                r, g, b, blink = app.palette.rgb(frame[sq])
                leds.append({"meaning": led_frame.NAMES[frame[sq]], "rgb": [r, g, b], "blink": blink})
            return {
                "fen": pos.fen(),
                "moves": [pos.uci(m) for m in pos.move_stack],
                "san": sans_en,
                "san_it": sans_it,
                "result": game.result[0] if game.result else "*",
                "termination": game.result[1] if game.result else None,
                "in_sync": game.in_sync(),
                "state": ("idle", "lifted", "pending", "error", "sync")[game.tracker.state],
                "leds": led_frame.meanings(frame),
                "led_squares": leds,
                "pixels": list(pixels),
                "pieces": list(self.pieces),
                "hand": self.hand,
                "tray": list(self.tray),
                "turn": "white" if pos.turn == 0 else "black",
                "options": {"hints": game.options.hints, "takeback": game.options.takeback,
                            "settle_ms": game.options.settle_ms, "lang": game.options.lang,
                            "profile": pos.profile},
                "pgn": pos.pgn(),
                "events": events[-50:],
                "protocol": self.protocol[-200:],
                "now": self.now,
                "version": self.version,
            }
