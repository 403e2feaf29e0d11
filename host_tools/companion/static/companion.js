// The companion page's physical board: draws what the board says (its pieces, its LEDs) and,
// when the board has simulated hands, turns drags and taps into their actions (lift a piece, put
// it down anywhere, into the tray; a tapped piece's move made whole; a lit square filled with the
// piece it asks for). All decisions are the firmware's: the page never judges a move (the squares a
// lifted piece may go to come from the board's rules). Also the board's options, its buttons, the
// computer's box and the game's buttons.
import { $ } from "./dom.js";
import { boardOf, squareIndex, squareName } from "./explain.js";
import { showLine, showLineIn, t } from "./i18n.js";
import { onState, post } from "./link.js";
import { onView, viewPly } from "./view.js";

// Filled glyphs for both colours (coloured by CSS): solid white pieces read better than outlines.
const GLYPHS = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
let state = null;
let drag = null; // {piece, el, from: "board" | "tray"}

function pieceEl(letter) {
  const el = document.createElement("span");
  el.className = "piece " + (letter === letter.toUpperCase() ? "w" : "b");
  el.textContent = GLYPHS[letter] || "?";
  el.dataset.piece = letter;
  return el;
}

// The squares in reading order: a8 first, or h1 first when the board is turned round (flip).
export function buildBoard(flipped) {
  const board = $("board");
  board.innerHTML = "";
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = flipped ? row : 7 - row, file = flipped ? 7 - col : col;
      const sq = rank * 8 + file;
      const cell = document.createElement("div");
      cell.className = "sq " + ((rank + file) % 2 ? "light" : "dark");
      cell.dataset.square = squareName(sq);
      cell.innerHTML = '<div class="led"></div><span class="name">' + squareName(sq) + "</span>";
      cell.tabIndex = 0;                      // by keyboard: Tab to a square, Enter lifts or places
      cell.setAttribute("role", "button");
      board.appendChild(cell);
    }
  }
}

// An option the person just changed shows their choice until the board has had time to
// answer (a state pushed meanwhile still has the old value).
const changedAt = {};
function setOption(name, value) {
  changedAt[name] = Date.now();
  return post("option", { name, value });
}
function settled(name) { return !(Date.now() - (changedAt[name] || 0) < 1500); }

// The option controls are built from what the board reports (hello's option_specs: each
// option's type, limits and choices); only the words shown to a person live here. A control
// goes in the Options box, or where the page has a slot for it (option-slot-NAME).
export const OPTION_LABELS = {
  hints: "visual assistance (legal destinations)", takeback: "take back by restoring the position",
  settle_ms: "settle time (ms)", lang: "move letters", profile: "rule profile",
  brightness: "LED brightness (% of the power cap)", move_time_ms: "time per move (ms, 0: none)",
  clock: "chess clock (minutes+bonus seconds, or off)", offer_every: "draw offers: one every N moves (0: no limit)",
  abandon_min: "abandonment after N minutes away (0: off)",
  opponent: "opponent", engine_side: "the side the engine or the computer plays",
  suggest: "hints from the engine on request (off in rated and online games)",
  usb: "the USB link's language", ble: "Bluetooth: the board poses as",
  ble_number: "Bluetooth: the board's number in its name (0: none)",
};
export const CHOICE_LABELS = {
  en: "English (K Q R B N)", it: "Italiano (R D T A C)", fide: "FIDE", casual: "casual (seed 003)",
  chess: "chess", sprint: "Scacchi Sprint", chess960: "Chess960 (Fischer random)", person: "a person", host: "this computer",
  "engine 1": "the board's engine, level 1 (beginner)", "engine 6": "the board's engine, level 6 (about 3 s a move)",
  "engine 7": "the board's engine, level 7 (strongest, about 10 s a move)",
  w: "white", b: "black",
  auto: "told from the program", json: "this page's (JSON)", dgt: "DGT", chesslink: "Millennium ChessLink",
  pegasus: "a DGT Pegasus", eone: "a Millennium eONE", off: "off (not seen by phones)",
};
// The board's own settings (the hardware's), kept apart from the game's: under "the board".
const BOARD_OPTIONS = ["settle_ms", "brightness", "profile"];
// Chosen in the "new game" dialog only (newgame.js): one place to choose an opponent.
const NEW_GAME_OPTIONS = ["opponent", "engine_side"];
let optionSpecs = null;

