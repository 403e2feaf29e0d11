"""The ladder's SQLite file: where it lives, its schema and version, one write at a time.

The schema's version is ``PRAGMA user_version``. A file written by a newer
version of this program is refused before anything in it is touched; an older
one is upgraded by the steps in ``MIGRATIONS``. Every write is one
``BEGIN IMMEDIATE`` transaction: two processes writing at once wait for each
other (``busy_timeout``) instead of losing a game.
"""

import contextlib
import os
import sqlite3

import platformdirs

ENV = "SCACCHIERA_LADDER_DB"
FILE_NAME = "ladder.sqlite3"
VERSION = 2
BUSY_TIMEOUT_S = 30.0

SCHEMA = """
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
    initial_elo INTEGER NOT NULL,
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,          -- the order games were recorded
    white     INTEGER NOT NULL REFERENCES players(id),
    black     INTEGER NOT NULL REFERENCES players(id),
    result    TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    date      TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    moves     INTEGER CHECK (moves >= 0),   -- both players' moves (plies); NULL: not known
    resigned  INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    abandoned INTEGER NOT NULL DEFAULT 0 CHECK (abandoned IN (0, 1)),
    online    INTEGER NOT NULL DEFAULT 0 CHECK (online IN (0, 1)),
    pgn       TEXT,                         -- the game as imported
    pgn_hash  TEXT UNIQUE,                  -- the same game imported twice counts once
    source    TEXT,                         -- the file it was imported from
    recorded  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    CHECK (white <> black),
    CHECK (NOT (resigned AND abandoned)),
    CHECK (result <> '1/2-1/2' OR NOT (resigned OR abandoned))
);
CREATE INDEX games_by_date ON games (date, id);
-- The lot drawn for a pair's first game (player a < player b), so asking twice gives one answer.
CREATE TABLE colour_lots (
    a     INTEGER NOT NULL REFERENCES players(id),
    b     INTEGER NOT NULL REFERENCES players(id),
    white INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (a, b)
);
"""

# Version 2: puzzles solved or failed on a board (training/drill.py), each player's puzzle rating.
PUZZLES = """
CREATE TABLE puzzle_attempts (
    id      INTEGER PRIMARY KEY,            -- the order attempts were recorded: the rating replays them so
    player  INTEGER NOT NULL REFERENCES players(id),
    puzzle  TEXT NOT NULL,                  -- the puzzle's id (host_tools/training/puzzles.csv)
    rating  INTEGER NOT NULL CHECK (rating BETWEEN 0 AND 4000),   -- the puzzle's rating then
    solved  INTEGER NOT NULL CHECK (solved IN (0, 1)),
    ms      INTEGER CHECK (ms >= 0),        -- from the player's first turn to the end
    date    TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player, id);
"""

# MIGRATIONS[n]: the SQL that takes a version-n file to version n + 1.
MIGRATIONS = {0: SCHEMA, 1: PUZZLES}


class LadderError(Exception):
    """Bad input or an unusable database: the message says what, and nothing was changed."""


def default_path():
    """$SCACCHIERA_LADDER_DB, else the user's data folder ($XDG_DATA_HOME/scacchiera/ladder.sqlite3)."""
    return os.environ.get(ENV) or user_data_path()


def user_data_path():
    """ladder.sqlite3 in the user's data folder (platformdirs: XDG on Linux)."""
    return os.path.join(platformdirs.user_data_dir("scacchiera", appauthor=False), FILE_NAME)


def connect(path):
    """An open, up-to-date connection to the ladder at ``path`` (created if missing)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except (OSError, sqlite3.Error) as e:
        raise LadderError("cannot open the ladder %s: %s" % (path, e)) from None
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA busy_timeout = %d" % int(BUSY_TIMEOUT_S * 1000))
        conn.execute("PRAGMA foreign_keys = ON")
        _upgrade(conn, path)
    except sqlite3.OperationalError as e:
        conn.close()
        if "locked" in str(e) or "busy" in str(e):
            raise LadderError(_busy(path)) from None
        raise LadderError("cannot use the ladder %s: %s" % (path, e)) from None
    except sqlite3.DatabaseError as e:
        conn.close()
        raise LadderError("%s is not a ladder database: %s" % (path, e)) from None
    except LadderError:
        conn.close()
        raise
    return conn


def _upgrade(conn, path):
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == VERSION:
        return
    if version > VERSION:
        raise LadderError("%s is a ladder of a newer version (%d; this program knows %d): upgrade Scacchiera"
                          % (path, version, VERSION))
    with write(conn, path):
        version = conn.execute("PRAGMA user_version").fetchone()[0]   # another process may have done it
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise LadderError("%s is an SQLite file but not a ladder (it has other tables)" % path)
        while version < VERSION:
            for statement in _statements(MIGRATIONS[version]):
                conn.execute(statement)
            version += 1
            conn.execute("PRAGMA user_version = %d" % version)


def _statements(script):
    """The statements of an SQL script, one by one (executescript would commit the transaction)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement
            statement = ""


@contextlib.contextmanager
def read(conn, path="the ladder"):
    """A read transaction: every SELECT in it sees the same state of the file."""
    try:
        conn.execute("BEGIN DEFERRED")
    except sqlite3.OperationalError as e:
        raise LadderError("cannot read %s: %s" % (path, e)) from None
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def _busy(path):
    return "the ladder %s stayed locked by another program for %d s: try again" % (path, BUSY_TIMEOUT_S)


@contextlib.contextmanager
def write(conn, path="the ladder"):
    """One write transaction, taken at once (BEGIN IMMEDIATE): committed whole, or rolled back."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise LadderError(_busy(path)) from None
        raise
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
