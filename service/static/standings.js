// "/": a tournament's standings for the big screen, live from its stream (?t=ID, else the
// tournament the organiser chose for the screen).
"use strict";

const params = new URLSearchParams(location.search);
let previous = {};

function render(view) {
  document.getElementById("title").textContent = view.name;
  const ranking = view.rank_by === "points" ? "ranked by points" : "ranked by games won, then points";
  document.getElementById("subtitle").textContent = `${view.game} \u00b7 ${ranking}`;
  document.title = `${view.name} - standings`;
  const teams = view.entrants.some((e) => e.players.length > 1);
  document.getElementById("entrant-head").textContent = teams ? "Team" : "Player";
  const body = document.querySelector("#standings tbody");
  const rows = view.standings.map((s) => {
    const key = `${s.played}/${s.won}/${s.points}`;
    const changed = previous[s.entrant] !== undefined && previous[s.entrant] !== key;
    previous[s.entrant] = key;
    const players = s.players.length > 1 || s.players[0] !== s.name ? s.players.join(" & ") : "";
    return el("tr", { class: changed ? "changed" : "", "data-entrant": s.entrant },
      el("td", { class: "place" }, s.place),
      el("td", { class: "name" }, s.name, players && el("span", { class: "players" }, players)),
      el("td", {}, s.played), el("td", {}, s.won), el("td", { class: "lost" }, s.lost),
      el("td", { class: "points" }, s.points));
  });
  replace(body, rows);
  const tiles = view.tables.map((t) => {
    const sides = t.names.map((name, i) => {
      const won = t.over && t.games_won[i] > 0;
      return el("div", { class: `row ${won ? "winner" : ""}` },
        el("span", { class: i % 2 ? "side1" : "side0" }, name),
        el("span", { class: "score" }, t.totals[i] ?? 0));
    });
    return el("a", { class: `tile ${t.over ? "over" : ""}`, href: `/tables/${t.id}`, "data-table": t.id, "data-round": t.round, "data-number": t.number },
      el("div", { class: "head" },
        el("span", {}, `Round ${t.round} \u00b7 table ${t.number}`),
        t.over ? el("span", {}, "finished") : suitMark(t.trump)),
      sides);
  });
  const byes = view.byes.map((b) => el("div", { class: "tile over", "data-round": b.round },
    el("div", { class: "head" }, el("span", {}, `Round ${b.round} \u00b7 bye`)),
    el("div", { class: "row" }, el("span", {}, view.entrants[b.entrant].name))));
  const order = (node) => Number(node.dataset.round) * 1000 + (node.dataset.number ? Number(node.dataset.number) : 999);
  replace(document.getElementById("tables"), [...tiles, ...byes].sort((a, b) => order(a) - order(b)));
}

// The tournament the organiser chose for the big screen (GET /api/screen), checked again now
// and then: when the organiser chooses another, the screen follows.
const SCREEN_CHECK_MS = 10000;
let shown = null;
let source = null;

function nothing(text) {
  const note = document.getElementById("nothing");
  note.textContent = text;
  note.hidden = false;
  document.getElementById("live").textContent = "";
}

async function start() {
  let id = params.get("t");
  if (!id) {
    try {
      id = (await getJSON("/api/screen")).tournament;
    } catch (err) {
      id = shown;  // keep showing what we have
    }
    setTimeout(start, SCREEN_CHECK_MS);
    if (!id) {
      if (source) source.close();
      source = null;
      shown = null;
      nothing("The organiser has not chosen a tournament for this screen yet.");
      return;
    }
  }
  if (id === shown) return;
  shown = id;
  previous = {};
  document.getElementById("nothing").hidden = true;
  if (source) source.close();
  let view = null;
  source = follow(`/api/tournaments/${id}/stream`, document.getElementById("live"), (m) => {
    if (m.kind === "tournament") {
      view = m;  // the whole tournament: when the stream (re)opens
    } else if (m.kind === "tables" && view) {
      // the tables that changed: their rows, and the standings when a finished game changed them
      for (const row of m.rows) {
        const at = view.tables.findIndex((t) => t.id === row.id);
        if (at >= 0) view.tables[at] = row;
      }
      if (m.standings) view.standings = m.standings;
    } else {
      return;
    }
    render(view);
  });
}

start();
