// The club page: every board of the host (players, clock, last move, result, a board gone quiet or
// unplugged, a link to its own page), the tournament (pairings, results and corrections, standings,
// crosstable) and the Lichess broadcast. The server pushes the club's state on club/ws; actions go
// back on it (host_tools/club/club.py's act).
import { $ } from "./dom.js";
import { lineText, showLine, showLineIn } from "./i18n.js";     // the page in Italian or English (the header's button)
import { connect, onState, post } from "./link.js";
import { clockText } from "./clock.js";

const RESULTS = ["", "1-0", "0-1", "1/2-1/2"];

// A cell of ``row``: a text (a name, a number), or a line by key (sentences.js).
function cell(row, text) {
  const td = document.createElement("td");
  showLine(td, text == null || typeof text === "object" ? text : String(text));
  row.appendChild(td);
  return td;
}

function fillBody(table, rows) {
  const body = $(table).tBodies[0];
  body.replaceChildren(...rows);
}

function boardRow(b) {
  const tr = document.createElement("tr");
  tr.className = !b.connected ? "down" : b.quiet ? "quiet" : "";
  const a = document.createElement("a");     // the board's own page: its number, on a phone's screen too
  a.href = "board/" + b.board + "/";
  a.textContent = b.board + " ↗";
  showLineIn(a, "title", { key: "club_open_board", board: b.board });
  cell(tr, "").appendChild(a);
  cell(tr, b.white || "");
  cell(tr, b.black || "");
  cell(tr, b.clock && b.clock.white != null ? clockText(b.clock.white) + " – " + clockText(b.clock.black) : "");
  cell(tr, b.ply);
  cell(tr, !b.connected ? { key: "club_unplugged", problem: b.problem || "" } : b.quiet ? { key: "club_quiet" } : b.last || "");
  cell(tr, b.result && b.result !== "*" ? b.result : "");
  return tr;
}

function resultSelect(round, g) {
  const sel = document.createElement("select");
  for (const r of RESULTS) sel.add(new Option(r || "—", r));
  sel.value = g.result || "";
  sel.onchange = () => post("result", { round, board: g.board, result: sel.value || null });
  return sel;
}

function moveInput(g, boards) {
  const sel = document.createElement("select");
  sel.add(new Option("—", ""));
  for (let n = 1; n <= boards; n++) if (n !== g.board) sel.add(new Option(String(n), String(n)));
  sel.onchange = () => { if (sel.value) post("move", { board: g.board, to: Number(sel.value) }); };
  sel.disabled = g.result != null;
  return sel;
}

function drawTournament(s) {
  const t = s.tournament;
  $("no-tournament").hidden = !!t && !t.finished;
  $("tournament").hidden = !t;
  if (!t) return;
  const names = (id) => t.players[id - 1].name;
  const rnd = t.rounds[t.rounds.length - 1];
  showLine($("t-title"), { key: "club_title", name: t.name, round: rnd ? rnd.number : null, planned: t.planned,
                          finished: !!t.finished, system: t.system, clock: t.clock });
  $("pair").disabled = !t.round_done || t.rounds.length >= t.planned;
  $("repair").disabled = !rnd || rnd.games.some((g) => g.result != null);
  $("feed-link").href = rnd ? "broadcast/round-" + rnd.number + ".pgn" : "broadcast/current.pgn";
  fillBody("pairings", (rnd ? rnd.games : []).map((g) => {
    const tr = document.createElement("tr");
    cell(tr, g.board);
    cell(tr, names(g.white));
    cell(tr, names(g.black));
    cell(tr, { key: "club_result", result: g.result || null, arbiter: g.by === "arbiter" });
    cell(tr, "").appendChild(resultSelect(rnd.number, g));
    cell(tr, "").appendChild(moveInput(g, s.boards.length));
    if (!t.started.includes(g.board) && g.result == null) {   // the board has not begun it (it was away)
      const again = document.createElement("button");
      again.textContent = "send again";
      again.onclick = () => post("resend", { board: g.board });
      cell(tr, "").appendChild(again);
    }
    return tr;
  }));
  showLine($("byes"), rnd && rnd.byes.length ? { key: "club_byes", names: rnd.byes.map(names) } : null);
  fillBody("standings", t.standings.map((r) => {
    const tr = document.createElement("tr");
    for (const v of [r.rank, { key: "club_player", name: r.name, withdrawn: !!r.withdrawn }, r.rating, r.points, r.buchholz, r.sb]) {
      cell(tr, v);
    }
    if (!r.withdrawn && !t.finished) {          // paired no more from the next round (its games so far count)
      const out = document.createElement("button");
      out.textContent = "withdraw";
      out.onclick = () => {
        if (confirm(lineText({ key: "club_withdraw_ask", name: r.name }))) post("withdraw", { name: r.name });
      };
      cell(tr, "").appendChild(out);
    }
    return tr;
  }));
  const head = document.createElement("tr");
  for (const h of ["#", "Name"].concat(t.rounds.map((r) => "R" + r.number), ["Points"])) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  $("crosstable").tHead.replaceChildren(head);
  fillBody("crosstable", t.crosstable.map((r) => {
    const tr = document.createElement("tr");
    for (const v of [r.rank, r.name].concat(r.rounds, [r.points])) cell(tr, v);
    return tr;
  }));
}

// The broadcast's state; its problem or its last wait are the host's words (Lichess's answer in them).
function drawBroadcast(b) {
  showLine($("bc-state"), !b ? "not pushing to Lichess" : { key: "broadcast_state", on: !!b.on, url: (b.tour && b.tour.url) || null,
    pushes: b.pushes, problem: b.problem || null, notice: b.notice || null, token: !!b.token });
}

onState((s) => {
  fillBody("boards", s.boards.map(boardRow));
  showLine($("said"), s.said);
  drawTournament(s);
  drawBroadcast(s.broadcast);
});

// The ladder's players for a new tournament (the board pages' ladder: host_tools/ladder).
fetch("api/ladder").then((r) => r.json()).then((table) => {
  $("t-players").replaceChildren(...(table.rows || []).map((row) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = row.name;
    label.append(box, " " + row.name + " (" + row.elo + ")");
    return label;
  }));
}).catch(() => {});

$("new-tournament").onsubmit = (ev) => {
  ev.preventDefault();
  const players = [...$("t-players").querySelectorAll("input:checked")].map((b) => b.value)
    .concat($("t-new").value.split("\n").map((n) => n.trim()).filter(Boolean));
  const fields = { name: $("t-name").value, system: $("t-system").value, clock: $("t-clock").value || "off",
                   site: $("t-site").value, players, new_players: true, replace: true };
  if ($("t-rounds").value) fields.rounds = Number($("t-rounds").value);
  post("tournament", fields);
};
$("pair").onclick = () => post("pair");
$("repair").onclick = () => post("repair");
$("t-again").onclick = () => { $("no-tournament").hidden = false; };
$("bc-token").onsubmit = (ev) => {
  ev.preventDefault();
  post("broadcast", { op: "token", token: $("bc-token-value").value }).then((ok) => { if (ok) $("bc-token-value").value = ""; });
};
$("bc-start").onsubmit = (ev) => { ev.preventDefault(); post("broadcast", { op: "start", tour: $("bc-tour").value || null }); };
$("bc-stop").onclick = () => post("broadcast", { op: "stop" });

connect(250, "club/ws");
