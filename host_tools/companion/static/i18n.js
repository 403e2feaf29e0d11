// The page in Italian or English (the button in the header; the browser's language the first time).
// Two tables per language. A sentence with fields (what the board's state means, a drill's news, the
// room's and the club's lines, a square's label) is a line {key, ...fields}, written by sentences.js
// in each language with its grammar: ``showLine`` and ``showLineIn`` (an attribute) mark it
// (data-line, data-line-<attribute>) and the language's button writes it again. A fixed text (a
// label, a button, a heading, a title) is written in English and looked up in WORDS, its Italian put
// in its place as it appears (a MutationObserver sees the page's parts write their words), as gettext
// looks a text up by its English. A text in neither table stays in English: tests/companion_support.py
// finds it. The host's own words inside a line (a board's reason for a refusal, Lichess's answer) are
// shown as they are.
import { $ } from "./dom.js";
import { sentence } from "./sentences.js";
const KEY = "scacchiera-ui-lang";

// Whole texts: a label, a button, a heading, a title.
const WORDS = {
  // the options' labels (companion.js's OPTION_LABELS)
  "visual assistance (legal destinations)": "assistenza visiva (le case dove può andare)",
  "take back by restoring the position": "ritira la mossa rimettendo la posizione", "settle time (ms)": "tempo di assestamento (ms)",
  "move letters": "lettere delle mosse", "rule profile": "profilo delle regole",
  "LED brightness (% of the power cap)": "luminosità dei LED (% del limite di potenza)",
  "time per move (ms, 0: none)": "tempo per mossa (ms, 0: nessuno)",
  "chess clock (minutes+bonus seconds, or off)": "orologio (minuti+secondi di bonus, o off)",
  "draw offers: one every N moves (0: no limit)": "proposte di patta: una ogni N mosse (0: senza limite)",
  "abandonment after N minutes away (0: off)": "abbandono dopo N minuti di assenza (0: mai)",
  "opponent": "avversario", "the side the engine or the computer plays": "il colore del motore o del computer",
  "hints from the engine on request (off in rated and online games)":
    "suggerimenti del motore a richiesta (no nelle partite valide e online)",
  "casual (seed 003)": "amichevole (seed 003)", "a person": "una persona", "this computer": "questo computer",
  "the USB link's language": "la lingua del collegamento USB", "Bluetooth: the board poses as": "Bluetooth: la scacchiera si presenta come",
  "Bluetooth: the board's number in its name (0: none)": "Bluetooth: il numero della scacchiera nel nome (0: nessuno)",
  "told from the program": "riconosciuta dal programma", "this page's (JSON)": "di questa pagina (JSON)",
  "a DGT Pegasus": "una DGT Pegasus", "a Millennium eONE": "una Millennium eONE", "off (not seen by phones)": "spento (invisibile ai telefoni)",
  "The board's display (128 × 64)": "Il display della scacchiera (128 × 64)", "the start": "l'inizio",
  "no game archived yet": "nessuna partita in archivio", "no games in this table yet": "ancora nessuna partita in questa tabella",
  "no ladder yet: add its players here, or tick \"rated\" in Players: a rated game that ends on the board goes into it with its players":
    "nessuna classifica ancora: aggiungi qui i giocatori, o spunta \"valida\" in Giocatori: una partita valida finita sulla scacchiera vi entra con i suoi giocatori",
  // the club page (club.html, club.js)
  "club": "circolo", "Boards": "Scacchiere", "Board": "Scacchiera", "Last": "Ultima", "Result": "Risultato",
  "Link": "Pagina", "open": "apri", "New tournament": "Nuovo torneo", "Name": "Nome", "System": "Sistema",
  "Swiss (FIDE Dutch)": "Svizzero (olandese FIDE)", "Round-robin (Berger)": "Girone all'italiana (Berger)",
  "Rounds": "Turni", "Players (the ladder's)": "Giocatori (della classifica)",
  "New players, one a line": "Nuovi giocatori, uno per riga", "Make the tournament": "Crea il torneo",
  "Pair the next round": "Abbina il turno successivo", "Pair this round again": "Abbina di nuovo questo turno",
  "live PGN of this round": "PGN in diretta di questo turno", "Correct": "Correggi", "Move to board": "Sposta sulla scacchiera",
  "Standings": "Classifica", "Points": "Punti", "Crosstable": "Tabellone",
  "withdraw": "ritira", "send again": "invia di nuovo", "Another tournament": "Un altro torneo",
  "Start a new one (this one's files stay)": "Iniziane uno nuovo (i file di questo restano)",
  "Lichess broadcast": "Trasmissione su Lichess", "Token with study:write": "Token con study:write", "Save": "Salva",
  "Broadcast id (empty: make one)": "Id della trasmissione (vuoto: creane una)", "Push the rounds": "Invia i turni",
  "Stop": "Ferma", "not pushing to Lichess": "nessun invio a Lichess", "connected": "connesso",
  "New": "Nuova", "Take back": "Ritira", "Draw": "Patta", "Accept": "Accetta", "Decline": "Rifiuta",
  "Resign": "Abbandona", "Hint": "Suggerimento", "Flip": "Gira", "White": "Bianco", "Black": "Nero",
  "variant": "variante", "standard": "classica", "Train…": "Allenamento…", "Train": "Allenamento", "Drill": "Esercizio", "a puzzle": "un problema",
  "guess the move (a game)": "indovina la mossa (una partita)", "replay a game": "rivedi una partita",
  "an opening": "un'apertura", "Player": "Giocatore", "Theme": "Tema", "Rating": "Punteggio", "any": "qualsiasi",
  "or a file": "o un file", "Stop the drill": "Ferma l'esercizio",
  "New game": "Nuova partita", "Opponent": "Avversario", "Level": "Livello", "You play": "Giochi con",
  "by lot": "a sorte", "Clock": "Orologio", "Game": "Gioco", "Deck seed": "Seme del mazzo",
  "rated (the ladder: no hints)": "valida per la classifica (senza aiuti)", "from a position (FEN)": "da una posizione (FEN)",
  "Cancel": "Annulla", "Start": "Inizia", "(the standard position)": "(la posizione iniziale)", "at random": "a caso",
  "What the lights mean": "Cosa dicono le luci", "every meaning, not only the lights on now": "tutti i significati, non solo le luci accese",
  "no light is on": "nessuna luce accesa", "To move:": "Muove:", "Board:": "Scacchiera:", "Result:": "Risultato:",
  "In the hand": "In mano", "Tray": "Vassoio", "(the pieces taken: drop a piece here to take it off)":
    "(i pezzi presi: lascia qui un pezzo per toglierlo)", "Spares": "Pezzi di riserva", "(for a promotion)": "(per una promozione)",
  "Put back:": "Da rimettere:", "the simulated hands make the computer's moves": "le mani simulate fanno le mosse del computer",
  "Next puzzle": "Prossimo problema", "Computer analysis": "Analisi del computer",
  "its moves light up on the board (from, to): make them with the pieces (on the simulator its hands may: Options); its clock stops when it announces its move":
    "le sue mosse si accendono sulla scacchiera (da, a): falle con i pezzi (sul simulatore possono farle le sue mani: Opzioni); il suo orologio si ferma quando annuncia la mossa",
  "Moves": "Mosse", "The computer": "Il computer", "plays": "gioca", "level": "livello",
  "Options": "Opzioni", "the game": "la partita", "the board (hardware)": "la scacchiera (hardware)",
  "the simulator": "il simulatore", "simulated time ×": "tempo simulato ×", "1 (real time)": "1 (tempo reale)",
  "0.1 (hands 10× faster)": "0.1 (mani 10× più veloci)", "4 (hands 4× slower)": "4 (mani 4× più lente)", "step mode": "passo passo",
  "The board's display and buttons": "Il display e i pulsanti della scacchiera",
  "A phone beside the board": "Un telefono accanto alla scacchiera",
  "Scan this code with the phone (on the same network), or open the link: it pairs one browser, once.":
    "Inquadra il codice con il telefono (sulla stessa rete) o apri il link: abbina un browser, una volta.",
  "revoke every phone": "revoca tutti i telefoni", "Past games (the board's archive)": "Partite giocate (l'archivio della scacchiera)",
  "read the board's archive": "leggi l'archivio della scacchiera", "download its PGN": "scarica il PGN",
  "import into the ladder": "importa nella classifica", "Ladder": "Classifica", "table": "tabella", "general": "generale",
  "this month (from 1000)": "questo mese (da 1000)", "player": "giocatore", "games": "partite", "won": "vinte",
  "drawn": "patte", "lost": "perse", "new player": "nuovo giocatore", "add to the ladder": "aggiungi alla classifica",
  "Play on Lichess": "Gioca su Lichess", "log in": "accedi", "make a token (scope board:play)": "crea un token (ambito board:play)",
  "minutes": "minuti", "+ seconds": "+ secondi", "colour": "colore", "random": "a caso", "white": "bianco", "black": "nero",
  "rated": "valida", "seek a game": "cerca una partita", "(seeks: Rapid or Classical only)": "(ricerche: solo Rapid o Classical)",
  "seeking…": "cerco…", "cancel": "annulla", "friend": "amico", "challenge": "sfida", "cancel the challenge": "annulla la sfida",
  "Lichess AI level": "livello dell'IA di Lichess", "play the AI": "gioca con l'IA", "offer a draw": "proponi patta", "the game is over": "la partita è finita",
  "resign": "abbandona", "re-read the game": "rileggi la partita", "accept": "accetta", "decline": "rifiuta",
  "Players and export: FEN and PGN": "Giocatori ed esportazione: FEN e PGN", "Site": "Luogo", "name": "nome",
  "where you play": "dove giocate", "rated (ladder)": "valida (classifica)", "download PGN": "scarica il PGN",
  "Serial link (USB protocol): for developers": "Collegamento seriale (protocollo USB): per sviluppatori",
  "Events": "Eventi", "send": "invia", "Showing": "Mostro", "back to the game": "torna alla partita",
  "the start": "l'inizio", "the start position": "la posizione iniziale", "sound on": "suono sì", "sound off": "suono no",
  "connecting…": "connessione…", "connected (simulated board)": "connesso (scacchiera simulata)",
  "connected (board on USB)": "connesso (scacchiera via USB)", "server unreachable: retrying…": "server irraggiungibile: riprovo…",
  "simulator": "simulatore", "a board on USB": "scacchiera via USB", "companion": "companion",
  "a person (two players at the board)": "una persona (due giocatori alla scacchiera)", "no clock": "senza orologio",
  "someone on Lichess (online)": "qualcuno su Lichess (online)", "full strength": "massima forza",
  "chess": "scacchi", "Scacchi Sprint": "Scacchi Sprint", "the game goes on": "la partita continua",
  "idle": "ferma", "lifted": "pezzo in mano", "pending": "in attesa", "error": "errore", "out of sync": "non allineata",
  "every choice": "ogni scelta", "the board's buttons": "i pulsanti della scacchiera", "nobody (a new game chooses)": "nessuno (lo sceglie una nuova partita)",
  "Resign this game?": "Abbandonare la partita?", "the game's actions": "le azioni della partita",
  "a new game: opponent, colour, clock, variant": "una nuova partita: avversario, colore, orologio, variante",
  "take the last move back (against the computer: its reply and your move)": "annulla l'ultima mossa (contro il computer: la sua risposta e la tua mossa)",
  "resign this game": "abbandona la partita", "light the engine's best move": "accendi la mossa migliore del motore",
  "turn the board round (also the F key)": "gira la scacchiera (anche il tasto F)", "accept the draw offered": "accetta la patta proposta",
  "decline the draw offered": "rifiuta la patta proposta", "taken by White": "presi dal Bianco", "taken by Black": "presi dal Nero",
  "the physical board: drag pieces to move them": "la scacchiera: trascina i pezzi per muoverli",
  "the game as the board's rules see it": "la partita come la vedono le regole della scacchiera",
  "(the board's own record)": "(i risultati della scacchiera stessa)", "Start position": "Posizione iniziale",
  "3 to 80 characters (Lichess's limits for a broadcast)": "da 3 a 80 caratteri (i limiti di Lichess per una trasmissione)",
  "Stockfish's evaluation after every move, the mistakes marked, each side's accuracy":
    "la valutazione di Stockfish dopo ogni mossa, gli errori segnati, la precisione di ciascun lato",
  "White's winning chances after each move": "le probabilità di vittoria del Bianco dopo ogni mossa",
  "a game for the household ladder: no hints, and its PGN's Event says so":
    "una partita per la classifica di casa: senza suggerimenti, e l'Event del suo PGN lo dice",
  "a line, as a host would send it (e.g. status)": "una riga, come la manderebbe un programma (ad es. status)",
  "a puzzle, a game replayed or guessed, an opening": "un problema, una partita da rivedere o da indovinare, un'apertura",
  "at random (0-959; 518 is chess's)": "a caso (0-959; 518 è quella degli scacchi)", "auto": "auto",
  "deck": "mazzo", "drag a tile onto an empty square of your half": "trascina una tessera su una casa vuota della tua metà",
  "off, or minutes+seconds": "off, o minuti+secondi",
  "on a real board the hands make them: the LEDs show the move": "su una scacchiera vera le fanno le mani: i LED mostrano la mossa",
  "one move back": "una mossa indietro", "one move back (←)": "una mossa indietro (←)", "one move forward": "una mossa avanti",
  "one move forward (→)": "una mossa avanti (→)", "the archived game, move by move": "la partita archiviata, mossa per mossa",
  "the board's display": "il display della scacchiera", "the game as it stands (End)": "la partita com'è ora (Fine)",
  "the last move": "l'ultima mossa", "the player's own": "il suo",
  "the sounds of a move, a capture, a check and low time": "i suoni di una mossa, una cattura, uno scacco e del poco tempo",
  "· the decks' seed": "· il seme dei mazzi", "Scacchi Sprint: just drawn": "Scacchi Sprint: appena pescata",
  // the board's buttons (the simulated display's: their names on the hardware)
  "ms": "ms", "+5 ms": "+5 ms", "+50 ms": "+50 ms", "+300 ms": "+300 ms", "menu": "menu", "ok": "ok", "undo": "indietro", "diag": "diagnosi", "usb": "usb",
};

