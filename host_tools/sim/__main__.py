"""python -m host_tools.sim [--port N] [--no-browser] [--pty] [--lichess [--lichess-url URL]] [--ladder PATH] [--boards N]
| --script FILE [--json] [--profile P] [--fen FEN]"""

import argparse
import json
import sys

from host_tools import _paths  # noqa: F401
from host_tools.companion.cli import add_board_arguments, add_club_arguments, add_page_arguments
from host_tools.hands import ScriptError, play_lines, read_script
from host_tools.sim.device import SimBoard, SimError


def run_script(args):
    try:
        text, setup = read_script(args)
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        board = SimBoard(*setup)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if play_lines(board, text, lambda: board.sim_events, None if args.json else _describe, (ScriptError, SimError)):
        return 1
    state = board.snapshot()
    if args.json:
        keys = ("fen", "moves", "san", "result", "termination", "in_sync", "leds", "display", "protocol")
        if state["sprint"]:
            keys += ("variant", "sprint")
        print(json.dumps(dict((k, state[k]) for k in keys)))
    else:
        print("result: %s%s" % (state["result"], " (%s)" % state["termination"] if state["termination"] else ""))
        print("fen: %s" % state["fen"])
    return 0


def _describe(event):
    kind = event["kind"]
    fields = " ".join("%s=%s" % (k, v) for k, v in sorted(event.items()) if k != "kind")
    return "%s %s" % (kind, fields)


def serve(args):
    """The page for the simulated board: the companion app (host_tools/companion); with
    ``--boards N``, N of them and the club page (host_tools/club)."""
    from host_tools.companion.__main__ import serve_sim, serve_sim_club
    return serve_sim_club(args) if args.boards > 1 else serve_sim(args)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.sim",
                                     description="The Scacchiera simulator: the real firmware, simulated hardware.")
    parser.add_argument("--script", metavar="FILE", help="run a script of steps (lift/place/wait/press/send) and exit")
    parser.add_argument("--json", action="store_true", help="with --script: print one JSON object at the end")
    add_board_arguments(parser)
    add_page_arguments(parser)
    add_club_arguments(parser)
    parser.add_argument("--lichess", action="store_true", help="play on Lichess from the simulated board (docs/lichess.md)")
    args = parser.parse_args(argv)
    if args.script:
        return run_script(args)
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
