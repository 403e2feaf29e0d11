"""Every path a doc cites exists: a file named in docs/, README.md and hardware/ (a link, a path in
backticks, a pytest id, any *.md named), and every *.md or folder/file.py a code comment names.
Cited and absent once: INTERFACES.md and engine/player.py."""

import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [os.path.join(ROOT, "README.md")] + \
    sorted(glob.glob(os.path.join(ROOT, "hardware", "*.md")))
CODE = sorted(f for pattern in ("firmware/**/*.py", "host_tools/**/*.py", "tests/**/*.py")
              for f in glob.glob(os.path.join(ROOT, pattern), recursive=True)
              if "node_modules" not in f and f != os.path.abspath(__file__))
# Where a short path is read from: the tree's top, the device package, the companion, the hardware.
BASES = ("", "firmware", "firmware/scacchiera", "host_tools", "host_tools/companion", "docs", "hardware", "tests")
TOP = ("firmware/", "host_tools/", "tests/", "docs/", "hardware/", "tools/", ".ci/")
EXTENSIONS = (".py", ".md", ".js", ".html", ".css", ".json", ".svg", ".txt", ".epd", ".mjs", ".toml")

_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
_CODE = re.compile(r"`([^`\s]+)`")
_FILE = re.compile(r"(?<![\w./~-])((?:[\w.-]+/)*[\w.-]+\.(?:py|md))(?![\w/])")


def exists(path, near):
    """``path`` (a file, a folder, or a pytest id file::name) from the top, a usual base, or ``near``."""
    path, _, name = path.partition("::")
    for base in [os.path.join(ROOT, b) for b in BASES] + [near, os.path.dirname(near)]:
        full = os.path.join(base, path)
        if os.path.exists(full):
            if name:
                with open(full, encoding="utf-8") as f:
                    return re.search(r"def %s\b" % re.escape(name.split("[")[0]), f.read()) is not None
            return True
    return False


def doc_citations(text):
    """The paths a doc's text cites: links, paths in backticks, any *.md named."""
    found = [p for p in _LINK.findall(text) if "://" not in p and not p.startswith("mailto:")]
    for p in _CODE.findall(text):
        p = p.rstrip(".,;:)")
        if (p.startswith(TOP) or "/" in p and p.split("::")[0].endswith(EXTENSIONS)) and \
                not any(c in p for c in "*<>{}$?|") and not p.startswith(("~", "/")):
            found.append(p)
    prose = _CODE.sub(" ", re.sub(r"```.*?```", " ", text, flags=re.S))
    found += [p for p in _FILE.findall(prose) if p.endswith(".md")]
    return found


def code_citations(text):
    """What a source file's comments and docstrings cite: a *.md, or a folder/file.py."""
    return [p for p in _FILE.findall(text) if p.endswith(".md") or "/" in p]


def _cases():
    out = []
    for path in DOCS:
        with open(path, encoding="utf-8") as f:
            out += [(os.path.relpath(path, ROOT), p) for p in doc_citations(f.read())]
    for path in CODE:
        with open(path, encoding="utf-8") as f:
            out += [(os.path.relpath(path, ROOT), p) for p in code_citations(f.read())]
    return sorted(set(out))


KNOWN_NOT_PATHS = {("tests/test_companion_server.py", "2e/README.md")}   # a request path the test makes up


def _citing():
    """Each file that cites a path, with what it cites."""
    by_source = {}
    for source, cited in _cases():
        if (source, cited) not in KNOWN_NOT_PATHS:
            by_source.setdefault(source, []).append(cited)
    return sorted(by_source.items())


@pytest.mark.parametrize("source, cited", _citing(), ids=[source for source, _ in _citing()])
def test_every_cited_path_exists(source, cited):
    near = os.path.join(ROOT, os.path.dirname(source))
    assert [p for p in cited if not exists(p, near)] == [], "%s cites paths that are not there" % source


def test_the_citations_are_found_and_a_missing_one_fails():
    """The test above reads what it should: these were cited and absent once."""
    assert len(_cases()) > 100
    assert "INTERFACES.md" in doc_citations("option (INTERFACES.md, the on-board engine)")
    assert "engine/player.py" in code_citations("# load or drop the engine, engine/player.py).")
    assert not exists("INTERFACES.md", ROOT) and not exists("engine/player.py", ROOT)
    assert exists("static/room.js", os.path.join(ROOT, "docs")) and exists("tests/test_pico_emu.py::test_a_300_ply_game", ROOT)
