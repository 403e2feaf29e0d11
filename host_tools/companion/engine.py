"""Play the computer: a UCI engine (Stockfish, or any other) through python-chess's chess.engine.

When it is the computer's turn the engine thinks, and its reply goes to the
board with the protocol's ``show``: the LEDs light the move's squares and the
board accepts only that move until the hands have made it. The levels are the
engine's own: ``UCI_Elo`` (with ``UCI_LimitStrength``) over the range the
engine reports at run time, or ``Skill Level``. Scacchi Sprint has no UCI
engine: the computer plays chess only.
"""

import os
import shutil
import threading
import time

import chess
import chess.engine

SEARCH_PATH = ("/usr/games", "/usr/local/games")
THINK_SECONDS = 0.3


def find_engine(path=None):
    """The engine's executable: ``path``, else ``stockfish`` on PATH or in /usr/games; None if none."""
    if path:
        return path
    found = shutil.which("stockfish")
    if found:
        return found
    for folder in SEARCH_PATH:
        candidate = os.path.join(folder, "stockfish")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def _online(board):
    """Whether a Lichess game is on ``board`` (the engine then neither plays nor hints)."""
    lichess = getattr(board, "lichess", None)
    return lichess is not None and lichess.playing()


def python_chess_board(start_fen, moves):
    """The game as a chess.Board (start FEN or the standard start, then the UCI moves)."""
    board = chess.Board(start_fen) if start_fen else chess.Board()
    for uci in moves:
        board.push_uci(uci)
    return board


class Computer:
    """The computer opponent for one board (boards.Board): which side(s) it plays and how strongly.

    It runs in its own thread, woken by the board's model whenever the game changes.
    """

    def __init__(self, board, path, think=THINK_SECONDS):
        self.board = board
        self.path = path
        self.think = think
        self.engine = chess.engine.SimpleEngine.popen_uci(path)
        self.name = self.engine.id.get("name", os.path.basename(path))
        self.sides = ()                 # "white" and/or "black"
        self.elo = None                 # None: full strength, unless skill is set
        self.skill = None
        self.message = None             # why it is not playing, for the page
        self._asked = None              # (game, moves) it last answered, so it answers once
        self.replied_at = None          # time.perf_counter() when its last reply went to the board (make bench)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="computer", daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stopped.set()
        with self.board.model.cond:
            self.board.model.cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(5)
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError):
            pass

    def levels(self):
        """The engine's own ranges: {"elo": [min, max] or None, "skill": [min, max] or None}."""
        options = self.engine.options
        out = {}
        for key, name in (("elo", "UCI_Elo"), ("skill", "Skill Level")):
            opt = options.get(name)
            out[key] = [opt.min, opt.max] if opt is not None and opt.min is not None else None
        return out

    def configure(self, sides=None, elo=None, skill=None):
        """Which sides it plays (a list of "white"/"black"), and its level (one of elo, skill, or neither)."""
        levels = self.levels()
        if sides is not None:
            if not isinstance(sides, list) or any(s not in ("white", "black") for s in sides) or len(sides) > 2:
                raise ValueError("'sides' is a list of \"white\" and \"black\"")
        for value, key in ((elo, "elo"), (skill, "skill")):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError("%r must be a whole number" % key)
            if levels[key] is None:
                raise ValueError("this engine has no %s setting" % key)
            low, high = levels[key]
            if not low <= value <= high:
                raise ValueError("%r is from %d to %d for %s" % (key, low, high, self.name))
        options = {}
        if "UCI_LimitStrength" in self.engine.options:
            options["UCI_LimitStrength"] = elo is not None
        if elo is not None:
            options["UCI_Elo"] = elo
        if levels["skill"] is not None:
            options["Skill Level"] = skill if skill is not None else levels["skill"][1]
        self.engine.configure(options)
        self.elo, self.skill = elo, skill
        if sides is not None:
            self.sides = tuple(sides)
            self._asked = None
        with self.board.model.cond:
            self.board.model.cond.notify_all()

    def describe(self):
        return {"name": self.name, "sides": list(self.sides), "elo": self.elo, "skill": self.skill,
                "levels": self.levels(), "message": self.message}

    # -- playing -----------------------------------------------------------------------------

    def _run(self):
        model = self.board.model
        seen = None
        while not self._stopped.is_set():
            with model.cond:
                model.cond.wait_for(lambda: model.version != seen or self._stopped.is_set(), timeout=1.0)
                seen = model.version
                turn = self._turn()
            if turn is not None:
                self._reply(*turn)

    def _turn(self):
        """(key, start FEN, moves) when the computer is to move and has not answered yet; else None."""
        model = self.board.model
        s = model.status
        if _online(self.board):
            return None                 # fair play: no engine during a Lichess game
        if not self.sides or s is None or model.start is None or model.busy():
            return None
        key = (model.session, s.get("game"), tuple(s.get("moves") or ()))
        side = "black" if s.get("turn") == "b" else "white"
        if side not in self.sides or s.get("result") != "*" or s.get("show") or not s.get("in_sync", True) \
                or key == self._asked or model.start[0] != key[1]:
            return None
        _, fen, sprint, _ = model.start
        if sprint:
            self.message = "the computer plays chess only (not Scacchi Sprint)"
            return None
        return key, fen, list(key[2])

    def hint(self):
        """The engine's best move for the side to move, lit on the board with ``show`` (on request)."""
        if _online(self.board):
            raise ValueError("no hints while a Lichess game is on (fair play)")
        model = self.board.model
        with model.lock:
            s = model.status
            if s is None or model.start is None or model.start[0] != s.get("game"):
                raise ValueError("the board's game is not known yet")
            if s.get("result") != "*":
                raise ValueError("the game is over")
            if model.start[2]:
                raise ValueError("the computer plays chess only (not Scacchi Sprint)")
            fen, moves = model.start[1], list(s.get("moves") or ())
        result = self.engine.play(python_chess_board(fen, moves), chess.engine.Limit(time=self.think))
        if result.move is None:
            raise ValueError("the engine has no move here")
        self.board.command({"cmd": "show", "uci": result.move.uci()})
        return result.move.uci()

    def _reply(self, key, fen, moves):
        self._asked = key
        try:
            position = python_chess_board(fen, moves)
            result = self.engine.play(position, chess.engine.Limit(time=self.think))
        except (ValueError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            self.message = "the engine failed: %s" % e
            self.board.notify()
            return
        if result.move is None:
            return
        self.message = None
        self.replied_at = time.perf_counter()
        try:
            self.board.command({"cmd": "show", "uci": result.move.uci()})
        except ValueError as e:
            self.message = "could not show the move: %s" % e
        self.board.notify()
