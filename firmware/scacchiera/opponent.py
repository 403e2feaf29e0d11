"""The other side of the board: the board's own engine, or the host, as a main-loop part.

Loaded only when something other than a person plays (option ``opponent``:
``engine N`` or ``host``) or a hint is asked for; the engine's modules and
its ~34 KB of tables only when it searches (RAM).

- On the opponent's turn the game holds the hands' moves (``game.hold_moves``): the
  hands' moves are not taken, a piece put down blinks as an error. The
  engine searches a copy of the position in the time between two scans
  (its part's ``scan``, runner.py), so the board goes on scanning, lighting a lifted
  piece's moves and answering the host. Its move is then shown as the host's
  ``show`` is (``game.require_move``): the LEDs guide the hands, only that
  move is taken, and its clock stops at the announcement. For ``host``, the
  board waits for the host's ``show``.
- A hint (``suggest``): the engine searches for the side to move, and the
  game lights the move (``light``) until the next move.

Events: ``thinking`` (level) when a search for a move starts, ``engine_move``
(uci) when it is chosen, ``suggest`` (uci) from the game. The engine answers
the person's draw offer from its search's score (game/offers.py): at once,
or, while it thinks, when its search ends.
``runner.engine`` is this part while an engine plays, else None.
"""

from . import const, heap_lock, heap_unlock
from .rules.variants import variant_of, SPRINT

# The engine's share of a scan: the time until the next scan is due (runner.due_us; the loop then
# paces at runner.SEARCH_PERIOD_US), less a margin for the slice's way back, so that no time is left
# idle: a node (~400 us in the loop) begun then ends a little after the scan was due, and the scans'
# schedule stays theirs (150 left ~1.5 % of the search's time idle); at least one node.
# docs/engine.md, "On the board while it thinks".
NODE_US = const(50)
_SLICE_NODES = const(1000)   # more than a slice can hold: the clock ends a slice
_TICKS_MASK = const(0x3FFFFFFF)
_MOVE = 1              # what the search is for
_HINT = 2


