"""The PCBs against the firmware's wiring: the copper the generator lays is the matrix the firmware scans.

These run without KiCad, on host_tools/pcb's description of the boards
(boards.py) and its router; tests/test_pcb_kicad.py checks, with KiCad, that the
generated files are that description, routed and clean.
"""

import types

import pytest

from host_tools.fakehw.matrix import ReedMatrix
from host_tools.pcb import boards, router, spec

board_config = boards.board_config


def config_with(**changes):
    """board_config with some constants changed, its mapping functions following them."""
    values = dict((name, getattr(board_config, name)) for name in dir(board_config) if not name.startswith("__"))
    values.update(changes)
    corner = values["A1_CORNER"]
    layout = values["LED_LAYOUT"]
    values["square_to_rc"] = lambda square, corner=corner: board_config.square_to_rc(square, corner)
    values["rc_to_square"] = lambda row, col, corner=corner: board_config.rc_to_square(row, col, corner)
    values["rc_to_led"] = lambda row, col, layout=layout: board_config.rc_to_led(row, col, layout)
    values["led_to_rc"] = lambda index, layout=layout: board_config.led_to_rc(index, layout)
    values["square_to_led"] = lambda square: board_config.square_to_led(square, corner, layout)
    values["led_to_square"] = lambda index: board_config.led_to_square(index, corner, layout)
    return types.SimpleNamespace(**values)


CONFIGS = [
    pytest.param(board_config, id="default"),
    pytest.param(config_with(A1_CORNER="far-right"), id="far-right"),
    pytest.param(config_with(A1_CORNER="near-right", LED_LAYOUT="row-major", SQUARE_MM=38), id="near-right-row-major"),
]


def pico_pin(net_members):
    """The Pico pin names ('GP10', 'VBUS', ...) on a net of the whole board."""
    return sorted(boards.PICO_HEADER[int(pad) - 1] for board, ref, pad in net_members
                  if board == "carrier" and ref == "U1")


def net_of(whole, board, ref, pad):
    for name, members in whole.items():
        if (board, ref, pad) in members:
            return name, members
    raise AssertionError("%s %s.%s is on no net" % (board, ref, pad))


def physical_column(config, row, position):
    """Where square `position` of row `row`'s strip lies: a strip cabled at J2 is mounted turned round."""
    return 7 - position if boards.cabled_end(row, config) == "J2" else position


@pytest.mark.parametrize("config", CONFIGS)
def test_every_reed_joins_the_row_and_column_pins_the_firmware_scans(config):
    """The fakehw model says which square a (row pin, column pin) pair reads; the copper must agree, 64 of 64."""
    whole = boards.whole_board(config)
    seen = {}
    for row in range(8):
        strip_name = "row%d" % row
        for position in range(8):
            n = position + 1
            _, column_side = net_of(whole, strip_name, "SW%d" % n, "1")
            _, middle = net_of(whole, strip_name, "SW%d" % n, "2")
            _, row_side = net_of(whole, strip_name, "D%d" % n, "1")  # SOD-123 pad 1: the cathode (band)
            assert (strip_name, "D%d" % n, "2") in middle  # the anode on the reed: current flows column -> row
            column_pins = pico_pin(column_side)
            row_pins = pico_pin(row_side)
            assert len(column_pins) == 1 and len(row_pins) == 1, (column_pins, row_pins)
            square = config.rc_to_square(row, physical_column(config, row, position))
            seen[(int(row_pins[0][2:]), int(column_pins[0][2:]))] = square
    assert seen == ReedMatrix(config=config)._square_at
    assert len(set(seen.values())) == 64


@pytest.mark.parametrize("config", CONFIGS)
def test_the_led_chain_runs_in_board_config_order(config):
    """From the LED pin through the level shifter and the resistor, strip by strip: LED k is where rc_to_led puts k."""
    whole = boards.whole_board(config)
    name, members = net_of(whole, "carrier", "U1", str(boards.PICO_HEADER.index("GP%d" % config.LED_PIN) + 1))
    assert ("carrier", "U2", "2") in members  # gate 1's input (1A)
    _, members = net_of(whole, "carrier", "U2", "3")  # its output (1Y) ...
    assert ("carrier", "R1", "1") in members  # ... through the 330 Ohm
    _, members = net_of(whole, "carrier", "R1", "2")
    index = 0
    while True:
        leds = [(board, ref) for board, ref, pad in members if ref.startswith("LED") and pad == "4"]  # DIN
        if not leds:
            break
        assert len(leds) == 1, leds
        board, ref = leds[0]
        row = int(board[3:])
        col = physical_column(config, row, int(ref[3:]) - 1)
        assert config.rc_to_led(row, col) == index, (board, ref)
        index += 1
        _, members = net_of(whole, board, ref, "2")  # DOUT
        if ref == "LED8":                              # a strip's last LED drives the line through its 33 Ohm
            assert (board, "R1", "1") in members and len(members) == 2, members
            _, members = net_of(whole, board, "R1", "2")
    assert index == config.LED_COUNT == 64


