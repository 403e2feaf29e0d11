"""The PGN tags only the host knows, given to the board so that its archive and the page's export match.

The board has no names, no place and no real-time clock: its archived PGN says ``?`` and
``????.??.??`` until a host gives ``tag NAME VALUE`` (docs/protocol.md). The page's Players panel
sets the names, the site and whether the game is rated (the household ladder's); the companion
then compares them with the headers of the board's own ``pgn`` after every reply and sends only
the tags that differ (docs/companion.md, "PGN"). Comparing with what the board says, rather than
sending on events, covers a new game, a page that connects late, a restarted server and a board
that lost power the same way.
"""

import time

# The Event of a game the Players panel may tag: the board's own, or ours for a rated game. Any other
# Event (a Lichess game's "Lichess blitz game") belongs to whoever set it, and is left alone.
EVENT = "Scacchiera"
RATED_EVENT = "Scacchiera rated"
NAME_MAX = 60            # the page's fields' maxlength (the board takes up to 80 characters)
ANONYMOUS = "Anonymous"
UNKNOWN = {"Site": "?", "Date": "????.??.??", "White": "?", "Black": "?", "Event": EVENT}


def check_players(fields):
    """The Players panel's fields ``white``, ``black``, ``site`` (text) and ``rated`` (true/false),
    checked: a dict, or ValueError saying what is wrong."""
    players = {}
    for key in ("white", "black", "site"):
        value = fields.get(key, "")
        if not isinstance(value, str):
            raise ValueError("%r must be text" % key)
        value = " ".join(value.split())          # no line breaks, no runs of spaces
        if len(value) > NAME_MAX:
            raise ValueError("%r is at most %d characters" % (key, NAME_MAX))
        if "|" in value:
            raise ValueError("%r cannot have a '|' (the board's PGN tags refuse it)" % key)
        players[key] = value
    rated = fields.get("rated", False)
    if not isinstance(rated, bool):
        raise ValueError("'rated' must be true or false")
    players["rated"] = rated
    return players


def time_control(options):
    """PGN's TimeControl from the board's options: the clock ``M+S`` as ``seconds+increment``
    (5+3: ``300+3``), else ``move_time_ms``: ``-`` (none) or ``1/N`` (one move in N seconds)."""
    clock = str((options or {}).get("clock") or "")
    minutes, plus, bonus = clock.partition("+")
    if plus and minutes.isdigit() and bonus.isdigit():
        return "%d+%d" % (int(minutes) * 60, int(bonus))
    ms = (options or {}).get("move_time_ms")
    return "1/%d" % round(ms / 1000) if ms else "-"


def host_date(now=None):
    """Today on the host, as PGN writes a date (the board has no real-time clock)."""
    return time.strftime("%Y.%m.%d", time.localtime(now))


def parse_headers(pgn):
    """The tag pairs of a PGN text, values unescaped: {"White": "Anna", ...}. (python-chess's
    ``read_headers`` keeps a value's ``\\"`` escaped, so a Site with quotes would never match.)"""
    headers = {}
    for line in pgn.split("\n"):
        if not (line.startswith("[") and line.endswith('"]') and ' "' in line):
            continue
        name, _, value = line[1:-2].partition(' "')
        headers[name] = value.replace('\\"', '"').replace("\\\\", "\\")
    return headers


def wanted_tags(players, options, headers, today):
    """The tags the board's game should have, {name: value or None} (None: the board's default,
    the tag removed). The Date is kept once the game has one: the day the companion first saw
    the game, normally the day it started."""
    date = headers.get("Date", UNKNOWN["Date"])
    return {"White": players["white"] or None, "Black": players["black"] or None,
            "Site": players["site"] or None,
            "Date": date if date != UNKNOWN["Date"] else today,
            "TimeControl": time_control(options),
            "Event": RATED_EVENT if players["rated"] else None}


def tags_to_send(players, status, headers, today):
    """The ``tag`` commands (name, value or None) that bring the board's game to ``players``:
    none for a game someone else tagged (Lichess). The caller sends nothing while diagnostics run."""
    if headers.get("Event", EVENT) not in (EVENT, RATED_EVENT):
        return []
    sends = []
    for name, value in sorted(wanted_tags(players, status.get("options"), headers, today).items()):
        has = headers.get(name)
        if has == value or (value is None and has in (None, UNKNOWN.get(name))):
            continue
        sends.append((name, value))
    return sends


class Players:
    """The Players panel as the companion keeps it (one for every page of a board): ``given`` is
    None until a page sends its names. A rated game turns the board's ``suggest`` option off (no
    hints in a rated game) and the companion turns it back on once the game is no longer rated."""

    def __init__(self):
        self.given = None
        self.machine = {}                # {"white" or "black": the computer's name} for the game on now
        self._restore_suggest = False    # whether the companion turned suggest off for a rated game

    def named(self):
        """The names the game's PGN gets: the panel's, the computer's for its side, and, against
        the computer, ``Anonymous`` (as lichess.org says) for a person who gave none."""
        names = dict(self.given)
        if self.machine:
            for side in ("white", "black"):
                names[side] = self.machine.get(side) or names[side] or ANONYMOUS
        return names

    def set(self, fields):
        self.given = check_players(fields)

    def adopt(self, headers):
        """A companion that has no Players panel yet (it just started) takes the one the board's game
        already has: its tags, kept in the board's journal. The board's game is the one source; the
        pages only show it."""
        if self.given is not None or not headers:
            return
        known = lambda name: headers.get(name) if headers.get(name) not in (None, "?") else ""
        self.given = check_players({"white": known("White")[:NAME_MAX], "black": known("Black")[:NAME_MAX],
                                    "site": known("Site")[:NAME_MAX].replace("|", " "),
                                    "rated": headers.get("Event") == RATED_EVENT})

    def commands(self, status, headers, today=None):
        """The protocol commands (dicts) the board's game needs; the caller sends each once."""
        if self.given is None or status is None or status.get("diag"):
            return []
        cmds = []
        for name, value in tags_to_send(self.named(), status, headers, today or host_date()):
            cmd = {"cmd": "tag", "name": name}
            if value is not None:
                cmd["value"] = value
            cmds.append(cmd)
        suggest = (status.get("options") or {}).get("suggest")
        if self.given["rated"] and suggest is True:
            self._restore_suggest = True
            cmds.append({"cmd": "set", "name": "suggest", "value": False})
        elif not self.given["rated"] and self._restore_suggest:
            if suggest is False:
                cmds.append({"cmd": "set", "name": "suggest", "value": True})
            else:
                self._restore_suggest = False
        return cmds
