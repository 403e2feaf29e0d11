"""Scacchi Sprint on the board: tiles placed from the hand, the choice of tile, the drawn tile's squares,
the hourglass, and whole games played by simulated hands (seed 004)."""

import random

import pytest

from host_tools.hands import Hands
from host_tools.sim.device import FirmwareHands
from scacchiera.rules.sprint import SprintPosition
from scacchiera.rules.squares import DROP, from_square, square_name, to_square

SETTLED = 400
CHOSEN = 2000     # a placement with a choice of tile waits for taps


def act(hands, *steps):
    for step in steps:
        hands.step(("lift " if step[0] == "-" else "place ") + step[1:])
        hands.wait(120)


def tap(hands, square, times):
    for _ in range(times):
        hands.step("lift " + square)
        hands.wait(150)
        hands.step("place " + square)
        hands.wait(150)


def test_a_tile_placed_with_no_lift_before_it_is_a_placement():
    hands = Hands(variant="sprint", seed=1)      # White holds a rook (just drawn) and a pawn
    act(hands, "+a1")                            # a pawn may not go on rank 1: the rook
    hands.wait(SETTLED)
    assert hands.moves() == ["R@a1"]
    assert hands.events[-1]["san"] == "R@a1"


def test_an_ambiguous_tile_is_the_drawn_one_until_tapped():
    hands = Hands(variant="sprint", seed=1)
    act(hands, "+d3")                            # rook or pawn: the rook, just drawn, first
    assert hands.leds() == {"d3": "drop-rook"}
    assert hands.app.game.tracker.choices == (4, 1)
    tap(hands, "d3", 1)
    assert hands.leds() == {"d3": "drop-pawn"}
    tap(hands, "d3", 1)
    assert hands.leds() == {"d3": "drop-rook"}
    tap(hands, "d3", 1)
    hands.wait(CHOSEN)
    assert hands.moves() == ["P@d3"]


def test_the_host_can_say_which_tile():
    hands = Hands(variant="sprint", seed=1)
    hands.app.game.choose_promotion("p")         # said before the tile lands
    act(hands, "+c3")
    assert hands.leds() == {"c3": "drop-pawn"}
    hands.wait(CHOSEN)
    assert hands.moves() == ["P@c3"]
    with pytest.raises(ValueError):
        hands.app.game.choose_promotion("k")


def test_the_drawn_tile_shows_where_it_may_go():
    hands = Hands(variant="sprint", seed=4)      # a bishop drawn: its own half, any colour yet
    leds = hands.leds()
    assert all(v == "drop-target" for v in leds.values())
    assert set(leds) == {square_name(sq) for sq in range(32) if sq not in (4, 12)}
    act(hands, "+c1")
    hands.wait(SETTLED)
    assert hands.moves() == ["B@c1"]
    hands.app.game.set_option("hints", False)
    hands.app.dirty = True
    assert "drop-target" not in hands.leds().values()


def test_interposing_a_tile_answers_check():
    hands = Hands(fen="4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1 0/0 - 1")
    assert hands.leds()["e1"] == "check"
    act(hands, "+f1")                            # not between: refused
    hands.wait(SETTLED)
    assert hands.state() == "error" and hands.moves() == []
    act(hands, "-f1", "+c1")
    hands.wait(SETTLED)
    assert hands.moves() == ["N@c1"]


def test_a_piece_lifted_from_a1_lights_its_own_moves_not_the_tiles():
    """A drop has no origin, and its origin bits read a1: lifting the piece on a1 once lit every
    square a tile could be placed on as where the rook could go."""
    hands = Hands(fen="4k3/8/8/8/8/8/8/R3K3[N] w - - 0 1 0/0 - 1")
    pos = hands.app.game.position
    rook = {square_name(to_square(m)) for m in pos.legal_moves() if not m & DROP and from_square(m) == 0}
    assert rook == {"a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1"}
    assert any(m & DROP for m in pos.legal_moves())
    hands.step("lift a1")
    hands.wait(120)
    leds = hands.leds()
    assert leds.pop("a1") == "lifted"
    assert {sq for sq, meaning in leds.items() if meaning == "legal"} == rook


def test_the_hourglass_plays_a_move_and_the_hands_follow():
    hands = Hands(variant="sprint", seed=2)
    hands.app.game.set_option("move_time_ms", 3000)
    hands.wait(3100)
    assert [e["kind"] for e in hands.events][:2] == ["time_out", "move"]
    assert len(hands.moves()) == 1 and hands.state() == "sync"
    to_fill = [sq for sq, meaning in hands.leds().items() if meaning == "to-fill"]
    to_empty = [sq for sq, meaning in hands.leds().items() if meaning == "to-empty"]
    for sq in to_empty:
        hands.step("lift " + sq)
    for sq in to_fill:
        hands.step("place " + sq)
    hands.wait(100)
    assert hands.state() == "idle"


