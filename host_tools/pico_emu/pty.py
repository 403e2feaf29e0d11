"""The emulated board's USB serial link as a pseudo-terminal: mpremote, ``make deploy PORT=...``,
``make repl``, ``make pgn`` and any serial tool talk to it as to a Pico on /dev/ttyACM0.

The board starts with the pieces in their starting position. Emulated time runs as fast as the
emulator can (slower than real time), in slices; bytes go both ways between slices.
"""

import os
import select
import sys
import threading
import tty

from host_tools.pico_emu.emulator import Emulator, EmulatorError

SLICE_MS = 20
START = list(range(16)) + list(range(48, 64))


class SerialLink:
    """``emu``'s serial link on a pseudo-terminal (``name``), served slice by slice: ``step`` once,
    or ``start`` a thread that serves until ``stop``. ``held`` is the lock a slice runs under: hold
    it to do something else to the board between slices (a UF2 dropped on it, say)."""

    def __init__(self, emu):
        self.emu = emu
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.name = os.ttyname(self.slave)
        self.held = threading.Lock()
        self._sent = len(emu.serial)
        self._stop = threading.Event()
        self._thread = None

    def step(self):
        with self.held:
            ready, _w, _x = select.select([self.master], [], [], 0)
            if ready:
                data = os.read(self.master, 4096)
                if data:
                    self.emu.send(data)
            self.emu.run(SLICE_MS)
            out = self.emu.serial[self._sent:]
            if out:
                os.write(self.master, out.encode("latin-1"))
                self._sent = len(self.emu.serial)

    def start(self):
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        return self

    def _serve(self):
        while not self._stop.is_set():
            self.step()

    def stop(self):
        """Stop serving, once the bytes the tool wrote last have reached the board: mpremote writes its
        ``reset`` and exits, and a thread stopped before its next slice would leave them unread (the
        board then sat in the raw REPL: a test's status went unanswered, now and then, on a busy machine)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        while select.select([self.master], [], [], 0)[0]:
            self.step()
        os.close(self.master)
        os.close(self.slave)


def serve(args):
    try:
        emu = Emulator(uf2=args.uf2, bootrom=args.bootrom, squares=START)
    except EmulatorError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    link = SerialLink(emu)
    print("emulated Pico on %s  (e.g. make repl PORT=%s; Ctrl-C stops)" % (link.name, link.name), flush=True)
    try:
        while True:
            link.step()
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        emu.close()
    return 0
