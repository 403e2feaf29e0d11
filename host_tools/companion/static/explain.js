// What the board's state means, in words: a sentence for each state a person must act on
// (out of sync, a piece on a wrong square, a takeback half-done, a promotion or a Sprint tile
// being chosen, a castling whose king has not come yet, a move the board asks for), and the
// squares to mark on the diagram. Pure functions of the state the server pushes: the FEN, the
// LED frame's meanings, the switches and the game's positions (state.fens). No rule is judged
// here: the firmware decides, these words only read what it decided.

const FILES = "abcdefgh";
const NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

// What each LED meaning tells a person: the legend (its colours come from the board's palette).
export const MEANINGS = {
  "last-move": "the last move: where it came from and went to",
  "check": "this king is in check",
  "claim": "the side to move may claim a draw (its king pulses slowly)",
  "lifted": "the square of a piece in the hand",
  "legal": "where the piece in the hand may go (visual assistance)",
  "legal-capture": "where the piece in the hand may capture",
  "show-from": "the board asks for a move: take the piece from here",
  "show-to": "…and put it here",
  "error": "a piece where no move puts it: take it away",
  "fix": "a piece belongs here: put it back",
  "to-empty": "the game has no piece here: take it off",
  "to-fill": "the game has a piece here: put it on",
  "promote-queen": "a promotion: the new piece counts as a queen (tap it to change)",
  "promote-knight": "a promotion: the new piece counts as a knight",
  "promote-rook": "a promotion: the new piece counts as a rook",
  "promote-bishop": "a promotion: the new piece counts as a bishop",
  "winner": "game over: the winner's king",
  "loser": "game over: the loser's king",
  "draw": "game over, drawn: both kings",
  "drop-target": "Scacchi Sprint: where the tile just drawn may go",
  "drop-pawn": "Scacchi Sprint: the tile placed here counts as a pawn (tap it to change)",
  "drop-knight": "Scacchi Sprint: the tile placed here counts as a knight",
  "drop-bishop": "Scacchi Sprint: the tile placed here counts as a bishop",
  "drop-rook": "Scacchi Sprint: the tile placed here counts as a rook",
  "drop-queen": "Scacchi Sprint: the tile placed here counts as a queen",
  "time-low": "the last 10 seconds on this player's clock: their king pulses",
  "offer": "a draw offered by this king's player: take both kings off the board to accept",
  "away": "the side to move has been away a long time: this king's player may end the game (three taps)",
  "suggest-from": "a hint (the engine's or the computer's): this piece could move",
  "suggest-to": "…to here (a suggestion: any legal move is still taken)",
  "asked": "a program on the USB link (a DGT or ChessLink app) lights this square",
};

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

export function pieceName(letter) {
  if (!letter || letter === "?") return "a piece";
  return (letter === letter.toUpperCase() ? "white " : "black ") + NAMES[letter.toLowerCase()];
}

function thePiece(letter) { return letter && letter !== "?" ? "the " + pieceName(letter) : "a piece"; }

function list(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}

// "the white pawns on a2 and b2, the black king on e8": pieces grouped by kind.
function placements(board, squares, back) {
  const groups = new Map();
  for (const sq of squares) {
    const name = pieceName(board[squareIndex(sq)]);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(sq);
  }
  const parts = [];
  for (const [name, sqs] of groups) {
    const plural = sqs.length > 1 && name !== "a piece" ? name.replace(/(\w+)$/, "$1s") : name;
    parts.push("the " + plural.replace(/^the /, "") + (back ? " back on " : " on ") + list(sqs));
  }
  return list(parts).replace(/the a piece/g, "a piece");
}

function movedSquares(uci) {
  if (!uci) return [];
  if (uci.includes("@")) return [uci.slice(-2)];
  return [uci.slice(0, 2), uci.slice(2, 4)];
}

const title = (side) => side[0].toUpperCase() + side.slice(1);

