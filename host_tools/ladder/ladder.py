"""The household ladder: players, games and the two tables of seed 003, over one SQLite file.

Ratings are not stored: they are replayed from the games every time, in the
order the games count (date, then the order they were recorded), so a game
recorded late still counts on its own day and every table is reproducible.
"""

import datetime
import os
import random
import re
import secrets

from . import db, elo, pgnfiles
from .db import LadderError

MAX_NAME = 40          # a player's name: a table column, a PGN tag (the board takes 80)

_GAMES = """
SELECT g.id, w.name AS white, b.name AS black, g.result, g.date, g.moves,
       g.resigned, g.abandoned, g.online, g.source
FROM games g JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black
"""


def _month(text):
    try:
        return datetime.datetime.strptime(text, "%Y-%m").strftime("%Y-%m")
    except (TypeError, ValueError):
        raise LadderError("bad month %r: want YYYY-MM" % (text,)) from None


def _date(text):
    if text is None:
        return datetime.date.today().isoformat()
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError(text)
        return datetime.date.fromisoformat(text).isoformat()
    except (TypeError, ValueError):
        raise LadderError("bad date %r: want YYYY-MM-DD" % (text,)) from None


class ImportReport:
    """What an import did: games added, games already there, games skipped (file, reason)."""

    def __init__(self):
        self.added = []
        self.duplicates = []
        self.skipped = []

    def line(self, **where):
        """What became of an imported game, as a line for the page (static/sentences.js's
        ladder_recorded, or ladder_not_rated with the reasons: none when it was there already);
        ``where`` names the game (``game``: its number on the board, or a club's ``tournament``,
        ``round`` and ``board``)."""
        if self.added:
            return dict(where, key="ladder_recorded")
        return dict(where, key="ladder_not_rated", why=[why for _source, why in self.skipped])


