"""The filesystem interface the storage code uses, over MicroPython's (or CPython's) ``os``.

Names are relative to ``root`` and use "/". The interface, which test doubles
copy (host_tools/fakehw/memfs.py)::

    open(name, mode)      a file object: read, readline, write, close, with-statement
    rename(old, new)      replaces ``new`` if it exists
    remove(name)
    listdir(folder)       names in ``folder`` ("" is the root)
    size(name)            bytes in the file, -1 if there is none
    mkdir(folder)         no error if it exists

On the Pico the flash holds a littlefs v2 filesystem: a file's new contents
are committed when it is closed, and ``os.rename`` replaces its target in one
atomic step. The journal does not rely on the first (it checks every record)
and needs the second only when it rewrites itself (see journal.py). On a
filesystem whose rename refuses an existing target (FAT), ``rename`` removes
the target first; the journal then recovers from the temporary file.
"""

import os


class OsFS:
    def __init__(self, root):
        self.root = root.rstrip("/")
        self._made = False

    def path(self, name):
        return self.root + "/" + name if name else self.root

    def _ensure_root(self):
        if not self._made:
            self._made = True
            parts = self.root.split("/")
            for i in range(1, len(parts) + 1):
                p = "/".join(parts[:i])
                if p:
                    try:
                        os.mkdir(p)
                    except OSError:
                        pass

    def open(self, name, mode="rb"):
        if "r" not in mode:
            self._ensure_root()
        return open(self.path(name), mode)

    def rename(self, old, new):
        try:
            os.rename(self.path(old), self.path(new))
        except OSError:
            # FAT and Windows refuse to replace: not atomic, but journal.load() recovers.
            if self.size(new) < 0:
                raise
            os.remove(self.path(new))
            os.rename(self.path(old), self.path(new))

    def remove(self, name):
        os.remove(self.path(name))

    def listdir(self, folder=""):
        try:
            return os.listdir(self.path(folder))
        except OSError:
            return []

    def size(self, name):
        try:
            return os.stat(self.path(name))[6]
        except OSError:
            return -1

    def mkdir(self, folder):
        self._ensure_root()
        try:
            os.mkdir(self.path(folder))
        except OSError:
            pass

    def usage(self):
        """(total, free) bytes of the filesystem, or None if ``os.statvfs`` is missing."""
        try:
            st = os.statvfs(self.root or "/")
        except (AttributeError, OSError):
            return None
        return st[0] * st[2], st[0] * st[3]
