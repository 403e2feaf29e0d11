// The companion page: its parts, each a module that draws from link.js's states and acts with its
// post; imported in the order they draw, then the link to the server is opened.
import "./i18n.js";        // Italian or English: first, so that it sees every word the others write
import "./companion.js";   // the physical board, its options, the game's buttons
import "./page.js";        // the mirror, the words, the move list, the legend, the PGN
import "./room.js";        // the clocks, the material, a draw offer, past games, the ladder
import "./newgame.js";     // the new game dialog
import "./train.js";       // the train dialog: puzzles, replays, openings
import "./lichess.js";
import "./display.js";
import "./phone.js";
import "./sounds.js";
import { connect } from "./link.js";

connect(250);
