// What the board's state means: a sentence for each state a person must act on (out of sync, a
// piece on a wrong square, a takeback half-done, a promotion or a Sprint tile being chosen, a
// castling whose king has not come yet, a move the board asks for), and the squares to mark on
// the diagram. Pure functions of the state the server pushes: the FEN, the LED frame's meanings,
// the switches and the game's positions (state.fens). No rule is judged here: the firmware
// decides, these lines only read what it decided. A line is a key and its fields
// ({key: "put_on", pieces: [...]}); sentences.js writes it in each language.

const FILES = "abcdefgh";
const NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

export function squareIndex(name) { return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }
export function squareName(i) { return FILES[i % 8] + (Math.floor(i / 8) + 1); }

// The 64 squares of a FEN's board ("" or a piece letter), a1 first. A Sprint string's hands
// ("[...]") are left out.
export function boardOf(fen) {
  const squares = Array(64).fill("");
  const rows = (fen || "").split(" ")[0].replace(/\[.*\]/, "").split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else { if (file < 8 && i < 8) squares[(7 - i) * 8 + file] = ch; file++; }
    }
  });
  return squares;
}

// The pieces on ``squares`` of ``board`` grouped by kind, in the order first met: [{letter, squares}]
// (letter "" or "?": a piece the game does not know).
function placements(board, squares) {
  const groups = new Map();
  for (const sq of squares) {
    const letter = board[squareIndex(sq)] || "?";
    if (!groups.has(letter)) groups.set(letter, []);
    groups.get(letter).push(sq);
  }
  return [...groups].map(([letter, sqs]) => ({ letter, squares: sqs }));
}

// A move as a line's fields: a Sprint placement's square, or the piece and its two squares.
function moveFields(uci, board) {
  if (uci.includes("@")) return { placement: true, to: uci.slice(-2) };
  const from = uci.slice(0, 2);
  return { from, to: uci.slice(2, 4), letter: board[squareIndex(from)] || "?" };
}

const white = (s) => (s.turn || "white") === "white";

