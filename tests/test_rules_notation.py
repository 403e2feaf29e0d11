"""FEN, UCI, SAN and PGN: round trips, both languages, and every kind of bad input."""

import io

import chess
import chess.pgn
import pytest

from scacchiera.rules import Position, from_square, to_square, promotion, make_move


class TestFen:
    @pytest.mark.parametrize("fen", [
        Position.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 99 140",
    ])
    def test_round_trip(self, fen):
        assert Position.from_fen(fen).fen() == fen

    def test_four_field_epd_style_fen_gets_default_counters(self):
        assert Position.from_fen("4k3/8/8/8/8/8/8/4K3 w - -").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"

    def test_en_passant_square_shown_only_when_a_capture_is_possible(self):
        # Same convention as python-chess: the square is kept only if a legal capture exists.
        p = Position.from_fen("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1")
        p.push(p.parse_uci("d2d4"))
        assert p.fen() == "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1"
        q = Position()
        q.push(q.parse_uci("e2e4"))
        assert q.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        # A pinned capturer: the square is dropped (python-chess agrees).
        fen = "8/8/8/K2Pp2r/8/8/8/7k w - e6 0 1"
        assert Position.from_fen(fen).fen() == chess.Board(fen).fen() == "8/8/8/K2Pp2r/8/8/8/7k w - - 0 1"

    @pytest.mark.parametrize("fen, words", [
        ("", "6 fields"),
        ("8/8/8/8/8/8/8/8 w", "6 fields"),
        (Position.STARTING_FEN + " extra", "6 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece"),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares"),
        ("rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "longer than 8"),
        ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"),
        ("rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "no white king"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "more than one white king"),
        ("4k2k/8/8/8/8/8/8/4K3 w - - 0 1", "more than one black king"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on rank 1"),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8"),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "more than 8 black pawns"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w X - 0 1", "castling field"),
        ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "castling field repeats"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "without king and rook"),
        ("r3k3/8/8/8/8/8/8/4K2R w k - 0 1", "without king and rook"),
        ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "without king and rook"),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "not a square"),
        ("4k3/8/8/8/4p3/8/8/4K3 w - e3 0 1", "impossible"),
        ("4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", "impossible"),
        ("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", None),  # legal square, no capture possible,
        ("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "impossible"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number"),
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", None),  # legal: black not in check
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"),
        ("4K2r/8/8/8/8/8/8/4k3 b - - 0 1", "side not to move is in check"),
        (None, "must be a string"),
    ])
    def test_bad_fen_raises_a_clear_error(self, fen, words):
        if words is None:
            Position.from_fen(fen)
            return
        with pytest.raises(ValueError) as err:
            Position.from_fen(fen)
        assert words in str(err.value)

    def test_unknown_profile(self):
        with pytest.raises(ValueError, match="rule profile"):
            Position(profile="blitz")


class TestUci:
    def test_parse_and_print(self):
        p = Position()
        m = p.parse_uci("g1f3")
        assert (from_square(m), to_square(m), promotion(m)) == (chess.G1, chess.F3, 0)
        assert m == make_move(chess.G1, chess.F3)
        assert p.uci(m) == "g1f3"

    def test_promotion(self):
        p = Position.from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
        for letter, piece in (("q", 5), ("r", 4), ("b", 3), ("n", 2)):
            m = p.parse_uci("b7b8" + letter)
            assert promotion(m) == piece and p.uci(m) == "b7b8" + letter

    @pytest.mark.parametrize("text, words", [
        ("e2e5", "illegal move"),
        ("e7e5", "illegal move"),
        ("e2", "malformed"),
        ("e2e4e5", "malformed"),
        ("z2e4", "malformed"),
        ("e2e4k", "malformed UCI promotion"),
        ("e1g1", "illegal move"),
        ("0000", "malformed"),
        ("", "malformed"),
        (None, "malformed"),
        ("K@e4", "illegal move"),  # no drops in chess
    ])
    def test_bad_uci(self, text, words):
        with pytest.raises(ValueError) as err:
            Position().parse_uci(text)
        assert words in str(err.value)

    def test_promotion_needs_its_piece(self):
        p = Position.from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
        with pytest.raises(ValueError, match="illegal"):
            p.parse_uci("b7b8")


