"""Lay a board of host_tools/pcb/boards.py out in KiCad, route it, check it, plot it.

Runs under the Python that has KiCad's `pcbnew` module (Debian's kicad 6.0:
/usr/bin/python3). Every coordinate comes from boards.py, every track from
router.py; KiCad's own DRC (pcbnew.WriteDRCReport) is the independent check.
Outputs are made byte-stable (dates dropped, KiCad's item ids drawn from a
generator seeded by the board's name) so a test can regenerate and compare.
"""

import csv
import io
import os
import re
import zipfile
import zlib

import pcbnew

from host_tools.pcb import boards as boards_module
from host_tools.pcb import footprints, router, spec

KICAD_FOOTPRINTS = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)


def mm(value):
    return pcbnew.FromMM(float(value))


def point(x, y):
    return pcbnew.wxPoint(mm(x), mm(y))


def write_footprint_library(library):
    """hardware/pcb/Scacchiera.pretty: the footprints KiCad lacks."""
    os.makedirs(library, exist_ok=True)
    for name, make in footprints.FOOTPRINTS.items():
        write_if_changed(os.path.join(library, name + ".kicad_mod"), make())


def load_footprint(reference, library):
    lib, name = reference.split(":")
    path = library if lib == boards_module.FOOTPRINT_LIBRARY else os.path.join(KICAD_FOOTPRINTS, lib + ".pretty")
    footprint = pcbnew.FootprintLoad(path, name)
    if footprint is None:
        raise RuntimeError("KiCad has no footprint %s (looked in %s)" % (reference, path))
    footprint.SetFPID(pcbnew.LIB_ID(lib, name))
    return footprint


def build(board, library):
    """A pcbnew.BOARD with `board`'s parts, texts, holes and outline, its nets routed."""
    # KiCad gives every item a random id and writes items sorted by it: seeded ids keep the file stable.
    pcbnew.KIID.SeedGenerator(zlib.crc32(board.name.encode()))
    pcb = pcbnew.BOARD()
    settings = pcb.GetDesignSettings()
    settings.SetBoardThickness(mm(spec.THICKNESS_MM))
    settings.m_MinClearance = mm(spec.CLEARANCE)
    settings.m_TrackMinWidth = mm(spec.SIGNAL_TRACK)
    settings.m_ViasMinSize = mm(spec.VIA)
    settings.m_MinThroughDrill = mm(spec.VIA_DRILL)
    settings.SetCopperEdgeClearance(mm(spec.EDGE_CLEARANCE))
    settings.SetAuxOrigin(point(0, board.height))  # the fab files count from the bottom-left corner
    default = settings.GetNetClasses().GetDefault()
    default.SetClearance(mm(spec.CLEARANCE))
    default.SetTrackWidth(mm(spec.SIGNAL_TRACK))
    default.SetViaDiameter(mm(spec.VIA))
    default.SetViaDrill(mm(spec.VIA_DRILL))
    _outline(pcb, board.width, board.height)
    nets = {}
    for name in board.nets():
        net = pcbnew.NETINFO_ITEM(pcb, name)
        pcb.Add(net)
        nets[name] = net
    for part in board.parts:
        footprint = load_footprint(part.footprint, library)
        footprint.SetReference(part.ref)
        footprint.SetValue(part.value)
        footprint.SetPosition(point(part.x, part.y))
        footprint.SetOrientationDegrees(part.rotation)
        pcb.Add(footprint)
        if part.side == "bottom":
            footprint.Flip(point(part.x, part.y), False)  # on the board first: Flip needs its layers
        for pad in footprint.Pads():
            name = part.nets.get(pad.GetNumber())
            if name is not None:
                pad.SetNet(nets[name])
        _place_reference(footprint, part)
    for index, (x, y) in enumerate(board.holes):
        hole = load_footprint("MountingHole:MountingHole_3.2mm_M3", library)
        hole.SetReference("H%d" % (index + 1))
        hole.SetValue(spec.PARTS["mounting_hole"][0])
        hole.SetPosition(point(x, y))
        hole.Reference().SetVisible(False)
        pcb.Add(hole)
    for text in board.texts:
        item = pcbnew.PCB_TEXT(pcb)
        item.SetText(text.text)
        item.SetPosition(point(text.x, text.y))
        item.SetLayer(pcbnew.F_SilkS if text.layer == "F.SilkS" else pcbnew.B_SilkS)
        item.SetTextSize(pcbnew.wxSize(mm(text.size), mm(text.size)))
        item.SetTextThickness(mm(max(spec.SILK_STROKE, text.size * 0.15)))
        item.SetTextAngle(text.rotation * 10)
        pcb.Add(item)
    route(pcb, board, nets)
    return pcb


