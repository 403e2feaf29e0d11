"""The columns as RC circuits: how long each takes to read 1 again after a closed reed let go of it.

A column net runs from the Pico's pin across the carrier, then through a ribbon and
along a strip for each of the eight rows: a few hundred pF in all. When the scan
releases a row, the columns its closed reeds held LOW (at the diode's drop) charge back
through their pull-ups; the next row must not be read before they pass the input's
high threshold, or a piece shows once more one row further on (a ghost). This module
puts numbers on it, from the copper `make pcb` routed (column_copper.py) and the
figures below, each with where it comes from; machine.py applies the delays to what
GPIO_IN reads.

Plain Python that also runs on MicroPython (floats only when a board is set up).
"""

import math

try:
    import board_config
except ImportError:  # on the host, run from a checkout: firmware/ holds it
    import sys
    from os import path

    sys.path.insert(0, path.join(path.dirname(path.dirname(path.dirname(path.abspath(__file__)))), "firmware"))
    import board_config

try:
    import column_copper
except ImportError:  # imported as host_tools.fakehw.columns
    from host_tools.fakehw import column_copper

VDD = 3.3
V_IH = 2.0             # the RP2040's input-high threshold at IOVDD 3.3 V (datasheet, GPIO electrical specification)
V_CLOSED = 0.5         # a column a closed reed holds: the 1N4148W's drop at tens of uA
INTERNAL_OHMS = (50000, 80000)   # the RP2040's pull-up, min and max (datasheet)
# Track over the other layer's ground fill, 0.25 mm wide on 1.6 mm FR-4 (er 4.5, 35 um copper):
# IPC-2141's microstrip, C = 0.67 (er + 1.41) / ln(5.98 h / (0.8 w + t)) pF per inch. The fill beside
# the track adds more: this is the low side.
TRACK_PF_PER_M = 0.67 * (4.5 + 1.41) / math.log(5.98 * 1.6 / (0.8 * 0.25 + 0.035)) / 0.0254
RIBBON_M = 0.4         # each strip's ribbon, cut to the longest run (a corner of the board to the carrier)
RIBBON_PF_PER_M = 75   # between neighbours: TE's 0.64 mm PVC flat cable, 23 pF/ft; a 1.27 mm one has less
DIODE_PF = 4           # the 1N4148W at 0 V (datasheet maximum), one per square
PAD_PF = 1             # a through-hole pad: per row the carrier's header pin, the strip's two, the reed's
PIN_PF = 5             # the RP2040's pad and its input (an assumption: the datasheet gives none)


def strip_reversed(row, config=board_config):
    """True when row `row`'s strip is mounted turned round (its LEDs run from column 7 to 0): as
    host_tools/pcb/boards.strip_is_reversed says, without the PCB generator (this runs on MicroPython)."""
    return config.rc_to_led(row, 1) < config.rc_to_led(row, 0)


def column_pf(column, config=board_config, ribbon_m=RIBBON_M):
    """The capacitance (pF) column `column`'s pull-up charges: copper, ribbons, pads, diodes, the pin."""
    mm = column_copper.CARRIER_COL_MM[column]
    for row in range(8):
        mm += column_copper.STRIP_POS_MM[7 - column if strip_reversed(row, config) else column]
    return (mm / 1000.0 * TRACK_PF_PER_M + 8 * ribbon_m * RIBBON_PF_PER_M
            + 8 * DIODE_PF + 8 * 4 * PAD_PF + PIN_PF)


class ColumnLoads:
    """Each column's capacitance and pull-up: `pull_up_ohms` the carrier's resistor per column
    (None: rev 1, none fitted), `internal_ohms` the Pico's own (its datasheet's worst by default)."""

    def __init__(self, pull_up_ohms=None, internal_ohms=INTERNAL_OHMS[1], config=board_config):
        self.config = config
        self.pf = [column_pf(column, config) for column in range(8)]
        ohms = internal_ohms
        if pull_up_ohms:
            ohms = 1.0 / (1.0 / internal_ohms + 1.0 / pull_up_ohms)
        self.ohms = ohms

    def tau_us(self, column):
        return self.pf[column] * 1e-12 * self.ohms * 1e6

    def recovery_us(self, column, start_v=V_CLOSED):
        """Microseconds from `start_v` up to the input's high threshold."""
        return self.tau_us(column) * math.log((VDD - start_v) / (VDD - V_IH))

    def by_pin(self):
        """{GPIO: (us after a closed reed let go, us after the pin's own driver let go)}, rounded up."""
        out = {}
        for column, pin in enumerate(self.config.COL_PINS):
            out[pin] = (int(math.ceil(self.recovery_us(column))), int(math.ceil(self.recovery_us(column, 0.0))))
        return out
