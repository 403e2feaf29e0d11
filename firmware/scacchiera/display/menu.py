"""The buttons' menu: new game and the settings a player changes at the board, on the screen.

Two buttons beside ``diag`` and ``undo`` (board_config.BUTTONS): ``menu``
opens the menu and steps to the next line (past the last it closes);
``ok`` changes the line's setting to its next value, or starts a new game
(pressed twice: a game is not lost to one slip). While the menu is open
``undo`` closes it instead of taking a move back; it also closes after
``IDLE_MS`` without a press. Settings go through ``Runner.set_option``, the
same path as the protocol's ``set``: checked by options.py, saved in the
journal, reported by ``status``. A setting this firmware does not have
(``clock`` and ``opponent`` come with the clocks and the engine) shows
"n/a" and ``ok`` leaves it alone.
"""

from ..clock import elapsed
from .screen import option, fit
from . import ROWS

IDLE_MS = 20000

# (label key, option name or None for the action, the values ok steps through)
ITEMS = (
    ("new", None, ()),
    ("clock", "clock", ("off", "1+0", "3+2", "5+3", "10+5", "15+10", "30+0")),
    ("opponent", "opponent", ("person", "engine 1", "engine 2", "engine 3", "engine 4", "engine 5",
                              "engine 6", "host")),
    ("hints", "suggest", (True, False)),
    ("assist", "hints", (True, False)),
    ("light", "brightness", (100, 75, 50, 25, 10)),
    ("lang", "lang", ("en", "it")),
)

_LABELS = {
    "en": {"title": ("Menu  ok: change", "Menu"), "sure": ("ok again: new", "ok: new game?"),
           "new": "New game", "clock": "Clock", "opponent": "Vs", "hints": "Hints", "assist": "Aid",
           "light": "Light", "lang": "Lang", "on": "on", "off": "off", "none": "n/a",
           "person": "person", "host": "computer", "engine": "engine"},
    "it": {"title": ("Menu  ok: cambia", "Menu"), "sure": ("ok: nuova?", "ok: nuova"),
           "new": "Nuova partita", "clock": "Tempo", "opponent": "Vs", "hints": "Aiuti", "assist": "Luci",
           "light": "Luce", "lang": "Lingua", "on": "si", "off": "no", "none": "n/d",
           "person": "persona", "host": "computer", "engine": "motore"},
}


def _labels(lang):
    return _LABELS.get(lang, _LABELS["en"])


def value_text(value, labels):
    if value is True or value is False:
        return labels["on" if value else "off"]
    if value is None:
        return labels["none"]
    if isinstance(value, int):
        return "%d%%" % value
    if value.startswith("engine"):
        return labels["engine"] + value[6:]
    return labels.get(value, value)


class Menu:
    def __init__(self):
        self.open = False
        self.index = 0
        self.sure = False          # ok pressed once on "new game"
        self.last_ms = 0
        self.changed = False       # the screen must be drawn again

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
        self.changed = True
        return True

    def _ok(self, runner):
        key, name, values = ITEMS[self.index]
        if name is None:
            if not self.sure:
                self.sure = True
                return
            self.sure = False
            self.open = False
            runner.app.game.new_game()
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
        """Close after IDLE_MS without a press; True if that changed the screen."""
        if self.open and elapsed(now, self.last_ms) >= IDLE_MS:
            self.open = self.sure = False
            return True
        return False

    def compose(self, runner, lines, icons):
        """The menu's screen: a title, then one line an item, the chosen one marked '>'."""
        labels = _labels(option(runner, "lang", "en"))
        lines[0] = fit(labels["sure" if self.sure else "title"])
        for i in range(ROWS - 1):
            icons[i + 1] = icons[0] = 0
            if i >= len(ITEMS):
                lines[i + 1] = ""
                continue
            key, name, _values = ITEMS[i]
            text = labels[key]
            if name is not None:
                text += " " + value_text(option(runner, name), labels)
            lines[i + 1] = fit((("> " if i == self.index else "  ") + text,))
        return lines
