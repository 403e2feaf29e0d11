"""What a position is worth to the engine: material and piece-square tables, tapered.

Seed 001 counts P 1, N 3, B 3, R 5, Q 10; the engine works in centipawns and
refines that to P 100, N 320, B 330, R 500, Q 900 (the usual correction: a
bishop a little over a knight, a queen a little under two rooks). The
piece-square tables are Tomasz Michniewski's "simplified evaluation function"
(engine/square_tables.py), with a middle-game and an end-game table for the
king; the two are blended by the material left (the phase: N and B 1, R 2,
Q 4, 24 at the start).

The tables come expanded (engine/tables_data.py, written by
host_tools/make_tables.py), one per phase, indexed by ``piece << 6 | square``
(piece code 1..14, square 0..63) with the material included and the sign
folded in (white positive), so the search updates its score by two lookups
per moved piece. They are bytes: in the flash's ROMFS image they are read in
place, through uctypes (4 KB of the Pico's heap that expanding them took). What the tables cannot see
is counted at each evaluation (engine/tree.py's ``static_score``, machine
code on the Pico; the pawns' own terms kept in a small table under a key of
the pawns): passed, doubled and isolated pawns, the bishop pair, rooks on
open files, the pawns in front of a king on its first two ranks. Mobility is
not counted: it would walk every piece's moves at each evaluation.
"""

from array import array

from .. import forget
from . import tables_data

VALUE = (0, 100, 320, 330, 500, 900, 0)
# Contribution of each piece type to the game phase (24 = every piece on).
PHASE = (0, 0, 1, 1, 2, 4, 0)
PHASE_FULL = 24


def _int16s(data):
    """``data`` (16-bit little-endian values) as a table of signed ints: where the bytes are in flash
    (a module in ROMFS), a view of them through uctypes, nothing copied; elsewhere a copy, and the
    bytes are dropped with their module."""
    try:
        import uctypes
        if uctypes.addressof(data) >> 24 == _XIP >> 24:
            layout = {"t": (uctypes.ARRAY | 0, uctypes.INT16 | (len(data) >> 1))}
            return uctypes.struct(uctypes.addressof(data), layout, uctypes.LITTLE_ENDIAN).t
    except ImportError:
        pass
    table = array("h", data)
    if array("h", b"\x01\x00")[0] != 1:          # a big-endian host
        table.byteswap()
    return table


_XIP = 0x10000000       # the RP2040's (and RP2350's) flash, mapped for reading (execute in place)
MIDDLE = _int16s(tables_data.MIDDLE)      # a view holds only the address: the bytes stay in flash
END = _int16s(tables_data.END)
forget(tables_data)
del tables_data
del _int16s
