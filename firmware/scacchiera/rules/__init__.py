"""Chess rules (FIDE, and the casual profile of seed 003) for a MicroPython board.

    from scacchiera.rules import Position
    p = Position()
    p.push(p.parse_san("e4"))
"""

from .squares import (WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DROP,
                      square_name, parse_square, make_move, make_drop,
                      from_square, to_square, promotion, is_drop, drop_piece)
from .position import Position, FIDE, CASUAL, PROFILES
