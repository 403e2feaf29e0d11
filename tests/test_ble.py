"""The board on a Pico W as a Bluetooth LE e-board: apps written from the public descriptions connect
as to a DGT Pegasus (DGT's commands over the Nordic UART Service) and a Millennium eONE (ChessLink
over Microchip's transparent-UART service) and play whole games; the writes an app splits, the MTU,
a connection lost and regained, one host at a time (USB or the radio), and the options that say what
the radio advertises. The firmware (with firmware/ble_radio.py) on fake hardware and a fake of
MicroPython's ``bluetooth`` (host_tools/fakehw/radio), on CPython."""

import json
import os
import random
import sys

import chess
import pytest

from firmware_support import Board, ROOT, run_on_the_pins
from hands_fuzz import choose
from mpy_runner import needs_micropython, run_micropython
from test_chesslink import LinkHost, odd_parity, status_of, with_check
from test_dgt import (DGT_BOARD_DUMP, DGT_FIELD_UPDATE, DGT_SEND_BRD, DGT_SEND_UPDATE_BRD, DgtHost, field_of,
                      follow_a_whole_game, game_for_micropython)

RADIO = os.path.join(ROOT, "host_tools", "fakehw", "radio")
bluetooth = ble_radio = None      # the fake (host_tools/fakehw/radio/bluetooth.py) and firmware/ble_radio.py


@pytest.fixture(scope="module", autouse=True)
def a_pico_w():
    """The fake ``bluetooth`` importable for this module's tests only: with it on the path (or
    imported) any board the process builds on hal.py after them would be a Pico W."""
    global bluetooth, ble_radio
    sys.path.insert(0, RADIO)
    import bluetooth
    import ble_radio
    yield
    sys.path.remove(RADIO)
    for name in ("bluetooth", "ble_radio"):
        sys.modules.pop(name, None)

NUS_RX, NUS_TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e", "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
EONE_RX, EONE_TX = "49535343-8841-43f4-a8d4-ecbe34729bb3", "49535343-1e4d-4bd9-ba61-23c647249616"
NUS_SERVICE_LE = bytes.fromhex("6e400001b5a3f393e0a9e50e24dcca9e")[::-1]
EONE_SERVICE_LE = bytes.fromhex("49535343fe7d4ae58fa99fafd205e455")[::-1]


@pytest.fixture(autouse=True)
def fresh_radio():
    """A new radio for each test, and the options' table as a Pico without one has it."""
    from scacchiera import options
    table = options.TABLE
    bluetooth.reset()
    yield
    bluetooth.reset()
    options.TABLE = table


def w_board(**kw):
    """A Pico W's board, booted, its radio advertising (a tick after boot)."""
    board = Board(radio=True, **kw)
    board.wait(300)
    return board


def advertised(board):
    """(the name in the scan response, the 128-bit service UUIDs in the advertising data), or None."""
    adv = bluetooth.BLE().advertising
    if adv is None:
        return None
    fields = {}
    for data in (adv[1], adv[2]):
        i = 0
        while i < len(data):
            n = data[i]
            fields[data[i + 1]] = bytes(data[i + 2:i + 1 + n])
            i += 1 + n
    return fields.get(0x09, b"").decode(), fields.get(0x07, b"")


def connected(tx, mtu=None):
    """A phone's central, connected, the MTU asked (if ``mtu``), ``tx``'s notifications on."""
    central = bluetooth.Central()
    central.connect()
    if mtu:
        central.exchange_mtu(mtu)
    central.subscribe(tx)
    return central


class PegasusApp(DgtHost):
    """A DGT Pegasus app: DGT's one-byte commands written to the NUS's RX, at most MTU - 3 bytes a
    write; the board's messages read from TX's notifications."""

    def __init__(self, board, mtu=None):
        super().__init__(board)
        self.central = connected(NUS_TX, mtu)
        self.raw = bytearray()

    def send(self, data):
        room = self.central.mtu - 3
        for i in range(0, len(data), room):
            self.central.write(NUS_RX, data[i:i + room])

    def received(self):
        self.raw += self.central.take()
        return self.raw


