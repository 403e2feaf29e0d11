"""A minimal SVG writer for the generated drawings (hardware/*.svg, the PCBs' assembly and placement
figures): integer coordinates, deterministic output, so a regenerated file compares byte for byte."""


def _esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    """An SVG document built element by element; ``done()`` is its text."""

    def __init__(self, width, height, title):
        self.parts = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">' % (width, height, width, height),
            "<title>%s</title>" % _esc(title),
            '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (width, height),
        ]

    def line(self, x1, y1, x2, y2, colour="#222222", width=1.5, dash=None):
        extra = ' stroke-dasharray="%s"' % dash if dash else ""
        self.parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%g"%s/>'
                          % (x1, y1, x2, y2, colour, width, extra))

    def polyline(self, points, colour, width=2, marker=False):
        pts = " ".join("%d,%d" % p for p in points)
        extra = ' marker-end="url(#arrow)"' if marker else ""
        self.parts.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"%s/>'
                          % (pts, colour, width, extra))

    def polygon(self, points, fill, stroke="#222222"):
        pts = " ".join("%d,%d" % p for p in points)
        self.parts.append('<polygon points="%s" fill="%s" stroke="%s" stroke-width="1"/>'
                          % (pts, fill, stroke))

    def rect(self, x, y, w, h, fill="none", stroke="#222222", width=1.5, rx=0):
        self.parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="%s" stroke="%s" stroke-width="%g"/>'
                          % (x, y, w, h, rx, fill, stroke, width))

    def circle(self, x, y, r, fill="#222222", stroke="none"):
        self.parts.append('<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s"/>' % (x, y, r, fill, stroke))

    def text(self, x, y, s, size=12, colour="#222222", anchor="start", bold=False, rotate=False):
        extra = ' font-weight="bold"' if bold else ""
        if rotate:
            extra += ' transform="rotate(-90 %d %d)"' % (x, y)
        self.parts.append('<text x="%d" y="%d" font-size="%d" fill="%s" text-anchor="%s"%s>%s</text>'
                          % (x, y, size, colour, anchor, extra, _esc(s)))

    def arrow_marker(self, colour):
        self.parts.append(
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker></defs>' % colour)

    def done(self):
        return "\n".join(self.parts + ["</svg>", ""])
