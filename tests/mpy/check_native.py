"""The viper functions against their bytecode twins, on a table of positions (tests/test_pico_native.py).

On the emulated Pico the firmware's modules are machine code and the twins
(``*_bytecode``: the same source with the decorator lines blank, compiled as
bytecode) sit beside them; on CPython both names are the one
module, and the printed checksums are the reference the Pico's must equal.
FENS is set by whoever runs this (the test prepends it). Prints, per function,
``NATIVE <name> <calls> <mismatches> <checksum>``, then the engine's
``ENGINE <uci> <nodes> <depth> <score>`` and ``PERFT <nodes> <ms>`` lines.
"""

import gc
import sys
from array import array

# On the emulated Pico the REPL shares its heap with the stopped firmware's modules: those this
# check does not use are dropped first (their code back to the heap: the twins below need it).
# Not on CPython, where this runs inside pytest's process and other tests hold those modules.
if sys.implementation.name == "micropython":
    for _name in [n for n in sys.modules if n in ("hal", "oled") or (n.startswith("scacchiera.") and not
                  n == "scacchiera.sensing" and not
                  any(n.startswith(k) for k in ("scacchiera.rules", "scacchiera.engine", "scacchiera.sensing.wiring")))]:
        _parent, _, _child = _name.rpartition(".")
        if _parent in sys.modules and hasattr(sys.modules[_parent], _child):
            delattr(sys.modules[_parent], _child)
        del sys.modules[_name]
    gc.collect()

from scacchiera.rules import Position
from scacchiera.engine import Engine
import scacchiera.rules.legal as legal
import scacchiera.engine.movegen as movegen
import scacchiera.engine.tree as tree_module
from scacchiera.engine.tree import Tree, UNDO, SPECIAL, STATE, PLY, HALF, HASH, MAX_PLY
import scacchiera.engine.ordering as ordering
import scacchiera.sensing.wiring as wiring
import scacchiera.rules.uci_bytes as uci_bytes
import scacchiera.rules.occupancy as occupancy

try:
    import scacchiera.rules.legal_bytecode as legal_bc
    import scacchiera.engine.movegen_bytecode as movegen_bc
    import scacchiera.engine.tree_bytecode as tree_bc
    import scacchiera.engine.ordering_bytecode as ordering_bc
    import scacchiera.sensing.wiring_bytecode as wiring_bc
    import scacchiera.rules.uci_bytes_bytecode as uci_bytes_bc
    import scacchiera.rules.occupancy_bytecode as occupancy_bc
except ImportError:       # CPython: the twins are the modules themselves
    legal_bc, movegen_bc, ordering_bc, tree_bc, wiring_bc, uci_bytes_bc, occupancy_bc = (
        legal, movegen, ordering, tree_module, wiring, uci_bytes, occupancy)

try:
    from time import ticks_ms, ticks_diff
except ImportError:
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

SQUARES = [r * 16 + f for r in range(8) for f in range(8)]
# the rim (where a step leaves the board) and the centre
PROBES = [sq for sq in SQUARES if sq & 7 in (0, 7) or sq >> 4 in (0, 7) or sq in (0x33, 0x34, 0x43, 0x44)]
EP_SQUARES = (0x20, 0x23, 0x27, 0x50, 0x54, 0x57)     # a3 d3 h3 a6 e6 h6: both edges and the middle


class Tally:
    def __init__(self, name):
        self.name = name
        self.calls = 0
        self.bad = 0
        self.sum = 0

    def same(self, a, b):
        self.calls += 1
        if a != b:
            self.bad += 1
        self.sum = (self.sum * 31 + (a if isinstance(a, int) else len(a) + sum(a))) & 0xFFFFFF

    def show(self):
        print("NATIVE %s %d %d %d" % (self.name, self.calls, self.bad, self.sum))


def legal_of(p, module):
    """Position.generate's call, made to ``module``'s legal_moves; then count_moves' (flags' bit 18):
    the moves, the marks, the two counts and the castlings the count appended."""
    out = []
    castlings = []
    us = p.turn
    marks = bytearray(b"\xff" * 128)       # checks_and_pins clears it first
    checks = module.checks_and_pins(p.board, marks, p.kings[us], us)
    flags = p.kings[us] | us << 7 | (p.ep + 1) << 8 | (1 if p.castling else 0) << 15 | checks << 16
    listed = module.legal_moves(p.board, marks, out.append, p, flags)
    counted = module.legal_moves(p.board, marks, castlings.append, p, flags | 1 << 18)
    assert counted == listed and counted + len(castlings) == len(out), (counted, listed, castlings, out)
    return out + list(marks) + [listed, counted] + castlings


