"""The firmware on MicroPython v1.28.0 for the Pico, in an emulated RP2040 (host_tools/pico_emu, docs/emulator.md).

Needs the official RPI_PICO .uf2 (and the RP2040 bootrom beside it): CI passes
../shared/rp2040's, a user passes ``make test-pico UF2=path``. Without them
every test here is skipped with a message saying what to supply.

The emulator runs at roughly 0.1-0.4x real time: each test here is a few
seconds of emulated time; the long runs are marked ``slow`` (make test-long).
"""

import glob
import json
import os
import random
import subprocess
import sys

import pytest

from host_tools import _paths  # noqa: F401
from host_tools.hands import hands_timed
from host_tools.pico_emu.emulator import missing, build_firmware, find_stock_uf2, WHERE_STOCK_UF2

import board_config as cfg
from scacchiera.runner import PERIOD_US

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = os.path.join(ROOT, "tests", "scenarios")
WHY = missing()
pytestmark = [pytest.mark.emulator, pytest.mark.skipif(WHY is not None, reason="emulated Pico: %s" % WHY)]

START = [sq for sq in range(16)] + [sq for sq in range(48, 64)]
HEAP_FREE_GOAL = 165 * 1024      # B free after a collection after 300 plies, the display on (issue 49; 11: 120 KB)
# B free with the engine made: issue 49's 140 KB, less what issue 52 spends of the heap ROMFS gave back
# (machine code is loaded into RAM: the search's loop as viper takes 9,136 B more than its bytecode
# did in flash; docs/engine.md, "The search's loop in machine code")
ENGINE_HEAP_GOAL = 130 * 1024


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    """``make firmware``'s build, once per module."""
    return build_firmware(str(tmp_path_factory.mktemp("firmware")))


@pytest.fixture
def board(firmware):
    from host_tools.pico_emu.board import PicoHands
    hands = PicoHands(firmware=firmware)
    yield hands
    hands.emu.close()


def run(hands, text):
    for number, line in enumerate(text.strip().split("\n"), 1):
        hands.step(line.strip(), number)


def sim_json(script):
    out = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", script, "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().split("\n")[-1])


def pico_json(script, firmware, heap=False, uf2=None):
    """``script`` on the emulated board (``firmware`` on the default MicroPython, or make uf2's ``uf2``)."""
    from host_tools.hands import script_setup
    from host_tools.pico_emu.board import PicoHands
    with open(script) as f:
        text = f.read()
    setup = script_setup(text)
    hands = PicoHands(setup.get("fen"), "fide", setup.get("variant"), setup.get("seed"), firmware=firmware, uf2=uf2)
    try:
        for number, line in enumerate(text.split("\n"), 1):
            hands.step(line, number)
        return hands.snapshot(heap=heap), hands
    finally:
        hands.emu.close()


def assert_same_as_sim(script, firmware, uf2=None):
    sim = sim_json(script)
    pico, hands = pico_json(script, firmware, uf2=uf2)
    for key in ("fen", "moves", "san", "result", "termination", "in_sync", "leds"):
        assert pico[key] == sim[key], "%s: %s on the Pico, %s on the simulator" % (key, pico[key], sim[key])
    crashes = [line for line in pico["protocol"] if '"crash"' in line or '"internal"' in line]
    assert not crashes, crashes
    return pico


# -- make test --------------------------------------------------------------------------


