"""The two PCBs, as data: every part, where it sits, and which net each pad joins.

A board is eight identical **rank strips** (one under each row of the reed
matrix: an LED, its capacitor, a reed and its diode under every square) and
one **carrier** with the Pico, the level shifter and a connector per strip.
Why this split: one strip design ordered eight times is what a maker can
afford (a fab's price is per design and per area; a strip is a narrow board),
a strip is swapped with a ribbon cable, and every choice of board_config
(which pin is which row and column, the LED order) lives on the carrier, so
the strips never change with the wiring.

The strip's two connectors J1 and J2 carry the same signals on the same
pins, J2 turned 180 degrees at the far end: a strip whose LEDs must run right
to left (the odd rows of a serpentine chain) is mounted turned round and
cabled at J2, which then sits where J1 would. Turned round, its square 0 is
the row's column 7, so the carrier wires that strip's columns in reverse.

Pure data from board_config and spec (no KiCad): host_tools/pcb/kicad_board.py
lays it out and routes it; tests/test_pcb.py checks it against the reed
matrix model of host_tools/fakehw.
"""

from host_tools.board_data import PICO_HEADER  # the Pico's 40 pins, pin 1 at the top left with USB up
from host_tools.board_data import ROOT, board_config
from host_tools.pcb import spec

# What each pin of a strip's 14-way connector carries (J1 and J2 alike). +5V
# on pin 1 (the keyed, marked pin); a GND between the two LED data wires.
STRIP_PINOUT = {
    "1": "+5V",
    "2": "GND",
    "3": "DIN",
    "4": "GND",
    "5": "DOUT",
    "6": "ROW",
    "7": "POS0",
    "8": "POS1",
    "9": "POS2",
    "10": "POS3",
    "11": "POS4",
    "12": "POS5",
    "13": "POS6",
    "14": "POS7",
}

FOOTPRINT_LIBRARY = "Scacchiera"  # hardware/pcb/Scacchiera.pretty: the two footprints KiCad lacks


def snap(value):
    """The nearest point of the router's grid."""
    return round(value / spec.GRID) * spec.GRID


def snap_up(value):
    steps = value / spec.GRID
    whole = int(steps)
    return (whole if whole >= steps - 1e-9 else whole + 1) * spec.GRID


class Part:
    """One footprint on a board: `nets` maps pad numbers to net names."""

    def __init__(self, ref, kind, footprint, x, y, rotation, nets, side="top", serves=None):
        self.ref = ref
        self.side = side  # "bottom": soldered from underneath (KiCad flips it to B.Cu)
        self.kind = kind
        self.footprint = footprint
        self.x = x
        self.y = y
        self.rotation = rotation
        self.nets = nets
        self.serves = serves  # a solder jumper: the connector ("J1"/"J2") it joins to the LEDs when bridged

    @property
    def value(self):
        return spec.PARTS[self.kind][0]

    @property
    def assembled(self):
        """True when the fab places it (SMD on the top side)."""
        return spec.PARTS[self.kind][2]


class Text:
    """Silkscreen text; `rotation` 180 reads right for a strip mounted turned round."""

    def __init__(self, x, y, text, size=1.5, rotation=0, layer="F.SilkS"):
        self.x = x
        self.y = y
        self.text = text
        self.size = size
        self.rotation = rotation
        self.layer = layer


class Board:
    def __init__(self, name, title, width, height):
        self.name = name
        self.title = title
        self.width = width
        self.height = height
        self.parts = []
        self.texts = []
        self.holes = []  # (x, y): M3 mounting holes
        self.notes = {}  # figures the docs quote (how far a strip reaches past the squares)

    def add(self, part):
        self.parts.append(part)
        return part

    def nets(self):
        """Net name -> [(ref, pad)], sorted, for every net with a pad on this board."""
        out = {}
        for part in self.parts:
            for pad, net in part.nets.items():
                out.setdefault(net, []).append((part.ref, pad))
        return {net: sorted(pads) for net, pads in sorted(out.items())}

    def track_width(self, net):
        return spec.POWER_TRACK if net in spec.POWER_NETS else spec.SIGNAL_TRACK


