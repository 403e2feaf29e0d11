// The page a person reads: the mirror board (lichess's chessground, view only: the game as the
// board's rules see it, coloured pieces, the last move, check, the move the board asks for as
// an arrow), the state said in words beside it with its squares marked, the legend of the LED
// colours, a move list to click through earlier positions, the PGN with its headers, and the
// settings kept in localStorage. Each state comes from link.js. On the simulator the simulated
// board is the only board on screen (an earlier position too: view.js); with a board on USB the
// mirror is the board.
import { $ } from "./dom.js";
import { Chessground } from "./vendor/chessground.js";
import { explain, refusalNote } from "./explain.js";
import { showLine } from "./i18n.js";
import { onState, post, redraw } from "./link.js";
import { onView, setViewPly, viewPly } from "./view.js";

const SETTINGS = "scacchiera.settings";
let state = null;

// -- settings: the language and the simulated speed (kept in this browser) -----------------------

function loadSettings() {
  try { return JSON.parse(localStorage.getItem(SETTINGS)) || {}; } catch (e) { return {}; }
}
const settings = loadSettings();
function saveSetting(name, value) {
  settings[name] = value;
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
}

if (settings.lang) $("lang").value = settings.lang;
$("lang").addEventListener("change", () => { saveSetting("lang", $("lang").value); draw(); });
// The Players panel is the companion's (one for every page of a board, taken from the board's game
// when the companion starts): it gives the board's game its PGN tags (names, site, date, time
// control; Event "Scacchiera rated" and no hints for a rated game), so the board's archive and this
// page's export are the same text. The page only shows it and sends what the person types: a field
// the person is typing in, or whose change is on its way, is not overwritten.
const PLAYER_FIELDS = { "white-name": "white", "black-name": "black", site: "site" };
function playersNow() {
  const p = { rated: $("rated").checked };
  for (const [id, key] of Object.entries(PLAYER_FIELDS)) p[key] = $(id).value.trim();
  return p;
}
let playersTimer = null;
let playersSending = 0;          // changes sent whose answer has not come yet
function sendPlayers(delay) {
  clearTimeout(playersTimer);    // typing: the board's archive is written again only once it pauses
  playersTimer = setTimeout(() => {
    playersTimer = null;
    playersSending++;
    post("players", playersNow()).finally(() => { playersSending--; });
  }, delay);
}
for (const id of Object.keys(PLAYER_FIELDS)) {
  $(id).addEventListener("input", () => { drawPlayers(); sendPlayers(400); });
}
$("rated").addEventListener("change", () => sendPlayers(0));

function keepPlayers(s) {
  if (!s.players || playersTimer !== null || playersSending) return;
  for (const [id, key] of Object.entries(PLAYER_FIELDS)) {
    if ($(id).value.trim() !== s.players[key] && document.activeElement !== $(id)) $(id).value = s.players[key];
  }
  $("rated").checked = s.players.rated;
}
$("speed").addEventListener("change", () => saveSetting("speed", $("speed").value));

// The board's speed follows the saved one once per page load (the simulated board only).
let speedRestored = false;
function restoreSpeed(s) {
  if (speedRestored || !s.board || !s.board.connected || !s.board.hands) return;
  speedRestored = true;
  if (settings.speed !== undefined && String(s.speed) !== settings.speed) {
    post("clock", { speed: Number(settings.speed) });
  }
}

// The move letters are the person's setting and the board's option `lang` (its events' SAN): a
// board that comes with other letters (a restarted simulator, a new board, another page's choice)
// is given the saved ones, once per connection; a change made on the board itself (its menu:
// an `option` event) becomes the saved setting.
let langSentFor = null;
function keepLanguage(s) {
  const now = s.options && s.options.lang;
  const spec = s.option_specs && s.option_specs.lang;
  if (!s.board || !s.board.connected || !now || !spec || !settings.lang) return;
  const events = s.events || [];
  const last = events[events.length - 1];
  if (last && last.ev === "option" && last.name === "lang") {
    if (last.value !== settings.lang) saveSetting("lang", last.value);
    return;
  }
  if (now === settings.lang || !(spec.choices || []).includes(settings.lang)) return;
  if (langSentFor === s.session) return;
  langSentFor = s.session;
  post("option", { name: "lang", value: settings.lang });
}

