"""The emulated Pico as a Python object: tools/rp2040/harness.mjs (rp2040js) in a node process.

``Emulator`` boots a ``.uf2`` from erased flash, as a maker's new Pico: ``make
uf2``'s scacchiera.uf2 as it is; or a MicroPython alone, with the firmware
(``make firmware``'s build) laid in its flash as a board gets it: for
MicroPython with a ROMFS partition (the default, ../shared/rp2040's
RPI_PICO_ROMFS), ``make uf2``'s parts; for the stock RPI_PICO, ``make
deploy``'s files on its filesystem. It exposes what a person and a host
do to the board: set the squares' magnets, press buttons, send serial bytes,
cut the power, power it on; and what comes back: serial output, the WS2812
frames the firmware sent (decoded from the LED pin's pulse widths), resets.
Emulated time advances only in ``run``: the same calls give the same results.
"""

import base64
import json
import os
import subprocess
import tempfile

from host_tools import _paths  # noqa: F401  (board_config on the path)
from host_tools.pico_emu import flash

import board_config as cfg
from ssd1306_model import Ssd1306Model

ROOT = _paths._ROOT
HARNESS = os.path.join(ROOT, "tools", "rp2040", "harness.mjs")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "rp2040")
DEFAULT_UF2 = os.path.join(SHARED, "RPI_PICO_ROMFS-v1.28.0.uf2")
STOCK_UF2 = os.path.join(SHARED, "RPI_PICO-v1.28.0.uf2")
DEFAULT_BOOTROM = os.path.join(SHARED, "rp2040-bootrom-B1.bin")
WHERE_UF2 = ("MicroPython v1.28.0 for the Pico with a ROMFS partition, RPI_PICO_ROMFS-v1.28.0.uf2 "
             "(docs/flashing.md builds it), or make uf2's scacchiera.uf2 (pass UF2=path, or set SCACCHIERA_UF2)")
WHERE_STOCK_UF2 = ("the stock MicroPython v1.28.0 for the Pico, RPI_PICO-v1.28.0.uf2 from "
                   "https://micropython.org/download/RPI_PICO/ (set SCACCHIERA_STOCK_UF2)")
WHERE_BOOTROM = ("the RP2040 bootrom B1 (16 KiB, rp2040-bootrom-B1.bin), built from Raspberry Pi's "
                 "pico-bootrom-rp2040 sources (set SCACCHIERA_BOOTROM, or put it beside the .uf2)")


class EmulatorError(RuntimeError):
    pass


def find_uf2(path=None):
    """The MicroPython .uf2 to run: ``path``, $SCACCHIERA_UF2, or ../shared/rp2040's; None if none exists."""
    for candidate in (path, os.environ.get("SCACCHIERA_UF2"), DEFAULT_UF2):
        if candidate:
            return candidate if os.path.exists(candidate) else None
    return None


def find_stock_uf2():
    """The stock MicroPython (no ROMFS: make deploy's layout), or None if there is none."""
    path = os.environ.get("SCACCHIERA_STOCK_UF2") or STOCK_UF2
    return path if os.path.exists(path) else None


def find_bootrom(uf2=None, path=None):
    """The RP2040 bootrom: ``path``, $SCACCHIERA_BOOTROM, beside the .uf2, or ../shared/rp2040's."""
    beside = os.path.join(os.path.dirname(os.path.abspath(uf2)), "rp2040-bootrom-B1.bin") if uf2 else None
    for candidate in (path, os.environ.get("SCACCHIERA_BOOTROM"), beside, DEFAULT_BOOTROM):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def missing(uf2=None, bootrom=None):
    """Why the emulated board cannot run here (a message saying what to supply), or None."""
    uf2 = find_uf2(uf2)
    if uf2 is None:
        return "no MicroPython .uf2: supply " + WHERE_UF2
    if find_bootrom(uf2, bootrom) is None:
        return "no RP2040 bootrom: supply " + WHERE_BOOTROM
    if not os.path.exists(os.path.join(ROOT, "tools", "rp2040", "node_modules", "rp2040js")):
        return "rp2040js is not installed: run `make deps`"
    return None


def build_firmware(dest=None):
    """``make firmware``'s build (the .mpy files and main.py) in ``dest``; returns the folder."""
    from host_tools import deploy
    dest = dest or os.path.join(ROOT, "build", "firmware")
    deploy.build(dest)
    return dest