class Opponent:
    def __init__(self):
        self.engine = None        # the Engine, made at the first search, dropped when no engine plays
        self.level = 0            # 1..7 while an engine plays, 0 for the host
        self.side = 1             # the colour it plays (0 white, 1 black)
        self.plays = False        # False: only here for a hint
        self.thinking = False     # searching for its move (a hint's search is not "thinking")
        self.purpose = 0          # what the running search is for (0: none)
        self.ply = -1             # the position searched (ply and key): a change stops the search
        self.key = 0
        self.move = -1            # the move chosen for that position, shown until played
        self.move_ply = -1
        self.move_key = 0
        self.score = None         # its last search's score for its own side (None: a book move, none yet)
        self.locked = True        # the search slices run with the heap locked (_slice)
        self.clock = None         # the board's microsecond clock (hw.ticks_us), which ends a slice

    def configure(self, opponent, side):
        """``opponent``: the option's value ("engine N", "host" or "person")."""
        self.plays = opponent != "person"
        self.level = int(opponent[7:]) if opponent[:6] == "engine" else 0
        self.side = 0 if side == "w" else 1
        if self.purpose == _MOVE:
            self._stop()
        if self.engine is not None and self.level:
            self.engine.set_level(self.level)

    # -- what the hands and the host ask ------------------------------------------------

    def suggest(self, runner):
        """Search a hint for the side to move; ValueError if none can be given now."""
        game = runner.app.game
        if not game.options.suggest:
            raise ValueError("suggestions are off (set suggest on)")
        if game.result is not None:
            raise ValueError("the game is over")
        if variant_of(game.position) == SPRINT:
            raise ValueError("the engine plays chess only (and Chess960), not Scacchi Sprint")
        if self.plays and game.position.turn == self.side:
            raise ValueError("it is the opponent's move")
        if self.purpose == _HINT:
            return
        self._start(game, _HINT)

    # -- the main loop's hooks (runner.py) -------------------------------------------------

    def boot(self, runner, now):
        pass

    def scan(self, runner, now):
        if not self.purpose:
            return
        try:
            if self.clock is None:
                self.clock = runner.hw.ticks_us     # once: a bound method is an allocation
            done = self._slice((runner.due_us - NODE_US) & _TICKS_MASK)
            runner.searching = None if done else self   # (runner.step: its slices alone between ticks)
        except MemoryError:
            if not self.locked:
                raise
            # The search allocated (none is known to: tests/mpy/check_scan_no_alloc.py): the same
            # search again from its start, the heap unlocked (the same budget, the same move).
            self.locked = False
            self._start(runner.app.game, self.purpose)
            return
        if done:
            self._done(runner.app.game)

    def tick(self, runner, now):
        game = runner.app.game
        pos = game.position
        tracker = game.tracker
        if self.purpose == _MOVE and game.result is None and pos.hash == self.key and pos.ply() == self.ply \
                and runner.holder is None and tracker.required < 0:
            game.hold_moves(True)            # the usual tick while it thinks: what follows would say the same
            return
        if self.purpose and (pos.ply() != self.ply or pos.hash != self.key or game.result is not None):
            self._stop()                     # a takeback, a new game, a host's move: the search is stale
        if self.level and game.offer == self.side ^ 1 and game.result is None and self.purpose != _MOVE and \
                (pos.turn != self.side or (self.move_ply == pos.ply() and self.move_key == pos.hash)):
            _answer(game, self.score)        # the person's offer (on its turn: when its search ends, _done)
        ours = self.plays and game.result is None and pos.turn == self.side and runner.holder is None \
            and variant_of(pos) != SPRINT  # Sprint: the hands play both sides
        if ours and tracker.required < 0:
            if self.move >= 0 and self.move_ply == pos.ply() and self.move_key == pos.hash:
                game.require_move(self.move)   # shown again after an unshow: the engine has spoken
            elif self.level and self.purpose != _MOVE:
                if self.purpose:
                    self._stop()             # a hint asked just before the turn passed
                self._start(game, _MOVE)
        game.hold_moves(ours and tracker.required < 0)
        if not self.plays and not self.purpose and self.engine is not None:
            self.engine = None               # a hint given: the engine's RAM back

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        pass

    def detach(self, runner):
        """No engine or host plays any more: the hands may move both sides (and a clock its
        announced move stopped runs again)."""
        self._stop()
        game = runner.app.game
        game.hold_moves(False)
        if self.move >= 0 and game.tracker.required == self.move:
            game.unshow_move()               # its move is not asked for any more

    # -- the search -------------------------------------------------------------------------

    def _start(self, game, purpose):
        if self.engine is None:
            self.engine = _new_engine(self.level)
        pos = game.position
        self.engine.start(pos)           # the level's own node budget (deterministic)
        self.purpose = purpose
        self.ply = pos.ply()
        self.key = pos.hash
        self.thinking = purpose == _MOVE
        if self.thinking:
            game.emit("thinking", level=self.level)

    def _stop(self):
        if self.purpose:
            self.engine.stop()
        self.purpose = 0
        self.thinking = False

    def _done(self, game):
        move = self.engine.result
        purpose = self.purpose
        self.purpose = 0
        self.thinking = False
        if move is None:
            return                       # no legal move: the game is over already
        pos = game.position
        if purpose == _MOVE:
            self.score = self.engine.score
            if game.offer == self.side ^ 1:
                _answer(game, self.score)
                if game.result is not None:
                    return                   # it took the draw: no move
            self.move, self.move_ply, self.move_key = move, self.ply, self.key
            game.require_move(move)          # the hands may make it (no longer held)
            game.emit("engine_move", uci=pos.uci(move))
        elif game.options.suggest and game.result is None:
            light(game, move)

    def _slice(self, until):
        """Nodes until the clock reads ``until`` or the search is over (True). With ``locked``, the
        heap locked, so that the search's calls keep their frames on the stack (scacchiera/__init__.py;
        on a booted RP2040's heap a node cost twice as much without). One call into the search a
        slice, which reads the clock after each node; a clock that stands still through a node (the
        simulator's, whose scans cost no time) gives about the board's nodes a scan (four)."""
        if not self.locked:
            return self.engine.step(_SLICE_NODES, self.clock, until)
        heap_lock()
        try:
            return self.engine.step(_SLICE_NODES, self.clock, until)
        finally:
            heap_unlock()


