"""The DGT protocol beyond pieces: the Revelation II's LED command (0x60) lighting squares, a DGT
clock's commands (0x2B) read and left unanswered, the clocks (BWTIME), bus mode (DGT LiveChess's),
and the option ``usb`` that forces the link's language. The host side is written from DGT's public
``dgtbrd.h`` (its message layouts are spelt out here), not from the firmware."""

import chess

from firmware_support import Board, copy_fs
from test_dgt import DGT_SEND_BRD, DGT_BOARD_DUMP, DGT_SEND_UPDATE_BRD, DGT_FIELD_UPDATE, PIECES, \
    DgtHost, dgt_field, field_of

DGT_SEND_CLK, DGT_SEND_UPDATE_NICE, DGT_TO_BUSMODE, DGT_SET_LEDS, DGT_CLOCK_MESSAGE = 0x41, 0x4B, 0x4A, 0x60, 0x2B
DGT_BWTIME = 0x8D
# Bus mode (dgtbrd.h's "Bus communication protocol"): commands and the board's answers.
BUS_SEND_BRD, BUS_SEND_CHANGES, BUS_REPEAT_CHANGES, BUS_PING, BUS_SEND_VERSION = 0x82, 0x83, 0x84, 0x87, 0x8B
MSG_BUS_BRD_DUMP, MSG_BUS_UPDATE, MSG_BUS_PING, MSG_BUS_VERSION = 0x83, 0x85, 0x87, 0x89


def lit(board):
    from scacchiera.link.report import frame_names
    return frame_names(board.runner)


def dgt_host(board):
    board.wait(300)
    board.hw.serial.raw = bytearray()
    host = DgtHost(board)
    host.command(DGT_SEND_UPDATE_BRD)
    return host


def leds(host, mode, first, last):
    """The Revelation II's LED command: 0x60, size 4, mode, start field, end field, 0."""
    host.board.hw.send_bytes(bytes((DGT_SET_LEDS, 4, mode, first, last, 0)))
    host.board.run(12)


def test_the_revelation_leds_light_squares_under_the_boards_own_meanings():
    board = Board()
    host = dgt_host(board)
    leds(host, 1, dgt_field(chess.E2), dgt_field(chess.E4))
    assert lit(board) == {"e2": "asked", "e4": "asked"}
    leds(host, 1, dgt_field(chess.C7), dgt_field(chess.F7))      # fields 10 and 13: a line feed and a CR
    assert board.runner.protocol.host is not None, "a field's byte is data, not a line end"
    assert set(lit(board)) == {"e2", "e4", "c7", "f7"}
    leds(host, 0, dgt_field(chess.C7), dgt_field(chess.F7))
    assert lit(board) == {"e2": "asked", "e4": "asked"}
    board.hands.lift(chess.E2)
    board.wait(100)
    frame = lit(board)
    assert frame["e2"] == "lifted" and frame["e4"] == "legal", "the board's own guidance stays on top"
    board.hands.place(chess.E4)
    board.wait(600)
    assert board.game.position.ply() == 1 and lit(board) == {"e2": "asked", "e4": "asked"}, \
        "the program's light covers the last move (quiet guidance) until it turns it off"
    leds(host, 0, 0x40, 0)                                        # all off
    assert "asked" not in lit(board).values()
    leds(host, 1, dgt_field(chess.A1), dgt_field(chess.H8))
    assert lit(board)["a1"] == "asked"
    board.hw.serial.raw = None
    board.send("status", steps=12)                                # a text host: the program's lights go
    assert board.runner.protocol.host is None and "asked" not in lit(board).values()


def test_a_dgt_clocks_commands_are_read_and_ctrl_c_is_off_while_dgt_has_the_link():
    board = Board()
    host = dgt_host(board)
    assert board.hw.ctrl_c is False, "0x03 is data inside a DGT clock's command: not Ctrl-C"
    board.hw.send_bytes(bytes((DGT_CLOCK_MESSAGE, 3, 3, 9, 0)))   # PicoChess asks the clock's version
    board.run(12)
    assert host.messages() == [], "no clock is plugged in: no answer"
    assert host.dump() == field_of(chess.Board()), "the next command is read as one"
    board.hw.serial.raw = None
    board.send("status", steps=12)
    assert board.replies("status")[0]["ok"] and board.hw.ctrl_c is True