def test_boot_from_the_flashed_firmware(board):
    boot = [ev for ev in board.events if ev.get("ev") == "boot"]
    assert boot and boot[0]["cause"] == "power_on" and boot[0]["firmware"].startswith("scacchiera")
    board.wait(1100)             # the scan rate is measured over a second
    st = board.status()
    assert st["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert st["in_sync"] and st["state"] == "idle"
    assert 0 < st["scan_rate"] <= 1000000 // PERIOD_US      # the paced loop: never above one scan a period
    assert "mem_free" not in st                          # only when asked: it walks the whole heap
    assert 50000 < board.status(mem=True)["mem_free"] < 264 * 1024
    board.emu.profile(True)             # where the chip's time goes: code in flash (XIP) or in SRAM
    board.wait(50)
    total, top = board.emu.profile(False)
    assert total > 100000 and top and top == sorted(top, key=lambda block: -block[1])   # busiest first
    # Code runs from the flash (XIP), the SRAM (machine code, the vector table) or the boot ROM
    # (16 KB at 0: the chip's own routines; one has shown in the quiet loop since hal.scan_matrix,
    # 0.4 % of its instructions)
    assert all(a < 0x4000 or 0x10000000 <= a < 0x10200000 or 0x20000000 <= a < 0x20042000 for a, _ in top), top
    files = board.emu.flash_files()      # the filesystem: main.py and the games; the firmware is in /rom
    assert "/main.py" in files and not any(path.endswith(".mpy") for path in files), sorted(files)
    assert any(path.startswith("/games/") for path in files), sorted(files)


def test_the_display_on_the_i2c_bus_shows_the_game(firmware):
    """The SSD1306 the harness models on I2C1: found at boot, drawn through the chip's I2C block."""
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.panel import text_lines
    hands = PicoHands(firmware=firmware, display=True)
    try:
        hands.wait(600)
        lines = text_lines(hands.emu.panel)
        run(hands, "lift e2\nwait 100\nplace e4\nwait 600\nexpect moves e2e4")
        after = text_lines(hands.emu.panel)
    finally:
        hands.emu.close()
    panel = hands.emu.panel
    assert panel.on and panel.transfers > 10
    assert lines[:3] == ["no clock", "White to move  ?", ""], lines       # "?": the turn's icon, no glyph
    assert after[1:3] == ["Black to move  ?", "1. e4"], after


@pytest.mark.slow     # 132 s; make test's Pico games: the Chess960 scenarios, the power cut, Sprint, the engine
def test_a_game_of_every_move_kind_same_as_the_simulator(firmware):
    """23 plies: captures both orders, castling both orders, en passant, underpromotion by taps, a takeback."""
    pico = assert_same_as_sim(os.path.join(SCENARIOS, "pico_game.txt"), firmware)
    assert len(pico["moves"]) == 23 and "f7f8n" in pico["moves"]


MALFORMED = [
    # (bytes sent, the documented error: docs/protocol.md, "Errors")
    (b"{\"cmd\": \"status\"\n", "bad_json"),
    (b"\xff status\n", "bad_bytes"),
    (b"fly away\n", "unknown_command"),
    (b"{\"cmd\": \"show\"}\n", "bad_field"),
    (b"{\"cmd\": \"status\", \"colour\": 1}\n", "bad_field"),
    (b"x" * 600 + b"\n", "too_long"),
    (b"undo\n", "invalid_state"),
    (b"show e2e5\n", "refused"),
    (b"pgn 999\n", "not_found"),
]


def replies_to(board, *sent):
    """Send each (bytes, then ms to wait) in turn; the replies (``re`` lines) that came back."""
    before = len(board.protocol)
    for data, wait_ms in sent:
        board.emu.send(data)
        board.wait(wait_ms)
    lines = [json.loads(line) for line in board.protocol[before:] if line.startswith("{")]
    return [r for r in lines if "re" in r]


def test_chess960_castling_by_hand_same_as_the_simulator(firmware):
    """Chess960 (rules/chess960.py, tracking/chess960.py, loaded only for it) on the Pico: both sides
    castle by hand, one onto its rook's square in FIDE's order, the other king first."""
    assert_same_as_sim(os.path.join(SCENARIOS, "chess960_castling_by_hand.txt"), firmware)


def test_chess960_set_up_guided_by_the_leds_same_as_the_simulator(firmware):
    """tracking/setup_guide.py on the Pico: the back ranks cleared, then filled kind by kind, then a move."""
    pico = assert_same_as_sim(os.path.join(SCENARIOS, "chess960_setup_guide.txt"), firmware)
    assert pico["moves"] == ["e2e4"]


def test_puzzles_from_the_flash_same_as_the_simulator(firmware):
    """training/ on the Pico (loaded only for the drill): the puzzle file read a record at a time from
    the flash (hal.open_data), a puzzle solved and one failed (the wrong move taken back, the
    solution shown), the board's puzzle record written to its flash."""
    pico, hands = pico_json(os.path.join(SCENARIOS, "firmware", "training_puzzles.txt"), firmware)
    sim = sim_json(os.path.join(SCENARIOS, "firmware", "training_puzzles.txt"))
    for key in ("fen", "moves", "result", "in_sync", "leds"):
        assert pico[key] == sim[key], "%s: %s on the Pico, %s on the simulator" % (key, pico[key], sim[key])
    done = [ev for ev in hands.events if ev.get("ev") == "drill" and ev.get("state") == "done"]
    assert [ev["solved"] for ev in done] == [True, False]
    assert not [line for line in pico["protocol"] if '"crash"' in line or '"internal"' in line]


def test_malformed_lines_get_their_documented_errors(board):
    for data, code in MALFORMED:
        replies = replies_to(board, (data, 150))
        assert [r.get("error") for r in replies] == [code], (data[:40], replies)
        assert replies[0]["ok"] is False and replies[0]["message"]
    # A person typing slowly: a pause of 2.3 s inside a line keeps it (docs/protocol.md, "Lines").
    replies = replies_to(board, (b"stat", 2300), (b"us\n", 300))
    assert [(r["re"], r["ok"]) for r in replies] == [("status", True)], replies
    # A dead host's half line, then Ctrl-U from the next host: nothing glues, one reply.
    replies = replies_to(board, (b"resi", 100), (b"\x15status\n", 300))
    assert [(r["re"], r["ok"]) for r in replies] == [("status", True)], replies
    st = board.status()
    assert st["moves"] == [] and st["in_sync"]


def test_power_cut_then_resume(board):
    run(board, """
        lift e2
        wait 100
        place e4
        wait 400
        lift e7
        wait 100
        place e5
        wait 500
        power-cut
        wait 300
        boot
        expect moves e2e4 e7e5
        expect leds e7=last-move e5=last-move
    """)
    boots = [ev for ev in board.events if ev.get("ev") == "boot"]
    assert [b["cause"] for b in boots] == ["power_on", "power_on"]
    assert any(ev.get("ev") == "resume" and ev.get("ply") == 2 for ev in board.events)
    # Cut in the middle of a move, before it settled: the board resumes at the last move it saved,
    # sees the knight where the game has none and guides it back.
    run(board, """
        lift g1
        wait 100
        place f3
        wait 60
        power-cut
        wait 300
        boot
        expect moves e2e4 e7e5
        expect state sync
        expect leds g1=to-fill f3=to-empty
        lift f3
        wait 100
        place g1
        wait 400
        expect state idle
        lift g1
        wait 100
        place f3
        wait 500
        expect moves e2e4 e7e5 g1f3
    """)


def test_a_drawn_sprint_seed_and_an_accented_tag_survive_a_power_cut(board):
    """MicroPython for the Pico: os.urandom draws each Sprint game's seed; a tag's UTF-8 is journalled,
    an emoji's JSON surrogate pair as its one character (it came back as CESU-8), a lone half refused."""
    seeds = []
    for _ in range(2):
        replies = replies_to(board, (b'{"cmd": "new", "variant": "sprint"}\n', 300), (b"status\n", 300))
        assert [r["ok"] for r in replies] == [True, True], replies
        seeds.append(replies[1]["seed"])
    assert seeds[0] != seeds[1] and all(0 <= s < 2 ** 30 for s in seeds), seeds
    replies = replies_to(board, (b'{"cmd": "tag", "name": "White", "value": "Nicol\\u00f2"}\n', 300),
                         (b'{"cmd": "tag", "name": "Black", "value": "King \\ud83d\\udc51"}\n', 300),
                         (b'{"cmd": "tag", "name": "Event", "value": "a\\ud800b"}\n', 300))
    assert [r["ok"] for r in replies] == [True, True, False] and replies[2]["error"] == "bad_field", replies
    run(board, """
        power-cut
        wait 300
        boot
    """)
    st = board.status()
    assert st["seed"] == seeds[1], st
    replies = replies_to(board, (b"pgn\n", 500))
    assert '[White "Nicol\u00f2"]' in replies[0]["pgn"], replies
    assert '[Black "King \U0001f451"]' in replies[0]["pgn"], replies      # UTF-8, not two CESU-8 halves


def test_diagnostics_mode_shows_the_switches(board):
    from host_tools.pico_emu.leds import LedDecoder
    board.press("diag")
    board.wait(1200)
    reports = [ev for ev in board.events if ev.get("ev") == "diag"]
    assert reports, board.protocol
    report = reports[-1]
    assert report["map"][0] == "8 ########" and report["map"][2] == "6 ........" and report["map"][7] == "1 ########"
    assert 300 <= report["scan_rate"] <= 1000000 // PERIOD_US, report
    board.step("lift e2")
    board.wait(100)
    led = LedDecoder().led_of_square
    pixels = board.emu.pixels()
    white = set(sq for sq in range(64) if pixels[led[sq] * 3:led[sq] * 3 + 3] == bytes([cfg.LED_MAX_LEVEL] * 3))
    lit = set(sq for sq in range(64) if any(pixels[led[sq] * 3:led[sq] * 3 + 3]))
    on_board = set(START) - {12}
    # Every closed reed lit white, the lifted e2 dark; one LED differs: the walking one (red, green or blue).
    assert len(on_board ^ white) <= 1 and len(lit - white) <= 1, (sorted(on_board ^ white), sorted(lit - white))
    board.press("diag")
    board.wait(300)
    assert board.status()["diag"] is False


def test_the_watchdog_resets_a_hung_loop(board):
    """The flash stops answering (stuck busy) while the board saves a move: the loop hangs inside the ROM's
    flash call, the watchdog (8 s) resets the chip, and the board boots into the game it had saved."""
    run(board, """
        lift e2
        wait 100
        place e4
        wait 500
        fault flash-stuck
        lift e7
        wait 100
        place e5
        wait 9500
    """)
    assert [r["cause"] for r in board.emu.resets] == ["watchdog"], board.emu.resets
    boots = [ev for ev in board.events if ev.get("ev") == "boot"]
    assert [b["cause"] for b in boots] == ["power_on", "watchdog"]
    st = board.status()
    assert st["moves"] in (["e2e4"], ["e2e4", "e7e5"]), st
    if st["moves"] == ["e2e4"]:
        assert st["state"] == "sync"


def test_the_engine_plays_on_a_booted_board(firmware):
    """The board's engine chosen on a board that booted and played: it loads amid the boot's garbage
    (without a collection first, its transposition table found no block and the board reset), thinks,
    and the hands play its move."""
    import chess
    from hands_fuzz import GameHands
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.engine_bench import MIDGAME
    hands = PicoHands(fen=MIDGAME, firmware=firmware)
    try:
        hands.query({"cmd": "set", "name": "engine_side", "value": "w"})
        hands.query({"cmd": "set", "name": "opponent", "value": "engine 1"})
        for _ in range(100):
            moved = [ev["uci"] for ev in hands.events if ev.get("ev") == "engine_move"]
            if moved or hands.crashes():
                break
            hands.wait(100)
        hands.check_no_crash()
        assert [ev["level"] for ev in hands.events if ev.get("ev") == "thinking"] == [1]
        assert len(moved) == 1, hands.protocol[-10:]
        move = chess.Move.from_uci(moved[0])
        player = GameHands(random.Random(3), chatter=False)
        player.hands = hands
        player.board = chess.Board(MIDGAME)
        assert move in player.board.legal_moves
        player.play(move)
        hands.wait(500)
        st = hands.status()
        hands.check_no_crash()
    finally:
        hands.emu.close()
    assert st["moves"] == [moved[0]] and st["in_sync"] and st["turn"] == "b", st


def quick_game_then_a_power_cut(firmware, plies):
    """Quick hands (the reply 50-200 ms after each landing: hands_fuzz.GameHands quick) play ``plies``
    of make bench's game, the power is cut while they play on, the board boots: (plies played, plies
    the board resumed, plies committed 2 s or more before the cut, the moves played, the status)."""
    from hands_fuzz import GameHands
    from host_tools.pico_emu.bench import long_game
    from host_tools.pico_emu.board import PicoHands
    from scacchiera.storage.journal import DUE_MS
    moves = long_game(plies + 1)
    hands = PicoHands(firmware=firmware)
    committed = []                             # the emulated ms at which each ply's move event came
    wait = hands.wait

    def watched_wait(ms):
        for _ in range(ms // 10):
            wait(10)
            n = len([ev for ev in hands.events if ev.get("ev") == "move"])
            committed.extend([hands.emu.t_ms] * (n - len(committed)))
        wait(ms % 10)
    hands.wait = watched_wait
    try:
        player = GameHands(random.Random(11), chatter=False, quick=True)
        player.hands = hands
        for move in moves[:plies]:
            player.play(move)
        hands.check_no_crash()
        player.lift(moves[plies].from_square)          # the next move begins: hands still at work
        cut = hands.emu.t_ms
        hands.wait = wait
        run(hands, "power-cut\nwait 300\nboot")
        st = hands.status()
    finally:
        hands.emu.close()
    due = len([t for t in committed if t <= cut - 2 * DUE_MS])
    return len(committed), len(st["moves"]), due, [m.uci() for m in moves], st


def test_quick_hands_get_their_moves_saved_through_a_power_cut(firmware):
    """Hardening issue 48: with hands that reply before each move settles the journal wrote nothing
    for the whole game (and its first write, of everything at once, ran out of heap: the watchdog
    reset the board to ply 0). Every move committed 2 s before the cut comes back."""
    played, resumed, due, moves, st = quick_game_then_a_power_cut(firmware, 40)
    assert played >= 39 and due >= 30, (played, due)     # the 40th may not have settled at the cut
    assert due <= resumed <= played and st["moves"] == moves[:resumed], (played, resumed, due, st["moves"])


# -- make test-long ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("script", [p for p in sorted(glob.glob(os.path.join(SCENARIOS, "*.txt")))
                                    if not hands_timed(open(p).read())],   # timed to the app's hands
                         ids=lambda p: os.path.basename(p))
