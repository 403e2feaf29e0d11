"""The two footprints KiCad's libraries lack, written as KiCad 6 .kicad_mod text.

- Reed_Glass14mm_P22.86mm: a 14 mm glass reed lying flat, leads bent to 22.86 mm.
- RaspberryPi_Pico_THT: the Pico's 40 castellated pins on 2.54 mm, rows 17.78 mm
  apart, pin 1 top left with USB up (Raspberry Pi's Pico datasheet, section "Mechanical").

They go to hardware/pcb/Scacchiera.pretty, which both projects name in their
fp-lib-table, so a maker who opens a board in KiCad finds them.
"""

from host_tools.pcb import spec


def _pad(number, x, y, size, drill, shape="circle"):
    return '  (pad "%s" thru_hole %s (at %s %s) (size %s %s) (drill %s) (layers *.Cu *.Mask))' % (
        number, shape, mm_text(x), mm_text(y), mm_text(size), mm_text(size), mm_text(drill))


def _line(x1, y1, x2, y2, layer, width):
    return '  (fp_line (start %s %s) (end %s %s) (layer "%s") (width %s))' % (
        mm_text(x1), mm_text(y1), mm_text(x2), mm_text(y2), layer, mm_text(width))


def _rect(x1, y1, x2, y2, layer, width):
    return [_line(x1, y1, x2, y1, layer, width), _line(x2, y1, x2, y2, layer, width),
            _line(x2, y2, x1, y2, layer, width), _line(x1, y2, x1, y1, layer, width)]


def _text(kind, text, x, y, layer):
    return '  (fp_text %s "%s" (at %s %s) (layer "%s")\n    (effects (font (size 1 1) (thickness 0.15))))' % (
        kind, text, mm_text(x), mm_text(y), layer)


def mm_text(value):
    """A length in mm as KiCad writes it: at most 4 decimals, no trailing zeros."""
    text = "%.4f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _footprint(name, description, attr, body):
    head = ['(footprint "%s" (version 20211014) (generator scacchiera)' % name,
            '  (layer "F.Cu")', '  (descr "%s")' % description, "  (attr %s)" % attr]
    return "\n".join(head + body) + "\n)\n"


def reed():
    pitch = spec.REED_PITCH
    glass = spec.REED_GLASS
    lead = (pitch - glass) / 2
    radius = 1.15  # 2.3 mm glass
    body = [_text("reference", "REF**", pitch / 2, -2.4, "F.SilkS"),
            _text("value", "Reed", pitch / 2, 2.4, "F.Fab")]
    body += _rect(lead, -radius, lead + glass, radius, "F.SilkS", 0.12)
    body += _rect(lead, -radius, lead + glass, radius, "F.Fab", 0.1)
    body += _rect(-1.25, -1.6, pitch + 1.25, 1.6, "F.CrtYd", 0.05)
    body.append(_pad("1", 0, 0, 1.8, 0.9))
    body.append(_pad("2", pitch, 0, 1.8, 0.9))
    return _footprint("Reed_Glass14mm_P22.86mm",
                      "Reed switch, 14 mm glass lying flat, leads bent 4.4 mm from the glass to a 22.86 mm pitch",
                      "through_hole", body)


def pico():
    body = [_text("reference", "REF**", 0, 22.0, "F.SilkS"),
            _text("value", "Raspberry Pi Pico", 0, 0, "F.Fab")]
    body += _rect(-10.5, -25.5, 10.5, 25.5, "F.SilkS", 0.12)
    body += _rect(-4.0, -26.8, 4.0, -25.5, "F.SilkS", 0.12)  # where the USB plug goes
    body += _rect(-10.5, -25.5, 10.5, 25.5, "F.Fab", 0.1)
    body += _rect(-11.0, -27.3, 11.0, 26.0, "F.CrtYd", 0.05)
    for index in range(20):
        y = -24.13 + index * 2.54
        body.append(_pad(str(index + 1), -8.89, y, 1.7, 1.0, "rect" if index == 0 else "circle"))
        body.append(_pad(str(40 - index), 8.89, y, 1.7, 1.0))
    return _footprint("RaspberryPi_Pico_THT",
                      "Raspberry Pi Pico on its 40 pins (2.54 mm, rows 17.78 mm apart), USB up",
                      "through_hole", body)


FOOTPRINTS = {"Reed_Glass14mm_P22.86mm": reed, "RaspberryPi_Pico_THT": pico}
