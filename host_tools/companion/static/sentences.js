// The page's sentences, by key: one table per language (English, Italian).
// The page's parts say what they show as lines {key, ...fields} built from the state's own fields
// (the board's events, its LED meanings, the game's moves, the club's and the ladder's news from the
// host), never as English to be matched again: explain.js what the state means, train.js a drill's
// news, companion.js, room.js and page.js the room and the squares, club.js the club. Each language
// writes every key from those fields with its own grammar (a piece's article, its agreement, a
// plural). i18n.js's showLine writes a line in the page's language, and again when the language
// changes. tests/companion_support.py renders every line a page shows in each language and fails a
// test whose line a table cannot write.

const NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

// -- English -------------------------------------------------------------------------------------

const side = (white) => white ? "White" : "Black";
// A share in per cent, "–" for none (an analysis with no move of that side).
const percent = (v) => (v === null ? "–" : v + " %");
// A rating's change after it, " (+12)", or nothing when there is none.
const signed = (change) => change === undefined || change === null ? "" : " (" + (change >= 0 ? "+" : "") + change + ")";

// "a, b and c" ("e" in Italian).
function joined(items, and) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(", ") + and + items[items.length - 1];
}
const listEn = (items) => joined(items, " and ");

// A move with its number: "12. e4", "12… e5".
const numbered = (f) => f.number + (f.black ? "… " : ". ") + f.san;
// A termination's name in English: "time forfeit".
const termEn = (termination) => termination.replace(/_/g, " ");

function pieceEn(letter) {
  if (!letter || letter === "?") return "a piece";
  return (letter === letter.toUpperCase() ? "white " : "black ") + NAMES[letter.toLowerCase()];
}

const thePieceEn = (letter) => letter && letter !== "?" ? "the " + pieceEn(letter) : "a piece";

// "the white pawns on a2 and b2, the black king on e8": explain.js's placements, grouped by kind.
function placedEn(groups, back) {
  return listEn(groups.map(({ letter, squares }) => {
    const known = letter && letter !== "?";
    const name = known ? "the " + pieceEn(letter) + (squares.length > 1 ? "s" : "") : "a piece";
    return name + (back ? " back on " : " on ") + listEn(squares);
  }));
}

// A move the board asks for, or hints: a Sprint placement, or a piece from a square to another.
// A game the ladder was given: a board's by its number, a club's by its tournament, round and board.
const gameEn = (f) => f.tournament ? f.tournament + " round " + f.round + " board " + f.board + ": " : "game " + f.game + " ";

const moveEn = (m) => m.placement ? "a placement on " + m.to : thePieceEn(m.letter) + " from " + m.from + " to " + m.to;

const SPRINT_WHY_EN = {
  queen_turn: (w) => "a queen may not be placed before turn 8 (this is turn " + w.turn + ")",
  pawn_ranks: (w) => "a pawn goes only on ranks " + (w.white ? "2–4" : "7–5"),
  own_half: () => "a tile goes only in your own half",
  second_bishop: () => "a second bishop must go on the other colour than the first",
  not_here: (w) => "the rules do not allow it on " + w.square,
};

// What each LED meaning tells a person: the legend (its colours come from the board's palette; page.js).
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

// Lines written alike in both languages (a unit, a name of the engines' own).
const ALIKE = {
  control: (f) => f.minutes + " min + " + f.seconds + " s",
  elo: (f) => "Elo " + f.elo,
  skill_level: (f) => "Skill Level " + f.level,
};

