// The game room around the board: the clocks and the material (from the board's status and its
// clock events; hidden while the board has none), a draw offer, and the household ladder's table
// (GET /api/ladder, host_tools/ladder). The board runs the clocks, for the engine too; the page
// only shows them, counting down the running one between the board's reports.
import { clockText } from "./clock.js";
import { $ } from "./dom.js";
import { showLine } from "./i18n.js";
import { controlLine } from "./sentences.js";
import { Chessground } from "./vendor/chessground.js";
import { onState, post } from "./link.js";

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
  showLine($("clock-control"), null);
  if (!c) { clock = null; clockKey = ""; return; }
  rate = s.board && s.board.hands ? (s.speed || 0) : 1;
  const key = JSON.stringify([c, s.clock_events]);
  if (key !== clockKey) {                       // a new report from the board: count from it
    clockKey = key;
    clock = Object.assign({}, c, { at: performance.now() });
  }
  showLine($("clock-control"), c.control ? controlLine(c.control) : null);
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
  showLine($("material"), { key: "material", white: m.w, black: m.b });
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
  if (by && c && c.sides[0][0] !== by) showLine($("offer"), { key: "offer_to_computer", white: by === "w", computer: c.name });
  else if (by) showLine($("offer"), { key: "offer_open", white: by === "w" });
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

$("past-analyse").addEventListener("click", () =>
  post("past", { op: "analyse", game: Number($("past-number").textContent) }));

// The open game move by move: its positions (python-chess's, from the server), on a small board,
// and the analysis's graph beside it (a click on the graph shows that move).
let pastBoard = null;
let pastPly = 0;
let pastPositions = null;
let pastAnalysis = null;
function showPastPly(ply) {
  if (!pastPositions) return;
  pastPly = Math.max(0, Math.min(pastPositions.length - 1, ply));
  const p = pastPositions[pastPly];
  if (!pastBoard) pastBoard = Chessground($("past-board"), { viewOnly: true, coordinates: false, animation: { enabled: false } });
  pastBoard.set({ fen: p.fen, lastMove: p.uci ? [p.uci.slice(0, 2), p.uci.slice(2, 4)] : undefined });
  $("past-at").textContent = pastPly ? Math.ceil(pastPly / 2) + (pastPly % 2 ? ". " : "… ") + p.san : "the start";
  const cursor = document.querySelector("#past-graph .cursor");
  if (cursor && pastAnalysis) {
    const x = graphX(pastPly, pastAnalysis.win.length);
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
  }
}

// -- a past game's computer analysis: White's winning chances after each move, the moves judged -------

const GRAPH_W = 600, GRAPH_H = 120;
const MARK_COLOURS = { inaccuracy: "#56b4e9", mistake: "#e69f00", blunder: "#d55e00" };
const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const graphX = (ply, n) => (n > 1 ? (ply * GRAPH_W) / (n - 1) : 0);
const graphY = (win) => GRAPH_H - (win * GRAPH_H) / 100;
const SVG = "http://www.w3.org/2000/svg";
function svg(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function drawGraph(a) {
  const box = $("past-graph");
  box.innerHTML = "";
  const n = a.win.length;
  const g = svg("svg", { viewBox: "0 0 " + GRAPH_W + " " + GRAPH_H, preserveAspectRatio: "none",
                         role: "img", "aria-label": "White's winning chances after each move" });
  g.append(svg("rect", { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: "black-side" }));
  const points = a.win.map((w, i) => graphX(i, n) + "," + graphY(w));
  g.append(svg("polygon", { points: "0," + GRAPH_H + " " + points.join(" ") + " " + GRAPH_W + "," + GRAPH_H, class: "white-side" }));
  g.append(svg("line", { x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2, class: "middle" }));
  for (const m of a.marks) {
    g.append(svg("circle", { cx: graphX(m.ply, n), cy: graphY(a.win[m.ply]), r: 5, fill: MARK_COLOURS[m.judgement],
                             class: "mark " + m.judgement, "data-ply": m.ply }));
  }
  g.append(svg("line", { x1: 0, x2: 0, y1: 0, y2: GRAPH_H, class: "cursor" }));
  g.addEventListener("click", (ev) => {
    const r = g.getBoundingClientRect();
    showPastPly(Math.round(((ev.clientX - r.left) / r.width) * (n - 1)));
  });
  box.append(g);
}

function drawAnalysis(open) {
  const a = open.analysis;
  pastAnalysis = a && a.win ? a : null;
  $("past-analyse").hidden = !!(a && a.state !== "error");
  $("past-analysis").hidden = !a;
  if (!a) return;
  showLine($("past-analysis-state"), a.state === "running" ? { key: "analysing", done: a.done, total: a.total || 0 }
    : a.state === "error" ? a.error : null);     // (an error: the host's own words)
  $("past-graph").hidden = $("past-accuracy").hidden = $("past-marks").hidden = !pastAnalysis;
  if (!pastAnalysis) return;
  drawGraph(a);
  showLine($("past-accuracy"), { key: "accuracy", white: a.accuracy.white, black: a.accuracy.black, engine: a.engine || null });
  const list = $("past-marks");
  list.innerHTML = "";
  for (const m of a.marks) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "mark-move " + m.judgement;
    b.dataset.ply = m.ply;
    b.textContent = Math.ceil(m.ply / 2) + (m.ply % 2 ? ". " : "… ") + m.san + MARK_SIGNS[m.judgement];
    b.addEventListener("click", () => showPastPly(m.ply));
    const words = document.createElement("span");
    showLine(words, { key: "judgement", judgement: m.judgement, best: m.best || null });
    li.append(b, " ", words);
    list.appendChild(li);
  }
  const download = $("past-download");
  download.href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(a.pgn);
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
  for (const g of (past.games || []).slice().reverse()) {       // the newest first
    const li = document.createElement("li");
    const open = document.createElement("button");
    open.className = "past-game";
    open.dataset.game = g.game;
    const names = document.createElement("b");
    if (g.white !== undefined) showLine(names, { key: "players", white: g.white, black: g.black });
    else showLine(names, { key: "game_number", game: g.game });
    const about = document.createElement("small");
    if (g.white !== undefined) {
      showLine(about, { key: "game_about", result: g.result || null, moves: g.moves === undefined ? null : g.moves,
                        date: g.date && !g.date.startsWith("?") ? g.date.replace(/\./g, "-") : null });
    } else if (g.unreadable) showLine(about, { key: "unreadable" });
    else about.textContent = "…";
    open.append(names, " ", about);
    open.addEventListener("click", () => post("past", { op: "open", game: g.game }));
    li.append(open);
    list.appendChild(li);
  }
  if (past.games && !past.games.length) list.textContent = "no game archived yet";
  $("past-open").hidden = !past.open;
  if (past.open) {
    $("past-number").textContent = past.open.game;
    $("past-pgn").textContent = past.open.pgn;
    $("past-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(past.open.pgn);
    $("past-download").download = "scacchiera-" + past.open.game + ".pgn";
    const fresh = JSON.stringify(pastPositions) !== JSON.stringify(past.open.positions);   // another game opened
    pastPositions = past.open.positions;
    $("past-view").hidden = !pastPositions;
    drawAnalysis(past.open);
    if (pastPositions) showPastPly(fresh ? Infinity : pastPly);
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
  showLine($("ladder-said"), ladder.said);
  // A rated game recorded, a player added: the table is read again.
  if (ladderChanges !== null && ladderChanges !== ladder.changes && $("ladder-box").open) loadLadder();
  ladderChanges = ladder.changes;
}
onState(received);
