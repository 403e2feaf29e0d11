"""Perft: count the leaf nodes of the legal move tree, to check the move generator.

    python -m host_tools.perft "<FEN>" DEPTH [--divide]
    python -m host_tools.perft --suite FILE [--max-depth N] [--max-nodes N]

The node count is the last line printed. A suite file is EPD-style, as
``tests/data/perft_suite.epd``: ``<FEN> ;D1 20 ;D2 400 ... ;id "name"``.
"""

import argparse
import sys
import time

from host_tools import _paths  # noqa: F401  (makes ``scacchiera`` importable from a checkout)
from scacchiera.rules import Position


def divide(position, depth):
    """(uci, count) for each root move."""
    rows = []
    for move in position.legal_moves():
        position.push(move)
        rows.append((position.uci(move), position.perft(depth - 1)))
        position.pop()
    return rows


def parse_suite_line(line):
    """'<FEN> ;D1 20 ;id "x"' -> (fen, {depth: nodes}, name), or None for a blank/comment line."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    fields = [f.strip() for f in line.split(";")]
    fen, depths, name = fields[0], {}, ""
    for field in fields[1:]:
        if field.startswith("D") and " " in field:
            d, n = field[1:].split(None, 1)
            depths[int(d)] = int(n)
        elif field.startswith("id"):
            name = field[2:].strip().strip('"')
        else:
            raise ValueError("unknown EPD field: %r" % field)
    return fen, depths, name


def run_suite(path, max_depth=None, max_nodes=None, out=sys.stdout):
    """Check every line of an EPD perft suite; returns the number of failures."""
    failures = 0
    with open(path) as f:
        for line in f:
            entry = parse_suite_line(line)
            if entry is None:
                continue
            fen, depths, name = entry
            position = Position.from_fen(fen)
            for depth in sorted(depths):
                expected = depths[depth]
                if (max_depth and depth > max_depth) or (max_nodes and expected > max_nodes):
                    continue
                start = time.time()
                got = position.perft(depth)
                ok = got == expected
                failures += not ok
                print("%-4s %-28s D%d %10d %s (%.1fs)" % (
                    "ok" if ok else "FAIL", name, depth, got,
                    "" if ok else "expected %d" % expected, time.time() - start), file=out)
    print("%d failures" % failures, file=out)
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.perft", description=__doc__.split("\n")[0])
    parser.add_argument("fen", nargs="?", help="position in FEN")
    parser.add_argument("depth", nargs="?", type=int)
    parser.add_argument("--divide", action="store_true", help="one 'move: count' line per root move first")
    parser.add_argument("--suite", metavar="FILE", help="run an EPD perft suite")
    parser.add_argument("--max-depth", type=int, help="suite: skip deeper entries")
    parser.add_argument("--max-nodes", type=int, help="suite: skip entries with more nodes")
    args = parser.parse_args(argv)
    if args.suite:
        return 1 if run_suite(args.suite, args.max_depth, args.max_nodes) else 0
    if args.fen is None or args.depth is None:
        parser.error("give FEN and DEPTH, or --suite FILE")
    try:
        position = Position.from_fen(args.fen)
    except ValueError as e:
        parser.exit(2, "error: %s\n" % e)
    if args.divide and args.depth > 0:
        rows = divide(position, args.depth)
        for uci, count in rows:
            print("%s: %d" % (uci, count))
        print(sum(count for _, count in rows))
    else:
        print(position.perft(args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
