// The Train dialog (opened from New game's "Train…"): a puzzle (for a named player of the ladder, or the board's own record), a game
// replayed or guessed from a PGN, an opening (the board's book, or the person's PGN). One action
// ({"do": "train"}, host_tools/companion/training.py) turns it into the board's commands. The drill's
// news (state.drill: right, wrong, done) is said under the board.
import { $ } from "./dom.js";
import { showLine } from "./i18n.js";
import { fillSelect } from "./companion.js";
import { lastRefusal, onState, post, state } from "./link.js";
import { orient } from "./page.js";

const dialog = $("train");
let lastTrain = null;          // the fields of the last drill started here: "Next puzzle" asks for another

function showRows() {
  const mode = $("tr-mode").value;
  $("tr-puzzle-rows").hidden = mode !== "puzzle";
  $("tr-side-row").hidden = mode === "puzzle" || mode === "replay";
  $("tr-pgn-row").hidden = $("tr-file-row").hidden = mode === "puzzle";
}

function open() {
  const s = state();
  if (!s) return;
  const t = s.training || {};
  fillSelect($("tr-theme"), [["", "any"]].concat((t.themes || []).map((name) => [name, name])));
  fetch("api/ladder").then((r) => r.json()).then((table) => {      // the ladder's players, to choose from
    const names = (table.rows || []).map((row) => row.name);
    $("tr-players").replaceChildren(...names.map((n) => Object.assign(document.createElement("option"), { value: n })));
  }).catch(() => {});
  $("tr-error").textContent = "";
  const opened = s.past && s.past.open;                  // a game of the board's archive, open in Past games
  if (opened && opened.pgn && !$("tr-pgn").value.trim()) $("tr-pgn").value = opened.pgn;
  showRows();
  dialog.showModal();
}

$("act-train").addEventListener("click", () => {      // in the New game dialog: this one instead
  $("new-game").close();
  open();
});
$("tr-cancel").addEventListener("click", () => dialog.close());
$("tr-mode").addEventListener("change", showRows);
$("tr-file").addEventListener("change", async () => {
  const file = $("tr-file").files[0];
  if (file) $("tr-pgn").value = await file.text();
});
$("tr-stop").addEventListener("click", async () => {
  if (await post("train", { mode: "stop" })) dialog.close();
  else $("tr-error").textContent = lastRefusal() || "no drill stopped";
});

$("tr-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const mode = $("tr-mode").value;
  const fields = { mode };
  if (mode === "puzzle") {
    if ($("tr-player").value.trim()) fields.player = $("tr-player").value.trim();
    if ($("tr-theme").value) fields.theme = $("tr-theme").value;
    if ($("tr-rating").value !== "") fields.rating = Math.round(Number($("tr-rating").value));
  } else {
    fields.side = document.querySelector("input[name=tr-side]:checked").value;
    if ($("tr-pgn").value.trim()) fields.pgn = $("tr-pgn").value;
  }
  if (await post("train", fields)) {
    lastTrain = fields;
    dialog.close();
  } else $("tr-error").textContent = lastRefusal() || "not started";
});

// The drill's news, under the board, as lines by key from the board's drill event (sentences.js):
// what the board just judged (the move in SAN, in the page's move letters), and at the end its
// summary: moves, right, mistakes, time, the puzzle rating and its change, with "Next puzzle". A
// drill replaced by a new game says nothing (its news goes with it).
const sanOf = (d) => (d.san ? d.san[$("lang").value === "it" ? "it" : "en"] : d.uci);
const NEWS = {
  start: (d) => d.mode === "puzzle" ? { key: "drill_puzzle", puzzle: d.puzzle, rating: d.puzzle_rating, white: d.side !== "b" }
    : d.mode === "replay" ? { key: "drill_replay" } : { key: "drill_side", white: d.side !== "b" },
  right: (d) => ({ key: "drill_right", san: sanOf(d) }),
  wrong: (d) => ({ key: "drill_wrong", san: sanOf(d), puzzle: d.mode === "puzzle" }),
};

// The summary's lines; ``said``: the host's own words on the puzzle's record (a text, not a line).
function summary(d, said) {
  const rows = [{ key: "drill_over", puzzle: d.mode === "puzzle", solved: !!d.solved }];
  rows.push({ key: "drill_tally", moves: d.moves, right: d.right, mistakes: d.mistakes,
              seconds: d.ms !== undefined ? Math.round(d.ms / 1000) : null });
  if (d.moves) rows.push({ key: "drill_score", percent: Math.round((100 * d.right) / d.moves) });
  if (said) rows.push(said);
  else if (d.rating !== undefined) rows.push({ key: "puzzle_rating", rating: d.rating, change: d.rating_change });
  return rows;
}

function row(line) {
  const p = document.createElement("p");
  showLine(p, line);
  return p;
}

let turnedFor = 0;             // the drill start the board was last turned round for
$("tr-next").addEventListener("click", () => post("train", lastTrain && lastTrain.mode === "puzzle" ? lastTrain : { mode: "puzzle" }));

onState((s) => {
  const d = s.drill;
  const box = $("drill-news");
  const said = s.training && s.training.said;
  const done = d && d.state === "done";
  const rows = done ? summary(d, said) : d && NEWS[d.state] ? [NEWS[d.state](d)] : [];
  const key = JSON.stringify([rows, $("lang").value]);
  if (box.dataset.key !== key) {               // written again only when it changes (a screen reader reads it)
    box.dataset.key = key;
    box.className = done ? "explain over drill-summary" : "explain";
    if (done) {
      delete box.dataset.line;
      box.replaceChildren(...rows.map(row));
    } else showLine(box, rows[0] || null);    // the one line in the box itself
  }
  $("tr-next").hidden = !(done && d.mode === "puzzle");
  box.hidden = !rows.length;
  // The board turned round to the solver's side as a drill starts (as lichess.org turns a puzzle).
  if (d && d.state === "start" && d.side && d.n !== turnedFor) {
    turnedFor = d.n;
    orient(d.side === "b");
  }
});
