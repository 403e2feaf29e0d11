"""The emulated board's SSD1306 read back as text: the 8 lines the firmware drew, for tests and the bench.

The panel (emulator.Emulator's ``panel``, an Ssd1306Model fed with what the
firmware sent on the emulated I2C bus) holds pixels; a line is one of its 8
pages, a character 8 columns of framebuf's 8 x 8 font. The font's glyphs
come from MicroPython's own framebuf (the WebAssembly port, run once), so
the text is read with the very font the firmware drew with. A cell that is
no glyph (an icon) reads as "?"; trailing blanks are dropped.
"""

import os
import subprocess

from host_tools.pico_emu.emulator import ROOT

_GLYPHS = """
import framebuf
page = bytearray(8)
fb = framebuf.FrameBuffer(page, 8, 8, framebuf.MONO_VLSB)
for c in range(32, 127):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    print(c, bytes(page).hex())
"""
_glyphs = {}


def glyphs():
    """{8 column bytes: character} of framebuf's font (printable ASCII)."""
    if not _glyphs:
        script = os.path.join(ROOT, "build", "panel_glyphs.py")
        os.makedirs(os.path.dirname(script), exist_ok=True)
        with open(script, "w") as f:
            f.write(_GLYPHS)
        out = subprocess.run(["node", os.path.join(ROOT, "tools", "micropython", "run.mjs"), script],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        for line in out.stdout.split("\n"):
            if line.strip():
                code, bits = line.split()
                _glyphs.setdefault(bytes.fromhex(bits), chr(int(code)))
    return _glyphs


def text_lines(panel):
    """The panel's 8 lines as text (each page read 8 columns at a time)."""
    table = glyphs()
    lines = []
    for page in range(panel.pages):
        row = panel.ram[page * panel.width:(page + 1) * panel.width]
        cells = [table.get(bytes(row[x:x + 8]), "?") for x in range(0, panel.width, 8)]
        lines.append("".join(cells).rstrip())
    return lines