# --- what board_config decides ---


def square_label(col, config=board_config):
    """The name a strip's square at column `col` shows on every row: its file letter, or its rank digit
    when the board is turned a quarter (A1_CORNER near-right / far-left: a matrix row is then a file)."""
    squares = [config.rc_to_square(row, col) for row in range(8)]
    files = set(square & 7 for square in squares)
    if len(files) == 1:
        return "abcdefgh"[files.pop()]
    ranks = set(square >> 3 for square in squares)
    if len(ranks) == 1:
        return str(ranks.pop() + 1)
    raise ValueError("A1_CORNER gives column %d no single file or rank" % col)


def strip_is_reversed(row, config=board_config):
    """True when row `row`'s LEDs run from column 7 to column 0: its strip is mounted turned round."""
    leds = [config.rc_to_led(row, col) for col in range(8)]
    if leds == list(range(leds[0], leds[0] + 8)):
        return False
    if leds == list(range(leds[0], leds[0] - 8, -1)):
        return True
    raise ValueError("row %d's LEDs are not consecutive along the row: a strip cannot carry them" % row)


def strip_column(row, position, config=board_config):
    """The matrix column of square `position` (0 = next to J1) of row `row`'s strip."""
    return 7 - position if strip_is_reversed(row, config) else position


def chain_order(config=board_config):
    """Matrix rows in the order the LED data passes through their strips."""
    firsts = []
    for row in range(8):
        leds = [config.rc_to_led(row, col) for col in range(8)]
        firsts.append((min(leds), row))
    return [row for _first, row in sorted(firsts)]


def gpio_net(gpio, config=board_config):
    """The carrier's name for the net on GPIO `gpio` (None: not used)."""
    if gpio in config.COL_PINS:
        return "COL%d" % config.COL_PINS.index(gpio)
    if gpio in config.ROW_PINS:
        return "ROW%d" % config.ROW_PINS.index(gpio)
    if gpio == config.LED_PIN:
        return "LED_3V3"
    if gpio == config.OLED_SDA:
        return "SDA"
    if gpio == config.OLED_SCL:
        return "SCL"
    for name, pin in config.BUTTONS:
        if pin == gpio:
            return "BTN_" + name.upper()
    return None


# --- the rank strip ---


