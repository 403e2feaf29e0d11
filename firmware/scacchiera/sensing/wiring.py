"""From the matrix's wires to the board's squares: the switch rows the logic expects.

The hardware layer reads the matrix one *wiring* row at a time (bit c set when
the reed at column c is closed); the logic wants *rank* bytes (bit f set when
the square ``rank * 8 + f`` holds a piece). Which is which depends on how the
board is turned (``board_config.A1_CORNER``). The two common cases, White at
the USB edge and Black at it, are byte copies (the second with a bit-reversal
table); a board turned a quarter goes square by square. Nothing allocates.
"""

from .. import const, micropython, ptr8

_SAME = const(0)       # row r is rank r, column c is file c
_FLIPPED = const(1)    # row r is rank 7 - r, column c is file 7 - c
_ANY = const(2)


class Wiring:
    def __init__(self, rc_to_square):
        """``rc_to_square(row, col)``: the square whose reed sits at (row, col) (board_config)."""
        table = bytearray(64)
        for row in range(8):
            for col in range(8):
                table[row * 8 + col] = rc_to_square(row, col)
        if sorted(table) != list(range(64)):
            raise ValueError("the wiring must put one reed under each square")
        self.table = table
        if all(table[i] == i for i in range(64)):
            self.mode = _SAME
        elif all(table[i] == 63 - i for i in range(64)):
            self.mode = _FLIPPED
        else:
            self.mode = _ANY
        self.straight = self.mode == _SAME    # the wiring's rows are the ranks: nothing to turn
        rev = bytearray(256)
        for b in range(256):
            r = 0
            for i in range(8):
                if b >> i & 1:
                    r |= 1 << (7 - i)
            rev[b] = r
        self.reverse = rev

    def to_squares(self, raw, out):
        """``raw``: 8 wiring-row bytes (bit c = column c closed) -> ``out``: 8 rank bytes."""
        to_ranks(raw, out, self.table, self.reverse, self.mode)
        return out


@micropython.viper
def to_ranks(raw, out, table, reverse, mode: int):
    """Wiring rows to rank bytes, machine code on the Pico (a byte copy in bytecode cost the
    RP2040 116 us of every scan). Indexes: ``raw`` and ``out`` at r < 8 and at a square's
    rank (< 8), ``table`` at r * 8 + c < 64, ``reverse`` at a byte (< 256)."""
    src = ptr8(raw)
    dst = ptr8(out)
    r = 0
    if mode == _SAME:
        while r < 8:
            dst[r] = src[r]
            r += 1
    elif mode == _FLIPPED:
        rev = ptr8(reverse)
        while r < 8:
            dst[7 - r] = rev[src[r]]
            r += 1
    else:
        squares = ptr8(table)
        while r < 8:
            dst[r] = 0
            r += 1
        r = 0
        while r < 8:
            bits = src[r]
            i = r * 8
            while bits:
                if bits & 1:
                    sq = squares[i]
                    dst[sq >> 3] = dst[sq >> 3] | 1 << (sq & 7)
                bits >>= 1
                i += 1
            r += 1