// The board's state as lines: {kind, lines: [{key, ...fields}], empty: [squares], fill: [squares],
// arrows: [[from, to]] for the hands to follow}, and
// `fen` when the diagram should show another position than the game's (a takeback's target).
// kind: "ok" (nothing to do but play), "act" (the hands must do something), "over".
export function explain(s) {
  const frame = s.leds || {};
  const lit = (meaning) => Object.keys(frame).filter((k) => frame[k] === meaning).sort();
  const board = boardOf(s.fen);
  const out = { kind: "ok", lines: [], empty: [], fill: [], arrows: [] };
  const say = (key, fields) => { const line = { key, ...fields }; out.lines.push(line); return line; };
  if (!s.board || !s.board.connected) {
    say("waiting");
    return out;
  }
  const refused = refusalNote(s.refusal);
  if (refused) out.refused = say(refused.key, refused);
  const note = boardNote(s.trouble);
  if (note) say(note.key, note);
  let notes = out.lines.length;     // the board's notes: the state's own words still follow
  const toEmpty = lit("to-empty"), toFill = lit("to-fill");
  if (!s.in_sync || toEmpty.length || toFill.length) {
    out.kind = "act";
    out.empty = toEmpty;
    out.fill = toFill;
    say("out_of_sync");
    if (s.variant === "chess960" && !(s.moves || []).length) say("chess960_setup");
    if (toEmpty.length) say("take_off", { squares: toEmpty });
    if (toFill.length) say("put_on", { pieces: placements(board, toFill) });
    return out;
  }
  const err = lit("error"), fix = lit("fix");
  if (s.state === "error" || err.length || fix.length) {
    out.kind = "act";
    out.empty = err;
    out.fill = fix;
    const n = (s.moves || []).length;
    const before = n && s.fens && s.fens[n - 1] ? boardOf(s.fens[n - 1]) : null;
    const changed = [];
    if (before) for (let i = 0; i < 64; i++) if (before[i] !== board[i]) changed.push(squareName(i));
    const san = (s.san || [])[n - 1];
    if (s.options && s.options.takeback && before && err.concat(fix).every((sq) => changed.includes(sq))) {
      // Half-way back to the position before the last move: say that whole position's pieces.
      const restore = changed.filter((sq) => before[squareIndex(sq)]);
      const clear = changed.filter((sq) => !before[squareIndex(sq)]);
      say("taking_back", { san, pieces: placements(before, restore), clear });
      say("keeping", { san, pieces: placements(board, fix) });
      out.fen = s.fens[n - 1];        // the diagram shows the position to restore
      out.fill = restore;
      out.empty = clear;
      return out;
    }
    say("stray", { squares: err });
    if (s.show) say("only_asked", moveFields(s.show, board));
    if (err.length === 1 && fix.length === 1) {
      say("move_back", { pieces: placements(board, fix) });
      out.arrows.push([err[0], fix[0]]);
    }
    else if (fix.length) say("put_back", { squares: err, pieces: placements(board, fix) });
    else if (err.length) say("take_it_off", { squares: err });
    return out;
  }
  const promote = Object.keys(frame).filter((k) => frame[k].startsWith("promote-"));
  if (promote.length) {
    out.kind = "act";
    const sq = promote[0];
    say("promotion", { square: sq, piece: LETTERS[frame[sq].slice(8)] });
    out.fill = promote;
    return out;
  }
  const drop = Object.keys(frame).filter((k) => frame[k].startsWith("drop-") && frame[k] !== "drop-target");
  if (drop.length) {
    out.kind = "act";
    const sq = drop[0];
    const chosen = LETTERS[frame[sq].slice(5)];
    say("sprint_tile", { square: sq, piece: chosen });
    const drawn = s.sprint && s.sprint.drawn;
    const allowed = s.sprint && s.sprint.allowed && s.sprint.allowed[sq];
    // Said only when the rules closed the square to the tile just drawn (not when a tap chose another).
    if (drawn && drawn !== chosen && allowed !== undefined && !allowed.includes(drawn)) {
      say("sprint_refused", { drawn, chosen, why: refusalRule(drawn, sq, s.turn === "white", fullmove(s.fen)) });
    }
    out.fill = drop;
    return out;
  }
  if (s.state === "pending") {
    const castling = castlingWait(s, board);
    if (castling) {
      out.kind = "act";
      say("castling_wait", castling);
      out.fill = [castling.king];
      out.arrows.push([castling.kingFrom, castling.king]);
      return out;
    }
  }
  const placed = lastPlacement(s);
  if (placed) { say("sprint_refused", placed); notes++; }
  const from = lit("show-from"), to = lit("show-to");
  if (s.show && (from.length || to.length)) {
    out.kind = "act";
    say("asks", { ...moveFields(s.show, board), hands: !!(s.board && s.board.hands) });
  }
  if (s.suggestion && s.result === "*") {
    const hint = moveFields(s.suggestion, board);
    say("hint", { ...hint, enforced: s.show === s.suggestion });
    if (hint.from) out.hint = [hint.from, hint.to];
  }
  const lifted = lit("lifted");
  if (s.state === "lifted" && lifted.length) {
    say("in_hand", { pieces: lifted.map((sq) => ({ letter: board[squareIndex(sq)] || "?", square: sq })) });
  }
  if (s.result && s.result !== "*") {
    out.kind = "over";
    say("over", { result: s.result, termination: s.termination || "" });
    return out;
  }
  if (lit("check").length) say("check", { white: white(s) });
  if (lit("claim").length) say("claim", { white: white(s) });
  if (out.lines.length === notes) say("to_move", { white: white(s) });
  if (s.sprint && s.sprint.drawn && s.state === "idle") {
    say("sprint_drawn", { white: white(s), tile: s.sprint.drawn, targets: lit("drop-target").length > 0 });
  }
  return out;
}

const LETTERS = { pawn: "p", knight: "n", bishop: "b", rook: "r", queen: "q", king: "k" };

function fullmove(fen) { return Number((fen || "").split(" ")[5]) || 1; }