class EoneApp(LinkHost):
    """A Millennium eONE app: ChessLink's messages (odd parity, the XOR check) written to the
    transparent UART's RX in pieces of MTU - 3 bytes; the board's read from TX's notifications."""

    def __init__(self, board, mtu=None):
        super().__init__(board)
        self.central = connected(EONE_TX, mtu)
        self.raw = bytearray()

    def send(self, text, steps=12):
        data = odd_parity(with_check(text).encode())
        room = self.central.mtu - 3
        for i in range(0, len(data), room):
            self.central.write(EONE_RX, data[i:i + room])
            self.board.run(2)                # the next piece a connection event later
        self.board.run(steps)

    def replies(self):
        self.raw += self.central.take()
        self.board.hw.serial.raw = self.raw   # LinkHost reads what came from here
        return super().replies()


def test_the_board_advertises_as_a_pegasus_and_serves_both_services():
    board = w_board()
    name, uuids = advertised(board)
    assert name == "DGT PEGASUS" and uuids == NUS_SERVICE_LE
    ble = bluetooth.BLE()
    assert {str(u.value) for u in ble.uuids.values()} >= {NUS_RX, NUS_TX, EONE_RX, EONE_TX}
    assert board.lines()[0]["ev"] == "boot"


def test_a_pegasus_app_follows_a_whole_game():
    """The app at the default MTU (23: a board dump's 67 bytes in four notifications): the same
    80-ply game as the USB DGT host's, with castling both ways, en passant, promotions and a
    takeback, its updates and dumps checked after every move."""
    board = w_board()
    app = PegasusApp(board)
    follow_a_whole_game(board, app)
    assert app.central.cut == 0


def test_the_usb_host_is_told_and_no_dgt_byte_reaches_it():
    board = w_board()
    board.lines()
    app = PegasusApp(board)
    app.command(DGT_SEND_UPDATE_BRD)
    assert board.lines() == [{"ev": "ble", "holder": "dgt"}]
    board.play("e2e4")
    board.wait(500)
    assert board.lines() == [], "the USB host heard nothing of the game while the app had it"
    updates = [data for kind, data in app.messages() if kind == DGT_FIELD_UPDATE]
    assert updates == [bytes((52, 0)), bytes((36, 1))], updates


def test_a_stray_byte_from_the_app_leaves_it_a_dgt_host():
    """A line end, or a ChessLink letter, from a DGT program gives a USB link to another host
    (hosts.py); over BLE the service says the language: the app stays a DGT host and hears only
    DGT's messages."""
    board = w_board()
    app = PegasusApp(board)
    app.command(DGT_SEND_UPDATE_BRD)
    app.send(b"\nV")
    board.wait(30)
    board.play("e2e4")
    board.wait(500)
    assert [k for k, _ in app.messages()] == [DGT_FIELD_UPDATE, DGT_FIELD_UPDATE]   # messages() checks every byte
    game = chess.Board()
    game.push_uci("e2e4")
    assert app.dump() == field_of(game)


def test_notifications_respect_the_negotiated_mtu():
    board = w_board()
    app = PegasusApp(board, mtu=40)
    app.command(DGT_SEND_BRD)
    sizes = [len(data) for _h, data in app.central.inbox]
    assert sizes == [37, 30], sizes          # 67 bytes: 40 - 3, then the rest
    (kind, data), = app.messages()
    assert kind == DGT_BOARD_DUMP and len(data) == 64
    assert app.central.cut == 0


