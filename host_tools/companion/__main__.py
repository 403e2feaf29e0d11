"""python -m host_tools.companion sim [--fen F] [--variant V] ... | connect [--device PORT]  [--port N] [--no-browser]

``sim``: the page for the simulated board (``make sim``); ``connect``: for a
Pico over USB serial (``make connect``), the one plugged in unless a device is named.
"""

import argparse
import sys
import webbrowser

from host_tools.companion.boards import ActionError, SerialBoard, SimulatedBoard, pick_port
from host_tools.companion.server import bind, make_server, quiet_disconnects
from scacchiera.rules.variants import PROFILES, VARIANTS


def offer_engine(board, path=None):
    """The computer opponents: Stockfish (or ``path``) when found, and the project's own engine
    (python -m host_tools.uci), always; said on the terminal."""
    from host_tools.companion.engine import engines
    choices = engines(path)
    if len(choices) == 1:
        print("no Stockfish found (apt-get install stockfish, or --engine PATH): the project's own engine plays")
    while choices:
        try:
            board.play_computer(choices)
            break
        except ValueError as e:           # not an engine, or it would not start
            print("error: %s" % e, file=sys.stderr)
            choices = choices[1:]
    else:
        return
    print("computer opponents: %s" % ", ".join(ident for ident, _ in choices))


def offer_lichess(board, args):
    """Online games on Lichess (docs/lichess.md): the token from LICHESS_TOKEN or the config file,
    or pasted on the page later. Said on the terminal (never the token)."""
    from host_tools.ladder.db import default_path
    try:
        board.play_lichess(base_url=getattr(args, "lichess_url", None) or "https://lichess.org",
                           ladder_path=getattr(args, "ladder", None) or default_path())
    except ImportError as e:
        print("Lichess: not available (%s): run make deps" % e)
        return
    print("Lichess: %s" % (board.lichess.problem or "a token is there: logging in"))


def serve(board, port, open_browser=True, what="Scacchiera"):
    """Serve ``board``'s page on 127.0.0.1:``port`` until Ctrl-C; 2 if the port is taken."""
    try:
        sock = bind(port)
    except OSError as e:
        print("error: cannot listen on 127.0.0.1:%d: %s (try --port)" % (port, e), file=sys.stderr)
        return 2
    server = make_server(board, sock)
    quiet_disconnects()
    url = "http://127.0.0.1:%d/" % sock.getsockname()[1]
    print("%s at %s  (Ctrl-C to stop)" % (what, url), flush=True)
    if open_browser:
        try:
            webbrowser.open(url)
        except webbrowser.Error:
            pass
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0


def serve_sim(args):
    """The page for the simulated board (``make sim``): args has fen, profile, variant, seed, engine,
    port and no_browser."""
    try:
        board = SimulatedBoard(args.fen, args.profile, args.variant, args.seed)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    offer_engine(board, args.engine)
    if getattr(args, "lichess", False):      # the simulator plays online only when asked
        offer_lichess(board, args)
    return serve(board, args.port, not args.no_browser, "Scacchiera simulator")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.companion",
                                     description="The Scacchiera companion: one page for the simulated board or a real one.")
    parser.add_argument("--port", type=int, default=8765, help="web server port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--engine", metavar="PATH", help="a UCI engine to offer (default: stockfish on PATH or in /usr/games); the project's own engine is always offered")
    parser.add_argument("--no-lichess", action="store_true", help="connect: no online games (docs/lichess.md)")
    parser.add_argument("--lichess", action="store_true", help="sim: the simulated board plays on Lichess too")
    parser.add_argument("--lichess-url", default="https://lichess.org", help=argparse.SUPPRESS)
    parser.add_argument("--ladder", metavar="PATH", help="the ladder file online games go into "
                        "(default: the household ladder, host_tools/ladder)")
    sub = parser.add_subparsers(dest="board", required=True)
    sim = sub.add_parser("sim", help="the simulated board (the real firmware on simulated hardware)")
    sim.add_argument("--profile", default="fide", choices=PROFILES)
    sim.add_argument("--fen", help="start from this position (set up on the board)")
    sim.add_argument("--variant", choices=VARIANTS)
    sim.add_argument("--seed", type=int, help="Scacchi Sprint: the seed of the decks")
    real = sub.add_parser("connect", help="a board on USB serial")
    real.add_argument("--device", help="its serial port, e.g. /dev/ttyACM0 (default: the one board plugged in)")
    args = parser.parse_args(argv)
    if args.board == "sim":
        return serve_sim(args)
    if not args.device:
        try:
            print("board: %s" % pick_port())
        except ActionError as e:
            print("%s; the page waits for it" % e)
    board = SerialBoard(args.device or None)
    offer_engine(board, args.engine)
    if not args.no_lichess:
        offer_lichess(board, args)
    return serve(board, args.port, not args.no_browser, "Scacchiera companion")


if __name__ == "__main__":
    sys.exit(main())
