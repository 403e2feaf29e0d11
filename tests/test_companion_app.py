"""The companion plays like an app (issue 51), on a phone (390 x 844, touch) and a desktop (1280 x 800):
tap to move, the pieces asked back within reach, the computer's moves made by the simulated hands
with its clock stopped at its announcement, drills that set themselves up, the new game dialog that
remembers, past games analysed, one board look. Everything through the page as a person uses it."""

import chess

from companion_support import BROWSER_TESTS, Player, browser, served, one_size, size, start_game  # noqa: F401 (fixtures)
from host_tools.companion.boards import SimulatedBoard

pytestmark = BROWSER_TESTS

# A whole game with a capture, en passant, both sides castling, a promotion that captures, and mate.
TAPPED_GAME = ("e2e4 d7d5 e4d5 g8f6 g1f3 c7c5 d5c6 c8g4 f1e2 e7e6 e1g1 d8c7 c6b7 f8d6 b7a8q e8g8 "
               "a8c6 g8h8 c6d6 f6e8 d6f8").split()


@one_size("phone")
def test_a_whole_game_by_taps_only(browser, size):
    board = SimulatedBoard()
    with served(board) as url:
        p = Player(browser, board, url, size)
        game = chess.Board()
        # A tap elsewhere puts the piece back with no move; a tap on another of one's pieces takes it instead.
        p.tap("g1")
        p.page.wait_for_function("window.scacchiera.state.hand_from === 'g1' && window.scacchiera.state.dests.length === 2")
        assert sorted(p.page.eval_on_selector_all(".sq.dest", "cells => cells.map(c => c.dataset.square)")) == ["f3", "h3"]
        p.shot("tap-destinations")
        p.tap("e5")
        p.page.wait_for_function("!window.scacchiera.state.hand && window.scacchiera.state.pieces[6] === 'N'")
        p.tap("g1")
        p.page.wait_for_function("window.scacchiera.state.hand_from === 'g1'")
        p.tap("b1")
        p.page.wait_for_function("window.scacchiera.state.hand_from === 'b1'")
        p.tap("b1")
        p.page.wait_for_function("!window.scacchiera.state.hand")
        assert board.state()["moves"] == [] and board.state()["in_sync"]
        for uci in TAPPED_GAME:
            p.tap_move(game, chess.Move.from_uci(uci))
            assert board.state()["fen"].split(" ")[0] == game.board_fen(), uci
        assert game.is_checkmate()
        p.page.wait_for_function("window.scacchiera.state.result === '1-0'")
        assert "White wins" in p.said("Game over")
        s = board.state()
        assert s["san"][6] == "dxc6" and s["san"][10] == "O-O" and s["san"][14] == "bxa8=Q" and s["san"][-1] == "Qxf8#"
        assert "Q" not in s["spares"] and "P" in s["spares"]          # the queen came from the spares, the pawn went there
        assert sorted(s["tray"]) == list("bppprr"), s["tray"]      # the pieces taken, apart from the spares
        p.shot("tapped-game")
        assert not p.errors


def test_a_takeback_of_a_capture_answered_by_taps_on_a_phone_without_scrolling(browser):
    board = SimulatedBoard()
    with served(board) as url:
        p = Player(browser, board, url, "phone")
        game = chess.Board()
        for uci in ("e2e4", "d7d5", "e4d5"):
            p.tap_move(game, chess.Move.from_uci(uci))
        p.page.click("#act-undo")
        p.said("Put the white pawn on e4")
        p.tap("e4")                                   # the lit square: the hands bring the pawn back from d5
        p.said("Put the black pawn on d5")
        # The pawn the board asks for lies in the tray: it is shown next to the board, in the same screen.
        p.page.wait_for_selector("#wanted-pieces .piece[data-piece='p'][data-square='d5']")
        p.assert_first_viewport("#board", "#wanted", "#explain")
        box = p.page.locator("#wanted").bounding_box()
        assert box["y"] < 844 - box["height"]
        p.page.locator("#wanted-pieces .piece").tap()
        p.page.wait_for_function("window.scacchiera.state.in_sync && window.scacchiera.state.moves.length === 2 "
                                 "&& window.scacchiera.state.leds.d5 === 'last-move'")
        assert p.page.locator("#wanted").is_hidden()
        assert p.page.evaluate("scrollY") == 0
        s = board.state()
        assert s["pieces"][28] == "P" and s["pieces"][35] == "p" and s["pieces"][12] == "" and s["tray"] == []
        # A drag let go a few pixels past the board's edge puts the piece on the edge's square, not in the tray.
        box = p.page.locator("#board").bounding_box()
        _, y = p.centre("h3")
        p.drag_to("h2", (box["x"] + box["width"] + 4, y))
        p.page.wait_for_function("!window.scacchiera.state.hand")
        s = board.state()
        assert s["pieces"][23] == "P" and s["tray"] == []        # on h3 (a move the board then judges)
        p.shot("takeback-by-taps")
        assert not p.errors