// The board's own troubles (docs/protocol.md's events), until the game moves on: state.trouble.
function boardNote(ev) {
  if (!ev) return null;
  if (ev.ev === "storage_error" && ev.file === "puzzles.rec") return { key: "puzzle_record", message: ev.message };
  if (ev.ev === "storage_error") return { key: "storage_error", message: ev.message };
  if (ev.ev === "storage_repaired") return { key: "storage_repaired", ply: ev.ply, kept: ev.kept };
  if (ev.ev === "crash") return { key: "crash", error: ev.error };
  if (ev.ev === "offer_refused") return { key: "offer_refused", message: ev.message };
  if (ev.ev === "offer_declined") return { key: "offer_declined", white: ev.by === "w" };
  if (ev.ev === "ble" && ev.refused) return { key: "ble_refused" };
  if (ev.ev === "ble") return { key: ev.holder ? "ble_app" : "ble_gone" };
  if (ev.ev === "busy") return { key: "ble_app" };
  if (ev.ev === "radio") return { key: "radio", error: ev.error };
  return null;
}

// The board refused a line sent for the person (a command, an option's value, a line typed in the
// log's box): its reply's words, as a line. Also shown in the page's red message area.
export function refusalNote(refusal) {
  if (!refusal) return null;
  return { key: "refused", command: refusal.re || "",
           why: refusal.message || String(refusal.error || "").replace(/_/g, " ") };
}

// Scacchi Sprint: the last move placed a tile other than the one just drawn because the rules
// refused the drawn one there (docs/sprint.md; the model knows, from the rules): say which and why.
function lastPlacement(s) {
  const n = (s.moves || []).length;
  const uci = n ? s.moves[n - 1] : "";
  if (!s.sprint || !uci.includes("@") || !s.sprint.refused) return null;
  const placed = uci[0].toLowerCase() === "@" ? "p" : uci[0].toLowerCase();
  const drawn = s.sprint.refused[n - 1];     // the tile just drawn, when the rules refused it there
  if (!drawn || drawn === placed) return null;
  const before = (s.fens || [])[n - 1] || "";
  const white = before.split(" ")[1] !== "b";
  return { drawn, chosen: placed, why: refusalRule(drawn, uci.slice(-2), white, fullmove(before)), san: (s.san || [])[n - 1] };
}

// Which of docs/sprint.md's rules keeps the tile drawn off ``sq``: {rule, ...its fields}.
function refusalRule(drawn, sq, white, turn) {
  const rank = Number(sq[1]);
  if (drawn === "q" && turn < 8) return { rule: "queen_turn", turn };
  if (drawn === "p" && (white ? rank < 2 || rank > 4 : rank > 7 || rank < 5)) return { rule: "pawn_ranks", white };
  if (white ? rank > 4 : rank < 5) return { rule: "own_half" };
  if (drawn === "b") return { rule: "second_bishop" };
  return { rule: "not_here", square: sq };
}

// The rook moved first (h1-f1, a1-d1…) with its king still at home: the board waits a moment
// (about 1.2 s) for the king to come and make it a castling.
function castlingWait(s, board) {
  if (!s.occupancy) return null;
  const occupied = new Set(s.occupancy);
  const rights = (s.fen || "").split(" ")[2] || "";
  const rows = s.turn === "white" ? ["1", "K", "R"] : ["8", "k", "r"];
  const [r, king, rook] = rows;
  const wings = [["h", "f", "g", king === "K" ? "K" : "k"], ["a", "d", "c", king === "K" ? "Q" : "q"]];
  for (const [corner, next, kingTo, right] of wings) {
    if (!rights.includes(right)) continue;
    const from = corner + r, to = next + r;
    if (board[squareIndex(from)] === rook && !occupied.has(from) && occupied.has(to) && !board[squareIndex(to)] &&
        board[squareIndex("e" + r)] === king && occupied.has("e" + r)) {
      return { king: kingTo + r, kingFrom: "e" + r, from, to };
    }
  }
  return null;
}
