"""A club night: many boards on one host, a tournament played on them, every game on the live feed.

The club follows each board as its page does (companion/boards.py: the board's protocol lines,
read by its model) and adds what only the host of many boards knows: which pairing a board's game
is. By duty:

  club.py        the club: its boards and its thread, the arbiter's actions, a pairing delivered
                 to its board (as the club's commands), the news the page and the broadcast wait on
  records.py     each game's record, the pairing's bound to its board's game; the live feed's PGN
  tournament.py  the pairings (caissify-pairings), results, standings
  rating.py      the ladder: ratings in, results out
  files.py       the club's folder, written aside and renamed (at most twice a second)
  board_rows.py  the club page's table of boards
  broadcast.py   the rounds pushed to a Lichess broadcast
"""

import os
import threading
import time

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from host_tools.club import rating
from host_tools.club.board_rows import BoardRows
from host_tools.club.files import ClubFiles, default_folder, write
from host_tools.club.records import Records, key as _key, pairing_tags
from host_tools.club.tournament import Tournament
from host_tools.companion.boards import ActionError
from host_tools.companion.players import host_date, time_control
from scacchiera.time_control import parse_control

__all__ = ["Club", "ClubError", "default_folder"]

PING_SECONDS = 2.0        # a board not heard from this long is asked for its status
SAVE_SECONDS = 0.5        # the club's files are written at most this often


class ClubError(ValueError):
    """A club action that cannot be done (the message says why, for the club page)."""


