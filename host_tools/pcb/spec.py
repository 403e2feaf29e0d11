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
SILK_TEXT = 1.0  # the fab's smallest legible silkscreen text (JLCPCB: 1.0 mm high, 0.15 mm stroke)
SILK_STROKE = 0.15
GRID = 0.635  # the router's pitch: a quarter of 2.54 mm, so header pins sit on it

# --- Power: the worst frame of hardware/power.md through the copper ---
# IPC-2221 for an outer layer: I = 0.048 * dT**0.44 * A**0.725 (I in A, dT in
# degC, A in mil^2). We size for the whole board's worst current on the
# carrier and one rank's on a strip, at a 10 degC rise.
TEMPERATURE_RISE_C = 10
POWER_TRACK = 0.5
POWER_NETS = ("+5V", "VBUS", "GND")

# --- The rank strip ---
STRIP_WIDTH = 32.0  # across the rank; the squares' centre line (the reeds' axis) sits STRIP_CENTRE from its top edge
STRIP_CENTRE = 12.0
STRIP_GAP = 0.5  # between a strip's end and the next part of the frame

# Reed: a 14 mm glass body on leads bent to 22.86 mm (9 x 2.54): the bend
# stays 4.4 mm from the glass (the makers ask for at least 2-3 mm).
REED_PITCH = 22.86
REED_GLASS = 14.0
# Where the reed lies: on the squares' centre line, one end of its glass under the square's centre.
# A magnet standing over a flat reed's middle drives no flux along it (host_tools/pcb/reed_field.py
# gives the figures): the end is where it closes, so the end goes under the piece and the LED beside it.
LED_OFFSET = 5.0  # the LED's centre, this far from the centre line toward the strip's top edge
LED_TO_CAP = 4.5  # the 100 nF sits beside its LED
SERIES_OHMS = 33  # each strip's data output drives the next strip through this (a 1-1.6 m line)

# --- Power on the carrier ---
FUSE_HOLD_MA = 500  # the resettable fuse between the Pico's VBUS and the board's +5 V
# On +5 V: 220 uF rather than 1000 uF, a fifth of the charge USB's inrush check counts (USB 2.0 allows
# 10 uF, 50 uC, at the plug: no board with 64 LEDs meets that without a soft-start switch).
BULK_UF = 220

# --- The column pull-ups ---
# Each column net runs through eight ribbons and eight strips: about 450 pF. The Pico's own
# pull-up (50-80 kOhm) takes 17-28 us to bring it from a closed reed's LOW back above the input
# threshold; with a 10 kOhm one per column on the carrier, about 3 us (host_tools/fakehw/columns.py).
COLUMN_PULLUP_OHMS = 10000


def ipc2221_width_mm(current_a, rise_c=TEMPERATURE_RISE_C, oz=COPPER_OZ):
    """The narrowest outer-layer track (mm) that carries `current_a` with a `rise_c` temperature rise."""
    area_mil2 = (current_a / (0.048 * rise_c**0.44)) ** (1 / 0.725)
    thickness_mil = 1.378 * oz
    return area_mil2 / thickness_mil * 0.0254


