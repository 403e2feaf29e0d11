"""The wiring, one source of truth: firmware/board_config.py.

Checks that the pin map fits a Pico, that the matrix model built from it scans
32 pieces right (and ghosts without diodes), that the committed build docs are
exactly what the pin map generates, and that the LED cap keeps the worst frame
inside a USB port.
"""

import ast
import csv
import os
import random
import re
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import board_config
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    import board_config
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from host_tools import board_data, hwdocs  # noqa: E402
from host_tools.fakehw import ReedMatrix, ShortCircuit  # noqa: E402

CORNERS = ("near-left", "near-right", "far-right", "far-left")
LAYOUTS = ("serpentine", "row-major")
PICO_RESERVED = {23, 24, 25, 29}
START_POSITION = list(range(16)) + list(range(48, 64))


def square_names(squares):
    return sorted(board_data.square_name(s) for s in squares)


def config_with(**changes):
    """A copy of board_config with some wiring changed; its functions see the change."""
    cfg = types.ModuleType("board_config_variant")
    for name in dir(board_config):
        if not name.startswith("__"):
            setattr(cfg, name, getattr(board_config, name))
    for name, value in changes.items():
        setattr(cfg, name, value)
    corner, layout = cfg.A1_CORNER, cfg.LED_LAYOUT
    cfg.square_to_rc = lambda s, corner=corner: board_config.square_to_rc(s, corner)
    cfg.rc_to_square = lambda r, c, corner=corner: board_config.rc_to_square(r, c, corner)
    cfg.rc_to_led = lambda r, c, layout=layout: board_config.rc_to_led(r, c, layout)
    cfg.led_to_rc = lambda i, layout=layout: board_config.led_to_rc(i, layout)
    cfg.square_to_led = lambda s: board_config.square_to_led(s, corner, layout)
    cfg.led_to_square = lambda i: board_config.led_to_square(i, corner, layout)
    return cfg


def scan(matrix, cfg=board_config):
    """Read the board as the firmware does: one row LOW at a time, all columns in one word."""
    occupied = []
    for row, pin in enumerate(cfg.ROW_PINS):
        matrix.drive(pin, 0)
        bits = (matrix.gpio_in() >> cfg.COL_SHIFT) & cfg.COL_MASK
        matrix.release(pin)
        for col in range(8):
            if not bits & (1 << col):
                occupied.append(cfg.rc_to_square(row, col))
    return sorted(occupied)