function buildOptions(specs) {
  const box = $("options-list");
  box.innerHTML = "";
  const hardware = $("board-options");
  for (const old of hardware.querySelectorAll("label, br")) old.remove();
  for (const [name, spec] of Object.entries(specs)) {
    if (NEW_GAME_OPTIONS.includes(name)) continue;
    const label = document.createElement("label");
    let input;
    if (spec.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.addEventListener("change", () => setOption(name, input.checked));
      label.append(input, " " + (OPTION_LABELS[name] || name));
    } else {
      if (spec.type === "choice") {
        input = document.createElement("select");
        for (const c of spec.choices) {
          const o = document.createElement("option");
          o.value = c;
          o.textContent = CHOICE_LABELS[c] || c;
          input.appendChild(o);
        }
        input.addEventListener("change", () => setOption(name, input.value));
      } else if (spec.type === "clock") {
        // A time control "M+S" or "off": the presets to pick, any other typed in.
        input = document.createElement("input");
        input.type = "text";
        input.size = 6;
        const presets = document.createElement("datalist");
        presets.id = name + "-presets";
        for (const c of ["off"].concat(spec.presets || [])) {
          const o = document.createElement("option");
          o.value = c;
          presets.appendChild(o);
        }
        input.setAttribute("list", presets.id);
        input.addEventListener("change", () => setOption(name, input.value.trim()));
        label.append(presets);
      } else if (spec.type === "int") {
        input = document.createElement("input");
        input.type = "number";
        input.min = spec.off !== undefined ? spec.off : spec.min;
        input.max = spec.max;
        input.addEventListener("change", () => setOption(name, Math.round(Number(input.value))));
      } else {
        // A word (e.g. the clock's "5+3" or "off"): sent as typed, the board says if it is wrong.
        input = document.createElement("input");
        input.size = 8;
        input.addEventListener("change", () => setOption(name, input.value.trim()));
      }
      label.append((OPTION_LABELS[name] || name) + " ", input);
    }
    input.id = name;
    const slot = $("option-slot-" + name);
    const fixed = slot && slot.querySelector("#" + name);
    if (fixed) {
      // The page's own control for this option (the move letters, also read by page.js): keep it, wire it once.
      if (!fixed.dataset.wired) fixed.addEventListener("change", () => setOption(name, fixed.value));
      fixed.dataset.wired = "1";
    } else if (slot) {
      slot.innerHTML = "";
      slot.append(input);
    } else (BOARD_OPTIONS.includes(name) ? hardware : box).append(label, document.createElement("br"));
  }
  optionSpecs = specs;
}

// The simulated board's buttons, by the names its hardware layer gives them.
function renderButtons(names) {
  const box = $("buttons");
  if (!names || box.dataset.names === names.join(" ")) return;
  box.dataset.names = names.join(" ");
  for (const b of box.querySelectorAll("button")) b.remove();
  for (const name of names) {
    const b = document.createElement("button");
    b.className = "press";
    b.dataset.button = name;
    b.textContent = name;
    b.addEventListener("click", () => post("press", { button: name }));
    box.appendChild(b);
  }
}

function renderOptions(o) {
  if (!optionSpecs) return;
  for (const [name, spec] of Object.entries(optionSpecs)) {
    const input = $(name);
    if (!input || o[name] === undefined || !settled(name) || document.activeElement === input) continue;
    if (spec.type === "bool") input.checked = o[name];
    else input.value = String(o[name]);
  }
}

const SIDE_WORDS = { white: "White", black: "Black" };

