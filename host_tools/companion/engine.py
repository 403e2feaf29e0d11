"""Play the computer: a UCI engine (Stockfish, the project's own, or any other) through python-chess's chess.engine.

When it is the computer's turn the engine thinks, and its reply goes to the
board with the protocol's ``show``: the LEDs light the move's squares and the
board accepts only that move until the hands have made it. The levels are the
engine's own: ``UCI_Elo`` (with ``UCI_LimitStrength``) over the range the
engine reports at run time, ``Skill Level``, or the project engine's ``Level``.
The project's own engine (``python -m host_tools.uci``, the board's engine on
the host) is always offered, so there is a computer opponent without Stockfish.
Hints go to the board with ``suggest UCI`` (lit, not enforced); a board whose
firmware has no ``suggest`` yet gets them with ``show``. The person's draw
offer is answered as the board's own engine answers it (game/offers.py: taken
when the computer stands worse than DRAW_ACCEPT_CP). Scacchi Sprint has no
UCI engine: the computer plays chess only.
"""

import os
import shutil
import sys
import threading
import time

import chess
import chess.engine

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from host_tools.companion.model import REPLY_SECONDS
from scacchiera.game import offers

SEARCH_PATH = ("/usr/games", "/usr/local/games")
THINK_SECONDS = 0.3
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OWN = "scacchiera"                # the id of the project's own engine
OWN_COMMAND = [sys.executable, "-m", "host_tools.uci"]
LEVELS = (("elo", "UCI_Elo"), ("skill", "Skill Level"), ("level", "Level"))
# The project engine's levels on Stockfish's UCI_Elo scale, as measured (docs/engine.md, "Levels": 7 issue 52's
# 408 games at 18,000 nodes, 1808; 1-6 the ladder chained down from it, 3 Dec 2026): named beside each level on the page.
LEVEL_ELO = {1: 510, 2: 690, 3: 890, 4: 1060, 5: 1260, 6: 1490, 7: 1810}
SPRINT_REFUSED = "the computer plays chess only (not Scacchi Sprint)"


def engines(path=None):
    """The engines to offer, best first: [(id, command)]. ``path`` (or Stockfish when found), then
    the project's own engine, always there."""
    found = find_engine(path)
    out = [(os.path.basename(found), found)] if found else []
    return out + [(OWN, OWN_COMMAND)]


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


def think_seconds(think, clock, white):
    """How long the engine may think: ``think``, or less when its side's clock is short (the board
    runs the clocks, for the computer too): a 30th of what is left plus most of the increment.
    ``clock`` is status.clock (docs/protocol.md: "control" "M+S", ms left), None when off."""
    left = (clock or {}).get("white" if white else "black")
    if not isinstance(left, int) or isinstance(left, bool):
        return think
    _, _, inc = str(clock.get("control") or "").partition("+")
    increment = int(inc) if inc.isdigit() else 0
    return max(0.02, min(think, left / 1000.0 / 30 + 0.8 * increment))


def _online(board):
    """Whether a Lichess game is on ``board`` (the engine then neither plays nor hints)."""
    lichess = getattr(board, "lichess", None)
    return lichess is not None and lichess.playing()


def python_chess_board(start_fen, moves, chess960=False):
    """The game as a chess.Board (start FEN or the standard start, then the UCI moves; a Chess960
    board reads castlings written king takes rook, and python-chess sets the engine's UCI_Chess960)."""
    board = chess.Board(start_fen or chess.STARTING_FEN, chess960=chess960)
    for uci in moves:
        board.push_uci(uci)
    return board


def _open(command):
    """A running UCI engine for ``command`` (a path or an argument list), started in the project's folder."""
    return chess.engine.SimpleEngine.popen_uci(command, cwd=ROOT)


