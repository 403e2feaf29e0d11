"""The game journal: the game on the board, durable after every move.

``current.log`` holds one record per line, ASCII (a tag's value in UTF-8: Nicolò stays Nicolò)::

    <payload>|<crc>\\n      crc: CRC-16/CCITT-FALSE of the payload, 4 lowercase hex digits

    S 12 fide <FEN>;{"hints": false}   the start: the game's number (names its archive
                          file), rule profile, start FEN (chess, a Sprint string, or
                          ``chess960`` and an X-FEN) and the options in force (JSON),
                          three copies in a row
    O hints false         an option (a JSON value), in force from here on
    M e2e4                a move
    M e2e4 297000         ...with a clock on: the mover's ms left after it (bonus included)
    T 291000              the running clock's ms left (the side to move's), every MARK_MS of its run
    P White alice         a PGN tag the host gave the game (``tag``); ``P White`` removes it
    A e1g1                the last move, replaced by this one (the tracker amended it)
    U                     the last move taken back
    X resign w            how a game the rules did not end was ended:
    X draw                ...resignation (w or b resigned), agreement,
    X claim               ...a draw claimed (50 moves, threefold),
    X time w              ...a flag fallen (white's), or
    X abandon b           ...a game abandoned (by black) ended by the opponent

(The journals of earlier firmware began with ``G 12`` and ``N fide <FEN>``
records instead of the start record; they are still read.)

Why one flipped bit (a worn flash cell, a cosmic ray) loses at most the
records from the damaged one on, never the game's start: the start record is
written three times, each copy the same length, so the moves begin at three
times the length of the first whole copy. A flipped bit damages one record
(a payload byte or its checksum: CRC-16 sees every single-bit error), or
two (a newline flipped joins two lines into one bad line; no payload holds
``|``, so a joined line never passes for a record), so of three copies one
is always whole. A damaged journal found at boot is kept as ``current.bad``
and the game is rewritten from what was read (``storage_repaired`` says how
many plies that is).

Why a power cut at any instant leaves the game before or after a move, never
a corrupt or empty one:

- A move is one record, appended and closed. A record counts only when it is
  whole: payload, ``|``, checksum and newline. Reading stops at the first
  record that is not, so a torn append (any prefix of the record, erased
  flash, a flipped bit) leaves the records before it: the state before the
  move. An amended move is one ``A`` record, never a takeback then a move.
- Everything else (a new game, compaction past ``MAX_BYTES``, the repair of a
  torn tail found at boot, recovery from a failed write) rewrites the whole
  journal into ``current.tmp``, closes it, then renames it over
  ``current.log``: littlefs renames atomically, so either file is whole.
  ``load`` deletes a leftover ``current.tmp``, or takes it if
  ``current.log`` is gone (a filesystem that renames by remove-then-rename,
  or a repair cut between setting the damaged journal aside and the rename).
- After a torn tail, or after a write failed (flash full), the next write is
  a rewrite, so later records never follow garbage.

littlefs also commits a file only when it is closed, which makes each append
all-or-nothing on the Pico; the checks above do not rely on it, and the tests
cut the power at every byte under both models (host_tools/fakehw/memfs.py).

Reading the journal back (at boot) is journal_reader.py, a module of its own
the Pico loads only then.

A power cut gives back at most MARK_MS of the side to move's time: the last
``T`` record after the last move says what it had left (docs/rules.md, "A
power cut", says why 5 s, against flash wear and the loop's stall).

Flash: about 12 bytes per ply (``M e2e4|3f1c``); past ``MAX_BYTES`` the
journal is rewritten with only the moves that stand.
"""

import json

from .. import const, elapsed, forget
from ..rules import outcome

JOURNAL = "current.log"
TEMP = "current.tmp"
BAD = "current.bad"            # a damaged journal, or one that made the boot fail, kept for a bug report
MAX_BYTES = 16 * 1024
START_COPIES = 3
RETRY_MS = 5000                # after a flash write failed
LINE_WAIT_MS = 30              # a write waits this long at most for the lines to the host to go out
QUIET_MS = 300                 # ...and for the hands at work on the board to pause: no reed changed this long
DUE_MS = 1000                  # ...but once a record has waited this long, only for the debounce (30 ms quiet),
                               # and after twice this long for nothing: a move is saved within 2 s, whatever the hands
_MAX_RECORDS = const(32)       # records waiting past this: the journal is rewritten whole instead (RAM)
MARK_MS = 5000                 # a running clock's time left is saved this often (``T`` records)