@one_size("desktop")
def test_the_simulated_hands_make_the_computers_moves_and_its_clock_stops_at_its_announcement(browser, size):
    from host_tools.companion.engine import engines
    board = SimulatedBoard(hands_play_computer=True)
    board.play_computer(engines())
    board.computer.think = 0.05
    with served(board) as url:
        p = Player(browser, board, url, size)
        assert p.page.is_checked("#hands-computer")
        ids = board.computer.describe()["engines"]
        start_game(p.page, opponent="computer " + ("stockfish" if "stockfish" in ids else ids[0]), colour="white",
                   clock="5+3")
        game = chess.Board()
        for uci in ("e2e4", "g1f3", "f1c4"):
            if not game.is_legal(chess.Move.from_uci(uci)):
                uci = next(iter(game.legal_moves)).uci()
            p.tap_move(game, chess.Move.from_uci(uci))
            # The computer's reply: lit, then made by the simulated hands, nobody touching the page.
            p.moves_are(len(game.move_stack) + 1, timeout=20000)
            game.push(chess.Move.from_uci(board.state()["moves"][-1]))
            p.page.wait_for_function("window.scacchiera.state.in_sync && !window.scacchiera.state.show")
        events = board.sim.sim_events
        for ply in (2, 4):
            moved = [i for i, e in enumerate(events) if e["kind"] == "move" and e["ply"] == ply][0]
            before = [i for i, e in enumerate(events) if e["kind"] == "move" and e["ply"] == ply - 1][0]
            # Its clock stopped when it announced the move, before the hands made it ...
            stops = [e for e in events[before:moved] if e["kind"] == "clock" and e["running"] is None]
            assert stops, events[before:moved]
            after = [e for e in events[moved:] if e["kind"] == "clock"][0]
            # ... so the hands' time is not its: the move added only its bonus to the time it had then.
            assert after["black"] == stops[-1]["black"] + 3000 and after["running"] == "w", (stops, after)
        p.page.wait_for_selector("#clock-white.running")
        # The game's PGN names both players: the computer, and the person who gave no name.
        p.page.wait_for_function("n => window.scacchiera.state.pgn.includes('[Black \"' + n + '\"]')",
                                 arg=board.computer.name)
        assert '[White "Anonymous"]' in board.state()["pgn"]
        p.shot("computer-by-hands")
        assert not p.errors


