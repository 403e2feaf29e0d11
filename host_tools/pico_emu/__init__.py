"""The real firmware on an emulated Raspberry Pi Pico: official MicroPython for RPI_PICO in rp2040js.

docs/emulator.md: how to run it, what is modelled and what is not.
"""
