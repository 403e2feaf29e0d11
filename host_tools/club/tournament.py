"""A club's tournament: its players, its rounds, their results and the standings.

Pairing is caissify-pairings' (pinned in requirements-dev.txt): the FIDE Dutch system for a Swiss
(C.04.3, cross-checked by its authors against bbpPairings, a FIDE-endorsed program, on 70,000
rounds) and FIDE's Berger tables for a round-robin (C.05). The FIDE-endorsed programs themselves
(JaVaFo, bbpPairings) are Java and C++ programs packaged for neither PyPI nor Debian; this library
is plain Python on networkx, and takes the history a Swiss needs (scores, colours, floats, byes)
as data, which this module keeps. Choices the rules leave to the organiser, written down in
docs/club.md: the starting order is by the ladder's rating (then name), a Swiss's bye scores 1 point
(FIDE's pairing-allocated bye; a round-robin's free round scores nothing), and the tie-breaks are Buchholz, then Sonneborn-Berger, then the
starting number.

A tournament is plain data (``to_json``/``from_json``), saved by the club after every change, so a
host that restarts carries on where it stood.
"""

import json
import os
import warnings

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera.storage.journal import printable

SYSTEMS = ("swiss", "round-robin")
RESULTS = ("1-0", "0-1", "1/2-1/2")
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
BYE_POINTS = {"swiss": 1.0, "round-robin": 0.0}
MAX_PLAYERS = 200


class TournamentError(ValueError):
    """A tournament action that cannot be done now (the message says why)."""


def tag_text(text, what, shortest, longest):
    """``text`` trimmed, for a PGN tag on the boards, in the feed and on Lichess; TournamentError in
    words for what none of them can hold: a line break or another control character (a Site with
    line breaks injected games into the feed), '|' (the board's journal), a length out of range."""
    if not isinstance(text, str):
        raise TournamentError("%s is a text" % what)
    text = text.strip()
    if not printable(text) or "\u2028" in text or "\u2029" in text:
        raise TournamentError("%s cannot hold a line break or another control character" % what)
    if "|" in text:
        raise TournamentError("%s cannot hold '|'" % what)
    if not shortest <= len(text) <= longest:
        raise TournamentError("%s is %d to %d characters (this one: %d)" % (what, shortest, longest, len(text)))
    return text


def _points(value):
    """1.5 as "1.5", 2.0 as "2": how a crosstable writes a score."""
    return ("%g" % value) if value != int(value) else "%d" % value


