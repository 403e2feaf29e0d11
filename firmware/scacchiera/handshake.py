"""What the board announces of itself (``boot`` and ``hello``): the protocol's version, the
firmware's name, the longest line it reads. Its own module so the protocol, the line framing and
the commands share them without importing each other."""

VERSION = 1
FIRMWARE = "scacchiera 0.1.0"
MAX_LINE = 512                 # bytes, without the line end
