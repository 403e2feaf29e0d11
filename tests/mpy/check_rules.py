"""The rules module under real MicroPython (run by tests/test_micropython.py).

Plain Python that also runs on CPython, so a failure here can be debugged
with either. Prints one line per check and "N passed, N failed" last; exits
1 if anything failed.
"""

import sys

from scacchiera.rules import Position, CASUAL

results = [0, 0]


def check(name, got, expected):
    ok = got == expected
    results[0 if ok else 1] += 1
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": got %r, expected %r" % (got, expected)))


def suite_lines(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] == "#":
                continue
            fields = line.split(";")
            depths = {}
            name = ""
            for field in fields[1:]:
                field = field.strip()
                if field[0] == "D":
                    d, n = field[1:].split()
                    depths[int(d)] = int(n)
                elif field.startswith("id"):
                    name = field[2:].strip().strip('"')
            yield fields[0].strip(), depths, name


def check_perft(path, max_nodes):
    for fen, depths, name in suite_lines(path):
        p = Position.from_fen(fen)
        for depth in sorted(depths):
            if depths[depth] <= max_nodes:
                check("perft %s D%d" % (name, depth), p.perft(depth), depths[depth])
        # (the en passant field is compared by the host tests: it shows only capturable squares)
        check("fen round trip %s" % name, p.fen().split()[:3], fen.split()[:3])


def check_game():
    # The scholar's mate in Italian letters, with SAN out and in.
    p = Position()
    moves = ["e4", "e5", "Ac4", "Cc6", "Dh5", "Cf6", "Dxf7#"]
    for san in moves:
        m = p.parse_san(san, lang="it")
        check("san %s" % san, p.san(m, lang="it"), san)
        p.push(m)
    check("mate", p.outcome(), ("1-0", "checkmate"))
    check("fen after mate", p.fen(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
    check("pgn", p.pgn().split("\n\n")[1].strip(), "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0")
    # Fivefold by knight shuffles; threefold on a claim first.
    q = Position()
    for i in range(4):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            q.push_san(san)
        if i == 1:
            check("threefold claim", q.outcome(True), ("1/2-1/2", "threefold_repetition"))
    check("fivefold", q.outcome(), ("1/2-1/2", "fivefold_repetition"))
    check("casual K+N v K+N", Position.from_fen("8/8/4k3/3n4/8/2K5/8/6N1 w - - 0 1", CASUAL).outcome(),
          ("1/2-1/2", "insufficient_material"))
    try:
        Position.from_fen("8/8/8/8/8/8/8/8 w - - 0 1")
        check("bad FEN raises", "no error", "ValueError")
    except ValueError as e:
        check("bad FEN raises", "king" in str(e), True)
    # Checks no last move can give (rules/validity.py); the possible ones load.
    for fen, words in (("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", "along one line"),
                       ("4k3/8/8/8/4q3/3n4/8/r3K3 w - - 0 1", "3 pieces"),
                       ("4k3/8/8/3Pp3/8/8/8/r3K3 w - e6 0 1", "two-square pawn move"),
                       ("8/8/8/2k5/3Pp3/8/8/2R1K3 b - d3 0 1", "double check"),
                       ("8/8/8/8/3Pp3/4k3/8/2B1K3 b - d3 0 1", None),
                       ("4k3/8/8/8/1b2r3/8/8/Q3K3 w - - 0 1", None)):
        try:
            Position.from_fen(fen)
            check("impossible check " + fen, None, words)
        except ValueError as e:
            check("impossible check " + fen, words is not None and words in str(e), True)
    # The Pico drops the FEN reader after each read, good or bad (its RAM is the game's).
    check("FEN reader dropped after a read", "scacchiera.rules.fen_reader" in sys.modules, False)
    import scacchiera.rules as rules_package
    check("FEN reader not kept by its package", hasattr(rules_package, "fen_reader"), False)


def main():
    max_nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    check_perft(sys.argv[1], max_nodes)
    check_game()
    print("%d passed, %d failed" % (results[0], results[1]))
    if results[1]:
        sys.exit(1)


main()
