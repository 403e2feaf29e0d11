"""Crash-safe game storage: a power cut at every byte of every write leaves the game before or after.

Each case sets a game up on a board (FakeHardware, the real firmware loop),
saves the flash, then replays one durable step (a move, an amended move, a
takeback, an option, a resignation, a new game) with the power cut at every
tick of what it writes: every byte of every write, every close, rename and
remove. After each cut the board boots again on what reached the flash and
must resume exactly the state before the step or after it, under both models
of the flash (host_tools/fakehw/memfs.py: "torn" writes and littlefs commits).
The same with a write that *fails* (flash full) at every tick while the
board keeps running: it must say so, keep playing, and save on its retry.
"""

import pytest

from firmware_support import Board, PowerCut, Reset, copy_fs, rows_of, MemFS
from scacchiera.storage import journal as jr
from scacchiera.storage import journal_reader as jrr
from scacchiera.storage.archive import Archive
from scacchiera.rules import Position
from scacchiera.game.controller import NoClocks

CASTLING_FEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
MODES = ("torn", "littlefs")


# -- the durable steps: each takes a Board and does one thing through the real paths -------

def move(board):
    board.play("g1f3")


def rook_first(board):
    """The rook goes first and settles alone: a rook move, saved."""
    board.hands.lift(7)
    board.hands.place(5)
    board.wait(1600)


def amended_castling(board):
    """...then the king follows: the rook move is amended into castling, one record."""
    board.hands.lift(4)
    board.hands.place(6)
    board.wait(500)


def takeback(board):
    board.send('{"cmd": "undo"}', 10)


def option(board):
    board.send("set hints off")


def brightness(board):
    board.send({"cmd": "set", "name": "brightness", "value": 40})


def resign(board):
    board.send("resign")