def hands_at_work(app, now):
    """Are hands at work on the board: a reed's change the debounce has not reported yet (its first
    30 ms: a piece just lifted), or the tracker's (``Tracker.hands_at_work``)? A long stall of the
    loop now (a flash write, a module's import) could lose their order."""
    return app.debouncer.pending() or app.game.tracker.hands_at_work(now, QUIET_MS)


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of bytes (small ints only)."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def printable(text):
    """True if ``text`` has no control character (C0, DEL, C1) and no UTF-16 surrogate (no character:
    it cannot be written as UTF-8): what a record and a PGN tag can hold."""
    for c in text:
        o = ord(c)
        if o < 32 or 127 <= o < 160 or 0xD800 <= o < 0xE000:
            return False
    return True


def encode(payload):
    """The record line (bytes) for a payload (str without ``|``: ASCII, or UTF-8 in a tag's value)."""
    if "|" in payload:
        raise ValueError("a journal record cannot hold '|'")
    return (payload + "|%04x\n" % crc16(payload.encode())).encode()


def _declaration(result, termination, turn):
    """The ``X`` record of a game the rules did not end (``turn``: the side to move at the end)."""
    if termination == outcome.resignation:
        return "X resign " + ("b" if result == outcome.WHITE_WINS else "w")
    if termination == outcome.agreement:
        return "X draw"
    # The loser (a host's ``end`` may come before the board has the last move), else the side to move.
    loser = "w" if result == outcome.BLACK_WINS else "b" if result == outcome.WHITE_WINS else "wb"[turn]
    if termination == outcome.time_forfeit:
        return "X time " + loser
    if termination == outcome.abandoned:
        return "X abandon " + loser
    return "X claim"


def _move_record(kind, uci, ms):
    return "%s %s %d" % (kind, uci, ms) if ms >= 0 else "%s %s" % (kind, uci)