// Above and below the board: each side's name (the Players panel's, or who plays it), the clock (room.js).
function renderPlayers(s) {
  const given = s.players || {};
  const computer = s.computer && s.computer.sides.length ? s.computer : null;
  const engine = s.options && /^engine \d/.test(s.options.opponent || "") ? s.options : null;
  for (const side of ["white", "black"]) {
    let name = given[side] || SIDE_WORDS[side];
    if (computer && computer.sides.includes(side)) name = computer.name;
    else if (engine && engine.engine_side === side[0]) name = { key: "board_engine", level: Number(engine.opponent.slice(7)), elo: null };
    showLine($("name-" + side), name);
    // The result beside each name once it stands: 1, 0 or ½.
    const points = { "1-0": { white: "1", black: "0" }, "0-1": { white: "0", black: "1" },
                     "1/2-1/2": { white: "½", black: "½" } }[s.result];
    const score = $("score-" + side);
    score.hidden = !points;
    score.textContent = points ? points[side] : "";
    score.classList.toggle("won", !!points && points[side] === "1");
    showLineIn(score, "title", points && s.termination ? { key: "termination", termination: s.termination } : null);
  }
}

// Whose turn and the last move, in a line under the board.
function renderTurn(s) {
  const n = s.san.length;
  showLine($("turn-words"), s.result !== "*" ? null : { key: "turn", white: s.turn === "white" });
  showLine($("last-move"), n ? { key: "last_move", number: Math.ceil(n / 2), black: n % 2 === 0, san: s.san[n - 1] } : null);
  $("variant-line").textContent = s.chess960_position !== null && s.chess960_position !== undefined ?
    "Chess960 #" + s.chess960_position : "";
}

// An LED as the eye sees it: a light, its colour at full brightness with a pale core, so that a dim
// meaning (the last move's (40, 40, 120)) reads on the dark squares as on the light ones.
export function lightOf(rgb) {
  const top = Math.max(1, ...rgb);
  const full = rgb.map((c) => Math.round((c * 255) / top));
  return { full, core: full.map((c) => Math.round(c + (255 - c) * 0.45)) };
}

// The squares the page draws: the board's pieces and LEDs, or (walking the move list) an earlier
// position of the game with its move marked, in the same look.
function drawSquares(s) {
  const ply = viewPly();
  const earlier = ply !== null && s.fens && s.fens[ply] !== undefined;
  const pieces = earlier ? boardOf(s.fens[ply]) : null;
  const lastMove = earlier && ply > 0 ? (s.moves[ply - 1] || "").replace(/^.@/, "") : "";
  const marked = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  const dests = !earlier && s.board.hands ? s.dests || [] : [];
  document.body.classList.toggle("viewing-earlier", earlier);
  for (const cell of $("board").children) {
    const name = cell.dataset.square;
    const sq = squareIndex(name);
    const led = cell.querySelector(".led");
    const info = earlier ? { meaning: "", rgb: [0, 0, 0], blink: false } : s.led_squares[sq];
    const lit = info.meaning !== "";
    // blink: false (steady), true (blinks) or 2 (a slow pulse: a draw that may be claimed)
    led.className = "led" + (lit ? " on" : "") + (lit && info.blink ? (info.blink === 2 ? " blink slow" : " blink") : "");
    const light = lightOf(info.rgb);
    led.style.background = lit ? `radial-gradient(circle, rgb(${light.core}) 0%, rgba(${light.full},.7) 45%, transparent 72%)` : "";
    const piece = earlier ? pieces[sq] : s.pieces[sq];
    showLineIn(cell, "title", { key: "square_title", square: name, meaning: info.meaning });
    showLineIn(cell, "aria-label", { key: "square_label", square: name, piece: piece || null, meaning: info.meaning });
    cell.dataset.led = info.meaning;
    cell.classList.toggle("last", marked.includes(name));
    cell.classList.toggle("dest", dests.includes(name));
    cell.classList.toggle("selected", !earlier && !!s.hand && s.hand_from === name);
    const old = cell.querySelector(".piece");
    if (old) old.remove();
    if (piece) cell.appendChild(pieceEl(piece));
  }
}
onView(() => { if (state) drawSquares(state); });