def bwtime(data):
    """dgtbrd.h's DGT_MSG_BWTIME, clock times: right then left (hours with flags, minutes, seconds in
    BCD), then the status byte. Returns ((right s, left s), running, right's turn, left's turn, no clock)."""
    assert len(data) == 7 and data[0] & 0x0F != 0x0A and data[3] & 0x0F != 0x0A, "a time, not an ack"

    def seconds(h, m, s):
        return (h & 0x0F) * 3600 + ((m >> 4) * 10 + (m & 15)) * 60 + (s >> 4) * 10 + (s & 15)
    status = data[6]
    return (seconds(*data[0:3]), seconds(*data[3:6])), bool(status & 1), bool(status & 8), \
        bool(status & 16), bool(status & 32)


def test_bwtime_reports_the_boards_clocks():
    board = Board()
    board.send('{"cmd": "set", "name": "clock", "value": "5+3"}', steps=12)
    assert board.replies("set")[0]["ok"]
    host = dgt_host(board)
    host.command(DGT_SEND_CLK)
    (kind, data), = host.messages()
    assert kind == DGT_BWTIME and bwtime(data) == ((300, 300), False, False, False, False)
    host.command(DGT_SEND_UPDATE_NICE)                 # field updates, and the clocks at every change
    host.messages()
    board.play("e2e4")                                 # white's move starts black's clock
    board.wait(3000)
    times = [bwtime(data) for kind, data in host.messages() if kind == DGT_BWTIME]
    assert len(times) >= 3, times
    (right, left), running, right_turn, left_turn, no_clock = times[-1]
    assert running and right_turn and not left_turn and not no_clock
    assert left == 300 + 3 and 300 - 4 <= right <= 300 - 2, times[-1]   # white got the bonus; black's runs
    assert [t[0][0] for t in times] == sorted((t[0][0] for t in times), reverse=True)


def test_bwtime_without_a_clock_says_none_is_connected():
    board = Board()
    host = dgt_host(board)
    host.command(DGT_SEND_CLK)
    (kind, data), = host.messages()
    assert kind == DGT_BWTIME and bwtime(data)[4] is True


# -- bus mode ----------------------------------------------------------------------------------

def bus(board, cmd, address):
    """A bus command: the command, the address's high and low 7 bits, their sum's low 7 bits."""
    msg = bytes((cmd, address >> 7, address & 0x7F))
    board.hw.send_bytes(msg + bytes((sum(msg) & 0x7F,)))
    board.run(12)


def bus_messages(board, seen):
    """The bus answers written since ``seen``: (kind, address, data), the length and sum checked."""
    raw = bytes(board.hw.serial.raw)
    out = []
    at = seen[0]
    while at < len(raw):
        size = raw[at + 1] << 7 | raw[at + 2]
        msg = raw[at:at + size]
        assert len(msg) == size and msg[-1] == sum(msg[:-1]) & 0x7F, msg
        out.append((msg[0], msg[3] << 7 | msg[4], msg[5:-1]))
        at += size
    seen[0] = at
    return out