class Ladder:
    """The ladder in the SQLite file ``path`` (default: db.default_path()).

    Every method that writes is one transaction: it happens whole or, on a
    LadderError, not at all.
    """

    def __init__(self, path=None):
        self.path = path or db.default_path()
        self.conn = db.connect(self.path)

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- players ----------------------------------------------------------------

    def add_player(self, name, elo_start=elo.START):
        """A new player with a general rating of ``elo_start`` (the monthly one always starts at 1000)."""
        name = (name or "").strip()
        if name in pgnfiles.UNKNOWN_NAMES:
            raise LadderError("a player needs a name")
        if len(name) > MAX_NAME:
            raise LadderError("a name is at most %d characters; this one has %d" % (MAX_NAME, len(name)))
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
            raise LadderError("a name cannot hold a control character")
        if not isinstance(elo_start, int) or isinstance(elo_start, bool) or not 0 <= elo_start <= 4000:
            raise LadderError("bad rating %r: want a whole number from 0 to 4000" % (elo_start,))
        with db.write(self.conn, self.path):
            old = self._player(name, missing_ok=True)
            if old is not None:
                raise LadderError("there is already a player %r" % old["name"])
            self.conn.execute("INSERT INTO players (name, initial_elo) VALUES (?, ?)", (name, elo_start))

    def players(self):
        """[{name, initial_elo, elo, games}] in the order they were added, with their general rating."""
        rows = self.conn.execute("SELECT name, initial_elo FROM players ORDER BY id").fetchall()
        now = {r["name"]: r for r in self.table()}
        return [{"name": r["name"], "initial_elo": r["initial_elo"], "elo": now[r["name"]]["elo"],
                 "games": now[r["name"]]["games"]} for r in rows]

    def _player(self, name, missing_ok=False):
        row = self.conn.execute("SELECT id, name, initial_elo FROM players WHERE name = ?",
                                ((name or "").strip(),)).fetchone()
        if row is None and not missing_ok:
            raise LadderError("unknown player %r (add-player first)" % (name,))
        return row

    # -- games ------------------------------------------------------------------

    def record(self, white, black, result, moves=None, date=None, abandoned=False, resigned=False,
               online=False):
        """Record a game; its id. ``abandoned``/``resigned``: the loser did (``moves`` is then needed)."""
        game = self._checked(white, black, result, moves, _date(date), abandoned, resigned)
        with db.write(self.conn, self.path):
            return self._insert(game, online=online)

    def _checked(self, white, black, result, moves, date, abandoned, resigned):
        if result not in elo.RESULTS:
            raise LadderError("bad result %r: want 1-0, 0-1 or 1/2-1/2" % (result,))
        if moves is not None and (not isinstance(moves, int) or isinstance(moves, bool) or moves < 0):
            raise LadderError("bad number of moves %r" % (moves,))
        if abandoned and resigned:
            raise LadderError("a game is either abandoned or resigned, not both")
        if (abandoned or resigned) and result == "1/2-1/2":
            raise LadderError("an abandoned or resigned game is lost by one player, not drawn")
        if (abandoned or resigned) and moves is None:
            raise LadderError("an abandoned or resigned game needs its number of moves (the 10-move rule)")
        w, b = self._player(white), self._player(black)
        if w["id"] == b["id"]:
            raise LadderError("%r cannot play against themself" % w["name"])
        return {"white": w["id"], "black": b["id"], "result": result, "moves": moves, "date": date,
                "abandoned": int(bool(abandoned)), "resigned": int(bool(resigned))}

    def _insert(self, game, online=False, pgn=None, pgn_hash=None, source=None):
        cur = self.conn.execute(
            "INSERT INTO games (white, black, result, date, moves, resigned, abandoned, online, pgn,"
            " pgn_hash, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game["white"], game["black"], game["result"], game["date"], game["moves"], game["resigned"],
             game["abandoned"], int(bool(online)), pgn, pgn_hash, source))
        return cur.lastrowid

    def import_pgn(self, path, white=None, black=None, date=None):
        """Import the board's PGN archive (a folder, or one file): an ImportReport.

        ``white``/``black`` name the players of games whose tag is '?';
        ``date`` is the day of games without a full Date tag (default today).
        A game already imported (same moves and tags) is not counted again.
        A file that cannot be read or holds a game that does not parse stops the
        import of that one file; in a folder it is skipped (the report says why)
        and the rest imported. A game naming an unknown player stops the whole
        import before anything is written.
        """
        found = []
        report = ImportReport()
        one_file = os.path.isfile(path)
        for name in pgnfiles.files(path):
            try:
                games = pgnfiles.read(name)
            except LadderError as e:
                if one_file:
                    raise
                report.skipped.append((name, str(e)))
                continue
            for g in games:
                g.white = g.white or white
                g.black = g.black or black
                if g.skip is None and not (g.white and g.black):
                    g.skip = "no player names (the board writes '?'): give --white and --black"
                found.append(g)
        return self._import(found, _date(date), report)

    def import_text(self, text, source, new_players=False):
        """A game's PGN text (a rated game just finished on the board, the companion's): an ImportReport.
        ``new_players``: players the ladder does not know yet are added (from 1000)."""
        found = pgnfiles.parse(text, source)
        if new_players:
            self.add_players(name for g in found if g.skip is None for name in (g.white, g.black) if name)
        return self._import(found, _date(None))

    def add_players(self, names):
        """Add each of ``names`` the ladder does not know yet (an online or rated game's players)."""
        known = set(p["name"] for p in self.players())
        for name in names:
            if name not in known:
                self.add_player(name)
                known.add(name)

    def _import(self, found, day, report=None):
        report = report or ImportReport()
        with db.write(self.conn, self.path):
            for g in found:
                if g.skip is not None:
                    report.skipped.append((g.source, g.skip))
                    continue
                game = self._checked(g.white, g.black, g.result, g.moves, g.date or day,
                                     g.abandoned, g.resigned)
                known = self.conn.execute("SELECT id FROM games WHERE pgn_hash = ?", (g.hash,)).fetchone()
                if known is not None:
                    report.duplicates.append((g.source, known["id"]))
                    continue
                report.added.append((g.source, self._insert(game, pgn=g.pgn, pgn_hash=g.hash, source=g.source)))
        return report

    def delete_game(self, game_id):
        """Remove a game recorded by mistake (its ratings effect goes with it)."""
        with db.write(self.conn, self.path):
            if self.conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
                raise LadderError("no game %r" % (game_id,))

    def games(self):
        """Every game as a dict, in the order they count (date, then the order recorded)."""
        return self._snapshot()[1]

    def _snapshot(self):
        """({player: initial rating}, games in order), read in one transaction: one consistent state."""
        with db.read(self.conn, self.path):
            start = dict(self.conn.execute("SELECT name, initial_elo FROM players").fetchall())
            games = [dict(r) for r in self.conn.execute(_GAMES + " ORDER BY g.date, g.id").fetchall()]
        return start, games

    # -- puzzles ----------------------------------------------------------------

    def record_puzzle(self, name, puzzle, rating, solved, ms=None, date=None, new_player=False):
        """A puzzle solved or failed by ``name`` (added first if ``new_player`` and unknown): the
        player's puzzle standing after it (``puzzles``)."""
        if not isinstance(puzzle, str) or not puzzle or len(puzzle) > 16:
            raise LadderError("bad puzzle id %r" % (puzzle,))
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 4000:
            raise LadderError("bad puzzle rating %r" % (rating,))
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int) or ms < 0):
            raise LadderError("bad time %r" % (ms,))
        if new_player and self._player(name, missing_ok=True) is None:
            self.add_player(name)
        with db.write(self.conn, self.path):
            player = self._player(name)
            self.conn.execute("INSERT INTO puzzle_attempts (player, puzzle, rating, solved, ms, date)"
                              " VALUES (?, ?, ?, ?, ?, ?)",
                              (player["id"], puzzle, rating, int(bool(solved)), ms, _date(date)))
        return self.puzzles(name)

    def puzzles(self, name):
        """``name``'s puzzle standing: {rating, attempts, solved, tried (ids)}. The rating is seed
        003's Elo (K = 30, from 1000) with each puzzle as the opponent, solved a win, failed a loss,
        replayed in the order recorded (docs/training.md)."""
        player = self._player(name)
        rows = self.conn.execute("SELECT puzzle, rating, solved FROM puzzle_attempts WHERE player = ?"
                                 " ORDER BY id", (player["id"],)).fetchall()
        rating = elo.START
        for row in rows:
            rating += elo.change(rating, row["rating"], float(row["solved"]))
        return {"name": player["name"], "rating": rating, "attempts": len(rows),
                "solved": sum(r["solved"] for r in rows), "tried": sorted(set(r["puzzle"] for r in rows))}

    # -- tables -----------------------------------------------------------------

    def table(self, month=None):
        """The general table (everyone), or a month's ('YYYY-MM': who played then, from 1000): ranked rows."""
        start, games = self._snapshot()
        if month is None:
            standings = elo.standings(games, start.__getitem__)
            for name, rating in start.items():
                standings.setdefault(name, elo.Standing(name, rating))
        else:
            month = _month(month)
            standings = elo.standings([g for g in games if g["date"][:7] == month], lambda _name: elo.START)
        return elo.ranked(standings.values())

    @staticmethod
    def _replayed(start, games):
        """(game, White's change, Black's change, White's rating after, Black's after), in order.

        ``start``: {player: first rating}, or None for the monthly table's 1000.
        """
        for g, dw, db_, table in elo.replay(games, start.__getitem__ if start else lambda _name: elo.START):
            yield g, dw, db_, table[g["white"]].rating, table[g["black"]].rating

    def game(self, game_id):
        """One game with what it did to the general table: changes and ratings after it."""
        for g, dw, db_, rw, rb in self._replayed(*self._snapshot()):
            if g["id"] == game_id:
                return dict(g, white_change=dw, black_change=db_, white_elo=rw, black_elo=rb)
        raise LadderError("no game %r" % (game_id,))

    def history(self, name):
        """A player's games, in order, with the general and the monthly change of each and the ratings after."""
        player = self._player(name)["name"]
        start, games = self._snapshot()
        monthly = {}
        for month in sorted({g["date"][:7] for g in games}):
            for g, dw, db_, rw, rb in self._replayed(None, [g for g in games if g["date"][:7] == month]):
                monthly[g["id"]] = (dw, db_, rw, rb)
        out = []
        for g, dw, db_, rw, rb in self._replayed(start, games):
            if player not in (g["white"], g["black"]):
                continue
            white = g["white"] == player
            mw, mb, mrw, mrb = monthly[g["id"]]
            out.append({"id": g["id"], "date": g["date"], "colour": "white" if white else "black",
                        "opponent": g["black"] if white else g["white"], "result": g["result"],
                        "moves": g["moves"], "resigned": bool(g["resigned"]), "abandoned": bool(g["abandoned"]),
                        "change": dw if white else db_, "elo": rw if white else rb,
                        "month_change": mw if white else mb, "month_elo": mrw if white else mrb})
        return out

    # -- colours ----------------------------------------------------------------

    def next_colours(self, a, b, seed=None):
        """(White, Black, how) for the next game between ``a`` and ``b``.

        Seed 003: colours are drawn by lot, then alternate. After a game between
        them, the one who had Black has White ('alternate'); before their first
        game, a lot is drawn once and kept, so asking again gives the same
        answer ('lot'). ``seed`` makes the lot reproducible (tests).
        """
        with db.write(self.conn, self.path):
            pa, pb = self._player(a), self._player(b)
            if pa["id"] == pb["id"]:
                raise LadderError("%r cannot play against themself" % pa["name"])
            last = self.conn.execute(
                "SELECT white, black FROM games WHERE (white = ? AND black = ?) OR (white = ? AND black = ?)"
                " ORDER BY date DESC, id DESC LIMIT 1", (pa["id"], pb["id"], pb["id"], pa["id"])).fetchone()
            names = {pa["id"]: pa["name"], pb["id"]: pb["name"]}
            if last is not None:
                return names[last["black"]], names[last["white"]], "alternate"
            low, high = sorted((pa["id"], pb["id"]))
            row = self.conn.execute("SELECT white FROM colour_lots WHERE a = ? AND b = ?", (low, high)).fetchone()
            if row is None:
                coin = random.Random(seed).randrange(2) if seed is not None else secrets.randbelow(2)
                white = (low, high)[coin]
                self.conn.execute("INSERT INTO colour_lots (a, b, white) VALUES (?, ?, ?)", (low, high, white))
            else:
                white = row["white"]
            black = high if white == low else low
            return names[white], names[black], "lot"


def recorded(path, act):
    """``act(ladder)`` on the ladder in the file ``path``, one transaction, for a game or a puzzle
    that goes in by itself (a board's rated game, an online one, a club's result, a puzzle): (its
    answer, None), or (None, why in the words every recorder says) when the ladder refuses."""
    try:
        with Ladder(path) as ladder:
            return act(ladder), None
    except LadderError as e:
        return None, "not recorded in the ladder: %s" % e