def test_an_led_command_split_across_three_writes_lights_its_squares():
    """The Revelation II's 0x60 (size 4, on, from, to, 0), in three writes a connection interval
    (30 ms) apart: the two squares show "asked"."""
    from scacchiera.link.report import frame_names
    board = w_board()
    app = PegasusApp(board)
    app.command(DGT_SEND_UPDATE_BRD)
    e2, e4 = 52, 36                          # DGT's fields: a8 = 0 ... h1 = 63
    for piece in (bytes((0x60, 4)), bytes((1, e2)), bytes((e4, 0))):
        app.central.write(NUS_RX, piece)
        board.wait(30)
    board.wait(30)
    assert frame_names(board.runner) == {"e2": "asked", "e4": "asked"}


def test_an_eone_app_plays_a_whole_game():
    """As a Millennium eONE: advertised as one once the option says so; the app's V, W and L (167
    bytes: nine writes at MTU 23) answered, and the status after every move of a 60-ply game equal to
    python-chess's, reported on its own and asked with S."""
    board = w_board()
    board.send({"cmd": "set", "name": "ble", "value": "eone"}, steps=4)
    name, uuids = advertised(board)
    assert name == "MILLENNIUM CHESS" and uuids == EONE_SERVICE_LE
    board.wait(10000)                        # the USB host that set it no longer holds the board
    app = EoneApp(board)
    app.send("V")
    game = chess.Board()
    assert app.replies() == ["v0100", "s" + status_of(game)]       # the version, then the first report
    app.send("W0203")
    assert app.replies() == ["w0203"]
    app.send("L" + "01" + "FF" * 81)
    assert app.replies() == ["l"]
    app.send("X")
    assert app.replies() == ["x"]
    rng = random.Random(5)
    while not game.is_game_over() and len(game.move_stack) < 60:
        move = choose(rng, game)
        board.hands.play(board.game.position, board.game.position.parse_uci(move.uci()))
        game.push(move)
        if len(board.game.position.move_stack) < len(game.move_stack):
            board.wait(1200)                 # a rook's move that may begin a castling waits for the king
        reports = app.replies()
        assert reports and reports[-1] == "s" + status_of(game), move
        app.send("S")
        assert app.replies() == ["s" + status_of(game)]
    assert app.central.cut == 0


def test_the_connection_lost_and_regained_mid_game():
    """The app goes mid-game: the board advertises again, the USB host has the link and is told; the
    game goes on on the board; the app comes back and reads the board as it is."""
    board = w_board()
    app = PegasusApp(board)
    app.command(DGT_SEND_UPDATE_BRD)
    game = chess.Board()
    for uci in ("e2e4", "e7e5", "g1f3"):
        board.play(uci)
        game.push_uci(uci)
    board.lines()
    app.central.disconnect()
    board.wait(20)
    assert advertised(board)[0] == "DGT PEGASUS"
    assert board.lines() == [{"ev": "ble", "holder": None}]
    board.send("status", steps=4)
    assert board.replies("status")[0]["moves"] == ["e2e4", "e7e5", "g1f3"]
    board.play("b8c6")
    game.push_uci("b8c6")
    board.wait(10000)                        # the USB host, silent, no longer holds the board
    again = PegasusApp(board)
    assert again.dump() == field_of(game)
    assert board.runner.protocol.host is not None


def test_one_host_at_a_time():
    """A USB host that spoke within 10 s keeps the board: an app that connects is let go and the USB
    host told. An app that has the board keeps it: a USB text host is told it is busy (once per 2 s),
    and a second app is disconnected as it connects."""
    board = w_board()
    board.send("status", steps=4)
    board.lines()
    app = PegasusApp(board)
    app.central.write(NUS_RX, bytes((DGT_SEND_BRD,)))
    board.wait(20)
    assert app.central.handle is None, "the app was let go"
    assert board.lines() == [{"ev": "ble", "refused": "dgt", "why": "the USB host has the board"}]
    assert advertised(board) is not None
    board.wait(10000)
    app = PegasusApp(board)
    app.command(DGT_SEND_BRD)
    assert [k for k, _ in app.messages()] == [DGT_BOARD_DUMP]
    board.lines()
    for _ in range(3):
        board.send("status", steps=4)
    assert board.lines() == [{"ev": "busy", "holder": "ble"}], "one busy line, no reply to the commands"
    second = bluetooth.Central(addr=b"\x02\x00\x00\x00\x00\x02")
    bluetooth.BLE().advertising = (250000, b"", b"", True)   # a second app that saw an old advert
    second.connect()
    assert second.handle is None and app.central.handle is not None
    app.command(DGT_SEND_BRD)
    assert [k for k, _ in app.messages()] == [DGT_BOARD_DUMP]
    board.wait(2000)
    board.send("status", steps=4)
    assert board.lines() == [{"ev": "busy", "holder": "ble"}]
    app.central.disconnect()
    board.wait(20)
    board.send("status", steps=4)
    status, = board.replies("status")
    assert status["ble"] == {"advertising": "pegasus", "app": None, "holder": "usb", "mtu": 23,
                             "connections": 2, "refused": 2}


