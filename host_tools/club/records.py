"""The club's record of every game, and the live feed built from them.

A pairing's game is bound to its board's game once the board's own PGN carries the club's tags
(Event, Round, Board, the players); from then on every ``status`` the board sends brings the
pairing's record up to date (feed.follow). The record is the club's, not the board's: a board that
reboots resumes its game (its journal) and the record goes on; a board unplugged leaves the record
as it stood; a game moved to another board carries its moves over (the record's ``prefix``). With
no round played, every board's current game is followed as a casual one.

Callers hold the club's lock (club.py): a Records is the club's state, not a thread's.
"""

from host_tools.club import feed
from host_tools.companion.players import host_date, time_control


def key(rnd, g):
    """A pairing's record key: the round and the players (a game keeps it when it changes boards)."""
    return "%d:%d-%d" % (rnd["number"], g["white"], g["black"])


def pairing_tags(t, rnd, g):
    """The PGN tags a pairing's game has on its board (the club's, so the club can tell it)."""
    return {"Event": t.name, "Round": str(rnd["number"]), "Board": str(g["board"]),
            "White": t.name_of(g["white"]), "Black": t.name_of(g["black"])}


class Records:
    """``records``: key -> feed record; ``bound``: key -> the board's game number that is the
    pairing's game; ``casual``: board number -> [game number, record, start FEN, tags]."""

    def __init__(self, records=None, bound=None):
        self.records = records or {}
        self.bound = bound or {}
        self.casual = {}
        self._cache = {}          # round number -> (version, its games' PGN texts)

    def follow(self, t, number, status, headers, start):
        """Board ``number``'s status into its pairing's record in ``t``'s current round. Returns
        (what changed: "records" and round numbers, the news as a line or None, the pairing whose result the
        board's game just gave, or None)."""
        rnd = t.current() if t is not None else None
        g = next((g for g in rnd["games"] if g["board"] == number), None) if rnd else None
        if g is None:
            return set(), None, None
        k = key(rnd, g)
        record = self.records.setdefault(k, feed.new_record())
        what = set()
        if k not in self.bound:
            if not headers or not start or start[0] != status.get("game") or \
                    any(headers.get(name) != value for name, value in pairing_tags(t, rnd, g).items()):
                return what, None, None    # the board has not started this pairing's game yet
            self.bound[k] = status.get("game")
            what.add("records")
        if status.get("game") != self.bound[k]:
            return what, None, None        # a game started on the board by hand: not the pairing's
        moves = record.get("prefix", []) + list(status.get("moves") or ())
        if not headers or not start or start[0] != status.get("game"):
            return what, None, None        # the game's tags not read yet: what it is, is not known
        if any(headers.get(name) != value for name, value in pairing_tags(t, rnd, g).items()):
            # Not the pairing's game any more, though its number is (a board that came back fresh: a
            # simulated board after a host's restart, one swapped): the record keeps every move, the
            # arbiter's "send again" starts the board where the game stood.
            self.bound.pop(k)
            return {"records"}, {"key": "club_another_game", "board": number, "plies": len(moves),
                                 "recorded": len(record["moves"])}, None
        if not feed.follow(record, dict(status, moves=moves)):
            return what, None, None
        what |= {rnd["number"], "records"}
        if record["result"] != "*" and g["result"] is None and t.set_result(rnd["number"], number, record["result"]):
            what.add("tournament")
            return what, None, (rnd, g)
        return what, None, None

    def follow_casual(self, number, status, headers, start, given=None):
        """Board ``number``'s current game, as the feed has it while no round is played (a club
        evening of casual games, a simul, a lesson). The players are the board's Players panel's
        (``given``), else its game's tags. Whether the feed changed."""
        game = status.get("game")
        entry = self.casual.get(number)
        if entry is None or entry[0] != game or (start and entry[2] != start[1]):
            entry = self.casual[number] = [game, feed.new_record(start[1] if start else None),
                                           start[1] if start else None, {}]
        names = dict(White=(given or {}).get("white") or (headers or {}).get("White") or "?",
                     Black=(given or {}).get("black") or (headers or {}).get("Black") or "?")
        changed = names != {k: entry[3].get(k) for k in names}
        entry[3] = dict(names, TimeControl=time_control(status.get("options")))
        return feed.follow(entry[1], status) or changed

    def start_again(self, rnd, g):
        """The pairing's game goes to a board again (sent again, or moved): the moves recorded so far
        are its prefix there. The position to start from, or None for a game with no move yet."""
        record = self.records.setdefault(key(rnd, g), feed.new_record())
        self.bound.pop(key(rnd, g), None)
        if not record["moves"]:
            return None
        record["prefix"] = list(record["moves"])
        return feed.position_after(record)

    def new_round(self, rnd):
        for g in rnd["games"]:
            self.bound.pop(key(rnd, g), None)
            self.records[key(rnd, g)] = feed.new_record()

    # -- the feed ------------------------------------------------------------------------------

    def game_pgn(self, t, rnd, g):
        headers = {"Event": t.name, "Site": t.site or "?", "Date": rnd.get("date") or "????.??.??",
                   "Round": str(rnd["number"]), "Board": str(g["board"]), "White": t.name_of(g["white"]),
                   "Black": t.name_of(g["black"]), "WhiteElo": t.players[g["white"] - 1]["rating"],
                   "BlackElo": t.players[g["black"] - 1]["rating"],
                   "TimeControl": time_control({"clock": t.clock})}
        record = self.records.get(key(rnd, g)) or feed.new_record()
        return feed.game_pgn(headers, record, g["result"])

    def casual_games(self):
        """Every board's current game as the feed's PGN, board 1 first, as DGT LiveChess broadcasts
        whatever its boards play: [Board "N"], the board's players, its clock (%clk), the host's date."""
        games = []
        for number in sorted(self.casual):
            _game, record, _fen, tags = self.casual[number]
            headers = dict({"Event": "Casual games", "Site": "?", "Date": host_date(), "Round": "-",
                            "Board": str(number)}, **tags)
            games.append(feed.game_pgn(headers, record))
        return games

    def round_games(self, t, number, version):
        """Round ``number``'s games' PGN texts, board 1 first (kept while its ``version`` stays)."""
        cached = self._cache.get(number)
        if cached and cached[0] == version:
            return cached[1]
        rnd = t.rounds[number - 1]
        games = [self.game_pgn(t, rnd, g) for g in sorted(rnd["games"], key=lambda g: g["board"])]
        self._cache[number] = (version, games)
        return games