class TestPinMap:
    def all_pins(self):
        return list(board_config.ROW_PINS) + list(board_config.COL_PINS) + [board_config.LED_PIN] + [
            pin for _name, pin in board_config.BUTTONS
        ]

    def test_every_gpio_is_used_once(self):
        pins = self.all_pins()
        assert len(pins) == len(set(pins)), "a GPIO is used twice"
        assert len(pins) == 8 + 8 + 1 + len(board_config.BUTTONS)

    def test_no_pin_the_pico_keeps_for_itself(self):
        # GP23 SMPS power-save, GP24 VBUS sense, GP25 LED, GP29 VSYS/3; on the
        # Pico W (and Pico 2 W) the same four drive the wireless chip.
        assert set(board_data.RESERVED_GPIOS) == PICO_RESERVED
        for pin in self.all_pins():
            assert pin not in PICO_RESERVED, "GP%d is reserved on the Pico" % pin
            assert board_data.gpio_to_header_pin(pin) is not None, "GP%d is not on the header" % pin

    def test_rows_columns_led_and_buttons_present(self):
        assert len(board_config.ROW_PINS) == 8
        assert len(board_config.COL_PINS) == 8
        assert isinstance(board_config.LED_PIN, int)
        assert board_config.LED_COUNT == 64
        names = [name for name, _pin in board_config.BUTTONS]
        assert names and len(names) == len(set(names))
        assert board_config.DIAG_BUTTON in names
        assert board_config.button_pin(board_config.DIAG_BUTTON) is not None
        assert board_config.button_pin("no such button") is None

    def test_columns_are_consecutive_for_one_word_reads(self):
        shift = board_config.COL_SHIFT
        assert board_config.COL_PINS == tuple(range(shift, shift + 8))
        assert board_config.COL_MASK == 0xFF
        assert board_config.SIO_GPIO_IN == 0xD0000004

    @pytest.mark.parametrize("corner", CORNERS)
    def test_square_to_row_col_is_a_bijection(self, corner):
        cells = [board_config.square_to_rc(s, corner) for s in range(64)]
        assert sorted(cells) == [(r, c) for r in range(8) for c in range(8)]
        for square, (row, col) in enumerate(cells):
            assert board_config.rc_to_square(row, col, corner) == square

    @pytest.mark.parametrize("corner", CORNERS)
    def test_orientation_is_a_rotation_never_a_mirror(self, corner):
        """Seen from above, h1 is always a quarter turn clockwise from a8 around a1."""
        r0, c0 = board_config.square_to_rc(0, corner)  # a1
        rf, cf = board_config.square_to_rc(1, corner)  # b1: along the first rank
        rr, cr = board_config.square_to_rc(8, corner)  # a2: up the a-file
        file_step = (cf - c0, rf - r0)
        rank_step = (cr - c0, rr - r0)
        # x = col (to the right), y = row (away from the USB edge): a rank step
        # is the file step turned 90 degrees anticlockwise.
        assert rank_step == (-file_step[1], file_step[0])
        expected = {"near-left": (0, 0), "near-right": (0, 7), "far-right": (7, 7), "far-left": (7, 0)}
        assert (r0, c0) == expected[corner]

    @pytest.mark.parametrize("corner", CORNERS)
    @pytest.mark.parametrize("layout", LAYOUTS)
    def test_square_to_led_is_a_bijection(self, corner, layout):
        leds = [board_config.square_to_led(s, corner, layout) for s in range(64)]
        assert sorted(leds) == list(range(64))
        for square, index in enumerate(leds):
            assert board_config.led_to_square(index, corner, layout) == square

    @pytest.mark.parametrize("layout", LAYOUTS)
    def test_led_chain_starts_at_row0_col0_and_runs_along_rows(self, layout):
        cells = [board_config.led_to_rc(i, layout) for i in range(64)]
        assert cells[0] == (0, 0)
        for i in range(1, 64):
            (r0, c0), (r1, c1) = cells[i - 1], cells[i]
            if layout == "serpentine":
                assert abs(r1 - r0) + abs(c1 - c0) == 1, "LEDs %d and %d are not neighbours" % (i - 1, i)
            elif i % 8:
                assert (r1, c1) == (r0, c0 + 1)

    def test_default_wiring(self):
        """White at the USB edge, so a1 is LED 0 and ranks are matrix rows."""
        assert board_config.A1_CORNER == "near-left"
        assert board_config.square_to_rc(0) == (0, 0)
        assert board_config.square_to_rc(63) == (7, 7)
        assert board_config.square_to_led(0) == 0

    def test_unknown_geometry_is_refused(self):
        with pytest.raises(ValueError):
            board_config.square_to_rc(0, "middle")
        with pytest.raises(ValueError):
            board_config.rc_to_square(0, 0, "middle")
        with pytest.raises(ValueError):
            board_config.rc_to_led(0, 0, "spiral")
        with pytest.raises(ValueError):
            board_config.led_to_rc(0, "spiral")

    def test_documented_chain_order_matches_the_mapping(self):
        """Read the committed pinout.md as a maker would and compare with the firmware's mapping."""
        with open(os.path.join(ROOT, "hardware", "pinout.md"), encoding="utf-8") as f:
            text = f.read()
        grid = {name: int(led) for name, led in re.findall(r"([a-h][1-8]) \(LED (\d+)\)", text)}
        assert len(grid) == 64
        for square in range(64):
            assert grid[board_data.square_name(square)] == board_config.square_to_led(square)
        chain = []
        for row in re.findall(r"^\| \d+-\d+ \| (.*) \|$", text, re.MULTILINE):
            chain += row.split(" -> ")
        assert chain == [board_data.square_name(board_config.led_to_square(i)) for i in range(64)]

    def test_device_modules_import_no_hardware_or_host_only_features(self):
        allowed = {"micropython", "board_config", "sys", "os"}
        for rel in ("firmware/board_config.py", "host_tools/fakehw/matrix.py"):
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [node.module]
                else:
                    continue
                for name in names:
                    assert name in allowed, "%s imports %s" % (rel, name)


