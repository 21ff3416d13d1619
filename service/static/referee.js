// "/referee": the referee's desk. The referee token (typed in, or #token=) names the
// tournament; it is kept in this browser and sent as a bearer header. Live: the tournament's
// stream says when to fetch again.
"use strict";

const store = window.localStorage;
let token = null;
let name = null;
let source = null;
let auditTable = null;

function api(path, body) {
  const options = { headers: { Authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  return getJSON(path, options);
}

function showError(err) {
  document.getElementById("error").textContent = err ? String(err.message || err) : "";
}

async function act(path, body) {
  try {
    await api(path, body);
    showError(null);
    await refresh();
  } catch (err) {
    showError(err);
  }
}

function confirmation(c) {
  const choose = (card) => act(`/api/referee/tables/${c.table_id}/plays/${c.seq}/ruling`, { by: name, card });
  return el("div", { class: "item", "data-table": c.table_id, "data-seq": c.seq },
    el("div", { class: "line" }, el("strong", {}, c.table), ` \u00b7 event ${c.seq} \u00b7 played by `, el("strong", {}, c.player)),
    el("div", { class: "line" }, "recorded ", cardFace(c.card, "small"),
      c.crop_url && el("img", { class: "crop", src: c.crop_url, alt: "camera crop" })),
    c.reason && el("div", { class: "line muted" }, c.reason),
    el("div", { class: "actions" }, c.candidates.map((card) =>
      el("button", { type: "button", "data-choose": card, onclick: () => choose(card) }, "It is ", cardFace(card, "small")))));
}

function renege(r) {
  const rule = (kind) => act(`/api/referee/tables/${r.table_id}/events`, { by: name, event: { type: kind, index: r.index } });
  const pending = r.status === "pending" && r.in_play;
  return el("div", { class: `item ${pending ? "" : "done"}`, "data-table": r.table_id },
    el("div", { class: "line" }, el("strong", {}, r.table), ` \u00b7 hand ${r.hand} \u00b7 trick ${r.trick} \u00b7 `,
      el("span", { class: `status ${r.status}` }, r.status)),
    el("div", { class: "line" }, el("strong", {}, r.player), ` \u2013 ${r.rule}: ${r.detail}`),
    r.trick_cards.length > 0 && el("div", { class: "line" }, "the trick: ",
      r.trick_cards.map((p) => cardFace(p.card, `small ${p.seat === r.seat && p.card === r.card ? "" : "dim"}`))),
    r.plays.length > 0 && el("div", { class: "line" }, r.plays.map((p) =>
      el("span", { class: "evidence-play" }, `${p.role === "proof" ? "proof" : "played"} (event ${p.seq}) `, cardFace(p.card, "small"),
        p.crop_url && el("img", { class: "crop", src: p.crop_url, alt: `crop of ${p.card}` })))),
    pending && el("div", { class: "actions" },
      el("button", { type: "button", onclick: () => rule("confirm_renege") }, "Confirm"),
      el("button", { type: "button", class: "secondary", onclick: () => rule("dismiss_renege") }, "Dismiss")));
}

async function showAudit(table) {
  auditTable = table;
  const box = document.getElementById("audit");
  const trail = await api(`/api/referee/tables/${table.id}/audit`);
  box.hidden = false;
  const rows = trail.events.slice().reverse().map((e) => el("tr", {},
    el("td", {}, e.seq), el("td", {}, e.actor), el("td", {}, new Date(e.at).toLocaleTimeString()),
    el("td", {}, el("code", {}, JSON.stringify(e.event)))));
  const correct = el("form", { class: "actions", onsubmit: (ev) => {
    ev.preventDefault();
    const seq = Number(ev.target.elements.seq.value);
    const card = ev.target.elements.card.value.trim();
    const old = trail.events.find((e) => e.seq === seq);
    const event = card && old ? { ...old.event, card } : null;
    act(`/api/referee/tables/${table.id}/events`, { by: name, event: { type: "correct", seq, event } })
      .then(() => showAudit(table));
  } },
  el("label", {}, "Correct event ", el("input", { name: "seq", type: "number", min: 1, required: true, class: "w5" })),
  el("label", {}, " to card ", el("input", { name: "card", placeholder: "e.g. 10H (empty: remove)", class: "w9" })),
  el("button", { type: "submit" }, "Correct"));
  const rulings = trail.plays.filter((p) => p.ruling).map((p) => el("div", { class: "line" },
    `event ${p.seq}: read `, cardFace(p.card, "small"), ` in doubt with ${p.candidates.join("/")}; ruled `,
    cardFace(p.ruling.card, "small"), ` by ${p.ruling.by} at ${new Date(p.ruling.at).toLocaleTimeString()}`));
  replace(box, el("h2", {}, `Audit trail \u2013 ${table.name || table.id}`), correct, rulings,
    el("table", { class: "grid audit" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "by"), el("th", {}, "at"), el("th", {}, "event"))),
      el("tbody", {}, rows)));
}

