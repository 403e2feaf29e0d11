"""A DGT host on the emulated Pico (MicroPython v1.28.0 for the Pico in an emulated RP2040): the same
checks as tests/test_dgt.py's, over a few moves (captures both ways), the Revelation II's LEDs on the
strip, a bus mode dump, then a JSON host takes the link back, then a ChessLink host. Skipped, saying
what to supply, without the .uf2 (as tests/test_pico_emu.py)."""

import chess
import pytest

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.emulator import build_firmware, missing
from test_chesslink import odd_parity, status_of, with_check
from test_dgt import PIECES, check_whole_move, dgt_field, expected_updates, field_of, steps

WHY = missing()
pytestmark = [pytest.mark.emulator, pytest.mark.skipif(WHY is not None, reason="emulated Pico: %s" % WHY)]


def messages(raw):
    out = []
    at = 0
    while at < len(raw):
        assert raw[at] & 0x80, raw[at:]
        size = (raw[at + 1] << 7) | raw[at + 2]
        out.append((raw[at], raw[at + 3:at + size]))
        at += size
    return out


def asking(hands):
    """``ask(byte, ms)``: one DGT command to the emulated Pico, then ``ms``; the messages it wrote."""
    emu = hands.emu

    def ask(byte, ms=200):
        mark = len(emu.serial)
        emu.send(bytes((byte,)))
        hands.wait(ms)
        return messages(emu.serial[mark:].encode("latin-1"))
    return ask


def test_a_dgt_host_on_the_emulated_pico(tmp_path):
    from host_tools.pico_emu.board import PicoHands
    hands = PicoHands(firmware=build_firmware(str(tmp_path / "firmware")))
    emu = hands.emu
    ask = asking(hands)
    try:
        game = chess.Board()
        (kind, dump), = ask(0x42)                     # SEND_BRD, then silence: a DGT host
        assert kind == 0x86 and "".join(PIECES[b] for b in dump) == field_of(game)
        assert ask(0x44) == []                        # field updates from now on
        for uci, other_order in (("e2e4", False), ("d7d5", False), ("e4d5", True), ("d8d5", False),
                                 ("b1c3", False), ("d5a5", False)):
            move = chess.Move.from_uci(uci)
            mark = len(emu.serial)
            before = field_of(game)
            for kind, square, piece in steps(game, move, other_order):
                hands.touch(square, 0 if kind == "lift" else 1)
                hands.wait(80)
            hands.wait(500)
            got = [(d[0], PIECES[d[1]]) for k, d in messages(emu.serial[mark:].encode("latin-1")) if k == 0x8E]
            check_whole_move(game, move, before, got)
            assert [[f, PIECES.index(p)] for f, p in got] == expected_updates(game, move), uci
            game.push(move)
            (kind, dump), = ask(0x42)
            assert "".join(PIECES[b] for b in dump) == field_of(game), uci
        # The Revelation II's LEDs on the strip, then bus mode (LiveChess's): a board dump with its sum.
        mark = len(emu.serial)
        emu.send(bytes((0x60, 4, 1, dgt_field(chess.H2), dgt_field(chess.H4), 0)))
        hands.wait(200)
        assert emu.serial[mark:] == "", "no answer to the LEDs"
        frame = hands.led_meanings()
        assert frame.get("h2") == "asked" and frame.get("h4") == "asked", frame
        mark = len(emu.serial)
        emu.send(bytes((0x82, 0, 1, 3)))
        hands.wait(200)
        raw = emu.serial[mark:].encode("latin-1")
        assert raw[:5] == bytes((0x83, 0, 70, 0, 1)) and raw[69] == sum(raw[:69]) & 0x7F, raw
        assert "".join(PIECES[b] for b in raw[5:69]) == field_of(game)
        # A JSON host speaks: the link is JSON again, the game the one the hands played, the lights gone.
        reply = hands.query({"cmd": "status"})
        assert reply["ok"] and reply["moves"] == [m.uci() for m in game.move_stack]
        assert "asked" not in hands.led_meanings().values()
        # A ChessLink host (7O1's parity in bit 7, each message's XOR check): V, then S.
        for text, answer in (("V", "v0100"), ("S", "s" + status_of(game))):
            mark = len(emu.serial)
            emu.send(odd_parity(with_check(text).encode()))
            hands.wait(300)
            raw = emu.serial[mark:].encode("latin-1")
            assert all(bin(b).count("1") % 2 for b in raw), raw
            assert bytes(b & 0x7F for b in raw).decode().startswith(with_check(answer)), (text, raw)
        hands.check_no_crash()
    finally:
        emu.close()


@pytest.mark.slow
def test_a_whole_game_with_a_dgt_host_on_the_emulated_pico(tmp_path):
    """make test-long: the seeded 80-ply game of tests/test_dgt.py (captures in both orders, both
    castlings in either hand order, en passant, promotions by taps) on the emulated Pico, a DGT host
    following it: every move's FIELD_UPDATEs the whole move (docs/protocols.md's order), every dump
    python-chess's position."""
    from host_tools.pico_emu.board import PicoHands
    from test_dgt import game_for_micropython
    game = game_for_micropython()
    hands = PicoHands(firmware=build_firmware(str(tmp_path / "firmware")))
    emu = hands.emu
    ask = asking(hands)
    try:
        assert ask(0x42) == [(0x86, bytes(game["start"]))]
        assert ask(0x44) == []
        for ply, (hand, updates, dump) in enumerate(zip(game["steps"], game["updates"], game["dumps"])):
            mark = len(emu.serial)
            for kind, square in hand:
                hands.touch(square, 0 if kind == "lift" else 1)
                hands.wait(80)
            hands.wait(game["settle"][ply])
            got = [[d[0], d[1]] for k, d in messages(emu.serial[mark:].encode("latin-1")) if k == 0x8E]
            if updates is not None:
                assert got == updates, (ply, got, updates)
            assert ask(0x42) == [(0x86, bytes(dump))], ply
        hands.check_no_crash()
    finally:
        emu.close()
