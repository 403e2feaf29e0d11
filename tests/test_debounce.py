"""Per-square deferred debouncing, as tables of (time ms, raw squares present) -> reported changes.

The scan runs every 5 ms unless a row says otherwise; DELAY is the quiet
time a change must hold before it is reported.
"""

import pytest

from scacchiera.sensing.debounce import Debouncer

DELAY = 30


def run(table, delay=DELAY, initial=()):
    """Feed (time, squares present) rows; returns the reported (time, square, present) changes."""
    out = []
    d = Debouncer(lambda sq, present, now: out.append((now, sq, present)), delay,
                  initial=rows_of(initial))
    for now, squares in table:
        d.scan(rows_of(squares), now)
    return out


def rows_of(squares):
    rows = bytearray(8)
    for sq in squares:
        rows[sq >> 3] |= 1 << (sq & 7)
    return rows


def steady(start, end, squares, step=5):
    return [(t, squares) for t in range(start, end + 1, step)]


E2, E3, E4, D4 = 12, 20, 28, 27


@pytest.mark.parametrize("chatter_ms", range(1, 11))
def test_contact_chatter_of_1_to_10_ms_is_one_change(chatter_ms):
    # A piece put on e4: the reed bounces open/closed every millisecond for chatter_ms, then holds.
    table = [(0, ())]
    for t in range(1, chatter_ms + 1):
        table.append((t, (E4,) if t % 2 else ()))
    table += steady(chatter_ms + 1, chatter_ms + 100, (E4,), step=1)
    changes = run(table)
    assert [(sq, p) for _, sq, p in changes] == [(E4, 1)]
    # reported once the contact has been quiet for DELAY, never earlier
    assert chatter_ms + DELAY - 1 <= changes[0][0] <= chatter_ms + DELAY + 1


def test_lifting_with_chatter_is_one_change_too():
    table = [(0, (E2,)), (1, ()), (2, (E2,)), (3, ()), (4, (E2,)), (5, ())] + steady(6, 100, (), step=1)
    changes = run(table, initial=(E2,))
    assert [(sq, p) for _, sq, p in changes] == [(E2, 0)]


def test_a_magnet_sliding_past_a_neighbouring_reed_is_never_a_change_only_a_brief_one():
    # e2 -> e4 slid over e3, whose reed closes for 20 ms on the way: shorter than DELAY, so never an
    # arrival; it is told as a brief change (present 2), which the app takes only mid-move (app.py).
    table = steady(0, 20, (E2,)) + steady(25, 45, ()) + steady(50, 70, (E3,)) + steady(75, 200, (E4,))
    changes = run(table, initial=(E2,))
    assert [(sq, p) for _, sq, p in changes] == [(E2, 0), (E3, 2), (E4, 1)]


@pytest.mark.parametrize("away_ms", [5, 10, 15, 20, 25])
def test_a_piece_off_its_square_for_less_than_the_delay_is_a_brief_change_from_8_ms(away_ms):
    # A capture made fast: the victim off e4 and the capturer down within DELAY. 5 ms (a bounce's
    # length) is no change at all; from BRIEF_MS (8) it is a brief one, told when the reed is back.
    table = steady(0, 20, (E4,)) + steady(20 + 1, 20 + away_ms - 1, (), step=1) + steady(20 + away_ms, 200, (E4,))
    changes = run(table, initial=(E4,))
    assert changes == ([] if away_ms < 8 else [(20 + away_ms, E4, 2)])


def test_the_bounces_of_a_brief_change_make_it_one():
    # e4 off for 15 ms, both edges bouncing (1-2 ms apart): one brief change, no more.
    table = [(0, (E4,)), (20, ()), (21, (E4,)), (22, ())] + steady(23, 35, (), step=1) + \
        [(36, (E4,)), (37, ()), (38, (E4,))] + steady(39, 200, (E4,), step=1)
    changes = run(table, initial=(E4,))
    assert [(sq, p) for _, sq, p in changes] == [(E4, 2)]


def test_a_long_touch_is_a_real_placement():
    table = steady(0, 100, (D4,)) + steady(105, 200, ())
    changes = run(table)
    assert [(sq, p) for _, sq, p in changes] == [(D4, 1), (D4, 0)]


def test_a_stuck_switch_reports_once_and_stays_quiet():
    # A reed welded closed: one change, then nothing however long the scans go on.
    changes = run(steady(0, 5000, (E4,)))
    assert changes == [(DELAY, E4, 1)]


def test_a_stalled_scan_loop_cannot_stretch_a_bounce_into_a_change():
    # The loop stalls 300 ms (a flash write) right after a 2 ms bounce began: the first scan
    # after the stall sees the reed back where it was, so nothing is reported.
    table = [(0, ()), (5, (E4,)), (305, ()), (310, ()), (400, ())]
    assert run(table) == []


def test_after_a_stall_a_real_change_waits_its_quiet_time():
    # Seen first after the stall: counted from then, not from before.
    table = [(0, ()), (300, (E4,)), (305, (E4,)), (329, (E4,)), (330, (E4,)), (340, (E4,))]
    assert run(table) == [(330, E4, 1)]


def test_squares_are_debounced_independently():
    # e2 chatters while d4 changes cleanly: d4's change is not held back by e2's noise.
    table = []
    for t in range(0, 60):
        table.append((t, ((E2,) if t % 3 else ()) + ((D4,) if t >= 10 else ())))
    changes = run(table, initial=(E2,))
    assert (10 + DELAY, D4, 1) in changes
    assert all(sq == D4 for _, sq, _ in changes)


def test_the_delay_is_configurable():
    table = steady(0, 200, (E4,), step=1)
    assert run(table, delay=10) == [(10, E4, 1)]
    assert run(table, delay=40) == [(40, E4, 1)]


def test_ticks_wrapping_at_2_to_the_30():
    # MicroPython's ticks_ms wraps at 2**30; the quiet time is measured across the wrap.
    wrap = 1 << 30
    table = [(wrap - 10, ()), (wrap - 5, (E4,))] + [((wrap + t) % wrap, (E4,)) for t in range(0, 40, 5)]
    changes = run(table)
    assert [(sq, p) for _, sq, p in changes] == [(E4, 1)] and changes[0][0] == (wrap - 5 + DELAY) % wrap


@pytest.mark.parametrize("lifted, placed", [(E2, E4), (52, 36)])
def test_a_lift_and_a_placement_settling_together_are_reported_lift_first(lifted, placed):
    # A quick hand: e7 lifted and e5 filled within one debounce window (black's e7e5 has
    # the placed square numbered lower than the lifted one; white's e2e4 the other way).
    table = steady(0, 20, [lifted]) + steady(25, 100, [placed])
    assert run(table, initial=[lifted]) == [(55, lifted, 0), (55, placed, 1)]


@pytest.mark.parametrize("uci", ["e2e4", "e7e5"])
def test_a_move_made_within_one_debounce_window_is_recognised(uci):
    from firmware_support import Board
    from scacchiera.rules import parse_square
    board = Board()
    if uci[1] == "7":
        board.play("d2d4")
    board.hw.lift(parse_square(uci[:2]))
    board.hw.place(parse_square(uci[2:]))
    board.run(200)
    assert board.game.position.uci(board.game.position.move_stack[-1]) == uci
    assert board.game.in_sync() and not board.game.tracker.diff