def test_every_scenario_same_as_the_simulator(script, firmware):
    assert_same_as_sim(script, firmware)


@pytest.mark.slow
def test_quick_hands_over_300_plies_then_a_power_cut(firmware):
    played, resumed, due, moves, st = quick_game_then_a_power_cut(firmware, 300)
    assert played >= 299 and due >= 290, (played, due)
    assert due <= resumed <= played and st["moves"] == moves[:resumed], (played, resumed, due, st["moves"])
    print("quick hands, 300 plies, the power cut: %d plies came back, %d were due" % (resumed, due))


@pytest.mark.slow
def test_a_300_ply_game(firmware):
    import chess
    from hands_fuzz import GameHands
    from host_tools.pico_emu.bench import long_game
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.panel import text_lines
    moves = long_game(300)
    hands = PicoHands(firmware=firmware, display=True)     # the worst case: the optional display on
    try:
        player = GameHands(random.Random(7), chatter=False)
        player.hands = hands
        for move in moves:
            player.play(move)
        hands.wait(800)
        panel = text_lines(hands.emu.panel)        # before the snapshot's REPL builds a second firmware
        state = hands.snapshot(heap=True)
    finally:
        hands.emu.close()
    assert state["moves"] == [m.uci() for m in moves]
    final = chess.Board()
    for move in moves:
        final.push(move)
    assert state["fen"] == final.fen()
    print("300 plies, the display on: heap free %d B after a collection, %d scans/s"
          % (state["heap_free"], state["scan_rate"]))
    # The display drew the game to its end: the panel (read back from what the firmware sent on I2C1)
    # shows the side to move and the last move, numbered, in python-chess's SAN.
    before_last = chess.Board()
    for move in moves[:-1]:
        before_last.push(move)
    last = "%d%s %s" % (before_last.fullmove_number, "." if before_last.turn else "...", before_last.san(moves[-1]))
    side = ("White", "Black")[final.turn == chess.BLACK]
    assert hands.emu.panel.on and panel[1].startswith(side + (" in check" if final.is_check() else " to move")), panel
    assert panel[2] == last, panel
    # Issue 49's goal (11's and 17's were 120 KB): the ROMFS build, the display on.
    assert state["heap_free"] >= HEAP_FREE_GOAL, state["heap_free"]


