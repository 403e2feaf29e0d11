// The phone beside a real board (make connect LAN=1, docs/companion.md): the code the next phone
// scans (a one-time key: it changes once used), how many are paired, and a button that revokes them
// all. Shown only on the computer's own page while the server listens on the LAN.
import { $ } from "./dom.js";

async function loadPairing() {
  let p;
  try {
    const r = await fetch("api/pairing", { cache: "no-store" });
    if (!r.ok) return;                     // a phone's page: pairing is the computer's business
    p = await r.json();
  } catch (e) {
    return;
  }
  $("phone-box").hidden = !p.lan;
  if (!p.lan) return;
  $("phone-qr").innerHTML = p.svg;         // the server's own SVG (segno) of the link below
  $("phone-link").textContent = p.link;
  $("phone-paired").textContent = p.paired ? p.paired + " paired" : "none paired yet";
}

$("phone-revoke").addEventListener("click", async () => {
  await fetch("api/pairing/revoke", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  loadPairing();
});
$("phone-box").addEventListener("toggle", loadPairing);
setInterval(() => { if ($("phone-box").open) loadPairing(); }, 3000);   // a phone used the key: the next one
loadPairing();
