"""Tests import the device package as `scacchiera` (installed editable by `make test`)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Helpers shared by test files (chess_oracle, ...) live beside them.
sys.path.insert(0, HERE)
# Without `pip install -e .`, fall back to the checkout's folders.
for path in (ROOT, os.path.join(ROOT, "firmware")):
    if path not in sys.path:
        sys.path.append(path)

# The household ladder the companion writes rated games into: a scratch file, never the user's.
if "SCACCHIERA_LADDER_DB" not in os.environ:
    import tempfile
    os.environ["SCACCHIERA_LADDER_DB"] = os.path.join(tempfile.mkdtemp(prefix="scacchiera-ladder-"), "ladder.sqlite3")
