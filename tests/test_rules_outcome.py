"""Game end: each termination and each claim, as FEN tables checked against python-chess too."""

import os
import re

import chess
import pytest

from chess_oracle import outcome_of
from host_tools import _paths
from scacchiera.display import en, it
from scacchiera.display.hands import termination_name
from scacchiera.rules import Position, WHITE, BLACK, CASUAL
from scacchiera.rules import outcome as vocabulary

DRAW = "1/2-1/2"

# (FEN, expected outcome in the FIDE profile, expected outcome in the casual profile)
ENDINGS = [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ("0-1", "checkmate"), ("0-1", "checkmate")),
    ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 60", ("1-0", "checkmate"), ("1-0", "checkmate")),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", (DRAW, "stalemate"), (DRAW, "stalemate")),
    ("k7/P7/K7/8/8/8/8/8 b - - 0 1", (DRAW, "stalemate"), (DRAW, "stalemate")),
    # Dead positions, FIDE: K v K, K+B v K, K+N v K, bishops all on one colour.
    ("8/8/4k3/8/8/2K5/8/8 w - - 0 1", (DRAW, "insufficient_material"), (DRAW, "insufficient_material")),
    ("8/8/4k3/8/8/2KB4/8/8 w - - 0 1", (DRAW, "insufficient_material"), (DRAW, "insufficient_material")),
    ("8/8/4k3/8/8/2K5/8/6n1 w - - 0 1", (DRAW, "insufficient_material"), (DRAW, "insufficient_material")),
    ("8/8/4k3/1b6/8/2KB4/8/8 w - - 0 1", (DRAW, "insufficient_material"), (DRAW, "insufficient_material")),
    ("B7/1B6/2B1k3/8/8/2K5/8/8 w - - 0 1", (DRAW, "insufficient_material"), (DRAW, "insufficient_material")),
    # Not dead for FIDE (a mate exists, if only by help), dead in seed 003's room.
    ("8/8/4k3/3n4/8/2K5/8/6N1 w - - 0 1", None, (DRAW, "insufficient_material")),
    ("8/8/4k3/2n5/8/2KB4/8/8 w - - 0 1", None, (DRAW, "insufficient_material")),
    ("8/8/4k3/2b5/8/2KB4/8/8 w - - 0 1", None, (DRAW, "insufficient_material")),
    ("8/8/4k3/8/8/2K5/8/5NN1 w - - 0 1", None, (DRAW, "insufficient_material")),
    # Mating material: never dead.
    ("8/8/4k3/8/8/2K5/6P1/8 w - - 0 1", None, None),
    ("8/8/4k3/8/8/2K5/8/R7 w - - 0 1", None, None),
    ("8/8/4k3/8/8/2K5/8/5NB1 w - - 0 1", None, None),
    ("8/8/4k3/3n4/8/2KN4/8/5N2 w - - 0 1", None, None),
    # 75 moves end the game by themselves; 50 only on a claim (FIDE) or by themselves (casual).
    ("8/8/4k3/8/8/2K5/8/R7 w - - 150 100", (DRAW, "seventyfive_moves"), (DRAW, "fifty_moves")),
    ("8/8/4k3/8/8/2K5/8/R7 w - - 100 100", None, (DRAW, "fifty_moves")),
    ("8/8/4k3/8/8/2K5/8/R7 w - - 99 100", None, None),
    # Checkmate on the 75th move is checkmate.
    ("k7/1Q6/1K6/8/8/8/8/8 b - - 150 120", ("1-0", "checkmate"), ("1-0", "checkmate")),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 150 120", (DRAW, "stalemate"), (DRAW, "stalemate")),
]


@pytest.mark.parametrize("fen, fide, casual", ENDINGS)
def test_ending_table(fen, fide, casual):
    assert Position.from_fen(fen).outcome() == fide
    assert Position.from_fen(fen, profile=CASUAL).outcome() == casual
    assert outcome_of(chess.Board(fen)) == fide  # python-chess agrees with the FIDE column


def test_the_rules_ends_are_python_chess_terminations():
    for termination in vocabulary.BY_THE_MOVES + (vocabulary.fifty_moves, vocabulary.threefold_repetition):
        assert chess.Termination[termination.upper()]
    for name in vocabulary.TERMINATIONS:
        assert getattr(vocabulary, name) == name
    assert len(set(vocabulary.TERMINATIONS)) == len(vocabulary.TERMINATIONS) == 11
    assert vocabulary.lost_by(WHITE) == "0-1" and vocabulary.lost_by(BLACK) == "1-0"


def test_declared_ends_are_the_ones_a_replay_of_the_moves_cannot_find():
    """The journal records an end that is not BY_THE_MOVES: each of those, declared on a position
    that plays on, is the position's outcome, and a fresh replay of its moves plays on."""
    declared = [t for t in vocabulary.TERMINATIONS if t not in vocabulary.BY_THE_MOVES]
    assert set(declared) == {vocabulary.fifty_moves, vocabulary.threefold_repetition, vocabulary.resignation,
                             vocabulary.agreement, vocabulary.time_forfeit, vocabulary.abandoned}
    for termination in declared:
        p = Position()
        p.push(p.parse_san("e4"))
        p.declare(DRAW, termination)
        assert p.outcome() == (DRAW, termination)
        replayed = Position()
        replayed.push(replayed.parse_san("e4"))
        assert replayed.outcome() is None


