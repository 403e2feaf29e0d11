// A clock's time as the page writes it: m:ss (h:mm:ss past an hour), tenths in the last ten seconds.
// The board's page, its Lichess panel and the club page share it.
export function clockText(ms) {
  if (ms === null || ms === undefined) return "–";
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);   // the last ten seconds in tenths
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
}
