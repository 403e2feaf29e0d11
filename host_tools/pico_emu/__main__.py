"""python -m host_tools.pico_emu --uf2 FILE --script FILE [--json] [--fen FEN] [--variant sprint --seed N] [--heap] [--display]
   python -m host_tools.pico_emu --uf2 FILE --pty     (the board's USB serial as a pseudo-terminal)"""

import argparse
import json
import sys

from host_tools import _paths  # noqa: F401
from host_tools.companion.cli import add_board_arguments
from host_tools.hands import play_lines, read_script
from host_tools.pico_emu.emulator import EmulatorError, missing


def run_script(args):
    from host_tools.pico_emu.board import PicoHands
    try:
        text, setup = read_script(args)
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        hands = PicoHands(*setup, uf2=args.uf2, bootrom=args.bootrom, display=args.display)
    except (ValueError, EmulatorError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        describe = None if args.json else (lambda ev: " ".join("%s=%s" % (k, v) for k, v in sorted(ev.items())))
        if play_lines(hands, text, lambda: hands.events, describe):
            return 1
        state = hands.snapshot(heap=args.heap)
        if args.display:
            from host_tools.pico_emu.panel import text_lines
            state["display"] = text_lines(hands.emu.panel)
    except EmulatorError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    finally:
        hands.emu.close()
    if args.json:
        print(json.dumps(state))
    else:
        print("result: %s%s" % (state["result"], " (%s)" % state["termination"] if state["termination"] else ""))
        print("fen: %s" % state["fen"])
        print("emulated: %d ms, %s scans/s" % (state["emulated_ms"], state["scan_rate"]))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.pico_emu",
                                     description="The Scacchiera firmware on MicroPython for the Pico, in an "
                                                 "emulated RP2040 (rp2040js), with the board's wiring as a model.")
    parser.add_argument("--uf2", help="make uf2's scacchiera.uf2, booted as it is from erased flash; or a MicroPython "
                                      "for the Pico, the firmware added as a board gets it (default: $SCACCHIERA_UF2 "
                                      "or ../shared/rp2040's RPI_PICO_ROMFS)")
    parser.add_argument("--bootrom", help="the RP2040 bootrom B1 (default: beside the .uf2, or ../shared/rp2040)")
    parser.add_argument("--script", metavar="FILE", help="run a hands script (the simulator's format) and exit")
    parser.add_argument("--json", action="store_true", help="with --script: print one JSON object at the end")
    parser.add_argument("--heap", action="store_true",
                        help="with --script: measure the free heap at the end (stops the firmware: Ctrl-C)")
    parser.add_argument("--display", action="store_true",
                        help="an SSD1306 on the board's I2C bus (found at boot); with --json, \"display\": its 8 lines")
    add_board_arguments(parser)
    args = parser.parse_args(argv)
    why = missing(args.uf2, args.bootrom)
    if why:
        print("error: %s" % why, file=sys.stderr)
        return 2
    if args.script:
        return run_script(args)
    if args.pty:
        from host_tools.pico_emu.pty import serve
        return serve(args)
    parser.error("give --script FILE or --pty")


if __name__ == "__main__":
    sys.exit(main())
