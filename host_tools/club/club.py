"""A club night: many boards on one host, a tournament played on them, every game on the live feed.

The club follows each board as its page does (companion/boards.py: the board's protocol lines,
read by its model) and adds what only the host of many boards knows: which pairing a board's game
is. A pairing goes to its board as a new game with the club's PGN tags (Event, Round, Board, the
players); the board's game is the pairing's once the board's own PGN carries those tags, and from
then on every ``status`` the board sends brings the pairing's record up to date (feed.follow). The
record is the club's, not the board's: a board that reboots resumes its game (its journal) and the
record goes on; a board unplugged leaves the record as it stood; a game moved to another board
carries its moves over.

Files, in the club's folder (written aside and renamed, at most twice a second): tournament.json
(the pairings and results), records.json (the games as the feed has them), standings.txt,
crosstable.txt and round-N.pgn.
"""

import json
import os
import threading
import time

import chess

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from host_tools.club import feed
from host_tools.club.tournament import Tournament
from host_tools.companion.boards import ActionError
from host_tools.companion.players import host_date, time_control
from scacchiera.game.clocks import parse_control

PING_SECONDS = 2.0        # a board not heard from this long is asked for its status
QUIET_SECONDS = 6.0       # and one silent this long (connected) shows as quiet on the club page
SAVE_SECONDS = 0.5        # the club's files are written at most this often


class ClubError(ValueError):
    """A club action that cannot be done (the message says why, for the club page)."""


def default_folder():
    """The club's files in the user's data folder (platformdirs: ~/.local/share/scacchiera/club)."""
    import platformdirs
    return os.path.join(platformdirs.user_data_dir("scacchiera", appauthor=False), "club")