def _ground_planes(pcb, board):
    """Fill what copper is left on both layers with GND: a short return path for the LED data and the
    reed currents, and less copper to etch. Filled after routing, so it only adds to the routed GND.
    (KiCad 6's filler crashes on a board built in memory; it is run on the saved board, reloaded.)"""
    ground = pcb.FindNet("GND")
    inset = spec.EDGE_CLEARANCE
    corners = [(inset, inset), (board.width - inset, inset), (board.width - inset, board.height - inset),
               (inset, board.height - inset)]
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        zone = pcbnew.ZONE(pcb)
        zone.SetLayer(layer)
        zone.SetNetCode(ground.GetNetCode())
        outline = zone.Outline()
        outline.NewOutline()
        for x, y in corners:
            outline.Append(mm(x), mm(y))
        zone.SetLocalClearance(mm(spec.CLEARANCE + 0.1))
        zone.SetMinThickness(mm(spec.SIGNAL_TRACK))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        zone.SetThermalReliefGap(mm(0.5))
        zone.SetThermalReliefSpokeWidth(mm(spec.POWER_TRACK))
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        pcb.Add(zone)
    pcbnew.ZONE_FILLER(pcb).Fill(pcb.Zones())


def _outline(pcb, width, height):
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
        edge = pcbnew.PCB_SHAPE(pcb)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(point(x1, y1))
        edge.SetEnd(point(x2, y2))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(mm(0.1))
        pcb.Add(edge)


def _place_reference(footprint, part):
    """Small references on the silkscreen, kept off the pads: at the part's side, or hidden on dense parts."""
    reference = footprint.Reference()
    reference.SetTextSize(pcbnew.wxSize(mm(spec.SILK_TEXT), mm(spec.SILK_TEXT)))
    reference.SetTextThickness(mm(spec.SILK_STROKE))
    if part.kind in ("led", "led_cap", "diode", "shifter_cap", "data_resistor", "column_pullup", "series_resistor",
                     "solder_jumper"):
        reference.SetVisible(False)  # the assembly drawing (placement file) names them
    footprint.Value().SetVisible(False)


def route(pcb, board, nets):
    """Route every net of `board` with router.Grid and add the tracks and vias to `pcb`."""
    keepouts = [(x, y, 1.6) for x, y in board.holes]
    grid = router.Grid(board.width, board.height, spec.GRID, spec.CLEARANCE, spec.EDGE_CLEARANCE, spec.VIA,
                       keepouts)
    pads_by_net = {}
    for footprint in pcb.GetFootprints():
        for pad in footprint.Pads():
            name = pad.GetNetname()
            if not pad.IsOnCopperLayer():
                continue  # a mounting hole: a keepout
            if not name:  # an unused pin: copper every net keeps clear of
                name = "unused %s.%s" % (footprint.GetReference(), pad.GetNumber())
            copper = _router_pad(pad, name, footprint.GetReference())
            grid.add_pad(copper)
            pads_by_net.setdefault(name, []).append(copper)
    wanted = []
    for name, pads in sorted(pads_by_net.items()):
        if len(pads) > 1:
            wanted.append(router.Net(name, pads, board.track_width(name)))
    # Power first (widest), then the nets with the most pads: they need the freest board.
    wanted.sort(key=lambda net: (net.width < spec.POWER_TRACK, -len(net.pads), net.name))
    routes = grid.route(wanted)
    for name in sorted(routes):
        result = routes[name]
        width = board.track_width(name)
        for layer, x1, y1, x2, y2 in result.tracks:
            track = pcbnew.PCB_TRACK(pcb)
            track.SetStart(point(x1, y1))
            track.SetEnd(point(x2, y2))
            track.SetWidth(mm(width))
            track.SetLayer(pcbnew.F_Cu if layer == router.F_CU else pcbnew.B_Cu)
            track.SetNet(nets[name])
            pcb.Add(track)
        for x, y in result.vias:
            via = pcbnew.PCB_VIA(pcb)
            via.SetPosition(point(x, y))
            via.SetWidth(mm(spec.VIA))
            via.SetDrill(mm(spec.VIA_DRILL))
            via.SetNet(nets[name])
            pcb.Add(via)
    return routes