def make_unmake(tree, module, move):
    """What ``module``'s make_move leaves (board, state, the ply's undo record, the keys, its
    answer), then whether its unmake_move put the board and the state back (all but SPECIAL,
    which only make sets); the tree is left as it was found (at ply 0)."""
    board, st = bytes(tree.board), list(tree.st)
    made = module.make_move(tree.board, tree.st, tree.undo, tree.keys, tree.keep, move)
    after = bytes(tree.board), list(tree.st) + list(tree.undo[:UNDO]) + [tree.keys[1], made]
    undone = module.unmake_move(tree.board, tree.st, tree.undo)
    tree.st[SPECIAL] = st[SPECIAL]
    restored = bytes(tree.board) == board and list(tree.st) == st
    for i in range(len(board)):
        tree.board[i] = board[i]
    for i in range(len(st)):
        tree.st[i] = st[i]
    return after[0], after[1] + [undone], int(restored or made)


def check_make(fens, tally, restored, scored, exposed, blocks, pieces):
    """make_move and unmake_move, and in each position made: the static score (twice: the pawns'
    terms counted, then read from the pawn table; each twin with its own table, the tables
    compared at the end), the count of pieces for either side and the legality test (as if the
    mover was in check and as if not); before it, every move against a checker on any probe
    square."""
    tree = Tree()
    native_pawns, twin_pawns = tree_module.pawn_table(), tree_module.pawn_table()
    for fen in fens:
        tree.load(Position(fen))
        st = tree.st
        n = tree.castles(movegen.pseudo_moves(tree.board, tree.moves, 0, st[0] | 2 | (st[2] + 1) << 2))
        for j in range(n):
            m = tree.moves[j]
            for c in PROBES:
                blocks.same(tree_module.stops_check(tree.st, m, c), tree_bc.stops_check(tree.st, m, c))
        for j in range(n):
            m = tree.moves[j]
            native, twin = make_unmake(tree, tree_module, m), make_unmake(tree, tree_bc, m)
            tally.same(native[0], twin[0])          # the board
            tally.same(native[1], twin[1])          # the state, the undo record, the key
            restored.same(native[2], 1)             # unmake put the board and the state back
            restored.same(twin[2], 1)
            if tree_module.make_move(tree.board, tree.st, tree.undo, tree.keys, tree.keep, m):
                tree_module.unmake_move(tree.board, tree.st, tree.undo)
                continue                            # a Chess960 castling: Tree finishes it
            for _ in range(2):
                scored.same(tree_module.static_score(tree.board, tree.st, native_pawns),
                            tree_bc.static_score(tree.board, tree.st, twin_pawns))
            for us in (0, 1):
                pieces.same(tree_module.has_pieces(tree.board, us), tree_bc.has_pieces(tree.board, us))
            for was_in_check in (0, 2):
                exposed.same(tree_module.left_in_check(tree.board, tree.st, tree.undo, was_in_check),
                             tree_bc.left_in_check(tree.board, tree.st, tree.undo, was_in_check))
            tree_module.unmake_move(tree.board, tree.st, tree.undo)
    scored.same(list(native_pawns), list(twin_pawns))


def check_repetition(tally):
    """is_repetition over lines of every length and clocks up to the game's keys' end: the key
    matched on the line, in the game, or nowhere."""
    st = array("i", bytes(4 * STATE))
    keys = array("i", range(100, 100 + MAX_PLY + 1))
    game = array("i", range(1000, 1030))
    for ply in (0, 1, 2, 3, 8, MAX_PLY):
        st[PLY] = ply
        for half in (0, 1, 2, 3, 9, 40, 99):
            st[HALF] = half
            for h in [7] + list(keys[:ply]) + list(game[-16:]):
                st[HASH] = h
                tally.same(tree_module.is_repetition(st, keys, game, len(game)),
                           tree_bc.is_repetition(st, keys, game, len(game)))


def check_wiring(tally):
    """to_ranks for each way a board may be turned (a byte copy, flipped, a quarter turn),
    over rows holding every byte value."""
    for turn in (lambda r, c: r * 8 + c, lambda r, c: 63 - r * 8 - c, lambda r, c: (7 - c) * 8 + r):
        w = wiring.Wiring(turn)
        raw = bytearray(8)
        for k in range(256):
            for r in range(8):
                raw[r] = (k + r * 37) & 255
            a = bytearray(8)
            b = bytearray(8)
            wiring.to_ranks(raw, a, w.table, w.reverse, w.mode)
            wiring_bc.to_ranks(raw, b, w.table, w.reverse, w.mode)
            tally.same(list(a), list(b))


