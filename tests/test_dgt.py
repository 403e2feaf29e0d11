"""The board as a DGT e-board: a host that speaks DGT's serial protocol (written here from DGT's public
``dgtbrd.h``, not from the firmware) plays a whole game through the board's USB link, the hands
making the moves (captures in both orders, castling, en passant, promotions, a takeback), and after
every settled move both the FIELD_UPDATEs it was sent and a fresh BOARD_DUMP equal python-chess's
position. Runs the firmware on fake hardware, on CPython."""

import json
import random

import chess
import pytest

from firmware_support import Board, run_on_the_pins
from hands_fuzz import choose
from mpy_runner import needs_micropython, run_micropython

# dgtbrd.h: commands, message ids (0x80 | id), piece codes.
DGT_SEND_RESET, DGT_SEND_BRD, DGT_SEND_UPDATE_BRD = 0x40, 0x42, 0x44
DGT_SEND_TRADEMARK, DGT_SEND_VERSION, DGT_RETURN_SERIALNR = 0x47, 0x4D, 0x45
DGT_BOARD_DUMP, DGT_FIELD_UPDATE, DGT_SERIALNR, DGT_TRADEMARK, DGT_VERSION = 0x86, 0x8E, 0x91, 0x92, 0x93
PIECES = ".PRNBKQprnbkq"            # code 0 empty, 1-6 white P R N B K Q, 7-12 black


class DgtHost:
    """A DGT host on the board's USB link: its one-byte commands, the board's messages parsed."""

    def __init__(self, board):
        self.board = board
        self.seen = 0
        self.field = None           # 64 letters, a8 first: the board as its messages told it

    def command(self, byte):
        """One command, and 60 ms for the board (its first: 40 ms of silence make it a DGT host)."""
        self.send(bytes((byte,)))
        self.board.run(12)

    def send(self, data):
        self.board.hw.send_bytes(data)

    def received(self):
        """Every byte the board sent this host."""
        return self.board.hw.serial.raw

    def messages(self, keep=False):
        """The messages since the last call (``keep``: left to be read again)."""
        raw = self.received()
        out = []
        at = self.seen
        while at < len(raw):
            head = raw[at]
            assert head & 0x80, "a message starts with a byte >= 0x80, not %r" % head
            size = (raw[at + 1] << 7) | raw[at + 2]
            data = bytes(raw[at + 3:at + size])
            assert len(data) == size - 3 and all(b < 0x80 for b in data)
            out.append((head, data))
            at += size
        if not keep:
            self.seen = at
        return out

    def dump(self):
        self.command(DGT_SEND_BRD)
        (kind, data), = [m for m in self.messages() if m[0] == DGT_BOARD_DUMP]
        assert len(data) == 64
        return "".join(PIECES[b] for b in data)

    def follow(self):
        """Apply the FIELD_UPDATEs that came: the host's own view of the board."""
        for kind, data in self.messages():
            if kind == DGT_FIELD_UPDATE:
                field, piece = data
                self.field = self.field[:field] + PIECES[piece] + self.field[field + 1:]
        return self.field


