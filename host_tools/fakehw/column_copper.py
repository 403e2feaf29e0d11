"""Each column's copper on the routed boards, in mm of track (written by `make pcb`:
host_tools/pcb/column_figures.py; do not edit). Plain Python that also runs on MicroPython."""

# A strip's POS0..POS7 tracks, J1 to J2 (every strip is this one).
STRIP_POS_MM = (402.6, 395.0, 409.6, 396.2, 412.1, 407.7, 419.1, 415.3)
# The carrier's COL0..COL7 tracks, the Pico's pin to the eight headers.
CARRIER_COL_MM = (221.0, 206.4, 201.9, 208.3, 234.3, 175.9, 197.5, 198.8)