const EN = {
  ...ALIKE,
  waiting: () => "Waiting for the board…",
  refused: (f) => "The board refused " + (f.command ? "“" + f.command + "”" : "the line sent") + ": " + f.why +
    (/[.!?]$/.test(f.why) ? "" : "."),
  puzzle_record: (f) => "The board's puzzle record: " + f.message + ". The game goes on.",
  storage_error: (f) => "The board could not write its memory (" + f.message + "): the game goes on, and it tries again every 5 s.",
  storage_repaired: (f) => "The board found its saved game damaged (a power cut while it wrote?) and goes on from ply " +
    f.ply + "; the damaged copy is kept as " + f.kept + ".",
  crash: (f) => "The board's program failed (" + f.error + ") and restarted; the saved game is restored.",
  offer_refused: (f) => "No draw offer yet: " + f.message + ".",
  offer_declined: (f) => side(f.white) + " declines the draw: the game goes on.",
  ble_app: () => "A phone's app has the board over Bluetooth: this page hears nothing from it until the app lets go.",
  ble_gone: () => "The phone's app let the board go: this page has it again.",
  ble_refused: () => "A phone's app tried to connect over Bluetooth and was turned away: this page has the board.",
  radio: (f) => "The board's Bluetooth radio did not start (" + f.error + "): it works on USB only.",
  out_of_sync: () => "The pieces on the board do not match the game yet.",
  chess960_setup: () => "Chess960: the board senses pieces, not which piece, so it guides the set-up one kind at a time: " +
    "the back ranks cleared, then the kings, queens, rooks, bishops and knights.",
  take_off: (f) => "Take the piece" + (f.squares.length > 1 ? "s" : "") + " off " + listEn(f.squares) + " (blinking pink).",
  put_on: (f) => "Put " + placedEn(f.pieces, false) + " (blinking yellow).",
  taking_back: (f) => "Taking back " + f.san + ": put " + placedEn(f.pieces, true) +
    (f.clear.length ? ", and leave " + listEn(f.clear) + " empty" : "") + ".",
  keeping: (f) => "Or, to keep " + f.san + ", put " + placedEn(f.pieces, true) + ".",
  stray: (f) => "A piece stands where no move puts it" + (f.squares.length ? ": on " + listEn(f.squares) + " (blinking red)" : "") + ".",
  only_asked: (f) => "The board takes only the move it asks for: " + (f.placement ? "a placement on " + f.to : f.from + " to " + f.to) + ".",
  move_back: (f) => "Move it back: put " + placedEn(f.pieces, true) + " (yellow).",
  put_back: (f) => (f.squares.length ? "Take the pieces off " + listEn(f.squares) + " and put " : "Put ") +
    placedEn(f.pieces, true) + " (yellow).",
  take_it_off: (f) => "Take it off " + listEn(f.squares) + ".",
  promotion: (f) => "Promotion on " + f.square + ": the new piece counts as a " + NAMES[f.piece] +
    ". To make it another piece, tap it (lift it and put it back) until the square shows the one you want.",
  sprint_tile: (f) => "Scacchi Sprint: the tile placed on " + f.square + " counts as a " + NAMES[f.piece] +
    ". Tap it (lift it and put it back) for the next tile it may be.",
  sprint_refused: (f) => "The tile just drawn is a " + NAMES[f.drawn] + ", but " + SPRINT_WHY_EN[f.why.rule](f.why) +
    ": so the board took a " + NAMES[f.chosen] + " from the hand." + (f.san ? " (" + f.san + ")" : ""),
  castling_wait: (f) => "The rook went first (" + f.from + "–" + f.to + "): the board waits a moment (about 1.2 s) for the king. " +
    "To castle, put the king on " + f.king + " now; otherwise the rook move counts on its own.",
  asks: (f) => "The board asks for " + moveEn(f) + ": make this move with the pieces (blue squares" +
    (f.hands ? "" : ", the arrow on the diagram") + ").",
  hint: (f) => "Hint: " + moveEn(f) + (f.enforced ? " (this board has no suggestions yet: it lit the hint as a move to make)."
    : ", the engine's best move (lit on the board; you may play another)."),
  in_hand: (f) => "In the hand: " + listEn(f.pieces.map((p) => thePieceEn(p.letter) + " from " + p.square)) + ".",
  over: (f) => "Game over: " + (f.result === "1-0" ? "White wins" : f.result === "0-1" ? "Black wins" : "Drawn") +
    (f.termination ? " (" + termEn(f.termination) + ")" : "") + ". Start a new game with New.",
  check: (f) => side(f.white) + " is in check.",
  claim: (f) => side(f.white) + " may claim a draw (the king pulses slowly).",
  to_move: (f) => side(f.white) + " to move.",
  sprint_drawn: (f) => "Scacchi Sprint: " + side(f.white) + "'s tile just drawn is a " + NAMES[f.tile] +
    ". Move a piece, or put a tile from the hand on an empty square of your half" +
    (f.targets ? " (teal squares: where the " + NAMES[f.tile] + " may go)." : "."),
  // a drill's news (train.js, from the board's drill events)
  drill_puzzle: (f) => "Puzzle " + f.puzzle + " (rated " + f.rating + "): you play " + side(f.white) +
    ". Find the best move after the lit one.",
  drill_replay: () => "Replay: make each move the lights show",
  drill_side: (f) => "Your moves are " + side(f.white) + "'s: the board shows the others",
  drill_right: (f) => "Right: " + f.san,
  drill_wrong: (f) => "Not " + f.san + ": put the piece back as the lights ask" + (f.puzzle ? " (the lights then show the solution)" : ""),
  drill_over: (f) => f.puzzle ? (f.solved ? "Puzzle solved" : "Puzzle not solved") : "Drill done",
  drill_tally: (f) => "Moves: " + f.moves + " · right at the first try: " + f.right + " · mistakes: " + f.mistakes +
    (f.seconds !== null ? " · " + f.seconds + " s" : ""),
  drill_score: (f) => "Score: " + f.percent + " %",
  puzzle_rating: (f) => "Puzzle rating: " + f.rating + signed(f.change),
  // the room (companion.js, room.js)
  turn: (f) => side(f.white) + " to move",
  last_move: (f) => "last: " + numbered(f),
  material: (f) => "Material: White " + f.white + " · Black " + f.black + (f.white === f.black ? " (even)"
    : " (" + (f.white > f.black ? "White +" + (f.white - f.black) : "Black +" + (f.black - f.white)) + ")"),
  offer_open: (f) => side(f.white) + " offers a draw: " + side(!f.white) + " may accept it or play on.",
  offer_to_computer: (f) => side(f.white) + " offers a draw: " + f.computer + " answers.",
  analysing: (f) => "analysing… " + (f.total ? f.done + "/" + f.total + " positions" : ""),
  accuracy: (f) => "Accuracy: White " + percent(f.white) + " · Black " + percent(f.black) + " (" + (f.engine || "the engine") +
    "; the mean of the moves' accuracies)",
  judgement: (f) => f.judgement + (f.best ? ": " + f.best + " was best" : ""),
  game_number: (f) => "game " + f.game,
  game_about: (f) => [f.result, f.date, f.moves === null ? null : f.moves + (f.moves === 1 ? " move" : " moves")]
    .filter((x) => x !== null).join(" · "),
  unreadable: () => "not readable",
  legend: (f) => (MEANINGS[f.meaning] || f.meaning) + (f.blink ? (f.blink === 2 ? " — pulses slowly" : " — blinks") : ""),
  // the computer, the clock, the connection (companion.js, newgame.js, room.js, link.js, page.js)
  full_strength_above: (f) => "full strength (above Elo " + f.elo + ")",
  level: (f) => "Level " + f.level + (f.elo ? " (about Elo " + f.elo + ")" : ""),
  board_engine: (f) => "the board's engine, level " + f.level + (f.elo ? " (about Elo " + f.elo + ")" : ""),
  computer_engine: (f) => (f.ours ? "Scacchiera's engine" : f.engine) + " on this computer",
  waiting_for: (f) => "waiting for the board: " + f.problem,
  after_move: (f) => "after " + numbered(f),
  // the game's names and result (companion.js, page.js, room.js)
  players: (f) => (f.white || "White") + " – " + (f.black || "Black"),
  result: (f) => f.result === "*" ? "the game goes on" : f.result + (f.termination ? " (" + termEn(f.termination) + ")" : ""),
  termination: (f) => termEn(f.termination),
  // a square of the drawn board (companion.js): its name for a screen reader, its title, a piece it asks for
  square_label: (f) => f.square + ", " + (f.piece ? pieceEn(f.piece) : "empty") + (f.meaning ? ", light: " + f.meaning : ""),
  square_title: (f) => f.square + (f.meaning ? ": " + f.meaning : ""),
  put_it_on: (f) => "put it on " + f.square + " (tap it, or tap " + f.square + ")",
  // the ladder (host_tools/ladder's ImportReport.line, the club's rating)
  ladder_recorded: (f) => gameEn(f) + (f.result ? f.result + " " : "") + (f.imported ? "imported into" : "recorded in") + " the ladder",
  ladder_not_rated: (f) => gameEn(f) + "not rated: " + (f.why.length ? f.why.join("; ") : "already in the ladder"),
  ladder_refused: (f) => gameEn(f) + f.why,
  // the club page (club.js) and the club's news (host_tools/club)
  club_open_board: (f) => "open board " + f.board + "'s page",
  club_unplugged: (f) => "unplugged: " + f.problem,
  club_quiet: () => "quiet (not answering)",
  club_title: (f) => f.name + " — " + (f.round ? "round " + f.round + " of " + f.planned : f.planned + " rounds") +
    (f.finished ? " (finished)" : "") + " · " + f.system + (f.clock !== "off" ? " · " + f.clock : ""),
  club_result: (f) => f.result ? f.result + (f.arbiter ? " (arbiter)" : "") : "playing",
  club_byes: (f) => "Bye: " + f.names.join(", "),
  club_player: (f) => f.name + (f.withdrawn ? " (withdrew)" : ""),
  club_withdraw_ask: (f) => f.name + " withdraws: paired no more?",
  club_plugged: (f) => "board " + f.board + " plugged in",
  club_refused: (f) => "board " + f.board + " refused the club's " + f.command + ": " + f.why,
  club_not_taken: (f) => f.boards.map(([board, why]) => "board " + board + " did not take its game (" + why +
    "): send it again when it is back").join("; "),
  club_round_sent: (f) => "round " + f.round + " sent to the boards",
  club_arbiter: (f) => "round " + f.round + " board " + f.board + ": " + (f.result || "no result") + " (the arbiter's)",
  club_withdrew: (f) => f.name + " withdrew: paired no more",
  club_made: (f) => f.name + ": " + f.players + " players, " + f.rounds + " rounds (" + f.system + ")",
  club_moved: (f) => "board " + f.board + "'s game moved to board " + f.to,
  club_another_game: (f) => "board " + f.board + " shows another game than its pairing's (" + f.plies + " plies, " +
    f.recorded + " recorded): send it again to set it up where it stood",
  broadcast_state: (f) => (f.on ? "pushing to Lichess" : "not pushing") + (f.url ? " · " + f.url : "") + " · " + f.pushes +
    " pushes" + (f.problem ? " · " + f.problem : f.notice ? " · " + f.notice : "") + (f.token ? "" : " · no token yet"),
  broadcast_token_saved: () => "broadcast token saved (readable by you only)",
  broadcast_pushing: () => "pushing the rounds to Lichess",
  broadcast_stopped: () => "no more pushes to Lichess",
};

