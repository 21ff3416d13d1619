// "/tables/{id}": one table live: scores, trump and makers, the trick being played with its
// card faces, the last hand's melds, bella and sets, the score sheet.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

function sideName(state, i) {
  return state.sides[i].map((s) => state.players[s]).join(" & ");
}

function renderScores(state) {
  const cur = state.current;
  const boxes = state.sides.map((seats, i) => {
    const badges = [];
    if (cur && cur.makers === i) badges.push(el("span", { class: "makers" }, "makers"));
    if (cur && cur.maker !== undefined && cur.maker !== null && cur.makers === undefined && seats.includes(cur.maker))
      badges.push(el("span", { class: "makers" }, "makers"));
    if (cur && cur.contracts && cur.contracts[i] !== null && cur.contracts[i] !== undefined)
      badges.push(el("span", {}, `bid ${cur.contracts[i]} \u00b7 took ${cur.tricks_won[i]}`));
    if (state.games_won[i]) badges.push(el("span", {}, `games ${state.games_won[i]}`));
    return el("div", { class: `side s${i % 2}`, "data-side": i },
      el("div", { class: "who" }, sideName(state, i)),
      el("div", { class: "total", "data-total": i }, state.totals[i]),
      el("div", { class: "badges" }, badges));
  });
  replace(document.getElementById("scores"), boxes);
}

function item(label, ...value) {
  return el("div", { class: "item" }, el("span", { class: "label" }, label), ...value);
}

function renderInfo(state) {
  const cur = state.current;
  const info = document.getElementById("info");
  if (!cur) { replace(info, el("span", { class: "empty" }, "Waiting for the first deal.")); return; }
  const parts = [
    item(cur.round ? "round" : "hand", cur.number),
    item("trump", el("span", { id: "trump" }, suitMark(cur.trump))),
  ];
  if (cur.upcard) parts.push(item("upcard", cardFace(cur.upcard, "small")));
  if (cur.trump_card) parts.push(item("trump card", cardFace(cur.trump_card, "small")));
  parts.push(item("dealer", state.players[cur.dealer]));
  if (cur.maker !== undefined && cur.maker !== null) parts.push(item("made by", state.players[cur.maker]));
  if (!cur.over && cur.to_move !== null && cur.to_move !== undefined)
    parts.push(item("to play", el("strong", {}, state.players[cur.to_move])));
  parts.push(item("", el("span", { class: "muted" }, cur.over ? `over (${cur.end || "scored"})` : cur.phase)));
  replace(info, parts);
}

function renderTrick(state) {
  const cur = state.current;
  const box = document.getElementById("trick");
  const note = document.getElementById("trick-note");
  const title = document.getElementById("trick-title");
  if (!cur) { replace(box); note.textContent = ""; title.textContent = "Trick"; return; }
  const done = cur.tricks || [];
  if (cur.trick.length || !done.length) {
    title.textContent = `Trick ${done.length + 1}`;
    replace(box, cur.trick.map((p) => el("div", { class: "play", "data-seat": p.seat },
      cardFace(p.card), el("span", { class: "who" }, state.players[p.seat]))));
    note.textContent = cur.trick.length ? "" : "no card played yet";
    return;
  }
  const last = done[done.length - 1];
  const seats = last.seats || last.cards.map((_, i) => (last.leader + i) % state.players.length);
  title.textContent = `Trick ${last.number}`;
  replace(box, last.cards.map((c, i) => el("div", { class: `play ${seats[i] === last.winner ? "winner" : ""}`, "data-seat": seats[i] },
    cardFace(c), el("span", { class: "who" }, state.players[seats[i]]))));
  note.textContent = `taken by ${state.players[last.winner]}`;
}

function renderReneges(state) {
  const box = document.getElementById("reneges");
  const list = (state.current && state.current.reneges) || [];
  box.hidden = !list.length;
  replace(box, el("h2", {}, "Reneges"), list.map((r) => el("div", { class: "renege" },
    el("strong", {}, state.players[r.seat]), ` \u2013 ${r.rule} (${r.status}) `,
    r.card && cardFace(r.card, "small"), r.proof && [" proven by ", cardFace(r.proof, "small")],
    el("div", { class: "muted" }, r.detail))));
}

function renderLastHand(state) {
  const box = document.getElementById("last-hand");
  const h = state.hands[state.hands.length - 1];
  box.hidden = !h;
  if (!h) return;
  const lines = [el("h2", {}, `${h.round ? "Round" : "Hand"} ${h.round || h.number}`)];
  const per = (label, values) => values && el("div", {}, el("span", { class: "label muted" }, `${label}: `),
    state.sides.map((_, i) => el("span", { class: `side${i % 2}` }, `${sideName(state, i)} ${values[i]}  `)));
  lines.push(per("score", h.score));
  if (h.meld_points) lines.push(per("melds", h.meld_points));
  if (Array.isArray(h.bella)) lines.push(per("bella", h.bella));
  else if (h.bella !== undefined && h.bella !== null) lines.push(el("div", {}, `bella: ${state.players[h.bella] ?? h.bella}`));
  if (h.set === true) lines.push(el("div", { class: "set" }, "the makers were set (XXX)"));
  if (Array.isArray(h.set) && h.set.some(Boolean))
    lines.push(el("div", {}, "missed contract: ", state.sides.map((_, i) => i).filter((i) => h.set[i]).map((i) => sideName(state, i)).join(", ")));
  if (h.redeal) lines.push(el("div", { class: "muted" }, "redeal"));
  replace(box, lines);
}

function renderSheet(state) {
  const head = document.querySelector("#sheet thead");
  const body = document.querySelector("#sheet tbody");
  replace(head, el("tr", {}, el("th", {}, "#"),
    state.sides.map((_, i) => el("th", { class: `side${i % 2}` }, sideName(state, i)))));
  replace(body, state.hands.slice().reverse().map((h) => el("tr", {},
    el("td", {}, h.number),
    h.score.map((s, i) => {
      const isSet = h.set === true ? (h.makers === i || (h.maker !== undefined && state.sides[i].includes(h.maker))) : Array.isArray(h.set) && h.set[i];
      const mark = Array.isArray(h.set) ? "\u2717 " : "XXX ";  // Clag: a missed contract
      return el("td", { class: "score" }, isSet ? el("span", { class: "set" }, mark) : "", `${s} `,
        el("span", { class: "muted" }, `(${h.running[i]})`));
    }))));
}

function render(state) {
  document.getElementById("title").textContent = state.name;
  document.getElementById("subtitle").textContent = `${state.game} \u00b7 ${state.players.join(", ")}`;
  document.title = `${state.name} - trickcam`;
  renderScores(state);
  renderInfo(state);
  renderTrick(state);
  renderReneges(state);
  renderLastHand(state);
  renderSheet(state);
  document.body.dataset.seq = state.seq;
}

follow(`/api/tables/${encodeURIComponent(tableId)}/stream`, document.getElementById("live"), (m) => {
  if (m.state) render(m.state);
});