let lang = localStorage.getItem(KEY) || ((navigator.language || "").startsWith("it") ? "it" : "en");
const english = new WeakMap();     // a text node or an element's attribute -> its English, to come back to
const ATTRIBUTES = ["title", "placeholder", "aria-label"];

// The Italian of ``text`` (a whole text of WORDS); null if it has none.
export function italian(text) {
  const trimmed = text.trim();
  if (!trimmed || WORDS[trimmed] === undefined) return null;
  return text.replace(trimmed, WORDS[trimmed]);
}

// Skipped: the logs (protocol lines), the PGN, the move list (the board's own letters: the Moves
// select), the scripts, and the lines sentences.js writes in each language.
export const SKIP = "script, style, pre, textarea, #moves, #events, #protocol, code, [translate=no], [data-line]";

function translateText(node) {
  if (!node.parentElement || node.parentElement.closest(SKIP)) return;
  const now = node.nodeValue;
  const known = english.get(node);
  const source = known && known.it === now ? known.en : now;     // a text the page wrote anew: English again
  if (lang === "it") {
    const it = italian(source);
    if (it !== null && it !== now) {
      english.set(node, { en: source, it });
      node.nodeValue = it;
    }
  } else if (known && known.it === now) {
    node.nodeValue = known.en;
    english.delete(node);
  }
}