// The board's refusal of a line sent for the person, in the red message area too (once each).
let refusalShown = 0;
function drawRefusal(s) {
  const box = $("error");
  if (s.refusal && s.refusals !== refusalShown) {
    refusalShown = s.refusals;
    const words = document.createElement("span");      // (another message written here replaces it)
    showLine(words, refusalNote(s.refusal));
    box.replaceChildren(words);
    box.dataset.board = "1";
  } else if (!s.refusal && box.dataset.board) {
    box.textContent = "";
    delete box.dataset.board;
  }
}

// A phone keeps the legend folded (it is long); a wider screen shows it.
if (window.innerWidth < 600) $("legend-box").open = false;

// -- the mirror ---------------------------------------------------------------------------

const mirror = Chessground($("mirror"), {
  viewOnly: true,
  coordinates: true,
  animation: { enabled: true, duration: 120 },
  highlight: { lastMove: true, check: true },
  drawable: {
    enabled: false, visible: true,
    // The LEDs' own colours: blue for the asked move, pink for a square to empty, yellow to fill.
    brushes: {
      show: { key: "sh", color: "#0090e8", opacity: 0.9, lineWidth: 10 },
      empty: { key: "em", color: "#e0007a", opacity: 1, lineWidth: 8 },
      fill: { key: "fl", color: "#e8c000", opacity: 1, lineWidth: 8 },
      hint: { key: "hi", color: "#15781B", opacity: 0.8, lineWidth: 10 },
    },
  },
});
window.scacchieraMirror = mirror;   // for the browser tests

function lastMoveOf(uci) {
  if (!uci) return undefined;
  return uci.includes("@") ? [uci.slice(-2)] : [uci.slice(0, 2), uci.slice(2, 4)];
}

function drawMirror(s, said) {
  const plies = s.moves.length;
  const ply = viewPly() === null ? plies : viewPly();
  const fen = viewPly() === null ? said.fen || s.fen : s.fens[ply] || s.fen;
  const san = s.san[ply - 1] || "";
  const turn = fen.split(" ")[1] === "b" ? "black" : "white";
  const shapes = [];
  const custom = new Map();
  if (viewPly() === null) {
    const show = lastMoveOf(s.show);
    if (show && show.length === 2) shapes.push({ orig: show[0], dest: show[1], brush: "show" });
    for (const sq of said.empty) { custom.set(sq, "mark-empty"); shapes.push({ orig: sq, brush: "empty" }); }
    for (const [a, b] of said.arrows) shapes.push({ orig: a, dest: b, brush: "fill" });
    for (const sq of said.fill) { custom.set(sq, "mark-fill"); shapes.push({ orig: sq, brush: "fill" }); }
    if (said.hint && s.show !== s.suggestion) shapes.push({ orig: said.hint[0], dest: said.hint[1], brush: "hint" });
  }
  mirror.state.highlight.custom = custom;   // replaced whole (set() would merge it into the old marks)
  mirror.set({
    fen: fen.split(" ")[0].replace(/\[.*\]/, ""),
    turnColor: turn,
    lastMove: lastMoveOf(s.moves[ply - 1]),
    // The last move's SAN; the game as it stands: also the board's check LED (a position set up in check).
    check: /[+#]$/.test(san) || (viewPly() === null && !said.fen && Object.values(s.leds || {}).includes("check")) ? turn : false,
  });
  // Arrows only on the mirror shown: a hidden chessground measures 0 px squares, and its arrows'
  // lines got NaN coordinates (a console error each, about 140 a page).
  showOneBoard(s);
  mirror.setAutoShapes(mirrorShown ? shapes : []);
  $("viewing").hidden = viewPly() === null;
  if (viewPly() !== null) {
    showLine($("viewing-text"), ply === 0 ? "the start position" :
      { key: "after_move", number: Math.ceil(ply / 2), black: ply % 2 === 0, san: sanIn(s)[ply - 1] });
  }
}

// -- words for the state, the move list, the legend, the PGN ------------------------------------

function drawSaid(s, said) {
  const box = $("explain");
  box.className = "explain " + said.kind;
  box.innerHTML = "";
  for (const line of said.lines) {
    const p = document.createElement("p");
    showLine(p, line);
    if (line === said.refused) p.className = "refused";
    box.appendChild(p);
  }
}

function sanIn(s) { return $("lang").value === "it" ? s.san_it : s.san; }

function drawMoves(s) {
  const sans = sanIn(s);
  const list = $("moves");
  list.innerHTML = "";
  for (let i = 0; i < sans.length; i += 2) {
    const li = document.createElement("li");
    for (let j = i; j < Math.min(i + 2, sans.length); j++) {
      const b = document.createElement("button");
      b.className = "mv" + ((viewPly() === null ? sans.length : viewPly()) === j + 1 ? " current" : "");
      b.textContent = sans[j];
      b.dataset.ply = j + 1;
      b.title = "see the position after this move";
      if (j > i) li.appendChild(document.createTextNode(" "));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  const current = list.querySelector(".current");
  if (current && viewPly() === null) list.scrollTop = list.scrollHeight;
}

$("moves").addEventListener("click", (ev) => {
  const b = ev.target.closest(".mv");
  if (!b || !state) return;
  const ply = Number(b.dataset.ply);
  setViewPly(ply === state.moves.length ? null : ply);
});
function step(delta) {
  if (!state) return;
  const plies = state.moves.length;
  const ply = Math.max(0, Math.min(plies, (viewPly() === null ? plies : viewPly()) + delta));
  setViewPly(ply === plies ? null : ply);
}
$("first").addEventListener("click", () => setViewPly(0));
$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));
$("live").addEventListener("click", () => setViewPly(null));
$("live-2").addEventListener("click", () => setViewPly(null));
onView(() => draw());

// One board on screen, in one look: the simulator's own board (the hands move its pieces; it also
// shows an earlier position while the move list is walked: companion.js), or the mirror (a board on USB).
let mirrorShown = null;
function showOneBoard(s) {
  const mirrorOn = !s.board.hands;
  document.body.classList.toggle("mirror-on", mirrorOn);
  if (mirrorOn !== mirrorShown) {
    mirrorShown = mirrorOn;
    if (mirrorOn) mirror.redrawAll();          // chessground measures its squares when it is shown
  }
}

// Flip both boards and the players' bars, and remember it; the arrow keys walk the moves
// (← → Home End), F flips, as on lichess.org, unless a field has the keyboard.
export function orient(black) {
  if ((mirror.state.orientation === "black") !== black) mirror.toggleOrientation();
  document.body.classList.toggle("flipped", black);
  localStorage.setItem("scacchiera-orientation", black ? "black" : "white");
  redraw();                                   // the physical board is built again, turned round
}
function flip() { orient(mirror.state.orientation !== "black"); }
orient(localStorage.getItem("scacchiera-orientation") === "black");
$("flip").addEventListener("click", flip);
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, select, textarea, [contenteditable]") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => setViewPly(0),
                 End: () => setViewPly(null), f: flip };
  const act = keys[ev.key];
  if (act) { ev.preventDefault(); act(); }
});

