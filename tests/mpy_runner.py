"""Run a script under real MicroPython (the WebAssembly port, by node) from a host test."""

import os
import shutil
import subprocess

import pytest

from host_tools.bench import HEAP_LAYOUTS  # noqa: F401  (the heap tests' layouts, the bench's)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tools", "micropython", "run.mjs")


def needs_micropython(test):
    """A test that runs MicroPython's WebAssembly port: marked ``micropython`` (``make check`` leaves
    it out), skipped where node is not installed."""
    test = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (make deps)")(test)
    return pytest.mark.micropython(test)


def run_micropython(script, *args, paths=("firmware", "tests/mpy"), data=("tests/data",), heap=None, timeout=600):
    """CompletedProcess of ``script`` (relative to the repo) run by MicroPython."""
    cmd = ["node", RUNNER]
    if heap:
        cmd += ["--heap", str(heap)]
    for p in paths:
        cmd += ["--path", os.path.join(ROOT, p)]
    for d in data:
        cmd += ["--data", os.path.join(ROOT, d)]
    cmd += [os.path.join(ROOT, script)] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
