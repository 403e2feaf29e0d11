// Play on Lichess from the board (host_tools/companion/lichess.py does the work): the token, a seek,
// a challenge to a friend or to Lichess's AI, incoming challenges, and during a game the clocks
// (from the game's stream, counted down here between updates), the opponent's draw offer, resigning.
// Every button is one action: {"do": "lichess", "op": ...}.
import { clockText } from "./clock.js";   // one clock formatter for the board's clocks and Lichess's
import { $ } from "./dom.js";
import { onState, post } from "./link.js";

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
    const el = $("lichess-clock-" + side);
    el.textContent = clockText(left);
    el.classList.toggle("running", clockBase.running === side);
  }
}
setInterval(tick, 200);

function clock() {
  return { minutes: Number($("lichess-minutes").value), increment: Number($("lichess-increment").value),
           color: $("lichess-color").value, rated: $("lichess-rated").checked, variant: $("lichess-variant").value };
}

function render(s) {
  const l = s.lichess;
  $("lichess-box").hidden = !l;
  if (!l) return;
  lichess = l;
  $("lichess-account").textContent = l.account ? "logged in as " + l.account.username : "not logged in";
  $("lichess-problem").textContent = l.problem || "";
  $("lichess-token-link").href = l.token_url;
  $("lichess-login").hidden = !!l.account;
  $("lichess-notice").textContent = l.notice || "";
  const g = l.game;
  $("lichess-start").hidden = !l.account || !!g;
  $("lichess-seeking").hidden = !l.seeking;
  $("lichess-outgoing").hidden = !l.outgoing;
  const list = $("lichess-challenges");
  list.innerHTML = "";
  for (const c of l.challenges) {
    const li = document.createElement("li");
    li.textContent = `${c.from}${c.rating ? " (" + c.rating + ")" : ""}: ${c.clock || ""} ${c.rated ? "rated" : "casual"}` +
      (c.playable ? (c.variant === "chess960" ? " — Chess960" : "") : ` — ${c.variant}: the board plays chess and Chess960 only`) + " ";
    if (c.playable) li.appendChild(button("accept", () => act("accept", { challenge: c.id })));
    li.appendChild(button("decline", () => act("decline", { challenge: c.id })));
    list.appendChild(li);
  }
  $("lichess-game").hidden = !g;
  if (g) {
    $("lichess-opponent").textContent = `${g.color === "white" ? "you (white)" : g.opponent + " (white)"} – ` +
      `${g.color === "black" ? "you (black)" : g.opponent + " (black)"}, ${g.speed || ""}${g.rated ? " rated" : ""} `;
    const link = document.createElement("a");
    link.href = g.url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "on Lichess";
    $("lichess-opponent").appendChild(link);
    clockBase = Object.assign({}, g.clock, { at: performance.now() - (g.clock.age_ms || 0) });
    tick();
    const offer = g.offer && g.offer !== g.color;
    $("lichess-offer").hidden = !offer;
    $("lichess-message").textContent = g.message || "";
    $("lichess-phase").textContent = g.phase === "setup" ? "setting the board up for the game…" : "";
  } else {
    clockBase = null;
  }
  const last = l.last_game;
  $("lichess-last").textContent = last && !g ? `last game: ${last.status}${last.winner ? ", " + last.winner + " won" : ""}` +
    (last.pgn_file ? " — PGN saved in " + last.pgn_file : "") : "";
}

function button(text, onclick) {
  const b = document.createElement("button");
  b.textContent = text;
  b.addEventListener("click", onclick);
  return b;
}

$("lichess-save-token").addEventListener("click", () => {
  act("token", { token: $("lichess-token").value }).then((ok) => { if (ok) $("lichess-token").value = ""; });
});
$("lichess-seek").addEventListener("click", () => act("seek", clock()));
$("lichess-cancel-seek").addEventListener("click", () => act("cancel_seek"));
$("lichess-challenge").addEventListener("click", () => act("challenge", Object.assign({ user: $("lichess-user").value.trim() }, clock())));
$("lichess-cancel-challenge").addEventListener("click", () => act("cancel_challenge"));
$("lichess-ai").addEventListener("click", () => act("ai", Object.assign({ level: Number($("lichess-level").value) }, clock())));
$("lichess-draw").addEventListener("click", () => act("draw"));
$("lichess-accept-draw").addEventListener("click", () => act("draw"));
$("lichess-decline-draw").addEventListener("click", () => act("decline_draw"));
$("lichess-resign").addEventListener("click", () => { if (confirm("Resign this game on Lichess?")) act("resign"); });
$("lichess-reread").addEventListener("click", () => act("reread"));

onState(render);
