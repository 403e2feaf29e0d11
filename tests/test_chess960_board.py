"""Chess960 on the board: castling by hand in every order, whatever the king's and rook's squares
(tracking/chess960.py), the LEDs of a castling, and a game through the protocol and the journal."""

import contextlib
import io

import chess
import chess.pgn
import pytest

from companion_support import step_until
from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.companion.engine import find_engine
from host_tools.hands import Hands

SETTLED = 1500     # a move that may begin a castling settles in 1.2 s


def act(hands, *steps):
    """'-e2' lifts, '+e4' places; each followed by a human pause."""
    for step in steps:
        hands.step(("lift " if step[0] == "-" else "place ") + step[1:])
        hands.wait(120)


# (FEN, castling written king takes rook): each kind of Chess960 castling.
CASTLINGS = {
    "four squares, a-side": ("4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1a1"),
    "four squares, h-side": ("4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1h1"),
    "king stays": ("4k3/8/8/8/8/8/8/3R2KR w KQ - 0 1", "g1h1"),
    "rook stays": ("4k3/8/8/8/8/8/8/3R2KR w KQ - 0 1", "g1d1"),
    "rook lands on the king's square": ("4k3/8/8/8/8/8/8/5K1R w K - 0 1", "f1h1"),
    "king lands on the rook's square": ("4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", "d1c1"),
    "black, king stays": ("1rk4r/8/8/8/8/8/8/4K3 b kq - 0 1", "c8b8"),
    "black, four squares": ("1rk4r/8/8/8/8/8/8/4K3 b kq - 0 1", "c8h8"),
}


def squares(fen, uci):
    """(king from, king to, rook from, rook to) of a castling, by python-chess."""
    board = chess.Board(fen, chess960=True)
    move = chess.Move.from_uci(uci)
    assert board.is_castling(move) and move in board.legal_moves, (fen, uci)
    king, rook = move.from_square, move.to_square
    rank = chess.square_rank(king)
    kto, rto = (chess.square(6, rank), chess.square(5, rank)) if rook > king else \
        (chess.square(2, rank), chess.square(3, rank))
    return [chess.square_name(s) for s in (king, kto, rook, rto)]


ORDERS = {
    "FIDE (king off, rook, king)": lambda kf, kt, rf, rt: ("-" + kf, "-" + rf, "+" + rt, "+" + kt),
    "king first": lambda kf, kt, rf, rt: ("-" + kf, "+" + kt, "-" + rf, "+" + rt),
    "rook first": lambda kf, kt, rf, rt: ("-" + rf, "+" + rt, "-" + kf, "+" + kt),
    "both lifted, king lands first": lambda kf, kt, rf, rt: ("-" + kf, "-" + rf, "+" + kt, "+" + rt),
}


def possible(fen, steps):
    """Can hands do these steps on this position (a lift from a full square, a place on an empty one)?"""
    full = set(chess.square_name(s) for s in chess.Board(fen, chess960=True).piece_map())
    for step in steps:
        if (step[1:] in full) != (step[0] == "-"):
            return False
        (full.discard if step[0] == "-" else full.add)(step[1:])
    return True


def cases():
    for name, (fen, uci) in sorted(CASTLINGS.items()):
        kf, kt, rf, rt = squares(fen, uci)
        for order in sorted(ORDERS):
            steps = list(ORDERS[order](kf, kt, rf, rt))
            # A piece that does not move is not lifted, but in FIDE's order (the king lifted and put back).
            if kf == kt and order != "FIDE (king off, rook, king)":
                steps = [s for s in steps if s[1:] != kf]
            if rf == rt:
                steps = [s for s in steps if s[1:] != rf]
            if possible(fen, steps):
                yield pytest.param(fen, uci, steps, id="%s: %s" % (name, order))


@pytest.mark.parametrize("fen,uci,steps", list(cases()))
def test_castling_by_hand(fen, uci, steps):
    hands = Hands(fen=fen, variant="chess960")
    act(hands, *steps)
    hands.wait(SETTLED)
    assert hands.moves() == [uci], steps
    board = chess.Board(fen, chess960=True)
    san = board.san(chess.Move.from_uci(uci))
    board.push_uci(uci)
    assert hands.events[-1]["san"] == san and hands.fen() == board.fen()
    assert hands.state() == "idle"


