"""FEN, UCI and SAN out (English or Italian letters) for a Position: what the board needs every move.

Reading SAN and writing PGN live in pgn.py, imported when first needed, so
the Pico keeps their code out of RAM until a game is archived.
Every parser checks what it reads and raises ValueError with a message
that names what is wrong: a bad string never yields a wrong position.
"""

from .squares import (WHITE, BLACK, PAWN, ROOK, KING,
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
    """Set ``pos`` from a FEN (4 to 6 fields); ValueError names what is wrong."""
    if not isinstance(fen, str):
        raise ValueError("FEN must be a string")
    fields = fen.split()
    if not 4 <= len(fields) <= 6:
        raise ValueError("FEN needs 6 fields (or 4), got %d: %r" % (len(fields), fen))
    placement, side, castling, ep = fields[:4]
    board = bytearray(128)
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise ValueError("FEN placement needs 8 ranks, got %d" % len(ranks))
    kings = [-1, -1]
    counts = [0, 0]
    pawns = [0, 0]
    for i, row in enumerate(ranks):
        rank = 7 - i
        f = 0
        prev_digit = False
        for ch in row:
            if ch in "12345678":
                if prev_digit:
                    raise ValueError("FEN rank %d has two digits in a row" % (rank + 1))
                f += int(ch)
                prev_digit = True
                continue
            prev_digit = False
            t = PIECE_SYMBOLS.find(ch.lower())
            if t < 1:
                raise ValueError("FEN rank %d has an unknown piece %r" % (rank + 1, ch))
            if f > 7:
                raise ValueError("FEN rank %d is longer than 8 squares" % (rank + 1))
            color = WHITE if ch.isupper() else BLACK
            if t == PAWN and (rank == 0 or rank == 7):
                raise ValueError("FEN has a pawn on rank %d" % (rank + 1))
            if t == KING:
                if kings[color] >= 0:
                    raise ValueError("FEN has more than one %s king" % ("white", "black")[color])
                kings[color] = rank * 16 + f
            if t == PAWN:
                pawns[color] += 1
            counts[color] += 1
            board[rank * 16 + f] = t | color << 3
            f += 1
        if f != 8:
            raise ValueError("FEN rank %d has %d squares, not 8" % (rank + 1, f))
    for color in (WHITE, BLACK):
        name = ("white", "black")[color]
        if kings[color] < 0:
            raise ValueError("FEN has no %s king" % name)
        if pawns[color] > 8:
            raise ValueError("FEN has more than 8 %s pawns" % name)
        if counts[color] > 16:
            raise ValueError("FEN has more than 16 %s pieces" % name)
    if side not in ("w", "b"):
        raise ValueError("FEN side to move must be 'w' or 'b', got %r" % (side,))
    turn = WHITE if side == "w" else BLACK

    rights = 0
    if castling != "-":
        for ch in castling:
            bit = "KQkq".find(ch)
            if bit < 0:
                raise ValueError("FEN castling field has %r (use KQkq or -)" % (ch,))
            if rights & (1 << bit):
                raise ValueError("FEN castling field repeats %r" % (ch,))
            color = bit >> 1
            home = 0 if color == WHITE else 0x70
            rook_sq = home + (7 if bit & 1 == 0 else 0)
            if board[home + 4] != KING | color << 3 or board[rook_sq] != ROOK | color << 3:
                raise ValueError("FEN castling right %r without king and rook on their squares" % (ch,))
            rights |= 1 << bit

    ep_sq = -1
    if ep != "-":
        try:
            sq = parse_square(ep)
        except ValueError:
            raise ValueError("FEN en passant field is not a square: %r" % (ep,))
        ep_sq = sq + (sq & 0x38)
        rank = sq >> 3
        # The pawn that just moved two squares must stand in front of the square,
        # with the square and the one it came from empty.
        if turn == WHITE:
            ok = rank == 5 and board[ep_sq - 16] == PAWN | 8 and not board[ep_sq] and not board[ep_sq + 16]
        else:
            ok = rank == 2 and board[ep_sq + 16] == PAWN and not board[ep_sq] and not board[ep_sq - 16]
        if not ok:
            raise ValueError("FEN en passant square %s is impossible here" % ep)

    halfmove, fullmove = 0, 1
    if len(fields) > 4:
        halfmove = _parse_count(fields[4], "halfmove clock", 0)
    if len(fields) > 5:
        fullmove = _parse_count(fields[5], "fullmove number", 1)

    pos.board = board
    pos.kings = kings
    pos.turn = turn
    pos.castling = rights
    pos.halfmove = halfmove
    pos.fullmove = fullmove
    pos.ep = -1
    if pos._attacked(kings[turn ^ 1], turn):
        raise ValueError("FEN: the side not to move is in check")
    if pos.is_check():
        from .validity import impossible_check
        reason = impossible_check(pos, ep_sq)
        if reason:
            raise ValueError(reason)
    if ep_sq >= 0:
        pos.ep = pos._capturable_ep(ep_sq)
    pos._rehash()
    pos._reset_history()


def _parse_count(text, what, minimum):
    if not text.isdigit() or len(text) > 6:
        raise ValueError("FEN %s must be a number, got %r" % (what, text))
    n = int(text)
    if n < minimum:
        raise ValueError("FEN %s must be at least %d" % (what, minimum))
    return n


def board_fen(pos):
    out = []
    board = pos.board
    for rank in range(7, -1, -1):
        empty = 0
        for f in range(8):
            p = board[rank * 16 + f]
            if not p:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            ch = PIECE_SYMBOLS[p & 7]
            out.append(ch.upper() if p >> 3 == WHITE else ch)
        if empty:
            out.append(str(empty))
        if rank:
            out.append("/")
    return "".join(out)


def fen(pos):
    castling = "".join(ch for i, ch in enumerate("KQkq") if pos.castling & (1 << i)) or "-"
    ep = _name88(pos.ep) if pos.ep >= 0 else "-"
    return "%s %s %s %s %d %d" % (board_fen(pos), "wb"[pos.turn], castling, ep,
                                   pos.halfmove, pos.fullmove)


# -- UCI ----------------------------------------------------------------

def uci(move):
    if move & DROP:
        return "%s@%s" % (PIECE_SYMBOLS[(move >> 14) & 7].upper(), _name88((move >> 7) & 127))
    s = _name88(move & 127) + _name88((move >> 7) & 127)
    promo = (move >> 14) & 7
    return s + PIECE_SYMBOLS[promo] if promo else s


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

def san(pos, move, lang="en"):
    """Standard algebraic notation of a legal move, with + or #."""
    letters = _letters(lang)
    s = _san_body(pos, move, letters)
    pos.push(move)
    if pos.is_check():
        s += "#" if not pos.legal_moves() else "+"
    pos.pop()
    return s


def _san_body(pos, move, letters):
    to = (move >> 7) & 127
    if move & DROP:
        t = (move >> 14) & 7
        return (letters[t] if t != PAWN else "P") + "@" + _name88(to)
    board = pos.board
    fr = move & 127
    t = board[fr] & 7
    if t == KING and (to - fr == 2 or fr - to == 2):
        return "O-O" if to > fr else "O-O-O"
    capture = board[to] or (t == PAWN and to == pos.ep)
    if t == PAWN:
        s = FILE_NAMES[fr & 7] + "x" if capture else ""
        s += _name88(to)
        promo = (move >> 14) & 7
        return s + "=" + letters[promo] if promo else s
    s = letters[t]
    # Disambiguate as python-chess does: file if it tells them apart, else rank, else both.
    others = [m & 127 for m in pos.legal_moves()
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
