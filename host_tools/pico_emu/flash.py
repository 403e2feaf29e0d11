"""The Pico's filesystem as a littlefs2 image, in either layout of the flash.

MicroPython keeps a littlefs2 filesystem at the end of the Pico's 2 MiB flash
and mounts it as ``/`` (blocks of 4096 B, program size 256). Where it starts
depends on the build (hardware/micropython/ROMFS_BUILD.md):

- ``STOCK``, the official RPI_PICO: 1408 KiB at offset 0xA0000 (352 blocks),
  holding the whole firmware after ``make deploy``;
- ``ROMFS``, RPI_PICO_ROMFS (``make uf2``): the firmware in a 384 KiB ROMFS
  partition at 0xA0000, the filesystem 1024 KiB at 0x100000 (256 blocks);
- ``ROMFS_W``, RPI_PICO_W_ROMFS (``make uf2 BOARD=RPI_PICO_W``): the W's larger
  MicroPython (CYW43, BTstack) keeps its 1200 KiB region, the ROMFS partition at
  0x12C000, the filesystem 464 KiB at 0x18C000 (116 blocks).

PyPI's ``littlefs-python`` builds the same layout; ``read_files`` opens an
image read back from the emulated flash.
"""

import os

BLOCK_SIZE = 4096
PROG_SIZE = 256
READ_SIZE = 32       # MicroPython's VfsLfs2 default
LOOKAHEAD = 32
XIP_BASE = 0x10000000


class Layout:
    """Where a build of MicroPython keeps its filesystem (and its ROMFS partition, if any)."""

    def __init__(self, name, fs_offset, block_count, romfs_offset=None, romfs_bytes=0):
        self.name = name
        self.fs_offset = fs_offset
        self.block_count = block_count
        self.romfs_offset = romfs_offset
        self.romfs_bytes = romfs_bytes

    @property
    def fs_bytes(self):
        return self.block_count * BLOCK_SIZE


STOCK = Layout("stock", 0xA0000, 352)
ROMFS = Layout("romfs", 0x100000, 256, romfs_offset=0xA0000, romfs_bytes=384 * 1024)
ROMFS_W = Layout("romfs-w", 0x18C000, 116, romfs_offset=0x12C000, romfs_bytes=384 * 1024)


def layout_of(info):
    """The layout of the MicroPython a UF2 holds (deploy.uf2_info's answer)."""
    if not info["romfs_build"]:
        return STOCK
    return ROMFS_W if info.get("pico_w") else ROMFS


def _fs(layout, **kwargs):
    import littlefs
    return littlefs.LittleFS(block_size=BLOCK_SIZE, block_count=layout.block_count, prog_size=PROG_SIZE,
                             read_size=READ_SIZE, lookahead_size=LOOKAHEAD, **kwargs)


def build_image(folder, layout=STOCK, only=None):
    """A littlefs2 image (bytes) holding ``folder``'s files at ``/`` (``make firmware``'s
    build/firmware), or only the files named in ``only`` (paths relative to ``folder``)."""
    fs = _fs(layout)
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        rel = os.path.relpath(here, folder).replace(os.sep, "/")
        for name in sorted(files):
            path = name if rel == "." else rel + "/" + name
            if only is not None and path not in only:
                continue
            parent = ""
            for part in path.split("/")[:-1]:
                parent = parent + "/" + part if parent else part
                try:
                    fs.mkdir(parent)
                except FileExistsError:
                    pass
            with open(os.path.join(here, name), "rb") as src, fs.open(path, "wb") as dst:
                dst.write(src.read())
    return bytes(fs.context.buffer)


def read_files(image, layout=STOCK):
    """{path: bytes} of every file in a littlefs2 image read back from the emulated flash."""
    fs = _fs(layout, mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    out = {}
    for here, _dirs, files in fs.walk("/"):
        for name in files:
            path = here.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out
