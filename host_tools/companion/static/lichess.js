// Play on Lichess from the board (host_tools/companion/lichess.py does the work): the token, a seek,
// a challenge to a friend or to Lichess's AI, incoming challenges, and during a game the clocks
// (from the game's stream, counted down here between updates), the opponent's draw offer, resigning.
// Every button is one action: {"do": "lichess", "op": ...}.
import { clockText } from "./room.js";   // one clock formatter for the board's clocks and Lichess's
import { onState, post } from "./link.js";

const $l = (id) => document.getElementById(id);
let lichess = null;        // the state's "lichess" part
let clockBase = null;      // {white, black, running, at: performance.now() when the state came}

function act(op, fields) {
  return post("lichess", Object.assign({ op }, fields || {}));
}

function tick() {
  if (!clockBase) return;
  const spent = performance.now() - clockBase.at;
  for (const side of ["white", "black"]) {
    const left = clockBase[side] === null ? null : clockBase[side] - (clockBase.running === side ? spent : 0);
    const el = $l("lichess-clock-" + side);
    el.textContent = clockText(left);
    el.classList.toggle("running", clockBase.running === side);
  }
}
setInterval(tick, 200);

function clock() {
  return { minutes: Number($l("lichess-minutes").value), increment: Number($l("lichess-increment").value),
           color: $l("lichess-color").value, rated: $l("lichess-rated").checked };
}

function render(s) {
  const l = s.lichess;
  $l("lichess-box").hidden = !l;
  if (!l) return;
  lichess = l;
  $l("lichess-account").textContent = l.account ? "logged in as " + l.account.username : "not logged in";
  $l("lichess-problem").textContent = l.problem || "";
  $l("lichess-token-link").href = l.token_url;
  $l("lichess-login").hidden = !!l.account;
  $l("lichess-notice").textContent = l.notice || "";
  const g = l.game;
  $l("lichess-start").hidden = !l.account || !!g;
  $l("lichess-seeking").hidden = !l.seeking;
  $l("lichess-outgoing").hidden = !l.outgoing;
  const list = $l("lichess-challenges");
  list.innerHTML = "";
  for (const c of l.challenges) {
    const li = document.createElement("li");
    li.textContent = `${c.from}${c.rating ? " (" + c.rating + ")" : ""}: ${c.clock || ""} ${c.rated ? "rated" : "casual"}` +
      (c.standard ? "" : ` — ${c.variant}: the board plays standard chess only`) + " ";
    if (c.standard) li.appendChild(button("accept", () => act("accept", { challenge: c.id })));
    li.appendChild(button("decline", () => act("decline", { challenge: c.id })));
    list.appendChild(li);
  }
  $l("lichess-game").hidden = !g;
  if (g) {
    $l("lichess-opponent").textContent = `${g.color === "white" ? "you (white)" : g.opponent + " (white)"} – ` +
      `${g.color === "black" ? "you (black)" : g.opponent + " (black)"}, ${g.speed || ""}${g.rated ? " rated" : ""} `;
    const link = document.createElement("a");
    link.href = g.url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "on Lichess";
    $l("lichess-opponent").appendChild(link);
    clockBase = Object.assign({}, g.clock, { at: performance.now() - (g.clock.age_ms || 0) });
    tick();
    const offer = g.offer && g.offer !== g.color;
    $l("lichess-offer").hidden = !offer;
    $l("lichess-message").textContent = g.message || "";
    $l("lichess-phase").textContent = g.phase === "setup" ? "setting the board up for the game…" : "";
  } else {
    clockBase = null;
  }
  const last = l.last_game;
  $l("lichess-last").textContent = last && !g ? `last game: ${last.status}${last.winner ? ", " + last.winner + " won" : ""}` +
    (last.pgn_file ? " — PGN saved in " + last.pgn_file : "") : "";
}

function button(text, onclick) {
  const b = document.createElement("button");
  b.textContent = text;
  b.addEventListener("click", onclick);
  return b;
}

$l("lichess-save-token").addEventListener("click", () => {
  act("token", { token: $l("lichess-token").value }).then((ok) => { if (ok) $l("lichess-token").value = ""; });
});
$l("lichess-seek").addEventListener("click", () => act("seek", clock()));
$l("lichess-cancel-seek").addEventListener("click", () => act("cancel_seek"));
$l("lichess-challenge").addEventListener("click", () => act("challenge", Object.assign({ user: $l("lichess-user").value.trim() }, clock())));
$l("lichess-cancel-challenge").addEventListener("click", () => act("cancel_challenge"));
$l("lichess-ai").addEventListener("click", () => act("ai", Object.assign({ level: Number($l("lichess-level").value) }, clock())));
$l("lichess-draw").addEventListener("click", () => act("draw"));
$l("lichess-accept-draw").addEventListener("click", () => act("draw"));
$l("lichess-decline-draw").addEventListener("click", () => act("decline_draw"));
$l("lichess-resign").addEventListener("click", () => { if (confirm("Resign this game on Lichess?")) act("resign"); });
$l("lichess-reread").addEventListener("click", () => act("reread"));

onState(render);
