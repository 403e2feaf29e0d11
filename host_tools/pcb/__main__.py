"""Generate the PCBs into hardware/pcb/ (`make pcb`).

    /usr/bin/python3 -m host_tools.pcb            # both boards: KiCad files, DRC, Gerbers, BOM, CPL, SVGs
    /usr/bin/python3 -m host_tools.pcb --board strip
    /usr/bin/python3 -m host_tools.pcb --describe hardware/pcb/strip/strip.kicad_pcb   # pads, outline (JSON)

Needs KiCad 6's pcbnew module (Debian: apt-get install --no-install-recommends kicad kicad-footprints);
it runs under the Python KiCad was built for, not the project's venv.
Exits 1 when KiCad's DRC finds an error or an unconnected item.
"""

import argparse
import json
import os
import sys
import tempfile
import time

from host_tools.pcb import boards as boards_module
from host_tools.pcb.assembly import assembly_svg
from host_tools.pcb.column_figures import column_copper_module, track_lengths

try:
    from host_tools.pcb import kicad_board
except ImportError as error:  # not the Python KiCad was built for, or no KiCad
    if "pcbnew" not in str(error):
        raise
    sys.exit("host_tools.pcb needs KiCad 6's pcbnew module, which %s cannot import: on Debian, apt-get install "
             "--no-install-recommends kicad kicad-footprints, then run it with /usr/bin/python3 (make pcb does)"
             % sys.executable)
from host_tools.pcb.netlist import kicad_netlist
from host_tools.pcb.order_sheet import order_sheet
from host_tools.pcb.placement_check import CHECKS, placement_check_svg

OUT = os.path.join(boards_module.ROOT, "hardware", "pcb")
# The columns' copper goes beside the electrical model that reads it (into --out when one is given).
COLUMN_COPPER = os.path.join(boards_module.ROOT, "host_tools", "fakehw", "column_copper.py")


def generate(names, out=OUT):
    """Make each named board; return {name: DRC summary}."""
    library = os.path.join(out, boards_module.FOOTPRINT_LIBRARY + ".pretty")
    kicad_board.write_footprint_library(library)
    designs = boards_module.boards()
    summary = {}
    checks = []
    lengths = {}
    for name in names:
        board = designs[name]
        started = time.time()
        pcb = kicad_board.build(board, library)
        routed = time.time() - started
        folder = os.path.join(out, name)
        path = kicad_board.save(pcb, board, folder)
        kicad_board.write_if_changed(os.path.join(folder, name + ".net"), kicad_netlist(board))
        pcb = kicad_board.pcbnew.LoadBoard(path)  # check and plot what was written, not what is in memory
        result = kicad_board.drc(pcb, os.path.join(folder, name + "-drc.txt"))
        with tempfile.TemporaryDirectory() as scratch:
            kicad_board.fabrication(pcb, board, folder, os.path.join(scratch, "fab"))
            kicad_board.render(pcb, board, folder, os.path.join(scratch, "svg"))
        lengths[name] = track_lengths(pcb, kicad_board.pcbnew)
        for part in board.parts:                              # one of each polarised part the fab places
            if part.kind in CHECKS and part.kind not in [kind for _ref, kind, _board, _pads in checks]:
                checks.append((part.ref, part.kind, name, kicad_board.part_pads(pcb, part.ref)))
        tracks = [item for item in pcb.GetTracks() if item.GetClass() == "PCB_TRACK"]
        summary[name] = {
            "tracks": len(tracks),
            "vias": len(pcb.GetTracks()) - len(tracks),
            "errors": result["errors"],
            "warnings": result["warnings"],
            "unconnected": result["unconnected"],
            "width_mm": round(board.width, 3),
            "height_mm": round(board.height, 3),
            "routed_s": round(routed, 1),
        }
        print("%s: %.1f x %.1f mm, routed in %.1f s, DRC %d errors, %d warnings, %d unconnected"
              % (name, board.width, board.height, routed, result["errors"], result["warnings"],
                 result["unconnected"]))
    if set(names) == set(designs):
        sheet = order_sheet(designs, summary, kicad_board.pcbnew.Version())
        kicad_board.write_if_changed(os.path.join(out, "README.md"), sheet)
        kicad_board.write_if_changed(os.path.join(out, "assembly.svg"), assembly_svg())
        kicad_board.write_if_changed(os.path.join(out, "placement-check.svg"), placement_check_svg(checks))
        kicad_board.write_if_changed(COLUMN_COPPER if out == OUT else os.path.join(out, "column_copper.py"),
                                     column_copper_module(lengths["strip"], lengths["carrier"]))
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", choices=sorted(boards_module.boards()),
                        help="only this board (repeatable); default both")
    parser.add_argument("--out", default=OUT, help="output folder (default hardware/pcb)")
    parser.add_argument("--json", action="store_true", help="print the DRC summary as JSON")
    parser.add_argument("--describe", metavar="KICAD_PCB", help="print a board file's pads, outline and track "
                        "widths as JSON (for the tests) and exit")
    args = parser.parse_args(argv)
    if args.describe:
        print(json.dumps(kicad_board.describe(args.describe), sort_keys=True))
        return 0
    summary = generate(args.board or ["strip", "carrier"], args.out)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    failed = [name for name, result in summary.items() if result["errors"] or result["unconnected"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