# -- one file to flash (make uf2), updates, the move from stock MicroPython ----------------------


def _play_archived_games(hands, count):
    """``count`` games of one move each, resigned: each goes to the archive; the pieces set back."""
    for _ in range(count):
        run(hands, "lift e2\nwait 200\nplace e4\nwait 700\nexpect moves e2e4")
        assert hands.query({"cmd": "resign", "side": "b"})["ok"]
        run(hands, "wait 300\nlift e4\nwait 200\nplace e2\nwait 500")
        assert hands.query({"cmd": "new"})["ok"]
        hands.wait(500)


def _games_on(hands):
    """{game number: PGN} of the board's archive, asked over the serial link."""
    listed = hands.query({"cmd": "games"})
    assert listed["ok"], listed
    return {g["game"]: hands.query({"cmd": "pgn", "game": g["game"]})["pgn"] for g in listed["games"]}


def test_make_uf2_boots_alone_from_erased_flash(tmp_path):
    """make uf2's one file is the whole board: booted from erased flash with nothing else laid, the
    firmware runs from /rom (the modules in the ROMFS partition, the puzzle file read in place) and
    the filesystem holds main.py and the games only."""
    from host_tools import deploy
    from host_tools.pico_emu.board import PicoHands
    made = deploy.make_uf2(str(tmp_path))
    info = deploy.uf2_info(made["new"])
    assert info["romfs_build"] and [hex(run_[0]) for run_ in info["runs"]][:2] == ["0x10000000", "0x100a0000"]
    hands = PicoHands(uf2=made["new"])
    try:
        run(hands, "lift e2\nwait 200\nplace e4\nwait 700\nexpect moves e2e4")
        files = sorted(hands.emu.flash_files())
        assert "/main.py" in files and not [f for f in files if f.endswith(".mpy") or f.endswith(".bin")], files
        out = hands.repl("import sys, scacchiera.runner as r, hal\nf = hal.Hardware().open_data('puzzles.bin')\n"
                         "print('AT', r.__file__, len(memoryview(f)), sys.path)\n", "AT ")
        assert "AT /rom/scacchiera/runner.mpy 34468" in out, out
    finally:
        hands.emu.close()