async function refresh() {
  const [view, reneges, confirmations] = await Promise.all([
    api("/api/referee"), api("/api/referee/reneges"), api("/api/referee/confirmations")]);
  document.getElementById("title").textContent = `Referee \u2013 ${view.name}`;
  document.getElementById("subtitle").textContent = view.game;
  replace(document.getElementById("confirmations"),
    confirmations.length ? confirmations.map(confirmation) : el("p", { class: "empty" }, "None."));
  replace(document.getElementById("reneges"),
    reneges.length ? reneges.map(renege) : el("p", { class: "empty" }, "None."));
  replace(document.getElementById("tables"), el("div", { class: "tables-list" }, view.tables.map((t) =>
    el("button", { type: "button", class: "secondary", onclick: () => showAudit({ id: t.id, name: `round ${t.round}, table ${t.number}` }) },
      `R${t.round} T${t.number}: ${t.names.join(" v ")} (${t.totals.join("\u2013")})`))));
  if (auditTable) await showAudit(auditTable);
  return view;
}

async function open() {
  document.getElementById("login").hidden = true;
  document.getElementById("desk").hidden = false;
  document.getElementById("who").textContent = name;
  const view = await refresh();
  if (source) source.close();
  source = follow(`/api/tournaments/${view.id}/stream`, document.getElementById("live"), () => {
    refresh().catch(showError);
  });
}

function login(message) {
  document.getElementById("login").hidden = false;
  document.getElementById("desk").hidden = true;
  document.getElementById("login-error").textContent = message || "";
  document.getElementById("name").value = store.getItem("trickcam.referee.name") || "";
}

document.getElementById("login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  token = document.getElementById("token").value.trim();
  name = document.getElementById("name").value.trim();
  start();
});

document.getElementById("logout").addEventListener("click", () => {
  store.removeItem("trickcam.referee.token");
  if (source) source.close();
  token = null;
  login();
});

async function start() {
  try {
    await getJSON("/api/referee", { headers: { Authorization: `Bearer ${token}` } });
  } catch (err) {
    login("That is not a referee token.");
    return;
  }
  store.setItem("trickcam.referee.token", token);
  store.setItem("trickcam.referee.name", name);
  await open();
}

(function init() {
  // a link may carry the token after "#" (/referee#token=...&name=...): the part after "#"
  // never leaves the browser, so it lands in no server's or proxy's log. "?token=" still
  // works for old links (the server's log redacts it); both are taken out of the address.
  const params = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  token = params.get("token") || query.get("token") || store.getItem("trickcam.referee.token");
  name = params.get("name") || query.get("name") || store.getItem("trickcam.referee.name") || "referee";
  if (params.has("token") || query.has("token")) history.replaceState(null, "", "/referee");
  if (token) start(); else login();
})();
