"""The buttons' menu: new game and the settings a player changes at the board, on the screen.

Two buttons beside ``diag`` and ``undo`` (board_config.BUTTONS): ``menu``
opens the menu and steps to the next line (past the last it closes);
``ok`` changes the line's setting to its next value, or starts a new game
(pressed twice: a game is not lost to one slip), or the next puzzle (the
same). While the menu is open
``undo`` closes it instead of taking a move back; it also closes after
``IDLE_MS`` without a press. Settings go through ``Runner.set_option``, the
same path as the protocol's ``set``: checked by options.py, saved in the
journal, reported by ``status``. A setting this firmware does not have
(``clock`` and ``opponent`` come with the clocks and the engine) shows
"n/a" and ``ok`` leaves it alone.
"""

from .. import const, elapsed
from . import ROWS
from .screen import fit, word, words

# The menu's lines of the language's words (__init__.py has the others).
_MENU_TITLE = const(23)
_MENU_SURE = const(24)
_MENU_ITEMS = const(25)
_MENU_VALUES = const(26)

IDLE_MS = 20000

# (what, option name or None for the action, the values ok steps through); labels: the _MENU_ITEMS line
ITEMS = (
    ("new", None, ()),
    ("puzzle", None, ()),                          # the next puzzle for the board's player (training/)
    ("clock", "clock", ("off", "1+0", "3+2", "5+3", "10+5", "15+10", "30+0")),
    ("opponent", "opponent", ("person", "engine 1", "engine 2", "engine 3", "engine 4", "engine 5",
                              "engine 6", "host")),
    ("hints", "suggest", (True, False)),           # the engine's suggestions (issue 15)
    ("assist", "hints", (True, False)),            # visual assistance: legal destinations lit
    ("light", "brightness", (100, 75, 50, 25, 10)),
    ("lang", "lang", ("en", "it")),
    ("usb", "usb", ("auto", "json", "dgt", "chesslink")),   # the USB link's language (docs/protocols.md)
)


def option(runner, name, default=None):
    """An option's value by name (options.py's table), or ``default`` if the firmware has no such option."""
    from .. import options
    for row in options.TABLE:
        if row[0] == name:
            game = runner.app.game
            holders = (game.options, game.position, runner)
            holder = holders[row[4]] if row[4] < len(holders) else runner
            return getattr(holder, name, default)
    return default


_VALUES = ("on", "off", "none", "person", "host", "engine")     # the _MENU_VALUES line's words, in order


def value_text(value, w):
    """A setting's value as the menu shows it, in the screen's language."""
    names = word(w, _MENU_VALUES).split("|")
    if value is True or value is False:
        return names[0 if value else 1]
    if value is None:
        return names[2]
    if isinstance(value, int):
        return "%d%%" % value
    if value.startswith("engine"):
        return names[5] + value[6:]
    return names[_VALUES.index(value)] if value in _VALUES else value


class Menu:
    def __init__(self):
        self.open = False
        self.index = 0
        self.sure = False          # ok pressed once on "new game"
        self.last_ms = 0

    def button(self, runner, name, now):
        """A button pressed; True if the menu took it (the runner then does nothing else with it)."""
        if name == "menu":
            if not self.open:
                self.open, self.index = True, 0
            elif self.index + 1 < len(ITEMS):
                self.index += 1
            else:
                self.open = False
            self.sure = False
        elif name == "ok":
            if not self.open:
                return False
            self._ok(runner)
        elif name == "undo" and self.open:
            self.open = False
        else:
            return False
        self.last_ms = now
        return True

    def _ok(self, runner):
        what, name, values = ITEMS[self.index]
        if name is None:
            if not self.sure:
                self.sure = True
                return
            self.sure = False
            self.open = False
            if what == "new":
                runner.app.game.new_game()
                return
            from ..training import start      # loaded only for a drill (RAM)
            try:
                start(runner, {"mode": "puzzle"})
            except ValueError as e:           # no puzzle file on this board
                runner.protocol.send({"ev": "refused", "what": "puzzle", "message": str(e)})
            return
        current = option(runner, name)
        if current is None:
            return
        i = values.index(current) + 1 if current in values else 0
        value = values[i % len(values)]
        try:
            runner.set_option(name, value)
        except ValueError:
            return
        runner.protocol.send({"ev": "option", "name": name, "value": value})

    def tick(self, now):
        """Close after IDLE_MS without a press; True if it closed now."""
        if self.open and elapsed(now, self.last_ms) >= IDLE_MS:
            self.open = self.sure = False
            return True
        return False

    def compose(self, runner, lines, icons):
        """The menu's screen: a title, then one line an item, the chosen one marked '>' (the items
        scroll up when it is past the last line)."""
        w = words(runner.app.game.options.lang)
        labels = word(w, _MENU_ITEMS).split("|")
        lines[0] = fit(word(w, _MENU_SURE if self.sure else _MENU_TITLE))
        first = self.index - (ROWS - 2) if self.index > ROWS - 2 else 0
        for row in range(ROWS - 1):
            icons[row + 1] = icons[0] = 0
            i = first + row
            if i >= len(ITEMS):
                lines[row + 1] = ""
                continue
            name = ITEMS[i][1]
            text = labels[i]
            if name is not None:
                text += " " + value_text(option(runner, name), w)
            lines[row + 1] = fit(("> " if i == self.index else "  ") + text)
        return lines
