"""A board's netlist in KiCad's format (<name>.net): which pad of which part joins which net.

Written from boards.py, the same description the copper was routed from, so a
maker can read the connections (or import them into KiCad's PCB editor) without
a schematic drawing: the boards have none; the firmware's wiring is drawn in
hardware/schematic.svg.
"""


def _quote(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def kicad_netlist(board):
    lines = ["(export (version \"E\")",
             "  (design (source %s) (tool \"host_tools.pcb\"))" % _quote(board.name + ".kicad_pcb"),
             "  (components"]
    for part in board.parts:
        lines.append("    (comp (ref %s) (value %s) (footprint %s))"
                     % (_quote(part.ref), _quote(part.value), _quote(part.footprint)))
    lines.append("  )")
    lines.append("  (nets")
    for code, (name, pads) in enumerate(board.nets().items(), start=1):
        lines.append("    (net (code \"%d\") (name %s)" % (code, _quote(name)))
        for ref, pad in pads:
            lines.append("      (node (ref %s) (pin %s))" % (_quote(ref), _quote(pad)))
        lines.append("    )")
    lines.append("  )")
    lines.append(")")
    return "\n".join(lines) + "\n"
