"""Make the firmware importable from host tools: the package ``scacchiera`` and the top-level modules.

An installed project (``pip install -e .``, as ``make`` does) already maps
``scacchiera``; this covers ``python -m host_tools...`` run from a checkout
without it, and the firmware's own top-level modules, which no install maps.
"""

import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_FIRMWARE = os.path.join(_ROOT, "firmware")
try:
    import scacchiera  # noqa: F401
except ImportError:
    sys.path.insert(0, _FIRMWARE)
# The firmware's top-level modules (main.py, board_config.py) and the fake
# hardware's (fakehal, memfs, simclock) are plain modules, not packages:
# appended, so nothing on the host is shadowed.
for _path in (_FIRMWARE, os.path.join(_ROOT, "host_tools", "fakehw")):
    if _path not in sys.path:
        sys.path.append(_path)
