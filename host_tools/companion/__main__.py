"""python -m host_tools.companion sim [--fen F] [--variant V] [--boards N] ... | connect [--device PORT ...]
[--port N] [--no-browser] [--club DIR]

``sim``: the page for the simulated board (``make sim``); ``connect``: for a
Pico over USB serial (``make connect``), the one plugged in unless a device is named.
Several boards (``--boards N`` simulated ones, several ``--device``, or several Picos
plugged in): a club (host_tools/club: the club page, a page per board, a tournament, the live feed).
"""

import argparse
import socket
import sys
import webbrowser

from host_tools.companion.boards import ActionError, SerialBoard, SimulatedBoard, pick_port
from host_tools.companion.cli import add_board_arguments, add_club_arguments, add_page_arguments
from host_tools.companion.pairing import Pairing, lan_address
from host_tools.companion.server import bind, make_server, quiet_disconnects


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
        board.play_lichess(base_url=args.lichess_url, ladder_path=args.ladder or default_path())
    except ImportError as e:
        print("Lichess: not available (%s): run make deps" % e)
        return
    print("Lichess: %s" % (board.lichess.problem or "a token is there: logging in"))


def listen(args):
    """(sockets, pairing): the page's socket on 127.0.0.1, and with ``--lan`` one on the LAN address
    (pairing.py: who may use it); None (said) if one cannot be had. Bound before anything starts
    (Stockfish, Lichess's threads), so a taken port ends the command at once."""
    try:
        sock = bind(args.port)
    except OSError as e:
        print("error: cannot listen on 127.0.0.1:%d: %s (try --port)" % (args.port, e), file=sys.stderr)
        return None
    if not args.lan:
        return [sock], None
    address = args.lan_address or lan_address()
    port = sock.getsockname()[1]
    try:
        if address is None or address == "127.0.0.1":
            raise OSError("no LAN address found (is this machine on a network?)")
        lan = bind(port, address)
    except OSError as e:
        sock.close()
        print("error: cannot listen on the LAN: %s" % (e.strerror or e), file=sys.stderr)
        return None
    host = socket.gethostname()
    return [sock, lan], Pairing(address, port, names=(host, host + ".local"))


def serve(board, listening, open_browser=True, what="Scacchiera", ladder=None):
    """Serve ``board``'s page on ``listening`` (``listen``'s) until Ctrl-C; ``ladder``: the ladder's file."""
    sockets, pairing = listening
    return run_server(make_server(board, sockets[0], ladder, pairing), listening, open_browser, what)


def run_server(server, listening, open_browser=True, what="Scacchiera"):
    """Run ``server`` (a board's or a club's) on ``listening``'s sockets until Ctrl-C, its address
    (and the LAN's pairing code) said on the terminal."""
    sockets, pairing = listening
    quiet_disconnects()
    url = "http://127.0.0.1:%d/" % sockets[0].getsockname()[1]
    print("%s at %s  (Ctrl-C to stop)" % (what, url), flush=True)
    if pairing is not None:
        print("a phone on the LAN: scan this code, or open %s (a one-time key; the page at %s shows the "
              "next one)" % (pairing.link(), url))
        print(pairing.qr("text"), flush=True)
    if open_browser:
        try:
            webbrowser.open(url)
        except webbrowser.Error:
            pass
    try:
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        pass
    return 0


def serve_sim(args):
    """The page for the simulated board (``make sim``): args has fen, profile, variant, seed, lichess
    and the page's own (cli.add_page_arguments)."""
    listening = listen(args)
    if listening is None:
        return 2
    try:
        board = SimulatedBoard(args.fen, args.profile, args.variant, args.seed, hands_play_computer=True)
    except ValueError as e:
        for sock in listening[0]:
            sock.close()
        print("error: %s" % e, file=sys.stderr)
        return 2
    offer_engine(board, args.engine)
    if args.lichess:                         # the simulator plays online only when asked
        offer_lichess(board, args)
    if getattr(args, "pty", False):          # other programs on the board's USB link (docs/protocols.md)
        print("serial: %s" % board.sim.open_pty(), flush=True)
    return serve(board, listening, not args.no_browser, "Scacchiera simulator", args.ladder)


def serve_club(boards, args, find_new=None):
    """Many boards on one host (host_tools/club, docs/club.md): the club page at the root, each
    board's own page at /board/N/, the live feed at /broadcast/."""
    from host_tools.club.club import Club, default_folder
    from host_tools.club.server import make_club_server
    from host_tools.ladder.db import default_path
    listening = listen(args)
    if listening is None:
        return 2
    folder = args.club or default_folder()
    club = Club(boards, folder, args.ladder or default_path(), find_new)
    club.broadcast_options = {"base_url": args.lichess_url}
    server = make_club_server(club, listening[0][0], args.ladder, listening[1])
    print("%d boards; the club's files in %s; the live PGN for a relay: /broadcast/current.pgn"
          % (len(boards), folder), flush=True)
    return run_server(server, listening, not args.no_browser, "Scacchiera club")


def serve_sim_club(args):
    """``--boards N`` simulated boards, each its own firmware, served as a club."""
    try:
        boards = [SimulatedBoard(args.fen, args.profile, args.variant, args.seed) for _ in range(args.boards)]
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return serve_club(boards, args)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.companion",
                                     description="The Scacchiera companion: one page for the simulated board or a real one.")
    add_page_arguments(parser)
    add_club_arguments(parser, boards=False)
    parser.add_argument("--no-lichess", action="store_true", help="connect: no online games (docs/lichess.md)")
    parser.add_argument("--lichess", action="store_true", help="sim: the simulated board plays on Lichess too")
    sub = parser.add_subparsers(dest="board", required=True)
    sim = sub.add_parser("sim", help="the simulated board (the real firmware on simulated hardware)")
    add_board_arguments(sim)
    add_club_arguments(sim, club=False)
    real = sub.add_parser("connect", help="a board on USB serial")
    real.add_argument("--device", action="append", help="its serial port, e.g. /dev/ttyACM0 (default: the board "
                      "plugged in; given more than once, or several boards plugged in: a club)")
    args = parser.parse_args(argv)
    if args.board == "sim":
        return serve_sim_club(args) if args.boards > 1 else serve_sim(args)
    if args.device and len(args.device) > 1:
        print("boards: %s" % ", ".join(args.device))
        return serve_club([SerialBoard(port) for port in args.device], args)
    if not args.device:
        from host_tools.companion.boards import find_picos, new_picos
        found = find_picos()
        if len(found) > 1 or args.club:    # a club: each board known by its Pico's serial number
            print("boards: %s" % (", ".join("%s (%s)" % pico for pico in found) or "none yet"))
            return serve_club([SerialBoard(None if number else port, serial_number=number)
                               for port, number in found], args, find_new=new_picos)
    args.device = args.device[0] if args.device else None
    listening = listen(args)
    if listening is None:
        return 2
    if not args.device:
        try:
            print("board: %s" % pick_port())
        except ActionError as e:
            print("%s; the page waits for it" % e)
    board = SerialBoard(args.device or None)
    offer_engine(board, args.engine)
    if not args.no_lichess:
        offer_lichess(board, args)
    return serve(board, listening, not args.no_browser, "Scacchiera companion", args.ladder)


if __name__ == "__main__":
    sys.exit(main())