def play_by_hand(hands, pos, move, rng):
    """The hands make a Sprint move: a tile from the hand (tapped to the right type) or a board move."""
    to = square_name(((move >> 7) & 127) + ((move >> 7) & 7) >> 1)
    if move & DROP:
        act(hands, "+" + to)
        choices = hands.app.game.tracker.choices
        if choices:
            tap(hands, to, choices.index((move >> 14) & 7))
        hands.wait(CHOSEN)
        return
    fr = square_name(((move & 127) + (move & 7)) >> 1)
    board = pos.board
    if board[(move >> 7) & 127]:
        act(hands, "-" + to)
    if board[move & 127] & 7 == 6 and abs((((move >> 7) & 127) & 7) - ((move & 127) & 7)) == 2:
        rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
        act(hands, "-" + fr, "+" + to, "-" + rook_from + to[1], "+" + rook_to + to[1])
    elif board[move & 127] & 7 == 1 and (move >> 7) & 127 == pos.ep:
        act(hands, "-" + fr, "+" + to, "-" + to[0] + fr[1])
    else:
        act(hands, "-" + fr, "+" + to)
    promo = (move >> 14) & 7
    if promo:
        tap(hands, to, (5, 2, 4, 3).index(promo))
        hands.wait(CHOSEN)
    hands.wait(rng.choice([0, 200, SETTLED]))


def play_sprint_game(seed, plies):
    """A seeded random Sprint game, half its moves placements, played by hand; the board must follow."""
    rng = random.Random(seed)
    hands = Hands(variant="sprint", seed=100 + seed)
    pos = SprintPosition(seed=100 + seed)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        drops = [m for m in moves if m & DROP]
        move = rng.choice(drops if drops and rng.random() < 0.5 else moves)
        play_by_hand(hands, pos, move, rng)
        pos.push(move)
    hands.wait(SETTLED)
    assert hands.moves() == [pos.uci(m) for m in pos.move_stack]
    assert hands.app.game.position.fen() == pos.fen()


@pytest.mark.parametrize("seed", range(6))
def test_a_sprint_game_played_by_hand(seed):
    play_sprint_game(seed, 40)


def test_a_sprint_game_is_saved_and_resumed_after_a_power_cut():
    from memfs import MemFS
    flash = MemFS()
    hands = FirmwareHands(variant="sprint", seed=1, fs=flash)
    act(hands, "+a1")
    hands.wait(SETTLED)
    act(hands, "-e7", "+e5")
    hands.wait(SETTLED)
    saved = hands.app.game.position.fen()
    assert hands.moves() == ["R@a1", "e7e5"]
    again = FirmwareHands(fs=flash)              # boots from the same flash
    assert again.app.game.position.fen() == saved
    assert again.app.game.position.variant != "chess"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_long_sprint_games_played_by_hand(seed):
    play_sprint_game(seed, 150)


@pytest.mark.parametrize("tile", "PNBRQ")
def test_a_placement_lights_only_its_own_square(tile):
    # A placement's origin bits are 0: decoded as a move, it lit a1 "last-move" too.
    # (The queen may be placed from turn 8 on; the pawns keep the game from a dead draw.)
    hands = Hands(fen="4k3/p7/8/8/8/8/P7/4K3[%s%s] w - - 0 8 0/0 - 1" % (tile, tile.lower()))
    assert hands.leds() == {}
    act(hands, "+d3")
    hands.wait(SETTLED)
    assert hands.moves() == ["%s@d3" % tile]
    assert hands.leds() == {"d3": "last-move"}
    act(hands, "+d6")
    hands.wait(SETTLED)
    assert hands.moves() == ["%s@d3" % tile, "%s@d6" % tile]
    assert hands.leds() == {"d6": "last-move"}


@pytest.mark.parametrize("tile", "PNBRQ")
def test_a_placement_the_host_asks_for_lights_its_square_with_the_tile(tile):
    hands = Hands(fen="4k3/p7/8/8/8/8/P7/4K3[%s] w - - 0 8 0/0 - 1" % tile)
    hands.app.game.show_move("%s@d3" % tile)
    hands.app.dirty = True
    name = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen"}[tile]
    assert hands.leds() == {"d3": "drop-" + name}
    act(hands, "+d3")
    hands.wait(SETTLED)
    assert hands.moves() == ["%s@d3" % tile] and hands.leds() == {"d3": "last-move"}
