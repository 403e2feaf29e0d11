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
    claim         kinds                         a draw can be claimed (outcome.fifty_moves, ...)
    game_over     result, termination
    new_game      fen
    resume        fen, ply, result              a saved game was restored (at boot)
    out_of_sync   to_empty, to_fill, [guide]    squares (names) the hands must fix; guide: a Chess960
                                                set-up's step ("clear", then "K" "Q" "R" "B" "N": the
                                                piece the squares to fill take, tracking/setup_guide.py)
    in_sync
    error         message, squares, fix         a wrong placement, shown on the board: squares to
                                                clear, fix the squares the pieces belong on
    time_out      side                          move_time_ms ran out: the board plays a move for
                                                "white" or "black" (a move event follows)
    promotion     piece                         the piece a pending promotion will become
    clock         white, black, running         a clock started, stopped, got its bonus or fell
                                                (ms left; running "w", "b" or None)
    offer         by                            a draw offered ("w" or "b"), open until the next move
    offer_refused by, message                   too soon after that player's last offer (offer_every)
    offer_declined by                           the draw offered was declined, by "w" or "b"
    suggest_asked                               the player tapped their king once: a hint, please
                                                (the board's engine or the host answers: opponent.suggest)
    suggest       uci                           a suggested move, lit until the next move
    opponent_asked  opponent, side              taps on a rook before the first move: who plays
                                                that rook's side ("person" or "engine N"; runner.py)
"""

from ..rules import outcome, square_name, WHITE
from ..rules.variants import new_position, variant_of, time_out_move, SPRINT
from ..rules.squares import PIECE_SYMBOLS, ROOK
from ..tracking import tracker as tr
from .. import const, elapsed, forget, options

# Board gestures with taps (docs/gestures.md; what each asks: taps.py).
_TAP_GAP_MS = const(700)  # taps closer than this belong to one gesture

START_OCCUPANCY = bytes([1] * 16 + [0] * 32 + [1] * 16)


class NoClocks:
    """The clocks while no time control is set (game/clocks.py is loaded only for one: RAM)."""

    on = False
    control = "off"
    running = 0
    low = False

    def left_ms(self, white, now):
        return 0

    def after(self, ply):
        return -1


class Options:
    """What a player can set that the game holds: hints, takeback, settle_ms, lang,
    move_time_ms, suggest (options.py's table: kinds, limits, defaults). Plain attributes."""

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
        self.tap_square = -1         # the king the taps are on
        self.turn_ms = 0             # when the side to move's turn began (for move_time_ms)
        self.now = 0                 # the time of the last scan
        self.clocks = NoClocks()     # the players' clocks (option clock: game/clocks.py)
        self.offer = -1              # the colour offering a draw, until the next move (-1: none)
        self.offered = [-1, -1]      # the ply of each colour's last offer (option offer_every)
        self.machine = -1            # the colour the board's engine or the host's computer plays (-1: people)
        self.touch_ms = 0            # the last time the side to move touched the board (abandon_min)
        self.away = False            # ...so long ago that the opponent may end the game
        self.redraw = False          # the LEDs must change though no event said so (App.scan)
        self.timed = False           # a clock or abandon_min is set: tick watches the time
        self.suggestion = -1         # a move suggested to the side to move (lit as a hint), or -1
        self.seed_source = None      # f() -> a fresh Sprint seed (the HAL's random_seed), for a new game without one
        self.lights_first = False    # the firmware's loop: a move a reed's change commits is told after its LEDs
        self.news = None             # a move played and not yet announced: (san, now, placed, moves)
        self._news_waits = False     # in change() with lights_first: a move played now is told by announce()
        self._state = self.tracker.state
        self._apply_options()

    # -- events ---------------------------------------------------------------

    def emit(self, kind, **fields):
        if self.news is not None:
            self.announce()            # a move's news first: the events keep their order
        if self.listener is not None:
            fields["kind"] = kind
            self.listener(fields)

    # -- the hands on the board -----------------------------------------------

    def change(self, square, present, now):
        """A debounced presence change from the switch matrix. With ``lights_first``, a move it
        commits (the reply's first touch commits the move before it) is told by ``announce``."""
        self.now = now
        if square != self.position.king_square(self.position.turn ^ 1):   # not the other side's taps
            self.touch_ms = now
            if self.away:
                self.away = False
                self.redraw = True
        self._news_waits = self.lights_first
        self.tracker.change(square, present, now)
        self._news_waits = False
        if self.result is not None and self.tracker.physical_is(START_OCCUPANCY):
            self.new_game(now=now)
        self._watch_state()

    def tick(self, now):
        """Time passes (every scan): settling moves, gestures, the clocks. Allocates nothing."""
        self.now = now
        self.tracker.tick(now)
        if self.taps and elapsed(now, self.tap_ms) > _TAP_GAP_MS:
            self._tapped(now)
        if self.timed and self.result is None:
            self._watch_time(now)
        if self.options.move_time_ms and self.result is None and self.tracker.in_sync() \
                and elapsed(now, self.turn_ms) >= self.options.move_time_ms:
            self._time_out(now)
        if self.tracker.state != self._state:
            self._watch_state()        # the test here too: its frame is over 11 words (runner.step)

    def _tracker_says(self, kind, value, now):
        self.announce()                # a move committed earlier in this scan: its news before the position changes
        pos = self.position
        if (kind == tr.MOVE or kind == tr.AMEND) and self.result is not None:
            return                 # a finished game takes no more moves (tracker.freeze drops them)
        if kind == tr.MOVE:
            self._play(value, now, tr.MOVE, self.tracker.matched_ms)   # settle time is never the mover's
        elif kind == tr.AMEND:
            undone = pos.pop()
            if self.clocks.on:
                self.clocks.amended(pos.turn == WHITE)
            self.emit("takeback", uci=pos.uci(undone), fen=pos.fen(), ply=pos.ply())
            self._play(value, now, tr.AMEND, self.tracker.matched_ms)
        elif kind == tr.TAKEBACK:
            self._take_back(tr.TAKEBACK)
        elif kind == tr.TAP:
            if self.result is None and (value == pos.king_square(0) or value == pos.king_square(1) or
                                        not pos.ply() and pos.piece_at(value) & 7 == ROOK):
                if value != self.tap_square:
                    self.taps = 0
                self.tap_square = value
                self.taps += 1
                self.tap_ms = now
        elif kind == tr.KINGS_OFF:
            from . import offers         # loaded when first used (RAM)
            offers.kings_off(self)
        elif kind == tr.SETUP_STEP:
            self._report_sync()
        elif kind == tr.IN_SYNC:
            self.turn_ms = now      # a turn begins when the board is ready for it
            self.emit("in_sync")
            if self.clocks.on and self.clocks.resume(now):
                self.clocks.report(self, now)

    def _tapped(self, now):
        """A gesture of taps is complete: what it asks (taps.py, loaded now and dropped after: RAM)."""
        taps, self.taps = self.taps, 0
        from . import taps as gesture
        gesture.tapped(self, taps, now)
        forget(gesture)

    def _watch_time(self, now):
        """A clock's flag and last seconds (game/clocks.py), a side to move away from the board."""
        if self.clocks.running:
            self.clocks.tick(self, now)
        minutes = self.options.abandon_min
        if minutes and not self.away and self.result is None and elapsed(now, self.touch_ms) >= minutes * 60000:
            self.away = True
            self.redraw = True

    def end_declared(self, now):
        """The position was declared over (a flag fallen: game/clocks.py): the game ends."""
        self._end(self.position.outcome(), now)

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

    def _time_out(self, now):
        """The time for the move ran out: the board plays one for the player (seed 003,
        rules/variants.time_out_move). The hands then follow the LEDs (out of sync)."""
        pos = self.position
        self.emit("time_out", side="white" if pos.turn == WHITE else "black")
        self._play(time_out_move(pos), now, tr.MOVE, now)
        self.tracker.new_position(sync=True)
        self._state = self.tracker.state
        self._report_sync()

    def _play(self, move, now, kind, placed):
        """Apply ``move`` (put down at ``placed``, committed at ``now``). Its news goes out at once, or,
        committed by a reed's change with ``lights_first``, when ``announce`` is called: the firmware's
        loop draws the LEDs first. (A move before it has been told: by _tracker_says, or by _time_out's
        event.)"""
        pos = self.position
        # The tracker's moves are this position's, unless an amendment just took its move back.
        legal = self.tracker.view.legal_moves() if kind == tr.MOVE else None
        san = pos.san(move, self.options.lang, legal if legal and move in legal else None, False)
        white = pos.turn == WHITE
        pos.push(move)
        moves = pos.legal_moves()      # once for the SAN's + or #, the game's end and the tracker's table
        if pos.is_check():
            san += "#" if not moves else "+"
        self.turn_ms = now
        self.touch_ms = placed
        self.away = False
        self.offer = -1              # an offer lapses with the next move
        if self.clocks.on:
            self.clocks.moved(white, pos.ply(), placed)
        self.suggestion = -1
        self.tracker.forget_required()
        self.news = (san, now, placed, moves)
        self.tracker.moved(kind, moves)
        if not self._news_waits:
            self.announce()

    def announce(self):
        """Tell the listeners about the move just played: its event, the clocks, and the check, claim
        or end of game it brings. With ``lights_first`` the firmware's loop calls this once the LEDs
        show the move (runner.Runner.step): a reply's lift, which commits the move before it, is lit
        without waiting for the FEN, the UCI and the events' lines (docs/firmware.md)."""
        news = self.news
        if news is None:
            return
        self.news = None
        san, now, placed, moves = news
        pos = self.position
        self.emit("move", uci=pos.uci(pos.peek()), san=san, fen=pos.fen(), ply=pos.ply(), ms=now)
        if self.clocks.on:
            self.clocks.report(self, now)
        self._after_move(placed, moves)

    def _after_move(self, placed, moves=None):
        pos = self.position
        ended = pos.outcome(False, moves)
        if ended is not None:
            self._end(ended, placed)
            return
        if pos.is_check():
            self.emit("check", square=square_name(pos.king_square(pos.turn)))
        self.claimable = self._claims()
        if self.claimable:
            self.emit("claim", kinds=list(self.claimable))

    def _claims(self):
        pos = self.position
        kinds = []
        if pos.halfmove >= 99 and pos.can_claim_fifty_moves():
            kinds.append(outcome.fifty_moves)
        # A third occurrence needs at least seven reversible plies behind it.
        if pos.halfmove >= 7 and pos.can_claim_threefold_repetition():
            kinds.append(outcome.threefold_repetition)
        return tuple(kinds)

    def _end(self, ended, at=-1):
        """The game is over (``at``: when, if not the last scan: the clocks stop there)."""
        self.result = ended
        self.tracker.freeze(self.now)
        self.claimable = ()
        self.offer = -1
        self.away = False
        clocks = self.clocks
        running = clocks.running
        if running:
            clocks.stop(self.now if at < 0 else at)
        self.emit("game_over", result=ended[0], termination=ended[1])
        if clocks.on and (running or ended[1] == outcome.time_forfeit):
            clocks.report(self, self.now)        # (a flag that fell on the host's clock: no clock here)

    def _take_back(self, kind):
        pos = self.position
        if not pos.ply():
            return False
        move = pos.take_back()
        self.result = None
        self.offer = -1
        self.suggestion = -1
        self.tracker.resume()
        self.tracker.forget_required()
        self.claimable = self._claims()
        self.touch_ms = self.now
        clocks = self.clocks
        if clocks.on:
            clocks.took_back(pos.turn == WHITE, pos.ply(), self.now)
        self.emit("takeback", uci=pos.uci(move), fen=pos.fen(), ply=pos.ply())
        if clocks.on:
            clocks.report(self, self.now)
        if kind == tr.TAKEBACK:
            self.tracker.moved(tr.TAKEBACK)
        return True

    # -- what the host (or a gesture) asks ----------------------------------------

    def new_game(self, fen=None, profile=None, now=0, variant=None, seed=None, number=None):
        """Start a game (the standard one unless ``fen``); the hands set the board up if needed.

        ``variant``: "chess", "sprint" (Scacchi Sprint, with ``seed`` for its
        decks) or "chess960" (``number``: its start position, 0..959); by default
        the current game's, or what ``fen`` is.
        """
        if variant is None and fen is None:
            variant = variant_of(self.position)
        if variant == SPRINT and fen is None and seed is None and self.seed_source is not None:
            seed = self.seed_source()      # else every game would deal seed 0's decks
        pos = new_position(fen, profile or self.position.profile, variant, seed, number)  # ValueError if bad
        self._adopt(pos, now)
        self.emit("new_game", fen=pos.fen(), variant=variant_of(pos))
        if self.clocks.on:
            self.clocks.report(self, now)      # both players' whole time, stopped
        self._state = self.tracker.state
        self._report_sync()
        ended = pos.outcome()
        if ended is not None:
            self._end(ended)

    def _adopt(self, pos, now):
        """``pos`` becomes the game: a fresh start for everything that belongs to a game."""
        self.position = pos
        self.turn_ms = self.touch_ms = now
        self.suggestion = -1
        self.result = None
        self.claimable = ()
        self.taps = 0
        self.offer = -1
        self.offered[0] = self.offered[1] = -1
        self.away = False
        if self.clocks.on:
            self.clocks.reset()
        self.tracker.adopt(pos)

    def restore(self, pos):
        """Resume a saved game: ``pos``, with its moves, becomes the game.

        The journal (storage/journal.py) replays its records into ``pos``; this
        adopts it with one ``resume`` event and no event per move. Call it
        before ``App.boot``, which then compares the switches with the game.
        """
        self._adopt(pos, 0)
        self._state = self.tracker.state
        ended = pos.outcome()
        if ended is not None:
            self.result = ended
            self.tracker.freeze(self.now)
        else:
            self.claimable = self._claims()
        self.emit("resume", fen=pos.fen(), ply=pos.ply(), result=ended[0] if ended else outcome.ONGOING)

    def undo(self, after_end=False):
        """Take the last move back from the host: the LEDs then guide the pieces back. Not once a
        result stands (mate, stalemate, resignation, agreement, a flag, the host's ``end``), but
        for ``after_end`` (a drill taking back a wrong move of its own line)."""
        if self.result is not None and not after_end or not self._take_back(0):
            return False
        self.tracker.new_position(sync=True)
        self._state = self.tracker.state
        self._report_sync()
        return True

    def take_back_turn(self):
        """The undo button, the host's ``undo``: the last move back; against the machine (the board's
        engine or the host's computer: ``machine``) the one before it too when the machine would be
        to move, so the player is to move again (taking back only its reply would hand it the move it
        just made). False: no move to take back."""
        if not self.undo():
            return False
        pos = self.position
        if self.machine >= 0 and variant_of(pos) != SPRINT and pos.ply() and pos.turn == self.machine:
            self.undo()
        return True

    def show_move(self, uci):
        """Ask the hands to play this move (an engine's): only it will be accepted."""
        move = self.position.parse_uci(uci)   # ValueError if illegal
        self.require_move(move)
        return move

    def require_move(self, move):
        """The hands are to make ``move`` (the host's ``show``, the board's engine's choice): only it
        is taken. The computer's own move is made when it is announced: its clock stops now, and
        the person's starts once the hands have made it (docs/rules.md, "Chess clocks")."""
        self.tracker.require(move)
        if self.clocks.on and self.position.turn == self.machine and \
                self.clocks.announced(self.position.turn == WHITE, self.now):
            self.clocks.report(self, self.now)

    def hold_moves(self, hold):
        """``hold``: the side to move is an engine's or the host's and its move is not shown yet, so
        the hands' moves are not taken (a piece put down blinks); opponent.py says when."""
        self.tracker.hold = hold

    def unshow_move(self):
        """Forget the move ``show_move`` asked for: any legal move is accepted again."""
        self.tracker.forget_required()
        if self.clocks.on and self.clocks.unannounced(self.now):
            self.clocks.report(self, self.now)

    def claim(self, now=0):
        """A draw claim (50 moves, threefold); returns the outcome if granted, else None."""
        if self.result is not None:
            return None
        ended = self.position.claim_draw()
        if ended is not None:
            self._end(ended)
        return ended

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
        allowed = tr.DROP_CYCLE if variant_of(self.position) == SPRINT else tr.PROMOTION_CYCLE
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
        if name == "clock" and value is False:
            value = "off"            # the text form's "off" is a false word
        setattr(self.options, name, value)
        if name == "clock":      # a new time control: both players' whole time, stopped
            if value == "off":
                self.clocks = NoClocks()
            else:
                from .clocks import Clocks
                self.clocks = Clocks(value)
                self.clocks.report(self, self.now)
        elif name == "abandon_min":
            self.away = False
        self.timed = self.clocks.on or self.options.abandon_min > 0
        if name == "suggest" and not value:
            self.suggestion = -1
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
            fields = {"to_empty": [square_name(s) for s in to_empty], "to_fill": [square_name(s) for s in to_fill]}
            step = self.tracker.guide_piece
            if step >= 0:
                fields["guide"] = PIECE_SYMBOLS[step].upper() if step else "clear"
            self.emit("out_of_sync", **fields)

    def board_mismatch(self, occupancy, now=0):
        """At boot: the switches' occupancy; out of sync until it matches the game."""
        self.tracker.set_physical(occupancy, now)
        self._state = self.tracker.state
        self._report_sync()
        self.now = self.touch_ms = now
        if self.tracker.in_sync() and self.clocks.on and self.clocks.resume(now):
            self.clocks.report(self, now)

    def last_move(self):
        pos = self.position
        return pos.peek() if pos.ply() else -1