def test_every_kind_of_castling_has_an_order_tested():
    tested = set(fen + uci for fen, uci, _ in (p.values for p in cases()))
    assert len(tested) == len(CASTLINGS)
    assert len(list(cases())) >= 2 * len(CASTLINGS)


def test_a_rook_move_with_the_occupancy_of_a_castling_stays_a_rook_move():
    """King f1, rook h1: Rg1 and O-O both leave g1 and h1 changed; without the king lifted, Rg1."""
    fen = CASTLINGS["rook lands on the king's square"][0]
    hands = Hands(fen=fen, variant="chess960")
    act(hands, "-h1", "+g1")
    hands.wait(SETTLED)
    assert hands.moves() == ["h1g1"]
    assert hands.fen().startswith("4k3/8/8/8/8/8/8/5KR1 b - -")


SWAP = ("4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "f1g1")   # king f1, rook g1: O-O changes no square


def test_a_castling_that_changes_no_square_then_its_takeback():
    fen, uci = SWAP
    hands = Hands(fen=fen, variant="chess960")
    act(hands, "-f1", "-g1", "+f1", "+g1")     # king and rook lifted together, put down swapped
    hands.wait(SETTLED)
    assert hands.moves() == [uci] and hands.events[-1]["san"] == "O-O"
    assert hands.fen().startswith("4k3/8/8/8/8/8/8/5RK1 b - -")
    act(hands, "-g1", "-f1", "+g1", "+f1")     # the same gesture: taken back
    hands.wait(SETTLED)
    assert hands.moves() == []
    assert hands.fen() == fen


def test_one_piece_lifted_and_put_back_is_no_castling():
    fen, _ = SWAP
    hands = Hands(fen=fen, variant="chess960")
    act(hands, "-g1", "+g1")
    hands.wait(SETTLED)
    act(hands, "-f1")
    hands.wait(300)
    act(hands, "+f1")
    hands.wait(SETTLED)
    assert hands.moves() == []


def test_a_lifted_king_lights_where_it_lands_when_it_castles():
    fen, uci = CASTLINGS["four squares, a-side"]
    hands = Hands(fen=fen, variant="chess960")
    act(hands, "-b1")
    leds = hands.leds()
    assert leds.get("c1") == "legal", leds          # the king's square after O-O-O (and Kc1)
    assert leds.get("g1") == "legal", leds          # after O-O
    assert "a1" not in leds and "h1" not in leds, leds


def _random_game(number, plies, seed):
    """A Chess960 game from start position ``number`` by python-chess, castling whenever it can."""
    import random
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(number)
    moves = []
    while len(moves) < plies and not board.is_game_over():
        legal = list(board.legal_moves)
        castles = [m for m in legal if board.is_castling(m)]
        move = rng.choice(castles or legal)
        moves.append(move)
        board.push(move)
    return board, moves


@pytest.mark.parametrize("number,seed", [(0, 9), (959, 3), (518, 5), (700, 7)])   # both sides castle
def test_a_game_by_hand_through_the_protocol_survives_a_power_cut(number, seed):
    from firmware_support import Board
    from memfs import MemFS
    fs = MemFS("littlefs")
    board = Board(fs=fs)
    board.send({"cmd": "new", "variant": "chess960", "position": number}, 6)
    board.set_up()                           # the LEDs' set-up guide (not for 518: chess's own)
    expected, moves = _random_game(number, 60, seed)
    replay = chess.Board.from_chess960_pos(number)
    castled = 0
    for move in moves:
        castled += replay.is_castling(move)
        replay.push(move)
        board.play(move.uci())
        assert board.game.position.fen() == replay.fen(), move.uci()
    assert castled == 2
    board.wait(300)
    fs.reboot()
    resumed = Board(fs=fs, rows=bytes(board.hw.occupied))
    pos = resumed.game.position
    assert pos.variant == "chess960" and pos.fen() == expected.fen()
    assert [pos.uci(m) for m in pos.move_stack] == [m.uci() for m in moves]
    board.lines()
    board.send("pgn", 6)
    text = [l for l in board.lines() if l.get("re") == "pgn"][0]["pgn"]
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.headers["Variant"] == "Chess960" and game.board().chess960
    assert game.headers["FEN"] == chess.Board.from_chess960_pos(number).fen()
    assert list(game.mainline_moves()) == moves


def _make_960(board, fen, uci):
    """A person's hands on the simulator make a Chess960 move: a capture's victim first, a castling
    in FIDE's order (the king off the board into the tray, the rook, then the king)."""
    game = chess.Board(fen, chess960=True)
    move = chess.Move.from_uci(uci)
    if game.is_castling(move):
        kf, kt, rf, rt = squares(fen, uci)
        king = game.piece_at(move.from_square).symbol()
        for action, square, piece in (("lift", kf, None), ("lift", rf, None), ("place", rt, None),
                                      ("place", kt, king)):
            board.act(action, {"square": square, "piece": piece} if piece else {"square": square})
            board.advance(60)
        return
    if game.is_capture(move):
        board.act("lift", {"square": uci[2:4]})
        board.act("tray", {})
        board.advance(60)
    board.act("lift", {"square": uci[:2]})
    board.advance(60)
    board.act("place", {"square": uci[2:4]})


STOCKFISH = find_engine()


@pytest.mark.skipif(STOCKFISH is None, reason="no Stockfish (apt-get install stockfish; .ci/run installs it)")
def test_stockfish_plays_chess960_through_the_companion_and_the_hands_castle():
    # Both sides may castle either way at once: Stockfish gets UCI_Chess960 (python-chess sets it).
    fen = "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1"
    board = SimulatedBoard(fen, "fide", "chess960")
    board.play_computer([("engine", STOCKFISH)])
    board.computer.think = 0.05
    try:
        s = step_until(board, lambda s: s["ready"], "the board's state")
        _make_960(board, s["fen"], "d1g1")          # the person castles (the king onto its rook's square)
        s = step_until(board, lambda s: s["moves"] == ["d1g1"], "the castling")
        board.act("computer", {"sides": ["black"]})
        board.computer.start()
        s = step_until(board, lambda s: s["show"] is not None, "Stockfish's move")
        reply = chess.Board(fen, chess960=True)
        reply.push_uci("d1g1")
        assert chess.Move.from_uci(s["show"]) in reply.legal_moves, s["show"]
        _make_960(board, s["fen"], s["show"])
        s = step_until(board, lambda s: len(s["moves"]) == 2, "the board to take Stockfish's move")
        reply.push_uci(s["moves"][1])
        assert s["fen"] == reply.fen()
    finally:
        board.computer.stop()


def test_the_boards_own_engine_plays_chess960_and_castles_on_the_board():
    """The board's engine (level 4) plays Black from start position 100 (rules/chess960.py's castling in its
    search tree): the hands make each move it lights, its castling too (king off, rook, king). The level is
    one whose game against this script lasts the 24 plies and castles (level 2 of 28 Nov 2026 mates the
    script before it needs to castle)."""
    from firmware_support import Board
    from test_engine_board import ask, follow, wait_for_engine
    board = Board()
    assert ask(board, {"cmd": "new", "variant": "chess960", "position": 100}, 6)["ok"]
    board.set_up()
    board.lines()
    assert ask(board, "set opponent engine 4")["value"] == "engine 4"
    oracle = chess.Board.from_chess960_pos(100)
    castled = []
    for ply in range(0, 24, 2):
        legal = sorted(oracle.legal_moves, key=lambda m: m.uci())
        move = next((m for m in legal if oracle.is_castling(m)), legal[len(legal) // 2])
        follow(board, move.uci())                                   # the person
        oracle.push(move)
        shown = [l["uci"] for l in wait_for_engine(board) if l.get("ev") == "engine_move"]
        assert len(shown) == 1
        reply = chess.Move.from_uci(shown[0])
        assert reply in oracle.legal_moves, (oracle.fen(), shown)
        if oracle.is_castling(reply):
            castled.append(shown[0])
        follow(board, shown[0])                                     # the hands follow the LEDs
        oracle.push(reply)
        assert board.game.position.fen() == oracle.fen()
    assert castled, "the engine never castled"


@pytest.mark.parametrize("fen, king, rook, uci", [
    ("1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1", "d1", "g1", "d1g1"),   # onto g1: the king's own
    ("1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1", "d1", "b1", "d1b1"),
    ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", None, None, None),
])
def test_on_the_simulators_page_the_king_dropped_onto_its_rook_castles(fen, king, rook, uci):
    board = SimulatedBoard(fen, "fide", "chess960")
    step_until(board, lambda s: s["ready"], "the board's state")
    with pytest.raises(Exception, match="occupied"):
        board.act("place", {"square": "g8"})          # an empty hand onto a rook: no castling
    if king is None:                       # f1 and h1 both rooks, g1 the king: no castling is legal
        board.act("lift", {"square": "g1"})
        with pytest.raises(Exception, match="occupied"):
            board.act("place", {"square": "h1"})
        return
    board.act("lift", {"square": king})
    board.act("place", {"square": rook})
    s = step_until(board, lambda s: s["moves"], "the castling")
    assert s["moves"] == [uci] and s["hand"] == "" and s["in_sync"]
    after = chess.Board(fen, chess960=True)
    after.push_uci(uci)
    assert s["fen"] == after.fen()


def test_the_leds_guide_a_chess960_set_up_one_kind_of_piece_at_a_time():
    """Start position 100 (QBBNRNKR) on a board set up for chess: the back ranks cleared first, then
    each kind of piece on the squares lit for it (tracking/setup_guide.py); a piece put elsewhere is
    lit to be taken off and holds the step; in sync, the game is played."""
    from firmware_support import Board
    from scacchiera.leds.names import meanings
    from scacchiera.rules import parse_square
    board = Board()
    board.send({"cmd": "new", "variant": "chess960", "position": 100}, 6)

    def guide():
        events = [l for l in board.lines() if l.get("ev") in ("out_of_sync", "in_sync")]
        return [(e.get("guide"), e.get("to_fill"), len(e.get("to_empty", []))) if e["ev"] == "out_of_sync"
                else "in_sync" for e in events]

    assert guide() == [("clear", [], 16)]
    leds = meanings(board.runner.app.compose())
    assert all(leds[f + r] == "to-empty" for f in "abcdefgh" for r in "18")
    for f in "abcdefgh":
        for r in "18":
            board.hands.lift(parse_square(f + r))
    board.wait(200)
    assert guide() == [("K", ["g1", "g8"], 0)]
    board.hands.place(parse_square("h1"))             # not a king's square: lit to take off, no step
    board.wait(300)
    leds = meanings(board.runner.app.compose())
    assert (leds["h1"], leds["g1"], leds["g8"]) == ("to-empty", "to-fill", "to-fill")
    assert board.game.tracker.guide_piece == 6 and not board.game.in_sync()
    board.hands.lift(parse_square("h1"))
    board.wait(200)
    board.lines()
    steps = []
    for kind, squares in (("K", "g1 g8"), ("Q", "a1 a8"), ("R", "e1 h1 e8 h8"), ("B", "b1 c1 b8 c8"),
                          ("N", "d1 f1 d8 f8")):
        for name in squares.split():
            board.hands.place(parse_square(name))
        board.wait(200)
        steps += guide()
    assert steps == [("Q", ["a1", "a8"], 0), ("R", ["e1", "h1", "e8", "h8"], 0), ("B", ["b1", "c1", "b8", "c8"], 0),
                     ("N", ["d1", "f1", "d8", "f8"], 0), "in_sync"]
    board.play("e2e4")
    assert board.game.position.fen().startswith("qbbnrnkr/pppppppp/8/8/4P3/8/PPPP1PPP/QBBNRNKR b")


@pytest.mark.parametrize("start", [{"position": 518}, {"fen": "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1"}])
def test_no_guide_for_chess_own_back_rank_or_a_position_that_is_no_start(start):
    from firmware_support import Board
    board = Board()
    board.send(dict({"cmd": "new", "variant": "chess960"}, **start), 6)
    board.set_up()
    assert board.game.tracker.guide_piece == -1
    assert not [l for l in board.lines() if l.get("guide")]


def _follow_the_set_up_guide(board):
    """The simulated hands do what the LEDs ask: pieces off the squares lit to empty (into the
    tray), onto those lit to fill the piece the game has there (from the tray)."""
    for _ in range(8):
        s = board.state()
        if s["in_sync"]:
            return
        game = chess.Board(s["fen"], chess960=True)
        for square, meaning in sorted(s["leds"].items()):
            if meaning == "to-empty":
                board.act("lift", {"square": square})
                board.act("tray", {})
        for square, meaning in sorted(s["leds"].items()):
            if meaning == "to-fill":
                board.act("place", {"square": square,
                                    "piece": game.piece_at(chess.parse_square(square)).symbol()})
        board.advance(300)
    raise AssertionError("the set-up guide did not end: %s" % board.state()["leds"])


@contextlib.contextmanager
def logged_in_to_fake_lichess(tmp_path):
    """(the fake Lichess, a simulated board logged in to it through the companion), stopped after."""
    from fake_lichess import FakeLichess, Served
    fake = FakeLichess(token="lip_goodtoken123")
    with Served(fake) as served:
        board = SimulatedBoard()
        board.play_lichess(token="lip_goodtoken123", base_url=served.url, token_path=str(tmp_path / "token"),
                           ladder_path=None, archive_dir=str(tmp_path / "archive"), retry=(0.05, 0.2))
        board.lichess.start()
        try:
            step_until(board, lambda s: s["ready"] and s["lichess"]["account"], "the login")
            yield fake, board
        finally:
            board.lichess.stop()


def test_a_chess960_challenge_on_lichess_is_accepted_set_up_and_played_with_castlings(tmp_path):
    """A friend's Chess960 challenge (start position 74, nnrkbbqr) through the fake Lichess: the
    companion starts the board's game from its X-FEN, the simulated hands follow the set-up guide,
    both sides castle O-O-O (king and rook swap: d1c1, d8c8, king takes rook as lila writes it)."""
    script = ["e2e3", "g7g6", "d1c1", "d8c8", "f1e2", "b7b6"]
    with logged_in_to_fake_lichess(tmp_path) as (fake, board):
        fake.next_script = script
        cid = fake.send_challenge("mary", variant="chess960", chess960=74)
        s = step_until(board, lambda s: s["lichess"]["challenges"], "the challenge on the page")
        assert s["lichess"]["challenges"][0]["playable"]
        board.act("lichess", {"op": "accept", "challenge": cid})      # Mary plays White
        step_until(board, lambda s: s["variant"] == "chess960", "the new game on the board")
        _follow_the_set_up_guide(board)
        s = step_until(board, lambda s: s["lichess"]["game"] and s["lichess"]["game"]["phase"] == "play"
                       and s["in_sync"], "the Chess960 game set up on the board")
        assert s["variant"] == "chess960" and s["pieces"][:8] == list("NNRKBBQR")
        reference = chess.Board.from_chess960_pos(74)
        for ply, uci in enumerate(script):
            if ply % 2 == 0:                                           # Mary's, lit for the hands
                s = step_until(board, lambda s: s["show"] == uci, "Mary's %s lit" % uci)
            else:
                s = step_until(board, lambda s: len(s["moves"]) == ply and s["show"] is None
                               and s["state"] == "idle", "my turn")
            _make_960(board, s["fen"], uci)
            s = step_until(board, lambda s: len(s["moves"]) == ply + 1, "the board to take %s" % uci)
            if ply % 2:
                step_until(board, lambda s: len(fake.moves(cid)) >= ply + 1, "Lichess to have %s" % uci)
            reference.push_uci(uci)
            assert s["fen"] == reference.fen()
        assert fake.moves(cid) == script


@pytest.mark.parametrize("op", ["ai", "seek"])
def test_the_page_asks_lichess_for_a_chess960_game_against_the_ai_or_by_a_seek(tmp_path, op):
    """The Lichess box's variant: a Chess960 game against Lichess's AI, or from a seek, starts on the
    board from the position Lichess drew (the fake draws 100: qbbnrnkr), set up by the guide."""
    with logged_in_to_fake_lichess(tmp_path) as (fake, board):
        with pytest.raises(ActionError, match="plays standard and chess960"):
            board.act("lichess", {"op": op, "level": 1, "minutes": 10, "increment": 5, "variant": "atomic"})
        fields = {"op": op, "minutes": 10, "increment": 5, "color": "white", "variant": "chess960"}
        if op == "ai":
            fields["level"] = 2
        board.act("lichess", fields)
        if op == "seek":
            step_until(board, lambda s: s["lichess"]["seeking"] and fake.seeks, "the seek on Lichess")
            assert fake.seeks[0]["params"]["variant"] == "chess960"
            fake.pair_seek()
        step_until(board, lambda s: s["variant"] == "chess960", "the new game on the board")
        _follow_the_set_up_guide(board)
        s = step_until(board, lambda s: s["in_sync"] and s["lichess"]["game"], "the game set up")
        assert s["pieces"][:8] == list("QBBNRNKR") and s["fen"] == chess.Board.from_chess960_pos(100).fen()