// The pieces the board asks to have put back (a takeback, a capture undone) that stand beside it:
// next to the board, each tapped or dragged onto its lit square. {letter: [squares]}
function wanted(s) {
  const frame = s.leds || {};
  const game = boardOf(s.fen);
  const beside = (s.tray || []).concat(s.spares || [], s.hand && !s.hand_from ? [s.hand] : []);
  const out = {};
  for (const [sq, meaning] of Object.entries(frame)) {
    const letter = game[squareIndex(sq)];
    if ((meaning === "to-fill" || meaning === "fix") && letter && !s.pieces[squareIndex(sq)] &&
        (beside.includes(letter) || s.hand === letter)) (out[letter] = out[letter] || []).push(sq);
  }
  return out;
}

function drawWanted(s) {
  const asked = s.board.hands && viewPly() === null ? wanted(s) : {};
  const box = $("wanted-pieces");
  box.innerHTML = "";
  for (const [letter, squares] of Object.entries(asked)) {
    for (const sq of squares.sort()) {
      const el = pieceEl(letter);
      el.dataset.square = sq;
      showLineIn(el, "title", { key: "put_it_on", square: sq });
      box.appendChild(el);
    }
  }
  $("wanted").hidden = !box.children.length;
}

let builtFlipped = null;
function render(s) {
  state = s;
  const flipped = document.body.classList.contains("flipped");
  if (flipped !== builtFlipped) { builtFlipped = flipped; buildBoard(flipped); }
  for (const el of document.querySelectorAll(".hands-only")) el.hidden = !s.board.hands;
  document.body.classList.toggle("sim", !!s.board.hands);
  $("kind").textContent = s.board.hands ? "simulator" : "a board on USB";
  drawSquares(s);
  drawWanted(s);
  $("hand").innerHTML = "";
  if (s.hand) $("hand").appendChild(pieceEl(s.hand));
  $("tray").innerHTML = "";
  for (const p of s.tray || []) $("tray").appendChild(pieceEl(p));
  $("spares").innerHTML = "";
  for (const p of s.spares || []) $("spares").appendChild(pieceEl(p));
  $("turn").textContent = s.turn;
  $("state").textContent = s.in_sync ? s.state : "out of sync";
  showLine($("result"), { key: "result", result: s.result, termination: s.termination || null });
  if (s.option_specs && JSON.stringify(s.option_specs) !== JSON.stringify(optionSpecs)) buildOptions(s.option_specs);
  $("fen").value = s.fen;   // the move list, the mirror, the words and the PGN: page.js
  const log = $("protocol");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = s.protocol.join("\n");
  if (atEnd) log.scrollTop = log.scrollHeight;   // follow the newest line, unless the person scrolled up
  $("events").textContent = s.events.map((e) => JSON.stringify(e)).join("\n");
  if (s.board.hands) $("now").textContent = s.now;
  renderOptions(s.options);
  renderButtons(s.buttons);
  if (s.board.hands) {
    $("speed").value = String(s.speed);
    $("stepper").hidden = s.speed !== 0;
    $("hands-computer").checked = !!s.hands_play_computer;
  }
  renderSprint(s);
  renderComputer(s.computer);
  // No hints in a rated or online game: the board's suggest option is off then.
  renderGameActions(s);
  renderPlayers(s);
  renderTurn(s);
  $("hint").hidden = !s.computer;
  $("hint").disabled = s.result !== "*" || s.options.suggest === false;
  $("hint").title = s.result !== "*" ? "the game is over" :
    $("hint").disabled ? "no hints in this game (rated or online)" : "light the engine's best move";
}

// A select's choices: [[value, words], ...].
export function fillSelect(select, choices) {
  select.innerHTML = "";
  for (const [value, words] of choices) {     // words: a text, or a line by key (i18n.js's showLine)
    const o = document.createElement("option");
    o.value = value;
    showLine(o, words);
    select.appendChild(o);
  }
}

