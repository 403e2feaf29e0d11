// The game room around the board: the clocks and the material (from the board's status and its
// clock events; hidden while the board has none), a draw offer, and the household ladder's table
// (GET /api/ladder, host_tools/ladder). The board runs the clocks, for the engine too; the page
// only shows them, counting down the running one between the board's reports.
import { clockText } from "./clock.js";
import { $ } from "./dom.js";
import { Chessground } from "./vendor/chessground.js";
import { onState, post } from "./link.js";

const SIDES = { w: "White", b: "Black" };

// -- clocks -----------------------------------------------------------------------------------

let clock = null;        // the board's last report: {white, black, running, control}, and when it came
let clockKey = "";
let rate = 1;            // the board's milliseconds per real millisecond (the simulator's speed)

function left(side) {
  const ms = clock[side];
  if (clock.running !== side[0]) return ms;
  return ms - (performance.now() - clock.at) * rate;
}

function tick() {
  if (!clock) return;
  for (const side of ["white", "black"]) {
    const face = $("clock-" + side);
    const ms = left(side);
    face.querySelector("b").textContent = clockText(ms);
    face.classList.toggle("running", clock.running === side[0]);
    face.classList.toggle("flag", ms <= 0);
  }
}

function drawClocks(s) {
  const c = s.clock;
  $("clock-white").hidden = $("clock-black").hidden = !c;
  $("clock-control").textContent = "";
  if (!c) { clock = null; clockKey = ""; return; }
  rate = s.board && s.board.hands ? (s.speed || 0) : 1;
  const key = JSON.stringify([c, s.clock_events]);
  if (key !== clockKey) {                       // a new report from the board: count from it
    clockKey = key;
    clock = Object.assign({}, c, { at: performance.now() });
  }
  $("clock-control").textContent = c.control ? c.control.replace("+", " min + ") + " s" : "";
  tick();
}
setInterval(tick, 100);

// -- material and offers ------------------------------------------------------------------------

// The pieces each side has taken, from the position (a chess set less what stands; a promoted
// pawn counts as the piece it became), as lichess.org shows them beside the players.
const SET = { p: 8, n: 2, b: 2, r: 2, q: 1 };
const GLYPHS = { p: "♟", n: "♞", b: "♝", r: "♜", q: "♛" };
export function captured(fen) {
  const left = {};
  for (const c of fen.split(" ")[0]) if (/[a-z]/i.test(c)) left[c] = (left[c] || 0) + 1;
  const taken = { w: "", b: "" };            // w: the black pieces White took; b: the white ones Black took
  for (const [kind, n] of Object.entries(SET)) {
    taken.w += GLYPHS[kind].repeat(Math.max(0, n - (left[kind] || 0)));
    taken.b += GLYPHS[kind].repeat(Math.max(0, n - (left[kind.toUpperCase()] || 0)));
  }
  return taken;
}

function drawMaterial(s) {
  const m = s.material;
  $("material").hidden = !m;
  if (!m) {
    for (const id of ["captured-white", "captured-black", "adv-white", "adv-black"]) $(id).textContent = "";
    return;
  }
  const diff = m.w - m.b;
  $("material").textContent = "Material: White " + m.w + " · Black " + m.b +
    (diff ? " (" + (diff > 0 ? "White +" + diff : "Black +" + -diff) + ")" : " (even)");
  const taken = s.variant === "chess" && s.fen ? captured(s.fen) : { w: "", b: "" };
  $("captured-white").textContent = taken.w;
  $("captured-black").textContent = taken.b;
  $("adv-white").textContent = diff > 0 ? "+" + diff : "";     // the material ahead, beside the side ahead
  $("adv-black").textContent = diff < 0 ? "+" + -diff : "";
}

function drawOffer(s) {
  const by = s.offer;
  $("offer").hidden = !by || s.result !== "*";
  const c = s.computer && s.computer.sides.length === 1 ? s.computer : null;
  if (by && c && c.sides[0][0] !== by) $("offer").textContent = SIDES[by] + " offers a draw: " + c.name + " answers.";
  else if (by) $("offer").textContent = SIDES[by] + " offers a draw: " + SIDES[by === "w" ? "b" : "w"] +
    " may accept it or play on.";
}

// -- the ladder -----------------------------------------------------------------------------------

function thisMonth() {
  const d = new Date();
  return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0");
}