class TestMatrixModel:
    def test_empty_board(self):
        matrix = ReedMatrix()
        assert scan(matrix) == []
        cols = (matrix.gpio_in() >> board_config.COL_SHIFT) & board_config.COL_MASK
        assert cols == 0xFF, "idle columns read 1 through their pull-ups"

    def test_32_pieces_read_back_exactly(self):
        matrix = ReedMatrix()
        matrix.set_squares(START_POSITION)
        assert scan(matrix) == START_POSITION

    def test_every_square_alone(self):
        matrix = ReedMatrix()
        for square in range(64):
            matrix.set_squares([square])
            assert scan(matrix) == [square], board_data.square_name(square)

    def test_dense_patterns_never_ghost_with_diodes(self):
        rng = random.Random(6)
        matrix = ReedMatrix()
        patterns = [list(range(64)), []] + [rng.sample(range(64), rng.randint(1, 40)) for _ in range(60)]
        for squares in patterns:
            matrix.set_squares(squares)
            assert scan(matrix) == sorted(squares)

    def test_driven_row_reads_low_and_the_rest_float(self):
        matrix = ReedMatrix()
        matrix.place(0)
        row0 = board_config.ROW_PINS[0]
        matrix.drive(row0, 0)
        assert matrix.read(row0) == 0
        assert matrix.read(board_config.COL_PINS[0]) == 0
        assert matrix.read(board_config.COL_PINS[1]) == 1
        assert matrix.read(board_config.LED_PIN) == 0  # not driven: floats, reads 0 here

    def test_ghosting_without_diodes(self):
        """a1, b1, a2 down: without diodes b2 appears; with them it does not."""
        a1, b1, a2, b2 = 0, 1, 8, 9
        bare = ReedMatrix(diodes=False)
        bare.set_squares([a1, b1, a2])
        assert scan(bare) == [a1, b1, a2, b2]
        real = ReedMatrix()
        real.set_squares([a1, b1, a2])
        assert scan(real) == [a1, b1, a2]

    def test_idle_rows_driven_high_short_without_diodes(self):
        """Why idle rows are released: driven HIGH they fight the LOW row through two pieces in a column."""
        row0, row1 = board_config.ROW_PINS[0], board_config.ROW_PINS[1]
        for diodes in (True, False):
            matrix = ReedMatrix(diodes=diodes)
            matrix.set_squares([0, 8])  # a1 and a2 share column 0
            matrix.drive(row0, 0)
            matrix.drive(row1, 1)
            if diodes:
                assert matrix.read(board_config.COL_PINS[0]) == 0
            else:
                with pytest.raises(ShortCircuit):
                    matrix.gpio_in()

    def test_columns_need_their_pull_ups(self):
        matrix = ReedMatrix(pull_ups=False)
        col = board_config.COL_PINS[3]
        assert matrix.read(col) == 0  # floating
        matrix.pull(col, 1)
        assert matrix.read(col) == 1
        matrix.pull(col, None)
        assert matrix.read(col) == 0

    def test_buttons_read_low_when_pressed(self):
        matrix = ReedMatrix()
        pin = board_config.button_pin(board_config.DIAG_BUTTON)
        assert matrix.read(pin) == 1
        matrix.press(board_config.DIAG_BUTTON)
        assert matrix.read(pin) == 0
        matrix.press(board_config.DIAG_BUTTON, down=False)
        assert matrix.read(pin) == 1
        with pytest.raises(ValueError):
            matrix.press("no such button")

    def test_bad_pins_are_refused(self):
        matrix = ReedMatrix()
        with pytest.raises(ValueError):
            matrix.drive(30, 0)
        with pytest.raises(ValueError):
            matrix.read(-1)

    def test_a_wiring_change_shows_up_in_the_scan(self):
        """Turn the board: the model follows the config, and a scanner using the old map reads it rotated."""
        turned = config_with(A1_CORNER="far-right")
        matrix = ReedMatrix(config=turned)
        matrix.set_squares([0])  # a1
        assert scan(matrix, turned) == [0]
        assert scan(matrix) == [63]  # the default map calls that reed h8


class TestGeneratedDocs:
    def test_committed_docs_are_what_board_config_generates(self):
        for rel, text in hwdocs.generate().items():
            with open(os.path.join(ROOT, rel), encoding="utf-8", newline="") as f:
                assert f.read() == text, "%s is stale: run python -m host_tools.hwdocs" % rel

    def test_check_names_a_stale_file(self, tmp_path, capsys):
        assert hwdocs.main(["--check"]) == 0
        for rel, text in hwdocs.generate().items():
            path = tmp_path / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert hwdocs.main(["--check", "--root", str(tmp_path)]) == 0
        (tmp_path / "hardware" / "pinout.md").write_text("hand edited\n", encoding="utf-8")
        assert hwdocs.main(["--check", "--root", str(tmp_path)]) == 1
        assert "hardware/pinout.md" in capsys.readouterr().err

    def test_docs_follow_a_wiring_change(self):
        moved = config_with(LED_PIN=21, BUTTONS=(("diag", 18), ("undo", 20)))
        docs = hwdocs.generate(moved)
        assert "| GP21 | 27 | LED_DATA |" in docs["hardware/pinout.md"]
        assert docs["hardware/wiring.svg"] != hwdocs.generate()["hardware/wiring.svg"]

    def test_pinout_names_every_used_gpio_and_its_header_pin(self):
        text = hwdocs.generate()["hardware/pinout.md"]
        for gpio, net, _kind, _role, _to in board_data.pin_roles(board_config):
            assert "| GP%d | %d | %s |" % (gpio, board_data.gpio_to_header_pin(gpio), net) in text

    def test_svgs_are_well_formed(self):
        import xml.etree.ElementTree as ET

        for rel in ("hardware/wiring.svg", "hardware/schematic.svg"):
            root = ET.fromstring(hwdocs.generate()[rel].encode("utf-8"))
            assert root.tag == "{http://www.w3.org/2000/svg}svg"