def _router_pad(pad, net, reference):
    """The router's view of a pad: its copper as an axis-aligned rounded rectangle."""
    position = pad.GetPosition()
    size = pad.GetSize()
    half_w = pcbnew.ToMM(size.x) / 2
    half_h = pcbnew.ToMM(size.y) / 2
    angle = int(round(pad.GetOrientationDegrees())) % 180
    if angle == 90:
        half_w, half_h = half_h, half_w
    elif angle != 0:
        raise ValueError("%s pad %s is turned %s degrees: the router knows right angles only"
                         % (reference, pad.GetNumber(), angle))
    shape = pad.GetShape()
    if shape == pcbnew.PAD_SHAPE_CIRCLE or shape == pcbnew.PAD_SHAPE_OVAL:
        radius = min(half_w, half_h)
    elif shape == pcbnew.PAD_SHAPE_ROUNDRECT:
        radius = pad.GetRoundRectCornerRadius() / 1e6
    else:
        radius = 0.0
    layers = []
    if pad.IsOnLayer(pcbnew.F_Cu):
        layers.append(router.F_CU)
    if pad.IsOnLayer(pcbnew.B_Cu):
        layers.append(router.B_CU)
    return router.Pad(net, pcbnew.ToMM(position.x), pcbnew.ToMM(position.y), half_w, half_h, radius, layers,
                      "%s.%s" % (reference, pad.GetNumber()))


# --- checks ---