@pytest.mark.parametrize("config", CONFIGS)
def test_only_the_cabled_connector_reaches_the_led_data(config):
    """The jumpers of the cabled end bridged, the others open: the unused connector's DIN and DOUT
    pins (and their 0.4 m of trace) join nothing but themselves."""
    whole = boards.whole_board(config)
    strip = boards.strip(config)
    jumpers = [part for part in strip.parts if part.kind == "solder_jumper"]
    assert sorted((part.serves, sorted(part.nets.values())) for part in jumpers) == [
        ("J1", ["DIN", "DIN_J1"]), ("J1", ["DOUT", "DOUT_J1"]), ("J2", ["DIN", "DIN_J2"]), ("J2", ["DOUT", "DOUT_J2"])]
    last = boards.chain_order(config)[-1]
    for row in range(8):
        board = "row%d" % row
        used = boards.cabled_end(row, config)
        unused = "J2" if used == "J1" else "J1"
        for pin in ("3", "5"):                      # DIN, DOUT
            _, members = net_of(whole, board, unused, pin)
            serving = [part.ref for part in jumpers if part.serves == unused and
                       ("DIN" if pin == "3" else "DOUT") in part.nets.values()]
            assert sorted(ref for _b, ref, _pad in members) == sorted([unused] + serving), members
            assert all(b == board for b, _ref, _pad in members)
            _, members = net_of(whole, board, used, pin)
            assert any(ref.startswith("LED") or ref == "R1" for b, ref, _pad in members if b == board), members
            assert any(b == "carrier" for b, _ref, _pad in members) or (row == last and pin == "5")


def test_each_column_has_its_pull_up_to_3v3_on_the_carrier():
    whole = boards.whole_board()
    carrier = boards.carrier()
    pullups = [part for part in carrier.parts if part.kind == "column_pullup"]
    assert len(pullups) == 8 and all(part.value == "10k" for part in pullups)
    for column in range(8):
        members = whole["COL%d" % column]
        assert pico_pin(members) == ["GP%d" % board_config.COL_PINS[column]]
        ours = [ref for board, ref, pad in members if board == "carrier" and ref.startswith("R") and pad == "1"]
        assert len(ours) == 1, ours
        assert ("carrier", ours[0], "2") in whole["+3V3"]
    assert spec.COLUMN_PULLUP_OHMS == 10000


def test_power_reaches_every_led_and_the_display_gets_3v3():
    whole = boards.whole_board()
    five = whole["+5V"]
    ground = whole["GND"]
    assert pico_pin(five) == []                                     # the Pico's VBUS feeds it through the fuse
    assert sorted(whole["VBUS"]) == [("carrier", "F1", "1"), ("carrier", "U1", "40")]
    assert ("carrier", "F1", "2") in five
    assert set(pico_pin(ground)) == {"GND", "AGND"}
    for row in range(8):
        for n in range(1, 9):
            assert ("row%d" % row, "LED%d" % n, "1") in five and ("row%d" % row, "LED%d" % n, "3") in ground
            assert ("row%d" % row, "C%d" % n, "1") in five and ("row%d" % row, "C%d" % n, "2") in ground
    assert ("carrier", "U2", "14") in five and ("carrier", "U2", "7") in ground
    assert ("carrier", "C1", "1") in five and ("carrier", "C1", "2") in ground  # the bulk capacitor, + on pin 1
    assert pico_pin(whole["+3V3"]) == ["3V3(OUT)"]
    assert ("carrier", "J10", "2") in whole["+3V3"]  # the display's VCC: never 5 V on its pull-ups
    assert pico_pin(whole["SDA"]) == ["GP%d" % board_config.OLED_SDA]
    for index, (name, pin) in enumerate(board_config.BUTTONS):
        members = whole["BTN_" + name.upper()]
        assert pico_pin(members) == ["GP%d" % pin] and ("carrier", "J9", str(index + 2)) in members


