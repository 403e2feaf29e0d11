"""The page's sentences by key (static/explain.js's lines, static/sentences.js's two tables), under node.

explain.js turns a state into lines {key, ...fields}; sentences.js writes each in English and in
Italian. These tests run both modules as the browser loads them, on states the board pushes, and
check each sentence in both languages; the browser tests (tests/companion_support.py) check every
line a page shows in any state they reach.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from host_tools import _paths
from scacchiera.leds.names import NAMES as LED_NAMES
from scacchiera.rules import outcome

STATIC = os.path.join(_paths._ROOT, "host_tools", "companion", "static")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BASE = {"board": {"connected": True}, "in_sync": True, "state": "idle", "turn": "white", "result": "*",
        "fen": START, "moves": [], "leds": {}}

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (make deps)")


def _node(script):
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def said(state):
    """[(English, Italian)] of each line explain.js says for ``state`` (BASE's fields, overridden)."""
    script = """
import { explain } from %s;
import { sentence } from %s;
const lines = explain(%s).lines;
console.log(JSON.stringify(lines.map((l) => [sentence(l, "en"), sentence(l, "it")])));
""" % (json.dumps("file://" + os.path.join(STATIC, "explain.js")), json.dumps("file://" + os.path.join(STATIC, "sentences.js")),
       json.dumps(dict(BASE, **state)))
    return [tuple(pair) for pair in _node(script)]


def tables():
    script = """
import { LIGHTS_IT, MEANINGS, MEANINGS_IT, TABLES, TERMS_IT } from %s;
console.log(JSON.stringify({ en: Object.keys(TABLES.en), it: Object.keys(TABLES.it), terms: Object.keys(TERMS_IT),
                             meanings: Object.keys(MEANINGS), meanings_it: Object.keys(MEANINGS_IT),
                             lights_it: Object.keys(LIGHTS_IT) }));
""" % json.dumps("file://" + os.path.join(STATIC, "sentences.js"))
    return _node(script)


def test_both_tables_write_every_key_every_termination_and_every_light():
    t = tables()
    assert sorted(t["en"]) == sorted(t["it"]) and len(t["en"]) > 30
    assert sorted(t["terms"]) == sorted(outcome.TERMINATIONS)
    assert t["meanings"] == t["meanings_it"] == list(LED_NAMES[1:])     # the legend: every LED meaning
    assert sorted(t["lights_it"]) == sorted(LED_NAMES[1:])               # a square's label: every LED name


def test_every_line_the_host_sends_has_its_key_in_both_tables():
    """The host's news (the club's, the ladder's, the broadcast's) goes to the page as lines by key:
    each key its code names is one both tables write."""
    sent = set()
    for folder, _dirs, files in os.walk(os.path.join(_paths._ROOT, "host_tools")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    sent.update(a or b for a, b in re.findall(r'"key": "(\w+)"|\bkey="(\w+)"', f.read()))
    assert {"club_round_sent", "ladder_recorded", "broadcast_pushing"} <= sent, sent     # the search finds them
    t = tables()
    assert sent <= set(t["en"]) and sent <= set(t["it"]), sent - set(t["en"]) - set(t["it"])


STATES = [
    ({}, [("White to move.", "Muove il Bianco.")]),
    ({"board": {"connected": False}}, [("Waiting for the board…", "Aspetto la scacchiera…")]),
    ({"in_sync": False, "leds": {"d2": "to-fill", "e2": "to-fill", "e4": "to-empty", "g1": "to-fill"}}, [
        ("The pieces on the board do not match the game yet.",
         "I pezzi sulla scacchiera non corrispondono ancora alla partita."),
        ("Take the piece off e4 (blinking pink).", "Togli il pezzo da e4 (rosa lampeggiante)."),
        ("Put the white pawns on d2 and e2 and the white knight on g1 (blinking yellow).",
         "Metti i pedoni bianchi su d2 e e2 e il cavallo bianco su g1 (giallo lampeggiante).")]),
    ({"state": "error", "leds": {"e5": "error", "e2": "fix"}}, [
        ("A piece stands where no move puts it: on e5 (blinking red).",
         "Un pezzo è dove nessuna mossa lo mette: su e5 (rosso lampeggiante)."),
        ("Move it back: put the white pawn back on e2 (yellow).",
         "Rimettilo a posto: metti il pedone bianco di nuovo su e2 (giallo).")]),
    ({"state": "lifted", "leds": {"d8": "lifted"}, "turn": "black"}, [
        ("In the hand: the black queen from d8.", "In mano: la donna nera da d8.")]),   # (whose move: clear)
    ({"show": "g8f6", "turn": "black", "leds": {"g8": "show-from", "f6": "show-to"}}, [
        ("The board asks for the black knight from g8 to f6: make this move with the pieces (blue squares, "
         "the arrow on the diagram).",
         "La scacchiera chiede il cavallo nero da g8 a f6: fai questa mossa con i pezzi (case blu, "
         "la freccia sul diagramma).")]),
    ({"result": "1/2-1/2", "termination": outcome.threefold_repetition}, [
        ("Game over: Drawn (threefold repetition). Start a new game with New.",
         "Partita finita: patta (triplice ripetizione). Una nuova partita con Nuova.")]),
    ({"leds": {"e8": "check", "e1": "claim"}, "turn": "black"}, [
        ("Black is in check.", "Il Nero è sotto scacco."),
        ("Black may claim a draw (the king pulses slowly).", "Il Nero può chiedere la patta (il re pulsa lento).")]),
    ({"leds": {"e8": "promote-knight"}}, [
        ("Promotion on e8: the new piece counts as a knight. To make it another piece, tap it (lift it and put it "
         "back) until the square shows the one you want.",
         "Promozione su e8: il nuovo pezzo vale un cavallo. Per cambiarlo toccalo (alzalo e rimettilo) finché la "
         "casa mostra quello che vuoi.")]),
    ({"trouble": {"ev": "ble", "holder": "dgt"}}, [
        ("A phone's app has the board over Bluetooth: this page hears nothing from it until the app lets go.",
         "L'app di un telefono ha la scacchiera via Bluetooth: questa pagina non ne sente nulla finché l'app non la "
         "lascia."),
        ("White to move.", "Muove il Bianco.")]),
    ({"trouble": {"ev": "radio", "error": "the radio did not start: OSError 22"}}, [
        ("The board's Bluetooth radio did not start (the radio did not start: OSError 22): it works on USB only.",
         "La radio Bluetooth della scacchiera non è partita (the radio did not start: OSError 22): funziona solo "
         "via USB."),
        ("White to move.", "Muove il Bianco.")]),
    ({"refusal": {"re": "set", "error": "bad_value"}, "trouble": {"ev": "offer_declined", "by": "b"}}, [
        ("The board refused “set”: bad value.", "La scacchiera ha rifiutato “set”: bad value."),
        ("Black declines the draw: the game goes on.", "Il Nero rifiuta la patta: si continua."),
        ("White to move.", "Muove il Bianco.")]),
]


@pytest.mark.parametrize("state, lines", STATES)
def test_a_state_said_in_both_languages(state, lines):
    assert said(state) == lines


def test_a_sprint_tile_the_rules_refused_is_said_with_the_rule():
    """A queen drawn before turn 8: the board took a pawn from the hand (docs/sprint.md)."""
    state = {"fen": "8/8/8/8/8/8/8/4K2k w - - 0 3", "leds": {"e3": "drop-pawn"},
             "sprint": {"drawn": "q", "allowed": {"e3": ["p", "n"]}}}
    assert said(state) == [
        ("Scacchi Sprint: the tile placed on e3 counts as a pawn. Tap it (lift it and put it back) for the next tile "
         "it may be.",
         "Scacchi Sprint: la tessera messa su e3 vale un pedone. Toccala (alzala e rimettila) per la tessera "
         "successiva che può essere."),
        ("The tile just drawn is a queen, but a queen may not be placed before turn 8 (this is turn 3): so the board "
         "took a pawn from the hand.",
         "La tessera appena pescata è una donna, ma una donna non si può mettere prima del turno 8 (questo è il "
         "turno 3): così la scacchiera ha preso un pedone dalla mano.")]


def test_a_castling_whose_rook_came_first_waits_for_its_king():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    occupancy = ["a1", "e1", "f1", "a8", "e8", "h8"]        # the h1 rook lifted and put on f1
    assert said({"fen": fen, "state": "pending", "occupancy": occupancy})[0] == (
        "The rook went first (h1–f1): the board waits a moment (about 1.2 s) for the king. To castle, put the king "
        "on g1 now; otherwise the rook move counts on its own.",
        "La torre è andata per prima (h1–f1): la scacchiera aspetta un momento (circa 1.2 s) il re. Per arroccare "
        "metti ora il re su g1; altrimenti la mossa della torre vale da sola.")


_WRITTEN = {}


def written(line):
    """(English, Italian) of one line; the module's lines are written by one node run (its start
    costs more than all of them)."""
    key = json.dumps(line, sort_keys=True)
    if key not in _WRITTEN:
        lines = [line] + [other for other, _both in DRILL_NEWS + ROOM]
        script = """
import { sentence } from %s;
console.log(JSON.stringify(%s.map((line) => [sentence(line, "en"), sentence(line, "it")])));
""" % (json.dumps("file://" + os.path.join(STATIC, "sentences.js")), json.dumps(lines))
        for one, both in zip(lines, _node(script)):
            _WRITTEN[json.dumps(one, sort_keys=True)] = tuple(both)
    return _WRITTEN[key]


DRILL_NEWS = [   # train.js's lines, from the board's drill events
    ({"key": "drill_puzzle", "puzzle": "00sHx", "rating": 1760, "white": False},
     ("Puzzle 00sHx (rated 1760): you play Black. Find the best move after the lit one.",
      "Problema 00sHx (valore 1760): giochi col Nero. Trova la mossa migliore dopo quella accesa.")),
    ({"key": "drill_wrong", "san": "Cf3", "puzzle": True},
     ("Not Cf3: put the piece back as the lights ask (the lights then show the solution)",
      "Non Cf3: rimetti il pezzo come chiedono le luci (poi le luci mostrano la soluzione)")),
    ({"key": "drill_tally", "moves": 3, "right": 2, "mistakes": 1, "seconds": None},
     ("Moves: 3 · right at the first try: 2 · mistakes: 1", "Mosse: 3 · giuste al primo tentativo: 2 · errori: 1")),
    ({"key": "puzzle_rating", "rating": 1512, "change": -8},
     ("Puzzle rating: 1512 (-8)", "Valore nei problemi: 1512 (-8)")),
]


ROOM = [   # companion.js's and room.js's lines
    ({"key": "last_move", "number": 12, "black": True, "san": "Cxe5"}, ("last: 12… Cxe5", "ultima: 12… Cxe5")),
    ({"key": "material", "white": 31, "black": 39},
     ("Material: White 31 · Black 39 (Black +8)", "Materiale: Bianco 31 · Nero 39 (Nero +8)")),
    ({"key": "material", "white": 39, "black": 39},
     ("Material: White 39 · Black 39 (even)", "Materiale: Bianco 39 · Nero 39 (pari)")),
    ({"key": "offer_open", "white": False},
     ("Black offers a draw: White may accept it or play on.", "Il Nero propone patta: il Bianco può accettarla o continuare.")),
    ({"key": "accuracy", "white": 91, "black": None, "engine": None},
     ("Accuracy: White 91 % · Black – (the engine; the mean of the moves' accuracies)",
      "Precisione: Bianco 91 % · Nero – (il motore; la media della precisione delle mosse)")),
    ({"key": "judgement", "judgement": "blunder", "best": "Qxd5"}, ("blunder: Qxd5 was best", "errore grave: meglio Qxd5")),
    ({"key": "game_about", "result": "1-0", "date": "2026-12-02", "moves": 1},
     ("1-0 · 2026-12-02 · 1 move", "1-0 · 2026-12-02 · 1 mossa")),
    ({"key": "board_engine", "level": 7, "elo": 1800},
     ("the board's engine, level 7 (about Elo 1800)", "il motore della scacchiera, livello 7 (circa Elo 1800)")),
    ({"key": "computer_engine", "engine": "scacchiera", "ours": True},
     ("Scacchiera's engine on this computer", "il motore di Scacchiera su questo computer")),
    ({"key": "level", "level": 3, "elo": None}, ("Level 3", "Livello 3")),
    ({"key": "control", "minutes": 15, "seconds": 10}, ("15 min + 10 s", "15 min + 10 s")),
    ({"key": "after_move", "number": 3, "black": False, "san": "Bb5"}, ("after 3. Bb5", "dopo 3. Bb5")),
    ({"key": "legend", "meaning": "claim", "blink": 2},
     ("the side to move may claim a draw (its king pulses slowly) — pulses slowly",
      "chi muove può chiedere la patta (il suo re pulsa lento) — pulsa lento")),
    ({"key": "players", "white": "Anna", "black": None}, ("Anna – Black", "Anna – Nero")),
    ({"key": "result", "result": "0-1", "termination": "time_forfeit"}, ("0-1 (time forfeit)", "0-1 (tempo scaduto)")),
    ({"key": "result", "result": "*", "termination": None}, ("the game goes on", "la partita continua")),
    ({"key": "termination", "termination": "insufficient_material"},
     ("insufficient material", "materiale insufficiente")),
    ({"key": "elo", "elo": 1500}, ("Elo 1500", "Elo 1500")),
]

SQUARES = [   # companion.js's squares: a screen reader's label, a title, a piece to put back
    ({"key": "square_label", "square": "e4", "piece": "P", "meaning": "legal"},
     ("e4, white pawn, light: legal", "e4, il pedone bianco, luce: mossa possibile")),
    ({"key": "square_label", "square": "d8", "piece": "q", "meaning": ""}, ("d8, black queen", "d8, la donna nera")),
    ({"key": "square_label", "square": "a1", "piece": None, "meaning": "to-fill"},
     ("a1, empty, light: to-fill", "a1, vuota, luce: da riempire")),
    ({"key": "square_title", "square": "h8", "meaning": "promote-knight"}, ("h8: promote-knight", "h8: promozione a cavallo")),
    ({"key": "square_title", "square": "h8", "meaning": ""}, ("h8", "h8")),
    ({"key": "put_it_on", "square": "g1"}, ("put it on g1 (tap it, or tap g1)", "mettilo su g1 (toccalo, o tocca g1)")),
]

CLUB = [   # the ladder's and the club's news (host_tools), club.js's lines
    ({"key": "ladder_recorded", "game": 4}, ("game 4 recorded in the ladder", "partita 4 registrata nella classifica")),
    ({"key": "ladder_recorded", "game": 4, "imported": True},
     ("game 4 imported into the ladder", "partita 4 importata nella classifica")),
    ({"key": "ladder_not_rated", "game": 4, "why": []},
     ("game 4 not rated: already in the ladder", "partita 4 non valida: è già nella classifica")),
    ({"key": "ladder_recorded", "tournament": "Spring", "round": 2, "board": 3, "result": "0-1"},
     ("Spring round 2 board 3: 0-1 recorded in the ladder", "Spring turno 2 scacchiera 3: 0-1 registrata nella classifica")),
    ({"key": "club_made", "name": "Spring", "players": 6, "rounds": 5, "system": "round-robin"},
     ("Spring: 6 players, 5 rounds (round-robin)", "Spring: 6 giocatori, 5 turni (girone)")),
    ({"key": "club_title", "name": "Spring", "round": 2, "planned": 5, "finished": False, "system": "swiss", "clock": "off"},
     ("Spring — round 2 of 5 · swiss", "Spring — turno 2 di 5 · svizzero")),
    ({"key": "club_title", "name": "Spring", "round": None, "planned": 5, "finished": False, "system": "swiss",
      "clock": "15+10"}, ("Spring — 5 rounds · swiss · 15+10", "Spring — 5 turni · svizzero · 15+10")),
    ({"key": "club_arbiter", "round": 1, "board": 2, "result": None},
     ("round 1 board 2: no result (the arbiter's)", "turno 1 scacchiera 2: nessun risultato (dell'arbitro)")),
    ({"key": "club_result", "result": None, "arbiter": False}, ("playing", "in corso")),
    ({"key": "club_not_taken", "boards": [[2, "unplugged"], [5, "quiet"]]},
     ("board 2 did not take its game (unplugged): send it again when it is back; board 5 did not take its game "
      "(quiet): send it again when it is back",
      "la scacchiera 2 non ha preso la sua partita (unplugged): inviala di nuovo quando torna; la scacchiera 5 non ha "
      "preso la sua partita (quiet): inviala di nuovo quando torna")),
    ({"key": "broadcast_state", "on": True, "url": None, "pushes": 3, "problem": None, "notice": None, "token": True},
     ("pushing to Lichess · 3 pushes", "invio a Lichess in corso · 3 invii")),
]


def test_every_judgement_of_an_analysis_has_its_italian():
    from host_tools.companion.analysis import JUDGEMENTS
    for _share, word, _nag in JUDGEMENTS:
        english, italian = written({"key": "judgement", "judgement": word, "best": None})
        assert english == word and "undefined" not in italian and italian != word


@pytest.mark.parametrize("line, both", DRILL_NEWS + ROOM + SQUARES + CLUB)
def test_a_line_in_both_languages(line, both):
    assert written(line) == both