function translateAttributes(el) {
  for (const name of ATTRIBUTES) {
    if (!el.hasAttribute(name) || el.hasAttribute("data-line-" + name)) continue;
    const store = english.get(el) || {};
    const now = el.getAttribute(name);
    const source = store[name] && store[name].it === now ? store[name].en : now;
    if (lang === "it") {
      const it = italian(source);
      if (it !== null && it !== now) {
        store[name] = { en: source, it };
        english.set(el, store);
        el.setAttribute(name, it);
      }
    } else if (store[name] && store[name].it === now) {
      el.setAttribute(name, store[name].en);
    }
  }
}

function translateTree(root) {
  if (root.nodeType === Node.TEXT_NODE) return translateText(root);
  if (root.nodeType !== Node.ELEMENT_NODE || root.closest(SKIP)) return;
  translateAttributes(root);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) translateText(n);
    else translateAttributes(n);
  }
}

const observer = new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === "characterData") translateText(r.target);
    else if (r.type === "attributes") translateAttributes(r.target);
    else for (const n of r.addedNodes) translateTree(n);
  }
});

// In Italian the page's own words; "Resign this game?" and the like go through here too.
export function t(text) { return lang === "it" ? (italian(text) || text) : text; }

// A line {key, ...fields} (sentences.js) in the page's language, kept on its element (data-line:
// the observer leaves it alone, the language's button writes it again, the tests write it in each
// language). A text instead (a name, the host's own words, a whole text of WORDS) is written as it
// is, for the observer; null empties the element.
export function showLine(el, line) {
  if (!line || typeof line === "string") {
    el.textContent = line || "";
    delete el.dataset.line;
    return;
  }
  el.dataset.line = JSON.stringify(line);
  el.textContent = sentence(line, lang);
}

