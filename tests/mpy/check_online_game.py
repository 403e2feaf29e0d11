"""An online game's protocol on the real firmware: the host's clocks (``clock``), its endings (``end``),
a draw offer declined (``decline``) and the game's PGN tags (``tag``), through a reboot into the archive.

Runs under MicroPython (tools/micropython) and CPython alike, host_tools/fakehw first on the path (the
fake ``machine``), as check_firmware_game.py: main.py's loop on the fake pins, the serial link, the
journal on the flash folder. The companion's side of these commands is host_tools/companion/lichess.py.

Usage: check_online_game.py FOLDER (the flash; a fresh folder).
Prints one "ok ..." line per step, then "N passed, 0 failed".
"""

import sys

import machine
from pinboard import PinBoard

PERIOD_US = 5000
START = list(range(16)) + list(range(48, 64))
ROOT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/scacchiera-online"
TAGS = (("Event", "Lichess rapid game"), ("Site", "https://lichess.org/AbCd1234"), ("White", "Player"),
        ("Black", "Lichess AI level 3"), ("TimeControl", "600+5"))
passed = []


def ok(name):
    passed.append(name)
    print("ok   " + name)


class Board(PinBoard):
    """One powered board (pinboard.py), asked by a host."""

    def __init__(self):
        super().__init__(ROOT, PERIOD_US)

    def ask(self, line):
        """One command's reply (the events before it are dropped)."""
        self.serial.take()
        self.serial.send(line)
        self.run(4)
        replies = [l for l in self.serial.take() if "re" in l]
        assert len(replies) == 1, replies
        return replies[0]

    def clock(self):
        return self.ask("status")["clock"]

    def play(self, *ucis):
        for uci in ucis:
            self.hands.play_uci(self.runner.app.game, uci)


def refused(reply, error):
    assert not reply["ok"] and reply["error"] == error, reply


