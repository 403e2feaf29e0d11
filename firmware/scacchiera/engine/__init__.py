"""A chess engine for the board: levels from a beginner's to the strongest the RP2040 allows.

    from scacchiera.engine import Engine
    engine = Engine(level=3)
    move = engine.best_move(position, max_nodes=20000)   # one of position.legal_moves()

or, a slice at a time between two scans of the board::

    engine.start(position, max_nodes=20000)
    while not engine.step(500):
        ...scan, render...
    move = engine.result

The position is copied when the search starts and never changed. With only
``max_nodes`` the answer depends on nothing but the position (its history
too, for repetitions), the level, the seed and the budget; ``max_ms`` adds
the clock. Chess only: a Scacchi Sprint position raises ValueError (see
docs/engine.md). Levels: LEVELS below and docs/engine.md.
"""

from .search import Search
from .tree import MAX_PLY
from .book import book_moves

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

# Level: (deepest iteration, evaluation noise in centipawns, default node budget).
# The noise is a per-position offset fixed by the key and the seed: a weak
# level misjudges quiet positions but still sees every capture (quiescence),
# so it blunders plausibly, not absurdly. The budgets of levels 1 to 6 come from
# the emulated RP2040 as it was in bytecode: the board's loop searched ~230
# nodes/s while it scanned on at >= 200 scans/s, so level 6 answered in about
# 10 s. With the search's loop in machine code the board's loop searches ~2,100
# nodes/s at 400 scans/s (docs/engine.md): level 6 answers in under 2 s (the default),
# level 7 searches what 10 s allow in the slowest of fourteen middle games, less a tenth.
# Spaced by games level against level (engine_match --ladder, docs/engine.md
# "Strength", last on 28 Nov 2026): the noise does most of it, the depth cap the rest.
LEVELS = (
    None,
    (1, 170, 100),
    (2, 115, 300),
    (2, 70, 400),
    (3, 40, 600),
    (40, 25, 1200),
    (40, 0, 2300),
    (40, 0, 18000),
)
MIN_LEVEL = 1
MAX_LEVEL = len(LEVELS) - 1
DEFAULT_LEVEL = 6       # an answer in under 2 s on the board; level 7 takes up to 10 (docs/engine.md)


class Engine:
    """Plays one side; ``seed`` varies the book choice and the weak levels' noise."""

    def __init__(self, level=DEFAULT_LEVEL, seed=0, tt_entries=1024, lines=False):
        self.search = Search(tt_entries, lines)     # lines: keep the principal variation (RAM: a computer's)
        self.seed = seed & 0xFFFF
        self.level = DEFAULT_LEVEL
        self.set_level(level)
        self.done = True
        self.result = None
        self.from_book = False
        self.use_book = True

    def set_level(self, level):
        if not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
            raise ValueError("engine level must be %d..%d, got %r" % (MIN_LEVEL, MAX_LEVEL, level))
        self.level = level

    def start(self, position, max_nodes=None, max_ms=None, max_depth=None):
        """Begin a search of ``position``; then ``step`` until it returns True, and read ``result``.

        ``max_depth`` (UCI's ``go depth``) caps the iterations below the level's own cap.
        """
        if getattr(position, "variant", "chess") not in ("chess", "chess960"):
            raise ValueError("the engine plays chess only (and Chess960), not %s" % position.variant)
        level_depth, noise, default_nodes = LEVELS[self.level]
        max_depth = level_depth if max_depth is None else min(max_depth, level_depth)
        if max_nodes is None and max_ms is None:
            max_nodes = default_nodes
        if max_nodes is not None and max_nodes < 1:
            raise ValueError("max_nodes must be at least 1")
        legal = position.legal_moves()
        self.result = None
        self.from_book = False
        self.done = True
        if not legal:
            return
        if len(legal) == 1:
            self.result = legal[0]
            return
        known = [m for m in book_moves(position.hash) if m in legal] if self.use_book else None
        if known:
            self.result = known[(position.hash ^ self.seed) % len(known)] if self.level < DEFAULT_LEVEL \
                or self.seed else known[0]
            self.from_book = True
            return
        search = self.search
        search.noise = noise
        search.noise_seed = (self.seed * 31 + self.level) & 0x3FFFFFFF
        clock = deadline = None
        if max_ms is not None:
            t0 = ticks_ms()

            def clock():
                return ticks_diff(ticks_ms(), t0)
            deadline = max_ms
        search.start(position, legal, max_nodes or 0, max_depth, deadline, clock)
        self.done = False

    def step(self, budget_nodes, clock=None, until=0):
        """Search ``budget_nodes`` more nodes at most and, given a ``clock`` (microseconds that wrap
        at 2**30, as MicroPython's ``time.ticks_us``), until it reads ``until``; True once ``result``
        is final."""
        if not self.done:
            if self.search.run(budget_nodes, clock, until):
                self.done = True
                self.result = self.search.result
        return self.done

    def stop(self):
        """End a search now (UCI ``stop``): ``result`` is the best move found so far."""
        if not self.done:
            self.search.stop()
            self.done = True
            self.result = self.search.result

    def best_move(self, position, max_nodes=None, max_ms=None, max_depth=None):
        """The move to play (one of ``position.legal_moves()``), or None if there is none."""
        self.start(position, max_nodes, max_ms, max_depth)
        while not self.step(100000):
            pass
        return self.result

    # -- what the last search saw (UCI's info lines) -----------------------

    @property
    def best_so_far(self):
        """The move the search would play now (``result`` once done)."""
        return self.result if self.done else self.search.result

    def principal_variation(self, position, length=MAX_PLY):
        """The line the search expects from ``position`` (the one searched): with ``lines`` the
        search's own principal variation; else its move now, then the move the table holds for each
        position after (shorter when entries were replaced). Legal moves only, no position twice;
        ``position`` is left as it was."""
        line = []
        seen = []
        kept = [] if self.from_book else self.search.line
        move = self.best_so_far
        while move and len(line) < length and position.hash not in seen and move in position.legal_moves():
            seen.append(position.hash)
            line.append(move)
            position.push(move)
            if self.from_book:
                move = 0
            elif kept and kept[0] == line[0]:
                move = kept[len(line)] if len(line) < len(kept) else 0
            else:
                move = self.search.tt_move(position.hash)
        for _ in line:
            position.pop()
        return line

    @property
    def nodes(self):
        return 0 if self.from_book else self.search.nodes

    @property
    def depth(self):
        return 0 if self.from_book else self.search.completed

    @property
    def score(self):
        """Centipawns from the side to move's view; None for a book move."""
        return None if self.from_book else self.search.score
