// The link to the companion server: one WebSocket, reopened with a growing wait when it drops. The
// server pushes the board's whole state on it; the page sends actions on it ({"do": ..., "id": N})
// and each is answered ({"re": N, "ok": ..., "error": ...}). Every part of the page imports from here:
// `post` to act, `onState` to draw each state, `state()` for the newest one.
import { $ } from "./dom.js";
import { showLine } from "./i18n.js";

let socket = null;
let nextId = 1;
let current = null;
const waiting = new Map();   // id -> resolve, actions awaiting their answer
const drawers = [];          // the page's parts, called with each state in the order they registered

// The newest state the server pushed (null before the first).
export function state() { return current; }

// Calls fn(state) with every state from now on, and with the newest one at once if there is one.
export function onState(fn) {
  drawers.push(fn);
  if (current) fn(current);
}

// Sends an action; resolves to true when the board did it, false (with the reason shown) when not.
export function post(action, fields) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    $("error").textContent = "not connected to the server: the action was not sent";
    return Promise.resolve(false);
  }
  const id = nextId++;
  socket.send(JSON.stringify(Object.assign({}, fields || {}, { do: action, id })));
  return new Promise((resolve) => waiting.set(id, resolve));
}

function answered(msg) {
  const resolve = waiting.get(msg.re);
  waiting.delete(msg.re);
  const box = $("error");
  if (!msg.ok || !box.dataset.board) {   // the board's refusal (page.js) stays until the board's state drops it
    box.textContent = msg.ok ? "" : msg.error;
    delete box.dataset.board;
  }
  lastError = msg.ok ? null : msg.error;
  if (resolve) resolve(msg.ok);
}

// The reason the last refused action gave (for a dialog that shows it beside its own fields).
let lastError = null;
export function lastRefusal() { return lastError; }

// Draws the newest state again (the page changed how it shows it: the board turned round).
export function redraw() { if (current) received(current); }

function received(s) {
  current = s;
  for (const fn of drawers) fn(s);
}

function showConnection(s) {
  const conn = $("conn");
  if (!s) showLine(conn, "server unreachable: retrying…");
  else if (!s.board) showLine(conn, "connected");   // the club page: its boards say their own
  else if (!s.board.connected) showLine(conn, { key: "waiting_for", problem: s.board.problem || "…" });
  else showLine(conn, s.board.kind === "simulated" ? "connected (simulated board)" : "connected (board on USB)");
  conn.classList.toggle("down", !s || !!(s.board && !s.board.connected));
}
onState(showConnection);

// The server's WebSocket at `path`, relative to the page (a club's board pages are at /board/N/).
export function connect(delay, path) {
  path = path || "ws";
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host +
                           location.pathname.replace(/[^/]*$/, "") + path);
  socket = ws;
  ws.onopen = () => { delay = 250; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.state) received(msg.state);
    else answered(msg);
  };
  ws.onclose = () => {
    for (const resolve of waiting.values()) resolve(false);
    waiting.clear();
    showConnection(null);
    setTimeout(() => connect(Math.min(delay * 2, 4000), path), delay);
  };
}

// For the browser tests and a developer's console: the newest state, and post. The page's own
// parts never use it.
window.scacchiera = { get state() { return current; }, post };