def test_the_romfs_build_leaves_the_engine_its_heap():
    """The firmware's bytecode in flash (ROMFS) gives the heap back: the board's engine made (its
    table, buffers and modules; the evaluation tables read in place) leaves >= 130 KB free."""
    from host_tools.pico_emu import engine_bench
    free = engine_bench.measure(200, 1)["free"]
    assert free >= ENGINE_HEAP_GOAL, free


def test_an_update_by_uf2_keeps_the_games(tmp_path):
    """scacchiera-update.uf2 dropped on a board flashed before: the firmware replaced, the filesystem
    untouched: the game in progress resumes and the archive is whole."""
    from host_tools import deploy
    from host_tools.pico_emu.board import PicoHands
    made = deploy.make_uf2(str(tmp_path))
    hands = PicoHands(uf2=made["new"])
    try:
        _play_archived_games(hands, 2)
        run(hands, "lift d2\nwait 200\nplace d4\nwait 700\nexpect moves d2d4")
        before = _games_on(hands)
        games = {p: b for p, b in hands.emu.flash_files().items() if p.startswith("/games/")}
        hands.emu.drop_uf2(made["update"])
        hands.wait_for_boot()
        assert hands.status()["moves"] == ["d2d4"]
        assert _games_on(hands) == before and len(before) == 2
        after = hands.emu.flash_files()
        assert all(after.get(p) == b for p, b in games.items() if "/archive/" in p)
    finally:
        hands.emu.close()


