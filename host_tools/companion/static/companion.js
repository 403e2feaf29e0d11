// The companion page's physical board: draws what the board says (its pieces, its LEDs) and,
// when the board has simulated hands, turns drags into their actions (lift a piece, put it
// down anywhere, into the tray). All decisions are the firmware's: the page never judges a move.
// Also the board's options, its buttons, the computer's box and the game's buttons.
import { $ } from "./dom.js";
import { squareIndex, squareName } from "./explain.js";
import { t } from "./i18n.js";
import { onState, post } from "./link.js";

// Filled glyphs for both colours (coloured by CSS): solid white pieces read better than outlines.
const GLYPHS = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
let state = null;
let drag = null; // {piece, el, from: "board" | "tray"}


const PIECE_WORDS = { K: "white king", Q: "white queen", R: "white rook", B: "white bishop", N: "white knight",
  P: "white pawn", k: "black king", q: "black queen", r: "black rook", b: "black bishop", n: "black knight",
  p: "black pawn" };

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
};
export const CHOICE_LABELS = {
  en: "English (K Q R B N)", it: "Italiano (R D T A C)", fide: "FIDE", casual: "casual (seed 003)",
  chess: "chess", sprint: "Scacchi Sprint", chess960: "Chess960 (Fischer random)", person: "a person", host: "this computer",
  "engine 1": "the board's engine, level 1 (beginner)", "engine 6": "the board's engine, level 6 (about 3 s a move)",
  "engine 7": "the board's engine, level 7 (strongest, about 10 s a move)",
  w: "white", b: "black",
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
    else if (engine && engine.engine_side === side[0]) name = "the board's engine, level " + engine.opponent.slice(7);
    $("name-" + side).textContent = name;
    // The result beside each name once it stands: 1, 0 or ½.
    const points = { "1-0": { white: "1", black: "0" }, "0-1": { white: "0", black: "1" },
                     "1/2-1/2": { white: "½", black: "½" } }[s.result];
    const score = $("score-" + side);
    score.hidden = !points;
    score.textContent = points ? points[side] : "";
    score.classList.toggle("won", !!points && points[side] === "1");
    score.title = points ? (s.termination || "").replace(/_/g, " ") : "";
  }
}

// Whose turn and the last move, in a line under the board.
function renderTurn(s) {
  const n = s.san.length;
  $("turn-words").textContent = s.result !== "*" ? "" : SIDE_WORDS[s.turn] + " to move";
  $("last-move").textContent = n ? "last: " + Math.ceil(n / 2) + (n % 2 ? ". " : "… ") + s.san[n - 1] : "";
}

let builtFlipped = null;
function render(s) {
  state = s;
  const flipped = document.body.classList.contains("flipped");
  if (flipped !== builtFlipped) { builtFlipped = flipped; buildBoard(flipped); }
  for (const el of document.querySelectorAll(".hands-only")) el.hidden = !s.board.hands;
  document.body.classList.toggle("sim", !!s.board.hands);
  $("kind").textContent = s.board.hands ? "simulator" : "a board on USB";
  for (const cell of $("board").children) {
    const name = cell.dataset.square;
    const sq = squareIndex(name);
    const led = cell.querySelector(".led");
    const info = s.led_squares[sq];
    const lit = info.meaning !== "";
    // blink: false (steady), true (blinks) or 2 (a slow pulse: a draw that may be claimed)
    led.className = "led" + (lit ? " on" : "") + (lit && info.blink ? (info.blink === 2 ? " blink slow" : " blink") : "");
    led.style.background = lit ? `radial-gradient(circle, rgb(${info.rgb}) 0%, rgba(${info.rgb},.55) 45%, transparent 72%)` : "";
    cell.title = lit ? name + ": " + info.meaning : name;
    cell.setAttribute("aria-label", name + ", " + (s.pieces[sq] ? PIECE_WORDS[s.pieces[sq]] : "empty") +
      (lit ? ", light: " + info.meaning : ""));
    cell.dataset.led = info.meaning;
    const old = cell.querySelector(".piece");
    if (old) old.remove();
    if (s.pieces[sq]) cell.appendChild(pieceEl(s.pieces[sq]));
  }
  $("hand").innerHTML = "";
  if (s.hand) $("hand").appendChild(pieceEl(s.hand));
  $("tray").innerHTML = "";
  for (const p of s.tray || []) $("tray").appendChild(pieceEl(p));
  $("turn").textContent = s.turn;
  $("state").textContent = s.in_sync ? s.state : "out of sync";
  $("result").textContent = s.result === "*" ? "the game goes on" : s.result + (s.termination ? " (" + s.termination.replace(/_/g, " ") + ")" : "");
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
  for (const [value, words] of choices) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = words;
    select.appendChild(o);
  }
}

// The computer's box: which engine plays which side (chosen in the new game dialog), its level
// (the engine's own: UCI_Elo's range, Skill Level, the project engine's Level), changeable mid-game.
export function levelChoices(levels) {
  const choices = [["", "full strength"]];
  for (const [key, words, stride] of [["elo", "Elo ", 150], ["skill", "Skill Level ", 1], ["level", "Level ", 1]]) {
    if (!levels[key]) continue;
    const [low, high] = levels[key];
    for (let k = low; k <= high; k += stride) choices.push([key + " " + k, words + k]);
    if ((high - low) % stride) choices.push([key + " " + high, words + high]);   // its top, always offered
  }
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

// -- dragging: pointer events work for mouse and touch --------------------------

function startDrag(ev, letter, from) {
  ev.preventDefault();
  const el = pieceEl(letter);
  el.classList.add("dragging");
  document.body.appendChild(el);
  drag = { piece: letter, el, from };
  moveDrag(ev);
}

function moveDrag(ev) {
  if (!drag) return;
  drag.el.style.left = ev.clientX + "px";
  drag.el.style.top = ev.clientY + "px";
}

async function endDrag(ev) {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.el.remove();
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = target && target.closest(".sq");
  if (cell) {
    await post("place", d.from === "tray" ? { square: cell.dataset.square, piece: d.piece } : { square: cell.dataset.square });
  } else if (d.from === "board") {
    await post("tray");
  }
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

$("board").addEventListener("pointerdown", async (ev) => {
  if (!state || !state.board.hands) return;   // a real board: the pieces are moved by hand
  const piece = ev.target.closest(".piece");
  const cell = ev.target.closest(".sq");
  if (!piece || !cell) return;
  startDrag(ev, piece.dataset.piece, "board");
  await post("lift", { square: cell.dataset.square }); // the reed opens as the piece leaves
});
$("tray").addEventListener("pointerdown", (ev) => {
  const piece = ev.target.closest(".piece");
  if (piece) startDrag(ev, piece.dataset.piece, "tray");
});
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

// -- controls ----------------------------------------------------------------------

$("speed").addEventListener("change", () => post("clock", { speed: Number($("speed").value) }));
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
