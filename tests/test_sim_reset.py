"""The simulator survives a firmware reset as a board does: start.serve turns a crash into a reset, and
the simulated board boots again from its flash and resumes its game (on a Pico, the watchdog's reset).
Before, the reset escaped the simulator's clock: its thread died and the page's board froze."""

import json

from host_tools.companion.boards import SimulatedBoard


def _until(board, done, limit_ms=3000):
    """Let simulated time pass until ``done()`` (the model asks the board, which answers in its loop)."""
    for _ in range(limit_ms // 50):
        if done():
            return True
        board.advance(50)
    return done()


def _moves(board):
    return (board.model.status or {}).get("moves")


def _boots(board):
    return [json.loads(line) for line in board.sim.protocol if '"ev": "boot"' in line]


def test_a_firmware_crash_reboots_the_simulated_board_which_resumes_its_game():
    board = SimulatedBoard(speed=0)           # step mode: the test moves the clock (its thread's job)
    sim = board.sim
    for frm, to in (("e2", "e4"), ("e7", "e5")):
        sim.lift(frm)
        board.advance(100)
        sim.place(to)
        board.advance(600)
    assert _until(board, lambda: _moves(board) == ["e2e4", "e7e5"]), _moves(board)
    runner = sim.runner

    def bug(*args):
        raise RuntimeError("a firmware bug")
    runner.protocol.tick = bug                # the next pass of the loop meets it
    board.advance(300)                        # raised Reset out of the simulator's clock before
    assert sim.runner is not runner and sim.hw.resets == 0
    crash = [line for line in sim.protocol if '"ev": "crash"' in line]
    assert crash and "a firmware bug" in crash[0]
    assert [b["cause"] for b in _boots(board)] == ["power_on", "watchdog"]
    assert _until(board, lambda: board.model.status is not None and _moves(board) == ["e2e4", "e7e5"])
    sim.lift("g1")
    board.advance(100)
    sim.place("f3")
    board.advance(600)
    assert _until(board, lambda: _moves(board) == ["e2e4", "e7e5", "g1f3"]), _moves(board)
