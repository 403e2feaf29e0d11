"""Two-handed moves in every order, both colours: castling, en passant, promotion; errors and sync.

Each test drives the real application through simulated hands (host_tools.hands).
"""

import pytest

from host_tools.hands import Hands

DEBOUNCED = 60     # long enough for a change to pass the debounce
SETTLED = 400      # long enough for a move to settle


def act(hands, *steps):
    """'-e2' lifts, '+e4' places; each followed by a human pause."""
    for step in steps:
        hands.step(("lift " if step[0] == "-" else "place ") + step[1:])
        hands.wait(120)


CASTLING = {
    # (fen, king from, king to, rook from, rook to)
    "white short": ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", "g1", "h1", "f1"),
    "white long": ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", "c1", "a1", "d1"),
    "black short": ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8", "g8", "h8", "f8"),
    "black long": ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8", "c8", "a8", "d8"),
}

ORDERS = {
    "king first": lambda kf, kt, rf, rt: ("-" + kf, "+" + kt, "-" + rf, "+" + rt),
    "rook first": lambda kf, kt, rf, rt: ("-" + rf, "+" + rt, "-" + kf, "+" + kt),
    "both lifted": lambda kf, kt, rf, rt: ("-" + kf, "-" + rf, "+" + kt, "+" + rt),
    "rook lands first": lambda kf, kt, rf, rt: ("-" + kf, "-" + rf, "+" + rt, "+" + kt),
}


@pytest.mark.parametrize("side", sorted(CASTLING))
@pytest.mark.parametrize("order", sorted(ORDERS))
def test_castling(side, order):
    fen, kf, kt, rf, rt = CASTLING[side]
    hands = Hands(fen=fen)
    act(hands, *ORDERS[order](kf, kt, rf, rt))
    hands.wait(SETTLED)
    assert hands.moves() == [kf + kt]
    assert hands.events[-1]["san"] in ("O-O", "O-O-O")


def test_castling_slow_rook_first_is_amended():
    """The rook settles as a rook move; when the king follows, the move becomes castling."""
    hands = Hands(fen=CASTLING["white short"][0])
    act(hands, "-h1", "+f1")
    hands.wait(2000)
    assert hands.moves() == ["h1f1"]
    act(hands, "-e1", "+g1")
    hands.wait(SETTLED)
    assert hands.moves() == ["e1g1"]
    kinds = [e["kind"] for e in hands.events]
    assert kinds == ["move", "takeback", "move"]


def test_king_first_castling_shows_the_rook_move_still_to_make():
    hands = Hands(fen=CASTLING["black long"][0])
    act(hands, "-e8", "+c8")
    hands.wait(1000)
    assert hands.moves() == []
    assert hands.state() == "lifted"
    leds = hands.leds()
    assert leds["a8"] == "show-from" and leds["d8"] == "show-to"