def strip(config=board_config):
    """The rank strip: eight squares of `SQUARE_MM`, J1 at the left end, J2 at the right."""
    crowded = [(row, gap) for row, gap in enumerate(strip_gaps(config)) if gap < spec.STRIP_GAP]
    if crowded:
        row, gap = crowded[0]
        raise ValueError("SQUARE_MM %s leaves rows %d and %d's strips %.1f mm apart (a strip turned round reaches "
                         "%.0f mm toward its neighbour): use squares of %d mm or more, or LED_LAYOUT row-major"
                         % (config.SQUARE_MM, row, row + 1, gap, spec.STRIP_WIDTH - spec.STRIP_CENTRE,
                            int(2 * (spec.STRIP_WIDTH - spec.STRIP_CENTRE) + spec.STRIP_GAP + 0.999)))
    size = float(config.SQUARE_MM)
    centre = spec.STRIP_CENTRE
    led_y = centre - spec.LED_OFFSET
    reed_y = snap(centre)
    diode_y = snap(reed_y + 3.81)
    # J1: a 2x7 header standing across the strip (its courtyard: 3.68 left of pin 1, 6.22 right, 5.6 above).
    j1_x = snap_up(spec.STRIP_GAP + 4.8)  # its silkscreen box reaches 4.7 mm left of pin 1
    j1_y = snap(spec.STRIP_WIDTH / 2 - 7.62)
    j1_right = j1_x + 6.22
    lead = (spec.REED_PITCH - spec.REED_GLASS) / 2  # reed pad to the end of the glass
    # The playing area's left edge, on the strip: square 0's reed must clear J1.
    start = max(spec.STRIP_GAP, j1_right + 0.5 + 1.0 + lead - size / 2)
    board = Board("strip", "Scacchiera rank strip", 0, spec.STRIP_WIDTH)
    right = 0.0
    for position in range(8):
        x = start + position * size + size / 2  # the square's centre
        n = position + 1
        board.add(Part("LED%d" % n, "led", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", x, led_y, 90,
                       {"1": "+5V", "2": "DOUT_LED" if position == 7 else "CHAIN%d" % n,
                        "3": "GND", "4": "DIN" if position == 0 else "CHAIN%d" % position}))
        board.add(Part("C%d" % n, "led_cap", "Capacitor_SMD:C_0603_1608Metric", x + spec.LED_TO_CAP, led_y, 90,
                       {"1": "+5V", "2": "GND"}))
        # The reed lies along the squares' centre line, one end of its glass under the square's centre
        # (spec.py: a flat reed closes when the magnet is over an end of the glass, not over its middle).
        reed_x = snap(x - lead)
        board.add(Part("SW%d" % n, "reed", FOOTPRINT_LIBRARY + ":Reed_Glass14mm_P22.86mm", reed_x, reed_y, 0,
                       {"1": "POS%d" % position, "2": "REED%d" % n}))
        anode_x = reed_x + spec.REED_PITCH - 0.8
        board.add(Part("D%d" % n, "diode", "Diode_SMD:D_SOD-123", anode_x - 1.65, diode_y, 0,
                       {"1": "ROW", "2": "REED%d" % n}))
        right = max(right, reed_x + spec.REED_PITCH + 1.0)
    # J2: J1 turned 180 degrees at the far end (its courtyard now 6.22 left of pin 1, 3.68 right).
    j2_x = snap_up(right + 0.5 + 6.22)
    board.width = snap_up(j2_x + 4.8 + spec.STRIP_GAP)
    # The headers stand on the underside: the strip hangs under the top panel, its top side carrying
    # nothing taller than the reed's glass, and the cable plugs in from below.
    # Flipped, a header's pin rows run the other way from its pin 1: both keep their pins on J1's rows.
    for ref, x, y, rotation in (("J1", j1_x, j1_y + 15.24, 0), ("J2", j2_x, j1_y, 180)):
        board.add(Part(ref, "strip_header", "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical", x, y, rotation,
                       strip_header_nets(ref), side="bottom"))
    _strip_data_path(board, start, size, led_y)
    board.notes["header_centres"] = {"J1": (j1_x + 1.27, j1_y + 7.62), "J2": (j2_x - 1.27, j1_y + 7.62)}
    board.texts = _strip_texts(board, start, size, led_y, config)
    # Four M3 holes along the long edge away from the LEDs: one near each end (no 100 mm of strip
    # hanging free), two between.
    ends = (snap(j1_right + 4.5), snap(j2_x - 6.22 - 4.5))
    for x in (ends[0], board.width * 0.35, board.width * 0.65, ends[1]):
        board.holes.append((snap(x), snap(spec.STRIP_WIDTH - 3.5)))
    # Where the squares are on the strip: they begin `start` mm from J1's end (the strip reaches that far
    # past the row's first square), and end `j2_overhang` before J2's.
    board.notes["j1_overhang"] = start
    board.notes["j2_overhang"] = board.width - (start + 8 * size)
    return board


def strip_header_nets(ref):
    """A strip connector's pads: STRIP_PINOUT, its LED data pins on nets of their own (DIN_J1, DOUT_J2...)
    that reach the LEDs only through that connector's solder jumpers."""
    nets = dict(STRIP_PINOUT)
    for pin, signal in STRIP_PINOUT.items():
        if signal in ("DIN", "DOUT"):
            nets[pin] = "%s_%s" % (signal, ref)
    return nets