@one_size("phone")
def test_a_puzzle_from_the_train_dialog_sets_itself_up_is_solved_by_taps_then_next_puzzle(browser, size, tmp_path):
    from host_tools.companion import training
    board = SimulatedBoard(hands_play_computer=True)
    board.ladder_path = str(tmp_path / "ladder.sqlite3")
    by_id = {p[0]: p for p in training.puzzles()}
    with served(board, ladder=board.ladder_path) as url:
        p = Player(browser, board, url, size)
        p.page.click("#act-new")
        p.page.click("#act-train")
        p.page.wait_for_selector("#train[open]")
        p.page.select_option("#tr-theme", "mateIn2")
        p.page.click("#tr-form button[type=submit]")
        p.page.wait_for_selector("#train", state="hidden")
        p.page.wait_for_function("window.scacchiera.state.drill && window.scacchiera.state.drill.state === 'start'")
        start = board.state()["drill"]
        pid, fen, moves, rating, themes = by_id[start["puzzle"]]
        solver_black = chess.Board(fen).turn == chess.WHITE       # the first move is the opponent's
        # Set up by itself, turned to the solver's side, the opponent's first move made by the hands.
        p.moves_are(1, timeout=20000)
        p.page.wait_for_function("window.scacchiera.state.in_sync && !window.scacchiera.state.show")
        assert p.page.evaluate("scacchieraMirror.state.orientation") == ("black" if solver_black else "white")
        assert p.page.evaluate("document.querySelector('#board .sq').dataset.square") == ("h1" if solver_black else "a8")
        assert "you play " + ("Black" if solver_black else "White") in p.page.inner_text("#drill-news")
        game = chess.Board(fen)
        game.push_uci(moves[0])
        for i, uci in enumerate(moves[1:], 1):
            if i % 2:
                p.tap_move(game, chess.Move.from_uci(uci))
            else:
                p.moves_are(len(game.move_stack) + 1, timeout=20000)     # the opponent's, by the hands
                game.push_uci(uci)
        p.page.wait_for_selector("#tr-next:visible")
        summary = p.page.inner_text("#drill-news")
        assert "Puzzle solved" in summary and "mistakes: 0" in summary and "Puzzle rating:" in summary, summary
        assert "Drill stopped" not in summary
        p.shot("puzzle-solved")
        # Next puzzle: another, set up by itself; a wrong move is said in SAN.
        p.page.click("#tr-next")
        p.page.wait_for_function("pid => window.scacchiera.state.drill && window.scacchiera.state.drill.state === 'start' "
                                 "&& window.scacchiera.state.drill.puzzle !== pid", arg=pid)
        pid2, fen2, moves2, _, _ = by_id[board.state()["drill"]["puzzle"]]
        p.moves_are(1, timeout=20000)
        p.page.wait_for_function("window.scacchiera.state.in_sync && !window.scacchiera.state.show")
        game = chess.Board(fen2)
        game.push_uci(moves2[0])
        wrong = next(m for m in game.legal_moves if m.uci() != moves2[1] and not game.is_castling(m)
                     and not game.gives_check(m) and not m.promotion)
        san = game.san(wrong)
        p.tap(chess.square_name(wrong.from_square))
        p.page.wait_for_function("to => window.scacchiera.state.dests.includes(to)", arg=chess.square_name(wrong.to_square))
        p.tap(chess.square_name(wrong.to_square))
        p.page.wait_for_function("san => document.getElementById('drill-news').textContent.startsWith('Not ' + san + ':')", arg=san)
        assert not p.errors


def test_the_new_game_dialog_remembers_the_last_choices_and_a_chess960_game_shows_its_number(browser):
    board = SimulatedBoard()
    with served(board) as url:
        p = Player(browser, board, url, "desktop")
        p.page.click("#act-new")
        p.page.wait_for_selector("#new-game[open]")
        p.page.select_option("#ng-opponent", "engine 3")
        assert "about Elo" in p.page.inner_text("#ng-opponent option[value='engine 3']")
        p.page.check("input[name=ng-colour][value=black]")
        p.page.select_option("#ng-clock", "10+5")
        p.page.select_option("#variant", "chess960")
        p.page.fill("#position-in", "100")
        p.page.click("#reset")
        p.page.wait_for_selector("#new-game", state="hidden")
        p.page.wait_for_function("document.getElementById('variant-line').textContent === 'Chess960 #100'")
        for reload in (False, True):
            if reload:
                p.page.reload()
                p.page.wait_for_function("window.scacchiera.state && window.scacchiera.state.ready")
            p.page.click("#act-new")
            p.page.wait_for_selector("#new-game[open]")
            chosen = p.page.evaluate("""() => [document.getElementById('ng-opponent').value,
                document.querySelector('input[name=ng-colour]:checked').value,
                document.getElementById('ng-clock').value, document.getElementById('variant').value]""")
            assert chosen == ["engine 3", "black", "10+5", "chess960"], (reload, chosen)
            p.page.click("#ng-cancel")
        assert not p.errors


