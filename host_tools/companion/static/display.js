// The board's optional 128 x 64 display, drawn as the panel shows it: 8 lines of 16 characters in
// 8 x 8 cells, the icon of a line in its last cell (firmware/scacchiera/display). The state carries
// "display" (its lines) when the board has a panel or is simulated, "display_icons" (names) too.
"use strict";

(function () {
  const SCALE = 3;
  // The icons' 8 x 8 bitmaps, a byte a column, bit 0 at the top (scacchiera/display/icons.py's BITS).
  const ICONS = {
    "white-turn": [0x00, 0x3c, 0x42, 0x42, 0x42, 0x42, 0x3c, 0x00],
    "black-turn": [0x00, 0x3c, 0x7e, 0x7e, 0x7e, 0x7e, 0x3c, 0x00],
    "check": [0xff, 0x81, 0x81, 0xdd, 0xdd, 0x81, 0x81, 0xff],
    "thinking": [0x81, 0xc3, 0xa5, 0x99, 0x99, 0xa5, 0xc3, 0x81],
    "offer": [0x00, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x00],
    "flag": [0x00, 0xff, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x00],
  };
  let shown = "";

  function panel() {
    let canvas = document.getElementById("oled");
    if (canvas) return canvas;
    const box = document.createElement("figure");
    box.className = "oled-box";
    box.style.margin = "0.5em 0";
    canvas = document.createElement("canvas");
    canvas.id = "oled";
    canvas.width = 128 * SCALE;
    canvas.height = 64 * SCALE;
    canvas.setAttribute("aria-label", "the board's display");
    canvas.style.background = "#000";
    canvas.style.imageRendering = "pixelated";
    canvas.style.maxWidth = "100%";     // a phone's page never scrolls sideways for it
    canvas.style.height = "auto";
    const caption = document.createElement("figcaption");
    caption.textContent = "The board's display (128 × 64)";
    box.append(canvas, caption);
    (document.getElementById("display-slot") || document.body).appendChild(box);
    return canvas;
  }

  function draw(lines, icons) {
    const canvas = panel();
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "#9fe8ff";
    ctx.font = `${8 * SCALE}px monospace`;
    ctx.textBaseline = "top";
    lines.forEach((line, row) => {
      for (let i = 0; i < line.length; i++) ctx.fillText(line[i], i * 8 * SCALE, row * 8 * SCALE);
      const bits = ICONS[(icons || [])[row]];
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
    const slot = document.getElementById("display-slot");
    if (!s.display) {
      if (slot) slot.hidden = true;
      return;
    }
    if (slot) slot.hidden = false;
    const key = JSON.stringify([s.display, s.display_icons]);
    if (key === shown) return;
    shown = key;
    draw(s.display, s.display_icons);
  }

  window.addEventListener("companion-state", (ev) => show(ev.detail));
  // A state that came before this script ran (a loaded machine): nothing may change after it.
  if (window.companionState) show(window.companionState);
})();