// The computer's box: which engine plays which side (chosen in the new game dialog), its level
// (changeable mid-game) on one scale, each choice with its Elo named: an engine's own UCI_Elo range
// in steps of 100 (its top always offered) and full strength, or the project's engine's levels
// with the Elo measured for each (docs/engine.md, "Strength": `levels.level_elo`), or, for an
// engine with neither, its Skill Level.
export const ELO_STEP = 100;
export function levelChoices(levels) {
  const choices = [];
  if (levels.elo) {
    const [low, high] = levels.elo;
    for (let k = low; k <= high; k += ELO_STEP) choices.push(["elo " + k, { key: "elo", elo: k }]);
    if ((high - low) % ELO_STEP) choices.push(["elo " + high, { key: "elo", elo: high }]);
    choices.push(["", { key: "full_strength_above", elo: high }]);
  } else if (levels.level) {
    const [low, high] = levels.level;
    const elo = levels.level_elo || {};
    for (let k = low; k <= high; k++) choices.push(["level " + k, { key: "level", level: k, elo: elo[k] || null }]);
  } else if (levels.skill) {
    const [low, high] = levels.skill;
    for (let k = low; k <= high; k++) choices.push(["skill " + k, { key: "skill_level", level: k }]);
    choices.push(["", "full strength"]);
  } else choices.push(["", "full strength"]);
  return choices;
}
export function levelOf(c) {
  return c.elo !== null ? "elo " + c.elo : c.skill !== null ? "skill " + c.skill : c.level !== null ? "level " + c.level : "";
}

let levelsFor = "";
function renderComputer(c) {
  $("computer-box").hidden = !c;
  if (!c) return;
  $("computer-name").textContent = c.name;
  $("computer-plays").textContent = c.sides.length ? c.sides.join(" and ") : "nobody (a new game chooses)";
  const level = $("computer-level");
  if (levelsFor !== c.engine + JSON.stringify(c.levels)) {
    levelsFor = c.engine + JSON.stringify(c.levels);
    fillSelect(level, levelChoices(c.levels));
  }
  if (document.activeElement !== level) level.value = levelOf(c);
  $("computer-message").textContent = c.message || "";
  $("computer-hint").textContent = c.hint || "";
}

function renderSprint(s) {
  $("sprint").hidden = $("sprint-status").hidden = !s.sprint;
  document.body.classList.toggle("sprint-on", !!s.sprint);
  if (!s.sprint) return;
  for (const side of ["white", "black"]) {
    const box = $("hand-" + side);
    const tiles = s.sprint.hands[side];             // a string: a letter a tile
    if (box.dataset.tiles !== tiles) {            // drawn again only when it changed: a tile held stays put
      box.dataset.tiles = tiles;
      box.innerHTML = "";
      for (const t of s.sprint.hands[side]) box.appendChild(pieceEl(t));
    }
    $("deck-" + side).textContent = s.sprint.decks[side];
  }
  $("drawn").innerHTML = "";
  if (s.sprint.drawn) $("drawn").appendChild(pieceEl(s.turn === "white" ? s.sprint.drawn.toUpperCase() : s.sprint.drawn));
  $("seed").textContent = s.sprint.seed;
}

// -- the hands: drags and taps (pointer events work for mouse and touch) ---------------------------
//
// A drag lifts a piece and puts it down where it is let go (onto an enemy piece: a capture, the
// victim taken off first; far off the board: into the tray). A tap, as on lichess.org: a piece
// tapped is lifted and the squares it may go to show; a tap on one of them makes the whole move (the
// hands take a victim off, bring the castling rook, the promotion's queen); a tap elsewhere puts it
// back, with no move; a tap on another piece of the same side takes that one instead. While the
// board asks for pieces (after a takeback, a wrong move), a tap on a lit square puts the asked piece
// there, and a held piece goes where it is tapped.

const TAP_PX = 10;             // a press that moves less than this is a tap
let press = null;              // the press on the board now: {x, y, square, lifted, dragging}

function startDrag(ev, letter, from) {
  ev.preventDefault();
  const el = pieceEl(letter);
  el.classList.add("dragging");
  document.body.appendChild(el);
  drag = { piece: letter, el, from, x: ev.clientX, y: ev.clientY };
  moveDrag(ev);
}