def check():
    machine.reset_board()
    for sq in START:
        machine.board.place(sq)
    board = Board()
    commands = board.ask("hello")["commands"]
    for name in ("clock", "end", "decline", "tag"):
        assert name in commands, commands
    refused(board.ask("clock 60000 60000"), "invalid_state")         # no time control yet
    ok("hello lists clock, end, decline and tag; clock needs a time control")

    assert board.ask("set clock 10+5")["ok"]
    for name, value in TAGS:
        reply = board.ask({"cmd": "tag", "name": name, "value": value})
        assert reply["ok"] and reply["value"] == value, reply
    refused(board.ask("tag Result 1-0"), "bad_field")
    refused(board.ask("tag 9lives x"), "bad_field")
    refused(board.ask({"cmd": "tag", "name": "Annotator", "value": "a|b"}), "bad_field")
    reply = board.ask("clock 600000 600000 -")
    assert reply["ok"] and reply["host"] and reply["running"] is None and reply["white"] == 600000, reply
    refused(board.ask("clock 600000 -5"), "bad_field")
    refused(board.ask("clock 600000 5 x"), "bad_field")
    ok("the game's tags and the host's times set; bad ones refused")

    # Lichess's clocks start once both sides have moved: the board's wait for the host too.
    board.play("e2e4", "e7e5")
    clock = board.clock()
    assert clock["white"] == 600000 and clock["black"] == 600000 and clock["running"] is None, clock
    assert board.ask("clock 600000 600000 w")["running"] == "w"
    board.hands.wait(2000)
    clock = board.clock()
    assert 597000 <= clock["white"] < 599000 and clock["black"] == 600000 and clock["running"] == "w", clock
    # White's move: the board counts it as its own clock would (the bonus, black's clock started)...
    board.play("g1f3")
    clock = board.clock()
    assert 601000 < clock["white"] <= 603000 and clock["running"] == "b" and clock["host"], clock
    # ...and the host's times win, whatever the board counted.
    reply = board.ask("clock 602500 599000 b")
    assert reply["white"] == 602500 and reply["black"] == 599000, reply
    ok("the host's times on the board's clocks; the board's own count between two updates")

    # The opponent's move comes from the host, which already runs white's clock: making it on the
    # board changes neither clock (no bonus for it, white's time not restarted).
    assert board.ask("clock 600100 603500 w")["ok"]
    board.hands.wait(1000)
    board.play("b8c6")
    clock = board.clock()
    assert clock["black"] == 603500 and clock["running"] == "w" and 597500 < clock["white"] < 599200, clock
    ok("the opponent's move made on the board: the host's clocks stand")

    if sys.implementation.name == "micropython":
        import micropython
        board.run(60)                   # the move's lines out, the journal written
        board.serial.take()
        micropython.heap_lock()         # the host's clock running: 1.5 s of scans (before the next T record)
        try:
            board.runner.run(300)
        finally:
            micropython.heap_unlock()
        assert board.clock()["running"] == "w"
        ok("no allocation in the main loop with the host's clock running")

    # A power cut: the tags come back from the journal; the clocks are the board's until the host's again.
    machine.reboot(machine.WDT_RESET)
    board = Board()
    board.run(4)
    pgn = board.ask("pgn")["pgn"]
    for name, value in TAGS:
        assert '[%s "%s"]' % (name, value) in pgn, pgn
    clock = board.clock()
    assert "host" not in clock, clock
    board.play("f1b5")
    assert board.ask("clock 30000 598000 b")["host"]
    ok("after a reboot the game keeps its tags (journal P records); the host sets its clocks again")

    # The opponent offers a draw, the player declines on Lichess: the board's offer goes out.
    refused(board.ask("decline"), "invalid_state")
    assert board.ask("offer b")["ok"] and board.ask("status")["offer"] == "b"
    assert board.ask("decline")["ok"] and board.ask("status")["offer"] is None
    ok("decline takes a draw offer off the board")

    # Black's flag falls on the board first: it stops at 0, the game goes on until the host ends it.
    assert board.ask("clock 598000 1000 b")["ok"]
    board.hands.wait(3000)
    status = board.ask("status")
    assert status["result"] == "*" and status["clock"]["black"] == 0 and status["clock"]["running"] is None, status
    refused(board.ask("end later b"), "bad_field")
    reply = board.ask("end time b")
    assert reply["ok"] and reply["result"] == "1-0" and reply["termination"] == "time_forfeit", reply
    ok("a flag at 0 on the board waits for the host; end time b ends the game as Lichess did")

    board.hands.wait(500)
    games = board.ask("games")["games"]
    pgn = board.ask({"cmd": "pgn", "game": games[-1]["game"]})["pgn"]
    for name, value in TAGS:
        assert '[%s "%s"]' % (name, value) in pgn, pgn
    assert '[Result "1-0"]' in pgn and '[Termination "time forfeit"]' in pgn and "3. Bb5 1-0" in pgn, pgn
    # A tag given after the end: the archive is written again with it.
    assert board.ask("tag Annotator Scacchiera")["ok"]
    board.hands.wait(500)
    pgn = board.ask({"cmd": "pgn", "game": games[-1]["game"]})["pgn"]
    assert '[Annotator "Scacchiera"]' in pgn and '[White "Player"]' in pgn, pgn
    ok("the archived PGN has the host's tags, the board's result and termination")

    # The next game is the board's own: no tags, its clocks its own again.
    assert board.ask("new")["ok"]
    board.set_up(START)
    assert board.ask("status")["in_sync"]
    pgn = board.ask("pgn")["pgn"]
    assert '[White "?"]' in pgn and '[Event "Scacchiera"]' in pgn, pgn
    ok("a new game: the board's tags and clocks again")

    # Abandonment by the host: the side that left loses, even with the board a move behind (white
    # left after Lichess had black's reply, not yet made on the board: black to move here).
    board.play("d2d4")
    assert board.ask("status")["turn"] == "b"
    reply = board.ask("end abandon w")
    assert reply["ok"] and reply["result"] == "0-1" and reply["termination"] == "abandoned", reply
    board.hands.wait(500)
    machine.reboot(machine.WDT_RESET)
    board = Board()
    board.run(4)
    status = board.ask("status")
    assert status["result"] == "0-1" and status["termination"] == "abandoned", status
    ok("end abandon w (black to move on the board) replays from the journal as white's loss")

    print("%d passed, 0 failed" % len(passed))


check()