// The board's state in words: {kind, lines: [sentences], empty: [squares], fill: [squares],
// arrows: [[from, to]] for the hands to follow}, and
// `fen` when the diagram should show another position than the game's (a takeback's target).
// kind: "ok" (nothing to do but play), "act" (the hands must do something), "over".
export function explain(s) {
  const frame = s.leds || {};
  const lit = (meaning) => Object.keys(frame).filter((k) => frame[k] === meaning).sort();
  const board = boardOf(s.fen);
  const out = { kind: "ok", lines: [], empty: [], fill: [], arrows: [] };
  const say = (text) => out.lines.push(text);
  if (!s.board || !s.board.connected) {
    say("Waiting for the board…");
    return out;
  }
  const refused = refusalNote(s.refusal);
  if (refused) { say(refused); out.refused = refused; }
  const note = boardNote(s.trouble);
  if (note) say(note);
  let notes = out.lines.length;     // the board's notes: the state's own words still follow
  const toEmpty = lit("to-empty"), toFill = lit("to-fill");
  if (!s.in_sync || toEmpty.length || toFill.length) {
    out.kind = "act";
    out.empty = toEmpty;
    out.fill = toFill;
    say("The pieces on the board do not match the game yet.");
    if (s.variant === "chess960" && !(s.moves || []).length) {
      say("Chess960: the board senses pieces, not which piece, so it guides the set-up one kind at a time: " +
          "the back ranks cleared, then the kings, queens, rooks, bishops and knights.");
    }
    if (toEmpty.length) say("Take the piece" + (toEmpty.length > 1 ? "s" : "") + " off " + list(toEmpty) + " (blinking pink).");
    if (toFill.length) say("Put " + placements(board, toFill, false) + " (blinking yellow).");
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
      say("Taking back " + san + ": put " + placements(before, restore, true) +
          (clear.length ? ", and leave " + list(clear) + " empty" : "") + ".");
      say("Or, to keep " + san + ", put " + placements(board, fix, true) + ".");
      out.fen = s.fens[n - 1];        // the diagram shows the position to restore
      out.fill = restore;
      out.empty = clear;
      return out;
    }
    say("A piece stands where no move puts it" + (err.length ? ": on " + list(err) + " (blinking red)" : "") + ".");
    if (s.show) {
      const [a, b] = movedSquares(s.show);
      say("The board takes only the move it asks for: " + (s.show.includes("@") ? "a placement on " + b : a + " to " + b) + ".");
    }
    if (err.length === 1 && fix.length === 1) {
      say("Move it back: put " + placements(board, fix, true) + " (yellow).");
      out.arrows.push([err[0], fix[0]]);
    }
    else if (fix.length) say((err.length ? "Take the pieces off " + list(err) + " and put " : "Put ") + placements(board, fix, true) + " (yellow).");
    else if (err.length) say("Take it off " + list(err) + ".");
    return out;
  }
  const promote = Object.keys(frame).filter((k) => frame[k].startsWith("promote-"));
  if (promote.length) {
    out.kind = "act";
    const sq = promote[0];
    say("Promotion on " + sq + ": the new piece counts as a " + frame[sq].slice(8) +
        ". To make it another piece, tap it (lift it and put it back) until the square shows the one you want.");
    out.fill = promote;
    return out;
  }
  const drop = Object.keys(frame).filter((k) => frame[k].startsWith("drop-") && frame[k] !== "drop-target");
  if (drop.length) {
    out.kind = "act";
    const sq = drop[0];
    const chosen = frame[sq].slice(5);
    say("Scacchi Sprint: the tile placed on " + sq + " counts as a " + chosen +
        ". Tap it (lift it and put it back) for the next tile it may be.");
    const drawn = s.sprint && s.sprint.drawn;
    const allowed = s.sprint && s.sprint.allowed && s.sprint.allowed[sq];
    // Said only when the rules closed the square to the tile just drawn (not when a tap chose another).
    const refusal = drawn && NAMES[drawn] !== chosen && allowed !== undefined && !allowed.includes(drawn) ?
      refusalWords(drawn, chosen, sq, s.turn === "white", fullmove(s.fen)) : "";
    if (refusal) say(refusal);
    out.fill = drop;
    return out;
  }
  if (s.state === "pending") {
    const castling = castlingWait(s, board);
    if (castling) {
      out.kind = "act";
      say(castling.text);
      out.fill = [castling.king];
      out.arrows.push([castling.from, castling.king]);
      return out;
    }
  }
  const placed = lastPlacement(s);
  if (placed) { say(placed); notes++; }
  const from = lit("show-from"), to = lit("show-to");
  if (s.show && (from.length || to.length)) {
    out.kind = "act";
    const [a, b] = movedSquares(s.show);
    const piece = thePiece(board[squareIndex(a)]);
    say("The board asks for " + (s.show.includes("@") ? "a placement on " + b : piece + " from " + a + " to " + b) +
        ": make this move with the pieces (blue squares" + (s.board && s.board.hands ? "" : ", the arrow on the diagram") + ").");
  }
  if (s.suggestion && s.result === "*") {
    const [a, b] = s.suggestion.includes("@") ? [null, s.suggestion.slice(-2)] : movedSquares(s.suggestion);
    const enforced = s.show === s.suggestion;
    say("Hint: " + (s.suggestion.includes("@") ? "a placement on " + b : thePiece(board[squareIndex(a)]) + " from " + a + " to " + b) +
        (enforced ? " (this board has no suggestions yet: it lit the hint as a move to make)."
                  : ", the engine's best move (lit on the board; you may play another)."));
    if (a) out.hint = [a, b];
  }
  const lifted = lit("lifted");
  if (s.state === "lifted" && lifted.length) {
    say("In the hand: " + list(lifted.map((sq) => thePiece(board[squareIndex(sq)]) + " from " + sq)) + ".");
  }
  if (s.result && s.result !== "*") {
    out.kind = "over";
    const term = (s.termination || "").replace(/_/g, " ");
    const who = s.result === "1-0" ? "White wins" : s.result === "0-1" ? "Black wins" : "Drawn";
    say("Game over: " + who + (term ? " (" + term + ")" : "") + ". Start a new game with New.");
    return out;
  }
  if (lit("check").length) say(title(s.turn) + " is in check.");
  if (lit("claim").length) say(title(s.turn) + " may claim a draw (the king pulses slowly).");
  if (out.lines.length === notes) say(title(s.turn || "white") + " to move.");
  if (s.sprint && s.sprint.drawn && s.state === "idle") {
    say("Scacchi Sprint: " + title(s.turn) + "'s tile just drawn is a " + NAMES[s.sprint.drawn] +
        ". Move a piece, or put a tile from the hand on an empty square of your half" +
        (lit("drop-target").length ? " (teal squares: where the " + NAMES[s.sprint.drawn] + " may go)." : "."));
  }
  return out;
}