// -- Italian -------------------------------------------------------------------------------------

const SIDE_IT = (white) => white ? "il Bianco" : "il Nero";
const SIDE_IT_START = (white) => white ? "Il Bianco" : "Il Nero";
// Each piece with its article, in the singular and the plural; its indefinite article; its gender.
const PIECES_IT = { p: ["il pedone", "i pedoni", "un pedone"], n: ["il cavallo", "i cavalli", "un cavallo"],
  b: ["l'alfiere", "gli alfieri", "un alfiere"], r: ["la torre", "le torri", "una torre"],
  q: ["la donna", "le donne", "una donna"], k: ["il re", "i re", "un re"] };
const FEMININE = new Set(["r", "q"]);

const listIt = (items) => joined(items, " e ");

// "il pedone bianco", "le torri nere": a known piece with its article and agreement, else "un pezzo".
export function pieceIt(letter, plural) {
  if (!letter || letter === "?") return "un pezzo";
  const kind = letter.toLowerCase(), white = letter !== kind, feminine = FEMININE.has(kind);
  const adj = (white ? "bianc" : "ner") + (plural ? (feminine ? "e" : (white ? "hi" : "i")) : (feminine ? "a" : "o"));
  return PIECES_IT[kind][plural ? 1 : 0] + " " + adj;
}

