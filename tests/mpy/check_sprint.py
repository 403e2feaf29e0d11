"""Scacchi Sprint games under MicroPython and CPython alike (run by tests/test_sprint_selfplay.py).

Usage: check_sprint.py PLIES SEED... For each seed it plays two games of at
most PLIES plies, one choosing uniformly among the sorted legal moves with the
game's own PRNG (scacchiera.rules.deck.Rng), one where every move is the
hourglass's auto move, and prints each game's SAN moves and final position
string. The test compares this output from both Pythons: the same seed must
give the same game. Prints "N passed, N failed" last; exits 1 on a failure.
"""

import sys

from scacchiera.rules.deck import Rng
from scacchiera.rules.sprint import SprintPosition, auto_move, read_pgn

results = [0, 0]


def check(name, got, expected):
    ok = got == expected
    results[0 if ok else 1] += 1
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": got %r, expected %r" % (got, expected)))


def play(seed, plies, hourglass):
    pos = SprintPosition(seed=seed)
    rng = Rng(seed, 0x155)
    sans = []
    while pos.ply() < plies and pos.outcome() is None:
        if hourglass:
            move = auto_move(pos)
        else:
            moves = sorted(pos.legal_moves())
            move = moves[rng.below(len(moves))]
        sans.append(pos.san(move))
        pos.push(move)
    return pos, sans


def main():
    plies = int(sys.argv[1])
    for arg in sys.argv[2:]:
        seed = int(arg)
        for hourglass in (False, True):
            pos, sans = play(seed, plies, hourglass)
            print("game %d %s: %s" % (seed, "hourglass" if hourglass else "random", " ".join(sans)))
            print("  end %s %r" % (pos.fen(), pos.outcome()))
            # The position string reads back to the same position (the tile just drawn too: the board
            # offers it first), and the PGN replays the game.
            again = SprintPosition.from_fen(pos.fen())
            check("string round trip %d" % seed, (again.fen(), again.hash, again.drawn_tile()),
                  (pos.fen(), pos.hash, pos.drawn_tile()))
            if not hourglass:
                check("pgn replay %d" % seed, read_pgn(pos.pgn()).fen(), pos.fen())
    p = SprintPosition(seed=7)
    check("start", p.fen().split()[6:], ["12/13", "Kk", "7"])
    m = p.parse_san("P@d3")
    p.push(m)
    check("drop san", p.san(p.legal_moves()[0]) != "", True)
    check("black's drawn tile read back", SprintPosition.from_fen(p.fen()).drawn_tile(), p.drawn_tile())
    p.pop()
    check("push/pop", p.fen(), SprintPosition(seed=7).fen())
    # The seed's start as a string (a game resumed before its first move) knows White's first tile.
    check("start string drawn tile", SprintPosition.from_fen(p.fen()).drawn_tile(), p.drawn_tile())
    print("%d passed, %d failed" % (results[0], results[1]))
    if results[1]:
        sys.exit(1)


main()
