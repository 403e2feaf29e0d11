"""The real firmware (main.py, hal.py, the runner) plays a game through raw pin levels.

Runs under MicroPython (tools/micropython) and CPython alike, with
host_tools/fakehw FIRST on the path so that ``import machine`` and ``import
neopixel`` find the fakes: the electrical model of the reed matrix, a
captured LED strip, a simulated clock. The hands move magnets; the firmware
drives rows, reads GPIO_IN, debounces, recognises moves, writes the strip,
talks on the serial link and keeps its journal; then the board is rebooted
(as by the watchdog) and must resume the game from the journal.

Usage: check_firmware_game.py FOLDER (the flash; a fresh folder).
Prints one "ok ..." line per step, then "N passed, 0 failed".
"""

import sys

import board_config as cfg
import machine
import neopixel
from pinboard import PinBoard
from scacchiera import diagnostics
from scacchiera.leds import frame as f
from scacchiera.leds.palette import Palette, BLINK_MS

PERIOD_US = 5000
START = list(range(16)) + list(range(48, 64))
# The Blackburne-Shilling trap: captures, a check, and Black mates.
TRAP = "e2e4 e7e5 g1f3 b8c6 f1c4 c6d4 f3e5 d8g5 e5f7 g5g2 h1f1 g2e4 c4e2 d4f3".split()

ROOT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/scacchiera-check"
passed = []


def ok(name):
    passed.append(name)
    print("ok   " + name)


def square(name):
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


