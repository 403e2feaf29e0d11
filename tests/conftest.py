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


import pytest

# The long kinds first (the emulated Pico's boards, then the browser's pages), handed to the workers
# a few at a time (the Makefile's --maxschedchunk): they share the long tests and end on short ones
# together, not one on a two-minute test while the other waits.
FIRST = ("emulator", "browser", "micropython")


def pytest_collection_modifyitems(items):
    def kind(item):
        return next((i for i, name in enumerate(FIRST) if item.get_closest_marker(name)), len(FIRST))
    items.sort(key=kind)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """A browser test fails on any console error or uncaught exception of its pages while it runs
    (companion_support's CONSOLE_ERRORS; not the reconnects of a page left open once its server has
    stopped); ``@pytest.mark.console_errors(text)`` names the ones a test makes on purpose. It fails
    too when a page in English showed words the Italian table lacks (companion_support's UNTRANSLATED)."""
    support = sys.modules.get("companion_support")
    start, opened = (len(support.CONSOLE_ERRORS), len(support.CONTEXTS)) if support else (0, 0)
    untranslated = len(support.UNTRANSLATED) if support else 0
    outcome = yield
    support = sys.modules.get("companion_support")
    if support is None:
        return
    allowed = [m.args[0] for m in item.iter_markers("console_errors")]
    errors = [e for e in support.CONSOLE_ERRORS[start:] if not any(a in e for a in allowed)]
    for context in support.CONTEXTS[opened:]:      # the last state each page shows, looked at too
        for page in context.pages:                 # (after the errors: a page whose server stopped
            try:                                   # in the test logs its reconnects meanwhile)
                page.evaluate("() => window.__scacchieraScan && window.__scacchieraScan()")
            except Exception:
                pass                               # (a page closed, or not the companion's)
    english = sorted(set(text for _path, text in support.UNTRANSLATED[untranslated:]))
    for context in support.CONTEXTS[opened:]:      # its pages closed before its servers stop
        try:
            context.close()
        except Exception:
            pass                                   # (closed already, or its browser)
    del support.CONTEXTS[opened:]
    if errors and outcome.excinfo is None:
        outcome.force_exception(AssertionError("console errors on the page: %s" % errors[:5]))
    elif english and outcome.excinfo is None:
        outcome.force_exception(AssertionError(
            "the page showed %d text(s) with no Italian in static/i18n.js or static/sentences.js: %s" % (len(english), english[:10])))
