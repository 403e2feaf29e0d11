"""The command-line options the page's two commands share (``python -m host_tools.sim`` and
``python -m host_tools.companion``): one definition, so ``make sim`` and ``make connect`` take the same.
Imports nothing heavy: the simulator's scripted mode parses them too."""

import argparse


def add_page_arguments(parser):
    parser.add_argument("--port", type=int, default=8765, help="web server port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--engine", metavar="PATH", help="a UCI engine to offer (default: stockfish on PATH or in "
                        "/usr/games); the project's own engine is always offered")
    parser.add_argument("--lichess-url", default="https://lichess.org",
                        help="the Lichess server online games use (default: lichess.org)")
    parser.add_argument("--ladder", metavar="PATH", help="the ladder file online and rated games go into "
                        "(default: the household ladder, host_tools/ladder)")
    parser.add_argument("--lan", action="store_true", help="also listen on this machine's LAN address, for a phone "
                        "paired with a one-time key (printed with a QR code; docs/companion.md)")
    parser.add_argument("--lan-address", help=argparse.SUPPRESS)   # the LAN address (default: the one found)


def add_board_arguments(parser):
    """The game a simulated or emulated board starts with, and its USB link on a pseudo-terminal: the
    simulator's, the companion's ``sim`` and the emulated Pico's (host_tools/pico_emu)."""
    from host_tools import _paths  # noqa: F401  (firmware/ on the path)
    from scacchiera.rules.variants import PROFILES, VARIANTS
    parser.add_argument("--profile", default="fide", choices=PROFILES, help="the rules: FIDE's or seed 003's casual ones")
    parser.add_argument("--fen", help="start from this position (set up on the board); a Sprint string starts Sprint")
    parser.add_argument("--variant", choices=VARIANTS,
                        help="chess (default), Scacchi Sprint or Chess960 (with --fen, else its position 518)")
    parser.add_argument("--seed", type=int, help="Scacchi Sprint: the seed of the decks")
    parser.add_argument("--pty", action="store_true", help="also expose the board's USB serial link on a pseudo-terminal "
                        "(prints serial: /dev/pts/N) for DGT, ChessLink or JSON programs (docs/protocols.md)")


def add_club_arguments(parser, boards=True, club=True):
    """A club (docs/club.md): ``--club DIR``, its folder; ``--boards N`` simulated boards on one host."""
    if boards:
        parser.add_argument("--boards", type=int, default=1, choices=range(1, 65), metavar="N",
                            help="run N simulated boards, each its own firmware, with the club page (1 to 64)")
    if club:
        parser.add_argument("--club", metavar="DIR", help="the club's folder: tournament, standings, round PGNs "
                            "(default: the user's data folder); connect: a club even of one board, and the "
                            "boards plugged in later")