@pytest.mark.parametrize("language", [en, it])
def test_each_termination_has_its_words_in_each_language(language):
    words = language.WORDS
    names = [termination_name(words, t) for t in vocabulary.TERMINATIONS]
    assert all(names) and len(set(names)) == len(names)
    assert termination_name(words, "variant_win") == "variant win"     # an end the tables do not know
    assert names[vocabulary.TERMINATIONS.index(vocabulary.abandoned)] == (
        "abandoned" if language is en else "abbandonata")


# A termination's word typed as a string outside rules/outcome.py, allowed where it is not ours.
_NOT_OURS = {
    ("host_tools/companion/lichess_records.py", "stalemate"): "a Lichess game status",
    ("host_tools/ladder/ladder.py", "abandoned"): "the ladder's column",
    ("host_tools/ladder/elo.py", "abandoned"): "the ladder's column",
    ("host_tools/ladder/__main__.py", "abandoned"): "the ladder's column and its listing's word",
}


def test_no_termination_word_typed_outside_the_vocabulary():
    """Every module names a game's end by rules/outcome.py's constants (issue 53: one vocabulary)."""
    quoted = re.compile(r"""["']([a-z_]+)["']""")
    words = set(vocabulary.TERMINATIONS)
    found = []
    for top in ("firmware", "host_tools"):
        for folder, _, files in os.walk(os.path.join(_paths._ROOT, top)):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, _paths._ROOT).replace(os.sep, "/")
                if rel == "firmware/scacchiera/rules/outcome.py":
                    continue
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        for word in quoted.findall(line):
                            if word in words and (rel, word) not in _NOT_OURS:
                                found.append("%s:%d %s" % (rel, n, word))
    assert found == []


# (FEN, can claim fifty, can claim threefold)
CLAIMS = [
    ("8/8/4k3/8/8/2K5/8/R7 w - - 100 100", True, False),
    ("8/8/4k3/8/8/2K5/8/R7 w - - 99 100", True, False),   # by announcing a quiet move
    ("8/8/4k3/8/8/2K5/8/R7 w - - 98 100", False, False),
    ("7k/8/6K1/5Q2/8/8/8/8 w - - 99 100", True, False),  # quiet moves that do not mate or stalemate exist
]


@pytest.mark.parametrize("fen, fifty, threefold", CLAIMS)
def test_claim_table(fen, fifty, threefold):
    p = Position.from_fen(fen)
    board = chess.Board(fen)
    assert p.can_claim_fifty_moves() == board.can_claim_fifty_moves() == fifty
    assert p.can_claim_threefold_repetition() == board.can_claim_threefold_repetition() == threefold
    expected = (DRAW, "fifty_moves") if fifty else None
    assert p.outcome(claim_draw=True) == expected


def test_fifty_claim_only_with_a_move_that_does_not_end_the_game():
    # Black's only moves: none are quiet and non-mating? Here every white move at 99
    # that is not zeroing reaches 100, so the claim holds; a pawn push would not.
    p = Position.from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80")
    assert p.can_claim_fifty_moves()  # Kd1 etc. are quiet
    p.push(p.parse_san("e4"))
    assert not p.can_claim_fifty_moves()


def shuffle(p, times):
    for _ in range(times):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            p.push_san(san)


