"""The boards behind the page: the simulator, and a Pico over USB serial.

Both talk to the page's model (model.BoardModel) in protocol lines only. The
simulated board also offers *hands* (lift, place, the tray, its buttons, its
clock), which a real board does not have: ``hands`` says which one the page has.
Actions come from the server's threads; ``on_change`` is called (from any
thread) whenever what the page shows may have changed.
"""

import os
import secrets
import threading
import time

from host_tools.companion.model import PERSON, BoardModel, MAX_LINE
from host_tools.companion.players import RATED_EVENT, Players
from host_tools.sim.device import OTHERS_MS, SimBoard, SimError
from scacchiera.options import OPPONENTS as BOARD_OPPONENTS
from scacchiera.rules.variants import PROFILES, VARIANTS, SPRINT, CHESS960

TOUCH_MS = 10            # simulated time a hand's lift or put-down takes
PICO_VID = 0x2E8A        # Raspberry Pi's USB vendor id (every RP2040 board running MicroPython)


class ActionError(ValueError):
    """An action the board cannot do (the message says why, for the page)."""


def _text(fields, key):
    value = fields.get(key)
    if not isinstance(value, str) or not value or len(value) > 100:
        raise ActionError("%r must be a non-empty string" % key)
    return value


# The game's buttons on the page: the protocol's commands of the same names (take back, offer, accept
# or decline a draw, resign); the board's gestures do the same on the board.
GAME_ACTIONS = ("undo", "offer", "draw", "decline", "resign")


def _protocol_action(board, action, fields, by=PERSON):
    """The actions every board has, as protocol lines sent on behalf of ``by`` (model.CALLERS: the
    person at the page, or the club): options, a game's tags, a new game, a line the person typed."""
    if action == "send":
        if by != PERSON:
            raise ActionError("only the person types lines: the %s asks by command" % by)
        try:
            board.model.user_line(fields.get("line"))
        except ValueError as e:
            raise ActionError(str(e))
    elif action == "option":
        name = _text(fields, "name")
        if "value" not in fields:
            raise ActionError("'value' is missing")
        value = fields["value"]
        if not (isinstance(value, (bool, int, str)) and len(str(value)) <= 32):
            raise ActionError("'value' must be true/false, a number or a word")
        board.ask({"cmd": "set", "name": name, "value": value}, by=by)
    elif action == "tag":
        cmd = {"cmd": "tag", "name": _text(fields, "name")}
        if fields.get("value"):
            cmd["value"] = _text(fields, "value")     # none: the tag removed
        board.ask(cmd, by=by)
    elif action == "lichess":
        if board.lichess is None:
            raise ActionError("Lichess is not set up on this companion")
        try:
            board.lichess.act(fields)
        except ValueError as e:
            raise ActionError(str(e))
    elif action in ("computer", "hint") and board.lichess is not None and board.lichess.playing():
        raise ActionError("no engine while a Lichess game is on (fair play: the Board API forbids assistance)")
    elif action in ("computer", "hint"):
        if board.computer is None:
            raise ActionError("no engine started (see the terminal): no computer opponent, no hints")
        try:
            if action == "hint":
                board.computer.hint()
            else:
                board.computer.configure(fields.get("sides"), fields.get("elo"), fields.get("skill"),
                                         fields.get("level"), fields.get("engine"))
        except ActionError:
            raise
        except ValueError as e:
            raise ActionError(str(e))
    elif action == "players":
        try:
            board.players.set(fields)
        except ValueError as e:
            raise ActionError(str(e))
        try:
            board.model.keep()             # the game on the board gets them now
        except ActionError:
            pass                           # not connected: sent when the board answers again
    elif action == "game":
        op = fields.get("op")
        if op not in GAME_ACTIONS:
            raise ActionError("'op' is one of %s" % ", ".join(GAME_ACTIONS))
        cmd = {"cmd": op}
        side = fields.get("side")
        if side is not None:
            if op not in ("resign", "offer") or side not in ("w", "b"):
                raise ActionError("'side' is w or b, for resign and offer")
            cmd["side"] = side
        board.ask(cmd, by=by)
    elif action == "past":
        board.past_games(fields.get("op"), fields.get("game"))
    elif action == "ladder_player":
        board.add_ladder_player(_text(fields, "name"))
    elif action == "train":
        board.train(fields)
    elif action == "start":
        board.start_game(fields, by)
    elif action == "new":
        board.ask(_new_command(fields), by=by)
    else:
        raise ActionError("no such action: %s" % action)