def test_power_tracks_carry_the_worst_frame():
    """hardware/power.md's worst frame through the carrier, one rank's share through a strip (IPC-2221, 10 degC)."""
    board_ma = board_config.worst_case_ma()
    rank_ma = board_ma * 8 / board_config.LED_COUNT
    assert spec.POWER_TRACK >= spec.ipc2221_width_mm(board_ma / 1000.0)
    assert spec.POWER_TRACK >= spec.ipc2221_width_mm(rank_ma / 1000.0)
    assert spec.ipc2221_width_mm(1.0) == pytest.approx(0.30, abs=0.02)  # IPC-2221's chart: ~12 mil for 1 A
    assert boards.strip().track_width("+5V") == boards.carrier().track_width("GND") == spec.POWER_TRACK


@pytest.mark.parametrize("config", CONFIGS)
def test_strips_fit_their_row_and_never_touch_a_neighbour(config):
    strip = boards.strip(config)
    assert strip.height <= config.SQUARE_MM
    assert min(boards.strip_gaps(config)) >= spec.STRIP_GAP
    # The LEDs sit under the squares' centres, SQUARE_MM apart, the first half a square from the playing edge.
    leds = sorted(part.x for part in strip.parts if part.kind == "led")
    start = strip.notes["j1_overhang"]
    assert leds == pytest.approx([start + config.SQUARE_MM * (k + 0.5) for k in range(8)])
    assert start >= spec.STRIP_GAP
    assert strip.width == pytest.approx(start + 8 * config.SQUARE_MM + strip.notes["j2_overhang"])
    assert 0 < strip.notes["j2_overhang"] < 15  # the frame around the squares hides it


def test_squares_too_small_for_turned_strips_are_refused_by_name():
    with pytest.raises(ValueError, match="SQUARE_MM 38 .* or LED_LAYOUT row-major"):
        boards.strip(config_with(SQUARE_MM=38))


def test_every_strip_is_labelled_both_ways_round():
    """The square names on a strip read right whichever end is cabled: file letters, or rank digits turned a quarter."""
    texts = [text.text for text in boards.strip().texts]
    assert [t for t in texts if len(t) == 1] == ["a", "h", "b", "g", "c", "f", "d", "e", "e", "d", "f", "c", "g",
                                                 "b", "h", "a"]
    labels = [boards.square_label(col, config_with(A1_CORNER="near-right")) for col in range(8)]
    assert labels == ["8", "7", "6", "5", "4", "3", "2", "1"]


# --- the router on boards small enough to check by hand ---


def _pads(net, points, half=0.85):
    return [router.Pad(net, x, y, half, half, half, name="%s%d" % (net, i)) for i, (x, y) in enumerate(points)]


def test_router_crosses_nets_on_two_layers_and_keeps_clearance():
    """Six nets whose ends swap order must cross: every net completes, and no two nets come closer than allowed."""
    grid = router.Grid(30, 20, 0.635, 0.2, 0.3, 0.6)
    nets = []
    for i in range(6):
        pads = _pads("N%d" % i, [(2.54, 2.54 + i * 2.54), (25.4, 2.54 + (5 - i) * 2.54)])
        for pad in pads:
            grid.add_pad(pad)
        nets.append(router.Net("N%d" % i, pads, 0.25))
    routes = grid.route(nets)
    assert sorted(routes) == ["N%d" % i for i in range(6)]
    assert any(route.vias for route in routes.values())  # swapping order needs the second layer
    segments = [(name, layer, (x1, y1, x2, y2)) for name, route in routes.items()
                for layer, x1, y1, x2, y2 in route.tracks]
    for i, (name_a, layer_a, a) in enumerate(segments):
        for name_b, layer_b, b in segments[i + 1:]:
            if name_a != name_b and layer_a == layer_b:
                assert _segment_gap(a, b) >= 0.25 + 0.2 - 1e-6, (name_a, a, name_b, b)
    for name, route in routes.items():
        ends = {(x, y) for _layer, x1, y1, x2, y2 in route.tracks for x, y in ((x1, y1), (x2, y2))}
        pads = [pad for pad in grid.pads if pad.net == name]
        assert all(any(pad.distance_to_box(x, y, x, y) <= 0 for x, y in ends) for pad in pads)