class TestPowerBudget:
    def test_worst_frame_fits_a_usb_port_with_the_pico(self):
        worst = board_config.worst_case_ma()
        assert worst <= board_config.POWER_TARGET_MA <= board_config.USB_PORT_MA == 500

    def test_budget_uses_the_firmware_cap(self):
        budget = board_data.power_budget(board_config)
        assert budget["level"] == board_config.LED_MAX_LEVEL
        assert budget["total_ma"] == pytest.approx(board_config.worst_case_ma(board_config.LED_MAX_LEVEL))
        assert budget["total_ma"] <= 500

    def test_figures_are_not_optimistic(self):
        """Recompute from the published figures so the budget cannot be tuned to pass."""
        assert board_config.LED_CHANNEL_MA >= 20  # WS2812B: ~20 mA per channel at 255
        assert board_config.LED_IDLE_MA >= 1
        assert board_config.PICO_MA >= 25
        cap = board_config.LED_MAX_LEVEL
        worst = 64 * (3 * 20 * cap / 255 + 1) + 25
        assert worst <= 500
        assert board_config.worst_case_ma(255) > 500, "without a cap the board would overload USB"

    def test_cap_is_the_highest_that_meets_the_target(self):
        assert board_config.LED_MAX_LEVEL == board_data.max_level_within(board_config, board_config.POWER_TARGET_MA)

    def test_the_comment_states_the_cap(self):
        with open(os.path.join(ROOT, "firmware", "board_config.py"), encoding="utf-8") as f:
            source = f.read()
        assert "%d/255" % board_config.LED_MAX_LEVEL in source
        assert "= %d mA" % int(board_config.worst_case_ma()) in source


class TestBom:
    def rows(self):
        with open(os.path.join(ROOT, "hardware", "bom.csv"), encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    def quantity(self, rows, value):
        return sum(int(r["quantity"]) for r in rows if r["value"].startswith(value))

    def test_counts_follow_the_board(self):
        rows = self.rows()
        assert self.quantity(rows, "normally open, 10-20 AT") == 64
        assert self.quantity(rows, "1N4148") == 64
        assert self.quantity(rows, "WS2812B") == board_config.LED_COUNT
        assert self.quantity(rows, "74AHCT125") == 1
        assert self.quantity(rows, "10 x 3 mm") == 32
        buttons = [r for r in rows if r["part"] == "Tactile push button"]
        assert sum(int(r["quantity"]) for r in buttons) == len(board_config.BUTTONS)

    def test_total_and_part_numbers(self):
        rows = self.rows()
        total = [r for r in rows if r["ref"] == "TOTAL"]
        parts = [r for r in rows if r["ref"] != "TOTAL"]
        required = [r for r in parts if r["required"] == "yes"]
        assert len(total) == 1
        assert int(total[0]["quantity"]) == sum(int(r["quantity"]) for r in required if r["unit"] == "pcs")
        for r in parts:
            assert r["example_mpn"] and r["manufacturer"] and r["value"], r["ref"]
            assert r["required"] in ("yes", "no"), r["ref"]


class TestGuide:
    """The hand-written guide quotes a few pins and figures; they must be the current ones."""

    def text(self):
        with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
            return f.read()

    def test_quoted_pins_are_the_pin_map(self):
        text = self.text()
        rows, cols = board_config.ROW_PINS, board_config.COL_PINS
        assert "| GP%d-GP%d |" % (rows[0], rows[-1]) in text
        assert "| GP%d-GP%d |" % (cols[0], cols[-1]) in text
        assert "| GP%d |" % board_config.LED_PIN in text
        buttons = ", ".join("GP%d" % pin for _name, pin in board_config.BUTTONS)
        assert "| %s |" % buttons in text
        assert "`%s` button (GP%d)" % (board_config.DIAG_BUTTON, board_config.button_pin(board_config.DIAG_BUTTON)) in text

    def test_quoted_power_figures_are_the_budget(self):
        text = self.text()
        assert "(%d of 255)" % board_config.LED_MAX_LEVEL in text
        assert "%d mA including the Pico" % int(board_config.worst_case_ma()) in text
