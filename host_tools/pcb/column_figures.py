"""host_tools/fakehw/column_copper.py: each column's copper, measured on the routed boards.

The electrical model of the matrix (host_tools/fakehw/columns.py) loads each column's
pull-up with the capacitance of the copper it drives: the carrier's track to the header,
each strip's POS track from end to end, and the ribbons between. `make pcb` writes the
track lengths it routed into a small module the model (and MicroPython) can import, so
the model follows the boards; the drift test keeps it current.
"""


def track_lengths(pcb, pcbnew):
    """{net name: mm of track} on a routed pcbnew board (vias not counted)."""
    out = {}
    for item in pcb.GetTracks():
        if item.GetClass() != "PCB_TRACK":
            continue
        name = item.GetNetname()
        out[name] = out.get(name, 0.0) + pcbnew.ToMM(item.GetLength())
    return out


def column_copper_module(strip_lengths, carrier_lengths):
    """The module's text: the eight POS tracks of a strip and the eight COL tracks of the carrier, in mm."""
    strip = tuple(round(strip_lengths.get("POS%d" % p, 0.0), 1) for p in range(8))
    carrier = tuple(round(carrier_lengths.get("COL%d" % c, 0.0), 1) for c in range(8))
    return "\n".join([
        '"""Each column\'s copper on the routed boards, in mm of track (written by `make pcb`:',
        'host_tools/pcb/column_figures.py; do not edit). Plain Python that also runs on MicroPython."""',
        "",
        "# A strip's POS0..POS7 tracks, J1 to J2 (every strip is this one).",
        "STRIP_POS_MM = %r" % (strip,),
        "# The carrier's COL0..COL7 tracks, the Pico's pin to the eight headers.",
        "CARRIER_COL_MM = %r" % (carrier,),
        "",
    ])