@pytest.mark.skipif(find_stock_uf2() is None, reason="the move from stock MicroPython: supply " + WHERE_STOCK_UF2)
def test_make_deploy_moves_a_stock_board_to_romfs_with_its_games(tmp_path):
    """A board on stock MicroPython (make deploy's old layout: the firmware on littlefs at 0xA0000) with
    a game in progress and two archived games, upgraded by make deploy's code over the serial link
    (mpremote on a pseudo-terminal): /games copied off, scacchiera.uf2 flashed (the filesystem moves
    to 0x100000 and starts empty), /games put back. The game resumes where it stood, the archive is
    whole, and the copy stays on this computer."""
    from host_tools import deploy
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.pty import SerialLink
    hands = PicoHands(uf2=find_stock_uf2(), firmware=build_firmware(str(tmp_path / "stock")))
    try:
        assert hands.emu.layout.name == "stock"
        _play_archived_games(hands, 2)
        run(hands, "lift e2\nwait 200\nplace e4\nwait 700\nlift e7\nwait 200\nplace e5\nwait 700\n"
                   "expect moves e2e4 e7e5")
        before = _games_on(hands)
        assert len(before) == 2
        mark = len(hands.emu.serial)
        link = SerialLink(hands.emu).start()

        def drop(path):
            with link.held:
                hands.emu.drop_uf2(path)
        try:
            assert deploy.upload(link.name, str(tmp_path / "build" / "firmware"), flash_uf2=drop,
                                 backup=str(tmp_path / "backup")) == 0
        finally:
            link.stop()
        assert hands.emu.layout.name == "romfs"
        st = _status_after_deploy(hands, mark)
        assert st["moves"] == ["e2e4", "e7e5"] and st["in_sync"], st
        assert _games_on(hands) == before
        kept = sorted(os.listdir(tmp_path / "backup" / "games" / "archive"))
        assert len([n for n in kept if n.endswith(".pgn")]) == 2, kept
        files = hands.emu.flash_files()
        assert "/main.py" in files and "/hal.mpy" not in files and "/scacchiera/runner.mpy" not in files
    finally:
        hands.emu.close()


