"""The main loop's parts, as KMK's extensions: what sits beside the game.

``Runner.parts`` is a list of objects with these hooks; the runner calls
each part's, in list order (``crash``: last part first). The board's own
are the protocol (protocol.py: commands in, lines out, the watch events)
and the journal (storage/journal.py: resume at boot, write a move once the
LEDs show it and its line has gone). Diagnostics (diagnostics.py) is one
while it runs: a part that holds the board (``Runner.hold``) gets no game,
its ``scan`` reads ``runner.rows`` and its ``draw`` fills the LEDs. A display, a clock output or an engine is one more module
with a ``Part`` subclass, appended to ``runner.parts``: no edit to the loop.
``Part`` gives empty hooks; the runner never imports this module (RAM).
"""


class Part:
    def boot(self, runner, now):
        """At power-up, before the game looks at the board (the LEDs not lit yet)."""

    def scan(self, runner, now):
        """After every scan: allocate nothing when nothing happens (tests/mpy/check_scan_no_alloc.py)."""

    def tick(self, runner, now):
        """Every SLOW_MS (10 ms), after the buttons, before the LEDs are redrawn."""

    def shown(self, runner, frame, now):
        """The game's frame of meanings (64 bytes, leds/frame.py) was composed anew."""

    def crash(self, runner):
        """The loop failed: save what can be saved (a reset follows)."""

    # Only a part that holds the board (Runner.hold) needs this one:
    # def draw(self, runner, buf, now):
    #     """Fill ``buf`` (the strip's bytes) and return True, or False if nothing changed."""
