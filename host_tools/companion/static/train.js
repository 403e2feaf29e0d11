// The Train dialog (opened from New game's "Train…"): a puzzle (for a named player of the ladder, or the board's own record), a game
// replayed or guessed from a PGN, an opening (the board's book, or the person's PGN). One action
// ({"do": "train"}, host_tools/companion/training.py) turns it into the board's commands. The drill's
// news (state.drill: right, wrong, done) is said under the board.
import { $ } from "./dom.js";
import { fillSelect } from "./companion.js";
import { lastRefusal, onState, post, state } from "./link.js";

const dialog = $("train");

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
  if (await post("train", fields)) dialog.close();
  else $("tr-error").textContent = lastRefusal() || "not started";
});

// The drill's news, under the board: what the board just judged, how it ended, the puzzle rating.
const WORDS = {
  start: (d) => d.mode === "puzzle" ? "Puzzle " + d.puzzle + " (rated " + d.puzzle_rating + "): set it up as the lights ask, then make the lit move; your turn after it"
    : d.mode === "replay" ? "Replay: make each move the lights show" : "Your moves are " + (d.side === "b" ? "Black's" : "White's") + ": the board shows the others",
  right: (d) => "Right: " + d.uci,
  wrong: (d) => "Not " + d.uci + ": put the piece back as the lights ask" + (d.mode === "puzzle" ? " (the lights then show the solution)" : ""),
  done: (d) => (d.mode === "puzzle" ? (d.solved ? "Solved" : "Not solved") : "Done: " + d.right + " of " + d.moves + " right at the first try")
    + (d.mistakes ? ", " + d.mistakes + " wrong" : "") + (d.ms !== undefined ? ", " + Math.round(d.ms / 1000) + " s" : ""),
  stopped: () => "Drill stopped",
};

onState((s) => {
  const d = s.drill;
  const box = $("drill-news");
  const said = s.training && s.training.said;
  const text = d && WORDS[d.state] ? WORDS[d.state](d) + (d.state === "done" && said ? ". " + said : "") : "";
  box.textContent = text;
  box.hidden = !text;
});
