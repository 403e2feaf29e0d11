"""The PCB description beside board_config: what board_config does not say.

board_config says which pin does what, the LED order and the square size;
this says how the copper is made: design rules a common fab meets, track
widths for the power budget, the parts and where the fab may place them.
Everything in host_tools/pcb reads its numbers from here.
"""

# --- Fab and design rules (JLCPCB's standard 2-layer process allows 0.127 mm
# tracks and gaps and 0.3 mm vias; we stay well inside it) ---
FAB = "JLCPCB"
LAYERS = 2
THICKNESS_MM = 1.6
COPPER_OZ = 1  # outer layers, 35 um
CLEARANCE = 0.2  # copper to copper
EDGE_CLEARANCE = 0.4  # copper to the board's edge
SIGNAL_TRACK = 0.25
VIA = 0.6  # copper diameter
VIA_DRILL = 0.3
GRID = 0.635  # the router's pitch: a quarter of 2.54 mm, so header pins sit on it

# --- Power: the worst frame of hardware/power.md through the copper ---
# IPC-2221 for an outer layer: I = 0.048 * dT**0.44 * A**0.725 (I in A, dT in
# degC, A in mil^2). We size for the whole board's worst current on the
# carrier and one rank's on a strip, at a 10 degC rise.
TEMPERATURE_RISE_C = 10
POWER_TRACK = 0.5
POWER_NETS = ("+5V", "GND")

# --- The rank strip ---
STRIP_WIDTH = 32.0  # across the rank; the LEDs sit STRIP_CENTRE from its top edge
STRIP_CENTRE = 12.0
STRIP_GAP = 0.5  # between a strip's end and the next part of the frame

# Reed: a 14 mm glass body on leads bent to 22.86 mm (9 x 2.54): the bend
# stays 4.4 mm from the glass (the makers ask for at least 2-3 mm).
REED_PITCH = 22.86
REED_GLASS = 14.0
REED_OFFSET = 5.0  # the reed's axis, this far from the square's centre line
LED_TO_CAP = 4.5  # the 100 nF sits beside its LED


def ipc2221_width_mm(current_a, rise_c=TEMPERATURE_RISE_C, oz=COPPER_OZ):
    """The narrowest outer-layer track (mm) that carries `current_a` with a `rise_c` temperature rise."""
    area_mil2 = (current_a / (0.048 * rise_c**0.44)) ** (1 / 0.725)
    thickness_mil = 1.378 * oz
    return area_mil2 / thickness_mil * 0.0254


# --- Parts: value, manufacturer part number, and whether the fab places them ---
# (JLCPCB assembles the SMD parts on one side; the maker solders what is THT.)
PARTS = {
    "led": ("WS2812B", "Worldsemi WS2812B-V5", True),
    "led_cap": ("100nF", "Samsung CL10B104KB8NNNC (0603 X7R 50 V)", True),
    "diode": ("1N4148W", "Diodes Inc. 1N4148W-7-F (SOD-123)", True),
    "reed": ("reed NO 10-20 AT", "Littelfuse MACD-14 (14 mm glass)", False),
    "strip_header": ("IDC 2x7", "2x7 2.54 mm shrouded box header", False),
    "pico": ("Raspberry Pi Pico", "Raspberry Pi SC0915", False),
    "shifter": ("74AHCT125", "Texas Instruments SN74AHCT125DR (SOIC-14)", True),
    "data_resistor": ("330", "Yageo RC0603FR-07330RL (0603)", True),
    "shifter_cap": ("100nF", "Samsung CL10B104KB8NNNC (0603 X7R 50 V)", True),
    "bulk_cap": ("1000uF 16V", "Nichicon UVR1C102MPD (10 mm, 5 mm pitch)", False),
    "buttons_header": ("1x5 header", "2.54 mm pin header", False),
    "display_header": ("1x4 header", "2.54 mm pin header", False),
    "mounting_hole": ("M3", "", False),
}