class Club:
    """``boards``: the companion's boards (boards.Board), board 1 first. ``folder``: the club's files.
    ``ladder_path``: the ladder the tournament's players come from and its results go to."""

    def __init__(self, boards, folder, ladder_path=None, find_new=None):
        self.boards = list(boards)
        self.find_new = find_new  # function(boards) -> boards plugged in since (serial ports), or None
        self.folder = folder
        self.files = ClubFiles(folder)
        self.ladder_path = ladder_path
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)    # the feed moved on (the broadcast waits on it)
        self.version = 0
        self.tournament, records, bound = self.files.load()
        self.games = Records(records, bound)
        # round number -> self.version when its games last changed (the broadcast pushes what moved on)
        self.round_versions = dict((r["number"], 0) for r in self.tournament.rounds) if self.tournament else {}
        self.said = None          # the club's last news, a line (static/sentences.js): a result recorded in the ladder, ...
        self.broadcast = None     # broadcast.Broadcast, when the club pushes to Lichess
        self.broadcast_options = {}        # its Lichess: base_url, token_path (the command line's)
        self.on_change = lambda: None      # the club page's wake-up (the server sets it)
        self.on_board_added = lambda index: None   # a board plugged in later: the server serves its page
        self._dirty = set()       # what to write: "tournament", "records", or a round number
        self._outbox = []         # [(board number, [(action, fields)])]: pairings to send (_deliver)
        self._acting = threading.Lock()    # one arbiter's action at a time
        self._rows = BoardRows()
        self._refusals_said = {}  # board index -> how many of the club's commands it had refused, said
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club", daemon=True)
        for board in self.boards:
            board.tagged_by_club = True

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
            self.said = {"key": "club_plugged", "board": index + 1}
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
                self.said = {"key": "club_refused", "board": index + 1, "command": refused[1]["re"],
                             "why": refused[1]["message"] or refused[1]["error"]}
        if status is not None:
            with self.lock:
                what, said, finished = self.games.follow(self.tournament, index + 1, status, headers, start)
                if said:
                    self.said = said
                if finished:
                    self._rate(*finished)
                if self.games.follow_casual(index + 1, status, headers, start, getattr(board.players, "given", None)):
                    what.add("casual")
                if what:
                    self._changed(what)
        self.on_change()

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
        tags = dict(pairing_tags(t, rnd, g), Site=t.site or None, Date=rnd.get("date"),
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
                problems.append([number, str(e)])
        if problems:
            with self.lock:
                self.said = {"key": "club_not_taken", "boards": problems}

    def _send_round(self, rnd):
        """(with the lock) Every game of ``rnd`` to its board."""
        rnd["date"] = host_date()
        self.games.new_round(rnd)
        for g in rnd["games"]:
            self._send_pairing(rnd, g)
        self._changed({rnd["number"]})
        self.said = {"key": "club_round_sent", "round": rnd["number"]}

    # -- the ladder ------------------------------------------------------------------------

    def _rate(self, rnd, g):
        """(with the lock) A result into the ladder as a rated game (a corrected one replaces it)."""
        if self.ladder_path is not None:
            where = {"tournament": self.tournament.name, "round": rnd["number"], "board": g["board"]}
            said = rating.rate(self.ladder_path, g, self.games.game_pgn(self.tournament, rnd, g), where)
            if said:
                self.said = said

    # -- the feed --------------------------------------------------------------------------

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
            return self.games.casual_games()

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
            return self.games.round_games(t, number, self.round_versions.get(number, 0))

    # -- what the club page shows -----------------------------------------------------------

    def state(self):
        boards = self._rows.rows(self.boards)
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
                                      if _key(t.current(), g) in self.games.bound)}
            return out

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
            if _key(rnd, g) in self.games.bound:
                raise ClubError("board %d plays its game already" % g["board"])
            self._send_pairing(rnd, g, self.games.start_again(rnd, g))   # on where the record has it
        elif action == "result":
            number, board = _whole(fields, "round"), _whole(fields, "board")
            result = fields.get("result") or None
            g = t.game(number, board)
            if t.set_result(number, board, result, by="arbiter"):
                self._rate(t.rounds[number - 1], g)
                self._changed({number})
            return {"key": "club_arbiter", "round": number, "board": board, "result": result}
        elif action == "move":
            return self._move(_whole(fields, "board"), _whole(fields, "to"))
        elif action == "withdraw":
            t.withdraw(fields.get("name"))
            return {"key": "club_withdrew", "name": fields.get("name")}
        else:
            raise ClubError("no such action: %s" % action)
        return None

    def _create(self, fields):
        if self.tournament is not None and not self.tournament.finished() and not fields.get("replace"):
            raise ClubError("%s is not over: say replace to start another" % self.tournament.name)
        names = fields.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ClubError("'players' is a list of the ladder's names")
        try:
            ratings = rating.ratings(self.ladder_path, names, bool(fields.get("new_players")))
        except ValueError as e:
            raise ClubError(str(e))
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
        self.tournament, self.games, self.round_versions = t, Records(), {}
        return {"key": "club_made", "name": t.name, "players": len(t.players), "rounds": t.planned, "system": t.system}

    def _move(self, number, to):
        """The current round's game on board ``number`` goes to board ``to`` (a board broke): the
        new board starts from the position it stood in, its moves carried over in the feed."""
        t = self.tournament
        rnd = t.current()
        g = t.game(rnd["number"], number)
        if g["result"] is not None:
            raise ClubError("board %d's game is over: nothing to move" % number)
        other = next((o for o in rnd["games"] if o["board"] == to), None)
        if other is not None and _key(rnd, other) in self.games.bound and other["result"] is None:
            raise ClubError("board %d plays a game of its own" % to)
        t.move_board(rnd["number"], number, to)
        moved = [g] + ([other] if other is not None else [])
        for game in moved:
            self._send_pairing(rnd, game, self.games.start_again(rnd, game))
        self._changed({rnd["number"]})
        return {"key": "club_moved", "board": number, "to": to}

    def _broadcast(self, fields):
        if self.broadcast is None:
            self._new_broadcast()
            self.broadcast.start()
        return self.broadcast.act(fields)

    def _new_broadcast(self):
        from host_tools.club.broadcast import Broadcast
        self.broadcast = Broadcast(self, **self.broadcast_options)

    # -- kept on disk ----------------------------------------------------------------------

    def _save(self):
        with self.lock:
            dirty, self._dirty = self._dirty, set()
            if not dirty or self.tournament is None:
                return
            texts = self.files.texts(dirty, self.tournament, self.games.records, self.games.bound, self.round_pgn)
        for path, text in texts:
            write(path, text)


def _whole(fields, key):
    value = fields.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClubError("%r must be a whole number" % key)
    return value
