"""The game controller: one object that owns the game on the board.

It holds the position (with its moves), the rule profile, the
options and the result; it applies what the move tracker recognises, ends the
game where the rules say, grants claims, resignations and draws (from board
gestures or from the host), and reports every change as an event, a small
dict, to whoever listens: the serial protocol, the journal, the simulator.

Events (``kind`` and fields):
    move          uci, san, fen, ply, ms        a move was played
    takeback      uci, fen, ply                 the last move was taken back
    check         square                        the side to move is in check
    claim         kinds                         a draw can be claimed ("fifty_moves", ...)
    game_over     result, termination
    new_game      fen
    resume        fen, ply, result              a saved game was restored (at boot)
    out_of_sync   to_empty, to_fill             squares (names) the hands must fix
    in_sync
    error         message, squares, fix         a wrong placement, shown on the board: squares to
                                                clear, fix the squares the pieces belong on
    time_out      side                          move_time_ms ran out: the board plays a move for
                                                "white" or "black" (a move event follows)
    promotion     piece                         the piece a pending promotion will become
"""

from ..clock import elapsed
from ..rules import square_name, WHITE
from ..rules.variants import new_position, variant_of, time_out_move, CHESS
from ..rules.squares import PIECE_SYMBOLS
from ..tracking import tracker as tr
from .. import options

# Board gestures with taps on your own king (docs/gestures.md).
TAP_GAP_MS = 700        # taps closer than this belong to one gesture
CLAIM_TAPS = 2          # double tap: claim a draw
RESIGN_TAPS = 3         # triple tap: resign

START_OCCUPANCY = bytes([1] * 16 + [0] * 32 + [1] * 16)


class Options:
    """What a player can set that the game holds: hints, takeback, settle_ms, lang,
    move_time_ms (options.py's table: kinds, limits, defaults). Plain attributes."""

    def __init__(self):
        options.defaults(self, options.GAME)