function moveDrag(ev) {
  if (press && !press.dragging && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) >= TAP_PX) {
    press.dragging = true;
    if (press.lifted) startDrag(ev, press.lifted, "board");
  }
  if (!drag) return;
  drag.el.style.left = ev.clientX + "px";
  drag.el.style.top = ev.clientY + "px";
}

// The square under a point, or the board's nearest square when the point is just past its edge
// (half a square): a piece let go a few pixels off the board is put on it, not into the tray.
function squareAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const cell = target && target.closest(".sq");
  if (cell) return cell.dataset.square;
  const box = $("board").getBoundingClientRect();
  const margin = box.width / 16;
  if (x < box.left - margin || x > box.right + margin || y < box.top - margin || y > box.bottom + margin) return null;
  const inside = (v, lo, hi) => Math.min(hi - 1, Math.max(lo + 1, v));
  const near = document.elementFromPoint(inside(x, box.left + margin, box.right - margin),
                                         inside(y, box.top + margin, box.bottom - margin));
  const edge = near && near.closest(".sq");
  return edge ? edge.dataset.square : null;
}

async function endDrag(ev) {
  const p = press;
  press = null;
  if (p && !p.dragging) {
    if (drag) { drag.el.remove(); drag = null; }
    return tap(p);
  }
  if (!drag) return;
  const d = drag;
  drag = null;
  d.el.remove();
  const square = squareAt(ev.clientX, ev.clientY);
  if (square) {
    await post("place", d.from === "tray" ? { square, piece: d.piece } : { square });
  } else if (d.from === "board") {
    await post("tray");
  }
}

const white = (letter) => letter === letter.toUpperCase();

function tap(p) {
  const s = state;
  const sq = p.square;
  if (p.lifted) return;                         // a piece tapped: it stays lifted, its moves show
  const meaning = (s.leds || {})[sq] || "";
  if (s.hand && s.hand_from) {
    if (sq === s.hand_from) return post("place", { square: sq });            // put back: no move
    const dests = s.dests || [];
    if (dests.length) {
      if (dests.includes(sq)) return post("move", { uci: s.hand_from + sq });
      const other = s.pieces[squareIndex(sq)];
      if (other && white(other) === white(s.hand)) {                         // that piece instead
        return post("place", { square: s.hand_from }).then((ok) => ok && post("lift", { square: sq }));
      }
      return post("place", { square: s.hand_from });                          // elsewhere: no move
    }
  }
  if (meaning === "to-fill" || meaning === "fix") {
    const asked = boardOf(s.fen)[squareIndex(sq)];
    if (asked && !s.pieces[squareIndex(sq)]) return post("fill", { square: sq });
  }
  if (s.hand) return post("place", { square: sq });   // mending the board: where the person puts it
}

// The physical board by keyboard: Enter or Space on a square lifts its piece into the hand, or puts
// the hand's piece there (onto an enemy piece: a capture, as a drag does).
$("board").addEventListener("keydown", (ev) => {
  const cell = ev.target.closest(".sq");
  if (!cell || (ev.key !== "Enter" && ev.key !== " ") || !state) return;
  ev.preventDefault();
  const occupied = state.pieces[squareIndex(cell.dataset.square)];
  post(occupied && !state.hand ? "lift" : "place", { square: cell.dataset.square });
});

