"""Make the firmware importable from host tools: the package ``scacchiera`` and the top-level modules.

An installed project (``pip install -e .``, as ``make`` does) already maps
``scacchiera``; this covers ``python -m host_tools...`` run from a checkout
without it, and the firmware's own top-level modules, which no install maps.
A second checkout run with the first one's environment (a scratch clone that
links its ``.venv``) would import the first one's ``scacchiera`` through its
install: this checkout's firmware goes first then, so an engine match or a
bench measures the code beside it.
"""

import importlib.util
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_FIRMWARE = os.path.join(_ROOT, "firmware")
_spec = importlib.util.find_spec("scacchiera")
if _spec is None or not os.path.realpath(_spec.origin).startswith(os.path.realpath(_FIRMWARE) + os.sep):
    sys.path.insert(0, _FIRMWARE)
del _spec
# The firmware's top-level modules (main.py, board_config.py) and the fake
# hardware's (fakehal, memfs, simclock) are plain modules, not packages:
# appended, so nothing on the host is shadowed.
for _path in (_FIRMWARE, os.path.join(_ROOT, "host_tools", "fakehw")):
    if _path not in sys.path:
        sys.path.append(_path)