function fullmove(fen) { return Number((fen || "").split(" ")[5]) || 1; }

// The board's own troubles (docs/protocol.md's events), until the game moves on: state.trouble.
function boardNote(ev) {
  if (!ev) return "";
  if (ev.ev === "storage_error" && ev.file === "puzzles.rec") return "The board's puzzle record: " + ev.message + ". The game goes on.";
  if (ev.ev === "storage_error") return "The board could not write its memory (" + ev.message + "): the game goes on, and it tries again every 5 s.";
  if (ev.ev === "storage_repaired") return "The board found its saved game damaged (a power cut while it wrote?) and goes on from ply " + ev.ply + "; the damaged copy is kept as " + ev.kept + ".";
  if (ev.ev === "crash") return "The board's program failed (" + ev.error + ") and restarted; the saved game is restored.";
  if (ev.ev === "offer_refused") return "No draw offer yet: " + ev.message + ".";
  if (ev.ev === "offer_declined") return (ev.by === "w" ? "White" : "Black") + " declines the draw: the game goes on.";
  return "";
}

// The board refused a line sent for the person (a command, an option's value, a line typed in the
// log's box): its reply's words. Also shown in the page's red message area.
export function refusalNote(refusal) {
  if (!refusal) return "";
  const what = refusal.re ? "“" + refusal.re + "”" : "the line sent";
  const why = refusal.message || String(refusal.error || "").replace(/_/g, " ");
  return "The board refused " + what + ": " + why + (/[.!?]$/.test(why) ? "" : ".");
}

// Scacchi Sprint: the last move placed a tile other than the one just drawn because the rules
// refused the drawn one there (docs/sprint.md; the model knows, from the rules): say which and why.
function lastPlacement(s) {
  const n = (s.moves || []).length;
  const uci = n ? s.moves[n - 1] : "";
  if (!s.sprint || !uci.includes("@") || !s.sprint.refused) return "";
  const placed = uci[0].toLowerCase() === "@" ? "p" : uci[0].toLowerCase();
  const drawn = s.sprint.refused[n - 1];     // the tile just drawn, when the rules refused it there
  if (!drawn || drawn === placed) return "";
  const before = (s.fens || [])[n - 1] || "";
  const white = before.split(" ")[1] !== "b";
  return refusalWords(drawn, NAMES[placed], uci.slice(-2), white, fullmove(before)) +
    " (" + (s.san || [])[n - 1] + ")";
}

// Why the tile drawn may not go on `sq` (docs/sprint.md's rules), in words.
function refusalWords(drawn, chosen, sq, white, turn) {
  const tile = NAMES[drawn];
  const rank = Number(sq[1]);
  let why;
  if (drawn === "q" && turn < 8) why = "a queen may not be placed before turn 8 (this is turn " + turn + ")";
  else if (drawn === "p" && (white ? rank < 2 || rank > 4 : rank > 7 || rank < 5)) why = "a pawn goes only on ranks " + (white ? "2–4" : "7–5");
  else if (white ? rank > 4 : rank < 5) why = "a tile goes only in your own half";
  else if (drawn === "b") why = "a second bishop must go on the other colour than the first";
  else why = "the rules do not allow it on " + sq;
  return "The tile just drawn is a " + tile + ", but " + why + ": so the board took a " + chosen + " from the hand.";
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
      return { king: kingTo + r, from: "e" + r,
               text: "The rook went first (" + from + "–" + to + "): the board waits a moment (about 1.2 s) for the king. " +
                     "To castle, put the king on " + kingTo + r + " now; otherwise the rook move counts on its own." };
    }
  }
  return null;
}
