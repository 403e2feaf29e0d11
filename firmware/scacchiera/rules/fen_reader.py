"""Reading a FEN into a Position: every field checked, a clear ValueError for what is wrong.

A module of its own because a game reads a FEN once, at its start: on the Pico
``notation.set_fen`` loads it for the read and drops it after (its code and
messages would otherwise hold about 2 KB of RAM for the whole game).
"""

from .squares import WHITE, BLACK, PAWN, ROOK, KING, PIECE_SYMBOLS, parse_square


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

    if pos.variant == "chess960":
        rights = pos.read_castling(castling, board)     # X-FEN or Shredder-FEN (chess960.py)
    else:
        rights = castling_rights(castling, board)

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


def castling_rights(text, board):
    """The castling field of a chess FEN (KQkq or -) -> the rights' bits, each checked against the
    king and rook on their squares in ``board`` (0x88)."""
    rights = 0
    if text != "-":
        for ch in text:
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
    return rights


def _parse_count(text, what, minimum):
    if not text.isdigit() or len(text) > 6:
        raise ValueError("FEN %s must be a number, got %r" % (what, text))
    n = int(text)
    if n < minimum:
        raise ValueError("FEN %s must be at least %d" % (what, minimum))
    return n