@one_size("desktop")
def test_a_past_game_opened_analysed_and_opened_again_without_a_second_analysis(browser, size, tmp_path):
    board = SimulatedBoard()
    board.ladder_path = str(tmp_path / "ladder.sqlite3")
    board.analysis_seconds = 0.05
    with served(board, ladder=board.ladder_path) as url:
        p = Player(browser, board, url, size)
        p.page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        p.page.fill("#white-name", "Anna")
        p.page.fill("#black-name", "Bruno")
        p.page.wait_for_function("window.scacchiera.state.players && window.scacchiera.state.players.black === 'Bruno'")
        game = chess.Board()
        for uci in ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"):   # 3... Nf6?? 4. Qxf7#
            p.tap_move(game, chess.Move.from_uci(uci))
        p.page.wait_for_function("window.scacchiera.state.result === '1-0'")
        p.page.wait_for_function("window.scacchiera.state.pgn.includes('[White \"Anna\"]')")
        p.page.click("#past-list")
        item = "#past-games .past-game"
        p.page.wait_for_function("document.querySelector('#past-games .past-game small') && "
                                 "document.querySelector('#past-games .past-game small').textContent.includes('moves')")
        text = p.page.inner_text(item)
        assert "Anna – Bruno" in text and "1-0" in text and "4 moves" in text and "bytes" not in text, text
        p.page.click(item)
        p.page.wait_for_selector("#past-open:not([hidden])")
        assert "[Black \"Bruno\"]" in p.page.inner_text("#past-pgn")
        p.page.click("#past-analyse")
        p.page.wait_for_selector("#past-graph svg polygon", timeout=60000)
        blunder = p.page.locator("#past-marks .mark-move.blunder")
        assert blunder.count() == 1 and blunder.inner_text() == "3… Nf6??"
        assert "was best" in p.page.inner_text("#past-marks li:has(.blunder)")
        assert "Accuracy: White" in p.page.inner_text("#past-accuracy")
        assert p.page.locator("#past-graph circle.blunder").count() == 1
        # The board steps with the graph: a click on the blunder's mark shows the position after it.
        blunder.click()
        assert p.page.inner_text("#past-at") == "3… Nf6"
        analyses = board._analyses()
        assert analyses.runs == 1
        saved = analyses.saved(board.past["open"]["pgn"])
        assert "[%eval" in saved["pgn"] and "$4" in saved["pgn"]      # kept as lichess exports it: %eval, ??
        p.shot("past-game-analysed")
        # Closed, then opened again: the analysis is there at once, not computed a second time.
        p.page.evaluate("document.getElementById('past-box').open = false")
        p.page.evaluate("document.getElementById('past-box').open = true")
        p.page.click(item)
        # The graph of the first opening is still drawn: wait for the board's answer to this one.
        p.page.wait_for_function("""() => { const past = window.scacchiera.state.past;
            return past && past.open && past.open.analysis && past.open.analysis.state === 'saved'; }""",
                                 polling=50)
        p.page.wait_for_selector("#past-graph svg polygon")
        assert board.past["open"]["analysis"]["state"] == "saved" and analyses.runs == 1
        assert p.page.locator("#past-analyse").is_hidden()
        assert not p.errors


def test_a_lit_led_reads_on_both_square_colours(browser):
    """The last move's dim blue (40, 40, 120) drawn as a light: its core stands out from the dark squares."""
    board = SimulatedBoard()
    with served(board) as url:
        p = Player(browser, board, url, "desktop")

        def luminance(rgb):
            lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
            return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

        core = p.page.evaluate("import('/companion.js').then(m => m.lightOf([40, 40, 120]).core)")
        dark = luminance((0x8a, 0x5a, 0x31))
        assert (luminance(core) + 0.05) / (dark + 0.05) >= 2.5, core
        assert core[2] == max(core) and core[0] == core[1]                # still blue
        game = chess.Board()
        p.tap_move(game, chess.Move.from_uci("b1c3"))                   # c3 and b1 lit: a dark square and a light one
        p.page.wait_for_selector(".sq[data-square=b1][data-led='last-move'] .led.on")
        assert not p.errors
