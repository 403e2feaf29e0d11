"""Host models of Scacchiera's hardware, built from firmware/board_config.py.

They sit under the fake `machine` module of the firmware tests, so the real
scanner code runs against the real wiring without a Pico.
"""

from .matrix import ReedMatrix, ShortCircuit

__all__ = ["ReedMatrix", "ShortCircuit"]
