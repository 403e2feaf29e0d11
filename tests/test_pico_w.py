"""The firmware on MicroPython v1.28.0 for the Pico W, in an emulated RP2040 (host_tools/pico_emu).

rp2040js has no model of the W's radio chip: ``bluetooth.BLE().active(True)`` raises OSError(22)
there, which is the path of a Pico W whose radio does not start, a USB board that says so once. The
board with a BLE app connected runs the firmware with the fake ``bluetooth`` of host_tools/fakehw/radio
(host_tools/pico_emu/ble_bench.py). Needs ../shared/rp2040's RPI_PICO_W_ROMFS .uf2 (and the bootrom);
skipped, saying what to supply, without them.
"""

import pytest

from host_tools import _paths  # noqa: F401
from host_tools import deploy
from host_tools.pico_emu.emulator import missing

from test_pico_emu import run, assert_same_as_sim, SCENARIOS

W_UF2 = deploy.BOARDS["RPI_PICO_W"]
WHY = missing(W_UF2)
pytestmark = [pytest.mark.emulator, pytest.mark.skipif(WHY is not None, reason="emulated Pico W: %s" % WHY)]


@pytest.fixture(scope="module")
def w_uf2(tmp_path_factory):
    """make uf2 BOARD=RPI_PICO_W's scacchiera-w.uf2, once per module."""
    return deploy.make_uf2(str(tmp_path_factory.mktemp("w")), board="RPI_PICO_W")


def test_make_uf2_for_a_pico_w_boots_alone_and_says_its_radio_did_not_start(w_uf2):
    """scacchiera-w.uf2 holds MicroPython for the W, the ROMFS image at 0x1012C000 and a filesystem
    at 0x1018C000; booted from erased flash it is a working USB board that says once, at boot and
    in status, that its radio did not start."""
    from host_tools.pico_emu.board import PicoHands
    assert w_uf2["new"].endswith("scacchiera-w.uf2") and w_uf2["update"].endswith("scacchiera-w-update.uf2")
    info = deploy.uf2_info(w_uf2["new"])
    runs = info["runs"]
    assert info["pico_w"] and [hex(r[0]) for r in runs[:3]] == ["0x10000000", "0x1012c000", "0x1018c000"]
    assert all(0x1018C000 <= r[0] and r[1] <= 0x10200000 for r in runs[2:]), runs    # the filesystem's blocks
    hands = PicoHands(uf2=w_uf2["new"])
    try:
        run(hands, "lift e2\nwait 200\nplace e4\nwait 700\nexpect moves e2e4")
        radio = [ev for ev in hands.events if ev.get("ev") == "radio"]
        assert radio == [{"ev": "radio", "error": "the radio did not start: OSError 22"}]
        assert hands.status()["ble"] == {"error": "the radio did not start: OSError 22"}
        files = sorted(hands.emu.flash_files())
        assert "/main.py" in files and not [f for f in files if f.endswith(".mpy")], files
    finally:
        hands.emu.close()


def test_captures_both_orders_same_as_the_simulator_on_a_pico_w(w_uf2):
    assert_same_as_sim(SCENARIOS + "/captures_both_orders.txt", None, uf2=w_uf2["new"])


def test_a_pegasus_app_on_a_fake_radio_while_the_hands_play():
    """The W's board with a BLE app connected (the fake radio): the hands' game recognised whole, the
    app's board dumps notified and never cut at the MTU, and the board's engine made and thinking
    with the app still connected. (The scan rate and the lifts' times: ble_bench's figures.)"""
    from host_tools.pico_emu import ble_bench
    f = ble_bench.measure(plies=8)
    assert f["radio"] == "True ''" and f["connected"] == "True Dgt", f
    plies, slices, notified, cut = (int(x) for x in f["game"][:4])
    assert plies == 8 and notified > 67 * 8 and cut == 0, f["game"]
    kind, thinking, free, app = f["engine"]
    assert kind == "Opponent" and thinking == "True" and app == "True", f["engine"]
    assert int(free) > 50000, free
    assert f["loop"]["lifts"], f["loop"]