function placedIt(groups, back) {
  return listIt(groups.map(({ letter, squares }) =>
    pieceIt(letter, squares.length > 1) + (back ? " di nuovo su " : " su ") + listIt(squares)));
}

const gameIt = (f) => f.tournament ? f.tournament + " turno " + f.round + " scacchiera " + f.board + ": " : "partita " + f.game + " ";
const systemIt = (system) => system === "swiss" ? "svizzero" : "girone";

const moveIt = (m) => m.placement ? "una tessera su " + m.to : pieceIt(m.letter, false) + " da " + m.from + " a " + m.to;
const aPieceIt = (letter) => PIECES_IT[letter][2];

export const TERMS_IT = { checkmate: "scacco matto", stalemate: "stallo", resignation: "abbandono", agreement: "accordo",
  time_forfeit: "tempo scaduto", threefold_repetition: "triplice ripetizione", fivefold_repetition: "quintuplice ripetizione",
  fifty_moves: "cinquanta mosse", seventyfive_moves: "settantacinque mosse", insufficient_material: "materiale insufficiente",
  abandoned: "abbandono della scacchiera" };

// How an analysis judged a move (room.js, host_tools/companion/analysis.py's words).
const JUDGEMENTS_IT = { inaccuracy: "imprecisione", mistake: "errore", blunder: "errore grave" };