def check_palette(tally):
    """_render for three channel orders and caps, on a scrambled chain: frames holding every
    meaning and bytes no meaning has (dark), at the four phases of the two blinks; then a buffer
    too short for the chain (its LEDs past the end left alone) and fewer squares than 64.
    Imported here, once the engine's checks have given their RAM back."""
    import scacchiera.leds.palette as palette
    try:
        import scacchiera.leds.palette_bytecode as palette_bc
    except ImportError:   # CPython: the twin is the module itself
        palette_bc = palette
    leds = bytes((sq * 37 + 11) & 63 for sq in range(64))
    frames = (bytes(range(64)), bytes((sq * 7 + 3) & 31 for sq in range(64)), bytes(255 - sq for sq in range(64)))
    for order, cap in (("GRB", 21), ("RGB", 255), ("BRG", 128)):
        table = palette.Palette(leds, order, cap).table
        for frame in frames:
            for now in (0, 250, 500, 750):
                dark, slow_dark = (now // 250) & 1, (now // 500) & 1
                for size, count in ((192, 64), (150, 40)):
                    a = bytearray(b"\x5a" * size)
                    b = bytearray(b"\x5a" * size)
                    palette._render(frame, a, table, leds, count, len(table), size, dark, slow_dark)
                    palette_bc._render(frame, b, table, leds, count, len(table), size, dark, slow_dark)
                    tally.same(list(a), list(b))


def _history_words():
    """Every kind of move a history word may hold: from and to on the rim and in the centre, each
    promotion and Chess960's king-takes-rook (kind 6), drops of each piece; undo bits above."""
    for fr in SQUARES:
        for to in PROBES:
            for kind in range(7):
                yield fr | to << 7 | kind << 14 | ((fr * 31 + to) & 0xFFF) << 18
    for to in SQUARES:
        for kind in range(1, 7):
            yield 0x20000 | to << 7 | kind << 14


def check_uci_bytes(tally):
    """write_moves over _history_words, 64 to a call (a 23 KB array of them all is too much for the
    REPL beside the stopped firmware)."""
    gc.collect()
    words = array("I", bytes(4 * 64))
    a = bytearray(640)
    b = bytearray(640)

    def compare(n):
        n1 = uci_bytes.write_moves(words, n, a, 0)
        n2 = uci_bytes_bc.write_moves(words, n, b, 0)
        tally.same(n1, n2)
        tally.same(bytes(a[:n1]), bytes(b[:n2]))    # bytes, not lists of ints: 4 B an int, in a heap the firmware shares
    n = 0
    for word in _history_words():
        words[n] = word
        n += 1
        if n == 64:
            compare(n)
            n = 0
    compare(n)


def check_table(put, find):
    """tt_put into two tables of 64 entries (the native and the twin), then tt_find for stored keys,
    keys that only share an entry, and an older generation: keys over all 30 bits, every depth sign,
    bound and move bit, scores near mate either side (the ply added or taken) and 0."""
    mask = 63
    a = bytearray(64 * tree_module.TT_ENTRY)
    b = bytearray(64 * tree_module.TT_ENTRY)
    keys = []
    for k in range(200):
        key = (k * 0x2F6B5A3 + 12345) & 0x3FFFFFFF
        score = (-31000, -30001, -29999, 0, 1, 29999, 30001, 30990)[k % 8]
        move = (k * 2654435) & 0x3FFFF
        args = (key, mask, 1 + k % 2, k % 7 - 2, k % 3, score, move, k % 40)
        tree_module.tt_put(a, *args)
        tree_bc.tt_put(b, *args)
        i = (key & mask) * tree_module.TT_ENTRY
        put.same(list(a[i:i + tree_module.TT_ENTRY]), list(b[i:i + tree_module.TT_ENTRY]))
        keys.append(key)
    put.same(a, b)                     # (not as lists: 4,096 ints, 16 KB of a heap the stopped firmware shares)
    for key in keys + [key ^ 64 for key in keys[:50]]:
        for generation in (1, 2, 3):
            find.same(tree_module.tt_find(a, key, mask, generation), tree_bc.tt_find(b, key, mask, generation))


def check_functions(fens):
    t_att, t_legal, t_gen, t_chk, t_score = (Tally("attacked"), Tally("legal_moves"), Tally("pseudo_moves"),
                                             Tally("checker"), Tally("score_moves"))
    m1 = array("i", bytes(4 * 300))
    m2 = array("i", bytes(4 * 300))
    s1 = array("h", bytes(2 * 300))
    s2 = array("h", bytes(2 * 300))
    history = array("h", bytes(2 * ordering.HISTORY))
    for i in range(len(history)):
        history[i] = (i * 7919) % 16000          # every value a history entry may hold
    t_occ = Tally("fill_occupancy")
    occ1 = bytearray(64)
    occ2 = bytearray(64)
    for fen in fens:
        p = None
        gc.collect()      # the last position's garbage first: the REPL shares its heap with the stopped firmware
        p = Position(fen)
        for m in [0] + p.legal_moves():
            # the position and each one a move away
            if m:
                p.push(m)
            t_legal.same(legal_of(p, legal), legal_of(p, legal_bc))
            occupancy.fill_occupancy(p.board, occ1)
            occupancy_bc.fill_occupancy(p.board, occ2)
            t_occ.same(list(occ1), list(occ2))
            if m:
                p.pop()
        board = p.board
        for by in (0, 1):
            for sq in PROBES:
                t_att.same(int(legal.attacked(board, sq, by)), int(legal_bc.attacked(board, sq, by)))
        for us in (0, 1):
            for sq in PROBES:
                # any square as the king's: a checker is named whatever stands there
                t_chk.same(movegen.checker(board, sq, us), movegen_bc.checker(board, sq, us))
            for quiet in (0, 2):
                for ep in (-1,) + EP_SQUARES:
                    flags = us | quiet | (ep + 1) << 2
                    n1 = movegen.pseudo_moves(board, m1, 7, flags)
                    n2 = movegen_bc.pseudo_moves(board, m2, 7, flags)
                    t_gen.same(n1, n2)
                    t_gen.same(list(m1[7:n1]), list(m2[7:n2]))
                # the scores that order them: table move, captures, killers, history
                n = movegen.pseudo_moves(board, m1, 0, us | 2)
                if not n:
                    continue
                for j in range(n):
                    m2[j] = m1[j]
                ttmove, k1, k2 = m1[n // 2], m1[n // 3], m1[n - 1]
                ordering.score_moves(m1, s1, board, history, 0, n, ttmove, k1, k2)
                ordering_bc.score_moves(m2, s2, board, history, 0, n, ttmove, k1, k2)
                t_score.same(list(s1[:n]), list(s2[:n]))
    m1 = m2 = s1 = s2 = history = None      # their RAM back for the Tree below (a 3 KB block)
    gc.collect()
    t_make, t_restored, t_static, t_left, t_stops, t_rep, t_pieces = (
        Tally("make_move"), Tally("unmake_move"), Tally("static_score"), Tally("left_in_check"),
        Tally("stops_check"), Tally("is_repetition"), Tally("has_pieces"))
    check_make(fens, t_make, t_restored, t_static, t_left, t_stops, t_pieces)
    check_repetition(t_rep)
    t_wiring = Tally("to_ranks")
    check_wiring(t_wiring)
    t_uci = Tally("write_moves")
    check_uci_bytes(t_uci)
    t_palette = Tally("render")
    check_palette(t_palette)
    t_put, t_find = Tally("tt_put"), Tally("tt_find")
    check_table(t_put, t_find)
    for t in (t_att, t_legal, t_gen, t_chk, t_score, t_make, t_restored, t_static, t_left, t_stops, t_rep,
              t_pieces, t_wiring, t_uci, t_put, t_find, t_occ, t_palette):
        t.show()


def check_engine(fens, nodes):
    engine = Engine(tt_entries=256)     # a small table: the REPL holds the stopped firmware too
    for fen in fens:
        p = Position(fen)
        engine.start(p, max_nodes=nodes)
        while not engine.step(300):
            pass
        m = engine.result
        print("ENGINE %s %d %d %s" % (p.uci(m) if m else "none", engine.nodes, engine.depth, engine.score))


def check_search(fens, nodes):
    """The search's loop (engine/search.py's walk) as machine code and as its bytecode twin, each
    run whole and in slices of 7 nodes: ``SEARCH <twin> <slice> <uci> <nodes> <depth> <score>``."""
    try:
        import scacchiera.engine.search_bytecode as search_bc
    except ImportError:   # CPython: the module itself
        import scacchiera.engine.search as search_bc
    engine = Engine(tt_entries=256)
    native = engine.search
    twin = search_bc.Search(256)
    for fen in fens:
        for name, search in (("native", native), ("twin", twin)):
            engine.search = search
            for budget in (100000, 7):
                p = Position(fen)
                engine.start(p, max_nodes=nodes)
                while not engine.step(budget):
                    pass
                m = engine.result
                print("SEARCH %s %d %s %d %d %s" % (name, budget, p.uci(m) if m else "none", engine.nodes,
                                                   engine.depth, engine.score))


def check_perft(fen, depth):
    p = Position(fen)
    a = ticks_ms()
    n = p.perft(depth)
    print("PERFT %d %d" % (n, ticks_diff(ticks_ms(), a)))


check_functions(FENS)  # noqa: F821 (set by the caller)
# The twins' RAM back before the engine's table (10 KB in one block) is made
legal_bc = movegen_bc = ordering_bc = tree_bc = wiring_bc = None
for name in [name for name in sys.modules if name.endswith("_bytecode")]:
    del sys.modules[name]
gc.collect()
check_engine(FENS[:3], 300)  # noqa: F821
gc.collect()
check_search(FENS[1:3], 400)  # noqa: F821
check_perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2)
print("DONE")