class Journal:
    """Listens to the game's events and keeps ``current.log`` in step; ``flush()`` writes.

    Events only queue records (no flash access on the scan path); the main
    loop calls ``flush()`` right after the scan that produced them.
    """

    def __init__(self, fs, archive=None, max_bytes=MAX_BYTES):
        self.fs = fs
        self._archive = archive
        self.max_bytes = max_bytes
        self._retry_at = -1            # after a failed write: when to try again (RETRY_MS)
        self._due = -1                 # since when the oldest record not yet written waits (DUE_MS)
        self._waited = -1              # since when a write waits for the lines to the host
        self._event_step = False       # a game event made records in this step: write them in a later one
        self._marked = -1              # when the running clock's time was last saved (-1: at its start)
        self.game = None
        self.position = None          # the Position the journal describes
        self.game_id = 0
        self.options = {}             # option name -> value, as the journal says
        self.tags = None              # the game's PGN tags from the host ({name: value}), or None
        self.times = None             # at boot: the clock time of each ply, as the journal says
        self.size = -1                # bytes in current.log (-1: none yet)
        self.dirty = False            # something waits for flush()
        self.errors = 0
        self.last_error = ""
        self.repaired = False         # load() found a torn or corrupt tail
        self._records = []            # records waiting to be appended
        self._rewrite = False         # the journal must be rewritten whole
        self._keep_bad = False        # ...and the damaged one in place kept as current.bad
        self._archives = []           # [game number, Position, live, tries, version]
        self._archived = None         # the version last written to the archive
        self._changes = 0             # counts the game's changes: (number, changes) is a version

    # -- boot -------------------------------------------------------------------------

    def load(self):
        """The saved game as a Position (None if there is none); notes what a power cut left to repair."""
        from . import journal_reader as reader    # boot only: dropped after (RAM)
        try:
            return reader.load(self)
        finally:
            forget(reader)

    def attach(self, game, restored):
        """Follow ``game`` (restored from this journal, or a new one)."""
        self.game = game
        self.position = game.position
        if not restored:
            self.game_id = self._next_id()
            self._rewrite = True
            self.dirty = True
        elif game.result is not None:       # a finished game: archived already, or now
            if self.archive().has(self.game_id):
                self._archived = (self.game_id, self._changes)
            else:
                self._queue_archive(self.game_id, game.position, True)

    def archive(self):
        """The archive of finished games (its code is loaded when first needed: RAM)."""
        if self._archive is None:
            from .archive import Archive
            self._archive = Archive(self.fs)
        return self._archive

    def _next_id(self):
        """The number after this game's and every archived one's (archive.py's names, read here
        without loading archive.py: RAM)."""
        last = self.game_id
        for name in self.fs.listdir("archive"):
            stem = name[:-4]
            if name.endswith(".pgn") and stem.isdigit():
                last = max(last, int(stem))
        return last + 1

    def _number_used(self):
        """Does the game's number name a game (one with moves, or one archived)? Else the next game keeps it."""
        game_id = self.game_id
        if game_id <= 0 or (self._archived is not None and self._archived[0] == game_id):
            return True
        for entry in self._archives:
            if entry[0] == game_id:
                return True
        return False

    # -- what happens in the game ------------------------------------------------------

    def event(self, ev):
        """A Game listener."""
        kind = ev["kind"]
        if self.game is None:
            return
        records = self._records
        if kind in ("move", "takeback", "game_over"):
            self._changes += 1
            self._marked = -1          # the running clock starts afresh
        if kind == "move":
            ms = self.game.clocks.after(self.game.position.ply())
            if records and records[-1] == "U":
                records[-1] = _move_record("A", ev["uci"], ms)
            else:
                records.append(_move_record("M", ev["uci"], ms))
        elif kind == "takeback":
            records.append("U")
        elif kind == "game_over":
            if ev["termination"] not in outcome.BY_THE_MOVES:     # a replay of the moves would not end there
                records.append(_declaration(ev["result"], ev["termination"], self.game.position.turn))
            self._queue_archive(self.game_id, self.game.position, True)
        elif kind == "new_game":
            old = self.position
            if old is not None and old is not self.game.position and old.ply():
                self._queue_archive(self.game_id, old, False)
            self.position = self.game.position
            if self._number_used():
                self.game_id = self._next_id()
            self.tags = None
            self._records = []
            self._rewrite = True
        elif kind == "resume":
            self.position = self.game.position
        else:
            return
        self._bound()
        self.dirty = True
        self._event_step = True

    def _bound(self):
        """Past _MAX_RECORDS waiting, drop them and rewrite the journal whole from the game (which
        holds everything they say): the records waiting never outgrow the heap."""
        if len(self._records) > _MAX_RECORDS:
            self._records = []
            self._rewrite = True

    def option(self, name, value):
        """An option changed (it applies to this game and the next ones)."""
        self.options[name] = value
        self._records.append("O %s %s" % (name, json.dumps(value)))
        self._bound()
        self.dirty = True

    def tag(self, name, value):
        """A PGN tag for this game (``value`` "": none); a game archived already is archived again."""
        if not printable(name + value):
            raise ValueError("a tag cannot hold a control character")
        tags = dict(self.tags or ())           # a new dict: the archives queued keep theirs
        tags.pop(name, None)
        if value:
            tags[name] = value
        self.tags = tags or None
        self._records.append("P %s %s" % (name, value))
        self._bound()
        self.dirty = True
        if self.game.result is not None:
            self._changes += 1
            self._queue_archive(self.game_id, self.game.position, True)

    def _queue_archive(self, game_id, pos, live):
        """Archive ``pos`` at the next flush (live: the game on the board, once it is over)."""
        version = (game_id, self._changes)
        for entry in self._archives:
            if entry[4] == version:
                return
        self._archives.append([game_id, pos, live, 0, version, self.tags])
        self.dirty = True

    # -- writing ----------------------------------------------------------------------

    def flush(self):
        """Write what waits: archives of games no longer on the board, the journal, then
        the archive of a finished game. True if everything was written."""
        self._waited = -1
        self._event_step = False
        ok = self._write_archives(False)
        try:
            if self._rewrite or self.size < 0:
                self._write_all(self._keep_bad)
            elif self._records:
                self._append()
                if self.size > self.max_bytes:
                    self._write_all()
        except OSError as e:
            self._failed(e)
            self._rewrite = True
            ok = False
        ok = self._write_archives(True) and ok
        self.dirty = bool(self._records or self._rewrite or self._archives)
        return ok

    def _write_archives(self, live):
        """The archives queued of the game on the board (``live``) or of games gone from it; True if
        all were written (archive.py's ``write_queued``: its code loads once a game ends, RAM)."""
        if not self._archives:
            return True
        from .archive import write_queued
        return write_queued(self, live)

    def _failed(self, e):
        self.errors += 1
        self.last_error = "%s: %s" % (type(e).__name__, e)

    def _append(self):
        """The records waiting, appended one by one (no list of them all: RAM)."""
        records = self._records
        size = 0
        with self.fs.open(JOURNAL, "ab") as f:
            for r in records:
                data = encode(r)
                f.write(data)
                size += len(data)
            # The size counts only once the file is closed (littlefs commits then).
        self.size += size
        self._records = []

    def start_record(self):
        """The ``S`` record of the game on the board: number, profile, start, options."""
        pos = self.game.position
        variant = "chess960 " if pos.variant == "chess960" else ""
        return "S %d %s %s%s;%s" % (self.game_id, pos.profile, variant, pos.start_fen, json.dumps(self.options))

    def _write_all(self, keep_bad=False):
        """The whole journal from the live game, written aside then renamed into place.

        keep_bad: the journal in place is damaged; it is kept as ``current.bad``.
        """
        game = self.game
        pos = game.position
        fs = self.fs
        size = 0
        with fs.open(TEMP, "wb") as f:
            data = encode(self.start_record())
            for _ in range(START_COPIES):
                f.write(data)
            size += START_COPIES * len(data)
            tags = self.tags or ()
            for name in tags:
                data = encode("P %s %s" % (name, tags[name]))
                f.write(data)
                size += len(data)
            clocks = game.clocks
            ply = 0
            for m in pos.move_stack:
                ply += 1
                data = encode(_move_record("M", pos.uci(m), clocks.after(ply)))
                f.write(data)
                size += len(data)
            if game.result is not None and game.result[1] not in outcome.BY_THE_MOVES:
                data = encode(_declaration(game.result[0], game.result[1], pos.turn))
                f.write(data)
                size += len(data)
            elif clocks.on and pos.ply():      # the side to move's time, running or paused since boot
                data = encode("T %d" % clocks.left_ms(pos.turn == 0, game.now))
                f.write(data)
                size += len(data)
        if keep_bad and fs.size(JOURNAL) >= 0:
            fs.rename(JOURNAL, BAD)          # a cut here leaves only TEMP: load() takes it
        fs.rename(TEMP, JOURNAL)
        self._keep_bad = False
        self.size = size
        self._records = []
        self._rewrite = False

    # -- the main loop's part (runner.py's hooks): resume at boot, write once the LEDs show a move --

    def boot(self, runner, now):
        """Resume the saved game, or set a damaged journal aside and start one (journal_reader.py)."""
        from . import journal_reader as reader    # boot only: dropped after (RAM)
        try:
            reader.boot(self, runner)
        finally:
            forget(reader)
        if not self._rewrite:
            self._save(runner, now)    # what the resume left to append, durable before the first scan
        # A journal written whole (a first boot, a damaged one set aside, a torn tail cut) is written
        # by the loop's first quiet scan instead: the write erases flash sectors (~45 ms each) that
        # would hold the boot, and a power cut before it loses nothing (the old file stands, or none:
        # the next boot does the same again).

    def scan(self, runner, now):
        """Write what the game did once the LEDs show it and its lines have gone to the host
        (a flash write stalls the loop: the ``move`` line goes first), waiting LINE_WAIT_MS at most;
        every MARK_MS of a running clock, its time left. Allocates nothing when nothing is due.

        Not while hands are at work on the board: a write that erases a flash sector stalls the
        loop ~45 ms, and two changes within one stall reach the tracker together, their order
        lost (a move placed, then the reply's piece lifted, would read as neither). So a move
        made while the reply already begins is written with the reply, once the board is as
        the game says, or once no reed has changed for QUIET_MS; not while the debounce holds a
        reed's change either (its first 30 ms: a reply's piece lifted). A reed's change is
        reported within 30 ms or seen going back, so a chattering one holds no write for ever.
        Quick hands may never pause that long (a reply 50-200 ms after each landing): once the
        oldest record has waited DUE_MS the write waits only for the debounce, after 2 x DUE_MS
        for nothing (``_overdue``), so a move is on the flash within 2 s of its commit whatever
        the hands do (and a power cut loses at most those 2 s)."""
        if self.game is not None and self.game.clocks.running:   # (no local for it: a frame of 11 words, runner.step)
            if self._marked < 0:
                self._marked = self.game.clocks.since
            elif elapsed(now, self._marked) >= MARK_MS:    # (elapsed < 0 would allocate)
                self._marked = now
                self._records.append("T %d" % self.game.clocks.left_ms(self.game.position.turn == 0, now))
                self.dirty = True
        if self.dirty and self._due < 0:
            self._due = now
        if self.dirty and (self._retry_at < 0 or elapsed(now, self._retry_at) >= 0):
            if self._event_step:
                self._event_step = False
                return                 # not in the step whose game made the records (a move's commit: ~12 ms on the Pico)
            if self._waited < 0:
                self._waited = now
            if runner.protocol.out and elapsed(now, self._waited) < LINE_WAIT_MS:
                return
            if hands_at_work(runner.app, now) and not self._overdue(runner.app, now):
                return
            runner.show(now)           # the move's LEDs first
            self._save(runner, now)
            runner.still()             # the board is still: a moment for the garbage collector

    def tick(self, runner, now):
        pass

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        self.flush()

    def _overdue(self, app, now):
        """Has the oldest record waited DUE_MS, and the debounce no change to report (a reed quiet
        30 ms: the write's stall meets at most a change that starts in it), or 2 x DUE_MS? Quick
        hands never pause QUIET_MS: a player who replies before each move settles saved nothing."""
        waited = elapsed(now, self._due)
        return waited >= DUE_MS and (not app.debouncer.pending() or waited >= 2 * DUE_MS)

    def _save(self, runner, now):
        self._due = -1
        if self.flush():
            self._retry_at = -1
        else:
            self._retry_at = (now + RETRY_MS) & 0x3FFFFFFF
            runner.protocol.send({"ev": "storage_error", "message": self.last_error})
