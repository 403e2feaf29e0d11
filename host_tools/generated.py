"""A file the tree keeps generated (the engine's book and tables): written, or checked against what
it should hold (``--check``, which tests run)."""

import argparse
import os


def write_or_check(path, text, description, argv=None):
    """The command line of a generator: ``--check`` compares ``path`` with ``text`` (1 if it
    differs), else writes it. ``text`` may be bytes (a binary file). Returns the exit status."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true", help="fail if the committed file is out of date")
    args = ap.parse_args(argv)
    name = os.path.basename(path)
    binary = "b" if isinstance(text, bytes) else ""
    if args.check:
        if not os.path.exists(path):
            print("%s is missing: run the generator (%s)" % (name, description))
            return 1
        with open(path, "r" + binary) as f:
            if f.read() != text:
                print("%s is out of date: run the generator (%s)" % (name, description))
                return 1
        print("%s is up to date" % name)
        return 0
    with open(path, "w" + binary) as f:
        f.write(text)
    print("wrote %s (%d bytes)" % (path, len(text)))
    return 0
