"""Reading SAN (English or Italian letters) and writing PGN: the text people read and type.

Imported only when first needed (Position.parse_san, Position.pgn): the
board itself speaks UCI and SAN out (notation.py), so on the Pico this code
stays out of RAM until a game is archived or a host sends SAN.
"""

from .squares import WHITE, PAWN, KING, DROP, FILE_NAMES, RANK_NAMES, PIECE_SYMBOLS, parse_square
from .notation import _letters, uci, parse_uci, san
from . import outcome


def parse_san(pos, text, lang="en"):
    """SAN (English or Italian letters) -> the one legal move it names."""
    letters = _letters(lang)
    if not isinstance(text, str):
        raise ValueError("SAN must be a string")
    s = text.strip()
    while s and s[-1] in "+#!?":
        s = s[:-1]
    if not s:
        raise ValueError("empty SAN move")
    legal = pos.legal_moves()
    board = pos.board
    if s in ("O-O", "0-0", "O-O-O", "0-0-0"):
        long = len(s) == 5
        for m in legal:
            fr = m & 127
            to = (m >> 7) & 127
            if m & DROP or board[fr] & 7 != KING:
                continue
            if to - fr == (-2 if long else 2) or m >> 14 & 7 == KING and (to < fr) == long:   # Chess960: king takes rook
                return m
        raise ValueError("illegal castling %r in %s" % (text, pos.fen()))
    if len(s) >= 3 and s[-3] == "@":  # a drop: N@c3 (P@ or @ alone for a pawn)
        head = s[:-3]
        t = PAWN if head in ("", "P") else letters.find(head) if len(head) == 1 else -1
        if t < 2 and t != PAWN:
            raise ValueError("malformed SAN drop: %r" % (text,))
        return parse_uci(pos, PIECE_SYMBOLS[t].upper() + "@" + s[-2:])
    promo = 0
    if "=" in s:
        s, p = s.split("=", 1)
        promo = letters.find(p) if len(p) == 1 else -1
        if promo < 2 or promo == KING:
            raise ValueError("malformed SAN promotion in %r" % (text,))
    elif len(s) > 2 and s[-1] in letters and s[-1] != " " and s[-2] in RANK_NAMES:
        promo = letters.find(s[-1])
        s = s[:-1]
    t = PAWN
    if s and s[0] in letters and s[0] != " ":
        t = letters.find(s[0])
        s = s[1:]
    if len(s) < 2:
        raise ValueError("malformed SAN move: %r" % (text,))
    try:
        to_sq = parse_square(s[-2:])
    except ValueError:
        raise ValueError("malformed SAN move: %r" % (text,))
    to = to_sq + (to_sq & 0x38)
    hint = s[:-2].replace("x", "", 1)
    want_file = want_rank = -1
    for ch in hint:
        if ch in FILE_NAMES and want_file < 0:
            want_file = FILE_NAMES.index(ch)
        elif ch in RANK_NAMES and want_rank < 0:
            want_rank = RANK_NAMES.index(ch)
        else:
            raise ValueError("malformed SAN move: %r" % (text,))
    found = []
    for m in legal:
        if m & DROP or (m >> 7) & 127 != to:
            continue
        fr = m & 127
        if board[fr] & 7 != t or (m >> 14) & 7 != promo:
            continue
        if want_file >= 0 and fr & 7 != want_file:
            continue
        if want_rank >= 0 and fr >> 4 != want_rank:
            continue
        found.append(m)
    if not found:
        if t == PAWN and not promo and to >> 4 in (0, 7):
            raise ValueError("SAN %r needs a promotion piece (=Q, =R, =B or =N)" % (text,))
        raise ValueError("illegal SAN move %r in %s" % (text, pos.fen()))
    if len(found) > 1:
        raise ValueError("ambiguous SAN move %r: %s" % (text, ", ".join(uci(m) for m in found)))
    return found[0]


# -- PGN ----------------------------------------------------------------

def pgn(pos, tags=None):
    """The game so far as PGN text: the seven tag roster, any extra tags, movetext."""
    ended = pos.outcome()
    result = ended[0] if ended else outcome.ONGOING
    roster = [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
              ("White", "?"), ("Black", "?"), ("Result", result)]
    given = dict(tags or {})
    if ended and outcome.pgn_termination(ended[1]) != outcome.PGN_NORMAL:
        given.setdefault("Termination", outcome.pgn_termination(ended[1]))   # the ladder reads it
    lines = []
    for key, default in roster:
        lines.append('[%s "%s"]' % (key, tag_value(given.pop(key, default))))
    if pos.start_fen != pos.standard_start():
        given.setdefault("SetUp", "1")
        given.setdefault("FEN", pos.start_fen)
    for key in sorted(given):
        lines.append('[%s "%s"]' % (key, tag_value(given[key])))
    # Replay from the start to write each move's SAN in its own position.
    moves = []
    while pos.ply():
        moves.append(pos.pop())
    tokens = []
    first = True
    while moves:
        m = moves.pop()
        if pos.turn == WHITE:
            tokens.append("%d." % pos.fullmove)
        elif first:
            tokens.append("%d..." % pos.fullmove)
        first = False
        tokens.append(san(pos, m))
        pos.push(m)
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def tag_value(value):
    """A tag's value as PGN writes it between its quotes: '\\' and '"' escaped (PGN standard
    8.1.1); the protocol refuses control characters in a tag, and a line break would still end
    the header."""
    value = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return value.replace("\n", " ").replace("\r", " ")


def _wrap(tokens, width=79):
    lines = []
    line = ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            lines.append(line)
            line = tok
        else:
            line = line + " " + tok if line else tok
    lines.append(line)
    return "\n".join(lines)
