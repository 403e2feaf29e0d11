"""Play a game on the rules module from a terminal: SAN or UCI moves, English or Italian.

    python -m host_tools.play [--fen FEN] [--profile fide|casual] [--lang en|it]

Commands besides moves: undo, claim, draw, resign, fen, pgn, moves, help, quit.
"""

import argparse
import sys

from host_tools import _paths  # noqa: F401
from scacchiera.rules import Position, WHITE
from scacchiera.rules.variants import PROFILES

HELP = "moves in SAN (e4, Nf3 / Cf3) or UCI (e2e4); undo, claim, draw, resign, fen, pgn, moves, help, quit"


def board_text(position):
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for f in range(8):
            p = position.piece_at(rank * 8 + f)
            ch = " pnbrqk"[p & 7] if p else "."
            cells.append(ch.upper() if p and p >> 3 == WHITE else ch)
        rows.append("%d  %s" % (rank + 1, " ".join(cells)))
    rows.append("   a b c d e f g h")
    return "\n".join(rows)


def parse_move(position, text, lang):
    try:
        return position.parse_san(text, lang)
    except ValueError as san_error:
        try:
            return position.parse_uci(text)
        except ValueError:
            raise san_error


def main(argv=None, stdin=sys.stdin, out=sys.stdout):
    parser = argparse.ArgumentParser(prog="python -m host_tools.play", description=__doc__.split("\n")[0])
    parser.add_argument("--fen")
    parser.add_argument("--profile", default="fide", choices=PROFILES)
    parser.add_argument("--lang", default="en", choices=("en", "it"))
    args = parser.parse_args(argv)
    try:
        position = Position(args.fen, args.profile)
    except ValueError as e:
        parser.exit(2, "error: %s\n" % e)

    def say(*lines):
        for line in lines:
            print(line, file=out)

    say(board_text(position), HELP)
    while True:
        outcome = position.outcome()
        if outcome:
            say("game over: %s (%s)" % outcome)
        say("%s to move> " % ("White", "Black")[position.turn])
        line = stdin.readline()
        if not line:
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        if cmd in ("quit", "exit"):
            return 0
        if cmd == "help":
            say(HELP)
        elif cmd == "fen":
            say(position.fen())
        elif cmd == "pgn":
            say(position.pgn())
        elif cmd == "moves":
            say(" ".join(sorted(position.san(m, args.lang) for m in position.legal_moves())))
        elif cmd == "undo":
            if position.move_stack:
                position.pop()
            say(board_text(position))
        elif cmd == "claim":
            result = position.claim_draw()
            say("draw granted: %s" % result[1] if result else "no draw can be claimed")
        elif cmd == "draw":
            position.agree_draw()
        elif cmd == "resign":
            position.resign(position.turn)
        elif outcome:
            say("the game is over; undo, fen, pgn or quit")
        else:
            try:
                move = parse_move(position, cmd, args.lang)
            except ValueError as e:
                say("error: %s" % e)
                continue
            say("%s" % position.san(move, args.lang))
            position.push(move)
            say(board_text(position))


if __name__ == "__main__":
    sys.exit(main())