// A line {key, ...fields} as a text in the page's language (a dialog's question).
export function lineText(line) { return sentence(line, lang); }

// A line as an element's attribute (a title, an aria-label): kept as data-line-<attribute>, written
// again by the language's button as showLine's are; null takes the attribute away. The same line
// again writes nothing (the 64 squares' two each, at every state the board pushes).
export function showLineIn(el, attribute, line) {
  if (!line) {
    el.removeAttribute(attribute);
    el.removeAttribute("data-line-" + attribute);
    return;
  }
  const kept = JSON.stringify(line);
  if (el.getAttribute("data-line-" + attribute) === kept) return;
  el.setAttribute("data-line-" + attribute, kept);
  el.setAttribute(attribute, sentence(line, lang));
}

function apply() {
  document.documentElement.lang = lang;
  $("ui-lang").textContent = lang === "it" ? "EN" : "IT";
  $("ui-lang").title = lang === "it" ? "English" : "Italiano";
  translateTree(document.body);
}

// In English the observer rests: the page's own words are the English.
function watch() {
  if (lang === "it") {
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true,
                                      attributeFilter: ATTRIBUTES });
  } else observer.disconnect();
}

$("ui-lang").addEventListener("click", () => {
  lang = lang === "it" ? "en" : "it";
  localStorage.setItem(KEY, lang);
  for (const el of document.querySelectorAll("[data-line]")) el.textContent = sentence(JSON.parse(el.dataset.line), lang);
  for (const name of ATTRIBUTES) {
    for (const el of document.querySelectorAll("[data-line-" + name + "]")) {
      el.setAttribute(name, sentence(JSON.parse(el.getAttribute("data-line-" + name)), lang));
    }
  }
  apply();
  watch();
});
apply();
watch();
