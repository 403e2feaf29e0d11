"""Make the device package ``scacchiera`` importable when running from a checkout.

An installed project (``pip install -e .``, as ``make`` does) already maps it;
this covers ``python -m host_tools...`` run from the repository without it.
"""

import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
try:
    import scacchiera  # noqa: F401
except ImportError:
    sys.path.insert(0, _FIRMWARE)