def drc(pcb, report_path):
    """KiCad's DRC: {'errors': n, 'warnings': n, 'unconnected': n, 'report': text without its date line}."""
    pcbnew.WriteDRCReport(pcb, report_path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(report_path) as handle:
        text = handle.read()
    text = "".join(line for line in text.splitlines(True) if not line.startswith("** Created on"))
    text = text.replace(os.path.dirname(report_path) + os.sep, "")
    with open(report_path, "w") as handle:
        handle.write(text)
    violations, unconnected = _drc_sections(text)
    return {
        "errors": sum(1 for severity in violations if severity == "error"),
        "warnings": sum(1 for severity in violations if severity == "warning"),
        "unconnected": unconnected,
        "report": text,
    }


def _drc_sections(text):
    """Severities of the DRC violations, and the count of unconnected items."""
    violations = []
    unconnected = 0
    section = None
    for line in text.splitlines():
        if line.startswith("** Found") and "DRC violations" in line:
            section = "drc"
        elif line.startswith("** Found") and "unconnected" in line:
            section = "unconnected"
            unconnected = int(line.split()[2])
        elif line.startswith("** Found"):
            section = None
        elif section == "drc" and "Severity:" in line:
            violations.append(line.rsplit("Severity:", 1)[1].strip())
    return violations, unconnected


def describe(path):
    """What a saved board file says: each pad's net, the outline's size, the narrowest track of each net,
    and the pads soldered on one side that a via touches (solder would wick away: there must be none)."""
    pcb = pcbnew.LoadBoard(path)
    pads = {}
    for footprint in pcb.GetFootprints():
        for pad in footprint.Pads():
            if pad.GetNetname():
                pads["%s.%s" % (footprint.GetReference(), pad.GetNumber())] = pad.GetNetname()
    widths = {}
    for track in pcb.GetTracks():
        if track.GetClass() == "PCB_TRACK":
            name = track.GetNetname()
            widths[name] = min(widths.get(name, 1e9), pcbnew.ToMM(track.GetWidth()))
    vias = [item for item in pcb.GetTracks() if item.GetClass() == "PCB_VIA"]
    vias_on_smd_pads = []
    for footprint in pcb.GetFootprints():
        for pad in footprint.Pads():
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD:
                for via in vias:
                    if pad.HitTest(via.GetPosition(), via.GetWidth() // 2 + mm(spec.CLEARANCE)):
                        vias_on_smd_pads.append("%s.%s" % (footprint.GetReference(), pad.GetNumber()))
    corners = []
    for drawing in pcb.GetDrawings():
        if drawing.GetLayer() == pcbnew.Edge_Cuts:
            corners += [drawing.GetStart(), drawing.GetEnd()]
    xs = [pcbnew.ToMM(corner.x) for corner in corners]
    ys = [pcbnew.ToMM(corner.y) for corner in corners]
    return {"pads": pads, "width": max(xs) - min(xs), "height": max(ys) - min(ys), "narrowest": widths,
            "vias_on_smd_pads": sorted(vias_on_smd_pads),
            "underside": sorted(footprint.GetReference() for footprint in pcb.GetFootprints()
                                if footprint.GetLayer() == pcbnew.B_Cu)}


# --- files ---


def save(pcb, board, folder):
    """<folder>/<name>.kicad_pcb, its project files and fp-lib-table."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, board.name + ".kicad_pcb")
    pcbnew.SaveBoard(path, pcb)
    poured = pcbnew.LoadBoard(path)
    _ground_planes(poured, board)
    pcbnew.SaveBoard(path, poured)
    for leftover in (board.name + ".kicad_prl",):
        if os.path.exists(os.path.join(folder, leftover)):
            os.remove(os.path.join(folder, leftover))
    write_if_changed(os.path.join(folder, "fp-lib-table"),
                      '(fp_lib_table\n  (lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/../%s.pretty")'
                      '(options "")(descr "Scacchiera: reed switch and Pico"))\n)\n'
                      % (boards_module.FOOTPRINT_LIBRARY, boards_module.FOOTPRINT_LIBRARY))
    return path


def write_if_changed(path, text):
    """Write `text` to `path` unless it already holds exactly that (a regeneration leaves files untouched)."""
    if os.path.exists(path):
        with open(path) as handle:
            if handle.read() == text:
                return
    with open(path, "w") as handle:
        handle.write(text)


_DATED = re.compile(r"(CreationDate|date \d{4}-|Created on|^; *DRILL file .* date)")


def _undate(text):
    """Drop the lines KiCad stamps with the time of the run (a comment or attribute, never geometry)."""
    return "".join(line for line in text.splitlines(True) if not _DATED.search(line))


def fabrication(pcb, board, folder, scratch):
    """Gerbers and drill files zipped (<name>-gerbers.zip), the BOM and placement file for JLCPCB.

    Every file counts from the board's bottom-left corner (KiCad's auxiliary origin), so the
    placement file's coordinates land on the Gerbers' copper.
    """
    origin = pcb.GetDesignSettings().GetAuxOrigin()
    plotter, options = _plotter(pcb, scratch)
    options.SetUseAuxOrigin(True)
    options.SetUseGerberProtelExtensions(True)
    options.SetCreateGerberJobFile(False)
    options.SetUseGerberX2format(False)
    options.SetIncludeGerberNetlistInfo(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetExcludeEdgeLayer(True)
    layers = [
        (pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"), (pcbnew.F_SilkS, "F_SilkS"), (pcbnew.B_SilkS, "B_SilkS"),
        (pcbnew.F_Mask, "F_Mask"), (pcbnew.B_Mask, "B_Mask"), (pcbnew.F_Paste, "F_Paste"),
        (pcbnew.Edge_Cuts, "Edge_Cuts"),
    ]
    for layer, suffix in layers:
        plotter.SetLayer(layer)
        plotter.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        plotter.PlotLayer()
    plotter.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(pcb)
    drill.SetMapFileFormat(pcbnew.PLOT_FORMAT_PDF)
    drill.SetOptions(False, False, origin, False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(scratch, True, False)
    archive = os.path.join(folder, board.name + "-gerbers.zip")
    with zipfile.ZipFile(archive + ".tmp", "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(os.listdir(scratch)):
            with open(os.path.join(scratch, name)) as handle:
                text = _undate(handle.read())
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, text)
    _replace_if_changed(archive + ".tmp", archive)
    write_if_changed(os.path.join(folder, board.name + "-bom.csv"), bom(board))
    write_if_changed(os.path.join(folder, board.name + "-cpl.csv"), placement(pcb, board))


def _plotter(pcb, scratch):
    """KiCad's plotter into an empty `scratch` folder: no frame, references on, values off."""
    os.makedirs(scratch, exist_ok=True)
    for name in os.listdir(scratch):
        os.remove(os.path.join(scratch, name))
    plotter = pcbnew.PLOT_CONTROLLER(pcb)
    options = plotter.GetPlotOptions()
    options.SetOutputDirectory(scratch)
    options.SetPlotFrameRef(False)
    options.SetPlotReference(True)
    options.SetPlotValue(False)
    return plotter, options


def _replace_if_changed(new, path):
    if os.path.exists(path) and _zip_texts(path) == _zip_texts(new):
        os.remove(new)
        return
    os.replace(new, path)


def _zip_texts(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def bom(board):
    """JLCPCB's BOM: Comment, Designator, Footprint, LCSC Part #: one line per part that the fab places."""
    groups = {}
    for part in board.parts:
        if not part.assembled:
            continue
        key = (part.value, spec.PARTS[part.kind][1], part.footprint.split(":")[1], part.kind)
        groups.setdefault(key, []).append(part.ref)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Comment", "Designator", "Footprint", "LCSC Part #", "Manufacturer part"])
    for (value, mpn, footprint, kind), refs in sorted(groups.items()):
        writer.writerow([value, ",".join(sorted(refs, key=_ref_key)), footprint, spec.LCSC[kind][0], mpn])
    return out.getvalue()


def placement(pcb, board):
    """JLCPCB's placement (CPL) file: Designator, Mid X, Mid Y, Layer, Rotation, for the parts the fab places."""
    assembled = dict((part.ref, part) for part in board.parts if part.assembled)
    rows = []
    for footprint in pcb.GetFootprints():
        reference = footprint.GetReference()
        if reference not in assembled:
            continue
        position = footprint.GetPosition()
        # KiCad's y grows downwards; the Gerbers and this file count y upwards from the bottom-left corner.
        x = pcbnew.ToMM(position.x)
        y = board.height - pcbnew.ToMM(position.y)
        angle = spec.fab_rotation(assembled[reference].footprint, footprint.GetOrientationDegrees())
        rows.append([reference, "%.3fmm" % x, "%.3fmm" % y, "Top", "%d" % angle])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for row in sorted(rows, key=lambda row: _ref_key(row[0])):
        writer.writerow(row)
    return out.getvalue()


def part_pads(pcb, reference):
    """A footprint's pads as the board shows them: [(number, net, dx, dy, width, height)] in mm from
    its centre, y down, each pad's size turned with the part."""
    footprint = pcb.FindFootprintByReference(reference)
    centre = footprint.GetPosition()
    out = []
    for pad in footprint.Pads():
        box = pad.GetBoundingBox()
        position = pad.GetPosition()
        out.append((pad.GetNumber(), pad.GetNetname(), pcbnew.ToMM(position.x - centre.x),
                    pcbnew.ToMM(position.y - centre.y), pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())))
    return sorted(out)


def _ref_key(reference):
    letters = reference.rstrip("0123456789")
    return (letters, int(reference[len(letters):] or 0))


_SIDES = {
    # side: [(layer, plot name, colour)], drawn in this order over the board's solder-mask green
    "top": [("F_Cu", "#d4aa50"), ("F_SilkS", "#f4f4f4"), ("Edge_Cuts", "#111111")],
    "bottom": [("B_Cu", "#d4aa50"), ("B_SilkS", "#f4f4f4"), ("Edge_Cuts", "#111111")],
}


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_LENGTHS = re.compile(r'((?:cx|cy|r|x|y|width|height|d)="|stroke-width:)([^";]*)')


def _in_mm(body):
    """KiCad's SVG counts in nanometres; browsers drop shapes past ~2**24 units, so rewrite it in mm."""

    def scale(match):
        numbers = _NUMBER.sub(lambda number: footprints.mm_text(float(number.group(0)) / 1e6), match.group(2))
        return match.group(1) + numbers

    return _LENGTHS.sub(scale, body)


def render(pcb, board, folder, scratch):
    """<name>-top.svg and <name>-bottom.svg: copper, silkscreen and outline as a maker sees each side.

    KiCad plots one layer per SVG, in black on a page; we plot each layer, colour it and stack
    them on one drawing the size of the board (the bottom seen from below: mirrored).
    """
    plotter, _options = _plotter(pcb, scratch)
    bodies = {}
    for side, layers in _SIDES.items():
        for name, _colour in layers:
            plotter.SetLayer(getattr(pcbnew, name))
            plotter.OpenPlotfile(name, pcbnew.PLOT_FORMAT_SVG, name)
            plotter.PlotLayer()
            plotter.ClosePlot()
            with open(plotter.GetPlotFileName()) as handle:
                text = handle.read()
            bodies[name] = text[text.index("</desc>") + len("</desc>"):text.rindex("</svg>")]
    for side, layers in _SIDES.items():
        flip = "translate(%.3f 0) scale(-1 1) " % board.width if side == "bottom" else ""
        parts = [
            '<?xml version="1.0" encoding="UTF-8"?>\n',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="-1 -1 %.3f %.3f">\n'
            % (board.width + 2, board.height + 2, board.width + 2, board.height + 2),
            "<title>%s, %s side (generated by host_tools.pcb)</title>\n" % (board.title, side),
            '<g transform="%s">\n<rect x="0" y="0" width="%.3f" height="%.3f" fill="#1f5130"/>\n'
            % (flip.strip(), board.width, board.height),
        ]
        for name, colour in layers:
            parts.append('<g id="%s">%s</g>\n' % (name, _in_mm(bodies[name]).replace("#000000", colour)))
        parts.append("</g>\n</svg>\n")
        write_if_changed(os.path.join(folder, "%s-%s.svg" % (board.name, side)), "".join(parts))