def _strip_data_path(board, start, size, led_y):
    """The series resistor at the last LED's output and the four solder jumpers that join the LED data
    to the cabled connector only.

    The data runs the strip's length once: into LED1 at J1's end, out of LED8 at J2's end. A strip
    cabled at J1 takes DIN there and sends DOUT back along the strip to J1; one turned round, cabled at
    J2, the other way. Each connector's DIN and DOUT leave the LED through a jumper placed at the LED,
    so the unused connector's 0.4 m of trace is cut off where it starts: bridge the two jumpers marked
    with the cabled connector's name, leave the other two open."""
    first = start + size / 2
    last = start + 7.5 * size
    jumper = "Jumper:SolderJumper-2_P1.3mm_Open_Pad1.0x1.5mm"
    y = snap(led_y)
    board.add(Part("R1", "series_resistor", "Resistor_SMD:R_0603_1608Metric", snap(last + 9.0), y, 90,
                   {"1": "DOUT_LED", "2": "DOUT"}))
    for ref, x, nets, serves in (("JP1", first + 9.5, {"1": "DIN_J1", "2": "DIN"}, "J1"),
                                 ("JP2", first + 13.0, {"1": "DIN_J2", "2": "DIN"}, "J2"),
                                 ("JP3", last + 12.5, {"1": "DOUT", "2": "DOUT_J1"}, "J1"),
                                 ("JP4", last + 16.0, {"1": "DOUT", "2": "DOUT_J2"}, "J2")):
        board.add(Part(ref, "solder_jumper", jumper, snap(x), y, 90, nets, serves=serves))
        board.texts.append(Text(snap(x), y - 2.8, serves, 1.0))


def _strip_texts(board, start, size, led_y, config):
    """Each square's name both ways up (the upright one is right on a strip cabled at J1), the ends' roles."""
    texts = []
    forward = [row for row in range(8) if not strip_is_reversed(row, config)]
    backward = [row for row in range(8) if strip_is_reversed(row, config)]
    for position in range(8):
        x = start + position * size + size / 2
        texts.append(Text(x - 9.0, led_y, square_label(position, config), 2.0))
        texts.append(Text(x - 12.5, led_y, square_label(7 - position, config), 2.0, rotation=180))
    names = lambda rows: " ".join(row_name(row, config) for row in rows) or "none"  # noqa: E731
    texts.append(Text(start + size * 0.5 + 12, spec.STRIP_WIDTH - 2.2,
                      "J1 end for rows %s" % names(forward), 1.2))
    texts.append(Text(start + size * 7.5 - 12, spec.STRIP_WIDTH - 2.2,
                      "J2 end for rows %s" % names(backward), 1.2, rotation=180))
    texts.append(Text(start + size * 4, spec.STRIP_WIDTH - 2.2, "Scacchiera rank strip", 1.2))
    return texts


def row_name(row, config=board_config):
    """A matrix row as the player knows it: 'rank 1' or 'file a' (board turned a quarter)."""
    squares = [config.rc_to_square(row, col) for col in range(8)]
    ranks = set(square >> 3 for square in squares)
    if len(ranks) == 1:
        return str(ranks.pop() + 1)
    return "abcdefgh"[squares[0] & 7]


# --- the carrier ---


