"""Chess960's rules (firmware/scacchiera/rules/chess960.py) against python-chess's chess960 mode:
the 960 start positions by number, perft from every one of them, random games move by move (legal
moves, X-FEN, SAN, UCI king takes rook, take-backs), Shredder-FEN and X-FEN read, castlings whose
king or rook does not move, and bad castling fields refused."""

import random

import chess
import pytest

from scacchiera.rules.chess960 import Chess960Position, back_rank, start_fen
from scacchiera.rules.position import Position
from scacchiera.rules.occupancy import changed_squares, capture_square
from scacchiera.rules.variants import new_position


def perft(board, depth):
    """python-chess's count of the leaves ``depth`` plies deep."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += perft(board, depth - 1)
        board.pop()
    return n


def test_the_960_start_positions_by_number():
    for n in range(960):
        board = chess.Board.from_chess960_pos(n)
        assert start_fen(n) == board.fen(), n
        assert back_rank(n) == board.board_fen().split("/")[-1]
    assert back_rank(518) == "RNBQKBNR" and Chess960Position().fen() == Position().fen()
    for bad in (-1, 960, "5", True):
        with pytest.raises(ValueError):
            back_rank(bad)


def check_perft(depth, numbers=range(960)):
    for n in numbers:
        ours = Chess960Position(number=n).perft(depth)
        assert ours == perft(chess.Board.from_chess960_pos(n), depth), n


def test_perft_from_every_start_position():
    """Depth 2 from all 960; depth 3 from every 7th (7 is prime to the 4, 6 and 10 the numbering
    counts the pieces' places by, so the sample holds every bishops', queen's and knights' place)."""
    check_perft(2)
    check_perft(3, range(0, 960, 7))


@pytest.mark.slow
def test_perft_from_every_start_position_deeper():
    """make test-long: depth 3 and 4 from all 960."""
    check_perft(3)
    check_perft(4)


def test_random_games_move_by_move_against_python_chess():
    rng = random.Random(960)
    castlings = 0
    for _ in range(120):
        n = rng.randrange(960)
        ours = Chess960Position(number=n)
        theirs = chess.Board.from_chess960_pos(n)
        while not theirs.is_game_over() and theirs.ply() < 160:
            legal = sorted(m.uci() for m in theirs.legal_moves)
            assert sorted(ours.uci(m) for m in ours.legal_moves()) == legal, theirs.fen()
            text = rng.choice(legal)
            move = ours.parse_uci(text)
            theirs_move = chess.Move.from_uci(text)
            assert ours.san(move) == theirs.san(theirs_move), theirs.fen()
            castlings += theirs.is_castling(theirs_move)
            ours.push(move)
            theirs.push(theirs_move)
            assert ours.fen() == theirs.fen()
            assert ours.shredder_fen() == theirs.shredder_fen()
        while theirs.move_stack:
            ours.pop()
            theirs.pop()
            assert ours.fen() == theirs.fen()
    assert castlings >= 20, castlings


def test_castling_whose_king_or_rook_stays():
    # The king on g1 already: O-O moves the rook only. The rook on d1 already: O-O-O moves the king only.
    pos = Position.from_fen("4k3/8/8/8/8/8/8/3R2KR w KQ - 0 1", chess960=True)
    board = chess.Board("4k3/8/8/8/8/8/8/3R2KR w KQ - 0 1", chess960=True)
    short = pos.parse_uci("g1h1")
    assert pos.san(short) == "O-O" and changed_squares(pos, short) == [chess.F1, chess.H1]
    assert capture_square(pos, short) == -1
    long = pos.parse_uci("g1d1")
    assert pos.san(long) == "O-O-O" and changed_squares(pos, long) == [chess.C1, chess.G1]
    assert pos.parse_uci("g1c1") == long, "the king's own squares, as chess writes castling"
    pos.push(long)
    board.push_uci("g1d1")
    assert pos.fen() == board.fen() == "4k3/8/8/8/8/8/8/2KR3R b - - 1 1"
    # King b1, rook a1 and king f1, rook g1: a castling may change no square's occupancy at all.
    pos = Position.from_fen("4k3/8/8/8/8/8/8/5KR1 w K - 0 1", chess960=True)
    move = pos.parse_uci("f1g1")
    assert pos.san(move) == "O-O" and changed_squares(pos, move) == []
    pos.push(move)
    assert pos.fen().startswith("4k3/8/8/8/8/8/8/5RK1 b - -")


def test_x_fen_and_shredder_fen():
    # Two white rooks on the h-side of the king: the inner one castles, so X-FEN names its file.
    fen = "rk2r3/8/8/8/8/8/8/1K1R2R1 w Dea - 0 1"
    pos = Position.from_fen(fen, chess960=True)
    board = chess.Board(fen, chess960=True)
    assert pos.fen() == board.fen() and pos.shredder_fen() == board.shredder_fen()
    assert sorted(pos.uci(m) for m in pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    shredder = Position.from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", chess960=True)
    assert shredder.fen() == "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"


@pytest.mark.parametrize("field", ["X", "KK", "Ka", "Q"])
def test_bad_castling_fields_are_refused(field):
    with pytest.raises(ValueError):
        Position.from_fen("4k3/8/8/8/8/8/8/1K1R2R1 w %s - 0 1" % field, chess960=True)


def test_a_new_chess960_position_by_variant():
    pos = new_position(None, variant="chess960")
    assert pos.variant == "chess960" and pos.fen() == Position().fen()
    with pytest.raises(ValueError):
        new_position(None, variant="chess960", seed=3)


def test_castling_moves_carry_the_king_in_their_promotion_bits():
    from scacchiera.rules.chess960 import CASTLE
    from scacchiera.rules.squares import KING
    assert CASTLE == KING << 14
    from scacchiera.rules import chess960, position
    assert chess960._UNDO == position._UNDO
    pos = new_position(None, variant="chess960", number=0)
    assert pos.fen() == start_fen(0)
    with pytest.raises(ValueError):
        new_position(None, variant="chess", number=3)
    with pytest.raises(ValueError):
        new_position(start_fen(5), variant="chess960", number=5)