EN_PASSANT = {
    # fen, double push (from, to), capturer from, capture to, captured square
    "white takes": ("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ("d7", "d5"), "e5", "d6", "d5"),
    "black takes": ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", ("e2", "e4"), "d4", "e3", "e4"),
}


@pytest.mark.parametrize("case", sorted(EN_PASSANT))
@pytest.mark.parametrize("victim_first", [True, False], ids=["victim first", "victim after"])
def test_en_passant(case, victim_first):
    fen, (pf, pt), cf, ct, victim = EN_PASSANT[case]
    hands = Hands(fen=fen)
    act(hands, "-" + pf, "+" + pt)
    hands.wait(SETTLED)
    if victim_first:
        act(hands, "-" + victim, "-" + cf, "+" + ct)
    else:
        act(hands, "-" + cf, "+" + ct)
        hands.wait(1000)
        assert len(hands.moves()) == 1, "the capture is not complete until its victim leaves"
        assert hands.leds()[victim] == "show-from"
        act(hands, "-" + victim)
    hands.wait(SETTLED)
    assert hands.moves() == [pf + pt, cf + ct]


PROMOTION = {
    "white": ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7", "b8"),
    "black": ("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1", "b2", "b1"),
    "white capturing": ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7", "a8"),
}


@pytest.mark.parametrize("case", sorted(PROMOTION))
@pytest.mark.parametrize("taps, piece", [(0, "q"), (1, "n"), (2, "r"), (3, "b"), (4, "q")])
def test_promotion_by_tapping_the_new_piece(case, taps, piece):
    fen, fr, to = PROMOTION[case]
    hands = Hands(fen=fen)
    if case.endswith("capturing"):
        act(hands, "-" + to, "-" + fr, "+" + to)
    else:
        act(hands, "-" + fr, "+" + to)
    names = {"q": "promote-queen", "n": "promote-knight", "r": "promote-rook", "b": "promote-bishop"}
    order = "qnrbq"
    assert hands.leds()[to] == names["q"]
    for i in range(taps):
        hands.step("lift " + to)
        hands.wait(150)
        hands.step("place " + to)
        hands.wait(150)
        assert hands.leds()[to] == names[order[i + 1]]
    hands.wait(2000)
    assert hands.moves() == [fr + to + piece]


def test_promotion_commits_at_once_when_the_opponent_replies():
    hands = Hands(fen=PROMOTION["white"][0])
    act(hands, "-b7", "+b8")
    act(hands, "-e8")          # black's king lifted: the queen promotion stands
    assert hands.moves() == ["b7b8q"]
    act(hands, "+d7")
    hands.wait(SETTLED)
    assert hands.moves() == ["b7b8q", "e8d7"]


def test_illegal_placement_shows_error_and_fix_then_the_game_goes_on():
    hands = Hands()
    act(hands, "-f1", "+f3")        # a bishop cannot jump its own pawns
    hands.wait(SETTLED)
    assert hands.state() == "error"
    assert hands.leds() == {"f3": "error", "f1": "fix"}
    assert [e["kind"] for e in hands.events] == ["error"]
    assert hands.events[-1]["squares"] == ["f3"] and hands.events[-1]["fix"] == ["f1"]
    act(hands, "-f3", "+f1")        # put back: nothing happened
    hands.wait(SETTLED)
    assert hands.state() == "idle" and hands.moves() == []
    act(hands, "-g1", "+e4")        # wrong again...
    hands.wait(SETTLED)
    assert hands.state() == "error"
    act(hands, "-e4", "+f3")        # ...then a legal move: it is played
    hands.wait(SETTLED)
    assert hands.moves() == ["g1f3"]


def test_an_illegal_move_out_of_check_is_refused():
    hands = Hands(fen="4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
    assert hands.leds()["e1"] == "check"
    act(hands, "-e1", "+f2")        # still attacked by the queen
    hands.wait(SETTLED)
    assert hands.state() == "error" and hands.moves() == []
    act(hands, "-f2", "-d2", "+d2")  # the king takes the queen instead
    hands.wait(SETTLED)
    assert hands.moves() == ["e1d2"]
    assert hands.app.game.result == ("1/2-1/2", "insufficient_material")


def test_quick_reply_is_never_lost():
    hands = Hands()
    act(hands, "-e2", "+e4")        # 120 ms later black is already lifting
    act(hands, "-e7", "+e5")
    act(hands, "-g1", "+f3")
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4", "e7e5", "g1f3"]


def test_quick_capture_of_the_piece_just_moved():
    hands = Hands(fen="rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2")
    act(hands, "-e2", "+e4")
    act(hands, "-e4", "-d5", "+e4")  # black takes the new pawn, victim first, within the settle time
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4", "d5e4"]


def test_takeback_by_restoring_the_previous_position_move_by_move():
    hands = Hands()
    act(hands, "-e2", "+e4")
    hands.wait(SETTLED)
    act(hands, "-d7", "+d5")
    hands.wait(SETTLED)
    act(hands, "-d5", "-e4", "+d5")
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4", "d7d5", "e4d5"]
    act(hands, "-d5", "+e4", "+d5")  # the capture undone: pawn back, victim back
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4", "d7d5"]
    act(hands, "-d5", "+d7")
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4"]
    assert [e["kind"] for e in hands.events].count("takeback") == 2


def test_takeback_can_be_switched_off():
    hands = Hands()
    hands.app.game.set_option("takeback", False)
    act(hands, "-e2", "+e4")
    hands.wait(SETTLED)
    act(hands, "-e4", "+e2")
    hands.wait(SETTLED)
    assert hands.moves() == ["e2e4"]
    assert hands.state() == "error"


def test_out_of_sync_guides_the_pieces_and_recognises_nothing_meanwhile():
    hands = Hands()
    game = hands.app.game
    game.new_game("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    assert hands.state() == "sync"
    leds = hands.leds()
    assert leds["e4"] == "to-fill"
    assert leds["a1"] == leds["e2"] == leds["d8"] == "to-empty" and "e1" not in leds and "e8" not in leds
    assert len(leds) == 31  # 30 pieces to clear, one square to fill
    assert hands.events[-1]["kind"] == "out_of_sync" and hands.events[-1]["to_fill"] == ["e4"]
    # Clear what should be empty, the e2 pawn last: its lift and a place on e4
    # would look like a move, but nothing is recognised while out of sync.
    for sq in sorted(k for k, v in leds.items() if v == "to-empty" and k != "e2"):
        hands.step("lift " + sq)
        hands.wait(20)
    act(hands, "-e2", "+e3")
    hands.wait(SETTLED)
    assert hands.state() == "sync" and hands.moves() == []
    assert hands.leds() == {"e3": "to-empty", "e4": "to-fill"}
    act(hands, "-e3", "+e4")
    hands.wait(SETTLED)
    assert hands.state() == "idle" and hands.events[-1]["kind"] == "in_sync"
    act(hands, "-e4", "+e5")
    hands.wait(SETTLED)
    assert hands.moves() == ["e4e5"]


def test_new_game_when_the_start_position_is_set_up_after_a_finished_game():
    hands = Hands()
    for fr, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        act(hands, "-" + fr, "+" + to)
        hands.wait(SETTLED)
    assert hands.app.game.result == ("0-1", "checkmate")
    leds = hands.leds()
    assert leds["e1"] == "loser" and leds["e8"] == "winner"
    act(hands, "-h4", "+d8", "-g4", "+g2", "-e5", "+e7", "-f3")
    assert hands.app.game.result is not None
    act(hands, "+f2")
    assert hands.app.game.result is None and hands.moves() == []
    assert hands.events[-1]["kind"] == "new_game"


def test_hints_off_hides_destinations_but_not_errors():
    hands = Hands()
    hands.app.game.set_option("hints", False)
    act(hands, "-g1")
    assert hands.leds() == {"g1": "lifted"}
    act(hands, "+g3")
    hands.wait(SETTLED)
    assert hands.leds() == {"g3": "error", "g1": "fix"}


def test_engine_move_is_shown_and_only_it_is_accepted():
    hands = Hands()
    hands.app.game.show_move("g1f3")
    hands.app.dirty = True
    assert hands.leds() == {"g1": "show-from", "f3": "show-to"}
    act(hands, "-e2", "+e4")
    hands.wait(SETTLED)
    assert hands.moves() == [] and hands.state() == "error"
    act(hands, "-e4", "+e2", "-g1", "+f3")
    hands.wait(SETTLED)
    assert hands.moves() == ["g1f3"]


class TestGestures:
    def shuffle(self, hands, times):
        for _ in range(times):
            for fr, to in (("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")):
                act(hands, "-" + fr, "+" + to)
                hands.wait(SETTLED)

    def tap(self, hands, square, times):
        for _ in range(times):
            hands.step("lift " + square)
            hands.wait(150)
            hands.step("place " + square)
            hands.wait(150)
        hands.wait(1000)

    def test_double_tap_of_the_king_claims_a_draw_when_one_is_there(self):
        hands = Hands()
        self.tap(hands, "e1", 2)
        assert hands.app.game.result is None   # nothing to claim yet
        self.shuffle(hands, 2)
        assert hands.leds()["e1"] == "claim"
        assert any(e["kind"] == "claim" for e in hands.events)
        self.tap(hands, "e1", 2)
        assert hands.app.game.result == ("1/2-1/2", "threefold_repetition")
        assert hands.leds()["e1"] == hands.leds()["e8"] == "draw"

    def test_a_claimable_draw_and_a_drawn_game_look_different(self):
        # Both were a steady orange: "you may claim" looked like "draw, game over".
        def e1_over_time(hands):
            led = hands.app.palette.led_of_square[4] * 3
            return [bytes(hands.app.palette.render(hands.app.compose(), bytearray(3 * 64), now)[led:led + 3]) for now in range(0, 2000, 250)]

        hands = Hands()
        self.shuffle(hands, 2)
        assert hands.leds()["e1"] == "claim"
        claim = e1_over_time(hands)
        lit = claim[0]
        assert any(lit) and claim == [lit, lit, bytes(3), bytes(3)] * 2   # a slow pulse
        self.tap(hands, "e1", 2)
        assert hands.leds()["e1"] == "draw"
        draw = e1_over_time(hands)
        assert any(draw[0]) and draw == [draw[0]] * 8                      # steady

    def test_triple_tap_resigns(self):
        hands = Hands()
        act(hands, "-e2", "+e4")
        hands.wait(SETTLED)
        self.tap(hands, "e8", 3)
        assert hands.app.game.result == ("1-0", "resignation")

    def test_the_other_kings_taps_do_nothing(self):
        hands = Hands()
        self.tap(hands, "e8", 3)
        assert hands.app.game.result is None

    def test_both_kings_off_the_board_agree_a_draw(self):
        hands = Hands(fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        act(hands, "-e1", "-e8")
        hands.wait(1200)
        assert hands.app.game.result == ("1/2-1/2", "agreement")
