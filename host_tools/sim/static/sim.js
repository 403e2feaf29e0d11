// The simulator page: draws what the server's simulated board says, and turns
// drags into hands' actions (lift a piece, put it down anywhere, into the tray).
// All decisions are the firmware's: the page never judges a move.
"use strict";

// Filled glyphs for both colours (coloured by CSS): solid white pieces read better than outlines.
const GLYPHS = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const FILES = "abcdefgh";
const $ = (id) => document.getElementById(id);
let state = null;
let drag = null; // {piece, el, from: "board" | "tray"}

function squareName(sq) { return FILES[sq % 8] + (Math.floor(sq / 8) + 1); }

async function post(action, body) {
  const res = await fetch("/api/" + action, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const data = await res.json().catch(() => ({ error: "bad answer from the server" }));
  if (!res.ok) {
    $("error").textContent = data.error || ("error " + res.status);
    return null;
  }
  $("error").textContent = "";
  render(data);
  return data;
}

function pieceEl(letter) {
  const el = document.createElement("span");
  el.className = "piece " + (letter === letter.toUpperCase() ? "w" : "b");
  el.textContent = GLYPHS[letter] || "?";
  el.dataset.piece = letter;
  return el;
}

function buildBoard() {
  const board = $("board");
  board.innerHTML = "";
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const sq = rank * 8 + file;
      const cell = document.createElement("div");
      cell.className = "sq " + ((rank + file) % 2 ? "light" : "dark");
      cell.dataset.square = squareName(sq);
      cell.innerHTML = '<div class="led"></div><span class="name">' + squareName(sq) + "</span>";
      board.appendChild(cell);
    }
  }
}

function render(s) {
  state = s;
  for (const cell of $("board").children) {
    const name = cell.dataset.square;
    const sq = FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
    const led = cell.querySelector(".led");
    const info = s.led_squares[sq];
    const lit = info.meaning !== "";
    // blink: false (steady), true (blinks) or 2 (a slow pulse: a draw that may be claimed)
    led.className = "led" + (lit ? " on" : "") + (lit && info.blink ? (info.blink === 2 ? " blink slow" : " blink") : "");
    led.style.background = lit ? `radial-gradient(circle, rgb(${info.rgb}) 0%, rgba(${info.rgb},.55) 45%, transparent 72%)` : "";
    cell.title = lit ? name + ": " + info.meaning : name;
    cell.dataset.led = info.meaning;
    const old = cell.querySelector(".piece");
    if (old) old.remove();
    if (s.pieces[sq]) cell.appendChild(pieceEl(s.pieces[sq]));
  }
  $("hand").innerHTML = "";
  if (s.hand) $("hand").appendChild(pieceEl(s.hand));
  $("tray").innerHTML = "";
  for (const p of s.tray) $("tray").appendChild(pieceEl(p));
  $("turn").textContent = s.turn;
  $("state").textContent = s.in_sync ? s.state : "out of sync";
  $("result").textContent = s.result + (s.termination ? " (" + s.termination.replace(/_/g, " ") + ")" : "");
  const sans = $("lang").value === "it" ? s.san_it : s.san;
  $("moves").innerHTML = "";
  for (let i = 0; i < sans.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = sans[i] + (sans[i + 1] ? "  " + sans[i + 1] : "");
    $("moves").appendChild(li);
  }
  renderLogical(s.fen);
  $("fen").value = s.fen;
  $("pgn").value = s.pgn;
  $("pgn-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(s.pgn);
  $("protocol").textContent = s.protocol.join("\n");
  $("events").textContent = s.events.map((e) => JSON.stringify(e)).join("\n");
  $("now").textContent = s.now;
  const o = s.options;
  if (document.activeElement !== $("settle_ms")) $("settle_ms").value = o.settle_ms;
  $("hints").checked = o.hints;
  $("takeback").checked = o.takeback;
  $("profile").value = o.profile;
  $("speed").value = String(s.speed);
  renderSprint(s);
  $("stepper").hidden = s.speed !== 0;
}

function renderSprint(s) {
  $("sprint").hidden = !s.sprint;
  if (document.activeElement !== $("variant")) $("variant").value = s.variant;
  if (document.activeElement !== $("move_time")) $("move_time").value = Math.round(s.options.move_time_ms / 1000);
  if (!s.sprint) return;
  for (const side of ["white", "black"]) {
    const box = $("hand-" + side);
    box.innerHTML = "";
    for (const t of s.sprint.hands[side]) box.appendChild(pieceEl(t));
    $("deck-" + side).textContent = s.sprint.decks[side];
  }
  $("drawn").innerHTML = "";
  if (s.sprint.drawn) $("drawn").appendChild(pieceEl(s.turn === "white" ? s.sprint.drawn.toUpperCase() : s.sprint.drawn));
  $("seed").textContent = s.sprint.seed;
}

function renderLogical(fen) {
  const mini = $("logical");
  mini.innerHTML = "";
  const rows = fen.split(" ")[0].replace(/\[.*\]/, "").split("/");   // (a Sprint string has the hands in [])
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      const n = Number(ch);
      const cells = n ? Array(n).fill("") : [ch];
      for (const c of cells) {
        const span = document.createElement("span");
        span.className = (7 - i + file) % 2 ? "light" : "dark";
        span.textContent = c ? GLYPHS[c] : "";
        mini.appendChild(span);
        file++;
      }
    }
  });
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

$("board").addEventListener("pointerdown", async (ev) => {
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
for (const b of document.querySelectorAll(".press")) {
  b.addEventListener("click", () => post("press", { button: b.dataset.button }));
}
for (const id of ["hints", "takeback"]) {
  $(id).addEventListener("change", () => post("option", { name: id, value: $(id).checked }));
}
$("settle_ms").addEventListener("change", () => post("option", { name: "settle_ms", value: Number($("settle_ms").value) }));
$("profile").addEventListener("change", () => post("option", { name: "profile", value: $("profile").value }));
$("lang").addEventListener("change", () => { post("option", { name: "lang", value: $("lang").value }); });
$("reset").addEventListener("click", () => post("reset", {
  fen: $("fen-in").value.trim() || null, profile: $("profile").value,
  variant: $("variant").value, seed: Number($("seed-in").value) || 0,
}));
$("move_time").addEventListener("change", () => post("option", { name: "move_time_ms", value: Math.round(Number($("move_time").value) * 1000) }));
$("send-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  post("send", { line: $("send").value }).then((ok) => { if (ok) $("send").value = ""; });
});

// -- staying up to date: long polls, and polling again after a server restart ------

async function poll() {
  let since = null;
  for (;;) {
    try {
      const url = since === null ? "/api/state" : "/api/state?since=" + since;
      const res = await fetch(url);
      if (!res.ok) throw new Error("status " + res.status);
      const s = await res.json();
      $("conn").textContent = "connected";
      $("conn").classList.remove("down");
      render(s);
      since = s.version;
    } catch (e) {
      $("conn").textContent = "server unreachable: retrying…";
      $("conn").classList.add("down");
      since = null;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

buildBoard();
poll();
