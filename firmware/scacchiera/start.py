"""The firmware's start: main.py (MicroPython runs it at power-up) calls ``run``.

It builds the hardware layer (hal.py), the main loop (scacchiera/runner.py:
the application with its game controller, the serial protocol and the
journal beside it) and runs it. Tests and the simulator pass their own
hardware layer: ``run(hw, steps)``, or ``build(hw)`` then ``serve(runner, steps)``.
This lives in the firmware (ROMFS on a board flashed with make uf2), not in
main.py, so that an update never has to change main.py.
"""

import board_config as cfg
from . import heap_unlock_all
from .runner import Runner, PERIOD_US

WATCHDOG_MS = 8000   # longer than any healthy pause: a flash write, a PGN at the end of a game


def build(hw, period_us=PERIOD_US):
    """The main loop for the hardware layer ``hw``, booted: the saved game resumed."""
    led_of_square = bytes(cfg.square_to_led(sq) for sq in range(64))
    runner = Runner(hw, led_of_square, cfg.LED_COLOR_ORDER, cfg.LED_MAX_LEVEL, period_us)
    runner.buttons["diag"] = diagnostics
    if getattr(hw, "display", None) is not None:     # a panel found at boot: its code loaded only then (RAM)
        from .display import DisplayPart
        runner.parts.append(DisplayPart(hw.display))
    for part in getattr(hw, "parts", ()):            # hal.py's: the wiring's news, a Pico W's radio
        part(runner)
    runner.boot()
    if runner.held("diag"):
        diagnostics(runner, hw.ticks_ms())     # the diag button held at power-up
    return runner


def diagnostics(runner, now):
    """The diag button: diagnostics on or off (scacchiera/diagnostics.py, loaded only then: RAM)."""
    from . import diagnostics
    diagnostics.toggle(runner, now)


def serve(runner, steps=-1):
    """Run the loop (``steps`` scans, or for ever), fed by a watchdog only the loop feeds.

    A crash says why on the serial link and resets the board, which boots
    into the saved game; a hang stops feeding the watchdog, which does the same.
    """
    hw = runner.hw
    hw.start_watchdog(WATCHDOG_MS)
    try:
        runner.run(steps)
    except KeyboardInterrupt:
        heap_unlock_all()    # a Ctrl-C inside a locked stretch (scacchiera/__init__.py) left it locked
        hw.stop_watchdog()   # Ctrl-C on the serial link (the REPL, mpremote): stay stopped
        raise
    except Exception as e:
        heap_unlock_all()    # the crash line needs memory
        runner.crash(e)
        hw.reset()
    return runner


def run(hw=None, steps=-1, period_us=PERIOD_US):
    if hw is None:
        import hal
        hw = hal.Hardware()
    return serve(build(hw, period_us), steps)