def test_bus_mode_as_dgt_livechess_polls_a_board():
    board = Board()
    board.wait(300)
    board.hw.serial.raw = bytearray()
    seen = [0]
    bus(board, BUS_PING, 0)                             # who is on the bus? (address 0: every board)
    board.run(12)
    (kind, address, data), = bus_messages(board, seen)
    assert kind == MSG_BUS_PING and data == b"" and address > 0
    bus(board, BUS_SEND_VERSION, address)
    (kind, _, data), = bus_messages(board, seen)
    assert kind == MSG_BUS_VERSION and len(data) == 2
    bus(board, BUS_SEND_BRD, address)
    (kind, _, data), = bus_messages(board, seen)
    assert kind == MSG_BUS_BRD_DUMP and "".join(PIECES[b] for b in data) == field_of(chess.Board())
    bus(board, BUS_SEND_BRD, address + 1)               # another board's address: not ours to answer
    assert bus_messages(board, seen) == []
    board.hw.send_bytes(bytes((BUS_SEND_BRD, 0, address, 0x55)))   # a wrong sum: ignored
    board.run(12)
    assert bus_messages(board, seen) == []
    board.play("e2e4", "d7d5", "e4d5")
    bus(board, BUS_SEND_CHANGES, address)
    (kind, _, data), = bus_messages(board, seen)
    assert kind == MSG_BUS_UPDATE
    tags = [(data[i], data[i + 1]) for i in range(0, len(data), 2)]
    assert all(0x40 <= t < 0x60 for t, _ in tags), "EEPROM field tags: 0t0r nnnn, then the field"
    field = field_of(chess.Board())
    for tag, f in tags:                                  # the host's board, rebuilt from the tags
        field = field[:f] + PIECES[tag & 0x0F] + field[f + 1:]
    game = chess.Board()
    for uci in ("e2e4", "d7d5", "e4d5"):
        game.push_uci(uci)
    assert field == field_of(game)
    bus(board, BUS_REPEAT_CHANGES, address)
    assert bus_messages(board, seen) == [(MSG_BUS_UPDATE, address, data)]
    bus(board, BUS_SEND_CHANGES, address)
    assert bus_messages(board, seen) == [(MSG_BUS_UPDATE, address, b"")], "nothing new since"
    host = DgtHost(board)
    host.seen = seen[0]
    assert host.dump() == field_of(game), "a single-board command: answered, bus mode over"


# -- the option usb ----------------------------------------------------------------------------

def test_usb_json_never_takes_dgt_bytes_for_a_host():
    board = Board()
    board.send('{"cmd": "set", "name": "usb", "value": "json"}', steps=12)
    assert board.replies("set")[0]["ok"]
    board.hw.serial.raw = bytearray()
    board.hw.send_bytes(bytes((DGT_SEND_BRD,)))
    board.wait(300)
    assert board.runner.protocol.host is None and DGT_BOARD_DUMP not in bytes(board.hw.serial.raw)


def test_usb_dgt_is_kept_and_takes_any_first_byte():
    board = Board()
    board.send('{"cmd": "set", "name": "usb", "value": "dgt"}', steps=12)
    assert board.replies("set")[0]["ok"]
    board2 = Board(fs=copy_fs(board.hw.fs))              # a power cut: the option from the journal
    assert board2.runner.usb == "dgt"
    board2.wait(300)
    board2.hw.serial.raw = bytearray()
    board2.hw.send_bytes(bytes((DGT_CLOCK_MESSAGE, 3, 3, 9, 0, DGT_SEND_BRD)))   # a first byte "auto" would not take
    board2.run(2)                                      # no silence to wait for
    host = DgtHost(board2)
    (kind, data), = host.messages()
    assert kind == DGT_BOARD_DUMP and "".join(PIECES[b] for b in data) == field_of(chess.Board())
    board2.hw.serial.raw = None
    board2.send('{"cmd": "set", "name": "usb", "value": "auto"}', steps=12)   # "{": text again, and back
    assert board2.replies("set")[0]["ok"] and board2.runner.usb == "auto"


def test_usb_refuses_an_unknown_language():
    board = Board()
    board.send('{"cmd": "set", "name": "usb", "value": "uci"}', steps=12)
    reply, = board.replies("set")
    assert not reply["ok"] and "usb must be" in reply["message"]


# -- the board's clock as a DGT 3000's, programs in turn on one link (issue 48) -----------------------

def clock_ack(data):
    """PicoChess's reading of a DGT clock's acknowledgement in BWTIME (its DgtBoard class): None for a time,
    else (ack0, ack1, ack2, ack3); ack0 0x10 is good, ack1 the command acknowledged, ack2 a version."""
    if (data[0] & 0x0F) != 0x0A and (data[3] & 0x0F) != 0x0A:
        return None
    return ((data[1] & 0x7F) | ((data[3] << 3) & 0x80), (data[2] & 0x7F) | ((data[3] << 2) & 0x80),
            (data[4] & 0x7F) | ((data[0] << 3) & 0x80), (data[5] & 0x7F) | ((data[0] << 2) & 0x80))


