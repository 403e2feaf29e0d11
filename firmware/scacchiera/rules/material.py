"""Material: what each side has on the board, and whether a side could ever checkmate.

Loaded only when needed (a flag fall, the protocol's status): RAM.
"""

from .squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING
from .position import CASUAL
from . import outcome
from .variants import variant_of, SPRINT

# Seed 001's "valore teorico" of the pieces: pawn 1, knight 3, bishop 3, rook 5, queen 10 (the king: none).
VALUES = (0, 1, 3, 3, 5, 10, 0, 0)


def material(pos):
    """[white's, black's] material on the board by seed 001's values."""
    sums = [0, 0]
    for piece in pos.board:            # 0x88: the squares off the board hold 0
        if piece:
            sums[piece >> 3] += VALUES[piece & 7]
    return sums


def has_insufficient_material(pos, color):
    """Can ``color`` never checkmate, whatever the moves of both sides (FIDE 6.9)?

    python-chess's test, on the board: a lone king; a king and one knight when
    the other side has only a king and queens; kings and bishops all on one
    square colour when no pawn or knight stands anywhere. In Scacchi Sprint a
    tile in hand or still to draw may be the one that mates: never insufficient then.
    """
    if variant_of(pos) == SPRINT:
        for t in range(8):
            if pos.hands[color << 3 | t]:
                return False
        if len(pos.decks[color]) > pos.drawn[color]:
            return False
    mine = 0
    knight = opponent_minor = pawn_or_knight = False
    colours = 0                   # the bishops' square colours: bit 0 dark, bit 1 light
    for sq in range(64):
        p = pos.piece_at(sq)
        t = p & 7
        if not p or t == KING:
            continue
        if p >> 3 == color:
            if t == PAWN or t == ROOK or t == QUEEN:
                return False
            mine += 1
            knight = knight or t == KNIGHT
        elif t != QUEEN:
            opponent_minor = True   # the opponent's pawns, minors or rooks allow a helpmate
        if t == PAWN or t == KNIGHT:
            pawn_or_knight = True
        elif t == BISHOP:
            colours |= 1 << ((sq + (sq >> 3)) & 1)
    if knight:
        return mine == 1 and not opponent_minor
    return not mine or (colours != 3 and not pawn_or_knight)


def flag_fall(pos, color):
    """``color``'s time ran out: the game ends as a loss for it, but under ``fide`` as a draw
    when the opponent cannot checkmate by any series of legal moves (FIDE 6.9); seed 003's
    room (``casual``): "perderà la partita" whatever the material."""
    result = outcome.lost_by(color)
    if pos.profile != CASUAL and has_insufficient_material(pos, color ^ 1):
        result = outcome.DRAW
    pos.declare(result, outcome.time_forfeit)
