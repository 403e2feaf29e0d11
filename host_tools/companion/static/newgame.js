// A new game, in one place: the opponent (a person, the board's own engine at a level, an engine on
// this computer, Lichess), the person's colour (or by lot, seed 003), the clock, the variant, rated
// or not; Chess960's start position (at random unless given). One action ({"do": "start"}, boards.py's start_game) sets it all and starts the game.
import { $ } from "./dom.js";
import { controlLine } from "./sentences.js";
import { CHOICE_LABELS, fillSelect, levelChoices, levelFields, levelOf } from "./companion.js";
import { lastRefusal, onState, post, state } from "./link.js";

const dialog = $("new-game");

// The opponents this board and this computer offer, as [value, words].
function opponents(s) {
  const out = [["person", "a person (two players at the board)"]];
  const c = s.computer;
  if (c) for (const id of c.engines) out.push(["computer " + id, { key: "computer_engine", engine: id, ours: id === "scacchiera" }]);
  const spec = s.option_specs && s.option_specs.opponent;
  for (const choice of (spec && spec.choices) || []) {
    const elo = (s.level_elo || {})[choice.slice(7)];
    if (/^engine \d/.test(choice)) out.push([choice, { key: "board_engine", level: Number(choice.slice(7)), elo: elo || null }]);
  }
  if (s.lichess) out.push(["lichess", "someone on Lichess (online)"]);
  return out;
}

function clocks(s) {
  const spec = s.option_specs && s.option_specs.clock;
  const presets = (spec && spec.presets) || ["5+3", "10+5", "15+10"];
  return [["off", "no clock"]].concat(presets.map((p) => [p, controlLine(p)]));
}

// The level select follows the opponent: an engine on this computer has its own levels.
function showLevel() {
  const s = state();
  const chosen = $("ng-opponent").value;
  const c = s && s.computer;
  const computer = chosen.startsWith("computer ");
  $("ng-level-row").hidden = !computer;
  if (computer && c && chosen.slice(9) !== c.engine) {
    post("computer", { engine: chosen.slice(9), sides: [] });   // its levels come with the next state
  }
  $("ng-seed-row").hidden = $("variant").value !== "sprint";
  $("ng-position-row").hidden = $("variant").value !== "chess960";
}

// The last choices made here (kept in this browser): the dialog opens with them, as an app's does.
const REMEMBERED = "scacchiera.newgame";
function remembered() {
  try { return JSON.parse(localStorage.getItem(REMEMBERED)) || {}; } catch (e) { return {}; }
}
const offered = (select, value) => [...select.options].some((o) => o.value === value);

function fill(s) {
  const last = remembered();
  fillSelect($("ng-opponent"), opponents(s));
  const c = s.computer;
  const now = c && c.sides.length ? "computer " + c.engine :
    /^engine \d/.test((s.options || {}).opponent || "") ? s.options.opponent : "person";
  $("ng-opponent").value = offered($("ng-opponent"), last.opponent) ? last.opponent : now;
  fillSelect($("ng-clock"), clocks(s));
  const clock = last.clock || (s.options || {}).clock || "off";
  if (!offered($("ng-clock"), clock)) fillSelect($("ng-clock"), clocks(s).concat([[clock, clock]]));
  $("ng-clock").value = clock;
  fillSelect($("variant"), s.variants.map((v) => [v, CHOICE_LABELS[v] || v]));
  $("variant").value = offered($("variant"), last.variant) ? last.variant : s.variant;
  $("ng-rated").checked = last.rated !== undefined ? last.rated : !!(s.players && s.players.rated);
  const colour = document.querySelector("input[name=ng-colour][value='" + (last.colour || "white") + "']");
  if (colour) colour.checked = true;
  $("ng-error").textContent = "";
  showLevel();
}

// The computer's levels, once the state has the chosen engine's.
let levelsFor = "";
function fillLevels(s) {
  if (!dialog.open || !s.computer) return;
  const key = s.computer.engine + JSON.stringify(s.computer.levels);
  if (key === levelsFor) return;
  levelsFor = key;
  fillSelect($("ng-level"), levelChoices(s.computer.levels));
  const last = remembered();
  const engine = "computer " + s.computer.engine;
  $("ng-level").value = last.opponent === engine && offered($("ng-level"), last.level) ? last.level : levelOf(s.computer);
}
onState(fillLevels);

export function openNewGame() {
  const s = state();
  if (!s) return;
  levelsFor = "";
  dialog.showModal();
  fill(s);
  fillLevels(s);
}

$("act-new").addEventListener("click", openNewGame);
$("ng-cancel").addEventListener("click", () => dialog.close());
$("ng-opponent").addEventListener("change", showLevel);
$("variant").addEventListener("change", showLevel);

$("ng-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const chosen = $("ng-opponent").value;
  if (chosen === "lichess") {                   // Lichess's own seek and challenge: its box
    dialog.close();
    $("lichess-box").open = true;
    $("lichess-box").scrollIntoView({ behavior: "smooth" });
    return;
  }
  const fields = {
    opponent: chosen.startsWith("computer ") ? "computer" : chosen,
    colour: document.querySelector("input[name=ng-colour]:checked").value,
    clock: $("ng-clock").value,
    variant: $("variant").value,
    rated: $("ng-rated").checked,
    fen: $("fen-in").value.trim() || null,
  };
  if (fields.opponent === "computer") fields.level = levelFields($("ng-level").value);
  if (fields.variant === "sprint" && $("seed-in").value !== "") fields.seed = Math.round(Number($("seed-in").value));
  if (fields.variant === "chess960" && $("position-in").value !== "") fields.position = Math.round(Number($("position-in").value));
  if (await post("start", fields)) {
    localStorage.setItem(REMEMBERED, JSON.stringify({ opponent: chosen, level: $("ng-level").value,
      colour: fields.colour, clock: fields.clock, variant: fields.variant, rated: fields.rated }));
    dialog.close();
  } else $("ng-error").textContent = lastRefusal() || "not started";
});
