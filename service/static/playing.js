// The home page's tables being played, every table of the club (not only a tournament's):
// its game, players, running totals, who is to play, whether a camera films it. Read again
// every few seconds (GET /api/playing).
"use strict";

const PLAYING_EVERY_MS = 5000;

function playingTile(t) {
  const sides = (t.sides || []).map((seats, i) => el("div", { class: "row" },
    el("span", { class: i % 2 ? "side1" : "side0" }, seats.map((s) => t.players[s]).join(" & ")),
    el("span", { class: "score" }, (t.totals || [])[i] ?? 0)));
  const status = t.over ? "finished" : t.hand ? `hand ${t.hand}` : "not started";
  return el("a", { class: `tile ${t.over ? "over" : ""}`, href: `/tables/${encodeURIComponent(t.id)}`, "data-playing": t.id },
    el("div", { class: "head" }, el("span", {}, t.name),
      el("span", {}, `${t.game} \u00b7 ${status}`, t.camera ? " \u00b7 \ud83d\udcf7" : "")),
    sides,
    t.to_move !== null && t.to_move !== undefined && !t.over
      ? el("div", { class: "row muted" }, `${t.players[t.to_move]} to play`) : null);
}

async function refreshPlaying() {
  try {
    const tables = await getJSON("/api/playing");
    replace(document.getElementById("playing"), tables.map(playingTile));
    document.getElementById("none-playing").hidden = tables.length > 0;
  } catch (err) {
    // offline: keep what is shown
  }
}

refreshPlaying();
setInterval(refreshPlaying, PLAYING_EVERY_MS);
