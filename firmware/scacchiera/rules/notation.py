"""FEN, UCI and SAN out (English or Italian letters) for a Position: what the board needs every move.

Reading SAN and writing PGN live in pgn.py, imported when first needed, so
the Pico keeps their code out of RAM until a game is archived.
Every parser checks what it reads and raises ValueError with a message
that names what is wrong: a bad string never yields a wrong position.
"""

from .. import forget
from .squares import (PAWN, ROOK, KING,
                      DROP, FILE_NAMES, RANK_NAMES, PIECE_SYMBOLS,
                      square_name, parse_square, sq64)

# SAN letters indexed by piece type (index 0 unused, pawns have none).
# Italian: Re, Donna, Torre, Alfiere, Cavallo.
LETTERS = {"en": "  NBRQK", "it": "  CATDR"}


def _letters(lang):
    try:
        return LETTERS[lang]
    except KeyError:
        raise ValueError("unknown SAN language: %r (use 'en' or 'it')" % (lang,))


def _name88(sq):
    return square_name(sq64(sq))


# -- FEN ----------------------------------------------------------------

def set_fen(pos, fen):
    """Set ``pos`` from a FEN (4 to 6 fields); ValueError names what is wrong (fen_reader.py)."""
    from . import fen_reader
    try:
        fen_reader.set_fen(pos, fen)
    finally:
        forget(fen_reader)          # the Pico drops the reader after each read (RAM)


# FEN letters indexed by piece code (type | color << 3): white upper case, black lower.
_FEN_LETTERS = b" PNBRQK  pnbrqk "
_CASTLING_LETTERS = b"KQkq"        # by the castling bit


def fen(pos):
    """The FEN, built in one bytearray and made a str once: on the Pico a new str is dear
    (docs/firmware.md), and the move event carries the FEN every move."""
    board = pos.board
    out = bytearray(100)           # 64 letters, 7 slashes, 13 for the fields between, two counts (FEN: 6 digits)
    n = 0
    for rank in range(112, -1, -16):
        empty = 0
        for sq in range(rank, rank + 8):
            p = board[sq]
            if not p:
                empty += 1
                continue
            if empty:
                out[n] = 48 + empty
                n += 1
                empty = 0
            out[n] = _FEN_LETTERS[p]
            n += 1
        if empty:
            out[n] = 48 + empty
            n += 1
        if rank:
            out[n] = 47            # "/"
            n += 1
    out[n] = 32
    out[n + 1] = 98 if pos.turn else 119    # "b", "w"
    out[n + 2] = 32
    n += 3
    if pos.castling & 15:
        for i in range(4):
            if pos.castling & (1 << i):
                out[n] = _CASTLING_LETTERS[i]
                n += 1
    else:
        out[n] = 45                # "-"
        n += 1
    out[n] = 32
    if pos.ep >= 0:
        out[n + 1] = 97 + (pos.ep & 7)
        out[n + 2] = 49 + (pos.ep >> 4)
        n += 3
    else:
        out[n + 1] = 45
        n += 2
    counts = b" %d %d" % (pos.halfmove, pos.fullmove)
    out[n:n + len(counts)] = counts
    return out[:n + len(counts)].decode()


# -- UCI ----------------------------------------------------------------

def uci(move):
    if move & DROP:
        return "%s@%s" % (PIECE_SYMBOLS[(move >> 14) & 7].upper(), _name88((move >> 7) & 127))
    s = _name88(move & 127) + _name88((move >> 7) & 127)
    promo = (move >> 14) & 7
    return s + PIECE_SYMBOLS[promo] if promo and promo != KING else s   # KING: Chess960's castling


def parse_uci(pos, text):
    """'e2e4', 'e7e8q' (or a drop 'N@c3') -> a legal move of ``pos``."""
    if not isinstance(text, str) or not 4 <= len(text) <= 5:
        raise ValueError("malformed UCI move: %r" % (text,))
    legal = pos.legal_moves()
    if text[1] == "@":
        t = PIECE_SYMBOLS.find(text[0].lower())
        if t < 1 or len(text) != 4:
            raise ValueError("malformed UCI drop: %r" % (text,))
        sq = parse_square(text[2:])
        move = DROP | t << 14 | (sq + (sq & 0x38)) << 7
    else:
        try:
            fr = parse_square(text[0:2])
            to = parse_square(text[2:4])
        except ValueError:
            raise ValueError("malformed UCI move: %r" % (text,))
        promo = 0
        if len(text) == 5:
            promo = "  nbrq".find(text[4])
            if promo < 2:
                raise ValueError("malformed UCI promotion in %r (use q, r, b or n)" % (text,))
        move = (fr + (fr & 0x38)) | (to + (to & 0x38)) << 7 | promo << 14
    if move not in legal:
        raise ValueError("illegal move %s in %s" % (text, fen(pos)))
    return move


# -- SAN ----------------------------------------------------------------

def san(pos, move, lang="en", legal=None, mark=True):
    """Standard algebraic notation of a legal move, with + or # unless ``mark`` is false.

    ``legal``: the position's legal moves if the caller has them (saves generating them again).
    The mark needs the move pushed and popped: the game, which pushes the move anyway, adds
    its own."""
    s = _san_body(pos, move, _letters(lang), legal)
    if mark:
        pos.push(move)
        if pos.is_check():
            s += "#" if not pos.legal_moves() else "+"
        pos.pop()
    return s


def _san_body(pos, move, letters, legal=None):
    to = (move >> 7) & 127
    if move & DROP:
        t = (move >> 14) & 7
        return (letters[t] if t != PAWN else "P") + "@" + _name88(to)
    board = pos.board
    fr = move & 127
    t = board[fr] & 7
    if t == KING and (to - fr == 2 or fr - to == 2 or move >> 14 & 7 == KING):
        return "O-O" if to > fr else "O-O-O"        # chess's king two squares; Chess960's king takes rook
    capture = board[to] or (t == PAWN and to == pos.ep)
    if t == PAWN:
        s = FILE_NAMES[fr & 7] + "x" if capture else ""
        s += _name88(to)
        promo = (move >> 14) & 7
        return s + "=" + letters[promo] if promo else s
    s = letters[t]
    # Disambiguate as python-chess does: file if it tells them apart, else rank, else both.
    others = [m & 127 for m in (pos.legal_moves() if legal is None else legal)
              if (m >> 7) & 127 == to and m & 127 != fr and not m & DROP and board[m & 127] & 7 == t]
    if others:
        same_file = any(o & 7 == fr & 7 for o in others)
        same_rank = any(o >> 4 == fr >> 4 for o in others)
        if not same_file or same_rank:
            s += FILE_NAMES[fr & 7]
        if same_file:
            s += RANK_NAMES[fr >> 4]
    if capture:
        s += "x"
    return s + _name88(to)
