"""A drill: the board knows the moves to come and judges the player's (a main-loop part).

One part for every way to train, as they differ only in where the moves come
from and who plays them:

- ``puzzle``: a line of the puzzle file (puzzle_file.py), the opponent's
  move first. The board shows the opponent's moves for the hands to make
  (``game.require_move``, as it shows an engine's); the player finds the
  others. On the last move any mate counts.
- ``replay``: a game's moves, every one shown for the hands to make.
- ``guess``: a game's moves; the player plays one side's ("guess the
  move"), the board shows the other's.
- ``opening``: the engine's book (engine/book.py) or the user's line: the
  board plays one side (a book move, chosen by the seed), the player must
  answer with a book move (any of the book's moves for that position).

A move of the player's that is not the line's is wrong: the board takes it
back at once (``game.undo``: the LEDs then ask for the piece back, as after
the host's ``undo``) and says so (event ``drill``, state ``wrong``). In a
puzzle one wrong move fails it and the board then shows the solution's moves;
elsewhere the first wrong guess at a move lights the piece to move (a hint),
the second shows the move. The drill ends when the line does (event
``drill``, state ``done``, with the counts), when the game is replaced (a new
game: ``stopped``), or when ``train stop`` ends it. The game itself goes on
as an ordinary game afterwards.

Moves are kept packed (puzzle_file.code_of, 2 bytes a ply): a 300-ply game
is 600 bytes.
"""

from ..leds.frame import SUGGEST_FROM
from ..rules.squares import from_square
from .puzzle_file import uci_of

PUZZLE = "puzzle"
REPLAY = "replay"
GUESS = "guess"
OPENING = "opening"
MODES = (PUZZLE, REPLAY, GUESS, OPENING)


