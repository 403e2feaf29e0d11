"""Where a flat reed should lie under a square: a point-dipole estimate, to choose the layout.

A piece's magnet stands on its pole (magnetised up and down) a few millimetres above the
reed. A reed is a flux conductor: what closes it is the magnetic potential difference
between its two ends, which the blades carry to the contact gap. For a dipole m pointing
down at height h, the potential at a point of the reed plane at distance r is m h /
(4 pi r^3): over the reed's middle both ends see the same potential and nothing drives the
gap (the dead zone reed makers draw for a magnet standing over a switch's middle); over an
end, the whole potential at that end does. So the reed's glass end goes under the square's
centre, on its centre line, and the LED beside it.

This is an estimate to compare layouts, in units of the best case (the magnet centred over
the end of a reed on its axis), not a prediction of the pull-in distance: the bench test of
hardware/README.md measures that with the real magnet, top and reed.

    python3 -m host_tools.pcb.reed_field      # the table the layout was chosen from
"""

import math

GLASS = 14.0  # mm: the reed's glass, its blades' span (spec.REED_GLASS)

# Layouts compared: (name, where the glass starts and ends along the row from the square's centre,
# how far the reed's axis lies beside the centre line)
LAYOUTS = (
    ("glass end under the centre, on the centre line (rev 2)", 0.0, GLASS, 0.0),
    ("glass end level with the centre, 5 mm beside it (rev 1)", 0.0, GLASS, 5.0),
    ("glass middle under the centre", -GLASS / 2, GLASS / 2, 0.0),
    ("glass end 2 mm past the centre, on the centre line", -2.0, GLASS - 2.0, 0.0),
)
HEIGHTS = (6.5, 8.0, 10.0)  # mm, magnet above the reed: hardware/README.md's range
SLIP = 5.0  # mm: how far from the square's centre a piece may be put down


def potential(x, y, magnet_x, magnet_y, height):
    """The dipole's potential at (x, y) in the reed's plane (units of m / 4 pi)."""
    r = math.sqrt((x - magnet_x) ** 2 + (y - magnet_y) ** 2 + height * height)
    return height / r ** 3


def drive(start, end, beside, magnet_x, magnet_y, height):
    """The potential difference across the reed's ends: what closes it."""
    return abs(potential(start, beside, magnet_x, magnet_y, height) - potential(end, beside, magnet_x, magnet_y, height))


def compare(layouts=LAYOUTS, heights=HEIGHTS, slip=SLIP):
    """{layout name: [(height, centred, worst within `slip` mm)]}, in units of the best case at that height."""
    out = {}
    placements = [(r * math.cos(k * math.pi / 8), r * math.sin(k * math.pi / 8))
                  for r in (0.0, slip / 2, slip) for k in range(16)]
    for name, start, end, beside in layouts:
        rows = []
        for height in heights:
            best = drive(0.0, GLASS, 0.0, 0.0, 0.0, height)
            centred = drive(start, end, beside, 0.0, 0.0, height) / best
            worst = min(drive(start, end, beside, x, y, height) for x, y in placements) / best
            rows.append((height, centred, worst))
        out[name] = rows
    return out


def main():
    print("Drive on the reed, in units of a magnet centred over a glass end on the reed's axis")
    print("(centred piece / worst piece within %.0f mm of the square's centre):" % SLIP)
    for name, rows in compare().items():
        print("  %-58s %s" % (name, "  ".join("h %4.1f mm: %.2f / %.2f" % row for row in rows)))


if __name__ == "__main__":
    main()