def carrier(config=board_config):
    """The Pico, the 74AHCT125 level shifter, a 14-way header per strip, the buttons' and display's headers."""
    board = Board("carrier", "Scacchiera carrier", snap(100.0), snap(100.0))
    pico_x = snap(board.width - 14.0)
    pico_y = snap(27.0)
    pico_nets = {}
    for index, name in enumerate(PICO_HEADER):
        net = None
        if name.startswith("GP"):
            net = gpio_net(int(name[2:]), config)
        elif name in ("GND", "AGND"):
            net = "GND"
        elif name == "VBUS":
            net = "VBUS"  # to +5V through the fuse
        elif name == "3V3(OUT)":
            net = "+3V3"
        if net:
            pico_nets[str(index + 1)] = net
    board.add(Part("U1", "pico", FOOTPRINT_LIBRARY + ":RaspberryPi_Pico_THT", pico_x, pico_y, 0, pico_nets))
    # One header per strip, in chain order: the data leaves each strip's DOUT for the next strip's DIN.
    order = chain_order(config)
    for index, row in enumerate(order):
        nets = {}
        for pin, signal in STRIP_PINOUT.items():
            if signal.startswith("POS"):
                nets[pin] = "COL%d" % strip_column(row, int(signal[3:]), config)
            elif signal == "ROW":
                nets[pin] = "ROW%d" % row
            elif signal == "DIN":
                nets[pin] = "DATA%d" % index
            elif signal == "DOUT":
                nets[pin] = "DATA%d" % (index + 1)
            else:
                nets[pin] = signal
        column, line = index % 4, index // 4
        x = snap(7.62 + column * 15.24)
        y = snap(13.335 + line * 45.72)
        board.add(Part("J%d" % (index + 1), "strip_header", "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical",
                       x, y, 0, nets))
        ends = "J2" if strip_is_reversed(row, config) else "J1"
        board.texts.append(Text(x + 1.27, y + 22.4, "ROW%d" % row, 1.1))
        board.texts.append(Text(x + 1.27, y + 24.1, "%s %s" % (row_name(row, config), ends), 1.1))
    last = "DATA%d" % len(order)
    for part in board.parts:
        for pin, net in list(part.nets.items()):
            if net == last:
                del part.nets[pin]  # the last strip's DOUT goes nowhere
    # Level shifter: gate 1 carries the data; the unused gates' inputs to GND, their enables high.
    shifter_x = snap(pico_x - 4.0)
    shifter_y = snap(67.0)
    board.add(Part("U2", "shifter", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", shifter_x, shifter_y, 0,
                   {"1": "GND", "2": "LED_3V3", "3": "LED_5V", "4": "+5V", "5": "GND", "7": "GND",
                    "9": "GND", "10": "+5V", "12": "GND", "13": "+5V", "14": "+5V"}))
    board.add(Part("R1", "data_resistor", "Resistor_SMD:R_0603_1608Metric", snap(shifter_x - 7.0),
                   snap(shifter_y - 3.81), 0, {"1": "LED_5V", "2": "DATA0"}))
    board.add(Part("C1", "bulk_cap", "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm", snap(shifter_x - 10.0),
                   snap(82.0), 0, {"1": "+5V", "2": "GND"}))
    # The fuse: the Pico's VBUS feeds the board's +5V through it (only the firmware holds the LEDs
    # to their budget; all white would draw about 4 A through the Pico's USB path).
    board.add(Part("F1", "fuse", "Fuse:Fuse_1206_3216Metric", snap(pico_x - 14.5), snap(pico_y - 17.0), 90,
                   {"1": "VBUS", "2": "+5V"}))
    # A 10 kOhm pull-up per column, to +3V3: the columns' wiring recovers in microseconds (spec.py).
    for column in range(8):
        board.add(Part("R%d" % (column + 2), "column_pullup", "Resistor_SMD:R_0603_1608Metric",
                       snap(36.0 + column * 3.81), snap(50.8), 90, {"1": "COL%d" % column, "2": "+3V3"}))
    board.texts.append(Text(snap(36.0 + 3.5 * 3.81), snap(50.8) - 2.6, "column pull-ups 10k", 1.0))
    board.add(Part("C2", "shifter_cap", "Capacitor_SMD:C_0603_1608Metric", snap(shifter_x + 6.5),
                   snap(shifter_y - 3.81), 0, {"1": "+5V", "2": "GND"}))
    buttons = {"1": "GND"}
    for index, (name, _pin) in enumerate(config.BUTTONS):
        buttons[str(index + 2)] = "BTN_" + name.upper()
    board.add(Part("J9", "buttons_header", "Connector_PinHeader_2.54mm:PinHeader_1x%02d_P2.54mm_Vertical"
                   % len(buttons), snap(shifter_x + 2.0), snap(80.0), 90, buttons))
    board.add(Part("J10", "display_header", "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
                   snap(shifter_x + 2.0), snap(88.0), 90, {"1": "GND", "2": "+3V3", "3": "SCL", "4": "SDA"}))
    header_x = snap(shifter_x + 2.0)
    board.texts.append(Text(header_x + 5.08, snap(80.0) + 2.4,
                            "GND " + " ".join(name for name, _pin in config.BUTTONS), 1.0))
    board.texts.append(Text(header_x + 3.81, snap(88.0) + 2.4, "GND VCC SCL SDA", 1.0))
    # The Pico's USB end (its footprint has USB up) goes to the board's edge.
    board.texts.append(Text(pico_x + 12.0, pico_y - 5.0, "USB to the board's edge ->", 1.0, rotation=90))
    board.texts.append(Text(30.0, board.height - 3.0, "Scacchiera carrier", 1.5))
    for x, y in ((3.81, 3.81), (3.81, board.height - 3.81), (board.width - 3.81, board.height - 3.81),
                 (snap(66.0), 3.81)):
        board.holes.append((snap(x), snap(y)))
    return board