class Tournament:
    """``players``: [(name, rating)], seeded by rating (highest first, then name): starting numbers
    1..n. ``rounds``: how many (a round-robin: n - 1, or n for an odd n; a Swiss: at least 1).
    ``boards``: how many boards the club has (each game of a round is played on one)."""

    def __init__(self, name, players, system="swiss", rounds=None, boards=None, clock="off", site="", saved=False):
        if system not in SYSTEMS:
            raise TournamentError("'system' is %s" % " or ".join(SYSTEMS))
        if not saved:                   # (one saved before these checks is read as it was)
            name = tag_text(name, "a tournament's name", 3, 80)     # Lichess's broadcasts take 3 to 80
            site = tag_text(site, "the site", 0, 60)
        names = [p[0] for p in players]
        if len(set(names)) != len(names):
            raise TournamentError("a player is listed twice")
        if not 2 <= len(players) <= MAX_PLAYERS:
            raise TournamentError("a tournament needs 2 to %d players" % MAX_PLAYERS)
        seeded = sorted(players, key=lambda p: (-p[1], p[0]))
        self.name = name
        self.system = system
        self.site = site
        self.clock = clock
        self.players = [{"id": i + 1, "name": n, "rating": r} for i, (n, r) in enumerate(seeded)]
        full = len(players) - 1 + len(players) % 2
        if rounds is None:
            rounds = full if system == "round-robin" else min(full, max(3, (len(players) - 1).bit_length()))
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= full:
            raise TournamentError("%d players can play 1 to %d rounds" % (len(players), full))
        if system == "round-robin" and rounds != full:
            raise TournamentError("a round-robin of %d players has %d rounds" % (len(players), full))
        self.planned = rounds
        self.boards = boards
        self.rounds = []          # [{"number", "games": [{"board", "white", "black", "result", "by"}], "byes"}]

    # -- the rounds -----------------------------------------------------------------------

    def current(self):
        """The round being played (or the last one played), None before the first."""
        return self.rounds[-1] if self.rounds else None

    def finished(self):
        return len(self.rounds) == self.planned and self.round_done(self.current())

    @staticmethod
    def round_done(rnd):
        return rnd is not None and all(g["result"] is not None for g in rnd["games"])

    def pair_next(self, paired=None):
        """Add the next round (``next_round``'s, or ``paired``: that, already worked out): the new round."""
        self.next_round(check_only=True)
        self.rounds.append(paired or self._paired(len(self.rounds) + 1))
        return self.current()

    def next_round(self, check_only=False):
        """The next round paired, not added yet (every game of the current one must have its result).
        Apart from pair_next, so a caller may pair without holding its lock (seconds for 100 players)."""
        if self.rounds and not self.round_done(self.current()):
            raise TournamentError("round %d is not over: %d games without a result" % (
                len(self.rounds), sum(g["result"] is None for g in self.current()["games"])))
        if len(self.rounds) == self.planned:
            raise TournamentError("all %d rounds are paired" % self.planned)
        return None if check_only else self._paired(len(self.rounds) + 1)

    def repair(self, paired=None):
        """Pair the current round again (a player withdrew or a pairing was wrong): only before any
        of its games has a result. ``paired``: ``repaired()``'s, already worked out."""
        self.repaired(check_only=True)
        self.rounds[-1] = paired or self._paired(self.current()["number"])
        return self.current()

    def repaired(self, check_only=False):
        """The current round paired again, not put in its place yet."""
        rnd = self.current()
        if rnd is None:
            raise TournamentError("no round to pair again")
        if any(g["result"] is not None for g in rnd["games"]):
            raise TournamentError("round %d has results already: correct them instead" % rnd["number"])
        return None if check_only else self._paired(rnd["number"])

    def _paired(self, number):
        from caissify_pairings import generate_pairings
        active = [p for p in self.players if not p.get("withdrawn")]
        if len(active) < 2:
            raise TournamentError("fewer than two players are left")
        inputs = [self._history(p, number) for p in active]
        played = set()
        for rnd in self.rounds[:number - 1]:
            for g in rnd["games"]:
                played.add((g["white"], g["black"]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # (its "multiple forced byes" notice: checked below, in words)
            rows = generate_pairings("dutch" if self.system == "swiss" else "round_robin", inputs, played,
                                     number, self.planned, max_byes_per_player=1)
        games = [{"board": row["table"], "white": row["white_id"], "black": row["black_id"], "result": None,
                  "by": None} for row in rows if not row.get("bye")]
        byes = [row["white_id"] for row in rows if row.get("bye")]
        if self.system == "swiss":
            self._check_swiss(number, games, byes, played, len(active))
        if self.boards is not None and len(games) > self.boards:
            raise TournamentError("round %d has %d games and the club %d boards" % (number, len(games), self.boards))
        for table, g in enumerate(sorted(games, key=lambda g: g["board"])):
            g["board"] = table + 1
        return {"number": number, "games": games, "byes": byes}

    def _check_swiss(self, number, games, byes, played, active):
        """The rules the club promises (docs/club.md), checked on the pairing the library returned:
        no rematch; one pairing-allocated bye with an odd number of players, none with an even one,
        and never twice to a player (FIDE C.04.1 b, d); nobody the same colour three games in a row
        (C.04.1 f), bar the last round's topscorers and their opponents (C.04.3 A.7). TournamentError
        in words when the library's pairing breaks one: the round cannot be paired as promised."""
        name = lambda pid: self.name_of(pid)
        for g in games:
            if (g["white"], g["black"]) in played or (g["black"], g["white"]) in played:
                raise TournamentError("round %d cannot be paired without a rematch (%s - %s): play fewer rounds, "
                                      "or a round-robin" % (number, name(g["white"]), name(g["black"])))
        if len(byes) > active % 2:
            raise TournamentError("round %d cannot be paired without a rematch: it would take %d byes (%s), and "
                                  "FIDE allows one pairing-allocated bye a round, none with an even number of "
                                  "players; play fewer rounds, or a round-robin"
                                  % (number, len(byes), ", ".join(name(b) for b in byes)))
        for b in byes:
            if any(b in rnd["byes"] for rnd in self.rounds[:number - 1]):
                raise TournamentError("round %d would give %s a second bye: FIDE allows one a player"
                                      % (number, name(b)))
        last = number == self.planned
        top = [p["id"] for p in self.players if 2 * self.score(p["id"], number - 1) > number - 1]
        for g in games:
            if last and (g["white"] in top or g["black"] in top):
                continue
            for pid, colour in ((g["white"], "white"), (g["black"], "black")):
                mine = [c for c in self._history(self.player_by_id(pid), number)["color_hist"] if c != "none"]
                if mine[-2:] == [colour, colour]:
                    raise TournamentError("round %d would give %s %s a third game in a row (FIDE C.04.1 f)"
                                          % (number, name(pid), colour))

    def player_by_id(self, pid):
        return self.players[pid - 1]

    def _history(self, player, number):
        """What the pairing engine must know of ``player`` before round ``number`` (its README). Its
        colours are those of the games played: caissify-pairings 0.5.0 counts a bye's "none" when it
        looks for two of a colour in a row, and paired a player white, white, bye, white
        (docs/club.md has the reproduction), so the byes are left out of ``color_hist``."""
        colours, floats, byes = [], [], 0
        for rnd in self.rounds[:number - 1]:
            game = self._game_of(rnd, player["id"])
            if game is None:
                colours.append("none")
                floats.append("down" if player["id"] in rnd["byes"] else "none")
                byes += player["id"] in rnd["byes"]
                continue
            white = game["white"] == player["id"]
            other = game["black"] if white else game["white"]
            colours.append("white" if white else "black")
            mine, theirs = self.score(player["id"], rnd["number"] - 1), self.score(other, rnd["number"] - 1)
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        return {"id": player["id"], "name": player["name"], "rating": player["rating"],
                "score": self.score(player["id"], number - 1),
                "starting_number": player["id"], "color_hist": [c for c in colours if c != "none"],
                "float_history": floats, "bye_count": byes}

    @staticmethod
    def _game_of(rnd, pid):
        for g in rnd["games"]:
            if pid in (g["white"], g["black"]):
                return g
        return None

    def game(self, number, board):
        """Round ``number``'s game on ``board``."""
        if not 1 <= number <= len(self.rounds):
            raise TournamentError("no round %r" % number)
        for g in self.rounds[number - 1]["games"]:
            if g["board"] == board:
                return g
        raise TournamentError("round %d has no game on board %r" % (number, board))

    def set_result(self, number, board, result, by="board"):
        """A game's result: from its board (``by`` "board"), or the arbiter's (``by`` "arbiter": a
        correction, which may replace any result). True if it changed."""
        if result not in RESULTS and result is not None:
            raise TournamentError("a result is %s" % ", ".join(RESULTS))
        g = self.game(number, board)
        if by == "board" and g["by"] == "arbiter":
            return False                   # the arbiter's word stands over the board's
        if g["result"] == result and g["by"] == by:
            return False
        g["result"], g["by"] = result, (by if result is not None else None)
        return True

    def move_board(self, number, board, to):
        """Round ``number``'s game on ``board`` goes to board ``to`` (a board broke mid-round); a game
        already on ``to`` changes places with it."""
        if self.boards is not None and not 1 <= to <= self.boards:
            raise TournamentError("the club has boards 1 to %d" % self.boards)
        g = self.game(number, board)
        for other in self.rounds[number - 1]["games"]:
            if other["board"] == to:
                other["board"] = board
        g["board"] = to

    def withdraw(self, name):
        """``name`` plays no further round (their games so far count)."""
        self.player(name)["withdrawn"] = True

    def player(self, name):
        for p in self.players:
            if p["name"] == name:
                return p
        raise TournamentError("no player %r in %s" % (name, self.name))

    def name_of(self, pid):
        return self.players[pid - 1]["name"]

    # -- the standings --------------------------------------------------------------------

    def score(self, pid, upto=None):
        """``pid``'s points after round ``upto`` (default: every round); a game without a result counts 0."""
        total = 0.0
        for rnd in self.rounds[:upto]:
            if pid in rnd["byes"]:
                total += BYE_POINTS[self.system]
            g = self._game_of(rnd, pid)
            if g is not None and g["result"] is not None:
                total += POINTS[g["result"]][0 if g["white"] == pid else 1]
        return total

    def standings(self):
        """[{rank, id, name, rating, points, buchholz, sb, games}] best first (docs/club.md)."""
        points = dict((p["id"], self.score(p["id"])) for p in self.players)
        rows = []
        for p in self.players:
            buchholz = sb = 0.0
            games = 0
            for rnd in self.rounds:
                g = self._game_of(rnd, p["id"])
                if g is None or g["result"] is None:
                    continue
                other = g["black"] if g["white"] == p["id"] else g["white"]
                mine = POINTS[g["result"]][0 if g["white"] == p["id"] else 1]
                buchholz += points[other]
                sb += mine * points[other]
                games += 1
            rows.append({"id": p["id"], "name": p["name"], "rating": p["rating"], "points": points[p["id"]],
                         "buchholz": buchholz, "sb": sb, "games": games, "withdrawn": bool(p.get("withdrawn"))})
        rows.sort(key=lambda r: (-r["points"], -r["buchholz"], -r["sb"], r["id"]))
        for rank, row in enumerate(rows):
            row["rank"] = rank + 1
        return rows

    def crosstable(self):
        """[{rank, name, rounds: ["12w1", "5b½", "bye", ...], points}] in standings order: each round's
        opponent by rank, colour and result (FIDE's crosstable)."""
        table = self.standings()
        rank = dict((r["id"], r["rank"]) for r in table)
        out = []
        for row in table:
            cells = []
            for rnd in self.rounds:
                g = self._game_of(rnd, row["id"])
                if row["id"] in rnd["byes"]:
                    cells.append("bye")
                elif g is None:
                    cells.append("-")
                else:
                    white = g["white"] == row["id"]
                    other = g["black"] if white else g["white"]
                    mark = "*" if g["result"] is None else {1.0: "1", 0.5: "½", 0.0: "0"}[
                        POINTS[g["result"]][0 if white else 1]]
                    cells.append("%d%s%s" % (rank[other], "w" if white else "b", mark))
            out.append({"rank": row["rank"], "name": row["name"], "rounds": cells, "points": row["points"]})
        return out

    def standings_text(self):
        """The standings as a text file's table."""
        lines = ["%s: standings after round %d of %d" % (self.name, len(self.rounds), self.planned), "",
                 "%4s  %-30s %6s %6s %8s %6s" % ("Rank", "Name", "Rating", "Points", "Buchholz", "SB")]
        for r in self.standings():
            lines.append("%4d  %-30s %6d %6s %8s %6s" % (r["rank"], r["name"] + (" (withdrew)" if r["withdrawn"] else ""),
                                                          r["rating"], _points(r["points"]),
                                                          _points(r["buchholz"]), _points(r["sb"])))
        return "\n".join(lines) + "\n"

    def crosstable_text(self):
        lines = ["%s: crosstable" % self.name, "",
                 "%4s  %-30s %s %6s" % ("Rank", "Name", " ".join("%5s" % ("R%d" % (i + 1)) for i in
                                                                range(len(self.rounds))), "Points")]
        for r in self.crosstable():
            lines.append("%4d  %-30s %s %6s" % (r["rank"], r["name"], " ".join("%5s" % c for c in r["rounds"]),
                                                _points(r["points"])))
        return "\n".join(lines) + "\n"

    # -- kept on disk ---------------------------------------------------------------------

    def to_json(self):
        return {"name": self.name, "system": self.system, "site": self.site, "clock": self.clock,
                "planned": self.planned, "boards": self.boards, "players": self.players, "rounds": self.rounds}

    @classmethod
    def from_json(cls, data):
        t = cls(data["name"], [(p["name"], p["rating"]) for p in data["players"]], data["system"],
                data["planned"], data["boards"], data.get("clock", "off"), data.get("site", ""), saved=True)
        t.players = data["players"]
        t.rounds = data["rounds"]
        return t

    def save(self, path):
        """Written aside, then renamed over: a power cut leaves the old file or the new one."""
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, ensure_ascii=False, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls.from_json(json.load(f))
