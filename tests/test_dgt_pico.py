"""A DGT host on the emulated Pico (MicroPython v1.28.0 for the Pico in an emulated RP2040): the same
checks as tests/test_dgt.py's, over a few moves (captures both ways), then a JSON host takes the link
back. Skipped, saying what to supply, without the .uf2 (as tests/test_pico_emu.py)."""

import chess
import pytest

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.emulator import build_firmware, missing
from test_dgt import PIECES, dgt_field, field_of, steps

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="emulated Pico: %s" % WHY)


def messages(raw):
    out = []
    at = 0
    while at < len(raw):
        assert raw[at] & 0x80, raw[at:]
        size = (raw[at + 1] << 7) | raw[at + 2]
        out.append((raw[at], raw[at + 3:at + size]))
        at += size
    return out


def test_a_dgt_host_on_the_emulated_pico(tmp_path):
    from host_tools.pico_emu.board import PicoHands
    hands = PicoHands(firmware=build_firmware(str(tmp_path / "firmware")))
    emu = hands.emu
    try:
        def ask(byte, ms=200):
            mark = len(emu.serial)
            emu.send(bytes((byte,)))
            hands.wait(ms)
            return messages(emu.serial[mark:].encode("latin-1"))

        game = chess.Board()
        (kind, dump), = ask(0x42)                     # SEND_BRD, then silence: a DGT host
        assert kind == 0x86 and "".join(PIECES[b] for b in dump) == field_of(game)
        assert ask(0x44) == []                        # field updates from now on
        for uci, other_order in (("e2e4", False), ("d7d5", False), ("e4d5", True), ("d8d5", False),
                                 ("b1c3", False), ("d5a5", False)):
            move = chess.Move.from_uci(uci)
            mark = len(emu.serial)
            expected = []
            for kind, square, piece in steps(game, move, other_order):
                hands.touch(square, 0 if kind == "lift" else 1)
                hands.wait(80)
                expected.append((dgt_field(square), piece or "."))
            hands.wait(500)
            game.push(move)
            got = [(d[0], PIECES[d[1]]) for k, d in messages(emu.serial[mark:].encode("latin-1")) if k == 0x8E]
            assert got == expected, (uci, got, expected)
            (kind, dump), = ask(0x42)
            assert "".join(PIECES[b] for b in dump) == field_of(game), uci
        # A JSON host speaks: the link is JSON again, the game the one the hands played.
        reply = hands.query({"cmd": "status"})
        assert reply["ok"] and reply["moves"] == [m.uci() for m in game.move_stack]
        hands.check_no_crash()
    finally:
        emu.close()
