// Which position the page shows: the game as it stands (null), or the position after that many
// plies while the person walks the move list. Shared by the board (companion.js: on the simulator
// the simulated board shows it, in its own look) and the move list and mirror (page.js).
const watchers = [];
let ply = null;

export function viewPly() { return ply; }

export function setViewPly(n) {
  ply = n;
  for (const fn of watchers) fn();
}

export function onView(fn) { watchers.push(fn); }