def _key(rnd, g):
    """A pairing's record key: the round and the players (a game keeps it when it changes boards)."""
    return "%d:%d-%d" % (rnd["number"], g["white"], g["black"])


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Club:
    """``boards``: the companion's boards (boards.Board), board 1 first. ``folder``: the club's files.
    ``ladder_path``: the ladder the tournament's players come from and its results go to."""

    def __init__(self, boards, folder, ladder_path=None, find_new=None):
        self.boards = list(boards)
        self.find_new = find_new  # function(boards) -> boards plugged in since (serial ports), or None
        self.folder = folder
        self.ladder_path = ladder_path
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)    # the feed moved on (the broadcast waits on it)
        self.version = 0
        self.tournament = None
        self.records = {}         # _key -> feed record
        self.bound = {}           # _key -> the board's game number that is the pairing's game
        self.round_versions = {}  # round number -> self.version when its games last changed
        self.said = None          # the club's last news (a result recorded in the ladder, or why not)
        self.broadcast = None     # broadcast.Broadcast, when the club pushes to Lichess
        self.broadcast_options = {}        # its Lichess: base_url, token_path (the command line's)
        self.on_change = lambda: None      # the club page's wake-up (the server sets it)
        self.on_board_added = lambda index: None   # a board plugged in later: the server serves its page
        self._dirty = set()       # what to write: "tournament", "records", or a round number
        self._outbox = []         # [(board number, [(action, fields)])]: pairings to send (_deliver)
        self._acting = threading.Lock()    # one arbiter's action at a time
        self._cache = {}          # round number -> (version, PGN text)
        self._sans = {}           # board index -> ((start, ply, last UCI), its SAN): the page's Last column
        self._refusals_said = {}  # board index -> how many of the club's commands it had refused, said
        self.casual = {}          # board number -> [game number, record, start FEN, tags]: casual_games
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club", daemon=True)
        for board in self.boards:
            board.tagged_by_club = True
        os.makedirs(folder, exist_ok=True)
        self._load()

    # -- running ---------------------------------------------------------------------------

    def start(self):
        """The club's thread; and the broadcast, if the club's folder says it was pushing (a
        restarted host goes on with it)."""
        from host_tools.club.broadcast import STATE_FILE
        if self.broadcast is None and os.path.exists(os.path.join(self.folder, STATE_FILE)):
            self._new_broadcast()
        self._thread.start()
        if self.broadcast is not None:
            self.broadcast.start()

    def stop(self):
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(5)
        if self.broadcast is not None:
            self.broadcast.stop()
        self._save()

    def _run(self):
        """Writes the club's files when something changed; asks a silent board how it is; adds a
        board plugged in meanwhile (every PING_SECONDS)."""
        looked = time.monotonic()
        while not self._stopped.wait(SAVE_SECONDS):
            self._save()
            now = time.monotonic()
            if self.find_new is not None and now - looked > PING_SECONDS:
                looked = now
                for board in self.find_new(list(self.boards)):
                    self.add_board(board)
            for board in self.boards:
                heard = board.model.view().heard
                if board.connected() and (heard is None or now - heard > PING_SECONDS):
                    try:
                        board.model.ping()
                    except ActionError:
                        pass              # it went away meanwhile: the board's own thread says so

    def add_board(self, board):
        """One more board (plugged in after the start): the next number, its page served."""
        with self.lock:
            board.tagged_by_club = True
            self.boards.append(board)
            index = len(self.boards) - 1
            self.said = "board %d plugged in" % (index + 1)
            if self.tournament is not None:
                self.tournament.boards = len(self.boards)
        self.on_board_added(index)
        self.on_change()

    def _changed(self, what):
        """(with the lock) the feed or the tournament moved on."""
        self.version += 1
        self._dirty.update(what)
        for item in what:
            if isinstance(item, int):
                self.round_versions[item] = self.version
        self.changed.notify_all()

    # -- the boards' games -----------------------------------------------------------------

    def board_changed(self, index):
        """(from board ``index``'s thread) its model changed: its pairing's record follows it."""
        board = self.boards[index]
        view = board.model.view()
        status, headers, start = view.status, view.headers, view.start
        refused = view.refused.get("club")
        if refused is not None and refused[0] != self._refusals_said.get(index):
            self._refusals_said[index] = refused[0]
            with self.lock:
                self.said = "board %d refused the club's %s: %s" % (
                    index + 1, refused[1]["re"], refused[1]["message"] or refused[1]["error"])
        if status is not None:
            with self.lock:
                self._follow(index + 1, status, headers, start)
                self._follow_casual(index + 1, status, headers, start, getattr(board.players, "given", None))
        self.on_change()

    def _follow_casual(self, number, status, headers, start, given=None):
        """(with the lock) Every board's current game, as the feed has it while no round is played
        (a club evening of casual games, a simul, a lesson: ``casual_games``). The players are the
        board's Players panel's (``given``), else its game's tags."""
        game = status.get("game")
        entry = self.casual.get(number)
        if entry is None or entry[0] != game or (start and entry[2] != start[1]):
            entry = self.casual[number] = [game, feed.new_record(start[1] if start else None),
                                           start[1] if start else None, {}]
        names = dict(White=(given or {}).get("white") or (headers or {}).get("White") or "?",
                     Black=(given or {}).get("black") or (headers or {}).get("Black") or "?")
        if names != {k: entry[3].get(k) for k in names}:
            self._changed({"casual"})
        entry[3] = dict(names, TimeControl=time_control(status.get("options")))
        if feed.follow(entry[1], status):
            self._changed({"casual"})

    def _follow(self, number, status, headers, start):
        t = self.tournament
        rnd = t.current() if t is not None else None
        g = next((g for g in rnd["games"] if g["board"] == number), None) if rnd else None
        if g is None:
            return
        key = _key(rnd, g)
        record = self.records.setdefault(key, feed.new_record())
        if key not in self.bound:
            wanted = self._tags(rnd, g)
            if not headers or not start or start[0] != status.get("game") or \
                    any(headers.get(name) != value for name, value in wanted.items()):
                return                     # the board has not started this pairing's game yet
            self.bound[key] = status.get("game")
            self._dirty.add("records")
        if status.get("game") != self.bound[key]:
            return                         # a game started on the board by hand: not the pairing's
        moves = record.get("prefix", []) + list(status.get("moves") or ())
        if not headers or not start or start[0] != status.get("game"):
            return                         # the game's tags not read yet: what it is, is not known
        if any(headers.get(name) != value for name, value in self._tags(rnd, g).items()):
            # Not the pairing's game any more, though its number is (a board that came back fresh: a
            # simulated board after a host's restart, one swapped): the record keeps every move, the
            # arbiter's "send again" starts the board where the game stood.
            self.bound.pop(key)
            self.said = ("board %d shows another game than its pairing's (%d plies, %d recorded): send it "
                         "again to set it up where it stood" % (number, len(moves), len(record["moves"])))
            self._changed({"records"})
            return
        if not feed.follow(record, dict(status, moves=moves)):
            return
        what = {rnd["number"], "records"}
        if record["result"] != "*" and g["result"] is None and t.set_result(rnd["number"], number, record["result"]):
            self._rate(rnd, g)
            what.add("tournament")
        self._changed(what)

    def _tags(self, rnd, g):
        """The PGN tags a pairing's game has on its board (the club's, so the club can tell it)."""
        t = self.tournament
        return {"Event": t.name, "Round": str(rnd["number"]), "Board": str(g["board"]),
                "White": t.name_of(g["white"]), "Black": t.name_of(g["black"])}

    def _send_pairing(self, rnd, g, fen=None):
        """(with the lock) Queue what starts the pairing's game on its board: the players, a new game
        (from ``fen``: a game moved from another board), the clock, no assistance and no takebacks
        (FIDE: a move made stands), the club's tags.
        ``act`` sends the queue once the lock is let go (a board's thread may be waiting for it)."""
        t = self.tournament
        fields = {"opponent": "person", "colour": "white", "clock": t.clock}
        if fen:
            fields["fen"] = fen
        actions = [("players", {"white": t.name_of(g["white"]), "black": t.name_of(g["black"]), "site": t.site,
                                "rated": False}), ("start", fields)]
        actions += [("option", {"name": name, "value": False}) for name in ("hints", "suggest", "takeback")]
        tags = dict(self._tags(rnd, g), Site=t.site or None, Date=rnd.get("date"),
                    WhiteElo=str(t.players[g["white"] - 1]["rating"]),
                    BlackElo=str(t.players[g["black"] - 1]["rating"]),
                    TimeControl=time_control({"clock": t.clock}))
        actions += [("tag", {"name": name, "value": value}) for name, value in tags.items()]
        self._outbox.append((g["board"], actions))

    def _deliver(self):
        """(without the lock) Send the queued pairings to their boards: what a board refused, said."""
        with self.lock:
            outbox, self._outbox = self._outbox, []
        problems = []
        for number, actions in outbox:
            try:
                for action, fields in actions:
                    self.boards[number - 1].act(action, fields, by="club")
            except ActionError as e:
                problems.append("board %d did not take its game (%s): send it again when it is back" % (number, e))
        if problems:
            with self.lock:
                self.said = "; ".join(problems)

    def _send_round(self, rnd):
        """(with the lock) Every game of ``rnd`` to its board."""
        rnd["date"] = host_date()
        for g in rnd["games"]:
            self.bound.pop(_key(rnd, g), None)
            self.records[_key(rnd, g)] = feed.new_record()
            self._send_pairing(rnd, g)
        self._changed({rnd["number"]})
        self.said = "round %d sent to the boards" % rnd["number"]

    # -- the ladder ------------------------------------------------------------------------

    def _rate(self, rnd, g):
        """A result into the ladder as a rated game (a corrected one replaces the game recorded)."""
        if self.ladder_path is None:
            return
        from host_tools.ladder.db import LadderError
        from host_tools.ladder.ladder import Ladder
        where = "%s round %d board %d" % (self.tournament.name, rnd["number"], g["board"])
        try:
            with Ladder(self.ladder_path) as ladder:
                if g.get("ladder"):
                    ladder.delete_game(g["ladder"])
                    g["ladder"] = None
                if g["result"] is None:
                    return
                report = ladder.import_text(self.game_pgn(rnd, g), where, new_players=True)
            if report.added:
                g["ladder"] = report.added[0][1]
            self.said = "%s: %s" % (where, report.said("%s recorded in the ladder" % g["result"]))
        except LadderError as e:
            self.said = "%s: not recorded in the ladder: %s" % (where, e)

    # -- the feed --------------------------------------------------------------------------

    def game_pgn(self, rnd, g):
        t = self.tournament
        headers = {"Event": t.name, "Site": t.site or "?", "Date": rnd.get("date") or "????.??.??",
                   "Round": str(rnd["number"]), "Board": str(g["board"]), "White": t.name_of(g["white"]),
                   "Black": t.name_of(g["black"]), "WhiteElo": t.players[g["white"] - 1]["rating"],
                   "BlackElo": t.players[g["black"] - 1]["rating"],
                   "TimeControl": time_control({"clock": t.clock})}
        record = self.records.get(_key(rnd, g)) or feed.new_record()
        return feed.game_pgn(headers, record, g["result"])

    def round_pgn(self, number=None):
        """Round ``number``'s games (default: the current round) as one PGN, board 1 first; None if
        there is no such round. With no round played yet (no tournament, or one not paired), the
        current feed is every board's current game (``casual_games``)."""
        games = self.round_games(number)
        if games is None and number is None:
            games = self.casual_games()
        return None if not games else "\n".join(games)

    def casual_games(self):
        """Every board's current game as the feed's PGN, board 1 first, as DGT LiveChess broadcasts
        whatever its boards play: [Board "N"], the board's players, its clock (%clk), the host's date."""
        with self.lock:
            games = []
            for number in sorted(self.casual):
                game, record, fen, tags = self.casual[number]
                headers = dict({"Event": "Casual games", "Site": "?", "Date": host_date(), "Round": "-",
                                "Board": str(number)}, **tags)
                games.append(feed.game_pgn(headers, record))
            return games

    def round_games(self, number=None):
        """Round ``number``'s games' PGN texts (default: the current round), board 1 first; None if
        there is no such round."""
        with self.lock:
            t = self.tournament
            if t is None or not t.rounds:
                return None
            number = len(t.rounds) if number is None else number
            if not 1 <= number <= len(t.rounds):
                return None
            version = self.round_versions.get(number, 0)
            cached = self._cache.get(number)
            if cached and cached[0] == version:
                return cached[1]
            rnd = t.rounds[number - 1]
            games = [self.game_pgn(rnd, g) for g in sorted(rnd["games"], key=lambda g: g["board"])]
            self._cache[number] = (version, games)
            return games

    # -- what the club page shows -----------------------------------------------------------

    def state(self):
        now = time.monotonic()
        boards = []
        for i, board in enumerate(self.boards):
            view = board.model.view()
            status, headers, clock, heard, start = view.status or {}, view.headers or {}, view.clock, view.heard, view.start
            moves = status.get("moves") or []
            connected = board.connected()
            boards.append({"board": i + 1, "kind": board.kind, "connected": connected, "problem": board.problem(),
                           "quiet": bool(connected and heard is not None and now - heard > QUIET_SECONDS),
                           "white": headers.get("White"), "black": headers.get("Black"),
                           "ply": len(moves), "last": self._last_san(i, start, moves), "clock": clock,
                           "result": status.get("result")})
        with self.lock:
            t = self.tournament
            out = {"boards": boards, "said": self.said, "tournament": None,
                   "broadcast": self.broadcast.describe() if self.broadcast is not None else None}
            if t is not None:
                out["tournament"] = {
                    "name": t.name, "system": t.system, "planned": t.planned, "clock": t.clock, "site": t.site,
                    "players": t.players, "rounds": t.rounds, "standings": t.standings(),
                    "crosstable": t.crosstable(), "finished": t.finished(),
                    "round_done": t.round_done(t.current()) if t.rounds else True,
                    "started": sorted(g["board"] for g in (t.current() or {"games": ()})["games"]
                                      if _key(t.current(), g) in self.bound)}
            return out

    def _last_san(self, index, start, moves):
        """The last move of board ``index``'s game in SAN (python-chess, as the page writes moves
        everywhere else), kept per board until its moves change; UCI for Scacchi Sprint."""
        if not moves:
            return None
        key = (start, len(moves), moves[-1])
        cached = self._sans.get(index)
        if cached is not None and cached[0] == key:
            return cached[1]
        san = moves[-1]
        if start is not None and not start[2]:
            try:
                game = chess.Board(start[1] or chess.STARTING_FEN, chess960=bool(start[4]))
                for uci in moves[:-1]:
                    game.push_uci(uci)
                san = "%d%s %s" % (game.fullmove_number, "." if game.turn == chess.WHITE else "…",
                                   game.san(chess.Move.from_uci(moves[-1])))
            except ValueError:
                san = moves[-1]            # (a game the board knows and python-chess does not: its UCI)
        self._sans[index] = (key, san)
        return san

    # -- the arbiter's actions (the club page) ----------------------------------------------

    def act(self, action, fields):
        """One action of the arbiter's, whole: the club's lock is held while the tournament changes,
        never while a board is spoken to (its own thread may be waiting for the lock)."""
        with self._acting:
            paired = None
            if action in ("pair", "repair") and self.tournament is not None:
                try:                               # the library's matching, without the lock: the boards go on
                    paired = self.tournament.next_round() if action == "pair" else self.tournament.repaired()
                except ValueError as e:
                    raise ClubError(str(e))
            with self.lock:
                try:
                    said = self._act(action, fields, paired)
                except ValueError as e:          # TournamentError, ClubError, the broadcast's
                    self._outbox = []
                    raise ClubError(str(e))
                if said:
                    self.said = said
                self._changed({"tournament", "records"})     # and the round it touched: its own branch
            self._deliver()
        self.on_change()

    def _act(self, action, fields, paired=None):
        t = self.tournament
        if action == "tournament":
            return self._create(fields)
        if action == "broadcast":
            return self._broadcast(fields)
        if t is None:
            raise ClubError("no tournament yet: make one first")
        if action == "pair":
            self._send_round(t.pair_next(paired))
        elif action == "repair":
            self._send_round(t.repair(paired))
        elif action == "resend":
            rnd = t.current()
            g = t.game(rnd["number"] if rnd else 0, _whole(fields, "board"))
            if _key(rnd, g) in self.bound:
                raise ClubError("board %d plays its game already" % g["board"])
            record = self.records.get(_key(rnd, g))
            if record and record["moves"]:             # the game goes on where the record has it
                record["prefix"] = list(record["moves"])
                self._send_pairing(rnd, g, feed.position_after(record))
            else:
                self._send_pairing(rnd, g)
        elif action == "result":
            number, board = _whole(fields, "round"), _whole(fields, "board")
            result = fields.get("result") or None
            g = t.game(number, board)
            if t.set_result(number, board, result, by="arbiter"):
                self._rate(t.rounds[number - 1], g)
                self._changed({number})
            return "round %d board %d: %s (the arbiter's)" % (number, board, result or "no result")
        elif action == "move":
            return self._move(_whole(fields, "board"), _whole(fields, "to"))
        elif action == "withdraw":
            t.withdraw(fields.get("name"))
            return "%s withdrew: paired no more" % fields.get("name")
        else:
            raise ClubError("no such action: %s" % action)
        return None

    def _create(self, fields):
        if self.tournament is not None and not self.tournament.finished() and not fields.get("replace"):
            raise ClubError("%s is not over: say replace to start another" % self.tournament.name)
        names = fields.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ClubError("'players' is a list of the ladder's names")
        ratings = self._ratings(names, bool(fields.get("new_players")))
        if any("|" in n for n in names):
            raise ClubError("a name with '|' cannot be a PGN tag on the board: rename the player")
        rounds = fields.get("rounds")
        clock = fields.get("clock") or "off"
        if not isinstance(clock, str) or len(clock) > 12:
            raise ClubError("'clock' is off or minutes+seconds (15+10)")
        if clock != "off":
            parse_control(clock)           # the board's own check (ValueError in its words)
        t = Tournament(fields.get("name") or "", [(n, ratings[n]) for n in names], fields.get("system", "swiss"),
                       rounds, len(self.boards), clock, fields.get("site") or "")
        self.tournament, self.records, self.bound, self.round_versions = t, {}, {}, {}
        self._cache = {}
        return "%s: %d players, %d rounds (%s)" % (t.name, len(t.players), t.planned, t.system)

    def _ratings(self, names, add_new):
        """The players' ladder ratings (new names added from 1000 with ``add_new``)."""
        from host_tools.ladder.db import LadderError
        from host_tools.ladder.ladder import Ladder
        try:
            with Ladder(self.ladder_path) as ladder:
                if add_new:
                    ladder.add_players(n.strip() for n in names)
                known = dict((p["name"], p["elo"]) for p in ladder.players())
        except LadderError as e:
            raise ClubError(str(e))
        missing = [n for n in names if n not in known]
        if missing:
            raise ClubError("not in the ladder: %s (add them, or tick new players)" % ", ".join(missing))
        return known

    def _move(self, number, to):
        """The current round's game on board ``number`` goes to board ``to`` (a board broke): the
        new board starts from the position it stood in, its moves carried over in the feed."""
        t = self.tournament
        rnd = t.current()
        g = t.game(rnd["number"], number)
        if g["result"] is not None:
            raise ClubError("board %d's game is over: nothing to move" % number)
        other = next((o for o in rnd["games"] if o["board"] == to), None)
        if other is not None and _key(rnd, other) in self.bound and other["result"] is None:
            raise ClubError("board %d plays a game of its own" % to)
        t.move_board(rnd["number"], number, to)
        moved = [g] + ([other] if other is not None else [])
        for game in moved:
            key = _key(rnd, game)
            record = self.records.setdefault(key, feed.new_record())
            record["prefix"] = list(record["moves"])
            self.bound.pop(key, None)
            self._send_pairing(rnd, game, feed.position_after(record))
        self._changed({rnd["number"]})
        return "board %d's game moved to board %d" % (number, to)

    def _broadcast(self, fields):
        if self.broadcast is None:
            self._new_broadcast()
            self.broadcast.start()
        return self.broadcast.act(fields)

    def _new_broadcast(self):
        from host_tools.club.broadcast import Broadcast
        self.broadcast = Broadcast(self, **self.broadcast_options)

    # -- kept on disk ----------------------------------------------------------------------

    def _paths(self):
        return dict((name, os.path.join(self.folder, name)) for name in
                    ("tournament.json", "records.json", "standings.txt", "crosstable.txt"))

    def _load(self):
        paths = self._paths()
        if not os.path.exists(paths["tournament.json"]):
            return
        self.tournament = Tournament.load(paths["tournament.json"])
        if os.path.exists(paths["records.json"]):
            with open(paths["records.json"], encoding="utf-8") as f:
                data = json.load(f)
            self.records, self.bound = data["records"], data["bound"]
        self.round_versions = dict((r["number"], 0) for r in self.tournament.rounds)

    def _save(self):
        with self.lock:
            dirty, self._dirty = self._dirty, set()
            t = self.tournament
            if not dirty or t is None:
                return
            paths = self._paths()
            writes = []
            if "tournament" in dirty:
                writes += [(paths["tournament.json"], json.dumps(t.to_json(), ensure_ascii=False, indent=1)),
                           (paths["standings.txt"], t.standings_text()),
                           (paths["crosstable.txt"], t.crosstable_text())]
            if "records" in dirty:
                writes.append((paths["records.json"], json.dumps({"records": self.records, "bound": self.bound})))
            for number in sorted(n for n in dirty if isinstance(n, int)):
                text = self.round_pgn(number)
                if text is not None:
                    writes.append((os.path.join(self.folder, "round-%d.pgn" % number), text))
        for path, text in writes:
            _write(path, text)


def _whole(fields, key):
    value = fields.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClubError("%r must be a whole number" % key)
    return value