class Computer:
    """The computer opponent for one board (boards.Board): which engine, which side(s) it plays and how strongly.

    ``choices`` is ``engines()``'s list, or one path. It runs in its own thread, a subscriber of
    the board (model.Subscription: woken by each change, the board's events its own to read), and
    asks the board as the computer (``board.ask(..., by="computer")``).
    """

    def __init__(self, board, choices, think=THINK_SECONDS):
        if isinstance(choices, str):
            choices = [(os.path.basename(choices), choices)]
        self.board = board
        self.choices = list(choices)
        self.think = think
        self.lock = threading.RLock()       # the engine is used from the computer's thread and the server's
        self.engine = None
        self._select(self.choices[0][0])
        self.sides = ()                 # "white" and/or "black"
        self.elo = None                 # None: full strength, unless skill or level is set
        self.skill = None
        self.level = None
        self.message = None             # why it is not playing, for the page
        self.hint_said = None           # how the last hint was shown, for the page
        self._asked = None              # (game, moves) it last answered, so it answers once
        self._answered = None           # (session, game, ply) of the person's draw offer it answered
        self._told = None               # (session, sides) the board was told who plays (_tell_board)
        self.replied_at = None          # time.perf_counter() when its last reply went to the board (make bench)
        self.handled = -1               # the board's version its thread has acted on, done (tests wait for it)
        self.went_round = threading.Condition()   # notified after each turn
        self._news = board.model.subscribe("computer")
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="computer", daemon=True)

    def _select(self, ident):
        command = dict(self.choices).get(ident)
        if command is None:
            raise ValueError("no engine %r: the engines are %s" % (ident, ", ".join(i for i, _ in self.choices)))
        try:
            engine = _open(command)
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as e:
            raise ValueError("the engine %s did not start: %s" % (ident, e))
        old, self.engine, self.ident = self.engine, engine, ident
        self.name = engine.id.get("name", ident)
        if old is not None:
            _quit(old)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stopped.set()
        self._news.wake()
        if self._thread.is_alive():
            self._thread.join(5)
        _quit(self.engine)

    def levels(self):
        """The engine's own ranges: {"elo": [min, max] or None, "skill": ..., "level": ...}."""
        options = self.engine.options
        out = {}
        for key, name in LEVELS:
            opt = options.get(name)
            out[key] = [opt.min, opt.max] if opt is not None and opt.min is not None else None
        if self.ident == OWN:
            out["level_elo"] = LEVEL_ELO
        return out

    def configure(self, sides=None, elo=None, skill=None, level=None, engine=None):
        """Which engine (an id of ``choices``), which sides it plays (a list of "white"/"black"), and its
        level (one of elo, skill, level, or none: full strength)."""
        if sides is not None:
            if not isinstance(sides, list) or any(s not in ("white", "black") for s in sides) or len(sides) > 2:
                raise ValueError("'sides' is a list of \"white\" and \"black\"")
        with self.lock:
            if engine is not None and engine != self.ident:
                if not isinstance(engine, str):
                    raise ValueError("'engine' is one of %s" % ", ".join(i for i, _ in self.choices))
                self._select(engine)
                self.elo = self.skill = self.level = None
            levels = self.levels()
            chosen = {"elo": elo, "skill": skill, "level": level}
            for key, value in chosen.items():
                if value is None:
                    continue
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError("%r must be a whole number" % key)
                if levels[key] is None:
                    raise ValueError("%s has no %s setting" % (self.name, key))
                low, high = levels[key]
                if not low <= value <= high:
                    raise ValueError("%r is from %d to %d for %s" % (key, low, high, self.name))
            options = {}
            if "UCI_LimitStrength" in self.engine.options:
                options["UCI_LimitStrength"] = elo is not None
            if elo is not None:
                options["UCI_Elo"] = elo
            for key, name in LEVELS[1:]:
                if levels[key] is not None:
                    options[name] = chosen[key] if chosen[key] is not None else levels[key][1]
            self.engine.configure(options)
            self.elo, self.skill, self.level = elo, skill, level
            if sides is not None:
                self.sides = tuple(sides)
                self._asked = None
        if sides is not None:
            self._told = None           # told now, or once the board has said hello (_run)
            self._keep_board_told()
        self._news.wake()               # its thread looks again: a side to play now, or none

    def stand_aside(self):
        """Stop playing, its engine and level kept (fair play: a Lichess game started)."""
        self.configure(sides=[], elo=self.elo, skill=self.skill, level=self.level)

    def _keep_board_told(self):
        """Tell the board who plays once it has said hello, and again after a new connection or a
        restarted simulator: sides chosen before the board answered were never told (the board then
        took back only the computer's reply and handed it the move again)."""
        board = self.board.model.view()
        told = (board.session, self.sides)
        if board.hello is not None and board.status is not None and told != self._told:
            self._told = told
            self._tell_board(self.sides, board)

    def _tell_board(self, sides, board):
        """A board with the ``opponent`` option (docs/protocol.md, ``set``) is told that the host plays:
        ``set opponent host`` (and ``engine_side`` when the computer has one side), and back to
        ``person`` when the computer stops. A board without it needs nothing: it takes ``show``."""
        specs = (board.hello or {}).get("option_specs") or {}
        now = ((board.status or {}).get("options") or {}).get("opponent")
        if "opponent" not in specs:
            return
        if sides:
            self._ask({"cmd": "set", "name": "opponent", "value": "host"}, self._told_board)
            if len(sides) == 1 and "engine_side" in specs:
                self._ask({"cmd": "set", "name": "engine_side", "value": sides[0][0]}, self._told_board)
        elif now == "host":
            self._ask({"cmd": "set", "name": "opponent", "value": "person"}, self._told_board)

    def _ask(self, cmd, on_reply):
        """A command to the board as the computer's: logged as its, its reply to ``on_reply``."""
        self.board.ask(cmd, on_reply, by="computer")

    def _told_board(self, reply):
        if not reply.get("ok"):
            self.message = "the board refused %s: %s" % (reply.get("name") or reply.get("re"),
                                                        reply.get("message") or reply.get("error"))

    def describe(self):
        return {"name": self.name, "engine": self.ident, "sides": list(self.sides), "elo": self.elo,
                "skill": self.skill, "level": self.level, "levels": self.levels(), "message": self.message,
                "engines": [ident for ident, _ in self.choices], "hint": self.hint_said}

    def best(self, fen, moves, seconds=None, chess960=False):
        """The engine's move (UCI) after ``moves`` from ``fen`` in ``seconds`` (default: ``think``);
        None when it has none."""
        with self.lock:
            result = self.engine.play(python_chess_board(fen, moves, chess960),
                                      chess.engine.Limit(time=self.think if seconds is None else seconds))
        return result.move.uci() if result.move is not None else None

    # -- playing -----------------------------------------------------------------------------

    def _run(self):
        busy = False
        while not self._stopped.is_set():
            # Woken by the board's news; a request of the host's own still waiting is taken as lost
            # after REPLY_SECONDS without a word from the board, so it looks again then.
            events = self._news.wait(REPLY_SECONDS if busy else None)
            board = self.board.model.view()
            busy = board.busy
            turn = self._turn(board)
            asked = self._board_asks(events)
            offer = self._offer(board)
            self._keep_board_told()
            if offer is not None:
                self._answer_offer(*offer)
            if turn is not None:
                self._reply(*turn)
            elif asked:
                self._answer_board()
            with self.went_round:
                self.handled = board.version
                self.went_round.notify_all()

    def _turn(self, board):
        """(key, start FEN, moves, seconds to think) when the computer is to move in ``board`` (a
        BoardView) and has not answered yet; else None."""
        s = board.status
        if _online(self.board):
            return None                 # fair play: no engine during a Lichess game
        if not self.sides or s is None or board.start is None or board.busy:
            return None
        sprint = board.start[2]
        if sprint and s.get("result") == "*":
            self.message = SPRINT_REFUSED
            return None
        if self.message == SPRINT_REFUSED and not sprint:
            self.message = None         # chess again: the Sprint words no longer hold
        key = (board.session, s.get("game"), tuple(s.get("moves") or ()))
        if self._asked is not None and key[:2] == self._asked[:2] and len(key[2]) < len(self._asked[2]):
            self._asked = None          # a takeback: the same position gets an answer again
        side = "black" if s.get("turn") == "b" else "white"
        if side not in self.sides or s.get("result") != "*" or s.get("show") or not s.get("in_sync", True) \
                or key == self._asked or board.start[0] != key[1]:
            return None
        fen = board.start[1]
        opponent = str((s.get("options") or {}).get("opponent") or "")
        if opponent.startswith("engine"):
            self.message = "the board's own engine plays (its option opponent is %r): the host waits" % opponent
            return None
        return key, fen, list(key[2]), think_seconds(self.think, board.clock, side == "white"), board.start[4]

    def _offer(self, board):
        """(computer's colour, start FEN, moves, chess960) when the person has offered the computer
        a draw it has not answered yet in ``board`` (a BoardView); else None."""
        s = board.status
        if _online(self.board) or len(self.sides) != 1 or s is None or board.start is None:
            return None
        side = self.sides[0][0]
        if s.get("offer") not in ("w", "b") or s.get("offer") == side or s.get("result") != "*" \
                or board.start[0] != s.get("game"):
            return None
        key = (board.session, s.get("game"), len(s.get("moves") or ()))
        if key == self._answered:
            return None
        self._answered = key
        return side, board.start[1], list(s.get("moves") or ()), board.start[4]

    def _answer_offer(self, side, fen, moves, chess960):
        """Accept the person's draw offer when the engine's evaluation says the computer stands worse
        than the board's own engine would accept (game/offers.py's rule), else decline it."""
        board = python_chess_board(fen, moves, chess960)
        try:
            with self.lock:
                info = self.engine.analyse(board, chess.engine.Limit(time=self.think))
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            self.message = "the engine failed: %s" % e
            self.board.notify()
            return
        score = info.get("score")
        cp = score.pov(chess.WHITE if side == "w" else chess.BLACK).score(mate_score=100000) \
            if score is not None else None
        cmd = "draw" if offers.accepts(cp) else "decline"
        self._ask({"cmd": cmd, "side": side}, self._told_board)
        self.board.notify()

    def _board_asks(self, events):
        """Whether the board asked for a suggestion among ``events`` (its ``suggest`` event without a
        move: a gesture) while this engine is the opponent (one made while nobody played is gone)."""
        return bool(self.sides) and any(ev.get("ev") == "suggest" and not ev.get("uci") for ev in events)

    def _answer_board(self):
        try:
            self.hint()
        except (ValueError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            self.hint_said = "no hint: %s" % e
            self.board.notify()

    def hint(self):
        """The engine's best move for the side to move, lit on the board on request (the page's
        button, the board's gesture): ``suggest UCI``, or ``show`` on a board without ``suggest``.
        Never when the board's ``suggest`` option is off (a rated or online game)."""
        if _online(self.board):
            raise ValueError("no hints while a Lichess game is on (fair play)")
        board = self.board.model.view()
        s = board.status
        if s is None or board.start is None or board.start[0] != s.get("game"):
            raise ValueError("the board's game is not known yet")
        if s.get("result") != "*":
            raise ValueError("the game is over")
        if (s.get("options") or {}).get("suggest") is False:
            raise ValueError("no hints in this game (rated or online: the board's suggest option is off)")
        if board.start[2]:
            raise ValueError(SPRINT_REFUSED)
        fen, moves, chess960 = board.start[1], list(s.get("moves") or ()), board.start[4]
        uci = self.best(fen, moves, None, chess960)
        if uci is None:
            raise ValueError("the engine has no move here")
        how = self.board.suggest(uci, by="computer")
        self.hint_said = "hint: %s (%s)" % (uci, how)
        self.board.notify()
        return uci

    def _reply(self, key, fen, moves, seconds, chess960=False):
        self._asked = key
        try:
            uci = self.best(fen, moves, seconds, chess960)
        except (ValueError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            self.message = "the engine failed: %s" % e
            self.board.notify()
            return
        if uci is None:
            return
        self.message = None
        self.hint_said = None
        self.replied_at = time.perf_counter()
        try:
            self._ask({"cmd": "show", "uci": uci}, self._shown)
        except ValueError as e:
            self.message = "could not show the move: %s" % e
        self.board.notify()

    def _shown(self, reply):
        """The board's reply to the computer's ``show`` (the model's request API): a refusal is the
        computer's own message, and the move is asked again at the next change."""
        if not reply.get("ok"):
            self.message = "the board refused the computer's move: %s" % (reply.get("message") or reply.get("error"))
            self._asked = None


def _quit(engine):
    try:
        engine.quit()
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError):
        pass
