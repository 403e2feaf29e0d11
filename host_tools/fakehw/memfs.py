"""An in-memory filesystem that can lose power (or fail a write) at any byte.

It has the interface of firmware/scacchiera/storage/fs.py, so the journal
and the archive run on it unchanged. Every byte written, and every close,
rename and remove, is one *tick*; ``cut_at = k`` cuts the power at tick k
(that operation and everything after it never happen: ``PowerCut`` is
raised and the filesystem is dead until ``reboot()``), ``fail_at = k``
makes tick k raise OSError (ENOSPC) instead while the board keeps running,
and ``full = True`` fails every write.

Two models of what a cut leaves (``mode``):

- ``"torn"``: each byte reaches the flash as it is written, and opening a
  file with "w" empties it at once (FAT, or raw flash): a cut keeps exactly
  the first bytes of a write.
- ``"littlefs"``: littlefs v2 as on the Pico: a file's new contents are
  committed when it is closed, all at once; a cut before the close leaves
  the old contents (a new file exists, empty, from its open).

In both, ``rename`` replaces its target in one step (littlefs does).
Plain Python that also runs on MicroPython.
"""

ENOENT = 2
ENOSPC = 28


class PowerCut(Exception):
    """The power went at this instant."""


class MemFS:
    def __init__(self, mode="torn"):
        if mode not in ("torn", "littlefs"):
            raise ValueError("mode is torn or littlefs")
        self.mode = mode
        self.files = {}        # name -> bytearray: what the flash holds
        self.dirs = [""]
        self.ticks = 0
        self.cut_at = -1
        self.fail_at = -1
        self.full = False
        self.dead = False

    # -- faults -------------------------------------------------------------------

    def tick(self, write=False):
        if self.dead:
            raise PowerCut("the power is off")
        if self.ticks == self.cut_at:
            self.dead = True
            raise PowerCut("power cut at tick %d" % self.ticks)
        t = self.ticks
        self.ticks += 1
        if t == self.fail_at or (write and self.full):
            raise OSError(ENOSPC, "no space left (simulated)")

    def reboot(self):
        """Power back: the files are whatever reached the flash; faults are cleared."""
        self.dead = False
        self.cut_at = -1
        self.fail_at = -1
        self.full = False

    # -- the interface ------------------------------------------------------------------

    def _folder(self, name):
        i = name.rfind("/")
        return name[:i] if i >= 0 else ""

    def open(self, name, mode="rb"):
        if self.dead:
            raise PowerCut("the power is off")
        return MemFile(self, name, mode)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(ENOENT, old)
        if self._folder(new) not in self.dirs:
            raise OSError(ENOENT, new)
        self.tick()
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        if name not in self.files:
            raise OSError(ENOENT, name)
        self.tick()
        del self.files[name]

    def listdir(self, folder=""):
        prefix = folder + "/" if folder else ""
        names = []
        for name in self.files:
            if name.startswith(prefix) and "/" not in name[len(prefix):]:
                names.append(name[len(prefix):])
        for d in self.dirs:
            if d and d.startswith(prefix) and "/" not in d[len(prefix):]:
                names.append(d[len(prefix):])
        return names

    def size(self, name):
        data = self.files.get(name)
        return -1 if data is None else len(data)

    def mkdir(self, folder):
        if folder not in self.dirs:
            self.dirs.append(folder)

    def read(self, name):
        """The bytes on flash (for tests)."""
        return bytes(self.files[name])

    def usage(self):
        return None


class MemFile:
    def __init__(self, fs, name, mode):
        self.fs = fs
        self.name = name
        self.closed = False
        self.writing = "r" not in mode
        if not self.writing:
            if name not in fs.files:
                raise OSError(ENOENT, name)
            self.data = bytes(fs.files[name])
            self.pos = 0
            return
        if fs._folder(name) not in fs.dirs:
            raise OSError(ENOENT, name)
        fs.tick()
        exists = name in fs.files
        if fs.mode == "torn":
            if "w" in mode or not exists:
                fs.files[name] = bytearray()
            self.pending = None
        else:
            if not exists:
                fs.files[name] = bytearray()
            self.pending = bytearray() if "w" in mode else bytearray(fs.files[name])

    def write(self, data):
        if self.closed or not self.writing:
            raise OSError(9, "not open for writing")
        fs = self.fs
        for b in data:
            fs.tick(True)
            if self.pending is None:
                target = fs.files.get(self.name)
                if target is not None:
                    target.append(b)
            else:
                self.pending.append(b)
        return len(data)

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.writing:
            self.fs.tick()
            if self.pending is not None:
                self.fs.files[self.name] = self.pending

    def read(self, n=-1):
        end = len(self.data) if n is None or n < 0 else min(len(self.data), self.pos + n)
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def readline(self):
        i = self.data.find(b"\n", self.pos)
        end = len(self.data) if i < 0 else i + 1
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
