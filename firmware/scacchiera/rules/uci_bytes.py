"""A game's moves as UCI in bytes, for the protocol's ``status`` (link/commands.py).

notation.uci makes a str a move, and on the Pico a new str is dear, a byte
cheap: ``write_moves`` writes the same text as notation.uci, as machine code
on the Pico (viper, scacchiera/__init__.py); docs/firmware.md has the
figures. Its own module: it is imported with the first command, so a board
played without a computer spends no RAM on it.
"""

from .. import const, micropython, ptr8, ptr32

_PIECE_BYTES = b" pnbrqk\x00"   # by piece type (write_moves reads 0..7)
_MOVE_BITS = const(0x3FFFF)       # a move's bits in a history word (position.py), DROP and KING's type
_DROP_BIT = const(0x20000)        # (squares.py): viper needs consts of its own module
_KING_TYPE = const(6)


@micropython.viper
def write_moves(words, n: int, out, at: int) -> int:
    """Write the first ``n`` moves of ``words`` (an array("I"); Position.move_words: each move in
    its low 18 bits) into the bytearray ``out`` from ``at`` as JSON strings, ``"e2e4", "e7e8q"``;
    return where it stopped.

    Indexes, since viper checks none: ``out`` holds at + 10 * n bytes or more (the callers make it
    so; a move takes at most 10: a separator, quotes, a promotion's 5), ``words`` n items or more,
    and _PIECE_BYTES is read at a piece type, 0..7 (3 bits)."""
    w = ptr32(words)
    o = ptr8(out)
    pieces = ptr8(_PIECE_BYTES)
    i = 0
    while i < n:
        move = w[i] & _MOVE_BITS
        if i > 0:
            o[at] = 44                 # ", "
            o[at + 1] = 32
            at += 2
        o[at] = 34                     # '"'
        to = (move >> 7) & 127
        piece = (move >> 14) & 7
        if move & _DROP_BIT:
            o[at + 1] = pieces[piece] - 32        # the piece in upper case, then "@"
            o[at + 2] = 64
        else:
            o[at + 1] = 97 + (move & 7)
            o[at + 2] = 49 + ((move >> 4) & 7)
        o[at + 3] = 97 + (to & 7)
        o[at + 4] = 49 + ((to >> 4) & 7)
        at += 5
        if piece != 0 and piece != _KING_TYPE and (move & _DROP_BIT) == 0:   # a king: Chess960's castling
            o[at] = pieces[piece]
            at += 1
        o[at] = 34
        at += 1
        i += 1
    return at