def test_router_keeps_vias_off_pads_soldered_on_one_side():
    """A net from an SMD pad that must change layer puts its via a clearance away, never in the pad."""
    grid = router.Grid(20, 12, 0.635, 0.2, 0.3, 0.6)
    smd = router.Pad("SIG", 5.08, 6.35, 0.45, 0.75, 0, layers=(router.F_CU,), name="smd")
    tht = router.Pad("SIG", 15.24, 6.35, 0.85, 0.85, 0.85, name="tht")
    # F.Cu only, full height, right beside the pad: the cheapest via would sit in the pad itself.
    wall = router.Pad("WALL", 7.0, 6.0, 0.6, 6.5, 0, layers=(router.F_CU,), name="wall")
    for pad in (smd, tht, wall):
        grid.add_pad(pad)
    routes = grid.route([router.Net("SIG", [smd, tht], 0.25)])
    assert routes["SIG"].vias  # the wall forces B.Cu
    for x, y in routes["SIG"].vias:
        assert smd.distance_to_box(x, y, x, y) >= 0.3 + 0.2 - 1e-9


def test_router_says_which_net_it_cannot_finish():
    grid = router.Grid(10, 10, 0.635, 0.2, 0.3, 0.6)
    wall = [router.Pad("WALL", x, 5.08, 0.85, 5.5, 0) for x in (5.08,)]  # both layers, the whole height
    grid.add_pad(wall[0])
    pads = _pads("SIG", [(1.905, 5.08), (8.255, 5.08)], half=0.5)
    for pad in pads:
        grid.add_pad(pad)
    with pytest.raises(router.RoutingError, match="SIG"):
        grid.route([router.Net("SIG", pads, 0.25)], attempts=2)


def _segment_gap(a, b):
    """Distance between two axis-aligned segments, minus nothing: the centre lines' distance."""
    ax1, ax2 = sorted((a[0], a[2]))
    ay1, ay2 = sorted((a[1], a[3]))
    bx1, bx2 = sorted((b[0], b[2]))
    by1, by2 = sorted((b[1], b[3]))
    dx = max(bx1 - ax2, ax1 - bx2, 0.0)
    dy = max(by1 - ay2, ay1 - by2, 0.0)
    return (dx * dx + dy * dy) ** 0.5


def test_the_placement_file_turns_only_the_parts_the_fab_models_differently():
    """KiCad's zero and the fab's differ for SOIC and (by KiBot's table) the WS2812B: each row of the
    table names where it comes from; parts no table lists keep KiCad's angle."""
    assert spec.fab_rotation("Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", 0) == 270
    assert spec.fab_rotation("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", 90) == 270
    assert spec.fab_rotation("LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", 270) == 90
    for footprint in ("Resistor_SMD:R_0603_1608Metric", "Diode_SMD:D_SOD-123", "Fuse:Fuse_1206_3216Metric"):
        assert spec.fab_rotation(footprint, 90) == 90
    for prefix, offset, sources in spec.FAB_ROTATIONS:
        assert offset % 90 == 0 and ("JLCKicadTools" in sources or "KiBot" in sources), prefix
    placed = set(part.footprint.split(":")[1] for board in boards.boards().values() for part in board.parts
                 if part.assembled)
    assert all(kind in spec.LCSC for board in boards.boards().values() for kind in
               set(part.kind for part in board.parts if part.assembled))
    assert any(name.startswith("SOIC-") for name in placed) and any(name.startswith("LED_WS2812B") for name in placed)


def test_each_reed_lies_with_a_glass_end_under_its_square_and_the_led_beside_it():
    """The layout reed_field.py's estimate chose: over a flat reed's middle a standing magnet drives
    nothing; over an end, on the reed's axis, the most (rev 1's reed, 5 mm beside, got 0.12-0.22 of
    that for a piece put down within 5 mm of the centre)."""
    from host_tools.pcb import reed_field
    table = reed_field.compare()
    chosen = table[reed_field.LAYOUTS[0][0]]
    for name, rows in table.items():
        for (_h, centred, worst), (_h2, best_centred, best_worst) in zip(rows, chosen):
            assert centred <= best_centred + 1e-9 and worst <= best_worst + 1e-9, name
    assert all(centred == pytest.approx(0.0, abs=1e-12) for _h, centred, _w in table["glass middle under the centre"])
    strip = boards.strip()
    lead = (spec.REED_PITCH - spec.REED_GLASS) / 2
    leds = sorted((part.x, part.y) for part in strip.parts if part.kind == "led")
    reeds = sorted((part.x, part.y) for part in strip.parts if part.kind == "reed")
    for (led_x, led_y), (reed_x, reed_y) in zip(leds, reeds):
        assert reed_x + lead == pytest.approx(led_x, abs=spec.GRID / 2)          # the glass starts at the centre
        assert reed_y == pytest.approx(spec.STRIP_CENTRE, abs=spec.GRID / 2)     # on the squares' centre line
        assert spec.STRIP_CENTRE - led_y == pytest.approx(spec.LED_OFFSET)