def test_the_radio_options():
    """``ble_number`` puts the board's number in its name; ``ble off`` stops advertising and lets a
    connected app go; a Pico without a radio has neither option."""
    plain = Board()
    plain.wait(100)
    plain.send({"cmd": "set", "name": "ble", "value": "off"}, steps=4)
    reply, = plain.replies("set")
    assert reply["ok"] is False and "ble" in reply["message"]
    board = w_board()
    board.send({"cmd": "set", "name": "ble_number", "value": 7}, steps=4)
    assert advertised(board)[0] == "DGT PEGASUS 7"
    app = PegasusApp(board)
    app.command(DGT_SEND_BRD)
    board.send({"cmd": "set", "name": "ble", "value": "off"}, steps=4)
    assert advertised(board) is None and app.central.handle is None


def test_the_options_survive_a_restart():
    board = w_board()
    board.send({"cmd": "set", "name": "ble", "value": "eone"}, steps=4)
    board.send({"cmd": "set", "name": "ble_number", "value": 12}, steps=4)
    fs = board.hw.fs
    bluetooth.reset()
    again = Board(fs=fs, radio=True)
    again.wait(300)
    assert advertised(again) == ("MILLENNIUM CHESS 12", EONE_SERVICE_LE)


def test_a_radio_that_does_not_start():
    """The radio chip does not answer (the emulated Pico W: OSError(22)): ble_radio.part says why
    and the board is a USB board that says so once."""
    bluetooth.radio_fails = True
    with pytest.raises(OSError):
        ble_radio.Radio()
    from fakehal import FakeHardware
    from scacchiera import start
    hw = FakeHardware()
    hw.parts = (ble_radio.part(hw),)
    assert hw.radio is None and hw.radio_why == "the radio did not start: OSError 22"
    runner = start.build(hw, 5000)
    start.serve(runner, 4)
    lines = hw.take()
    assert lines[0]["ev"] == "boot"
    radio = [line for line in lines if line["ev"] == "radio"]
    assert radio == [{"ev": "radio", "error": "the radio did not start: OSError 22"}]
    assert runner.parts[0] is runner.protocol and not hasattr(runner, "ble_link")
    hw.send("status")
    start.serve(runner, 4)
    assert hw.take()[-1]["ble"] == {"error": "the radio did not start: OSError 22"}


# -- the same under MicroPython (the WebAssembly port), on the real HAL: the game from CPython ----------

@needs_micropython
def test_a_pegasus_app_under_micropython(tmp_path):
    game = game_for_micropython()
    out = run_micropython("tests/mpy/check_ble_game.py", str(tmp_path / "flash"), json.dumps(game),
                          paths=("host_tools/fakehw/radio", "host_tools/fakehw", "firmware", "tests/mpy"), data=())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"
    assert "80 plies over BLE" in out.stdout


def test_the_micropython_check_on_cpython(tmp_path):
    """The same script on CPython: the same expectations."""
    out = run_on_the_pins("check_ble_game.py", tmp_path / "flash", json.dumps(game_for_micropython()), radio=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"