// The LED meanings by their protocol names (firmware/scacchiera/leds/names.py), as a square's label names them.
export const LIGHTS_IT = { "last-move": "ultima mossa", check: "scacco", claim: "patta da chiedere", lifted: "pezzo alzato",
  legal: "mossa possibile", "legal-capture": "cattura possibile", "show-from": "mossa chiesta: da qui",
  "show-to": "mossa chiesta: a qui", error: "errore", fix: "da rimettere", "to-empty": "da svuotare",
  "to-fill": "da riempire", "promote-queen": "promozione a donna", "promote-knight": "promozione a cavallo",
  "promote-rook": "promozione a torre", "promote-bishop": "promozione ad alfiere", winner: "vincitore",
  loser: "sconfitto", draw: "patta", "drop-target": "tessera: qui", "drop-pawn": "tessera: pedone",
  "drop-knight": "tessera: cavallo", "drop-bishop": "tessera: alfiere", "drop-rook": "tessera: torre",
  "drop-queen": "tessera: donna", "time-low": "poco tempo", offer: "proposta di patta", away: "assente",
  "suggest-from": "suggerimento: da qui", "suggest-to": "suggerimento: a qui", asked: "mossa chiesta" };

const SPRINT_WHY_IT = {
  queen_turn: (w) => "una donna non si può mettere prima del turno 8 (questo è il turno " + w.turn + ")",
  pawn_ranks: (w) => "un pedone va solo sulle traverse " + (w.white ? "2–4" : "7–5"),
  own_half: () => "una tessera va solo nella propria metà",
  second_bishop: () => "il secondo alfiere deve andare sull'altro colore rispetto al primo",
  not_here: (w) => "le regole non lo permettono su " + w.square,
};

// The legend in Italian.
export const MEANINGS_IT = {
  "last-move": "l'ultima mossa: da dove è partita e dove è arrivata",
  "check": "questo re è sotto scacco",
  "claim": "chi muove può chiedere la patta (il suo re pulsa lento)",
  "lifted": "la casa di un pezzo in mano",
  "legal": "dove può andare il pezzo in mano (assistenza visiva)",
  "legal-capture": "dove il pezzo in mano può catturare",
  "show-from": "la scacchiera chiede una mossa: prendi il pezzo da qui",
  "show-to": "…e mettilo qui",
  "error": "un pezzo dove nessuna mossa lo mette: toglilo",
  "fix": "qui va un pezzo: rimettilo",
  "to-empty": "la partita non ha un pezzo qui: toglilo",
  "to-fill": "la partita ha un pezzo qui: mettilo",
  "promote-queen": "una promozione: il nuovo pezzo vale una donna (toccalo per cambiarlo)",
  "promote-knight": "una promozione: il nuovo pezzo vale un cavallo",
  "promote-rook": "una promozione: il nuovo pezzo vale una torre",
  "promote-bishop": "una promozione: il nuovo pezzo vale un alfiere",
  "winner": "partita finita: il re del vincitore",
  "loser": "partita finita: il re dello sconfitto",
  "draw": "partita finita, patta: entrambi i re",
  "drop-target": "Scacchi Sprint: dove può andare la tessera appena pescata",
  "drop-pawn": "Scacchi Sprint: la tessera messa qui vale un pedone (toccala per cambiarla)",
  "drop-knight": "Scacchi Sprint: la tessera messa qui vale un cavallo",
  "drop-bishop": "Scacchi Sprint: la tessera messa qui vale un alfiere",
  "drop-rook": "Scacchi Sprint: la tessera messa qui vale una torre",
  "drop-queen": "Scacchi Sprint: la tessera messa qui vale una donna",
  "time-low": "gli ultimi 10 secondi sull'orologio di questo giocatore: il suo re pulsa",
  "offer": "patta proposta dal giocatore di questo re: togli entrambi i re per accettare",
  "away": "chi muove è assente da tempo: il giocatore di questo re può chiudere la partita (tre tocchi)",
  "suggest-from": "un suggerimento (del motore o del computer): questo pezzo potrebbe muovere",
  "suggest-to": "…fin qui (un suggerimento: ogni mossa legale è comunque presa)",
  "asked": "un programma sul collegamento USB (un'app DGT o ChessLink) accende questa casa",
};

