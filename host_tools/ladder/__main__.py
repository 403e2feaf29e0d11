"""python -m host_tools.ladder [--db FILE] COMMAND ...: the household Elo ladder (docs/ladder.md).

    add-player NAME [--elo N]
    players [--json]
    record WHITE BLACK RESULT [--moves N] [--date YYYY-MM-DD] [--abandoned | --resigned]
    import PATH [--white NAME] [--black NAME] [--date YYYY-MM-DD]
    table [--month YYYY-MM] [--json]
    history NAME [--json]
    next-colours A B [--seed N]
    delete-game ID

Bad input is one line on stderr and exit status 2, and the ladder is left as it was.
"""

import argparse
import json
import sqlite3
import sys

from . import db, elo
from .db import LadderError
from .ladder import Ladder


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise LadderError(message)


def _parser():
    p = _Parser(prog="python -m host_tools.ladder", description="The household Elo ladder of seed 003.")
    p.add_argument("--db", metavar="FILE",
                   help="the ladder file (default: $%s, else %s)" % (db.ENV, db.user_data_path()))
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    c = sub.add_parser("add-player", help="a new player")
    c.add_argument("name")
    c.add_argument("--elo", type=int, default=elo.START, help="general rating to start from (default 1000)")

    c = sub.add_parser("players", help="the players and their general rating")
    c.add_argument("--json", action="store_true")

    c = sub.add_parser("record", help="record a game played")
    c.add_argument("white")
    c.add_argument("black")
    c.add_argument("result", help="1-0, 0-1 or 1/2-1/2")
    c.add_argument("--moves", type=int, help="moves made by both players together (1. e4 e5 is 2)")
    c.add_argument("--date", help="YYYY-MM-DD (default today)")
    ended = c.add_mutually_exclusive_group()
    ended.add_argument("--abandoned", action="store_true", help="the loser abandoned the game (-20 points)")
    ended.add_argument("--resigned", action="store_true", help="the loser resigned")

    c = sub.add_parser("import", help="import the board's PGN archive (make pgn) or one PGN file")
    c.add_argument("path")
    c.add_argument("--white", help="White of games whose White tag is '?'")
    c.add_argument("--black", help="Black of games whose Black tag is '?'")
    c.add_argument("--date", help="the day of games without a Date tag (default today)")

    c = sub.add_parser("table", help="the general table, or a month's")
    c.add_argument("--month", help="YYYY-MM: that month's table, where everyone started at 1000")
    c.add_argument("--json", action="store_true")

    c = sub.add_parser("history", help="a player's games and rating changes")
    c.add_argument("name")
    c.add_argument("--json", action="store_true")

    c = sub.add_parser("next-colours", help="who has White in the next game between A and B")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--seed", type=int, help="make the first game's lot reproducible")

    c = sub.add_parser("delete-game", help="remove a game recorded by mistake")
    c.add_argument("id", type=_game_id)
    return p


def _print_table(rows, title):
    print(title)
    if not rows:
        print("  (no games)")
        return
    width = max(6, max(len(r["name"]) for r in rows))
    print("%4s  %-*s %5s %5s %4s %4s %4s" % ("#", width, "Player", "Elo", "Games", "W", "D", "L"))
    for r in rows:
        print("%4d  %-*s %5d %5d %4d %4d %4d" % (r["rank"], width, r["name"], r["elo"], r["games"],
                                                 r["wins"], r["draws"], r["losses"]))


def _run(args, out):
    with Ladder(args.db) as ladder:
        if args.command == "add-player":
            ladder.add_player(args.name, args.elo)
            out("added %s (%d)" % (args.name.strip(), args.elo))
        elif args.command == "players":
            rows = ladder.players()
            if args.json:
                out(json.dumps(rows))
            for r in [] if args.json else rows:
                out("%s  %d  (%d games)" % (r["name"], r["elo"], r["games"]))
        elif args.command == "record":
            gid = ladder.record(args.white, args.black, args.result, args.moves, args.date,
                                abandoned=args.abandoned, resigned=args.resigned)
            g = ladder.game(gid)
            out("game %d: %s %+d -> %d, %s %+d -> %d" % (gid, g["white"], g["white_change"], g["white_elo"],
                                                       g["black"], g["black_change"], g["black_elo"]))
        elif args.command == "import":
            report = ladder.import_pgn(args.path, args.white, args.black, args.date)
            for source, reason in report.skipped:
                out("skipped %s: %s" % (source, reason))
            for source, gid in report.duplicates:
                out("already there %s (game %d)" % (source, gid))
            out("imported %d games, %d already there, %d skipped"
                % (len(report.added), len(report.duplicates), len(report.skipped)))
        elif args.command == "table":
            rows = ladder.table(args.month)
            if args.json:
                out(json.dumps({"month": args.month, "rows": rows}))
            else:
                _print_table(rows, "Month %s (everyone from 1000)" % args.month if args.month else "General")
        elif args.command == "history":
            rows = ladder.history(args.name)
            if args.json:
                out(json.dumps(rows))
            for h in [] if args.json else rows:
                how = "abandoned" if h["abandoned"] else "resigned" if h["resigned"] else ""
                out("%4d  %s  %-5s  %-12s %-7s %-9s  %+4d -> %4d   month %+4d -> %4d"
                    % (h["id"], h["date"], h["colour"], h["opponent"], h["result"], how,
                       h["change"], h["elo"], h["month_change"], h["month_elo"]))
        elif args.command == "next-colours":
            white, black, how = ladder.next_colours(args.a, args.b, seed=args.seed)
            out("White %s, Black %s (%s)" % (white, black, "drawn by lot" if how == "lot" else "alternating"))
        elif args.command == "delete-game":
            ladder.delete_game(args.id)
            out("deleted game %d" % args.id)
    return 0


def _game_id(text):
    """A game's number, as SQLite can hold it (9999... made Python's sqlite3 raise OverflowError)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a game number: %r" % text) from None
    if not 1 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError("no game has the number %s" % text)
    return n


def main(argv=None, out=print):
    try:
        args = _parser().parse_args(argv)
        return _run(args, out)
    except LadderError as e:
        print("ladder: error: %s" % e, file=sys.stderr)
        return 2
    except (sqlite3.Error, OSError, UnicodeError, OverflowError, ValueError) as e:
        # the disk or a damaged database, not the input: one line, nothing half-written either
        print("ladder: error: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
