"""The board as a Millennium ChessLink board: a host written from the protocol's public description
(python-mchess's Magic Board description: 7O1 with the parity bit in bit 7 over USB, a 2-hex-digit XOR check at
the end of every message) plays a whole game on the firmware (fake hardware, CPython): its status after
every move, reported by the board on its own and asked with S, equals python-chess's position."""

import random

import chess
import pytest

from firmware_support import Board, run_on_the_pins
from hands_fuzz import choose
from mpy_runner import needs_micropython, run_micropython


def with_check(text):
    x = 0
    for c in text.encode():
        x ^= c
    return text + "%02X" % x


def odd_parity(data):
    """Each byte with bit 7 set where the 7O1 line would add a parity bit (an odd number of ones)."""
    return bytes(b if bin(b).count("1") % 2 else b | 0x80 for b in data)


class LinkHost:
    def __init__(self, board):
        self.board = board
        self.seen = 0

    def send(self, text, steps=12):
        self.board.hw.send_bytes(odd_parity(with_check(text).encode()))
        self.board.run(steps)

    def replies(self):
        """The board's messages since the last call: parity checked and stripped, check verified."""
        raw = bytes(self.board.hw.serial.raw[self.seen:])
        self.seen += len(raw)
        assert all(bin(b).count("1") % 2 == 1 for b in raw), "7O1: every byte has odd parity"
        text = bytes(b & 0x7F for b in raw).decode("ascii")
        lengths = {"s": 67, "v": 7, "x": 3, "l": 3, "w": 7, "r": 7}
        out = []
        while text:
            n = lengths[text[0]]
            message, text = text[:n], text[n:]
            assert with_check(message[:-2]) == message, message
            out.append(message[:-2])
        return out


def status_of(game):
    """python-chess's position as a Millennium board with its cable on the right sends it: H1 ... A1,
    H2 ... A8 (python-mchess's default orientation: it reads ``rp[7 - x + y * 8]`` as file x, rank y)."""
    out = ""
    for rank in range(8):
        for file in range(7, -1, -1):
            piece = game.piece_at(chess.square(file, rank))
            out += piece.symbol() if piece else "."
    return out


def test_a_chesslink_host_plays_a_whole_game():
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = LinkHost(board)
    host.send("V")                                  # the first message, then silence: a ChessLink host
    game = chess.Board()
    assert host.replies() == ["v0100", "s" + status_of(game)]     # the version, then the first report
    assert board.runner.protocol.host is not None
    host.send("W0203")                              # automatic reports: at every change
    assert host.replies() == ["w0203"]
    host.send("R01")
    assert host.replies() == ["r0114"]              # the scan time's default, 20
    host.send("S")
    assert host.replies() == ["s" + status_of(game)]
    host.send("L" + "01" + "00" * 81)
    host.send("X")
    assert host.replies() == ["l", "x"]
    rng = random.Random(3)
    while not game.is_game_over() and len(game.move_stack) < 60:
        move = choose(rng, game)
        board.hands.play(board.game.position, board.game.position.parse_uci(move.uci()))
        game.push(move)
        reports = host.replies()
        assert reports and reports[-1] == "s" + status_of(game), move       # reported on its own
        host.send("S")
        assert host.replies() == ["s" + status_of(game)]
    # A message with a wrong check is ignored, as the Magic Chessboard does; the link stays ChessLink.
    board.hw.send_bytes(odd_parity(b"S00"))
    board.run(12)
    assert host.replies() == []
    # Reports off (E2ROM 02 = 1): a move brings none; then a JSON host takes the link back.
    host.send("W0201")
    assert host.replies() == ["w0201"]
    board.hw.serial.raw = None
    board.lines()
    board.send("status", steps=12)
    assert board.replies("status")[0]["moves"] == [m.uci() for m in game.move_stack]