class Drill:
    def __init__(self, game, mode, line, side, seed=0, puzzle=None):
        """``line``: a bytearray of packed moves from the game's position now (empty for an
        opening from the book); ``side``: the player's colour (0 white, 1 black; -1 for a replay,
        where the board shows every move); ``puzzle``: (index, id, rating, puzzles in the file) of a puzzle."""
        self.mode = mode
        self.line = line
        self.side = side
        self.seed = seed
        self.puzzle = puzzle
        self.position = game.position      # a new game replaces it: the drill stops
        self.start = game.position.ply()
        self.first = game.position.turn    # the side to move at the line's first ply
        self.seen = 0                      # plies of the line played
        self.want = -1                     # the line's move for the ply now (a move int), -1: none
        self.book = None                   # opening from the book: its moves for the ply now
        self.asked = -1                    # the ply ``want``/``book`` were found for
        self.misses = 0                    # wrong moves at the ply now
        self.mistakes = 0                  # wrong moves in all
        self.right = 0                     # the player's moves right at the first try
        self.moves = 0                     # the player's moves played
        self.failed = False                # a puzzle: a wrong move was played
        self.saved = True                  # ...its record written (False: the flash was full)
        self.hint = -1                     # a square lit as a hint (after a wrong guess)
        self.wrong = False                 # the last move judged was wrong (the display says so)
        self.started_ms = -1               # when the player's first turn began
        self.over = False

    # -- the main loop's hooks (runner.py) ---------------------------------------------------

    def boot(self, runner, now):
        pass

    def scan(self, runner, now):
        pass

    def crash(self, runner):
        pass

    def shown(self, runner, frame, now):
        if self.hint >= 0 and not frame[self.hint] and runner.app.game.in_sync():
            frame[self.hint] = SUGGEST_FROM

    def tick(self, runner, now):
        game = runner.app.game
        pos = game.position
        if pos is not self.position or pos.ply() < self.start:
            self.end(runner, "stopped")
            return
        played = pos.ply() - self.start
        if played != self.seen:
            if self.hint >= 0:
                self.hint = -1
                runner.app.dirty = True
            if played == self.seen + 1 and self.asked == self.seen and self._players(self.seen):
                self._judge(game)
            self.seen = pos.ply() - self.start
        if game.result is not None and self.seen < self._length():
            self.end(runner, "done")          # e.g. a replayed game ends before its line does
            return
        if self.asked != self.seen:
            self._ask(pos)
            if self.want < 0 and not self.book:
                self.end(runner, "done")
                return
        if not self._players(self.seen):
            if game.tracker.required < 0:
                game.require_move(self.want)
                runner.app.dirty = True
        elif self.started_ms < 0 and game.tracker.in_sync():
            self.started_ms = now

    # -- the line ------------------------------------------------------------------------

    def _players(self, i):
        """Is ply ``i`` of the line the player's?"""
        return self.side >= 0 and self.first ^ (i & 1) == self.side

    def _length(self):
        return len(self.line) // 2 if self.line else 1 << 20

    def _ask(self, pos):
        """What the line wants at the ply now: ``want`` (-1 past the line's end) and, for an
        opening from the book, ``book`` (the book's moves here, main line first)."""
        self.asked = self.seen
        self.misses = 0
        self.want = -1
        self.book = None
        i = self.seen
        if self.line:
            if 2 * i < len(self.line):
                self.want = pos.parse_uci(uci_of(self.line[2 * i] | self.line[2 * i + 1] << 8))
            return
        from ..engine.book import book_moves
        legal = pos.legal_moves()
        known = [m for m in book_moves(pos.hash) if m in legal]
        if not known:
            return
        if self._players(i):
            self.book = known
            self.want = known[0]
        else:
            self.want = known[(self.seed + i) % len(known)]

    def _judge(self, game):
        """The player's move just played at ply ``seen``: the line's (or the book's), or wrong."""
        pos = game.position
        move = pos.peek()
        good = move == self.want or (self.book is not None and move in self.book)
        last = 2 * (self.seen + 1) >= len(self.line) if self.line else False
        if not good and self.mode == PUZZLE and last and pos.is_checkmate():
            good = True                      # the last move of a puzzle: any mate
        self.wrong = not good
        if good:
            self.moves += 1
            if not self.misses:
                self.right += 1
            game.emit("drill", state="right", mode=self.mode, uci=pos.uci(move))
            return
        self.misses += 1
        self.mistakes += 1
        game.emit("drill", state="wrong", mode=self.mode, uci=pos.uci(move))
        game.undo(True)                      # the LEDs ask for the piece back
        if self.mode == PUZZLE:
            self.failed = True
            game.require_move(self.want)   # the solution, shown once the piece is back
        elif self.misses == 1:
            self.hint = from_square(self.want)
        else:
            game.require_move(self.want)
        self.asked = pos.ply() - self.start   # the same ply again: keep its misses

    # -- the end ---------------------------------------------------------------------------

    def end(self, runner, state):
        """The drill is over (``done`` or ``stopped``): say how it went and leave the loop."""
        if self.over:
            return
        self.over = True
        game = runner.app.game
        fields = {"state": state, "mode": self.mode, "moves": self.moves, "right": self.right,
                  "mistakes": self.mistakes}
        if self.started_ms >= 0:
            from .. import elapsed
            fields["ms"] = elapsed(game.now, self.started_ms)
        if self.puzzle is not None:
            index, pid, rating, count = self.puzzle
            fields["puzzle"] = pid
            fields["puzzle_rating"] = rating
            if state == "done":
                fields["solved"] = not self.failed
                from .progress import record
                try:
                    fields["rating"], fields["rating_change"] = record(runner.hw.fs, index, rating, not self.failed, count)
                except OSError as e:      # the flash full: the drill and the game go on, unsaved
                    fields["saved"] = self.saved = False
                    runner.protocol.send({"ev": "storage_error", "file": "puzzles.rec",
                                          "message": "the puzzle record was not saved (%s: %s)" % (type(e).__name__, e)})
        if game.tracker.required >= 0 and state == "stopped":
            game.unshow_move()
        self.hint = -1
        if self in runner.parts:
            runner.parts.remove(self)
        runner.drill = self if state == "done" else None    # the display shows how it ended
        runner.app.dirty = True
        game.emit("drill", **fields)