// Each read is numbered: an older answer that arrives late (the panel opened, then the month chosen)
// never paints over the table the player asked for last.
let ladderReads = 0;

export async function loadLadder() {
  const read = ++ladderReads;
  const choice = $("ladder-month").value;
  const month = choice === "this" ? thisMonth() : "";
  let table;
  try {
    const r = await fetch("api/ladder" + (month ? "?month=" + month : ""));
    table = await r.json();
    if (!r.ok) throw new Error(table.error || r.statusText);
  } catch (e) {
    if (read === ladderReads) $("ladder-note").textContent = "the ladder could not be read: " + e.message;
    return;
  }
  if (read !== ladderReads) return;
  const body = $("ladder").querySelector("tbody");
  body.innerHTML = "";
  for (const row of table.rows) {
    const tr = document.createElement("tr");
    for (const v of [row.rank, row.name, row.elo, row.games, row.wins, row.draws, row.losses]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("ladder-note").textContent = table.note || (table.rows.length ? "" : "no games in this table yet");
}

$("ladder-box").addEventListener("toggle", () => { if ($("ladder-box").open) loadLadder(); });
$("ladder-month").addEventListener("change", loadLadder);
// A player added here, with the companion's own Python (no command to type).
$("ladder-add").addEventListener("click", async () => {
  const name = $("ladder-name").value.trim();
  if (name && await post("ladder_player", { name })) $("ladder-name").value = "";
});

// -- past games: the board's archive (the protocol's games and pgn N) ----------------------------

$("past-list").addEventListener("click", () => post("past", { op: "list" }));
$("past-box").addEventListener("toggle", () => { if ($("past-box").open) post("past", { op: "list" }); });
$("past-import").addEventListener("click", () =>
  post("past", { op: "import", game: Number($("past-number").textContent) }));

// The open game move by move: its positions (python-chess's, from the server), on a small board.
let pastBoard = null;
let pastPly = 0;
let pastPositions = null;
function showPastPly(ply) {
  if (!pastPositions) return;
  pastPly = Math.max(0, Math.min(pastPositions.length - 1, ply));
  const p = pastPositions[pastPly];
  if (!pastBoard) pastBoard = Chessground($("past-board"), { viewOnly: true, coordinates: false });
  pastBoard.set({ fen: p.fen, lastMove: p.uci ? [p.uci.slice(0, 2), p.uci.slice(2, 4)] : undefined });
  $("past-at").textContent = pastPly ? Math.ceil(pastPly / 2) + (pastPly % 2 ? ". " : "… ") + p.san : "the start";
}
$("past-first").addEventListener("click", () => showPastPly(0));
$("past-back").addEventListener("click", () => showPastPly(pastPly - 1));
$("past-forward").addEventListener("click", () => showPastPly(pastPly + 1));
$("past-last").addEventListener("click", () => showPastPly(Infinity));

let pastKey = "";
function drawPast(past) {
  if (!past) return;
  const key = JSON.stringify(past);
  if (key === pastKey) return;
  pastKey = key;
  const list = $("past-games");
  list.innerHTML = "";
  for (const g of past.games || []) {
    const li = document.createElement("li");
    const open = document.createElement("button");
    open.textContent = "game " + g.game;
    open.dataset.game = g.game;
    open.addEventListener("click", () => post("past", { op: "open", game: g.game }));
    li.append(open, " " + g.bytes + " bytes");
    list.appendChild(li);
  }
  if (past.games && !past.games.length) list.textContent = "no game archived yet";
  $("past-open").hidden = !past.open;
  if (past.open) {
    $("past-number").textContent = past.open.game;
    $("past-pgn").textContent = past.open.pgn;
    $("past-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(past.open.pgn);
    $("past-download").download = "scacchiera-" + past.open.game + ".pgn";
    pastPositions = past.open.positions;
    $("past-view").hidden = !pastPositions;
    if (pastPositions) showPastPly(Infinity);
  }
  $("past-error").textContent = past.error || "";
}

let ladderChanges = null;
function received(s) {
  drawClocks(s);
  drawMaterial(s);
  drawPast(s.past);
  drawOffer(s);
  const ladder = s.ladder || { changes: 0, said: null };
  $("ladder-said").textContent = ladder.said || "";
  // A rated game recorded, a player added: the table is read again.
  if (ladderChanges !== null && ladderChanges !== ladder.changes && $("ladder-box").open) loadLadder();
  ladderChanges = ladder.changes;
}
onState(received);
