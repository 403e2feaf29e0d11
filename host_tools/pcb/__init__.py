"""The PCBs, generated from firmware/board_config.py: `make pcb` writes hardware/pcb/.

- spec.py: what board_config does not say (design rules, track widths, parts).
- boards.py: the rank strip and the carrier as data: parts, places, nets (no KiCad).
- router.py: the two-layer grid router that lays every track.
- footprints.py: the reed's and the Pico's footprints, which KiCad's libraries lack.
- kicad_board.py: KiCad's pcbnew builds, routes, DRC-checks and plots each board.
- netlist.py: each board's netlist in KiCad's format, from boards.py.
- order_sheet.py: hardware/pcb/README.md, what to order, with this generation's figures.
"""
