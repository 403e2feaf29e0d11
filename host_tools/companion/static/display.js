// The board's optional 128 x 64 display, drawn as the panel shows it: 8 lines of 16 characters in
// 8 x 8 cells, the icon of a line in its last cell (firmware/scacchiera/display). The state carries
// "display" (its lines) when the board has a panel or is simulated, "display_icons" (names) too.
// The icons' bitmaps are the firmware's own (display/icons.py), served as /icons.json.
import { onState } from "./link.js";

const SCALE = 3;
let icons = {};          // name -> 8 bytes, a byte a column, bit 0 at the top
let shown = "";
let latest = null;

fetch("icons.json").then((r) => r.json()).then((bits) => {
  icons = bits;
  shown = "";
  if (latest) show(latest);
}).catch(() => {});      // no icons: the lines are still drawn

function panel() {
  let canvas = document.getElementById("oled");
  if (canvas) return canvas;
  const box = document.createElement("figure");
  box.className = "oled-box";
  canvas = document.createElement("canvas");
  canvas.id = "oled";
  canvas.width = 128 * SCALE;
  canvas.height = 64 * SCALE;
  canvas.setAttribute("aria-label", "the board's display");
  const caption = document.createElement("figcaption");
  caption.textContent = "The board's display (128 × 64)";
  box.append(canvas, caption);
  document.getElementById("display-slot").appendChild(box);
  return canvas;
}

function draw(lines, names) {
  const canvas = panel();
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#9fe8ff";
  ctx.font = `${8 * SCALE}px monospace`;
  ctx.textBaseline = "top";
  lines.forEach((line, row) => {
    for (let i = 0; i < line.length; i++) ctx.fillText(line[i], i * 8 * SCALE, row * 8 * SCALE);
    const bits = icons[(names || [])[row]];
    if (!bits) return;
    bits.forEach((column, x) => {
      for (let y = 0; y < 8; y++) {
        if (column >> y & 1) ctx.fillRect((120 + x) * SCALE, (row * 8 + y) * SCALE, SCALE, SCALE);
      }
    });
  });
  canvas.dataset.lines = JSON.stringify(lines);   // for the page's tests
}

function show(s) {
  latest = s;
  const slot = document.getElementById("display-slot");
  slot.hidden = !s.display;
  if (!s.display) return;
  const key = JSON.stringify([s.display, s.display_icons]);
  if (key === shown) return;
  shown = key;
  draw(s.display, s.display_icons);
}

onState(show);