def _new_engine(level):
    """The engine, loaded into a heap collected first and collected again after. Loaded amid the
    garbage a booted board gathers, its modules split the free space so that its 10 KB
    transposition table found no block: a MemoryError that reset the board. Left with the
    import's garbage, the loop's calls found room for their frames only far up the heap
    (scacchiera/__init__.py): 106 scans/s while it thought, 244 with the second collection
    (docs/firmware.md, "Frames on the heap")."""
    import gc
    gc.collect()
    from .engine import Engine, DEFAULT_LEVEL
    engine = Engine(level or DEFAULT_LEVEL)
    gc.collect()
    return engine


def _answer(game, score):
    """The engine's answer to the person's draw offer (game/offers.py, loaded then: RAM)."""
    from .game import offers
    offers.answer(game, score)


def attach(runner, name, value, save=True):
    """Set ``opponent`` or ``engine_side`` to ``value``, and load, configure or drop the part.
    ValueError (nothing set) for the board's engine in Scacchi Sprint, unless the journal
    restores it (``save`` False)."""
    if save and name == "opponent" and str(value)[:6] == "engine" and variant_of(runner.app.game.position) == SPRINT:
        raise ValueError("the board's engine plays chess only (not Scacchi Sprint)")
    setattr(runner, name, value)
    part = find(runner)
    if runner.opponent == "person":
        runner.engine = None
        if part is not None:
            part.configure("person", runner.engine_side)
            if not part.purpose:
                part.detach(runner)
                runner.parts.remove(part)
        return
    if part is None:
        part = Opponent()
        runner.parts.append(part)
    part.configure(runner.opponent, runner.engine_side)
    runner.engine = part if part.level else None


def find(runner):
    """This part in ``runner.parts``, or None."""
    for part in runner.parts:
        if isinstance(part, Opponent):
            return part
    return None


def suggest(runner, uci=None):
    """Light a hint for the side to move: ``uci`` (the host's) or the board's engine's, once it
    has searched (the part loaded for it if need be); ValueError if no hint can be given now
    (option suggest off, the game over)."""
    if uci is not None:
        game = runner.app.game
        light(game, game.position.parse_uci(uci))
        return
    part = find(runner)
    if part is None:
        part = Opponent()
        part.configure("person", runner.engine_side)
        runner.parts.append(part)
    part.suggest(runner)


def light(game, move):
    """Light ``move`` (a legal move of the side to move, an int) as a hint, not enforced."""
    if not game.options.suggest:
        raise ValueError("suggestions are off (set suggest on)")
    if move not in game.position.legal_moves():
        raise ValueError("not a legal move here")
    game.suggestion = move
    game.emit("suggest", uci=game.position.uci(move))


def gesture(runner, ev):
    """The board's gestures for this part (game/controller.py's events): a single tap on one's
    king asks for a hint, taps on a rook before the first move choose who plays that side."""
    if ev["kind"] == "suggest_asked":
        try:
            suggest(runner)
        except ValueError:
            pass                       # e.g. the opponent's turn: the gesture does nothing
    else:
        try:
            runner.set_option("engine_side", ev["side"])
            runner.set_option("opponent", ev["opponent"])
        except ValueError:
            pass                       # (Scacchi Sprint: the engine plays chess only)
