// "/tables/{id}": one table live: scores, trump and makers, the trick being played with its
// card faces, the hand's trick points so far, who leads, the last trick, plays awaiting
// confirmation (read in doubt, or missed by the camera), the last hand's melds, bella and
// sets, the score sheet. Opened with the scorer's link (#token=...), it also shows the QR code
// a phone scans to film the table.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const TOKEN_KEY = `trickcam-scorer-${tableId}`;
let lastState = null;

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
  const lead = leader(state);
  if (!cur.over && lead !== null && lead !== undefined) parts.push(item("leads", el("span", { id: "leads" }, state.players[lead])));
  const points = trickPoints(state);
  if (points) parts.push(item("trick points", el("span", { id: "hand-points" },
    state.sides.map((_, i) => el("span", { class: `side${i % 2}`, "data-points": i }, `${points[i]} `)))));
  if (cur.tricks_won && state.game === "clag") parts.push(item("tricks", cur.tricks_won.join(" \u00b7 ")));
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

function renderLastTrick(state) {
  const cur = state.current;
  const done = (cur && cur.tricks) || [];
  const box = document.getElementById("last-trick");
  box.hidden = !(cur && cur.trick.length && done.length);
  if (box.hidden) return;
  const last = done[done.length - 1];
  const seats = last.seats || last.cards.map((_, i) => (last.leader + i) % state.players.length);
  document.getElementById("last-trick-title").textContent = `Last trick (${last.number})`;
  replace(document.getElementById("last-trick-cards"), last.cards.map((c, i) =>
    el("div", { class: `play ${seats[i] === last.winner ? "winner" : ""}`, "data-seat": seats[i] },
      cardFace(c, "small"), el("span", { class: "who" }, state.players[seats[i]]))));
  document.getElementById("last-trick-note").textContent = `taken by ${state.players[last.winner]}`;
}

// Plays read in doubt (their two candidates) and plays the camera missed, until a person says.
let awaitingTimer = null;
function refreshAwaiting() {
  clearTimeout(awaitingTimer);
  awaitingTimer = setTimeout(async () => {
    try {
      const [table, cam] = await Promise.all([
        getJSON(`/api/tables/${encodeURIComponent(tableId)}`),
        getJSON(`/api/tables/${encodeURIComponent(tableId)}/camera`),
      ]);
      renderAwaiting(table, cam);
    } catch (err) {
      // offline: the stream's status says so; try again on the next change
    }
  }, 250);
}

function renderAwaiting(table, cam) {
  const who = (seat) => table.players[seat];
  // (a play the deck named has no other candidate: the camera never read it)
  const rows = (table.awaiting_confirmation || []).map((p) => {
    const others = p.candidates.filter((c) => c !== p.card);
    return el("div", { class: "awaiting-play", "data-seq": p.seq },
      el("strong", {}, who(p.seat)), " played ", cardFace(p.card, "small"), others.length ? " or " : "?",
      others.map((c) => cardFace(c, "small")),
      el("span", { class: "muted" }, ` ${p.reason}`));
  });
  for (const p of (cam.watching ? cam.plays : [])) {
    if (p.ask && p.card === null) rows.push(el("div", { class: "awaiting-play missed", "data-play": p.index },
      el("strong", {}, who(p.seat)), `'s card to trick ${p.trick} was not seen by the camera`,
      el("span", { class: "muted" }, cam.held > 1 ? ` (${cam.held - 1} plays wait behind it)` : "")));
  }
  const box = document.getElementById("awaiting");
  box.hidden = !rows.length;
  replace(document.getElementById("awaiting-list"), rows);
}
setInterval(refreshAwaiting, 3000);

// The scorer's link (#token=...) shows the QR code of the camera page's link; the token stays
// in this browser and in the QR code, never in an address a server logs.
async function showCameraQr() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname);
  }
  const token = localStorage.getItem(TOKEN_KEY);
  const panel = document.getElementById("camera-qr");
  if (!token) { panel.hidden = true; return; }
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/camera/qr`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ origin: location.origin }),
    });
    if (r.status === 401 || r.status === 403) { localStorage.removeItem(TOKEN_KEY); return; }
    if (!r.ok) return;
    const img = document.getElementById("qr");
    img.src = URL.createObjectURL(await r.blob());
    document.getElementById("camera-link").href = `/tables/${encodeURIComponent(tableId)}/camera`;
    panel.hidden = false;
  } catch (err) {
    // offline: no code to show now
  }
}
document.getElementById("forget-access").addEventListener("click", () => {
  localStorage.removeItem(TOKEN_KEY);
  document.getElementById("camera-qr").hidden = true;
});
showCameraQr();

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
  renderLastTrick(state);
  refreshAwaiting();
  renderReneges(state);
  renderLastHand(state);
  renderSheet(state);
  document.body.dataset.seq = state.seq;
}

follow(`/api/tables/${encodeURIComponent(tableId)}/stream`, document.getElementById("live"), (m) => {
  if (m.state) render(m.state);
});
