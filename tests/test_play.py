"""The terminal game (host_tools.play) drives the rules module from typed lines."""

import io

from host_tools.play import main


def play(lines, *args):
    out = io.StringIO()
    assert main(list(args), stdin=io.StringIO("".join(l + "\n" for l in lines)), out=out) == 0
    return out.getvalue()


def test_fools_mate_in_italian_and_uci():
    text = play(["f3", "e7e5", "g4", "Dh4", "pgn"], "--lang", "it")
    assert "Dh4#" in text
    assert "game over: 0-1 (checkmate)" in text
    assert "1. f3 e5 2. g4 Qh4# 0-1" in text  # PGN movetext is always English


def test_errors_undo_and_claims():
    text = play(["e5", "e4", "undo", "fen", "claim", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "claim", "e4"])
    assert "error: illegal SAN move 'e5'" in text
    assert "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in text
    assert "no draw can be claimed" in text
    assert "draw granted: threefold_repetition" in text
    assert "the game is over" in text