def test_with_a_clock_set_the_board_answers_as_a_dgt_3000_and_its_lever_never_moves():
    """With set clock 5+3 each move flipped BWTIME's lever bit (PicoChess read a lever press, then
    switched sides: its engine took the user's side) and the clock's version query 2b 03 03 09 00
    went unanswered (PicoChess redid its handshake 4 times in 11 s)."""
    board = Board()
    board.send('{"cmd": "set", "name": "clock", "value": "5+3"}', steps=12)
    host = dgt_host(board)
    host.command(DGT_SEND_UPDATE_NICE)
    board.hw.send_bytes(bytes((DGT_CLOCK_MESSAGE, 3, 3, 9, 0)))      # the clock's version, please
    board.run(12)
    acks = [clock_ack(d) for k, d in host.messages() if k == DGT_BWTIME and clock_ack(d)]
    assert acks and acks[0][:2] == (0x10, 0x09), acks                # good, for the version query
    assert acks[0][2] >> 4 >= 1, "a version main.sub"
    board.hw.send_bytes(bytes((DGT_CLOCK_MESSAGE, 12, 3, 0x0C)) + b"e2e4    " + bytes((0, 0)))   # a text to show
    board.run(12)
    assert [clock_ack(d)[1] for k, d in host.messages() if k == DGT_BWTIME and clock_ack(d)] == [0x0C]
    levers = set()
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
        board.play(uci)
        board.wait(1200)
        levers |= set(d[6] & 0x02 for k, d in host.messages() if k == DGT_BWTIME and not clock_ack(d))
    assert levers == {0}, "the lever never moves"


def test_programs_in_turn_on_one_link_are_each_known_by_their_first_message():
    """After a DGT program, python-mchess's V56 got no answer (its parity-marked V read as a DGT bus
    command); after ChessLink, PicoChess's 4b 4d 45 were ignored and ChessLink reports kept coming."""
    from test_chesslink import odd_parity, with_check
    board = Board()
    host = dgt_host(board)
    assert type(board.runner.protocol.host).__name__ == "Dgt"
    board.hw.send_bytes(odd_parity(with_check("V").encode()))        # python-mchess, no line end between
    board.run(20)
    assert type(board.runner.protocol.host).__name__ == "ChessLink"
    text = bytes(b & 0x7F for b in board.hw.serial.raw[host.seen:]).decode("ascii")
    assert text.startswith(with_check("v0100")) and "\n" not in text, text
    host.seen = len(board.hw.serial.raw)
    board.hw.send_bytes(bytes((0x4B, 0x4D, 0x45)))                   # PicoChess: updates, version, serial
    board.run(20)
    assert type(board.runner.protocol.host).__name__ == "Dgt"
    kinds = [k for k, _ in host.messages()]
    assert 0x93 in kinds and 0x91 in kinds, kinds                    # VERSION and SERIALNR answered
    board.play("e2e4")
    assert [d for k, d in host.messages() if k == DGT_FIELD_UPDATE], "DGT's updates, not ChessLink's reports"
    assert board.game.position.ply() == 1 and board.hw.resets == 0


def test_a_dgt_program_cut_mid_command_does_not_swallow_the_next_hosts_line():
    """A DGT program cut after 0x2B 0xFF or 0x60 0xC8 swallowed up to 257 bytes of the next host's lines."""
    for cut in (bytes((DGT_CLOCK_MESSAGE, 0xFF)), bytes((DGT_SET_LEDS, 0xC8)), bytes((DGT_CLOCK_MESSAGE, 5, 3))):
        board = Board()
        dgt_host(board)
        board.hw.send_bytes(cut)
        board.run(2)
        if cut[1] <= 16:
            board.wait(100)                                          # the program died mid-command
        board.hw.serial.raw = None
        board.send('{"cmd": "status", "id": 7}', steps=12)
        replies = board.replies("status")
        assert replies and replies[0]["ok"] and replies[0]["id"] == 7, (cut, replies)
        assert board.runner.protocol.host is None


def test_every_chesslink_command_after_a_dgt_program_is_chesslinks():
    """R, T and W (no parity bit: their own bits are odd) and S, V, X after a DGT program: each makes
    a ChessLink host, not a byte a DGT board ignores."""
    from test_chesslink import odd_parity, with_check
    for text in ("R02", "W0203", "S", "V", "X"):
        board = Board()
        dgt_host(board)
        board.hw.send_bytes(odd_parity(with_check(text).encode()))
        board.run(20)
        assert type(board.runner.protocol.host).__name__ == "ChessLink", text