def _new_command(fields):
    """The protocol's ``new`` from the page's fields, checked (the one check of a new game's fields,
    a real board's and the simulator's): fen, profile, variant (each absent or empty: the board's
    own), a Sprint game's seed, a Chess960 game's start position (drawn at random when neither it
    nor a FEN is given)."""
    cmd = {"cmd": "new"}
    for key in ("fen", "profile", "variant"):
        if fields.get(key) not in (None, ""):
            cmd[key] = _text(fields, key)
    if cmd.get("profile", PROFILES[0]) not in PROFILES:
        raise ActionError("'profile' must be %s" % " or ".join(repr(p) for p in PROFILES))
    if cmd.get("variant", VARIANTS[0]) not in VARIANTS:
        raise ActionError("'variant' must be %s" % " or ".join(repr(v) for v in VARIANTS))
    seed = fields.get("seed")
    if seed is not None and fields.get("variant") == SPRINT and "fen" not in cmd:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ActionError("'seed' must be a whole number")
        cmd["seed"] = seed
    if fields.get("variant") == CHESS960 and not fields.get("fen"):
        number = fields.get("position")
        if number is None:
            number = secrets.randbelow(960)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 959:
            raise ActionError("'position' is a Chess960 start position, 0 to 959")
        cmd["position"] = number
    return cmd


# The page's "new game" dialog: who plays the person (a person, the board's engine at a level, the
# computer's engine), the person's colour (white, black, or by lot: seed 003's colours drawn), the clock.
OPPONENTS = ("person", "computer") + tuple(o for o in BOARD_OPPONENTS if o.startswith("engine"))
COLOURS = ("white", "black", "lot")


def past_positions(pgn):
    """An archived game move by move, for the page's viewer: [{"fen", "san", "uci"}, ...] from the start
    position (san and uci None there), read by python-chess; None for what it cannot replay (a Scacchi
    Sprint game's drops), whose PGN text is still shown."""
    import io

    import chess.pgn
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None or game.errors:
        return None
    board = game.board()
    out = [{"fen": board.fen(), "san": None, "uci": None}]
    for move in game.mainline_moves():
        san = board.san(move)
        board.push(move)
        out.append({"fen": board.fen(), "san": san, "uci": move.uci()})
    return out


def in_ladder(path, act):
    """``act(ladder)`` on the household ladder in the file ``path`` (host_tools/ladder), one
    transaction: its answer, or ActionError saying why not (no ladder here, or the ladder's error)."""
    from host_tools.ladder.db import LadderError
    from host_tools.ladder.ladder import Ladder
    if path is None:
        raise ActionError("no ladder here")
    try:
        with Ladder(path) as ladder:
            return act(ladder)
    except LadderError as e:
        raise ActionError(str(e))


def chess960_number(start):
    """The Chess960 start position's number (0-959, python-chess's numbering; 518 is chess's) of a
    game whose start is ``start`` (the model's), or None for another game."""
    if not start or not start[4] or not start[1]:
        return None
    import chess
    try:
        return chess.Board(start[1], chess960=True).chess960_pos()
    except ValueError:
        return None