$("board").addEventListener("pointerdown", (ev) => {
  if (!state || !state.board.hands || viewPly() !== null) return;   // a real board's pieces move by hand
  const cell = ev.target.closest(".sq");
  if (!cell) return;
  ev.preventDefault();
  const square = cell.dataset.square;
  const piece = state.pieces[squareIndex(square)];
  press = { x: ev.clientX, y: ev.clientY, square, lifted: null, dragging: false };
  if (piece && !state.hand) {
    press.lifted = piece;
    post("lift", { square });                  // the reed opens as the piece leaves
  }
});
$("tray").addEventListener("pointerdown", (ev) => {
  const piece = ev.target.closest(".piece");
  if (piece) startDrag(ev, piece.dataset.piece, "tray");
});
$("spares").addEventListener("pointerdown", (ev) => {
  const piece = ev.target.closest(".piece");
  if (piece) startDrag(ev, piece.dataset.piece, "tray");
});
// A piece the board asks for, beside the board: tapped, it goes to its lit square; or dragged.
$("wanted-pieces").addEventListener("pointerdown", (ev) => {
  const piece = ev.target.closest(".piece");
  if (!piece) return;
  startDrag(ev, piece.dataset.piece, state && state.hand === piece.dataset.piece && !state.hand_from ? "hand" : "tray");
  drag.wanted = piece.dataset.square;
});
window.addEventListener("pointerup", (ev) => {
  if (drag && drag.wanted && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < TAP_PX) {
    const square = drag.wanted;
    drag.el.remove();
    drag = null;
    post("fill", { square });
  }
}, true);
for (const side of ["white", "black"]) {
  $("hand-" + side).addEventListener("pointerdown", (ev) => {
    if (!state || !state.board.hands) return;
    const piece = ev.target.closest(".piece");
    if (piece) startDrag(ev, piece.dataset.piece, "tray");   // a tile from the hand: placed with its letter
  });
}
$("hand").addEventListener("pointerdown", (ev) => {
  const piece = ev.target.closest(".piece");
  if (piece) startDrag(ev, piece.dataset.piece, "hand");
});
window.addEventListener("pointermove", moveDrag);
window.addEventListener("pointerup", endDrag);
window.addEventListener("pointercancel", () => {
  press = null;
  if (drag) { drag.el.remove(); drag = null; }
});

// -- controls ----------------------------------------------------------------------

$("speed").addEventListener("change", () => post("clock", { speed: Number($("speed").value) }));
$("hands-computer").addEventListener("change", () => post("hands", { computer: $("hands-computer").checked }));
for (const b of document.querySelectorAll("[data-advance]")) {
  b.addEventListener("click", () => post("clock", { advance: Number(b.dataset.advance) }));
}
// "elo 1500" -> {elo: 1500}: a level select's value as the computer action's fields.
export function levelFields(value) {
  const [kind, n] = value.split(" ");
  const level = (name) => (kind === name ? Number(n) : null);
  return { elo: level("elo"), skill: level("skill"), level: level("level") };
}
function sendComputer() {
  post("computer", Object.assign({ sides: state.computer.sides }, levelFields($("computer-level").value)));
}
$("hint").addEventListener("click", () => post("hint"));

// The game's buttons (what the board's gestures also do): take back, a draw offered, accepted or
// declined, resign. Against the computer the person resigns and offers for their own side.
function personSide(s) {
  const sides = (s.computer && s.computer.sides) || [];
  return sides.length === 1 ? (sides[0] === "white" ? "b" : "w") : null;
}
function renderGameActions(s) {
  const over = s.result !== "*";
  const offered = !!s.offer && !over;
  const own = offered && personSide(s) === s.offer;    // the person's own offer: the computer answers it
  $("act-undo").disabled = over || !s.moves.length;   // once a result stands, no takeback
  $("act-offer").hidden = offered;
  $("act-offer").disabled = over || !s.moves.length;
  $("act-accept").hidden = $("act-decline").hidden = !offered || own;
  $("act-resign").disabled = over;
}
function gameAction(op, withSide) {
  const side = withSide && state ? personSide(state) : null;
  return post("game", side ? { op, side } : { op });
}
$("act-undo").addEventListener("click", () => gameAction("undo"));
$("act-offer").addEventListener("click", () => gameAction("offer", true));
$("act-accept").addEventListener("click", () => gameAction("draw"));
$("act-decline").addEventListener("click", () => gameAction("decline"));
$("act-resign").addEventListener("click", () => {
  if (confirm(t("Resign this game?"))) gameAction("resign", true);
});
$("computer-level").addEventListener("change", sendComputer);
$("send-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const line = $("send").value;
  const bytes = new TextEncoder().encode(line).length;
  if (bytes > 8000) {   // too big for one message to the server: said here (the server says it for the rest)
    $("error").textContent = "a line is at most 512 bytes; this one has " + bytes;
    delete $("error").dataset.board;
    return;
  }
  post("send", { line }).then((ok) => { if (ok) $("send").value = ""; });
});

onState(render);
