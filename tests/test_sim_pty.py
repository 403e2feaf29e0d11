"""The simulator's USB link on a pseudo-terminal (``python -m host_tools.sim --pty``, ``make sim
SIM_ARGS=--pty``): a program opens the printed /dev/pts/N with pyserial, as PicoChess opens a board,
and speaks DGT (written here from DGT's dgtbrd.h) while the hands play through the page's request
API; the page keeps showing the game and the squares the program lights. Then a JSON line on the
same pty gets its reply."""

import json
import socket
import subprocess
import sys
import time

import chess
import serial

from firmware_support import ROOT
from test_companion_server import act, state, wait_for
from test_dgt import DGT_SEND_BRD, DGT_BOARD_DUMP, DGT_SEND_UPDATE_BRD, DGT_FIELD_UPDATE, PIECES, dgt_field, field_of, \
    read_message


def test_a_dgt_program_on_the_simulators_pty_while_the_hands_play_on_the_page():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        web = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--port", str(web), "--no-browser", "--pty"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any(line.startswith("serial: ") for line in lines) or \
                not any("http://127.0.0.1:%d/" % web in line for line in lines):
            line = proc.stdout.readline()
            assert line, (lines, proc.stderr.read())
            lines.append(line)
        path = [line.split()[1] for line in lines if line.startswith("serial: ")][0]
        assert path.startswith("/dev/pts/")
        url = "http://127.0.0.1:%d" % web
        port = serial.Serial(path, 9600, timeout=0.2)
        try:
            port.write(bytes((DGT_SEND_BRD,)))
            kind, data = read_message(port)
            assert kind == DGT_BOARD_DUMP and "".join(PIECES[b] for b in data) == field_of(chess.Board())
            port.write(bytes((DGT_SEND_UPDATE_BRD,)))
            time.sleep(0.2)
            assert act(url, "lift", square="e2")[0] == 200
            assert act(url, "place", square="e4")[0] == 200        # the whole move, once the board takes it
            assert read_message(port) == (DGT_FIELD_UPDATE, bytes((dgt_field(chess.E2), 0)))
            assert read_message(port) == (DGT_FIELD_UPDATE, bytes((dgt_field(chess.E4), PIECES.index("P"))))
            wait_for(url, lambda s: s["moves"] == ["e2e4"])       # the page's own link saw the move
            port.write(bytes((0x60, 4, 1, dgt_field(chess.D7), dgt_field(chess.D5), 0)))   # Revelation II LEDs
            wait_for(url, lambda s: s["leds"].get("d7") == "asked" and s["leds"].get("d5") == "asked")
            port.write(b'{"cmd": "status", "id": 9}\n')           # "{": a JSON host on the pty from here
            end = time.monotonic() + 5
            text = b""
            while b'"id": 9' not in text and time.monotonic() < end:
                text += port.read(4096)
            reply, = [r for r in (json.loads(l) for l in text.split(b"\n") if l.strip()) if r.get("id") == 9]
            assert reply["ok"] and reply["moves"] == ["e2e4"]
            assert "asked" not in state(url)["leds"].values(), "the DGT program left: its lights go"
        finally:
            port.close()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err, err