def field_of(board):
    """python-chess's position as a DGT dump's 64 letters, a8 first."""
    out = ""
    for i in range(64):
        piece = board.piece_at(chess.square(i % 8, 7 - i // 8))
        out += piece.symbol() if piece else "."
    return out


def steps(game, move, other_order):
    """The hands' steps for ``move`` (python-chess), as (lift|place, square, piece placed): a capture's
    victim taken off after the mover is lifted, or first (``other_order``); castling king first, or
    rook first; en passant with the passed pawn taken off after the mover is lifted."""
    fr, to = move.from_square, move.to_square
    piece = game.piece_at(fr).symbol()
    if game.is_castling(move):
        rook_from, rook_to = {chess.G1: (chess.H1, chess.F1), chess.C1: (chess.A1, chess.D1),
                              chess.G8: (chess.H8, chess.F8), chess.C8: (chess.A8, chess.D8)}[to]
        rook = game.piece_at(rook_from).symbol()
        king = [("lift", fr, None), ("place", to, piece)]
        rook = [("lift", rook_from, None), ("place", rook_to, rook)]
        return rook + king if other_order else king + rook
    victim = None
    if game.is_en_passant(move):
        victim = chess.square(chess.square_file(to), chess.square_rank(fr))
    elif game.is_capture(move):
        victim = to
    if victim is None:
        return [("lift", fr, None), ("place", to, piece)]
    if other_order and victim == to:
        return [("lift", victim, None), ("lift", fr, None), ("place", to, piece)]
    return [("lift", fr, None), ("lift", victim, None), ("place", to, piece)]


def make(board, host, game, move, other_order):
    """The hands make ``move`` in either order; the FIELD_UPDATEs the host got for it are the whole
    move (``check_whole_move``), whatever the hands' order."""
    hands = board.hands
    before = field_of(game)
    if move.promotion:
        hands.play(board.game.position, board.game.position.parse_uci(move.uci()))
    else:
        for kind, square, piece in steps(game, move, other_order):
            (hands.lift if kind == "lift" else hands.place)(square)
        hands.wait(hands.settle_ms)
    got = [(data[0], PIECES[data[1]]) for kind, data in host.messages(keep=True) if kind == DGT_FIELD_UPDATE]
    check_whole_move(game, move, before, got)
    assert [[f, PIECES.index(p)] for f, p in got] == expected_updates(game, move)
    game.push(move)


def check_whole_move(game, move, before, updates):
    """What an app that turns positions into moves needs (issue 48): the updates take the position
    before to the one after, one square each, naming only the pieces the position after has there;
    no position on the way but the last is another legal move's (castling rook first was read as
    h1f1); the king before the rook; a captured piece off before its square gets the capturer."""
    after = game.copy()
    after.push(move)
    others = set()
    for m in game.legal_moves:
        game.push(m)
        others.add(field_of(game))
        game.pop()
    field = before
    for i, (square, piece) in enumerate(updates):
        assert piece == "." or piece == field_of(after)[square], (move.uci(), updates)
        field = field[:square] + piece + field[square + 1:]
        if i < len(updates) - 1:
            assert field not in others, ("a position on the way is another move's", move.uci(), updates)
    assert field == field_of(after), (move.uci(), updates)
    squares = [s for s, _ in updates]
    if game.is_castling(move):
        king = {dgt_field(move.from_square), dgt_field(move.to_square)}
        assert max(i for i, s in enumerate(squares) if s in king) < \
            min(i for i, s in enumerate(squares) if s not in king), ("the king first", updates)
    if game.is_capture(move) and not game.is_en_passant(move):
        to = dgt_field(move.to_square)
        assert updates.index((to, ".")) < updates.index((to, field_of(after)[to])), ("the victim off first", updates)


def expected_updates(game, move):
    """The FIELD_UPDATEs docs/protocols.md promises for ``move``, [[field, code]]: squares a1 to h8 in
    each step: the pieces that give way to another off; the kings (white's, black's) lifted, then put
    down; the other pieces lifted; then put down."""
    before = dict((sq, game.piece_at(sq)) for sq in chess.SQUARES)
    game.push(move)
    after = dict((sq, game.piece_at(sq)) for sq in chess.SQUARES)
    game.pop()
    shown, out = dict(before), []

    def put(sq, piece):
        shown[sq] = piece
        out.append([dgt_field(sq), PIECES.index(piece.symbol() if piece else ".")])

    for sq in chess.SQUARES:
        if shown[sq] and after[sq] and shown[sq] != after[sq]:
            put(sq, None)
    for king in (chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)):
        for sq in chess.SQUARES:
            if shown[sq] == king and after[sq] != king:
                put(sq, None)
        for sq in chess.SQUARES:
            if after[sq] == king and shown[sq] != king:
                put(sq, king)
    for sq in chess.SQUARES:
        if shown[sq] and shown[sq] != after[sq]:
            put(sq, None)
    for sq in chess.SQUARES:
        if shown[sq] != after[sq]:
            put(sq, after[sq])
    return out


def dgt_field(square):
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def take_back(board, game):
    """The board's undo button, then the hands put the last move's pieces back (a plain capture)."""
    move = game.pop()
    board.hw.press("undo")
    board.wait(100)
    board.hw.press("undo", False)
    board.wait(300)
    hands = board.hands
    hands.lift(move.to_square)
    hands.place(move.from_square)
    hands.place(move.to_square)          # the taken piece, back from beside the board
    hands.wait(hands.settle_ms)


def what_it_shows(seen, game, move, other_order):
    """Count in ``seen`` what ``move`` shows (castling in which hand order, en passant, a promotion,
    a plain capture in which order); True if it is a plain capture."""
    if game.is_castling(move):
        seen["castling, rook first" if other_order else "castling, king first"] += 1
    seen["en passant"] += game.is_en_passant(move)
    seen["promotion"] += bool(move.promotion)
    plain = game.is_capture(move) and not game.is_en_passant(move) and not move.promotion
    if plain:
        seen["capture, victim first" if other_order else "capture, mover first"] += 1
    return plain


SHOWN = ("castling, rook first", "castling, king first", "en passant", "promotion", "capture, victim first",
         "capture, mover first", "takeback")


def test_a_dgt_host_is_answered_and_follows_a_whole_game():
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()     # what the board writes from now on (the boot's JSON line is before)
    follow_a_whole_game(board, DgtHost(board))


def follow_a_whole_game(board, host):
    """``host`` asks who the board is, then follows an 80-ply game with both castlings, en passant,
    promotions, captures in both hand orders and a takeback, checked after every move."""
    host.command(DGT_SEND_VERSION)
    host.command(DGT_RETURN_SERIALNR)
    host.command(DGT_SEND_TRADEMARK)
    got = dict(host.messages())
    assert len(got[DGT_VERSION]) == 2 and got[DGT_SERIALNR].isdigit()
    assert b"DGT" in got[DGT_TRADEMARK] or b"Digital Game Technology" in got[DGT_TRADEMARK]
    game = chess.Board()
    assert host.dump() == field_of(game)
    host.field = host.dump()
    host.command(DGT_SEND_UPDATE_BRD)
    rng = random.Random(3)            # 80 plies: both castlings, en passant, promotions (two to a knight)
    seen = dict.fromkeys(SHOWN, 0)
    while not game.is_game_over() and len(game.move_stack) < 80:
        move = choose(rng, game)
        other_order = len(game.move_stack) % 2 == 0
        plain_capture = what_it_shows(seen, game, move, other_order)
        make(board, host, game, move, other_order)
        assert [board.game.position.uci(m) for m in board.game.position.move_stack] == \
            [m.uci() for m in game.move_stack], "the board took the hands' move"
        assert host.follow() == field_of(game), "field updates after %s" % move
        assert host.dump() == field_of(game), "board dump after %s" % move
        if plain_capture and not seen["takeback"] and len(game.move_stack) > 10:
            seen["takeback"] += 1
            take_back(board, game)
            assert len(board.game.position.move_stack) == len(game.move_stack)
            assert host.follow() == field_of(game), "field updates after taking %s back" % move
            assert host.dump() == field_of(game)
            make(board, host, game, move, False)
            assert host.follow() == field_of(game)
    assert len(game.move_stack) >= 40 and all(seen.values()), seen


def test_no_json_goes_to_a_dgt_host():
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = DgtHost(board)
    host.command(DGT_SEND_UPDATE_BRD)
    board.play("e2e4")
    board.wait(500)
    assert b"{" not in bytes(board.hw.serial.raw), "a JSON event went to the DGT host"
    kinds = [k for k, _ in host.messages()]
    assert kinds and set(kinds) == {DGT_FIELD_UPDATE}


# -- the same under MicroPython (the WebAssembly port): the game from CPython, its positions python-chess's --

def dump_codes(board):
    return [PIECES.index(ch) for ch in field_of(board)]


def game_for_micropython(seed=3, plies=80):
    """The seeded game's hand steps (both orders), the FIELD_UPDATEs each must bring (python-chess's
    pieces; a promotion's checked by the dump only), and the board dump after each."""
    from scacchiera.tracking.tracker import PROMOTION_CYCLE
    from scacchiera.rules.squares import KNIGHT, BISHOP, ROOK, QUEEN
    ours = {chess.KNIGHT: KNIGHT, chess.BISHOP: BISHOP, chess.ROOK: ROOK, chess.QUEEN: QUEEN}
    rng = random.Random(seed)
    game = chess.Board()
    out = {"start": dump_codes(game), "steps": [], "updates": [], "dumps": [], "settle": []}
    while not game.is_game_over() and len(game.move_stack) < plies:
        move = choose(rng, game)
        other_order = len(game.move_stack) % 2 == 0 and not move.promotion
        hand = steps(game, move, other_order)
        updates = expected_updates(game, move)
        if move.promotion:
            for _ in range(PROMOTION_CYCLE.index(ours[move.promotion])):
                hand += [("lift", move.to_square, None), ("place", move.to_square, None)]
            updates = None
        out["steps"].append([[kind, sq] for kind, sq, _ in hand])
        out["updates"].append(updates)
        out["settle"].append(1700 if move.promotion else 450)
        game.push(move)
        out["dumps"].append(dump_codes(game))
    return out


@needs_micropython
def test_a_dgt_host_under_micropython():
    game = game_for_micropython()
    out = run_micropython("tests/mpy/check_dgt_game.py", "/tmp/flash", json.dumps(game),
                          paths=("host_tools/fakehw", "firmware", "tests/mpy"), data=())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"
    assert "80 plies" in out.stdout


def test_the_micropython_check_on_cpython(tmp_path):
    """The same script on CPython (it must pass there too: the expectations are the same)."""
    game = game_for_micropython()
    out = run_on_the_pins("check_dgt_game.py", tmp_path / "flash", json.dumps(game))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_a_text_line_that_starts_like_a_dgt_command_is_text():
    """"B", "I", "@"… are DGT commands, but followed by anything else they are a line like any other:
    its JSON reply, and the link stays JSON (a garbage byte changes nothing)."""
    board = Board()
    board.wait(300)
    board.lines()
    for line in ("Board", "I am here", "@"):
        board.send(line, steps=12)
        replies = board.replies()
        assert len(replies) == 1 and replies[0]["error"] == "unknown_command", (line, replies)
    assert board.runner.protocol.host is None
    board.send("status", steps=12)
    assert board.replies("status")[0]["ok"]


def test_a_dgt_host_then_a_json_host_on_the_same_link():
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = DgtHost(board)
    assert host.dump().startswith("rnbqkbnr")
    board.hw.serial.raw = None
    board.lines()
    board.send("status", steps=12)                 # a line end: never a DGT byte
    assert board.replies("status")[0]["ok"] and board.runner.protocol.host is None


def test_the_protocols_bits_are_dgts_commands():
    from scacchiera.link import dgt, hosts
    assert sorted(c for c in range(0x40, 0x56) if hosts._DGT_COMMANDS >> (c - 0x40) & 1) == sorted(dgt.COMMANDS)


def read_message(port, deadline=5.0):
    """One DGT message from a pyserial port: (its id, its data)."""
    import time
    end = time.monotonic() + deadline
    head = b""
    while len(head) < 3 and time.monotonic() < end:
        head += port.read(3 - len(head))
    assert len(head) == 3 and head[0] & 0x80, head
    size = (head[1] << 7) | head[2]
    data = b""
    while len(data) < size - 3 and time.monotonic() < end:
        data += port.read(size - 3 - len(data))
    return head[0], data


def test_a_dgt_program_on_a_serial_port_with_pyserial(tmp_path):
    """The firmware behind a pseudo-terminal, as a board on a USB serial port; a program opens it with
    pyserial (as PicoChess does) and speaks DGT: the dump, then a move's field updates."""
    import time

    import serial
    from companion_support import PtyBoard
    with PtyBoard(str(tmp_path / "ttyPico")) as pico:
        port = serial.Serial(pico.path, 9600, timeout=0.2)
        try:
            time.sleep(0.3)
            port.reset_input_buffer()

            port.write(bytes((DGT_SEND_BRD,)))
            kind, data = read_message(port)
            assert kind == DGT_BOARD_DUMP and "".join(PIECES[b] for b in data) == field_of(chess.Board())
            port.write(bytes((DGT_SEND_UPDATE_BRD,)))
            time.sleep(0.2)
            pico.hands(lambda hw: hw.lift(chess.E2))
            pico.wait(100)
            pico.hands(lambda hw: hw.place(chess.E4))       # the move is told once the board takes it
            assert read_message(port) == (DGT_FIELD_UPDATE, bytes((dgt_field(chess.E2), 0)))
            assert read_message(port) == (DGT_FIELD_UPDATE, bytes((dgt_field(chess.E4), PIECES.index("P"))))
        finally:
            port.close()


class SerialDgtHost:
    """A DGT host on a real serial port (pyserial): its commands written, the board's messages read
    as they come (kept in ``inbox``), its own view of the board kept from the FIELD_UPDATEs."""

    def __init__(self, port):
        self.port = port
        self.buffer = b""
        self.inbox = []
        self.field = None

    def read(self, seconds=0.05):
        """Read what has come (for ``seconds`` more, at least once), keeping the whole messages in ``inbox``."""
        import time
        end = time.monotonic() + seconds
        while True:
            self.buffer += self.port.read(self.port.in_waiting or 1)
            if time.monotonic() >= end:
                break
        while self.buffer and not self.buffer[0] & 0x80:
            self.buffer = self.buffer[1:]          # the boot's JSON line, before the host spoke
        while len(self.buffer) >= 3:
            size = (self.buffer[1] << 7) | self.buffer[2]
            if len(self.buffer) < size:
                break
            self.inbox.append((self.buffer[0], self.buffer[3:size]))
            self.buffer = self.buffer[size:]

    def take(self, kind):
        out = [data for k, data in self.inbox if k == kind]
        self.inbox = [m for m in self.inbox if m[0] != kind]
        return out

    def dump(self):
        self.port.write(bytes((DGT_SEND_BRD,)))
        for _ in range(100):
            self.read()
            dumps = self.take(DGT_BOARD_DUMP)
            if dumps:
                return "".join(PIECES[b] for b in dumps[0])
        raise AssertionError("no board dump")

    def follow_until(self, expected, seconds=8.0):
        """Apply the FIELD_UPDATEs as they come until the host's board is ``expected``; the updates."""
        import time
        got = []
        end = time.monotonic() + seconds
        while True:
            for field, piece in self.take(DGT_FIELD_UPDATE):
                got.append((field, PIECES[piece]))
                self.field = self.field[:field] + PIECES[piece] + self.field[field + 1:]
            if self.field == expected or time.monotonic() > end:
                return got
            self.read()


def test_a_whole_game_through_a_serial_port(tmp_path):
    """The firmware behind a pseudo-terminal, a DGT host on it with pyserial: the seeded 80-ply game
    (captures in both orders, castling king first and rook first, en passant, promotions, a takeback),
    after every move the field updates the whole move (check_whole_move) and a fresh dump python-chess's.
    The hands keep their pace in the board's simulated time (it failed at a load of 6-7 when paced by
    the wall clock: taps 80 ms apart there were closer on the board, a promotion read as a knight)."""
    import serial
    from companion_support import PtyBoard
    from scacchiera.tracking.tracker import PROMOTION_CYCLE
    from scacchiera.rules.squares import KNIGHT, BISHOP, ROOK, QUEEN
    ours = {chess.KNIGHT: KNIGHT, chess.BISHOP: BISHOP, chess.ROOK: ROOK, chess.QUEEN: QUEEN}
    with PtyBoard(str(tmp_path / "ttyPico")) as pico:
        port = serial.Serial(pico.path, 9600, timeout=0)
        try:
            host = SerialDgtHost(port)
            game = chess.Board()
            host.field = host.dump()
            assert host.field == field_of(game)
            port.write(bytes((DGT_SEND_UPDATE_BRD,)))
            rng = random.Random(3)
            seen = dict.fromkeys(SHOWN, 0)
            while not game.is_game_over() and len(game.move_stack) < 80:
                move = choose(rng, game)
                other_order = len(game.move_stack) % 2 == 0 and not move.promotion
                plain = what_it_shows(seen, game, move, other_order)
                hand = steps(game, move, other_order)
                if move.promotion:                   # the taps that choose the piece
                    for _ in range(PROMOTION_CYCLE.index(ours[move.promotion])):
                        hand += [("lift", move.to_square, None), ("place", move.to_square, None)]
                before = field_of(game)
                for kind, square, _ in hand:
                    pico.hands(lambda hw: (hw.lift if kind == "lift" else hw.place)(square))
                    pico.wait(80, lambda: host.read(0))   # the hands' pace, in the board's time
                after = game.copy()
                after.push(move)
                got = host.follow_until(field_of(after))
                check_whole_move(game, move, before, got)
                game.push(move)
                assert host.field == field_of(game), (move.uci(), got)
                assert host.dump() == field_of(game), move.uci()
                if plain and not seen["takeback"] and len(game.move_stack) > 10:
                    seen["takeback"] += 1
                    game.pop()
                    pico.hands(lambda hw: hw.press("undo"))
                    pico.wait(150, lambda: host.read(0))
                    pico.hands(lambda hw: hw.press("undo", False))
                    pico.wait(400, lambda: host.read(0))
                    for f in (lambda hw: hw.lift(move.to_square), lambda hw: hw.place(move.from_square),
                              lambda hw: hw.place(move.to_square)):
                        pico.hands(f)
                        pico.wait(80, lambda: host.read(0))
                    host.follow_until(field_of(game))
                    assert host.field == field_of(game) and host.dump() == field_of(game), "taken back"
                    for kind, square, _ in steps(game, move, False):
                        pico.hands(lambda hw: (hw.lift if kind == "lift" else hw.place)(square))
                        pico.wait(80, lambda: host.read(0))
                    game.push(move)
                    host.follow_until(field_of(game))
                    assert host.field == field_of(game) and host.dump() == field_of(game)
            assert len(game.move_stack) >= 40 and all(seen.values()), seen
        finally:
            port.close()


def test_a_whole_move_goes_out_within_a_scan_of_being_taken():
    """The delay the whole moves add, in the board's time (5 ms scans): a move's updates all go out
    together, at most one scan after the board takes the move, which is the move's settle time after
    the piece landed, as for every move on the board. Plain moves, captures, castling, both hand orders."""
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = DgtHost(board)
    host.command(DGT_SEND_UPDATE_BRD)
    host.messages()
    game = chess.Board()
    delays, after_taken = [], []
    for uci in ("e2e4", "d7d5", "e4d5", "d8d5", "g1f3", "c8g4", "f1e2", "b8c6", "e1g1", "e8c8"):
        move = chess.Move.from_uci(uci)
        before = field_of(game)
        for kind, square, _ in steps(game, move, len(game.move_stack) % 3 == 0):
            landed = board.hw.ticks_ms()          # the last reed's change (the hands then wait 80 ms)
            (board.hands.lift if kind == "lift" else board.hands.place)(square)
        ply = board.game.position.ply()
        while board.game.position.ply() == ply:
            assert not [m for m in host.messages(keep=True) if m[0] == DGT_FIELD_UPDATE], "nothing before the move"
            board.run(1)
        taken = board.hw.ticks_ms()
        got = []
        while not got:
            got = [(d[0], PIECES[d[1]]) for k, d in host.messages() if k == DGT_FIELD_UPDATE]
            told = board.hw.ticks_ms()
            board.run(1)
        check_whole_move(game, move, before, got)
        game.push(move)
        board.run(20)
        assert not host.messages(), "every update of the move went out together"
        after_taken.append(told - taken)
        delays.append(told - landed)
    settle = board.game.options.settle_ms
    assert max(after_taken) <= 5 and all(d <= settle + 40 for d in delays), (after_taken, delays)   # + the debounce
    print("landing -> the move's last FIELD_UPDATE: %d-%d ms (settle_ms %d); the move taken -> its last "
          "update: %d-%d ms" % (min(delays), max(delays), settle, min(after_taken), max(after_taken)))