class TestRepetition:
    def test_threefold_is_a_claim_and_fivefold_is_automatic(self):
        p = Position()
        shuffle(p, 2)
        assert p.repetitions() == 3
        assert p.outcome() is None
        assert p.outcome(claim_draw=True) == (DRAW, "threefold_repetition")
        shuffle(p, 2)
        assert p.repetitions() == 5
        assert p.outcome() == (DRAW, "fivefold_repetition")

    def test_a_granted_claim_ends_the_game(self):
        p = Position()
        assert p.claim_draw() is None and p.outcome() is None
        shuffle(p, 2)
        assert p.claim_draw() == (DRAW, "threefold_repetition")
        assert p.outcome() == (DRAW, "threefold_repetition")
        q = Position.from_fen("8/8/4k3/8/8/2K5/8/R7 w - - 100 100")
        assert q.claim_draw() == q.outcome() == (DRAW, "fifty_moves")

    @pytest.mark.parametrize("seed", range(6))
    def test_the_claim_at_every_ply_of_shuffling_games_is_python_chess_s(self, seed):
        """Kings and knights wander among few squares, so positions repeat often, after captures
        and pawn moves too: the claim (now, or by announcing a move) agrees with python-chess at
        every ply, whatever stood twice before and whatever did not."""
        import random
        rng = random.Random(seed)
        p = Position.from_fen("4k1n1/4p3/8/8/8/8/4P3/1N2K3 w - - 0 1")
        board = chess.Board("4k1n1/4p3/8/8/8/8/4P3/1N2K3 w - - 0 1")
        for _ in range(70):
            if board.is_game_over(claim_draw=False):
                break
            moves = list(board.legal_moves)
            quiet = [m for m in moves if board.piece_type_at(m.from_square) != chess.PAWN]
            m = rng.choice(quiet if quiet and rng.random() < 0.93 else moves)
            if len(board.move_stack) >= 2 and rng.random() < 0.6:    # often back where it came from
                mine = board.move_stack[-2]
                back = chess.Move(mine.to_square, mine.from_square)
                if back in moves:
                    m = back
            board.push(m)
            p.push(p.parse_uci(m.uci()))
            assert p.can_claim_threefold_repetition() == board.can_claim_threefold_repetition(), board.fen()

    def test_claim_by_announcing_the_move_that_repeats(self):
        p = Position()
        shuffle(p, 1)
        for san in ("Nf3", "Nf6", "Ng1"):
            p.push_san(san)
        assert p.repetitions() == 2   # this position also stood after the first Ng1
        assert p.can_claim_threefold_repetition()  # ...Ng8 would repeat the start a third time
        board = chess.Board()
        for m in p.move_stack:
            board.push(chess.Move.from_uci(p.uci(m)))
        assert board.can_claim_threefold_repetition()

    def test_castling_rights_make_positions_different(self):
        p = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        # The rooks go out and back: the same squares, but the rights are gone.
        for san in ("Ra2", "Ra7", "Ra1", "Ra8"):
            p.push_san(san)
        assert p.fen().split()[:3] == ["r3k2r/8/8/8/8/8/8/R3K2R", "w", "Kk"]
        for _ in range(2):
            for san in ("Kf1", "Kf8", "Ke1", "Ke8"):
                p.push_san(san)
        # Kf1/Ke1 drops the remaining rights once, so the only positions that repeat are after it.
        board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        for m in p.move_stack:
            board.push(chess.Move.from_uci(p.uci(m)))
        assert p.repetitions() == 2
        assert p.can_claim_threefold_repetition() == board.can_claim_threefold_repetition()

    def test_en_passant_possibility_makes_positions_different(self):
        # After ...d5 White may take en passant; once the chance is gone, the same
        # placement is a different position (FIDE 9.2.3).
        p = Position.from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
        p.push_san("d5")
        first = p.hash
        for san in ("Kd1", "Kd8", "Ke1", "Ke8"):
            p.push_san(san)
        assert p.fen().split()[:2] == ["4k3/8/8/3pP3/8/8/8/4K3", "w"]
        assert p.hash != first and p.repetitions() == 1

    def test_a_hash_collision_is_not_a_repetition(self):
        # Repetition keys are 30-bit hashes; a match is confirmed square by square.
        p = Position()
        shuffle(p, 1)
        p.push_san("Nc3")
        n = p.ply()                              # p._keys[n] is the current position's key
        p._keys[n - 2] = p._keys[n - 4] = p._keys[n]  # forge two colliding earlier keys (same side to move)
        assert p.repetitions() == 3
        assert not p._is_repetition(3)
        assert p.outcome(claim_draw=True) is None


class TestDeclaredResults:
    def test_resignation(self):
        p = Position()
        p.push_san("e4")
        p.resign(BLACK)
        assert p.outcome() == ("1-0", "resignation")
        q = Position()
        q.resign(WHITE)
        assert q.outcome() == ("0-1", "resignation")

    def test_agreement(self):
        p = Position()
        p.agree_draw()
        assert p.outcome() == (DRAW, "agreement")
        assert '[Result "1/2-1/2"]' in p.pgn()

    def test_a_declared_result_belongs_to_its_position(self):
        p = Position()
        p.agree_draw()
        p.push_san("e4")
        assert p.outcome() is None
        p.pop()
        assert p.outcome() == (DRAW, "agreement")

    def test_taking_back_the_position_takes_back_its_declared_result(self):
        p = Position()
        p.push_san("e4")
        p.resign(BLACK)
        assert '[Result "1-0"]' in p.pgn() and p.outcome() == ("1-0", "resignation")
        p.take_back()
        p.push_san("e4")
        assert p.outcome() is None


def test_push_pop_restores_everything():
    p = Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    before = (p.fen(), p.hash, bytes(p.board), list(p.kings))
    for m in p.legal_moves():
        p.push(m)
        for reply in p.legal_moves():
            p.push(reply)
            p.pop()
        p.pop()
        assert (p.fen(), p.hash, bytes(p.board), list(p.kings)) == before


def test_incremental_hash_equals_a_fresh_one():
    p = Position()
    for san in "e4 d5 exd5 c5 dxc6 Qd6 cxb7 Kd7 bxa8=N Qxh2 Rxh2".split():
        p.push_san(san)
        fresh = Position.from_fen(p.fen())
        assert p.hash == fresh.hash, san