def boards(config=board_config):
    """Both designs, by name."""
    return {"strip": strip(config), "carrier": carrier(config)}


# --- the assembled board: eight strips cabled to the carrier ---


def cabled_end(row, config=board_config):
    """The strip connector row `row`'s cable plugs into: J2 when the strip is mounted turned round."""
    return "J2" if strip_is_reversed(row, config) else "J1"


def whole_board(config=board_config):
    """The built board as one netlist: {net: [(board, ref, pad)]}, board 'carrier' or 'row<r>'.

    Each strip is a copy of strip(); a ribbon cable joins carrier header pin n to
    the strip's cabled connector pin n (a straight 14-way cable).
    """
    parent = {}

    def find(node):
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(a, b):
        parent[find(a)] = find(b)

    pads = {}
    carrier_board = carrier(config)
    strip_board = strip(config)
    for part in carrier_board.parts:
        for pad, net in part.nets.items():
            pads[("carrier", part.ref, pad)] = ("carrier", net)
    for row in range(8):
        for part in strip_board.parts:
            for pad, net in part.nets.items():
                pads[("row%d" % row, part.ref, pad)] = ("row%d" % row, net)
    for key, net in pads.items():
        join(key, net)
    for row in range(8):
        for part in strip_board.parts:
            if part.serves == cabled_end(row, config):    # its jumpers bridged, the other end's open
                join(("row%d" % row, part.ref, "1"), ("row%d" % row, part.ref, "2"))
    for index, row in enumerate(chain_order(config)):
        header = "J%d" % (index + 1)
        end = cabled_end(row, config)
        for pin in STRIP_PINOUT:
            join(("carrier", header, pin), ("row%d" % row, end, pin))
    groups = {}
    for key in pads:
        groups.setdefault(find(key), []).append(key)
    out = {}
    for members in groups.values():
        names = sorted(set(pads[key][1] for key in members if key[0] == "carrier")) or \
            sorted(set("%s/%s" % pads[key] for key in members))
        out[names[0]] = sorted(members)
    return out


def strip_bands(config=board_config):
    """How far each strip reaches from its row's centre line: {row: (toward the near edge, away from it)}.

    A strip cabled at J1 has its top edge (STRIP_CENTRE above the LEDs) away from the
    USB edge; one turned round has it toward the USB edge.
    """
    below = spec.STRIP_WIDTH - spec.STRIP_CENTRE
    above = spec.STRIP_CENTRE
    return {row: (above, below) if strip_is_reversed(row, config) else (below, above) for row in range(8)}


def strip_gaps(config=board_config):
    """The gap (mm) between the strips of each pair of neighbouring rows; negative means they overlap."""
    bands = strip_bands(config)
    return [config.SQUARE_MM - bands[row][1] - bands[row + 1][0] for row in range(7)]