const IT = {
  ...ALIKE,
  waiting: () => "Aspetto la scacchiera…",
  refused: (f) => "La scacchiera ha rifiutato " + (f.command ? "“" + f.command + "”" : "la riga inviata") + ": " + f.why +
    (/[.!?]$/.test(f.why) ? "" : "."),
  puzzle_record: (f) => "Il registro dei problemi della scacchiera: " + f.message + ". La partita continua.",
  storage_error: (f) => "La scacchiera non è riuscita a scrivere nella sua memoria (" + f.message +
    "): la partita continua, e riprova ogni 5 s.",
  storage_repaired: (f) => "La scacchiera ha trovato danneggiata la partita salvata (un'interruzione di corrente mentre scriveva?) " +
    "e riprende dalla semimossa " + f.ply + "; la copia danneggiata è conservata come " + f.kept + ".",
  crash: (f) => "Il programma della scacchiera si è interrotto (" + f.error + ") ed è ripartito; la partita salvata è ripristinata.",
  offer_refused: (f) => "Ancora nessuna proposta di patta: " + f.message + ".",
  offer_declined: (f) => SIDE_IT_START(f.white) + " rifiuta la patta: si continua.",
  ble_app: () => "L'app di un telefono ha la scacchiera via Bluetooth: questa pagina non ne sente nulla finché l'app non la lascia.",
  ble_gone: () => "L'app del telefono ha lasciato la scacchiera: questa pagina la ha di nuovo.",
  ble_refused: () => "L'app di un telefono ha provato a collegarsi via Bluetooth ed è stata respinta: la scacchiera è di questa pagina.",
  radio: (f) => "La radio Bluetooth della scacchiera non è partita (" + f.error + "): funziona solo via USB.",
  out_of_sync: () => "I pezzi sulla scacchiera non corrispondono ancora alla partita.",
  chess960_setup: () => "Chess960: la scacchiera sente i pezzi, non quale pezzo, così guida la disposizione un tipo alla volta: " +
    "prima le traverse di fondo sgombre, poi i re, le donne, le torri, gli alfieri e i cavalli.",
  take_off: (f) => "Togli " + (f.squares.length > 1 ? "i pezzi" : "il pezzo") + " da " + listIt(f.squares) + " (rosa lampeggiante).",
  put_on: (f) => "Metti " + placedIt(f.pieces, false) + " (giallo lampeggiante).",
  taking_back: (f) => "Per ritirare " + f.san + ": metti " + placedIt(f.pieces, true) +
    (f.clear.length ? ", e lascia vuote " + listIt(f.clear) : "") + ".",
  keeping: (f) => "Oppure, per tenere " + f.san + ", metti " + placedIt(f.pieces, true) + ".",
  stray: (f) => "Un pezzo è dove nessuna mossa lo mette" + (f.squares.length ? ": su " + listIt(f.squares) + " (rosso lampeggiante)" : "") + ".",
  only_asked: (f) => "La scacchiera accetta solo la mossa che chiede: " + (f.placement ? "una tessera su " + f.to : "da " + f.from + " a " + f.to) + ".",
  move_back: (f) => "Rimettilo a posto: metti " + placedIt(f.pieces, true) + " (giallo).",
  put_back: (f) => (f.squares.length ? "Togli i pezzi da " + listIt(f.squares) + " e metti " : "Metti ") +
    placedIt(f.pieces, true) + " (giallo).",
  take_it_off: (f) => "Toglilo da " + listIt(f.squares) + ".",
  promotion: (f) => "Promozione su " + f.square + ": il nuovo pezzo vale " + aPieceIt(f.piece) +
    ". Per cambiarlo toccalo (alzalo e rimettilo) finché la casa mostra quello che vuoi.",
  sprint_tile: (f) => "Scacchi Sprint: la tessera messa su " + f.square + " vale " + aPieceIt(f.piece) +
    ". Toccala (alzala e rimettila) per la tessera successiva che può essere.",
  sprint_refused: (f) => "La tessera appena pescata è " + aPieceIt(f.drawn) + ", ma " + SPRINT_WHY_IT[f.why.rule](f.why) +
    ": così la scacchiera ha preso " + aPieceIt(f.chosen) + " dalla mano." + (f.san ? " (" + f.san + ")" : ""),
  castling_wait: (f) => "La torre è andata per prima (" + f.from + "–" + f.to + "): la scacchiera aspetta un momento (circa 1.2 s) " +
    "il re. Per arroccare metti ora il re su " + f.king + "; altrimenti la mossa della torre vale da sola.",
  asks: (f) => "La scacchiera chiede " + moveIt(f) + ": fai questa mossa con i pezzi (case blu" +
    (f.hands ? "" : ", la freccia sul diagramma") + ").",
  hint: (f) => "Suggerimento: " + moveIt(f) + (f.enforced ?
    " (questa scacchiera non ha ancora i suggerimenti: lo ha acceso come una mossa da fare)."
    : ", la mossa migliore del motore (accesa sulla scacchiera; puoi giocarne un'altra)."),
  in_hand: (f) => "In mano: " + listIt(f.pieces.map((p) => pieceIt(p.letter, false) + " da " + p.square)) + ".",
  over: (f) => "Partita finita: " + (f.result === "1-0" ? "vince il Bianco" : f.result === "0-1" ? "vince il Nero" : "patta") +
    (f.termination ? " (" + (TERMS_IT[f.termination] || termEn(f.termination)) + ")" : "") +
    ". Una nuova partita con Nuova.",
  check: (f) => SIDE_IT_START(f.white) + " è sotto scacco.",
  claim: (f) => SIDE_IT_START(f.white) + " può chiedere la patta (il re pulsa lento).",
  to_move: (f) => "Muove " + SIDE_IT(f.white) + ".",
  sprint_drawn: (f) => "Scacchi Sprint: la tessera appena pescata dal " + (f.white ? "Bianco" : "Nero") + " è " + aPieceIt(f.tile) +
    ". Muovi un pezzo, o metti una tessera dalla mano su una casa vuota della tua metà" +
    (f.targets ? " (case verde acqua: dove può andare)." : "."),
  drill_puzzle: (f) => "Problema " + f.puzzle + " (valore " + f.rating + "): giochi col " + (f.white ? "Bianco" : "Nero") +
    ". Trova la mossa migliore dopo quella accesa.",
  drill_replay: () => "Rivedi: fai ogni mossa che mostrano le luci",
  drill_side: (f) => "Le tue mosse sono del " + (f.white ? "Bianco" : "Nero") + ": la scacchiera mostra le altre",
  drill_right: (f) => "Giusta: " + f.san,
  drill_wrong: (f) => "Non " + f.san + ": rimetti il pezzo come chiedono le luci" + (f.puzzle ? " (poi le luci mostrano la soluzione)" : ""),
  drill_over: (f) => f.puzzle ? (f.solved ? "Problema risolto" : "Problema non risolto") : "Esercizio finito",
  drill_tally: (f) => "Mosse: " + f.moves + " · giuste al primo tentativo: " + f.right + " · errori: " + f.mistakes +
    (f.seconds !== null ? " · " + f.seconds + " s" : ""),
  drill_score: (f) => "Punteggio: " + f.percent + " %",
  puzzle_rating: (f) => "Valore nei problemi: " + f.rating + signed(f.change),
  turn: (f) => "Muove " + SIDE_IT(f.white),
  last_move: (f) => "ultima: " + numbered(f),
  material: (f) => "Materiale: Bianco " + f.white + " · Nero " + f.black + (f.white === f.black ? " (pari)"
    : " (" + (f.white > f.black ? "Bianco +" + (f.white - f.black) : "Nero +" + (f.black - f.white)) + ")"),
  offer_open: (f) => SIDE_IT_START(f.white) + " propone patta: " + SIDE_IT(!f.white) + " può accettarla o continuare.",
  offer_to_computer: (f) => SIDE_IT_START(f.white) + " propone patta: risponde " + f.computer + ".",
  analysing: (f) => "analisi in corso… " + (f.total ? f.done + "/" + f.total + " posizioni" : ""),
  accuracy: (f) => "Precisione: Bianco " + percent(f.white) + " · Nero " + percent(f.black) + " (" + (f.engine || "il motore") +
    "; la media della precisione delle mosse)",
  judgement: (f) => JUDGEMENTS_IT[f.judgement] + (f.best ? ": meglio " + f.best : ""),
  game_number: (f) => "partita " + f.game,
  game_about: (f) => [f.result, f.date, f.moves === null ? null : f.moves + (f.moves === 1 ? " mossa" : " mosse")]
    .filter((x) => x !== null).join(" · "),
  unreadable: () => "illeggibile",
  legend: (f) => (MEANINGS_IT[f.meaning] || f.meaning) + (f.blink ? (f.blink === 2 ? " — pulsa lento" : " — lampeggia") : ""),
  full_strength_above: (f) => "massima forza (oltre Elo " + f.elo + ")",
  level: (f) => "Livello " + f.level + (f.elo ? " (circa Elo " + f.elo + ")" : ""),
  board_engine: (f) => "il motore della scacchiera, livello " + f.level + (f.elo ? " (circa Elo " + f.elo + ")" : ""),
  computer_engine: (f) => (f.ours ? "il motore di Scacchiera" : f.engine) + " su questo computer",
  waiting_for: (f) => "aspetto la scacchiera: " + f.problem,
  after_move: (f) => "dopo " + numbered(f),
  players: (f) => (f.white || "Bianco") + " – " + (f.black || "Nero"),
  result: (f) => f.result === "*" ? "la partita continua" : f.result + (f.termination ? " (" + TERMS_IT[f.termination] + ")" : ""),
  termination: (f) => TERMS_IT[f.termination],
  square_label: (f) => f.square + ", " + (f.piece ? pieceIt(f.piece, false) : "vuota") + (f.meaning ? ", luce: " + LIGHTS_IT[f.meaning] : ""),
  square_title: (f) => f.square + (f.meaning ? ": " + LIGHTS_IT[f.meaning] : ""),
  put_it_on: (f) => "mettilo su " + f.square + " (toccalo, o tocca " + f.square + ")",
  ladder_recorded: (f) => gameIt(f) + (f.result ? f.result + " " : "") + (f.imported ? "importata" : "registrata") + " nella classifica",
  ladder_not_rated: (f) => gameIt(f) + "non valida: " + (f.why.length ? f.why.join("; ") : "è già nella classifica"),
  ladder_refused: (f) => gameIt(f) + f.why,
  club_open_board: (f) => "apri la pagina della scacchiera " + f.board,
  club_unplugged: (f) => "scollegata: " + f.problem,
  club_quiet: () => "silenziosa (non risponde)",
  club_title: (f) => f.name + " — " + (f.round ? "turno " + f.round + " di " + f.planned : f.planned + " turni") +
    (f.finished ? " (finito)" : "") + " · " + systemIt(f.system) + (f.clock !== "off" ? " · " + f.clock : ""),
  club_result: (f) => f.result ? f.result + (f.arbiter ? " (arbitro)" : "") : "in corso",
  club_byes: (f) => "Riposa: " + f.names.join(", "),
  club_player: (f) => f.name + (f.withdrawn ? " (ritirato)" : ""),
  club_withdraw_ask: (f) => f.name + " si ritira: non più abbinato?",
  club_plugged: (f) => "scacchiera " + f.board + " collegata",
  club_refused: (f) => "la scacchiera " + f.board + " ha rifiutato il comando " + f.command + " del circolo: " + f.why,
  club_not_taken: (f) => f.boards.map(([board, why]) => "la scacchiera " + board + " non ha preso la sua partita (" + why +
    "): inviala di nuovo quando torna").join("; "),
  club_round_sent: (f) => "turno " + f.round + " inviato alle scacchiere",
  club_arbiter: (f) => "turno " + f.round + " scacchiera " + f.board + ": " + (f.result || "nessun risultato") + " (dell'arbitro)",
  club_withdrew: (f) => f.name + " si è ritirato: non più abbinato",
  club_made: (f) => f.name + ": " + f.players + " giocatori, " + f.rounds + " turni (" + systemIt(f.system) + ")",
  club_moved: (f) => "la partita della scacchiera " + f.board + " è passata alla scacchiera " + f.to,
  club_another_game: (f) => "la scacchiera " + f.board + " mostra un'altra partita invece di quella abbinata (" + f.plies +
    " semimosse, " + f.recorded + " registrate): inviala di nuovo per rimetterla dov'era",
  broadcast_state: (f) => (f.on ? "invio a Lichess in corso" : "nessun invio") + (f.url ? " · " + f.url : "") + " · " + f.pushes +
    " invii" + (f.problem ? " · " + f.problem : f.notice ? " · " + f.notice : "") + (f.token ? "" : " · ancora nessun token"),
  broadcast_token_saved: () => "token della trasmissione salvato (leggibile solo da te)",
  broadcast_pushing: () => "invio i turni a Lichess",
  broadcast_stopped: () => "niente più invii a Lichess",
};

export const TABLES = { en: EN, it: IT };

// A time control "M+S" (minutes a player, seconds of bonus a move) as a line.
export function controlLine(control) {
  const [minutes, seconds] = control.split("+").map(Number);
  return { key: "control", minutes, seconds };
}

// A line in ``lang`` ("en" or "it"; i18n.js's showLine writes one in the page's language).
export function sentence(line, lang) {
  return TABLES[lang][line.key](line);
}
