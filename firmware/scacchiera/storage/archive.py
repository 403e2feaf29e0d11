"""Finished games as PGN files, a bounded archive: the oldest rotate out.

Files are ``archive/NNNNN.pgn`` where NNNNN is the game's number (the
journal's start record), at least five digits (``00042.pgn``, ``123456.pgn``), so archiving the same game twice (after a crash
between writing the PGN and starting the next game) overwrites one file.
Each file is written to ``archive/tmp.pgn`` and renamed into place: a power
cut leaves the old archive and at most a stray ``tmp.pgn``, never half a game.

Before a new file is written, the oldest games are removed until both caps
hold with it: at most ``max_games`` files and ``max_bytes`` bytes. The
defaults (64 games, 192 KiB) are 19 % of the Pico's 1024 KiB filesystem (the
ROMFS build) and 41 % of the Pico W's 464 KiB (its ROMFS build: docs/flashing.md);
a 300-ply game is about 2.5 KB of PGN, so the count cap comes first.
"""

FOLDER = "archive"
TEMP = "tmp.pgn"
MAX_GAMES = 64
MAX_BYTES = 192 * 1024


def file_name(game_id):
    return "%05d.pgn" % game_id


def game_id_of(name):
    """The game number of an archive file name (any number of digits), or -1."""
    stem = name[:-4]
    if not name.endswith(".pgn") or not stem.isdigit():
        return -1
    number = int(stem)
    return number if file_name(number) == name else -1


class Archive:
    def __init__(self, fs, max_games=MAX_GAMES, max_bytes=MAX_BYTES, folder=FOLDER):
        self.fs = fs
        self.folder = folder
        self.max_games = max_games
        self.max_bytes = max_bytes

    def _path(self, name):
        return self.folder + "/" + name

    def ids(self):
        """Archived game numbers, oldest first."""
        ids = [game_id_of(n) for n in self.fs.listdir(self.folder)]
        ids = [i for i in ids if i >= 0]
        ids.sort()
        return ids

    def last_id(self):
        ids = self.ids()
        return ids[-1] if ids else 0

    def games(self):
        """[(game number, bytes)], oldest first."""
        return [(i, self.fs.size(self._path(file_name(i)))) for i in self.ids()]

    def has(self, game_id):
        return self.fs.size(self._path(file_name(game_id))) >= 0

    def used(self):
        return sum(size for _i, size in self.games() if size > 0)

    def read(self, game_id):
        """The PGN text of a game; OSError if it is not archived."""
        if not isinstance(game_id, int) or game_id_of(file_name(game_id)) != game_id:
            raise OSError(2, "no such game")
        with self.fs.open(self._path(file_name(game_id)), "rb") as f:
            return f.read().decode()

    def save(self, game_id, text):
        """Store a game's PGN (replacing an earlier copy of the same game)."""
        data = text.encode()
        self.fs.mkdir(self.folder)
        self._make_room(len(data), game_id)
        tmp = self._path(TEMP)
        with self.fs.open(tmp, "wb") as f:
            f.write(data)
        self.fs.rename(tmp, self._path(file_name(game_id)))

    def _make_room(self, need, game_id):
        games = [(i, s) for i, s in self.games() if i != game_id]
        used = sum(s for _i, s in games if s > 0)
        while games and (len(games) + 1 > self.max_games or used + need > self.max_bytes):
            oldest, size = games.pop(0)
            self.fs.remove(self._path(file_name(oldest)))
            used -= max(size, 0)


# -- the journal's games as PGN (storage/journal.py's: this code loads when first used, RAM) --

def pgn(journal, pos, game_id=None, tags=-1):
    """``pos``'s PGN, with the host's tags (``tags``: those of an archived game; else the journal's game's)."""
    given = {"Event": "Scacchiera", "Round": str(journal.game_id if game_id is None else game_id)}
    given.update((journal.tags if tags == -1 else tags) or ())
    return pos.pgn(given)


def write_queued(journal, live):
    """Write the journal's queued archives of the game on the board (``live``: once it is over) or
    of games gone from it; those that fail are tried again at the next flush, three times in all."""
    ok = True
    keep = []
    for entry in journal._archives:
        game_id, pos, is_live, tries, version, tags = entry
        if is_live != live:
            keep.append(entry)
            continue
        if live and (journal.game.position is not pos or journal.game.result is None):
            continue       # taken back since, or replaced: archived when it ends or is replaced
        if journal._archived == version:
            continue       # this very game is archived already (a game over, then a new game)
        try:
            journal.archive().save(game_id, pgn(journal, pos, game_id, tags))
            journal._archived = version
        except OSError as e:
            journal._failed(e)
            ok = False
            entry[3] = tries + 1
            if entry[3] < 3:
                keep.append(entry)
    journal._archives = keep
    return ok