def _status_after_deploy(hands, mark):
    """The board's status once it has booted again after make deploy's reset (a boot line printed
    after ``mark``); if it never does, what it printed since."""
    from host_tools.pico_emu.emulator import EmulatorError
    for _ in range(60):
        if any(isinstance(line, dict) and line.get("ev") == "boot" for line in _lines_after(hands, mark)):
            break
        hands.wait(100)
    try:
        hands.wait(500)
        return hands.status()
    except EmulatorError:
        raise AssertionError("no status after the deploy; the board printed: %r" % hands.emu.serial[mark:][-3000:])


def _lines_after(hands, mark):
    out = []
    for text in hands.emu.serial[mark:].splitlines():
        try:
            out.append(json.loads(text))
        except ValueError:
            pass
    return out


def test_the_serial_link_hands_the_board_what_the_tool_wrote_last_before_it_stops():
    """mpremote writes its last command (a reset) and exits; the link must not stop serving before
    those bytes reach the board (make deploy's tests saw the board left in the raw REPL)."""
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.pty import SerialLink
    hands = PicoHands()
    try:
        link = SerialLink(hands.emu)                 # no thread: nothing read until stop
        os.write(link.slave, b'{"cmd": "status", "id": "last"}\n')
        link.stop()
        for _ in range(30):
            hands.wait(100)
            if [line for line in hands.emu.lines() if isinstance(line, dict) and line.get("id") == "last"]:
                break
        else:
            raise AssertionError("the line written before stop never reached the board")
    finally:
        hands.emu.close()


def test_make_deploy_updates_a_romfs_board_and_keeps_its_game(tmp_path):
    """make deploy's code on a board flashed with make uf2, over the serial link (mpremote on a
    pseudo-terminal): the ROMFS image written by ``mpremote romfs deploy``, a stale module on the
    filesystem (which would hide /rom's) removed; the game in progress and the archive stay."""
    from host_tools import deploy
    from host_tools.pico_emu.board import PicoHands
    from host_tools.pico_emu.pty import SerialLink
    made = deploy.make_uf2(str(tmp_path / "first"))
    hands = PicoHands(uf2=made["new"])
    try:
        _play_archived_games(hands, 1)
        run(hands, "lift g1\nwait 200\nplace f3\nwait 700\nexpect moves g1f3")
        before = _games_on(hands)
        hands.repl("f = open('/hal.py', 'w'); f.write('raise ImportError'); f.close(); print('STALE')\n", "STALE")
        mark = len(hands.emu.serial)
        link = SerialLink(hands.emu).start()
        try:
            assert deploy.upload(link.name, str(tmp_path / "build" / "firmware")) == 0
        finally:
            link.stop()
        st = _status_after_deploy(hands, mark)
        assert st["moves"] == ["g1f3"] and st["in_sync"], st
        assert _games_on(hands) == before and len(before) == 1
        files = hands.emu.flash_files()          # the firmware went to ROMFS, not onto the filesystem
        assert "/hal.py" not in files and "/main.py" in files and not [f for f in files if f.endswith(".mpy")]
    finally:
        hands.emu.close()
