"""The Pico's filesystem as a littlefs2 image: what ``make deploy`` puts on the board, for the emulator.

MicroPython's RPI_PICO build keeps a littlefs2 filesystem in the last 1408 KiB
of its 2 MiB flash (offset 0xA0000: 352 blocks of 4096 B, program size 256)
and mounts it as ``/``. PyPI's ``littlefs-python`` builds the same layout;
``read_files`` opens an image read back from the emulated flash.
"""

import os

FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
READ_SIZE = 32       # MicroPython's VfsLfs2 default
LOOKAHEAD = 32


def _fs(**kwargs):
    import littlefs
    return littlefs.LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE,
                             read_size=READ_SIZE, lookahead_size=LOOKAHEAD, **kwargs)


def build_image(folder):
    """A littlefs2 image (bytes) holding ``folder``'s files at ``/`` (``make firmware``'s build/firmware)."""
    fs = _fs()
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        rel = os.path.relpath(here, folder).replace(os.sep, "/")
        if rel != ".":
            fs.mkdir(rel)
        for name in sorted(files):
            path = name if rel == "." else rel + "/" + name
            with open(os.path.join(here, name), "rb") as src, fs.open(path, "wb") as dst:
                dst.write(src.read())
    return bytes(fs.context.buffer)


def read_files(image):
    """{path: bytes} of every file in a littlefs2 image read back from the emulated flash."""
    import littlefs
    fs = _fs(mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    out = {}
    for here, _dirs, files in fs.walk("/"):
        for name in files:
            path = here.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out
