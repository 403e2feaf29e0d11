"""Scacchiera: MicroPython runs this file at power-up; it starts the firmware.

The firmware itself (scacchiera/start.py) is in the flash's ROMFS partition
on a board flashed with make uf2, or beside this file after make deploy on
stock MicroPython. This file never changes with the firmware: an update
replaces the firmware and leaves the filesystem (this file, /games) alone.
"""

if __name__ == "__main__":
    from scacchiera.start import run
    run()