class TestSan:
    FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

    def test_english_and_italian_letters(self):
        p = Position.from_fen(self.FEN)
        pairs = {"O-O": "O-O", "O-O-O": "O-O-O", "Qxf6": "Dxf6", "Nxd7": "Cxd7", "Bxa6": "Axa6",
                 "Rb1": "Tb1", "Kf1": "Rf1", "dxe6": "dxe6", "a4": "a4", "Qxh3": "Dxh3"}
        for en, it in pairs.items():
            move = p.parse_san(en)
            assert p.san(move) == en
            assert p.san(move, lang="it") == it
            assert p.parse_san(it, lang="it") == move

    def test_disambiguation_file_rank_and_both(self):
        # Three queens on e4: h4 needs file and rank, a4 the file, h1 the rank.
        p = Position.from_fen("1k6/8/8/8/Q6Q/8/8/K6Q w - - 0 1")
        board = chess.Board("1k6/8/8/8/Q6Q/8/8/K6Q w - - 0 1")
        for move in p.legal_moves():
            assert p.san(move) == board.san(chess.Move.from_uci(p.uci(move)))
        assert p.san(p.parse_uci("h4e4")) == "Qh4e4"
        assert p.san(p.parse_uci("a4e4")) == "Qae4"
        assert p.san(p.parse_uci("h1e4")) == "Q1e4"
        assert p.san(p.parse_uci("h4e1")) == "Q4e1"
        assert p.parse_san("Qh4e4") == p.parse_uci("h4e4")
        assert p.parse_san("Qa4e4") == p.parse_uci("a4e4")

    def test_check_and_mate_suffixes(self):
        p = Position()
        for san in ("f3", "e5", "g4"):
            p.push_san(san)
        mate = p.parse_san("Qh4")
        assert p.san(mate) == "Qh4#" and p.san(mate, "it") == "Dh4#"
        p.push(mate)
        assert p.outcome() == ("0-1", "checkmate")

    def test_promotion_san(self):
        p = Position.from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
        assert p.san(p.parse_uci("a7b8n")) == "axb8=N"
        assert p.parse_san("axb8=N") == p.parse_uci("a7b8n")
        assert p.parse_san("axb8=C", lang="it") == p.parse_uci("a7b8n")
        assert p.parse_san("a8=D", lang="it") == p.parse_uci("a7a8q")
        assert p.parse_san("a8Q") == p.parse_uci("a7a8q")

    def test_lenient_input_accepted(self):
        p = Position()
        assert p.parse_san("Nf3+") == p.parse_uci("g1f3")
        assert p.parse_san("e4!?") == p.parse_uci("e2e4")
        q = Position.from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        assert q.parse_san("0-0") == q.parse_san("O-O") == q.parse_uci("e1g1")

    @pytest.mark.parametrize("text, words", [
        ("Nd2", "ambiguous"),
        ("Rd1", "illegal"),
        ("e5", "illegal"),
        ("Qxz9", "malformed"),
        ("", "empty"),
        ("++", "empty"),
        ("N", "malformed"),
        ("Nbb1d2", "malformed"),
        ("e8=K", "malformed SAN promotion"),
        ("O-O-O", "illegal castling"),
    ])
    def test_bad_san(self, text, words):
        p = Position.from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
        with pytest.raises(ValueError) as err:
            p.parse_san(text)
        assert words in str(err.value)

    def test_missing_promotion_piece_is_named(self):
        p = Position.from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
        with pytest.raises(ValueError, match="promotion piece"):
            p.parse_san("a8")

    def test_unknown_language(self):
        with pytest.raises(ValueError, match="language"):
            Position().san(Position().parse_uci("e2e4"), lang="fr")

    def test_italian_rejects_english_letters_that_mean_something_else(self):
        p = Position()
        # In Italian 'R' is the king (Re), not a rook: "Rf3" names no legal move.
        with pytest.raises(ValueError):
            p.parse_san("Nf3", lang="it")
        assert p.parse_san("Cf3", lang="it") == p.parse_uci("g1f3")


class TestPgn:
    def test_round_trip_through_python_chess(self):
        p = Position()
        for san in "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O".split():
            p.push_san(san)
        text = p.pgn({"Event": "Club night", "White": "Anna", "Black": "Bruno"})
        game = chess.pgn.read_game(io.StringIO(text))
        assert game.headers["White"] == "Anna"
        assert game.headers["Event"] == "Club night"
        assert game.headers["Result"] == "*"
        assert [m.uci() for m in game.mainline_moves()] == [p.uci(m) for m in p.move_stack]
        assert game.end().board().fen() == p.fen()
        assert text.rstrip().endswith("O-O *")
        # The position is unchanged by writing it out.
        assert p.ply() == 16

    def test_tag_values_are_escaped_as_the_pgn_standard_says(self):
        text = Position().pgn({"Event": 'Club "night" \\ 2'})
        assert '[Event "Club \\"night\\" \\\\ 2"]' in text

    def test_from_a_set_up_position_with_black_to_move(self):
        fen = "4k3/8/8/8/8/8/4p3/4K3 b - - 0 40"
        p = Position.from_fen(fen)
        p.push_san("Kd7")
        p.push_san("Kxe2")
        text = p.pgn()
        assert '[SetUp "1"]' in text and '[FEN "%s"]' % fen in text
        assert "40... Kd7 41. Kxe2 1/2-1/2" in text
        game = chess.pgn.read_game(io.StringIO(text))
        assert game.end().board().fen() == p.fen()
        assert game.headers["Result"] == "1/2-1/2"