class Game:
    def __init__(self, fen=None, profile="fide", options=None, listener=None, variant=None, seed=None):
        self.options = options or Options()
        self.listener = listener
        self.position = new_position(fen, profile, variant, seed)
        self.tracker = tr.Tracker(self.position, self._tracker_says, self.options.settle_ms)
        self.result = None           # (result, termination) once the game is over
        self.claimable = ()
        self.taps = 0
        self.tap_ms = 0
        self.turn_ms = 0             # when the side to move's turn began (for move_time_ms)
        self._state = self.tracker.state
        self._apply_options()

    # -- events ---------------------------------------------------------------

    def emit(self, kind, **fields):
        if self.listener is not None:
            fields["kind"] = kind
            self.listener(fields)

    # -- the hands on the board -----------------------------------------------

    def change(self, square, present, now):
        """A debounced presence change from the switch matrix."""
        self.tracker.change(square, present, now)
        if self.result is not None and self.tracker.physical_is(START_OCCUPANCY):
            self.new_game(now=now)
        self._watch_state()

    def tick(self, now):
        self.tracker.tick(now)
        if self.taps and elapsed(now, self.tap_ms) > TAP_GAP_MS:
            taps, self.taps = self.taps, 0
            if taps == CLAIM_TAPS:
                self.claim(now)
            elif taps == RESIGN_TAPS:
                self.resign(self.position.turn, now)
        if self.options.move_time_ms and self.result is None and self.tracker.in_sync() \
                and elapsed(now, self.turn_ms) >= self.options.move_time_ms:
            self._time_out(now)
        self._watch_state()

    def _tracker_says(self, kind, value, now):
        pos = self.position
        if kind == tr.MOVE:
            self._play(value, now)
        elif kind == tr.AMEND:
            undone = pos.pop()
            self.emit("takeback", uci=pos.uci(undone), fen=pos.fen(), ply=pos.ply())
            self._play(value, now, tr.AMEND)
        elif kind == tr.TAKEBACK:
            self._take_back(tr.TAKEBACK)
        elif kind == tr.TAP:
            if self.result is None and value == self._king_square(pos.turn):
                self.taps += 1
                self.tap_ms = now
        elif kind == tr.KINGS_OFF:
            self.agree_draw(now)
        elif kind == tr.IN_SYNC:
            self.turn_ms = now      # a turn begins when the board is ready for it
            self.emit("in_sync")

    def _watch_state(self):
        """Report the board going wrong (an error, out of sync) once, when it happens."""
        state = self.tracker.state
        if state == self._state:
            return
        self._state = state
        if state == tr.ERROR:
            to_empty, to_fill = self.sync_squares()
            self.emit("error", message="a piece is on a wrong square",
                      squares=[square_name(s) for s in to_empty], fix=[square_name(s) for s in to_fill])
        elif state == tr.OUT_OF_SYNC:
            self._report_sync()

    def _king_square(self, color):
        return self.position.king_square(color)

    def _time_out(self, now):
        """The time for the move ran out: the board plays one for the player (seed 003,
        rules/variants.time_out_move). The hands then follow the LEDs (out of sync)."""
        pos = self.position
        self.emit("time_out", side="white" if pos.turn == WHITE else "black")
        self._play(time_out_move(pos), now)
        self.tracker.new_position(sync=True)
        self._state = self.tracker.state
        self._report_sync()

    def _play(self, move, now, kind=tr.MOVE):
        pos = self.position
        # The tracker's moves are this position's, unless an amendment just took its move back.
        legal = self.tracker.view.legal_moves() if kind == tr.MOVE else None
        san = pos.san(move, self.options.lang, legal if legal and move in legal else None)
        uci = pos.uci(move)
        pos.push(move)
        self.turn_ms = now
        self.tracker.forget_required()
        self.emit("move", uci=uci, san=san, fen=pos.fen(), ply=pos.ply(), ms=now)
        moves = pos.legal_moves()      # once for both: the game's end and the tracker's table
        self._after_move(now, moves)
        self.tracker.moved(kind, moves)

    def _after_move(self, now, moves=None):
        pos = self.position
        outcome = pos.outcome(False, moves)
        if outcome is not None:
            self._end(outcome)
            return
        if pos.is_check():
            self.emit("check", square=square_name(self._king_square(pos.turn)))
        self.claimable = self._claims()
        if self.claimable:
            self.emit("claim", kinds=list(self.claimable))

    def _claims(self):
        pos = self.position
        kinds = []
        if pos.halfmove >= 99 and pos.can_claim_fifty_moves():
            kinds.append("fifty_moves")
        # A third occurrence needs at least seven reversible plies behind it.
        if pos.halfmove >= 7 and pos.can_claim_threefold_repetition():
            kinds.append("threefold_repetition")
        return tuple(kinds)

    def _end(self, outcome):
        self.result = outcome
        self.tracker.freeze()
        self.claimable = ()
        self.emit("game_over", result=outcome[0], termination=outcome[1])

    def _take_back(self, kind):
        pos = self.position
        if not pos.ply():
            return False
        move = pos.take_back()
        self.result = None
        self.tracker.resume()
        self.tracker.forget_required()
        self.claimable = self._claims()
        self.emit("takeback", uci=pos.uci(move), fen=pos.fen(), ply=pos.ply())
        if kind == tr.TAKEBACK:
            self.tracker.moved(tr.TAKEBACK)
        return True

    # -- what the host (or a gesture) asks ----------------------------------------

    def new_game(self, fen=None, profile=None, now=0, variant=None, seed=None):
        """Start a game (the standard one unless ``fen``); the hands set the board up if needed.

        ``variant``: "chess" or "sprint" (Scacchi Sprint, with ``seed`` for its
        decks); by default the current game's, or what ``fen`` is.
        """
        if variant is None and fen is None:
            variant = variant_of(self.position)
        pos = new_position(fen, profile or self.position.profile, variant, seed)  # ValueError if bad
        self._adopt(pos, now)
        self.emit("new_game", fen=pos.fen(), variant=variant_of(pos))
        self._state = self.tracker.state
        self._report_sync()
        outcome = pos.outcome()
        if outcome is not None:
            self._end(outcome)

    def _adopt(self, pos, now):
        """``pos`` becomes the game: a fresh start for everything that belongs to a game."""
        self.position = pos
        self.turn_ms = now
        self.result = None
        self.claimable = ()
        self.taps = 0
        self.tracker.adopt(pos)

    def restore(self, pos):
        """Resume a saved game: ``pos``, with its moves, becomes the game.

        The journal (storage/journal.py) replays its records into ``pos``; this
        adopts it with one ``resume`` event and no event per move. Call it
        before ``App.boot``, which then compares the switches with the game.
        """
        self._adopt(pos, 0)
        self._state = self.tracker.state
        outcome = pos.outcome()
        if outcome is not None:
            self.result = outcome
            self.tracker.freeze()
        else:
            self.claimable = self._claims()
        self.emit("resume", fen=pos.fen(), ply=pos.ply(), result=outcome[0] if outcome else "*")

    def undo(self):
        """Take the last move back from the host: the LEDs then guide the pieces back."""
        if not self._take_back(0):
            return False
        self.tracker.new_position(sync=True)
        self._state = self.tracker.state
        self._report_sync()
        return True

    def show_move(self, uci):
        """Ask the hands to play this move (an engine's): only it will be accepted."""
        move = self.position.parse_uci(uci)   # ValueError if illegal
        self.tracker.require(move)
        return move

    def unshow_move(self):
        """Forget the move ``show_move`` asked for: any legal move is accepted again."""
        self.tracker.forget_required()

    def claim(self, now=0):
        """A draw claim (50 moves, threefold); returns the outcome if granted, else None."""
        if self.result is not None:
            return None
        outcome = self.position.claim_draw()
        if outcome is not None:
            self._end(outcome)
        return outcome

    def resign(self, color, now=0):
        if self.result is None:
            self.position.resign(color)
            self._end(self.position.outcome())

    def agree_draw(self, now=0):
        if self.result is None:
            self.position.agree_draw()
            self._end(self.position.outcome())

    def choose_promotion(self, piece_letter):
        """The piece for the promotion the board is showing (or the next one): 'q', 'r', 'b', 'n';
        in Scacchi Sprint also the tile a placement is ('p' too)."""
        t = PIECE_SYMBOLS.find(piece_letter.lower()) if isinstance(piece_letter, str) and len(piece_letter) == 1 else -1
        allowed = tr.PROMOTION_CYCLE if variant_of(self.position) == CHESS else tr.DROP_CYCLE
        if t not in allowed:
            raise ValueError("piece must be one of %s" % ", ".join(PIECE_SYMBOLS[x] for x in allowed))
        self.tracker.choose(t)
        self.emit("promotion", piece=PIECE_SYMBOLS[t])

    def set_option(self, name, value):
        """Change an option the game holds; ValueError for an unknown name or a bad value."""
        holder = options.check(name, value)[4]
        if holder == options.POSITION:
            self.position.profile = value
            return
        if holder != options.GAME:
            raise ValueError("%s is the board's option, not the game's" % name)
        setattr(self.options, name, value)
        self._apply_options()

    def _apply_options(self):
        self.tracker.configure(self.options.settle_ms, self.options.takeback)

    # -- the board's state, for the host and the LEDs -------------------------------

    def in_sync(self):
        return self.tracker.in_sync()

    def sync_squares(self):
        """(to_empty, to_fill): square numbers the hands must clear or fill to match the game."""
        return self.tracker.mismatch()

    def _report_sync(self):
        if not self.tracker.in_sync():
            to_empty, to_fill = self.sync_squares()
            self.emit("out_of_sync", to_empty=[square_name(s) for s in to_empty],
                      to_fill=[square_name(s) for s in to_fill])

    def board_mismatch(self, occupancy, now=0):
        """At boot: the switches' occupancy; out of sync until it matches the game."""
        self.tracker.set_physical(occupancy, now)
        self._state = self.tracker.state
        self._report_sync()

    def last_move(self):
        pos = self.position
        return pos.peek() if pos.ply() else -1

    def turn_color(self):
        return self.position.turn

    def winner_king(self):
        """Square of the winner's king, or -1 (draw or game on)."""
        if not self.result or self.result[0] == "1/2-1/2":
            return -1
        return self._king_square(WHITE if self.result[0] == "1-0" else 1)