let legendFor = "";
// The legend says what the lights on now mean (each colour once), every meaning on request.
function showLit(s) {
  const lit = new Set(Object.values(s.leds || {}));
  const all = $("legend-all").checked;
  for (const li of $("legend").children) li.hidden = !all && !lit.has(li.dataset.meaning);
  $("legend-none").hidden = all || lit.size > 0;
}
$("legend-all").addEventListener("change", () => { if (state) showLit(state); });

function drawLegend(s) {
  const key = JSON.stringify(s.palette || []);
  if (key === legendFor) return showLit(s);
  legendFor = key;
  const list = $("legend");
  list.innerHTML = "";
  for (const entry of s.palette || []) {
    const li = document.createElement("li");
    li.dataset.meaning = entry.meaning;
    li.dataset.rgb = entry.rgb.join(",");
    const dot = document.createElement("span");
    dot.className = "swatch" + (entry.blink ? (entry.blink === 2 ? " blink slow" : " blink") : "");
    dot.style.background = "rgb(" + entry.rgb.join(",") + ")";
    const words = document.createElement("span");
    showLine(words, { key: "legend", meaning: entry.meaning, blink: entry.blink || 0 });
    li.append(dot, words);
    list.appendChild(li);
  }
  showLit(s);
}

function drawPlayers() {
  showLine($("players"), { key: "players", white: $("white-name").value.trim() || null, black: $("black-name").value.trim() || null });
}

// The export is the board's own PGN, as its archive has it (the companion gave it the host's tags).
function drawPgn() {
  if (!state) return;
  $("pgn").value = state.pgn;
  $("pgn-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(state.pgn);
  drawPlayers();
}

function draw() {
  const s = state;
  if (!s) return;
  if (viewPly() !== null && viewPly() > s.moves.length) setViewPly(null);   // a takeback or a new game
  const said = explain(s);
  drawSaid(s, said);
  drawMirror(s, said);
  drawMoves(s);
  drawLegend(s);
  drawPgn();
}

function received(s) {
  state = s;
  restoreSpeed(s);
  keepLanguage(s);
  keepPlayers(s);
  drawRefusal(s);
  draw();
}
onState(received);
