"""A part of the loop that says one thing once, after ``boot``: the hardware's own news.

hal.py adds them (start.build calls its ``parts``): the wiring's problems found at boot (the scan
works around them, the sentence says what to fix), and a Pico W's radio that did not start (a USB
board then: ble_radio.py). Loaded only on the board itself: the tests' fake hardware has no news.
"""


class Notice:
    def __init__(self, event):
        self.event = event

    def boot(self, runner, now):
        runner.protocol.send(self.event)

    def scan(self, runner, now):
        pass

    def tick(self, runner, now):
        pass

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        pass