def new_game(board):
    board.send({"cmd": "new", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"})


def set_up(fen, moves, then=None):
    def make(fs):
        board = Board(fs=fs)
        if fen != START:
            board.send({"cmd": "new", "fen": fen})
            board.hw.occupied[:] = rows_of(fen)
            board.wait(200)
        board.play(*moves)
        if then is not None:
            then(board)
        board.wait(300)
        board.lines()
        return board
    return make


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

CASES = {
    "move": (START, ("e2e4", "e7e5"), None, move),
    "move_first": (START, (), None, move),
    "amended_castling": (CASTLING_FEN, ("a1b1", "a8b8", "b1a1", "b8a8"), rook_first, amended_castling),
    "takeback": (START, ("e2e4", "e7e5", "d2d4"), None, takeback),
    "option": (START, ("e2e4",), None, option),
    "brightness": (START, ("e2e4",), None, brightness),
    "resign": (START, ("e2e4", "e7e5"), None, resign),
    "new_game": (START, ("f2f3", "e7e5", "g2g4", "d8h4"), None, new_game),
    "new_game_unfinished": (START, ("e2e4", "c7c5"), None, new_game),
}


def prepared(case, mode):
    """(flash before the step, state before, state after, ticks the step writes)."""
    fen, moves, then, step = CASES[case]
    fs = MemFS(mode)
    board = set_up(fen, moves, then)(fs)
    before = board.state()
    saved = copy_fs(fs)
    rows = bytes(board.hw.occupied)
    t0 = fs.ticks
    step(board)
    board.wait(100)
    after = board.state()
    assert after != before, "the step must change the game"
    assert not board.runner.journal.dirty
    return saved, rows, before, after, fs.ticks - t0, step


def boot(fs, rows):
    fs.reboot()
    return Board(fs=fs, rows=rows)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_power_cut_at_every_tick_leaves_before_or_after(case, mode):
    saved, rows, before, after, ticks, step = prepared(case, mode)
    assert ticks > 0
    seen = set()
    for k in range(ticks + 1):
        fs = copy_fs(saved)
        board = boot(fs, rows)
        assert board.state() == before, "the saved flash resumes the state before"
        fs.cut_at = fs.ticks + k
        try:
            step(board)
            board.wait(100)
        except (PowerCut, Reset):
            pass
        cut = fs.dead
        resumed = boot(fs, bytes(board.hw.occupied))
        state = resumed.state()
        assert state in (before, after), "cut at tick %d of %d: %r" % (k, ticks, state)
        archive = resumed.runner.journal.archive()
        for number in archive.ids():      # an archived game is whole, or not there
            text = archive.read(number)
            assert text.startswith("[Event ") and text.endswith(("1-0\n", "0-1\n", "1/2-1/2\n", "*\n")), text
        if not cut:
            assert state == after, "no cut: the step is saved"
        seen.add("after" if state == after else "before")
        # The board the cut left keeps working: one more move is saved too.
        if state["result"] is None:
            resumed.hw.occupied[:] = rows_of(resumed.game.position.fen())
            resumed.runner.app.boot(resumed.hw.occupied, 0)
            legal = resumed.game.position.legal_moves()
            resumed.hands.play(resumed.game.position, legal[0])
            resumed.wait(1400)
            again = boot(fs, bytes(resumed.hw.occupied)).state()
            assert again["moves"] == state["moves"] + [resumed.game.position.uci(legal[0])]
    assert seen == {"before", "after"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", ["move", "takeback", "new_game", "resign"])
def test_a_failed_write_at_every_tick_is_reported_and_retried(case, mode):
    saved, rows, before, after, ticks, step = prepared(case, mode)
    reported = 0
    for k in range(ticks):
        fs = copy_fs(saved)
        board = boot(fs, rows)
        fs.fail_at = fs.ticks + k
        step(board)
        board.wait(100)
        assert board.state() == after, "the game goes on in RAM"
        errors = [l for l in board.lines() if l.get("ev") == "storage_error"]
        # Power lost right after the failure: before or after, never worse.
        early = boot(copy_fs(fs), bytes(board.hw.occupied)).state()
        assert early in (before, after), (k, early)
        if errors:
            reported += 1
            board.wait(6000)          # the retry (RETRY_MS) rewrites the journal
        assert not board.runner.journal.dirty
        assert boot(fs, bytes(board.hw.occupied)).state() == after, k
    assert reported == ticks, "every failed write is reported"


@pytest.mark.parametrize("tail", [b"\xff" * 40, b"M e2e4|0000\n", b"M e7e5|", b"garbage without an end",
                                  b"X resign w|ffff\n"])
def test_a_corrupt_tail_is_cut_off_and_repaired(tail):
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4", "e7e5")
    before = board.state()
    good = fs.read(jr.JOURNAL)
    fs.files[jr.JOURNAL] = bytearray(good + tail)
    again = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert again.state() == before
    assert [l for l in again.lines() if l.get("ev") == "storage_repaired"]
    assert fs.read(jr.JOURNAL) == good, "the journal is rewritten without the tail"


def test_a_flipped_bit_in_the_last_record_loses_only_that_move():
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4", "e7e5", "g1f3")
    data = bytearray(fs.read(jr.JOURNAL))
    data[-8] ^= 0x04                      # inside "M g1f3|xxxx": a different, still printable, move
    fs.files[jr.JOURNAL] = data
    assert Board(fs=fs, rows=bytes(board.hw.occupied)).state()["moves"] == ["e2e4", "e7e5"]


def test_records_round_trip_and_reject_damage():
    for payload in ("G 1", "N fide " + START, "M e7e8q", "O lang \"it\"", "U", "X resign b"):
        line = jr.encode(payload)
        assert jrr.decode(line) == payload
        for i in range(len(line)):
            assert jrr.decode(line[:i]) is None, "a torn record never decodes"
        for i in range(len(line) - 1):
            for bit in range(8):
                damaged = bytearray(line)
                damaged[i] ^= 1 << bit
                assert jrr.decode(bytes(damaged)) in (None,), (payload, i, bit)


def test_a_leftover_temp_file_is_ignored_or_taken():
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4")
    state = board.state()
    fs.files[jr.TEMP] = bytearray(b"G 9|")          # a rewrite that never finished
    assert Board(fs=fs, rows=bytes(board.hw.occupied)).state() == state
    assert jr.TEMP not in fs.files
    # A filesystem that renames by remove-then-rename, cut between the two: only the temp file is left.
    fs.files[jr.TEMP] = fs.files.pop(jr.JOURNAL)
    assert Board(fs=fs, rows=bytes(board.hw.occupied)).state() == state


def test_the_journal_is_compacted_past_its_cap():
    fs = MemFS()
    board = Board(fs=fs)
    journal = board.runner.journal
    start = jr.START_COPIES * len(jr.encode(journal.start_record()))
    journal.max_bytes = start + 200
    for i in range(3):                               # knights out and back (a fifth time would draw)
        board.play("g1f3", "g8f6", "f3g1", "f6g8")
        assert journal.size <= start + 200 + 80
    board.play("e2e4", "e7e5", "d2d4")
    state = board.state()
    assert len(state["moves"]) == 15
    assert Board(fs=fs, rows=bytes(board.hw.occupied)).state() == state


def test_an_unreadable_journal_is_set_aside_and_a_new_game_starts(monkeypatch):
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4")

    def broken(self, pos):
        raise RuntimeError("a bug in restore")
    monkeypatch.setattr("scacchiera.game.controller.Game.restore", broken)
    again = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert again.state()["moves"] == []
    assert jr.BAD in fs.files
    assert [l for l in again.lines() if l.get("ev") == "storage_error"]


def test_finished_games_are_archived_and_rotated():
    fs = MemFS()
    board = Board(fs=fs)
    archive = board.runner.journal.archive()
    archive.max_games = 3
    for number in range(1, 6):
        board.play("f2f3", "e7e5", "g2g4", "d8h4")     # fool's mate
        board.wait(200)
        assert board.game.result == ("0-1", "checkmate")
        board.send("new")
        board.hw.set_squares(list(range(16)) + list(range(48, 64)))
        board.wait(300)
    assert archive.ids() == [3, 4, 5]
    text = archive.read(5)
    assert text.startswith('[Event "Scacchiera"]') and "2. g4 Qh4# 0-1" in text
    assert board.runner.journal.game_id == 6


def test_the_archive_keeps_within_its_byte_cap():
    fs = MemFS()
    fs.mkdir("archive")
    archive = Archive(fs, max_games=100, max_bytes=1000)
    for number in range(1, 20):
        archive.save(number, "x" * 300)
        assert archive.used() <= 1000
    assert archive.ids() == [17, 18, 19]


def test_an_unfinished_game_is_archived_when_a_new_one_starts():
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4", "c7c5")
    board.send({"cmd": "new"})
    assert board.runner.journal.archive().read(1).rstrip().endswith("1. e4 c5 *")


def test_a_finished_game_is_archived_once_and_a_takeback_after_its_end_is_refused():
    fs = MemFS()
    board = Board(fs=fs)
    board.play("f2f3", "e7e5", "g2g4", "d8h4")
    board.wait(200)
    name = "archive/00001.pgn"
    first = fs.read(name)
    ticks = fs.ticks
    board.hw.set_squares(list(range(16)) + list(range(48, 64)))   # pieces back: a new game
    board.wait(300)
    assert board.runner.journal.game_id == 2
    assert fs.read(name) == first
    assert not [n for n in fs.files if n.startswith("archive/") and n != name]
    written = fs.ticks - ticks - board.runner.journal.size     # beside the new game's journal
    assert written < len(first), "the finished game is not written again"
    # Game 2 ends; the host's undo is refused (a result stands: hardening issue 48), and the
    # archive keeps the game as it ended when the next one starts.
    board.play("f2f3", "e7e5", "g2g4", "d8h4")
    board.wait(200)
    board.lines()
    board.send("undo", 10)
    refused = board.replies("undo")
    assert refused and refused[0]["error"] == "invalid_state" and board.game.result == ("0-1", "checkmate")
    board.hw.set_squares(list(range(16)) + list(range(48, 64)))
    board.wait(100)
    board.send({"cmd": "new", "fen": "7k/8/8/8/8/8/8/K5R1 w - - 0 1"})
    board.wait(jr.QUIET_MS)       # the hands set the pieces up 100 ms ago: the write waits for them to pause
    assert board.runner.journal.archive().read(2).rstrip().endswith("2. g4 Qh4# 0-1")


def test_booting_a_finished_game_does_not_rewrite_its_archive():
    fs = MemFS()
    board = Board(fs=fs)
    board.send("resign")
    board.wait(100)
    ticks = fs.ticks
    again = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert again.game.result == ("0-1", "resignation")
    assert fs.ticks == ticks, "nothing written at boot"


# -- a flipped bit anywhere: the start survives, the damaged journal is kept ----------------------

class _Game:
    """What the journal reads of a game: its position, result and clocks (off)."""

    def __init__(self):
        self.position = Position()
        self.result = None
        self.clocks = NoClocks()


def _journal_of_a_game(plies, fs):
    """A journal of a reproducible ``plies``-ply game written through Journal; (journal, ucis)."""
    journal = jr.Journal(fs)
    journal.load()
    game = _Game()
    journal.attach(game, False)
    journal.option("hints", False)
    journal.flush()
    seed = 7
    ucis = []
    while len(ucis) < plies:
        moves = sorted(game.position.legal_moves())
        seed = (seed * 1103 + 12345) & 0xFFFF
        move = moves[seed % len(moves)]
        game.position.push(move)
        if game.position.outcome() is not None:
            game.position.pop()
            continue
        ucis.append(game.position.uci(move))
        journal.event({"kind": "move", "uci": ucis[-1]})
        journal.flush()
    return journal, ucis


def test_a_flipped_bit_anywhere_in_a_40_ply_journal_keeps_the_start_and_the_records_before_it():
    fs = MemFS()
    journal, ucis = _journal_of_a_game(40, fs)
    data = fs.read(jr.JOURNAL)
    whole, clean, _size = jrr.read_records(fs)
    assert clean and whole[0].startswith("S ") and whole.count("O hints false") == 0
    assert whole[-40:] == ["M " + u for u in ucis]
    # The record each byte belongs to (the start's three copies are record 0).
    ends = []
    offset = 0
    for i, line in enumerate(data.split(b"\n")[:-1]):
        offset += len(line) + 1
        ends.append(offset)
    first_after_start = jr.START_COPIES
    kept = {}
    for i in range(len(data)):
        line = next(n for n, end in enumerate(ends) if i < end)
        record = max(0, line - first_after_start + 1)      # index in ``whole``
        for bit in range(8):
            damaged = bytearray(data)
            damaged[i] ^= 1 << bit
            flipped = MemFS()
            flipped.files[jr.JOURNAL] = damaged
            records, clean, _size = jrr.read_records(flipped)
            assert not clean, "byte %d bit %d: the damage is seen" % (i, bit)
            assert records == whole[:len(records)], (i, bit)
            assert len(records) >= max(1, record), "byte %d bit %d: records before the damaged one are kept" % (i, bit)
            kept[len(records)] = kept.get(len(records), 0) + 1
    # Replaying each outcome once: the start and the moves before the damage, the options with them.
    for n in kept:
        game_id, pos, options, used = jrr.replay(whole[:n])
        assert used == n and game_id == journal.game_id and options == {"hints": False}
        assert [pos.uci(m) for m in pos.move_stack] == ucis[:n - 1]
    assert min(kept) == 1, "a flip in the first move keeps the start"
    assert sum(kept.values()) == 8 * len(data)


def test_a_damaged_journal_is_kept_and_the_boot_says_how_many_plies_came_back():
    fs = MemFS()
    board = Board(fs=fs)
    board.play("e2e4", "e7e5", "g1f3", "b8c6")
    data = fs.read(jr.JOURNAL)
    damaged = bytearray(data)
    damaged[len(data) - 2 * 12 + 2] ^= 0x10         # inside the record of g1f3
    fs.files[jr.JOURNAL] = damaged
    again = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert again.state()["moves"] == ["e2e4", "e7e5"]
    assert fs.read(jr.BAD) == bytes(damaged), "the damaged journal is kept"
    repaired = [l for l in again.lines() if l.get("ev") == "storage_repaired"]
    assert repaired and repaired[0]["ply"] == 2 and repaired[0]["kept"] == jr.BAD
    assert jrr.read_records(fs)[1], "the journal in place is whole again"
    # The start's first copy damaged: everything comes back, and the copy is kept too.
    data = fs.read(jr.JOURNAL)
    damaged = bytearray(data)
    damaged[3] ^= 0x01
    fs.files[jr.JOURNAL] = damaged
    third = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert third.state()["moves"] == ["e2e4", "e7e5"]
    assert fs.read(jr.BAD) == bytes(damaged)
    assert fs.read(jr.JOURNAL) == data


@pytest.mark.parametrize("mode", MODES)
def test_a_power_cut_while_a_damaged_journal_is_repaired_loses_nothing_more(mode):
    fs = MemFS(mode)
    board = Board(fs=fs)
    board.play("e2e4", "e7e5", "g1f3")
    rows = bytes(board.hw.occupied)
    damaged = bytearray(fs.read(jr.JOURNAL))
    damaged[-5] ^= 0x02                              # the checksum of g1f3
    fs.files[jr.JOURNAL] = damaged
    saved = copy_fs(fs)
    for k in range(1000):
        fs = copy_fs(saved)
        fs.cut_at = fs.ticks + k
        try:
            Board(fs=fs, rows=rows)
        except (PowerCut, Reset):
            pass
        cut = fs.dead
        again = boot(fs, rows)
        assert again.state()["moves"] == ["e2e4", "e7e5"], k
        assert jrr.read_records(fs)[1]
        if jr.BAD in fs.files:
            assert fs.read(jr.BAD) == bytes(damaged)
        if not cut:
            assert fs.read(jr.BAD) == bytes(damaged)
            break
    else:
        raise AssertionError("the repair never finished")


def test_a_journal_of_the_earlier_format_is_still_read():
    fs = MemFS()
    old = [jr.encode(r) for r in ("G 7", "N fide " + START, "O hints false", "M e2e4", "M c7c5")]
    fs.files[jr.JOURNAL] = bytearray(b"".join(old))
    board = Board(fs=fs, rows=bytes(Position("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                                     .occupancy()))
    state = board.state()
    assert state["game"] == 7 and state["moves"] == ["e2e4", "c7c5"] and state["options"][0] is False
    assert not [l for l in board.lines() if l.get("ev") == "storage_repaired"]


def test_a_record_never_holds_the_separator():
    with pytest.raises(ValueError):
        jr.encode('O lang "a|b"')
    joined = jr.encode("M e2e4")[:-1] + b"*" + jr.encode("M e7e5")     # a newline flipped into "*"
    assert jrr.decode(joined) is None


# -- the archive's numbers --------------------------------------------------------------------

def test_a_new_game_with_no_move_played_keeps_its_number():
    fs = MemFS()
    board = Board(fs=fs)
    for _ in range(3):
        board.send("new")
    assert board.runner.journal.game_id == 1
    board.play("e2e4")
    board.send("new")
    board.hw.set_squares(list(range(16)) + list(range(48, 64)))
    board.wait(300)
    assert board.runner.journal.game_id == 2 and board.runner.journal.archive().ids() == [1]
    board.send("new")
    board.send({"cmd": "new", "fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"})   # stalemate at once: archived
    board.wait(300)
    assert board.game.result == ("1/2-1/2", "stalemate")
    assert board.runner.journal.game_id == 2 and board.runner.journal.archive().ids() == [1, 2]
    board.send("new")
    assert board.runner.journal.game_id == 3
    assert Board(fs=fs, rows=bytes(board.hw.occupied)).runner.journal.game_id == 3


@pytest.mark.parametrize("first", [99997, 2 ** 30 - 3, 10 ** 12])
def test_the_archive_keeps_its_limits_past_five_digits(first):
    fs = MemFS()
    archive = Archive(fs, max_games=3, max_bytes=1000)
    for number in range(first, first + 6):
        archive.save(number, "game %d" % number)
        assert len(archive.ids()) <= 3
    assert archive.ids() == [first + 3, first + 4, first + 5]
    assert archive.last_id() == first + 5
    assert archive.read(first + 5) == "game %d" % (first + 5)
    assert [n for _i, n in archive.games()] == [len("game %d" % i) for i in archive.ids()]
    assert len([n for n in fs.files if n.startswith("archive/")]) == 3
    with pytest.raises(OSError):
        archive.read(first)
    for name in ("0099999.pgn", "-1.pgn", "12a45.pgn", ".pgn", "tmp.pgn", "00001.txt"):
        assert jr_archive_id(name) == -1, name
    archive.max_bytes = 2 * len("game %d" % (first + 6))
    archive.save(first + 6, "game %d" % (first + 6))
    assert archive.ids() == [first + 5, first + 6] and archive.used() <= archive.max_bytes


def jr_archive_id(name):
    from scacchiera.storage.archive import game_id_of
    return game_id_of(name)


def test_the_game_after_game_99999_is_100000_and_then_100001():
    fs = MemFS()
    fs.mkdir("archive")
    Archive(fs).save(99999, "[Event \"x\"]\n\n*\n")
    board = Board(fs=fs)
    assert board.runner.journal.game_id == 100000
    board.play("e2e4")
    board.send("new")
    assert board.runner.journal.archive().ids() == [99999, 100000]
    assert board.runner.journal.game_id == 100001
    assert board.runner.journal.archive().read(100000).rstrip().endswith("1. e4 *")


# -- where the flash work goes ------------------------------------------------------------------

@pytest.mark.parametrize("period_us", [2500, 3000, 5000])
def test_the_leds_show_a_committed_move_before_the_journal_writes_it(period_us, monkeypatch):
    """A flash write can stall the loop 45-400 ms on the Pico: the LEDs must not wait for it."""
    import firmware_support
    monkeypatch.setattr(firmware_support, "PERIOD_US", period_us)
    board = Board(fs=MemFS())
    runner = board.runner
    journal = runner.journal
    seen = []
    append = journal._append

    def watched():
        seen.append((runner.app.dirty, bytes(board.hw.pixels)))
        append()
    journal._append = watched
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"):
        board.play(uci)
    assert len(seen) == 6
    for dirty, pixels in seen:
        assert not dirty, "the frame of the move was drawn before the flash write"
    runner.show(board.hw.ticks_ms())
    assert seen[-1][1] == bytes(board.hw.pixels)


def test_a_sprint_game_resumed_before_its_first_move_still_offers_the_tile_just_drawn():
    """The journal keeps a Sprint game's start as its position string: read back after a power cut
    before White's first move, it still knows the rook White drew (seed 1), so the LEDs show where
    the rook may go and a tile placed on d3 is offered as the rook first, as before the cut."""
    from scacchiera.leds.names import meanings
    from scacchiera.rules import ROOK
    fs = MemFS()
    board = Board(fs=fs)
    board.send({"cmd": "new", "variant": "sprint", "seed": 1})
    board.hw.set_squares([4, 12, 52, 60])
    board.wait(300)
    assert board.game.position.drawn_tile() == ROOK
    before = meanings(board.runner.app.compose())
    resumed = Board(fs=copy_fs(fs), rows=bytes(board.hw.occupied))
    resumed.wait(300)
    assert resumed.game.position.fen() == board.game.position.fen()
    assert resumed.game.position.drawn_tile() == ROOK
    after = meanings(resumed.runner.app.compose())
    assert after == before and after["a1"] == "drop-target"
    resumed.hw.set_squares([4, 12, 19, 52, 60])       # a tile on d3: rook or pawn, the rook first
    resumed.wait(100)
    assert meanings(resumed.runner.app.compose())["d3"] == "drop-rook"


def test_a_move_is_written_once_its_line_has_gone_to_the_host_or_after_line_wait_ms():
    """The ``move`` line goes before the flash write that makes the move durable (a write stalls
    the loop); a host that stops reading holds the write back LINE_WAIT_MS at most."""
    for reading in (True, False):
        board = Board()
        if not reading:
            board.hw.serial_write = lambda data, start=0: 0
        moved, flushed = [], []
        board.runner.app.listeners.append(lambda ev: ev["kind"] == "move" and moved.append(board.hw.ticks_ms()))
        flush = board.runner.journal.flush

        def timed_flush():
            flushed.append(board.hw.ticks_ms())
            return flush()
        board.runner.journal.flush = timed_flush
        board.play("e2e4")
        board.wait(100)
        after = [t for t in flushed if t >= moved[0]]
        if reading:
            # the line went at once: the move is written a step or two later (never in the step that
            # committed it: that one did the commit's work), long before LINE_WAIT_MS
            assert 0 < after[0] - moved[0] <= 5, (moved, flushed)
        else:
            assert jr.LINE_WAIT_MS <= after[0] - moved[0] <= jr.LINE_WAIT_MS + 5, (moved, flushed)
        assert b"M e2e4|" in bytes(board.hw.fs.read("current.log"))


def _watch_writes(board):
    """(ms, records) of every append to the journal from now on."""
    journal = board.runner.journal
    writes = []
    append = journal._append

    def watched():
        writes.append((board.hw.ticks_ms(), list(journal._records)))
        append()
    journal._append = watched
    return writes


def test_a_move_whose_reply_begins_at_once_is_written_with_the_reply():
    """A flash write can stall the Pico's loop ~45 ms (a sector erase), and two reed changes within
    one stall reach the tracker together, their order lost: a move placed, then the reply's piece
    lifted, read as neither (make bench's 300-ply game lost ply 193 so). So the journal writes
    while no hands are at work: a move committed because its reply began is written with the reply,
    once the board is as the game says."""
    board = Board(fs=MemFS())
    writes = _watch_writes(board)
    board.play("e2e4")
    assert [w[1] for w in writes] == [["M e2e4"]], "a move alone on a still board: written at once"
    hands = board.hands
    hands.lift(52)
    hands.place(36)                      # e7e5 placed, and before it settles...
    hands.lift(6)                        # ...white's knight goes up: e7e5 is committed at once
    assert [board.game.position.uci(m) for m in board.game.position.move_stack] == ["e2e4", "e7e5"]
    board.wait(jr.QUIET_MS - 2 * hands.step_ms)
    assert len(writes) == 1, "not written while the reply is in the hand"
    hands.place(21)                      # g1f3
    board.wait(400)
    assert [w[1] for w in writes][1:] == [["M e7e5", "M g1f3"]], "one write once the reply settled"
    assert b"M g1f3|" in bytes(board.hw.fs.read("current.log"))


def test_a_reed_changed_but_not_yet_reported_holds_the_write():
    """The debounce reports a reed's change 30 ms after it: a move that settles in those 30 ms finds
    the board as the game says, while the reply's piece is already up. A write then (a sector
    erase stalls the Pico ~45 ms) made the emulated Pico miss a placement in make bench's game
    once the loop scanned every 2 ms; the journal waits for the debounce too."""
    board = Board(fs=MemFS())
    writes = _watch_writes(board)
    hands = board.hands
    settle = board.game.tracker.settle_ms
    hands.lift(12)
    board.hw.place(28)                   # e2e4: its reed closes now
    board.wait(settle - 10)
    board.hw.lift(52)                    # e7 goes up 10 ms before e2e4 settles
    board.wait(20)                       # e2e4 committed; the lift not reported yet
    assert [board.game.position.uci(m) for m in board.game.position.move_stack] == ["e2e4"]
    assert board.runner.app.debouncer.pending()
    now = board.hw.ticks_ms()
    assert not board.game.tracker.hands_at_work(now, jr.QUIET_MS), "the tracker has not seen the lift"
    assert jr.hands_at_work(board.runner.app, now), "the debounce has"
    assert not writes, "nothing written while a reed's change waits for the debounce"
    board.wait(jr.QUIET_MS - 2 * hands.step_ms)
    assert not writes, "nor while the reply's piece is in the hand"
    board.wait(2 * hands.step_ms + 20)
    assert [w[1] for w in writes] == [["M e2e4"]]


def test_a_chattering_reed_does_not_hold_the_write_for_ever():
    """A reed that chatters (a magnet brushing an empty square) is never reported, but its raw state
    is its reported one every other change: the write waits a step, not for ever."""
    board = Board(fs=MemFS())
    writes = _watch_writes(board)
    hands = board.hands
    hands.lift(12)
    board.hw.place(28)                   # e2e4, and h5's reed starts to chatter
    for i in range(100):                 # 500 ms: a change every step, none held for 30 ms
        (board.hw.place if i % 2 == 0 else board.hw.lift)(39)
        board.run(1)
    assert not board.runner.app.debouncer.stable[39 >> 3] >> (39 & 7) & 1, "the chatter never reported"
    assert [w[1] for w in writes] == [["M e2e4"]]


def test_a_piece_held_up_lets_the_journal_write_once_no_reed_has_changed_for_quiet_ms():
    board = Board(fs=MemFS())
    writes = _watch_writes(board)
    hands = board.hands
    hands.lift(12)
    hands.place(28)                      # e2e4 placed, and before it settles...
    hands.lift(52)                       # ...e7 goes up and stays up: the player thinks
    board.wait(jr.QUIET_MS - 2 * hands.step_ms)
    assert not writes
    board.wait(2 * hands.step_ms + 10)
    assert [w[1] for w in writes] == [["M e2e4"]]


# -- tags a host gives: kept through a power cut, or refused ----------------------------------------

# (name, value, kept): an Italian board keeps Nicolò, Zoë and Cantù; a control character in a value
# (a PGN header line it would break, a terminal it would drive) or a non-ASCII name is refused.
HOSTILE_TAGS = [
    ("White", "Nicolò", True),
    ("Black", "Zoë Müller", True),
    ("Site", "Cantù (CO), Italia", True),
    ("Event", "Torneo «Città di Cantù» — 1ª edizione ♞", True),
    ("Annotator", 'Al "Hammer" \\ Rossi', True),
    ("White", "a\nb", False),
    ("White", "a\rb", False),
    ("White", "a\x00b", False),
    ("White", "a\x1b[2Jb", False),
    ("White", "a\x7fb", False),
    ("White", "a\x85b", False),
    ("White", "a\tb", False),
    ("Città", "x", False),
    ("Nämе", "x", False),
    ("Ωmega", "x", False),
]


@pytest.mark.parametrize("name, value, kept", HOSTILE_TAGS)
def test_a_tag_survives_a_power_cut_or_is_refused_and_every_ply_comes_back(name, value, kept):
    import chess.pgn
    import io
    fs = MemFS("littlefs")
    board = Board(fs=fs)
    board.send({"cmd": "tag", "name": name, "value": value, "id": 1})
    reply = board.replies("tag")[0]
    assert reply["ok"] is kept, reply
    if not kept:
        assert reply["error"] == "bad_field"
    board.play("e2e4", "e7e5", "g1f3", "b8c6")
    board.wait(300)
    before = board.state()
    fs.reboot()                                    # the power cut: the board comes back from the flash
    resumed = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert resumed.state() == before, "every ply comes back"
    assert "storage_repaired" not in [l.get("ev") for l in resumed.lines()]
    assert (resumed.runner.journal.tags or {}).get(name) == (value if kept else None)
    resumed.send("resign")
    resumed.wait(300)
    archive = resumed.runner.journal.archive()
    text = archive.read(archive.last_id())
    game = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    if kept:
        assert game.headers[name] == value.replace("\\", "\\\\").replace('"', '\\"'), \
            "python-chess keeps PGN escapes as written"
    else:
        assert game.headers.get(name) in (None, "?"), "the roster's default, not the refused value"


# -- quick hands: the reply 50-200 ms after each landing, before the move settles --------------------

def plies_on_flash(fs):
    """The plies current.log holds now, as a boot would read them (M +1, U -1, A and the rest 0)."""
    if fs.size(jr.JOURNAL) < 0:
        return 0
    plies = 0
    for line in bytes(fs.files[jr.JOURNAL]).split(b"\n"):
        payload, _, crc = line.partition(b"|")
        if not crc or jr.encode(payload.decode()) != line + b"\n":
            break
        plies += {b"M": 1, b"U": -1}.get(payload[:1], 0)
    return plies


def test_quick_hands_get_every_move_saved_within_the_bound():
    """Before: a quick player's moves were never written (the hands never paused QUIET_MS), and on
    the Pico the first write, of every waiting record at once, failed for lack of heap: the watchdog
    reset the board back to ply 0. Now every move is on the flash within 2 x DUE_MS of its commit
    (the simulated flash here, the simulated clock in 10 ms steps), and few records wait."""
    import random
    from hands_fuzz import GameHands
    from host_tools.pico_emu.bench import long_game
    from host_tools.sim.device import FirmwareHands
    fs = MemFS()
    hands = FirmwareHands(fs=fs, display=False)
    journal = hands.runner.journal
    committed = {}                        # ply -> when the game had it
    worst = [0, 0]                        # the longest wait for the flash, the most records waiting
    wait = hands.wait

    def watched_wait(ms):
        for _ in range(ms // 10):
            wait(10)
            ply = hands.runner.app.game.position.ply()
            committed.setdefault(ply, hands.now)
            on_flash = plies_on_flash(fs)
            for p in range(on_flash + 1, ply + 1):
                worst[0] = max(worst[0], hands.now - committed[p])
            worst[1] = max(worst[1], len(journal._records))
        wait(ms % 10)
    hands.wait = watched_wait
    player = GameHands(random.Random(7), chatter=False, quick=True)
    player.hands = hands
    moves = long_game(300)
    for move in moves:
        player.play(move)
    hands.wait(2 * jr.DUE_MS + 200)
    assert hands.runner.app.game.position.ply() == 300
    assert plies_on_flash(fs) == 300
    assert worst[0] <= 2 * jr.DUE_MS + 50, worst
    assert worst[1] <= 8, worst
    print("quick hands, 300 plies: a move waited at most %d ms for the flash; at most %d records waited"
          % tuple(worst))