class Board(PinBoard):
    """One powered board (pinboard.py), and its LED strip's colours."""

    def __init__(self):
        super().__init__(ROOT, PERIOD_US)
        self.palette = Palette(bytes(cfg.square_to_led(sq) for sq in range(64)), cfg.LED_COLOR_ORDER,
                               cfg.LED_MAX_LEVEL)

    def pixel(self, name):
        """The bytes the strip shows under a square."""
        i = cfg.square_to_led(square(name)) * 3
        return bytes(neopixel.strips[-1].shown[i:i + 3])

    def colour(self, meaning):
        """The strip bytes of ``meaning``, lit (at time 0 a blinking meaning is on)."""
        return bytes(self.palette.render(bytes([meaning]) * 64, bytearray(192), 0)[:3])

    def at_blink_on(self):
        """Wait until blinking squares are in their lit half-period."""
        while (machine.clock.ticks_ms() // BLINK_MS) & 1:
            self.run(1)
        self.run(3)


def main_check():
    machine.reset_board()
    for sq in START:
        machine.board.place(sq)

    board = Board()
    boot = board.lines()
    assert boot[0]["ev"] == "boot" and boot[0]["proto"] == 1 and boot[0]["cause"] == "power_on", boot
    assert not [l for l in boot if l.get("ev") == "out_of_sync"], boot
    assert board.pixel("e2") == bytes(3), "a fresh game in place lights nothing"
    if sys.implementation.name == "micropython":    # CPython keeps it, like any module
        assert "scacchiera.storage.journal_reader" not in sys.modules, "the journal's reader is dropped after boot"
    ok("boot: the set-up board matches a new game, no LEDs lit")

    board.serial.send({"cmd": "hello", "id": 1})
    board.run(4)
    hello = board.lines("hello")[0]
    assert hello["ok"] and hello["proto"] == 1 and hello["id"] == 1 and hello["max_line"] == 512
    ok("hello: protocol version and capabilities")

    game = board.runner.app.game
    board.hands.play_uci(game, "e2e4")
    board.hands.play_uci(game, "e7e5")
    moves = board.lines("move")
    assert [(m["uci"], m["san"]) for m in moves] == [("e2e4", "e4"), ("e7e5", "e5")], moves
    assert board.pixel("e7") == board.colour(f.LAST_MOVE) and board.pixel("e5") == board.colour(f.LAST_MOVE)
    assert board.pixel("e4") == bytes(3)
    ok("hands play e4 e5: move lines with SAN, the last move lit on the strip")

    machine.board.lift(square("g1"))
    board.run(20)
    assert board.pixel("g1") == board.colour(f.LIFTED)
    assert board.pixel("f3") == board.colour(f.LEGAL) and board.pixel("h3") == board.colour(f.LEGAL)
    machine.board.place(square("g1"))
    board.run(100)
    board.lines()
    ok("a lifted knight lights its square and its two destinations")

    board.serial.send("show g1f3")
    board.run(4)
    reply = board.lines("show")[0]
    assert reply["ok"] and reply["san"] == "Nf3", reply
    board.at_blink_on()
    assert board.pixel("g1") == board.colour(f.SHOW_FROM), board.pixel("g1")
    assert board.pixel("f3") == board.colour(f.SHOW_TO), board.pixel("f3")
    machine.board.lift(square("g1"))
    machine.board.place(square("h3"))   # not the move asked for
    board.run(200)
    assert game.position.ply() == 2, "only the shown move is accepted"
    machine.board.lift(square("h3"))
    machine.board.place(square("g1"))
    board.run(100)
    board.lines()
    board.hands.play_uci(game, "g1f3")
    assert [m["uci"] for m in board.lines("move")] == ["g1f3"]
    ok("show g1f3: the strip shows from and to; Nh3 is refused, Nf3 is played")

    for uci in TRAP[3:]:
        board.hands.play_uci(game, uci)
    board.hands.wait(1000)
    lines = board.lines()
    moves = [l["san"] for l in lines if l.get("ev") == "move"]
    assert moves == ["Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#"], moves
    over = [l for l in lines if l.get("ev") == "game_over"]
    assert over == [{"ev": "game_over", "result": "0-1", "termination": "checkmate"}], over
    assert board.pixel("e1") == board.colour(f.LOSER) and board.pixel("e8") == board.colour(f.WINNER)
    ok("the trap to mate: captures, check and mate recognised; the kings show the result")

    board.serial.send('{"cmd": "games"}')
    board.serial.send('{"cmd": "pgn", "game": 1}')
    board.run(4)
    games = board.lines()
    assert games[0]["games"] == [{"game": 1, "bytes": len(games[1]["pgn"])}], games
    assert "7. Be2 Nf3# 0-1" in games[1]["pgn"].replace("\n", " ") and '[Result "0-1"]' in games[1]["pgn"], games[1]["pgn"]
    ok("the finished game is archived as PGN: games and pgn fetch it")

    # Set the pieces up again: a new game starts by itself.
    board.set_up(START)
    assert [l["ev"] for l in board.lines() if "ev" in l][:1] == ["new_game"]
    board.hands.play_uci(game, "d2d4")
    board.hands.play_uci(game, "d7d5")
    board.hands.play_uci(game, "c2c4")
    board.serial.send('{"cmd": "tag", "name": "White", "value": "Nicol\\u00f2 da Cant\\u00f9"}')
    board.run(4)
    assert board.lines("tag")[0]["ok"]
    # An emoji comes as JSON's surrogate pair: one character (MicroPython's json keeps two halves);
    # a half alone is refused.
    board.serial.send('{"cmd": "tag", "name": "Black", "value": "King \\ud83d\\udc51"}')
    board.run(4)
    assert board.lines("tag")[0]["ok"]
    board.serial.send('{"cmd": "tag", "name": "Event", "value": "a\\ud800b"}')
    board.run(4)
    refused = board.lines("tag")[0]
    assert not refused["ok"] and refused["error"] == "bad_field", refused
    board.lines()
    ok("setting up the pieces starts game 2; three moves played, White tagged Nicolò, Black a king's emoji")

    # The watchdog resets the board (a hang): the same flash, the same pieces.
    machine.reboot(machine.WDT_RESET)
    board = Board()
    lines = board.lines()
    assert lines[0]["ev"] == "boot" and lines[0]["cause"] == "watchdog", lines
    resume = [l for l in lines if l.get("ev") == "resume"]
    assert resume and resume[0]["ply"] == 3 and resume[0]["fen"].startswith("rnbqkbnr/ppp1pppp/8/3p4/2PP4"), lines
    assert not [l for l in lines if l.get("ev") == "out_of_sync"], lines
    assert board.runner.journal.tags == {"White": "Nicol\u00f2 da Cant\u00f9", "Black": "King " + chr(0x1F451)}, \
        board.runner.journal.tags
    board.hands.play_uci(board.runner.app.game, "e7e6")
    assert [m["san"] for m in board.lines("move")] == ["e6"]
    ok("after a watchdog reset the board resumes game 2 at ply 3, White still Nicolò, and plays on")

    # Power off, a piece knocked over meanwhile: the board guides it back.
    machine.board.lift(square("c4"))
    machine.reboot(machine.PWRON_RESET)
    board = Board()
    sync = [l for l in board.lines() if l.get("ev") == "out_of_sync"]
    assert sync == [{"ev": "out_of_sync", "to_empty": [], "to_fill": ["c4"]}], sync
    board.at_blink_on()
    assert board.pixel("c4") == board.colour(f.TO_FILL)
    machine.board.place(square("c4"))
    board.run(60)
    assert [l["ev"] for l in board.lines() if "ev" in l] == ["in_sync"]
    ok("a piece missing at power-up: out_of_sync, its square lit, in_sync once it is back")

    # Diagnostics from the serial link: the LED follows the magnet.
    board.serial.send("diag")
    board.run(4)
    assert board.lines("diag")[0]["ok"]
    board.run(220)                 # a report comes once a second
    report = board.lines("diag")[-1]
    assert report["map"][0] == "8 ########" and report["map"][4] == "4 ..##....", report["map"]
    assert 190 <= report["scan_rate"] <= 210, report["scan_rate"]
    lit = board.pixel("a1")
    assert lit == bytes((cfg.LED_MAX_LEVEL,) * 3), lit
    assert board.pixel("a4") in (bytes(3),) or diagnostics.running(board.runner).walk == cfg.square_to_led(square("a4"))
    board.serial.send("diag off")
    board.run(4)
    ok("diag: the occupancy map, the scan rate, closed reeds lit white")

    # Ctrl-C on the serial link (mpremote taking over): the loop stops, the watchdog is disarmed.
    feeds = machine.watchdog.feeds
    slow_ticks = [0]                   # the loop's SLOW_MS work, as it polls the buttons
    poll = board.runner._poll_buttons

    def counted(now):
        slow_ticks[0] += 1
        poll(now)
    board.runner._poll_buttons = counted
    board.run(50)
    del board.runner._poll_buttons
    assert slow_ticks[0] >= 4 and machine.watchdog.feeds == feeds + slow_ticks[0], \
        "the loop feeds the watchdog once per SLOW_MS tick"

    def interrupted():
        raise KeyboardInterrupt()
    board.runner.step = interrupted
    try:
        board.run(1)
        raise AssertionError("KeyboardInterrupt must reach the REPL")
    except KeyboardInterrupt:
        pass
    assert machine.writes == [(0x40058000 + 0x3000, 1 << 30)], machine.writes
    ok("Ctrl-C stops the loop and disarms the watchdog (RP2040 WATCHDOG CTRL.ENABLE cleared)")

    print("%d passed, 0 failed" % len(passed))


main_check()