def _assembled_uf2(firmware, base):
    """scacchiera.uf2 from an existing build folder (make uf2's parts around it), in a folder beside
    it, made again only when the build or ``base`` is newer."""
    from host_tools import deploy
    dest = firmware.rstrip(os.sep) + ("-w-uf2" if deploy.uf2_info(base).get("pico_w") else "-uf2")
    out = os.path.join(dest, deploy.uf2_names(base)[0])
    newest = max([os.path.getmtime(os.path.join(here, n)) for here, _d, names in os.walk(firmware) for n in names]
                 + [os.path.getmtime(base)])
    if not os.path.exists(out) or os.path.getmtime(out) < newest:
        deploy.assemble_uf2(firmware, base, dest)
    return out


# A column a closed reed pulled LOW reads 1 again this long after it is let go: a short hand-wired
# board's (the Pico's ~50 kOhm pull-up and ~100 pF). The PCBs' figures come from
# host_tools/fakehw/columns.py; the scan waits what hal.py measured at boot (hal.scan_matrix).
COLUMN_RISE_US = 5


class Emulator:
    """One emulated board, from erased flash. ``uf2``: make uf2's scacchiera.uf2, or a MicroPython
    (find_uf2's) to which ``firmware`` is added as the board gets it: a folder with ``make
    firmware``'s build (built if None)."""

    def __init__(self, uf2=None, bootrom=None, firmware=None, squares=(), display=False,
                 column_rise_us=COLUMN_RISE_US, xip_cache=True):
        from host_tools import deploy
        self.uf2 = find_uf2(uf2)
        self.bootrom = find_bootrom(self.uf2, bootrom)
        why = missing(uf2, bootrom)
        if why:
            raise EmulatorError(why)
        self._tmp = tempfile.TemporaryDirectory(prefix="scacchiera-pico-")
        info = deploy.uf2_info(self.uf2)
        self.layout = flash.layout_of(info)
        image = None                   # a filesystem laid in the flash beside the UF2 (make deploy's)
        if len(info["runs"]) == 1:     # MicroPython alone: the firmware added as the board gets it
            firmware = firmware or build_firmware(os.path.join(self._tmp.name, "firmware"))
            if self.layout is not flash.STOCK:
                self.uf2 = _assembled_uf2(firmware, self.uf2)
            else:
                image = os.path.join(self._tmp.name, "fs.img")
                with open(image, "wb") as f:
                    f.write(flash.build_image(firmware))
        self.t_ms = 0.0              # emulated time since the first power-on
        self.device_ms = 0.0         # the chip's own clock (since its last reset or power-on)
        self.powered = True
        self.serial = ""             # every byte the board wrote, as text (latin-1)
        self.frames = []             # (t_ms, device_ms, pixels): WS2812 frames, chain order, GRB bytes
        self.resets = []             # {"t_ms", "cause"}: watchdog or forced resets
        self.boots = [0.0]           # when each run of the firmware began (power-on or reset)
        self.cuts = []               # when the power was cut
        self.occupied = set(squares)
        self.buttons = set()
        # The optional SSD1306 on the board's I2C bus (``display``): what the firmware sent it, decoded.
        self.panel = Ssd1306Model(cfg.OLED_WIDTH, cfg.OLED_HEIGHT) if display else None
        self._proc = subprocess.Popen(["node", HARNESS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, cwd=ROOT)
        pins = {"rows": list(cfg.ROW_PINS), "cols": list(cfg.COL_PINS),
                "buttons": [pin for _name, pin in cfg.BUTTONS], "led": cfg.LED_PIN}
        self._call(op="init", uf2=self.uf2, bootrom=self.bootrom, fs_image=image, fs_offset=self.layout.fs_offset,
                   cells=[list(cfg.square_to_rc(sq)) for sq in range(64)], pins=pins, led_count=cfg.LED_COUNT,
                   oled={"bus": cfg.OLED_I2C, "address": cfg.OLED_ADDRESS} if display else None, i2c_bus=cfg.OLED_I2C,
                   column_rise_ns=int(column_rise_us * 1000), xip=bool(xip_cache))
        self._call(op="squares", occupied=sorted(self.occupied))

    # -- the node process -------------------------------------------------------------

    def _call(self, **command):
        if self._proc.poll() is not None:
            raise EmulatorError("the emulator process has exited (%s)" % self._proc.returncode)
        self._proc.stdin.write(json.dumps(command) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise EmulatorError("the emulator process stopped answering")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise EmulatorError(reply.get("error", "emulator error"))
        self.t_ms = reply["t_ms"]
        self.powered = reply["powered"]
        if reply["device_ms"] is not None:
            self.device_ms = reply["device_ms"]
        self.serial += reply["serial"]
        for reset in reply["resets"]:
            self.resets.append(reset)
            self.boots.append(reset["t_ms"])
        for t_ms, device_ms, pixels in reply["frames"]:
            self.frames.append((t_ms, device_ms, bytes.fromhex(pixels)))
        for transfer in reply.get("i2c", ()):
            self.panel.write(bytes.fromhex(transfer), cfg.OLED_I2C_HZ)
        return reply

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- what the world does to the board ------------------------------------------------

    def run(self, ms):
        """Let ``ms`` of emulated time pass."""
        return self._call(op="run", ms=ms)

    def set_squares(self, occupied):
        self.occupied = set(occupied)
        self._call(op="squares", occupied=sorted(self.occupied))

    def set_square(self, square, present):
        (self.occupied.add if present else self.occupied.discard)(square)
        self._call(op="squares", occupied=sorted(self.occupied))

    def button(self, name, pressed):
        pin = cfg.button_pin(name)
        if pin is None:
            raise EmulatorError("the board has no button %r" % name)
        self._call(op="button", pin=pin, pressed=bool(pressed))

    def send(self, data):
        """Bytes (or text) from the host on the USB serial link."""
        if isinstance(data, bytes):
            data = data.decode("latin-1")
        self._call(op="serial", data=data)

    def power_cut(self):
        """The USB cable pulled: the chip stops where it is; the flash keeps what it had; the LEDs go dark."""
        self._call(op="power_cut")
        self.cuts.append(self.t_ms)

    def boot(self):
        """Power on (after a cut, or a cut and power-on at once)."""
        self._call(op="boot")
        self.boots.append(self.t_ms)

    def fault(self, what):
        """A hardware fault until the next reset: ``flash-stuck`` (the flash never leaves busy)."""
        self._call(op="fault", what=what)

    def flash_files(self):
        """{path: bytes} of the board's filesystem now, read back from the emulated flash."""
        reply = self._call(op="flash", offset=self.layout.fs_offset, length=self.layout.fs_bytes)
        return flash.read_files(base64.b64decode(reply["image"]), self.layout)

    def drop_uf2(self, path):
        """BOOTSEL held at power-up and ``path`` copied to the Pico's drive, as a maker updates a
        board: the sectors it has blocks for are written, the rest of the flash kept; then it boots."""
        from host_tools import deploy
        info = deploy.uf2_info(path)
        self._call(op="drop_uf2", uf2=os.path.abspath(path))
        self.layout = flash.layout_of(info)
        self.boots.append(self.t_ms)

    def flash_stats(self):
        """Flash work so far: sector erases, page programs, and the time the chip was busy with them."""
        return self._call(op="stats")["flash"]

    def xip_stats(self):
        """The XIP cache model's count since power-on: {"hits", "misses", "miss_cycles", "on"}
        (harness.mjs: each miss stalls the chip ``miss_cycles``; ``on`` False: not modelled)."""
        return self._call(op="stats")["xip"]

    def scan_stats(self):
        """Scans counted on the pins since power-on (each time row 0 is pulled LOW, as a rig counts
        them): {"count": n, "gaps": [[t_ms, ms], ...]}, every interval between two scans over 10 ms."""
        return self._call(op="stats")["scans"]

    def profile(self, on=True, top=40):
        """Count the instructions the chip executes per 32-byte block of code (``on``); stop and return
        ``(total, [(address, count)])``, the ``top`` busiest blocks first (``on=False``). The firmware
        has no symbols: docs/emulator.md says how an address was named (gc_alloc's table walk)."""
        reply = self._call(op="profile", on=on, top=top)
        return None if on else (reply["total"], [tuple(item) for item in reply["top"]])

    # -- what comes back ---------------------------------------------------------------------

    def lines(self):
        """The serial output so far, as lines (JSON objects where they parse, else text)."""
        out = []
        for text in self.serial.replace("\r", "").split("\n")[:-1]:
            text = text.encode("latin-1").decode("utf-8", "replace")   # a line's bytes are UTF-8 (a tag: Nicolò)
            try:
                out.append(json.loads(text))
            except ValueError:
                out.append(text)
        return out

    def frames_since_boot(self):
        """WS2812 frames written by the firmware since it last started (device time, pixels)."""
        start = self.boots[-1]
        return [(device_ms, px) for t_ms, device_ms, px in self.frames if t_ms >= start]

    def pixels(self):
        """What the strip shows now: the last frame (WS2812s keep it across a reset); dark after a power cut."""
        cut = self.cuts[-1] if self.cuts else -1.0
        if self.frames and self.frames[-1][0] >= cut:
            return self.frames[-1][2]
        return bytes(3 * cfg.LED_COUNT)
