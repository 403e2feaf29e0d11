// Sounds, as lichess.org plays them: a move, a capture, a check, and the last ten seconds of a
// clock; a mute button, remembered. Made with WebAudio (no sound files): a short tone each.
// window.scacchieraSounds lists what was played (muted or not), for the browser tests.
import { $ } from "./dom.js";
import { onState } from "./link.js";

const TONES = { move: [520, 0.06], capture: [330, 0.12], check: [880, 0.18], "low time": [700, 0.05] };
window.scacchieraSounds = [];
let audio = null;
let muted = localStorage.getItem("scacchiera-muted") === "1";

function play(name) {
  window.scacchieraSounds.push(name);
  if (muted) return;
  try {
    audio = audio || new AudioContext();
    const [freq, seconds] = TONES[name];
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + seconds);
  } catch (e) {
    // no audio here (a browser without it, or before the page was touched): silence
  }
}

function drawMute() {
  $("mute").textContent = muted ? "sound off" : "sound on";
  $("mute").setAttribute("aria-pressed", String(muted));
}
$("mute").addEventListener("click", () => {
  muted = !muted;
  localStorage.setItem("scacchiera-muted", muted ? "1" : "0");
  drawMute();
});
drawMute();

let plies = null;
let lowFor = "";
function received(s) {
  const n = (s.san || []).length;
  if (plies !== null && n === plies + 1) {                 // a move made now (not a takeback, not a load)
    const san = s.san[n - 1];
    play(/[+#]/.test(san) ? "check" : san.includes("x") ? "capture" : "move");
  }
  plies = n;
  const c = s.clock;
  const side = c && c.running ? (c.running === "w" ? "white" : "black") : "";
  const low = side && c[side] <= 10000 ? side + n : "";
  if (low && low !== lowFor) play("low time");             // once per turn that enters its last ten seconds
  lowFor = low;
}
onState(received);
