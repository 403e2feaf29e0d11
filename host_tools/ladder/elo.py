"""Seed 003's rating rules: the Elo change of one game, and a table replayed from the games.

Seed 003 ("Classifica per punti"): the change is at most 30 points, the
winner of two equal players gains 15 and the loser loses 15; 2000 beating
1000 changes nothing, 1000 beating 2000 moves 30 points. That is the Elo
formula with K = 30::

    expected = 1 / (1 + 10 ** ((R_opponent - R) / 400))
    change   = round(30 * (score - expected))

"Se un giocatore abbandona o si arrende, perderà la partita. Se abbandona
potrebbe subire una penalizzazione di 20 punti. In ogni caso, l'avversario
sommerà la vittoria se ha fatto più di 10 mosse." So a resignation or an
abandonment is a loss; the abandoner also pays 20 points; and in either case
the points of the game change hands only if the winner made more than 10
moves (a move is one player's move: the seed counts "50 mosse fra i due
giocatori" for the fifty-move rule). The choices the seed leaves open are in
docs/ladder.md.
"""

import math

K = 30
START = 1000            # "a partire da 1000 punti per ogni giocatore"
PENALTY = 20            # abandoning the game
MIN_WINNER_MOVES = 11   # "più di 10 mosse"

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}   # White's score


def expected(rating, opponent):
    """The score a player rated ``rating`` is expected to make against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def change(rating, opponent, score):
    """round(30 x (score - expected)), halves away from zero (they never occur with whole ratings)."""
    raw = K * (score - expected(rating, opponent))
    return int(math.copysign(math.floor(abs(raw) + 0.5), raw))


def moves_of(colour, moves):
    """How many of ``moves`` (both players' moves, White first) were ``colour``'s ('w' or 'b')."""
    return (moves + 1) // 2 if colour == "w" else moves // 2


def game_changes(white, black, result, moves=None, resigned=False, abandoned=False):
    """(White's change, Black's change) of one game between players rated ``white`` and ``black``.

    ``result`` is '1-0', '0-1' or '1/2-1/2'; ``moves`` both players' moves;
    ``resigned``/``abandoned``: the loser resigned or abandoned. The game's
    points are zero-sum; the abandonment penalty is the only thing that is not.
    """
    score = RESULTS[result]
    exchanged = True
    if resigned or abandoned:
        winner = "w" if score == 1.0 else "b"
        exchanged = moves_of(winner, moves) >= MIN_WINNER_MOVES
    points = change(white, black, score) if exchanged else 0
    dw, db = points, -points
    if abandoned:
        if score == 1.0:
            db -= PENALTY
        else:
            dw -= PENALTY
    return dw, db


class Standing:
    """One player's line in a table: rating, games, wins, draws, losses, penalties."""

    def __init__(self, name, rating):
        self.name = name
        self.rating = rating
        self.games = 0
        self.wins = 0
        self.draws = 0
        self.losses = 0
        self.penalties = 0

    def add(self, delta, score, penalty):
        self.rating += delta
        self.games += 1
        self.wins += score == 1.0
        self.draws += score == 0.5
        self.losses += score == 0.0
        self.penalties += penalty

    def as_dict(self):
        return {"name": self.name, "elo": self.rating, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "penalties": self.penalties}


def replay(games, start):
    """Apply ``games`` in order; yield (game, White's change, Black's change, standings after it).

    ``games`` are dicts with white, black, result, moves, resigned, abandoned
    (and anything else, passed through), in the order they count: date, then
    the order they were recorded. ``start(name)`` is a player's first rating.
    """
    table = {}
    for g in games:
        for name in (g["white"], g["black"]):
            if name not in table:
                table[name] = Standing(name, start(name))
        w, b = table[g["white"]], table[g["black"]]
        dw, db = game_changes(w.rating, b.rating, g["result"], g["moves"], g["resigned"], g["abandoned"])
        score = RESULTS[g["result"]]
        w.add(dw, score, PENALTY if g["abandoned"] and score == 0.0 else 0)
        b.add(db, 1.0 - score, PENALTY if g["abandoned"] and score == 1.0 else 0)
        yield g, dw, db, table


def standings(games, start):
    """{name: Standing} after all of ``games`` (see replay)."""
    table = {}
    for _g, _dw, _db, table in replay(games, start):
        pass
    return table


def ranked(standings):
    """Standings best first (rating, then name), with a rank shared by equal ratings (1, 1, 3)."""
    rows = sorted(standings, key=lambda s: (-s.rating, s.name.casefold()))
    out = []
    for i, s in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1]["elo"] == s.rating else i + 1
        row = s.as_dict()
        row["rank"] = rank
        out.append(row)
    return out
