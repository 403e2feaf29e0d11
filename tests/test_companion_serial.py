"""The companion and a board on USB serial: the real firmware behind a pseudo-terminal pair,
the same page state as the simulator's, and the port reopened when the board comes back."""

import json
import os
import time

import pytest

from companion_support import PtyBoard
from host_tools.companion import boards
from host_tools.companion.boards import ActionError, SerialBoard


def until(predicate, timeout=10, what="the condition"):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting for %s" % what
        time.sleep(0.01)


@pytest.fixture
def linked(tmp_path):
    with PtyBoard(str(tmp_path / "ttyPico")) as pico:
        board = SerialBoard(pico.path, retry=(0.05, 0.2))
        board.start()
        try:
            yield pico, board
        finally:
            board.stop()


def test_the_page_follows_a_game_on_a_board_over_serial(linked):
    pico, board = linked
    until(lambda: board.state()["ready"], what="the first status")
    s = board.state()
    assert s["board"] == {"kind": "serial", "hands": False, "connected": True, "problem": None}
    assert s["firmware"].startswith("scacchiera") and s["in_sync"] and s["pieces"][4] == "K"
    assert b'"cmd":"hello"' in pico.received and b'"cmd":"watch"' in pico.received
    pico.hands(lambda hw: hw.lift(12))          # e2: the LEDs show where it may go
    until(lambda: board.state()["leds"].get("e2") == "lifted", what="e2 lit 'lifted'")
    assert board.state()["leds"]["e4"] == "legal" and board.state()["pieces"][12] == ""
    pico.hands(lambda hw: hw.place(28))         # e4
    until(lambda: board.state()["san"] == ["e4"], what="the move")
    s = board.state()
    assert s["moves"] == ["e2e4"] and s["turn"] == "black" and s["pieces"][28] == "P"
    assert any('"ev": "move"' in line for line in s["protocol"])


def test_actions_become_protocol_lines(linked):
    pico, board = linked
    until(lambda: board.state()["ready"], what="the first status")
    board.act("option", {"name": "hints", "value": False})
    until(lambda: board.state()["options"].get("hints") is False, what="hints off")
    board.act("new", {"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"})
    until(lambda: board.state()["fen"].startswith("4k3/8/8/8/8/8/8/4K2R"), what="the new game")
    s = board.state()
    assert not s["in_sync"] and s["leds"]["a1"] == "to-empty"
    board.act("send", {"line": "status"})
    until(lambda: any('"re": "status"' in l for l in board.state()["protocol"]), what="the reply in the log")
    with pytest.raises(ActionError, match="blank"):
        board.act("send", {"line": " "})
    with pytest.raises(ActionError, match="no such action"):
        board.act("lift", {"square": "e2"})          # a real board has no simulated hands


def test_unplugged_and_plugged_again(linked):
    pico, board = linked
    until(lambda: board.state()["ready"], what="the first status")
    pico.hands(lambda hw: (hw.lift(12), hw.place(28)))
    until(lambda: board.state()["moves"] == ["e2e4"], what="the first move")
    pico.unplug()
    until(lambda: not board.state()["board"]["connected"], what="the link to drop")
    assert "went away" in board.state()["board"]["problem"] or "No such file" in board.state()["board"]["problem"]
    with pytest.raises(ActionError, match="not connected"):
        board.act("send", {"line": "status"})
    # e7e5 while the cable is out (lift, then place: the board sees them one after the other)
    pico.hands(lambda hw: hw.lift(52))
    until(lambda: pico.runner.app.game.tracker.state == 1, what="e7 lifted")
    pico.hands(lambda hw: hw.place(36))
    until(lambda: len(pico.runner.app.game.position.move_stack) == 2, what="the board to play e7e5")
    pico.plug()
    until(lambda: board.state()["san"] == ["e4", "e5"], what="the re-sync after replugging")
    assert board.state()["board"]["connected"] and board.state()["moves"] == ["e2e4", "e7e5"]


def test_the_board_restarting_is_followed(linked):
    pico, board = linked
    until(lambda: board.state()["ready"], what="the first status")

    def reboot(hw):
        from scacchiera import start as firmware_main
        from firmware_support import PERIOD_US
        pico.runner = firmware_main.build(hw, PERIOD_US)     # same flash: it resumes its game
    pico.hands(reboot)
    until(lambda: any('"ev": "boot"' in l for l in board.state()["protocol"]), what="the boot line")
    pico.hands(lambda hw: hw.lift(6))                          # a move after the restart
    until(lambda: board.state()["leds"].get("g1") == "lifted", what="the LEDs watched again after the boot")
    pico.hands(lambda hw: hw.place(21))
    until(lambda: board.state()["leds"].get("f3") == "last-move", what="the LEDs watched again after the boot")


def test_which_port(monkeypatch):
    class Port:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid
    found = []
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: found)
    with pytest.raises(ActionError, match="no board found: plug the Pico in"):
        boards.pick_port()
    found[:] = [Port("/dev/ttyUSB0", 0x0403), Port("/dev/ttyACM0", 0x2E8A)]
    assert boards.pick_port() == "/dev/ttyACM0"
    found.append(Port("/dev/ttyACM1", 0x2E8A))
    with pytest.raises(ActionError, match="2 boards found .*PORT=/dev/ttyACM0"):
        boards.pick_port()


def test_a_club_knows_a_board_by_its_serial_number(monkeypatch):
    """Several Picos: each found by its USB serial number, whatever port it is given after a replug."""
    class Port:
        def __init__(self, device, serial_number, vid=0x2E8A):
            self.device, self.serial_number, self.vid = device, serial_number, vid
    found = [Port("/dev/ttyACM1", "E6614103E7A1"), Port("/dev/ttyACM0", "E66138935F22"), Port("/dev/ttyUSB0", "X", 0x0403)]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: found)
    assert boards.find_picos() == [("/dev/ttyACM0", "E66138935F22"), ("/dev/ttyACM1", "E6614103E7A1")]
    assert boards.pick_port("E6614103E7A1") == "/dev/ttyACM1"
    found[:] = [Port("/dev/ttyACM2", "E6614103E7A1")]           # unplugged, back on another port
    assert boards.pick_port("E6614103E7A1") == "/dev/ttyACM2"
    with pytest.raises(ActionError, match="board E66138935F22 is not plugged in"):
        boards.pick_port("E66138935F22")
    board = SerialBoard(None, retry=(0.05, 0.1), serial_number="E66138935F22")
    board.start()
    try:
        until(lambda: "E66138935F22 is not plugged in" in (board.state()["board"]["problem"] or ""),
              what="the missing board said")
    finally:
        board.stop()


def test_no_board_is_said_on_the_page(monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    board = SerialBoard(None, retry=(0.05, 0.1))
    board.start()
    try:
        until(lambda: "no board found" in (board.state()["board"]["problem"] or ""), what="the message")
        assert not board.state()["board"]["connected"]
    finally:
        board.stop()
