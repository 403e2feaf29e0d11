"""Rules speed under MicroPython: perft with push/pop at every node, legal move listing.

Prints lines "name value unit" for host_tools.bench to collect.
"""

import gc
import time

from scacchiera.rules import Position

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def perft_push_pop(p, depth):
    if depth == 0:
        return 1
    n = 0
    for m in p.legal_moves():
        p.push(m)
        n += perft_push_pop(p, depth - 1)
        p.pop()
    return n


def main():
    for name, fen, depth in (("start", START, 3), ("kiwipete", KIWIPETE, 2)):
        p = Position.from_fen(fen)
        gc.collect()    # each figure from the same heap: a collection inside it is its own garbage's
        t = time.ticks_us()
        n = perft_push_pop(p, depth)
        us = time.ticks_diff(time.ticks_us(), t)
        print("perft_%s_d%d_nodes %d nodes" % (name, depth, n))
        print("perft_%s_nps %d nodes/s" % (name, n * 1000000 // us))
    p = Position.from_fen(KIWIPETE)
    runs = 50
    gc.collect()
    t = time.ticks_us()
    for _ in range(runs):
        p.legal_moves()
    print("kiwipete_legal_moves_us %d us" % (time.ticks_diff(time.ticks_us(), t) // runs))


main()
