"""The simulator's scripted mode: python -m host_tools.sim --script FILE [--json]."""

import glob
import json
import os
import subprocess
import sys

import pytest

from host_tools.hands import hands_timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Scripts timed to the ms of the app-level hands (tests/test_scenarios.py runs them; the
# firmware's own loop sees changes up to 5 ms sooner: tests/test_clocks.py covers that path).
SCENARIOS = [p for p in sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.txt")))
             if not hands_timed(open(p).read())]


def sim(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.sim"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p)[:-4] for p in SCENARIOS])
def test_scenarios_run_through_the_command(path):
    out = sim("--script", path, "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    keys = {"fen", "moves", "san", "result", "termination", "in_sync", "leds", "display", "protocol"}
    assert set(result) - keys == ({"variant", "sprint"} if "sprint" in path else set())
    assert keys <= set(result)
    assert result["in_sync"] is True and result["moves"]


def test_json_summary_of_a_short_game(tmp_path):
    script = tmp_path / "fools.txt"
    script.write_text("""# the fool's mate
lift f2
place f3
wait 300
lift e7
place e5
wait 300
lift g2
place g4
wait 300
lift d8
place h4   # mate
wait 300
""")
    out = sim("--script", str(script), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["moves"] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert result["san"] == ["f3", "e5", "g4", "Qh4#"]
    assert (result["result"], result["termination"]) == ("0-1", "checkmate")
    assert result["leds"] == {"e1": "loser", "e8": "winner", "d8": "last-move", "h4": "last-move"}


def test_fen_and_profile_options(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("lift d2\nwait 100\nlift e1\nwait 100\nplace d2\nwait 400\n")
    fen = "8/8/4k3/3n4/8/8/3p4/4K1N1 w - - 0 1"
    out = sim("--script", str(script), "--json", "--fen", fen, "--profile", "casual")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # Kxd2 leaves knight against knight: dead in seed 003's room...
    assert result["moves"] == ["e1d2"] and result["termination"] == "insufficient_material"
    out = sim("--script", str(script), "--json", "--fen", fen)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["moves"] == ["e1d2"] and result["result"] == "*"   # ...but not for FIDE


@pytest.mark.parametrize("text, words", [
    ("lift e2\nteleport e4\n", "line 2: unknown step 'teleport'"),
    ("lift e2\nlift z9\n", "line 2: not a square"),
    ("wait soon\n", "line 1: wait takes"),
    ("lift e4\n", "line 1: lift e4: the square is already empty"),
    ("lift e2\nplace e1\n", "line 2: place e1: the square is already occupied"),
])
def test_a_bad_script_stops_with_its_line_number(tmp_path, text, words):
    script = tmp_path / "bad.txt"
    script.write_text(text)
    out = sim("--script", str(script))
    assert out.returncode != 0 and words in out.stderr, out.stderr


def test_human_readable_output_lists_events():
    out = sim("--script", SCENARIOS[0])
    assert out.returncode == 0
    assert "move " in out.stdout and "result: *" in out.stdout


def test_a_taken_port_ends_make_sim_at_once_and_leaves_no_process():
    """Said, exit 2, and no Stockfish child left behind (it once hung for ever with one)."""
    import signal
    import socket
    import time
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--port", str(port), "--no-browser"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError("make sim on a taken port did not end")
        assert proc.returncode == 2 and "cannot listen on 127.0.0.1:%d" % port in err, (proc.returncode, err)
        assert time.monotonic() - t0 < 30
        with pytest.raises(ProcessLookupError):
            os.killpg(proc.pid, 0)                 # nothing of its session is left
    finally:
        taken.close()


def test_the_simulator_and_the_companion_take_the_same_page_options():
    helps = [subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout for module in ("host_tools.sim", "host_tools.companion")]
    for option in ("--port", "--no-browser", "--engine", "--lichess-url", "--ladder"):
        assert all(option in h for h in helps), option
