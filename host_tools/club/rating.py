"""The club and the household ladder (host_tools/ladder): the players' ratings a tournament starts
from, and each result recorded as a rated game (a corrected result replaces the game recorded)."""

from host_tools.ladder.db import LadderError
from host_tools.ladder.ladder import Ladder, recorded


def ratings(ladder_path, names, add_new):
    """{name: Elo} of the ladder's players (new ``names`` added from 1000 with ``add_new``); ValueError
    naming the players the ladder lacks."""
    try:
        with Ladder(ladder_path) as ladder:
            if add_new:
                ladder.add_players(n.strip() for n in names)
            known = dict((p["name"], p["elo"]) for p in ladder.players())
    except LadderError as e:
        raise ValueError(str(e))
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError("not in the ladder: %s (add them, or tick new players)" % ", ".join(missing))
    return known


def rate(ladder_path, g, pgn, where):
    """The pairing ``g``'s result into the ladder, its game's text ``pgn``; ``g["ladder"]`` keeps the
    game's id there (a game recorded before is deleted first). What became of it, as a line for the
    page (static/sentences.js), ``where`` ({tournament, round, board}) naming the game; None if the
    result was taken away."""
    def act(ladder):
        if g.get("ladder"):
            ladder.delete_game(g["ladder"])
            g["ladder"] = None
        source = "%(tournament)s round %(round)d board %(board)d" % where
        return None if g["result"] is None else ladder.import_text(pgn, source, new_players=True)
    report, refused = recorded(ladder_path, act)
    if refused:
        return dict(where, key="ladder_refused", why=refused)
    if report is None:
        return None                       # no result (the arbiter took it away): deleted only
    if report.added:
        g["ladder"] = report.added[0][1]
    return report.line(result=g["result"], **where)
