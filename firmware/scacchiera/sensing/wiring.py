"""From the matrix's wires to the board's squares: the switch rows the logic expects.

The hardware layer reads the matrix one *wiring* row at a time (bit c set when
the reed at column c is closed); the logic wants *rank* bytes (bit f set when
the square ``rank * 8 + f`` holds a piece). Which is which depends on how the
board is turned (``board_config.A1_CORNER``). The two common cases, White at
the USB edge and Black at it, are byte copies (the second with a bit-reversal
table); a board turned a quarter goes square by square. Nothing allocates.
"""

from .. import const

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
        mode = self.mode
        if mode == _SAME:
            for r in range(8):
                out[r] = raw[r]
        elif mode == _FLIPPED:
            rev = self.reverse
            for r in range(8):
                out[7 - r] = rev[raw[r]]
        else:
            table = self.table
            for r in range(8):
                out[r] = 0
            for r in range(8):
                bits = raw[r]
                i = r * 8
                while bits:
                    if bits & 1:
                        sq = table[i]
                        out[sq >> 3] |= 1 << (sq & 7)
                    bits >>= 1
                    i += 1
        return out
