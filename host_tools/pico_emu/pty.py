"""The emulated board's USB serial link as a pseudo-terminal: mpremote, ``make deploy PORT=...``,
``make repl``, ``make pgn`` and any serial tool talk to it as to a Pico on /dev/ttyACM0.

The board starts with the pieces in their starting position. Emulated time runs as fast as the
emulator can (slower than real time), in slices; bytes go both ways between slices.
"""

import os
import select
import sys
import tty

from host_tools.pico_emu.emulator import Emulator, EmulatorError

SLICE_MS = 20
START = list(range(16)) + list(range(48, 64))


def serve(args):
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    try:
        emu = Emulator(uf2=args.uf2, bootrom=args.bootrom, squares=START)
    except EmulatorError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("emulated Pico on %s  (e.g. make repl PORT=%s; Ctrl-C stops)" % (name, name), flush=True)
    sent = 0
    try:
        while True:
            ready, _w, _x = select.select([master], [], [], 0)
            if ready:
                data = os.read(master, 4096)
                if data:
                    emu.send(data)
            emu.run(SLICE_MS)
            out = emu.serial[sent:]
            if out:
                os.write(master, out.encode("latin-1"))
                sent = len(emu.serial)
    except KeyboardInterrupt:
        pass
    finally:
        emu.close()
        os.close(master)
        os.close(slave)
    return 0