def pgn_summary(pgn):
    """What the Past games list says of a game: {"white", "black", "result", "date", "moves", "event"}
    from its PGN (the moves counted by python-chess; None where it cannot replay them: Sprint)."""
    import io

    import chess.pgn
    from host_tools.companion.players import parse_headers
    headers = parse_headers(pgn)
    game = chess.pgn.read_game(io.StringIO(pgn))
    plies = None if game is None or game.errors else len(list(game.mainline_moves()))
    return {"white": headers.get("White", "?"), "black": headers.get("Black", "?"),
            "result": headers.get("Result", "*"), "date": headers.get("Date", "????.??.??"),
            "event": headers.get("Event"), "moves": None if plies is None else (plies + 1) // 2}


class Board:
    """What the server needs of a board."""

    kind = "board"
    hands = False

    def __init__(self):
        self.on_change = lambda: None
        self.model = BoardModel(self._write)
        self.computer = None            # engine.Computer, when there is an engine
        self.lichess = None             # lichess.Lichess: online games through the Board API
        self.players = Players()        # the Players panel's names, site and rated: the game's PGN tags
        self.model.host_wants = self._host_wants
        self.ladder_path = None         # the household ladder's file (the page's server sets it)
        self.ladder_changes = 0         # games and players the page added to it (its table is read again)
        self.ladder_said = None         # what became of the last rated game (a line: recorded, or why not)
        self._rated = None              # (session, game number) of the last rated game recorded
        self.past = {"games": None, "open": None, "error": None}   # the board's archive, as the page asked
        self._summaries = {}            # (game, bytes) -> who played whom, result, date, moves (pgn_summary)
        self._analysis = None           # analysis.Analyses, made when first needed
        self.analysis_seconds = 0.1     # the engine's time a position when a past game is analysed
        self.started = None             # the last "new game" from the page: its opponent, the person's colour
        self.training = {"player": None, "said": None}   # whose puzzle is on the board; its record's news
        self.model.on_drill = self._drilled
        self.tagged_by_club = False     # a club's board: its games' tags are the club's (host_tools/club)
        self._stopped = threading.Event()
        self._thread = None             # the board's own thread (a subclass's), run from start() to stop()

    def play_computer(self, choices):
        """Offer the engines ``choices`` (engine.engines()'s list, or one path) as opponents
        (host_tools/companion/engine.py); the first one plays until the page picks another."""
        from host_tools.companion.engine import Computer
        self.computer = Computer(self, choices)
        self.notify()

    def play_lichess(self, **options):
        """Online games on Lichess from this board (host_tools/companion/lichess.py)."""
        from host_tools.companion.lichess import Lichess
        self.lichess = Lichess(self, **options)
        self.notify()

    def start(self):
        if self.computer is not None:
            self.computer.start()
        if self.lichess is not None:
            self.lichess.start()
        if self._thread is not None:
            self._thread.start()

    def stop(self):
        self._stopped.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(2)
        if self.computer is not None:
            self.computer.stop()
        if self.lichess is not None:
            self.lichess.stop()

    def notify(self):
        self.on_change()

    def _host_wants(self, status, headers):
        """What the Players panel wants of the board's game (players.py): never during a Lichess
        game (lichess.py gives its own tags) nor on a club's board (the club's tags: host_tools/club),
        nor to a firmware without ``tag``."""
        if self.lichess is not None and self.lichess.playing() or self.tagged_by_club:
            return []
        self.players.adopt(headers)
        cmds = self.players.commands(status, headers)
        if self.model.knows("tag") is False:
            cmds = [c for c in cmds if c["cmd"] != "tag"]
        self._record_rated(status)
        return cmds

    # -- the household ladder ---------------------------------------------------------------

    def _record_rated(self, status):
        """A rated game (the Players panel) that ended on the board goes into the household ladder,
        once, its players added if new: the page's Ladder panel shows it at once."""
        given = self.players.given
        result = status.get("result", "*")
        if self.ladder_path is None or not given or not given["rated"] or result == "*" or \
                (self.model.headers or {}).get("Event") != RATED_EVENT:
            return                          # (a Lichess game goes in as an online game: lichess.py)
        key = (self.model.session, status.get("game"))
        if key == self._rated or '[Result "%s"]' % result not in self.model.pgn:
            return                          # recorded already, or the finished game's PGN not in yet
        self._rated = key
        pgn, source = self.model.pgn, "board game %s" % status.get("game")
        from host_tools.ladder.ladder import recorded
        report, refused = recorded(self.ladder_path, lambda ladder: ladder.import_text(pgn, source, new_players=True))
        if refused:
            self.ladder_said = {"key": "ladder_refused", "game": status.get("game"), "why": refused}
            return
        self.ladder_said = report.line(game=status.get("game"))
        self.ladder_changes += bool(report.added)

    # -- training: the page's Train dialog (training.py) -------------------------------------

    def train(self, fields):
        """Start a drill on the board (or stop it): a puzzle, a replay, guess the move, an opening."""
        from host_tools.companion import training
        if self.lichess is not None and self.lichess.playing():
            raise ActionError("no drill during a Lichess game (its moves are the game's)")
        try:
            cmds, player = training.commands(fields, self.ladder_path)
        except training.TrainingError as e:
            raise ActionError(str(e))
        if fields.get("mode") != "stop":
            self.training = {"player": player, "said": None}
        for cmd in cmds:
            self.ask(cmd)

    def _drilled(self, ev):
        """A drill's event from the board: a named player's puzzle, done, goes into the ladder."""
        player = self.training["player"]
        if ev.get("state") == "done" and ev.get("puzzle") and player:
            from host_tools.companion import training
            self.training = {"player": None, "said": training.record(self.ladder_path, player, ev)}
            self.ladder_changes += 1

    # -- the board's archive: the page's Past games ----------------------------------------

    def past_games(self, op, number=None):
        """``list`` the board's archived games, ``open`` one (its PGN), ``import`` the open one into the
        household ladder (players new to it added): the protocol's ``games`` and ``pgn N``."""
        if op == "list":
            self.ask({"cmd": "games"}, self._listed)
        elif op == "open":
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise ActionError("'game' is an archived game's number")
            self.ask({"cmd": "pgn", "game": number}, self._opened)
        elif op == "import":
            self._import_past(number)
        elif op == "analyse":
            self._analyse_past(number)
        else:
            raise ActionError("'op' is list, open, import or analyse")

    # -- a new game, in one place ------------------------------------------------------------

    def start_game(self, fields, by=PERSON):
        """The page's "new game": ``opponent`` (OPPONENTS: ``computer`` is the companion's engine,
        ``engine N`` the board's own), ``colour`` the person's (COLOURS; by lot between two people
        swaps the names at random), ``clock`` (``off`` or ``M+S``, absent: unchanged), ``rated``, and
        the game: ``variant``, ``seed``, ``fen``. Checked whole before a line is sent; the lines then go
        in the order that leaves no engine thinking on the old game: the opponents stop, the clock, the
        new game, then who plays it. The lines go on behalf of ``by`` (model.CALLERS)."""
        opponent = fields.get("opponent", "person")
        colour = fields.get("colour", "white")
        if opponent not in OPPONENTS:
            raise ActionError("'opponent' is one of %s" % ", ".join(OPPONENTS))
        if colour not in COLOURS:
            raise ActionError("'colour' is white, black or lot")
        clock = fields.get("clock")
        if clock is not None and not (isinstance(clock, str) and 0 < len(clock) <= 12):
            raise ActionError("'clock' is off or minutes+seconds (5+3)")
        rated = fields.get("rated", False)
        if not isinstance(rated, bool):
            raise ActionError("'rated' must be true or false")
        if opponent == "computer" and self.computer is None:
            raise ActionError("no engine started on this computer (see the terminal)")
        if opponent != "person" and fields.get("variant") == SPRINT:
            raise ActionError("the engines play chess only: Scacchi Sprint is a game between two people")
        level = fields.get("level") or {}
        if not isinstance(level, dict) or set(level) - {"elo", "skill", "level"}:
            raise ActionError("'level' is {\"elo\": N}, {\"skill\": N} or {\"level\": N}")
        new = _new_command(fields)         # checked now: nothing is sent for a game that cannot start
        by_lot = colour == "lot"
        if by_lot:
            colour = secrets.choice(("white", "black"))
        players = dict(self.players.given or {"white": "", "black": "", "site": ""}, rated=rated)
        if by_lot and opponent == "person" and colour == "black":
            players["white"], players["black"] = players["black"], players["white"]
        try:
            self.players.set(players)
        except ValueError as e:
            raise ActionError(str(e))
        other = "black" if colour == "white" else "white"
        if self.computer is not None:
            self.computer.configure(sides=[])
        self.ask({"cmd": "set", "name": "opponent", "value": "person"}, by=by)
        if clock is not None:
            self.ask({"cmd": "set", "name": "clock", "value": clock}, by=by)
        self.new_game(dict(fields, position=new.get("position")), by)   # the position drawn, if drawn
        if opponent == "computer":
            try:
                self.computer.configure(sides=[other], elo=level.get("elo"), skill=level.get("skill"),
                                        level=level.get("level"))
            except ValueError as e:
                raise ActionError(str(e))
        elif opponent != "person":
            self.ask({"cmd": "set", "name": "engine_side", "value": other[0]}, by=by)
            self.ask({"cmd": "set", "name": "opponent", "value": opponent}, by=by)
        self.players.machine = {other: self._machine_name(opponent, level)} if opponent != "person" else {}
        self.started = {"opponent": opponent, "colour": colour, "by_lot": by_lot}

    def _machine_name(self, opponent, level):
        """The name the PGN gives the computer: the engine's, with its level."""
        if opponent != "computer":
            return "Scacchiera level %s" % opponent[7:]
        for key, words in (("elo", "Elo %d"), ("skill", "Skill Level %d"), ("level", "Level %d")):
            if level.get(key) is not None:
                return "%s (%s)" % (self.computer.name, words % level[key])
        return self.computer.name

    def new_game(self, fields, by=PERSON):
        """The protocol's ``new`` (fen, profile, variant, seed): the hands then set the pieces up."""
        self.ask(_new_command(fields), by=by)

    def ask(self, cmd, on_reply=None, by=PERSON):
        """The protocol command ``cmd`` on behalf of ``by`` (model.CALLERS), its reply to
        ``on_reply`` and the Future returned (model.BoardModel.ask)."""
        return self.model.ask(cmd, by, on_reply)

    def _listed(self, reply):
        """The archive's list; each game then read once (``pgn N``, one after the other) to say who
        played whom, the result, the date and the moves (a game's text never changes: its number and
        size name it)."""
        if not reply.get("ok"):
            self.past = dict(self.past, error=reply.get("message"))
            return
        self.past = dict(self.past, games=[self._described(g) for g in reply.get("games") or ()], error=None)
        self._describe_next()

    def _described(self, listed):
        return dict(listed, **self._summaries.get((listed.get("game"), listed.get("bytes")), {}))

    def _describe_next(self):
        for listed in self.past["games"] or ():
            key = (listed.get("game"), listed.get("bytes"))
            if key not in self._summaries:
                self._summaries[key] = {}          # asked: not asked again while the answer comes
                self.ask({"cmd": "pgn", "game": key[0]}, lambda reply, key=key: self._summarised(key, reply))
                return

    def _summarised(self, key, reply):
        self._summaries[key] = pgn_summary(reply["pgn"]) if reply.get("ok") else {"unreadable": True}
        self.past = dict(self.past, games=[self._described(g) for g in self.past["games"] or ()])
        self.notify()
        self._describe_next()

    def _opened(self, reply):
        if reply.get("ok"):
            saved = self._analyses().saved(reply["pgn"]) if self._analyses() is not None else None
            self.past = dict(self.past, open={"game": reply["game"], "pgn": reply["pgn"],
                                              "positions": past_positions(reply["pgn"]),
                                              "analysis": dict(saved, state="saved") if saved else None}, error=None)
        else:
            self.past = dict(self.past, error=reply.get("message"))

    # -- a past game's computer analysis (analysis.py), kept beside the ladder ------------------

    def _analyses(self):
        """The analyses of this computer (in the ladder's folder), with the best engine it has."""
        if self.ladder_path is None:
            return None
        if self._analysis is None:
            from host_tools.companion import analysis, engine
            command = engine.find_engine() or engine.OWN_COMMAND
            self._analysis = analysis.Analyses(os.path.join(os.path.dirname(os.path.abspath(self.ladder_path)),
                                                            "analysis"), command, self.analysis_seconds, engine.ROOT)
        return self._analysis

    def _analyse_past(self, number):
        opened = self.past["open"]
        if not opened or opened["game"] != number:
            raise ActionError("open game %s first" % number)
        analyses = self._analyses()
        if analyses is None:
            raise ActionError("no ladder here, so no folder to keep the analysis in")
        if opened.get("analysis") and opened["analysis"].get("state") in ("saved", "done"):
            return                                 # made already: never twice
        pgn = opened["pgn"]

        def show(analysis):
            opened_now = self.past["open"]
            if opened_now and opened_now["pgn"] == pgn:
                self.past = dict(self.past, open=dict(opened_now, analysis=analysis))
                self.notify()

        if analyses.start(pgn, lambda result: show(dict(result, state="error" if "error" in result else "done")),
                          lambda done, total: show({"state": "running", "done": done, "total": total})):
            show({"state": "running", "done": 0, "total": None})

    def _import_past(self, number):
        opened = self.past["open"]
        if not opened or opened["game"] != number:
            raise ActionError("open game %s first" % number)
        source = "the board's game %d" % number
        report = in_ladder(self.ladder_path, lambda ladder: ladder.import_text(opened["pgn"], source, new_players=True))
        self.ladder_said = report.line(game=number, imported=True)
        self.ladder_changes += bool(report.added)

    def add_ladder_player(self, name):
        """A player added to the household ladder from the page's Ladder panel."""
        in_ladder(self.ladder_path, lambda ladder: ladder.add_player(name))
        self.ladder_changes += 1

    def state(self):
        state = self.model.state()
        state["board"] = {"kind": self.kind, "hands": self.hands, "connected": self.connected(),
                          "problem": self.problem()}
        state["computer"] = self.computer.describe() if self.computer is not None else None
        state["lichess"] = self.lichess.describe() if self.lichess is not None else None
        state["players"] = self.players.given
        state["ladder"] = {"changes": self.ladder_changes, "said": self.ladder_said}
        state["past"] = self.past
        state["started"] = self.started
        from scacchiera.training.puzzle_file import THEMES
        state["training"] = dict(self.training, themes=list(THEMES))
        from host_tools.companion.engine import LEVEL_ELO
        state["level_elo"] = LEVEL_ELO       # the board's engine's levels, as measured (the page names them)
        state["chess960_position"] = chess960_number(self.model.start)
        return state

    def connected(self):
        return True

    def problem(self):
        return None

    def suggest(self, uci, by=PERSON):
        """Light ``uci`` as a suggestion: the protocol's ``suggest`` (shown, not enforced). A board
        whose firmware does not know ``suggest`` (hello's commands, or an error reply) gets ``show``
        instead: lit the same way, but the board then waits for that move. Says which it used."""
        def answered(reply):
            if not reply.get("ok") and reply.get("error") == "unknown_command":
                self.ask({"cmd": "show", "uci": uci}, by=by)    # an older firmware: the nearest it has
        self.model.suggested(uci)
        if self.model.knows("suggest") is False:
            self.ask({"cmd": "show", "uci": uci}, by=by)
            return "with show: this board's firmware has no suggest, so it waits for that move"
        self.ask({"cmd": "suggest", "uci": uci}, answered, by)
        return "with suggest"

    def act(self, action, fields, by=PERSON):
        """One of the page's actions (or the club's, ``by``), as protocol commands."""
        _protocol_action(self, action, fields, by)
        self.on_change()

    def _write(self, line):
        raise NotImplementedError


# -- the simulator ------------------------------------------------------------------------

class SimulatedBoard(Board):
    """The simulator (host_tools/sim/device.py's SimBoard: the real firmware on fake hardware),
    its clock following wall time × ``speed`` (0: step mode), and the simulated hands."""

    kind = "simulated"
    hands = True

    def __init__(self, fen=None, profile="fide", variant=None, seed=None, speed=1.0, period=0.005,
                 hands_play_computer=False):
        super().__init__()
        self.sim = SimBoard(fen, profile, variant, seed)
        # The hands make the moves the board lights for the other side (the computer's, a drill's
        # opponent's): on in the simulator a person opens (companion/__main__.py), a setting on its page.
        self.hands_play_computer = hands_play_computer
        self._others = None            # (UCI, simulated ms when the hands make it) of the move lit for them
        self.speed = speed
        self.period = period
        self._seen = 0                 # lines of sim.protocol already given to the model
        self._sim_version = self.sim.version
        self._ahead = 0                # ms the hands' touches moved the simulator ahead of the wall clock
        self._thread = threading.Thread(target=self._run, name="sim-clock", daemon=True)
        self.model.connected()

    def _write(self, line):
        self.sim.hw.send(line)         # read by the firmware's next loop pass

    def reboot(self):
        """The simulated board loses power and boots again (it resumes its game from its journal);
        the host sees it come back as a real board's USB port does, and asks for everything again."""
        with self.sim.lock:
            self.sim.reboot()
            self._seen = 0
            self.model.reset()
            self.model.connected()
        self._pump()

    def ask(self, cmd, on_reply=None, by=PERSON):
        with self.sim.lock:            # the firmware's serial input is not shared across threads
            return super().ask(cmd, on_reply, by)

    def _run(self):
        owed = 0.0
        last = time.monotonic()
        while not self._stopped.wait(self.period):
            now = time.monotonic()
            owed += (now - last) * 1000 * self.speed
            last = now
            with self.sim.lock:
                owed -= self._ahead            # the time the hands' touches already let pass
                self._ahead = 0
            ms = int(owed)
            if ms > 0:
                owed -= ms
                self.advance(ms)

    def advance(self, ms):
        """Let ``ms`` of simulated time pass, then tell the page what changed (and the hands make
        the computer's move once it has been lit for OTHERS_MS)."""
        with self.sim.lock:
            self.sim.wait(ms)
            self._play_others()
            self._pump()

    def _play_others(self):
        uci = self.sim.others_move() if self.hands_play_computer else None
        if uci is None:
            self._others = None
        elif self._others is None or self._others[0] != uci:
            self._others = (uci, self.sim.now + OTHERS_MS)     # lit now: made once the person has seen it
        elif self.sim.now >= self._others[1]:
            self._others = None
            self._with_hands(lambda: self.sim.play(uci))

    def _with_hands(self, act):
        """The hands act (a whole move takes simulated time): the wall clock's thread pays it back."""
        before = self.sim.now
        act()
        if self.speed:
            self._ahead += self.sim.now - before

    def _touch(self):
        """A hand's touch takes time: the firmware scans before the next one comes (a busy host
        once delivered a page's two moves between two ticks of the clock: four switches changed in
        one scan, which no hand does). The wall clock's thread pays the time back. In step mode
        time moves only when asked."""
        if self.speed:
            self.sim.wait(TOUCH_MS)
            self._ahead += TOUCH_MS

    def _pump(self):
        """Hand the lines the firmware wrote to the model; tell the page if anything changed."""
        with self.sim.lock:
            lines = self.sim.protocol
            before = self.model.version
            for line in lines[self._seen:]:
                self.model.feed(line)
            self._seen = len(lines)
            if self._seen > 1000:          # the simulator's own copy need not grow for ever
                del lines[:self._seen]
                self._seen = 0
            changed = self.model.version != before or self.sim.version != self._sim_version
            self._sim_version = self.sim.version
        if changed:
            self.on_change()

    def state(self):
        with self.sim.lock:
            state = super().state()
            sim = self.sim
            state.update({"pieces": list(sim.pieces), "hand": sim.hand, "hand_from": sim.hand_square(),
                          "dests": sim.destinations(), "tray": list(sim.tray), "spares": list(sim.spares),
                          "now": sim.now, "speed": self.speed, "buttons": list(sim.hw.button_names),
                          "hands_play_computer": self.hands_play_computer})
            if sim.hw.display is not None:       # the simulated panel (static/display.js draws it)
                state.update(sim.display_state())
            return state

    def act(self, action, fields, by=PERSON):
        if action == "lichess":            # network calls (and their waits) must not hold the simulator
            return super().act(action, fields, by)
        sim = self.sim
        try:
            with sim.lock:
                if action == "lift":
                    sim.lift(_text(fields, "square"))
                    self._touch()
                elif action == "place":
                    piece = fields.get("piece")
                    sim.place(_text(fields, "square"), None if piece is None else _text(fields, "piece"))
                    self._touch()
                elif action == "tray":
                    sim.to_tray()
                elif action == "move":
                    uci = _text(fields, "uci")
                    self._with_hands(lambda: sim.play(uci))
                elif action == "fill":
                    square = _text(fields, "square")
                    self._with_hands(lambda: sim.fill(square))
                elif action == "hands":
                    computer = fields.get("computer")
                    if not isinstance(computer, bool):
                        raise ActionError("'computer' must be true or false")
                    self.hands_play_computer = computer
                    sim.version += 1
                elif action == "press":
                    sim.press(_text(fields, "button"))
                elif action == "new":
                    self.new_game(fields, by)
                elif action == "clock":
                    self._clock(fields)
                else:
                    _protocol_action(self, action, fields, by)
                    sim.wait(20)           # the firmware reads the line and answers
        except SimError as e:
            raise ActionError(str(e))
        except ValueError as e:
            raise ActionError(str(e))
        self._pump()
        self.on_change()

    def train(self, fields):
        """A drill on the simulator: the hands set its position up as soon as the board has it, as
        for a new game."""
        super().train(fields)
        if fields.get("mode") == "stop":
            return
        with self.sim.lock:
            for _ in range(100):               # the board reads the drill's lines, then sets it up
                if not self.sim.hw.serial.unread():
                    break
                self.sim.wait(20)
            self.sim.wait(40)
            self.sim.set_up()
            self._pump()

    def new_game(self, fields, by=PERSON):
        """A new game on the simulator: the protocol's ``new``, as on a real board (its options
        stay: it once restarted the simulated board and lost a clock just set), the simulated
        hands setting the new game's pieces up (whoever asked, ``by``: the simulator takes it directly)."""
        cmd = _new_command(fields)
        try:
            self.sim.new_game(cmd.get("fen"), cmd.get("profile"), cmd.get("variant"), cmd.get("seed"),
                              cmd.get("position"))
        except SimError as e:
            raise ActionError(str(e))

    def _clock(self, fields):
        if "speed" in fields:
            speed = fields["speed"]
            if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0 <= speed <= 4:
                raise ActionError("'speed' must be a number from 0 (step mode) to 4")
            self.speed = float(speed)
            self.sim.version += 1
        if "advance" in fields:
            ms = fields["advance"]
            if isinstance(ms, bool) or not isinstance(ms, int) or not 0 < ms <= 60000:
                raise ActionError("'advance' must be whole milliseconds from 1 to 60000")
            self.sim.wait(ms)
            self._answer_requests()
            self.sim.version += 1

    def _answer_requests(self, most=20):
        """Step mode: time moves only on request, so let the firmware answer the page's own
        requests (status after a move) before the step ends: a few more loop passes."""
        for _ in range(most):
            self._pump()
            if not self.model.busy():
                return
            self.sim.wait(5)


# -- a real board over USB serial -----------------------------------------------------------

def find_boards():
    """The serial ports of the Picos plugged in (by USB vendor id)."""
    return [device for device, _serial in find_picos()]


def find_picos():
    """[(serial port, USB serial number)] of the Picos plugged in, by port name. The serial number
    is the Pico's own (its flash chip's id): a club knows a board by it whatever port it gets."""
    from serial.tools import list_ports
    return sorted((p.device, getattr(p, "serial_number", None)) for p in list_ports.comports() if p.vid == PICO_VID)


def new_picos(boards):
    """A SerialBoard for each Pico plugged in that none of ``boards`` is (by USB serial number): a
    club's boards plugged in after it started."""
    known = set(getattr(b, "serial_number", None) for b in boards)
    return [SerialBoard(serial_number=number) for _port, number in find_picos() if number and number not in known]


def pick_port(serial_number=None):
    """The one board plugged in (or the one with that USB serial number), or ActionError saying why
    there is none to pick."""
    if serial_number is not None:
        for device, number in find_picos():
            if number == serial_number:
                return device
        raise ActionError("board %s is not plugged in: waiting for it" % serial_number)
    ports = find_boards()
    if not ports:
        raise ActionError("no board found: plug the Pico in by USB (or give its port: make connect PORT=/dev/ttyACM0)")
    if len(ports) > 1:
        raise ActionError("%d boards found (%s): say which, e.g. make connect PORT=%s"
                          % (len(ports), ", ".join(ports), ports[0]))
    return ports[0]


class SerialBoard(Board):
    """A Pico on a serial port (``port`` None: the one plugged in, or the one with the USB serial
    number ``serial_number``: a club's board, whatever port it comes back on), reopened whenever it
    comes back."""

    kind = "serial"

    def __init__(self, port=None, retry=(0.2, 2.0), read_timeout=0.05, serial_number=None):
        super().__init__()
        self.port = port
        self.serial_number = serial_number
        self.retry = retry               # backoff: first and longest wait between attempts (s)
        self.read_timeout = read_timeout
        self._serial = None
        self._write_lock = threading.Lock()
        self._problem = "connecting…"
        self._thread = threading.Thread(target=self._run, name="serial-board", daemon=True)

    def connected(self):
        return self._serial is not None

    def problem(self):
        return self._problem

    def _write(self, line):
        ser = self._serial
        if ser is None:
            raise ActionError("the board is not connected: %s" % self._problem)
        data = (line + "\n").encode("ascii", "replace")
        with self._write_lock:
            try:
                ser.write(data)
            except Exception as e:       # pyserial raises SerialException, OSError or its timeout
                raise ActionError("the board did not take the line: %s" % e)

    def _set_problem(self, text):
        if text != self._problem:
            self._problem = text
            self.on_change()

    def _run(self):
        import serial
        delay = self.retry[0]
        while not self._stopped.is_set():
            try:
                port = self.port or pick_port(self.serial_number)
                ser = serial.Serial(port, 115200, timeout=self.read_timeout, write_timeout=1)
            except (ActionError, serial.SerialException, OSError, ValueError) as e:
                self._set_problem(str(e))
                self._stopped.wait(delay)
                delay = min(delay * 2, self.retry[1])
                continue
            delay = self.retry[0]
            try:
                self._session(ser, port)
            except (serial.SerialException, OSError, TypeError) as e:
                self._set_problem("the board went away (%s): waiting for it" % (str(e) or type(e).__name__))
            finally:
                self._serial = None
                try:
                    ser.close()
                except Exception:
                    pass
                self.on_change()

    def _session(self, ser, port):
        """One connection: shake hands, then read lines until the port fails."""
        self.model.reset()
        ser.reset_input_buffer()
        self._serial = ser
        self._problem = None
        with self._write_lock:
            ser.write(b"\n")             # end any half line a previous host left
        self.model.connected()
        self.on_change()
        pending = b""
        while not self._stopped.is_set():
            data = ser.read(4096)
            if not data:
                continue
            pending += data
            *lines, pending = pending.split(b"\n")
            if len(pending) > 4 * MAX_LINE:
                pending = b""              # no board writes such a line: noise
            before = self.model.version
            for raw in lines:
                self.model.feed(raw.decode("utf-8", "replace"))
            if self.model.version != before:
                self.on_change()
        raise OSError("stopped")
