"""python-chess as the oracle for our rules module (host tests only)."""


import chess

from scacchiera.rules import Position


def outcome_of(board, claim_draw=False):
    """python-chess's outcome in our vocabulary: None or (result, termination)."""
    o = board.outcome(claim_draw=claim_draw)
    if o is None:
        return None
    return o.result(), o.termination.name.lower()


def legal_uci(position):
    return sorted(position.uci(m) for m in position.legal_moves())


def random_game(rng, style, max_plies=700):
    """Yield (board, position) at every ply of one random game played on both.

    ``style`` biases the moves so that every ending turns up:
    "captures" trades pieces off (insufficient material, long endgames,
    75 moves), "repeat" walks back and forth (threefold, fivefold),
    "promote" pushes pawns (promotions, underpromotions), "castle" castles
    when it can; "random" is uniform.
    """
    board = chess.Board()
    position = Position()
    yield board, position
    for _ in range(max_plies):
        if board.outcome() is not None:
            return
        moves = list(board.legal_moves)
        move = _choose(rng, style, board, moves)
        position.push(position.parse_uci(move.uci()))
        board.push(move)
        yield board, position


def _choose(rng, style, board, moves):
    if style == "captures" and rng.random() < 0.8:
        captures = [m for m in moves if board.is_capture(m)]
        if captures:
            return rng.choice(captures)
    if style == "promote" and rng.random() < 0.7:
        pushes = [m for m in moves if m.promotion or board.piece_type_at(m.from_square) == chess.PAWN]
        if pushes:
            return rng.choice(pushes)
    if style == "castle":
        castles = [m for m in moves if board.is_castling(m)]
        if castles:
            return rng.choice(castles)
        if rng.random() < 0.5:
            # clear the back rank: minor pieces and queen out first
            developing = [m for m in moves if chess.square_rank(m.from_square) in (0, 7)
                          and board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.BISHOP, chess.QUEEN)]
            if developing:
                return rng.choice(developing)
    if style == "repeat" and len(board.move_stack) >= 2 and rng.random() < 0.85:
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves and not board.is_capture(back):
            return back
    if style in ("repeat", "captures") and rng.random() < 0.3:
        quiet = [m for m in moves if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(moves)


STYLES = ("captures", "repeat", "promote", "castle", "random")
