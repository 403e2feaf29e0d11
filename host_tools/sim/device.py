"""The simulated board: real firmware application, simulated switches, LEDs, clock and pieces.

``SimBoard`` is what a person (or a script) handles: 64 squares that may
hold a piece, a tray of pieces off the board, and a clock. The firmware's
application object sees only what a Pico would: switch rows at each scan,
the time, and lines on the serial link; it answers with LED pixels, events
and lines. The simulator knows *which* piece stands where (to draw it);
the firmware never does.
"""

import threading

from host_tools.hands import Hands, SCAN_MS  # noqa: F401  (SCAN_MS: the firmware's scan period)
from scacchiera.app import App
from scacchiera.leds import frame as led_frame
from scacchiera.rules import Position
from scacchiera.rules.squares import PIECE_SYMBOLS, parse_square, square_name

PIECE_LETTERS = "KQRBNPkqrbnp"
# Spare pieces in the tray from the start, so a promotion has its new piece.
SPARES = "QRBNqrbn"


class SimError(ValueError):
    """A request the simulated hands cannot do (the message says why)."""


def _piece_letter(code):
    letter = PIECE_SYMBOLS[code & 7]
    return letter.upper() if code >> 3 == 0 else letter


class SimBoard(Hands):
    """The simulated hands and board, with the pieces' identities, a tray and a lock for the web server."""

    def __init__(self, fen=None, profile="fide"):
        self.lock = threading.RLock()
        self.log_limit = 500
        self.version = 0            # bumped on every visible change (the page polls it)
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
            Hands.__init__(self, App(fen, profile, listener=self._event))
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
            Hands.touch(self, square, level)
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
            before = (self.app.game.tracker.state, self.app.game.tracker.seq)
            Hands.wait(self, ms)
            if before != (self.app.game.tracker.state, self.app.game.tracker.seq):
                self._changed()

    # -- what the board shows ---------------------------------------------------------

    def snapshot(self):
        """Everything the page and the scripted mode report, as plain data."""
        with self.lock:
            app = self.app
            game = app.game
            pos = game.position
            frame = app.compose()
            pixels = app.render(self.now)
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