# --- Parts: value, manufacturer part number, and whether the fab places them ---
# (JLCPCB assembles the SMD parts on one side; the maker solders what is THT.)
PARTS = {
    "led": ("WS2812B", "Worldsemi WS2812B-B/W", True),
    "led_cap": ("100nF", "YAGEO CC0603KRX7R9BB104 (0603 X7R 50 V)", True),
    "diode": ("1N4148W", "ST (Semtech) 1N4148W (SOD-123)", True),
    "reed": ("reed NO 10-20 AT", "Littelfuse MACD-14 (14 mm glass)", False),
    "strip_header": ("IDC 2x7", "2x7 2.54 mm shrouded box header", False),
    "series_resistor": (str(SERIES_OHMS), "UNI-ROYAL 0603WAF330JT5E (0603)", True),
    "solder_jumper": ("jumper", "solder jumper, open: bridge it with solder", False),
    "pico": ("Raspberry Pi Pico", "Raspberry Pi SC0915", False),
    "shifter": ("74AHCT125", "Texas Instruments SN74AHCT125DR (SOIC-14)", True),
    "data_resistor": ("330", "UNI-ROYAL 0603WAF3300T5E (0603)", True),
    "shifter_cap": ("100nF", "YAGEO CC0603KRX7R9BB104 (0603 X7R 50 V)", True),
    "column_pullup": ("%dk" % (COLUMN_PULLUP_OHMS // 1000), "UNI-ROYAL 0603WAF1002T5E (0603)", True),
    "fuse": ("PTC %gA" % (FUSE_HOLD_MA / 1000.0), "Littelfuse 1206L050YR (1206, 0.5 A hold, 1 A trip, 6 V)", True),
    "bulk_cap": ("%duF 25V" % BULK_UF, "Rubycon 25YXJ220M6.3X11 (6.3 mm, 2.5 mm pitch)", False),
    "buttons_header": ("1x5 header", "2.54 mm pin header", False),
    "display_header": ("1x4 header", "2.54 mm pin header", False),
    "mounting_hole": ("M3", "", False),
}

# --- LCSC's part numbers (JLCPCB assembles from LCSC's stock) and where each was read. Stock and
# prices change: the order sheet marks them "check stock". ---
LCSC = {
    "led": ("C114586", "https://lcsc.com/product-detail/Light-Emitting-Diodes-LED_Worldsemi-WS2812B-B_C114586.html"),
    "led_cap": ("C14663", "https://www.lcsc.com/product-detail/YAGEO-C14663.html"),
    "shifter_cap": ("C14663", "https://www.lcsc.com/product-detail/YAGEO-C14663.html"),
    "diode": ("C81598", "https://lcsc.com/product-detail/Switching-Diode_ST-Semtech-1N4148W_C81598.html"),
    "shifter": ("C155176", "https://lcsc.com/product-detail/Logic-Buffers-Drivers-Receivers-Transceivers_"
                           "Texas-Instruments-SN74AHCT125DR_C155176.html"),
    "data_resistor": ("C23138", "https://lcsc.com/product-detail/Chip-Resistor-Surface-Mount_"
                                "UNI-ROYAL-Uniroyal-Elec-0603WAF3300T5E_C23138.html"),
    "series_resistor": ("C23140", "https://www.lcsc.com/product-detail/C23140.html (0603WAF330JT5E)"),
    "column_pullup": ("C25804", "https://lcsc.com/product-detail/Chip-Resistor-Surface-Mount_"
                                "UNI-ROYAL-Uniroyal-Elec-0603WAF1002T5E_C25804.html"),
    "fuse": ("C163512", "https://lcsc.com/product-detail/Resettable-Fuses_Littelfuse-1206L050YR_C163512.html"),
    "bulk_cap": ("C88729", "https://www.lcsc.com/product-detail/C88729.html (Rubycon 25YXJ220M6.3X11)"),
}

# --- The assembly house's zero angle, per footprint ---
# KiCad's footprints and JLCPCB's part models do not all share a zero rotation: the placement file adds
# this to KiCad's angle for footprints whose name starts with the prefix (others: 0, as both tables
# below leave the 0603 passives, SOD-123 and 1206). Where the public tables disagree, the order sheet
# lists the part among those to check in the fab's preview.
FAB_ROTATIONS = (
    # (footprint name prefix, degrees added, sources)
    ("SOIC-", 270, "JLCKicadTools cpl_rotations_db.csv ('^SOIC-', 270); KiBot's rot_footprint filter ('^SOIC-', 270)"),
    ("LED_WS2812B_PLCC4", 180, "KiBot's rot_footprint filter ('^LED_WS2812B_PLCC4', 180); JLCKicadTools lists no "
     "correction and a public note says KiCad's already matches: check it in the preview"),
)


def fab_rotation(footprint, degrees):
    """The angle the placement file gives a part: KiCad's `degrees` plus FAB_ROTATIONS' offset for its
    footprint (`library:name` or `name`), in 0..359."""
    name = footprint.split(":")[-1]
    for prefix, offset, _sources in FAB_ROTATIONS:
        if name.startswith(prefix):
            return int(round(degrees + offset)) % 360
    return int(round(degrees)) % 360