@pytest.mark.parametrize("first", [True, False], ids=["as-first-message", "mid-link"])
def test_a_malformed_message_with_a_good_check_is_ignored_not_a_reset(first):
    """Hex fields that are not hex (``WXX01``: address 0x21 read as 33 * 16 + 33, past the 256-byte
    E2ROM; ``RLL``) with a good XOR check: ignored as a message with a bad check is. They reset
    the board before (an IndexError out of the protocol's handler: the watchdog's reset on the Pico)."""
    board = Board()
    board.wait(300)
    board.lines()
    board.hw.serial.raw = bytearray()
    host = LinkHost(board)
    if not first:
        host.send("V")
        assert host.replies()[0] == "v0100"
    for text in ("WXX01", "RLL", "W0GZZ", "R1G"):
        host.send(text)
        # No answer (as first message, the board's first report: it took the link as ChessLink's)
        assert [r for r in host.replies() if r[0] != "s"] == [], text
    assert board.hw.resets == 0
    assert board.runner.protocol.host is not None          # still ChessLink: it answers the next message
    host.send("R02")
    assert host.replies() == ["r0203"]
    host.send("V")
    assert host.replies()[0] == "v0100"
    board.play("e2e4")
    assert host.replies()[-1] == "s" + status_of(chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"))
    assert board.hw.resets == 0 and board.game.position.ply() == 1


def test_a_text_line_that_looks_like_chesslink_is_text():
    """"S" or "V56" typed as a line (a line end after it, or a bad check) stays a text line."""
    board = Board()
    board.wait(300)
    board.lines()
    for line in ("S", "V56", "X00"):
        board.send(line, steps=12)
        replies = board.replies()
        assert len(replies) == 1 and replies[0]["error"] == "unknown_command", (line, replies)
    assert board.runner.protocol.host is None


@needs_micropython
def test_a_chesslink_host_under_micropython():
    out = run_micropython("tests/mpy/check_chesslink.py", "/tmp/flash", paths=("host_tools/fakehw", "firmware"),
                          data=())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_the_micropython_check_on_cpython(tmp_path):
    out = run_on_the_pins("check_chesslink.py", tmp_path / "flash")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def corner_leds(squares, code="FF"):
    """The L command's 81 LED codes lighting ``squares`` (python-chess squares) as python-mchess
    does for a board with its cable on the right (its set_led: leds[7 - x][y] ... leds[8 - x][y + 1],
    written row by row): LED 1 at H1's outer corner, 9 at H8's, 73 at A1's, 81 at A8's."""
    grid = ["00"] * 81
    for sq in squares:
        file, rank = chess.square_file(sq), chess.square_rank(sq)
        for row in (7 - file, 8 - file):
            for col in (rank, rank + 1):
                grid[row * 9 + col] = code
    return "".join(grid)


def mchess_fen(status):
    """python-mchess's reading of a status with a fresh configuration (orientation True), without
    seeing the start position first: its board FEN (chess_link.py: position[y][x] = rp[7 - x + y * 8],
    rank 8 written first)."""
    board = chess.Board(None)
    for y in range(8):
        for x in range(8):
            c = status[7 - x + y * 8]
            if c != ".":
                board.set_piece_at(chess.square(x, y), chess.Piece.from_symbol(c))
    return board.board_fen()


def test_an_app_connected_mid_game_reads_the_board_the_right_way_round_and_i_is_answered():
    """python-mchess and PicoChess took the description's A8...H1 order for a board with its cable on
    the left and fixed it only on seeing the start position: connected mid-game with a fresh
    configuration, the board came out rotated 180 degrees. chess.com's app asks I."""
    board = Board()
    board.wait(300)
    board.play("e2e4", "c7c5", "g1f3")
    board.hw.serial.raw = bytearray()
    host = LinkHost(board)
    host.send("S")
    status = [r for r in host.replies() if r[0] == "s"][-1][1:]
    game = chess.Board()
    for uci in ("e2e4", "c7c5", "g1f3"):
        game.push_uci(uci)
    assert mchess_fen(status) == game.board_fen(), status
    host.send("I00")
    raw = bytes(board.hw.serial.raw[host.seen:])
    host.seen += len(raw)
    assert bytes(b & 0x7F for b in raw) == with_check("i0055mm\n").encode(), raw


def test_the_hosts_leds_light_squares():
    from scacchiera.link.report import frame_names
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = LinkHost(board)
    host.send("L" + "05" + corner_leds([chess.G1, chess.F3], "C4"))    # a knight's move g1-f3, flashing
    assert host.replies()[0] == "l"
    assert frame_names(board.runner) == {"g1": "asked", "f3": "asked"}
    host.send("L" + "05" + corner_leds([chess.E2, chess.E4]))
    host.replies()
    # e3's four corners are e2's top ones and e4's bottom ones: it shows lit too (docs/protocols.md)
    assert frame_names(board.runner) == {"e2": "asked", "e3": "asked", "e4": "asked"}
    host.send("X")
    assert host.replies() == ["x"] and frame_names(board.runner) == {}
