// "/tables/{id}/camera": a phone films the table. Its rear camera's frames go to the server
// (POST /api/tables/{id}/frames, one at a time: a frame that cannot be sent is dropped, never
// queued), 5 to 10 a second as the network and the server's answer allow; the server's watcher
// reads them and posts the plays. The phone sets up each hand (dealer, face-up card, bids by
// tapping: the camera cannot hear them), finds the seats, and answers what the camera could
// not read (a tapped card goes through the outbox, retried until the server has it).
"use strict";

const parts = location.pathname.split("/").filter(Boolean);  // ["tables", id, "camera"]
const tableId = decodeURIComponent(parts[1]);
const api = `/api/tables/${encodeURIComponent(tableId)}`;
const TOKEN_KEY = `trickcam-scorer-${tableId}`;
const MIN_INTERVAL_MS = 100;   // 10 frames a second at most
const MAX_INTERVAL_MS = 200;   // 5 a second at least while a hand is followed
const MAX_WIDTH = 1280;        // frames are scaled down to this width at most
const FRAME_TIMEOUT_MS = 4000;

const $ = (id) => document.getElementById(id);
let token = takeToken();
let state = null;        // the table's state, from its stream
let cam = null;          // the server camera's state (GET /camera)
let lastCards = [];      // the cards the latest frame's answer saw (frame pixels)
let frameSize = null;
let filming = false;
let stream = null;
let wakeLock = null;
let bottomSeat = 0;
let online = true;

const outbox = new Outbox(`trickcam-outbox-${tableId}`, (box, done) => {
  $("outbox-count").textContent = box.items.length;
  if (done && done.refused) showError(`${done.item.label}: ${done.refused}`);
  if (done && done.answer && done.answer.camera) { cam = done.answer.camera; render(); }
  showOnline(box.online && online);
});

// The scorer's token arrives in the address's fragment (#token=...): kept in this browser,
// then taken out of the address bar (a fragment never reaches a server or its log).
function takeToken() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(TOKEN_KEY);
}

function showError(text) {
  const box = $("setup-error");
  box.textContent = text;
  box.hidden = !text;
}

function showOnline(on) {
  $("offline").hidden = on;
  document.body.classList.toggle("offline", !on);
}

// -- the camera -------------------------------------------------------------------------------

async function start() {
  if (!token) { $("no-token").hidden = false; return; }
  if (!window.isSecureContext || !navigator.mediaDevices) {
    $("reason").textContent = "A browser opens its camera only on a secure page: start the " +
      "server with --tls-cert and --tls-key and open it with https:// (docs/camera.md).";
    return;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: false,
    });
  } catch (err) {
    $("reason").textContent = `The camera could not be opened: ${err.message || err}`;
    return;
  }
  const video = $("video");
  video.srcObject = stream;
  await video.play().catch(() => {});
  fitStage();
  filming = true;
  $("placeholder").hidden = true;
  $("start").hidden = true;
  $("stop").hidden = false;
  document.body.dataset.filming = "1";
  keepAwake();
  frameLoop();
}

function stop() {
  filming = false;
  if (stream) stream.getTracks().forEach((t) => t.stop());
  stream = null;
  $("video").srcObject = null;
  $("placeholder").hidden = false;
  $("start").hidden = false;
  $("stop").hidden = true;
  $("rate").textContent = "not filming";
  delete document.body.dataset.filming;
  if (wakeLock) wakeLock.release().catch(() => {});
  wakeLock = null;
}

// The screen stays on while filming (the Screen Wake Lock API where there is one).
async function keepAwake() {
  if (!("wakeLock" in navigator)) { $("wake").textContent = "keep the screen on by hand"; return; }
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    $("wake").textContent = "screen stays on";
    wakeLock.addEventListener("release", () => { if (filming) $("wake").textContent = "screen may sleep"; });
  } catch (err) {
    $("wake").textContent = "screen may sleep";
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && filming) keepAwake();
});

const canvas = document.createElement("canvas");
let quality = 0.8;
let rtt = 0;          // the frames' round trip, smoothed (ms)
let sent = 0;
let rateSince = performance.now();

function grab() {
  const video = $("video");
  if (!video.videoWidth) return null;
  const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
  const w = Math.round(video.videoWidth * scale), h = Math.round(video.videoHeight * scale);
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  canvas.getContext("2d").drawImage(video, 0, 0, w, h);
  frameSize = [w, h];
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

async function frameLoop() {
  let wait = MIN_INTERVAL_MS;
  while (filming) {
    const began = performance.now();
    const t = began / 1000;
    const blob = await grab();
    if (!blob) { await sleep(100); continue; }
    const form = new FormData();
    form.append("image", blob, "frame.jpg");
    form.append("t", t.toFixed(3));
    try {
      const r = await fetch(`${api}/frames`, {
        method: "POST", body: form, headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(FRAME_TIMEOUT_MS),
      });
      const took = performance.now() - began;
      rtt = rtt ? 0.8 * rtt + 0.2 * took : took;
      online = true;
      showOnline(outbox.online);
      if (r.ok) {
        const answer = await r.json();
        sent += 1;
        lastCards = answer.cards || [];
        wait = answer.wait_ms || MIN_INTERVAL_MS;
        $("reason").textContent = answer.watching ? "" : answer.reason;
        if (answer.accepted.length || answer.refused.length) refreshCamera();
      } else if (r.status === 401 || r.status === 403) {
        $("reason").textContent = "The scorer's access was refused: scan the table's QR code again.";
        localStorage.removeItem(TOKEN_KEY);
        token = null;
        stop();
        $("no-token").hidden = false;
        return;
      } else {
        wait = 1000;  // the server is busy or has no model: slow down, keep trying
        $("reason").textContent = `The server answered ${r.status}: ${(await r.text()).slice(0, 200)}`;
      }
    } catch (err) {
      online = false;  // the frame is dropped: the next one is taken fresh when back
      showOnline(false);
      wait = 1000;
    }
    // on a slow network send less and smaller; the server's pace is the floor
    quality = rtt > 300 ? 0.6 : 0.8;
    const interval = Math.max(wait, Math.min(MAX_INTERVAL_MS, rtt));
    updateRate();
    drawOverlay();
    await sleep(Math.max(0, interval - (performance.now() - began)));
  }
}

function updateRate() {
  const now = performance.now();
  if (now - rateSince >= 2000) {
    const fps = (sent * 1000) / (now - rateSince);
    $("rate").textContent = online ? `${fps.toFixed(1)} frames/s \u00b7 ${Math.round(rtt)} ms` : "offline";
    document.body.dataset.fps = fps.toFixed(1);
    sent = 0;
    rateSince = now;
  }
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

// -- the live view: seat areas and the cards followed -----------------------------------------

const SEAT_COLOURS = ["#4fc3f7", "#ff8a65", "#aed581", "#ba68c8", "#ffd54f", "#4db6ac", "#f06292", "#90a4ae"];

function drawOverlay() {
  const video = $("video"), overlay = $("overlay");
  const box = video.getBoundingClientRect();
  if (!box.width || !video.videoWidth) return;
  overlay.width = Math.round(box.width);
  overlay.height = Math.round(box.height);
  const ctx = overlay.getContext("2d");
  ctx.clearRect(0, 0, overlay.width, overlay.height);
  // object-fit: contain: where the picture lies in the element
  const s = Math.min(box.width / video.videoWidth, box.height / video.videoHeight);
  const pw = video.videoWidth * s, ph = video.videoHeight * s;
  const ox = (box.width - pw) / 2, oy = (box.height - ph) / 2;
  const at = (fx, fy) => [ox + fx * pw, oy + fy * ph];
  const seats = (cam && cam.seats) || [];
  seats.forEach((seat, k) => {
    if (!seat.area) return;
    ctx.beginPath();
    seat.area.forEach(([x, y], i) => { const [px, py] = at(x, y); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
    ctx.closePath();
    ctx.fillStyle = SEAT_COLOURS[k % SEAT_COLOURS.length] + "22";
    ctx.strokeStyle = SEAT_COLOURS[k % SEAT_COLOURS.length];
    ctx.lineWidth = 2;
    ctx.fill();
    ctx.stroke();
    const mid = seat.area[Math.floor(seat.area.length / 2)];
    const [lx, ly] = at((seat.area[0][0] + 2 * mid[0]) / 3, (seat.area[0][1] + 2 * mid[1]) / 3);
    ctx.font = "bold 15px system-ui, sans-serif";
    ctx.fillStyle = "#fff";
    ctx.strokeStyle = "#000";
    ctx.lineWidth = 3;
    ctx.strokeText(seat.name, lx - 20, ly);
    ctx.fillText(seat.name, lx - 20, ly);
  });
  if (!frameSize) return;
  for (const c of lastCards) {
    ctx.beginPath();
    c.quad.forEach(([x, y], i) => {
      const [px, py] = at(x / frameSize[0], y / frameSize[1]);
      if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    });
    ctx.closePath();
    ctx.strokeStyle = c.card ? "#5fe07a" : "#f2c14e";
    ctx.lineWidth = 2;
    ctx.stroke();
    if (c.card) {
      const [px, py] = at(c.quad[0][0] / frameSize[0], c.quad[0][1] / frameSize[1]);
      ctx.fillStyle = "#5fe07a";
      ctx.font = "bold 14px system-ui, sans-serif";
      ctx.fillText(c.card, px, py - 4);
    }
  }
}

// the view takes the picture's shape: landscape, or portrait from a phone held upright
function fitStage() {
  const video = $("video");
  if (video.videoWidth) $("stage").style.aspectRatio = `${video.videoWidth} / ${video.videoHeight}`;
  drawOverlay();
}

window.addEventListener("resize", fitStage);
$("video").addEventListener("resize", fitStage);

// -- the server camera's state ----------------------------------------------------------------

let refreshing = false;
async function refreshCamera() {
  if (refreshing) return;
  refreshing = true;
  try {
    cam = await getJSON(`${api}/camera`);
    render();
  } catch (err) {
    // offline: shown by the frames and the outbox
  } finally {
    refreshing = false;
  }
}
setInterval(refreshCamera, 1000);

// -- what the page shows ----------------------------------------------------------------------

function name(seat) { return state ? state.players[seat] : `seat ${seat}`; }

function render() {
  if (!state) return;
  $("title").textContent = state.name;
  $("subtitle").textContent = `${state.game} \u00b7 camera`;
  document.title = `${state.name} - camera`;
  document.body.dataset.seq = state.seq;
  renderSetup();
  renderHand();
  renderAsks();
  renderSeats();
  drawOverlay();
}

function post(event, label) {
  showError("");
  outbox.add(`${api}/events`, event, token, label);
}

function button(text, onclick, extra) {
  return el("button", { type: "button", class: extra || "", onclick }, text);
}

// The deal, the face-up card and the bidding, tapped in: what the camera cannot know.
let choice = { dealer: null, upcard: null };

function renderSetup() {
  const cur = state.current;
  const body = $("setup-body");
  const gameOver = state.games.length && state.games[state.games.length - 1].over;
  const needDeal = !cur || cur.over || gameOver;
  $("setup").hidden = false;
  if (needDeal) {
    $("setup-title").textContent = cur ? `Hand ${cur.number + 1}: the deal` : "The first deal";
    if (choice.dealer === null) choice.dealer = cur && !gameOver ? (cur.dealer + 1) % state.players.length : 0;
    const dealers = state.players.map((p, i) => button(p, () => { choice.dealer = i; render(); },
      `chip ${choice.dealer === i ? "on" : ""}`));
    const parts = [el("div", { class: "label" }, "Dealer"), el("div", { class: "chips", id: "dealer" }, dealers)];
    if (state.game !== "clag") {
      const seen = [...new Set(lastCards.map((c) => c.card).filter(Boolean))];
      parts.push(el("div", { class: "label" }, "Face-up card"),
        el("div", { class: "chips", id: "upcard" },
          seen.map((c) => el("button", { type: "button", class: `chip card-chip ${choice.upcard === c ? "on" : ""}`, "data-card": c,
            onclick: () => { choice.upcard = c; render(); } }, cardFace(c, "small"))),
          button(choice.upcard && !seen.includes(choice.upcard) ? `${choice.upcard} \u270e` : "choose\u2026",
            () => pick("The face-up card", state.game, new Set(), (c) => { choice.upcard = c; render(); }), "secondary"),
          seen.length ? null : el("span", { class: "muted small" }, " (or lay it in view: the camera reads it)")));
    }
    const ready = state.game === "clag" || choice.upcard;
    parts.push(el("div", {}, el("button", { type: "button", id: "deal", disabled: ready ? null : "disabled",
      onclick: () => {
        const event = { type: "deal", dealer: choice.dealer };
        if (state.game !== "clag") event.upcard = choice.upcard;
        post(event, "the deal");
        choice = { dealer: null, upcard: null };
      } }, "Deal")));
    replace(body, parts);
    return;
  }
  const phase = cur.phase;
  if (phase === "play") {
    $("setup-title").textContent = `Hand ${cur.number}: filming`;
    const bids = (cur.bids || []).map((b) => `${name(b.seat)} ${b.bid}`).join(", ");
    replace(body, el("p", { class: "muted" }, `dealer ${name(cur.dealer)}`,
      cur.upcard ? [" \u00b7 face-up ", cardFace(cur.upcard, "small")] : "",
      " \u00b7 trump ", suitMark(cur.trump), bids ? ` \u00b7 ${bids}` : ""));
    return;
  }
  $("setup-title").textContent = `Hand ${cur.number}: ${phase === "trump" ? "the trump card" : "bidding"}`;
  const seat = cur.to_move;
  const who = seat === null || seat === undefined ? "" : name(seat);
  const options = bidOptions(state.game, cur);
  const rows = [el("p", {}, "Dealer ", el("strong", {}, name(cur.dealer)),
    cur.upcard ? [" \u00b7 face-up ", cardFace(cur.upcard, "small")] : "")];
  if ((cur.bids || []).length)
    rows.push(el("p", { class: "muted" }, cur.bids.map((b) => `${name(b.seat)}: ${b.bid}`).join(" \u00b7 ")));
  if (phase === "trump") {
    rows.push(button("the trump card\u2026", () => pick("The turned trump card", "clag", new Set(),
      (c) => post({ type: "trump", card: c }, "the trump card"))));
  } else if (phase === "choose") {
    rows.push(el("div", { class: "label" }, `${who} chooses trump`),
      el("div", { class: "chips" }, ["S", "H", "D", "C"].map((s) => button(SUITS[s], () =>
        post({ type: "choose_trump", suit: s }, "the trump suit"), "chip suit-chip")),
        button("no trump", () => post({ type: "choose_trump", suit: null }, "the trump suit"), "chip")));
  } else {
    rows.push(el("div", { class: "label" }, "Bid of ", el("strong", { id: "to-bid" }, who)),
      el("div", { class: "chips", id: "bids" }, options.map(([label, bid]) =>
        el("button", { type: "button", class: "chip", "data-bid": bid,
          onclick: () => post({ type: "bid", seat, bid }, `${who}'s bid`) }, label))));
  }
  replace(body, rows);
}

function bidOptions(game, cur) {
  const suits = ["S", "H", "D", "C"].filter((s) => !cur.upcard || s !== cur.upcard.slice(-1));
  const suitButtons = suits.map((s) => [SUITS[s], s]);
  if (game === "clag") {
    return Array.from({ length: (cur.hand_size || 7) + 1 }, (_, n) => [String(n), n]);
  }
  const second = game === "clabber" ? cur.phase === "bid2" : (cur.bids || []).length >= state.players.length;
  if (game === "clabber") return second ? [...suitButtons, ["pass", "pass"]] : [["play", "play"], ["pass", "pass"]];
  if (second) return [...suitButtons, ["pass", "pass"]];
  const first = [["accept", "accept"], ["pass", "pass"]];
  if (game === "klaberjass") first.push(["schmeiss", "schmeiss"], ["agree", "agree"], ["refuse", "refuse"]);
  return first;
}

function renderHand() {
  const cur = state.current;
  const box = $("trick");
  if (!cur || cur.phase !== "play") {
    $("trick-title").textContent = "Trick";
    replace(box);
    $("hand-note").textContent = cur && cur.over ? `hand ${cur.number} over` : "";
  } else {
    const done = cur.tricks || [];
    $("trick-title").textContent = `Trick ${done.length + 1}`;
    replace(box, (cur.trick || []).map((p) => el("div", { class: "play", "data-seat": p.seat },
      cardFace(p.card), el("span", { class: "who" }, name(p.seat)))));
    const lead = leader(state);
    const notes = [];
    if (lead !== null && lead !== undefined) notes.push(`${name(lead)} leads`);
    if (cur.to_move !== null && cur.to_move !== undefined) notes.push(`${name(cur.to_move)} to play`);
    const last = done[done.length - 1];
    if (last) notes.push(`last trick ${last.cards.join(" ")} to ${name(last.winner)}`);
    $("hand-note").textContent = notes.join(" \u00b7 ");
  }
  const points = trickPoints(state);
  replace($("scores"), state.sides.map((seats, i) => el("div", { class: `side s${i % 2}`, "data-side": i },
    el("div", { class: "who" }, seats.map((s) => state.players[s]).join(" & ")),
    el("div", { class: "total", "data-total": i }, state.totals[i]),
    points ? el("div", { class: "muted small", "data-points": i }, `${points[i]} in tricks`) : null)));
}

// Plays the camera missed, read in doubt, or could not post: tap the right card.
function renderAsks() {
  const asks = cam && cam.watching ? cam.plays.filter((p) => p.ask) : [];
  $("asks").hidden = !asks.length;
  const played = playedCards(state);
  replace($("ask-list"), asks.map((p) => {
    const what = p.card === null
      ? `${name(p.seat)}'s card to trick ${p.trick} was not seen`
      : `${name(p.seat)}'s card to trick ${p.trick} reads ${p.card}`;
    const answer = (card) => outbox.add(`${api}/camera/plays/${p.index}`, { deal: cam.deal, card },
      token, `play ${p.index + 1}`);
    const candidates = p.candidates.length ? p.candidates : p.card ? [p.card] : [];
    return el("div", { class: "ask", "data-play": p.index },
      el("p", {}, what, p.reason ? el("span", { class: "muted small" }, ` (${p.reason})`) : ""),
      el("div", { class: "chips" },
        candidates.map((c) => el("button", { type: "button", class: "chip card-chip", "data-card": c,
          onclick: () => answer(c) }, cardFace(c, "small"))),
        el("button", { type: "button", class: "secondary name-card", onclick: () =>
          pick(`${name(p.seat)}'s card to trick ${p.trick}`, state.game, played, answer) }, "name the card\u2026")));
  }));
}

function renderSeats() {
  replace($("bottom-seat"), state.players.map((p, i) => button(p, () => { bottomSeat = i; render(); },
    `chip ${bottomSeat === i ? "on" : ""}`)));
  if (cam && cam.frames) {
    $("seats-note").textContent = cam.calibrated ? "seats found from the cards" :
      `overhead: ${name(cam.bottom_seat)} at the bottom edge, the others clockwise`;
  }
}

async function calibrate(withFrame) {
  $("seats-note").textContent = "finding the seats\u2026";
  const form = new FormData();
  form.append("bottom_seat", String(bottomSeat));
  if (withFrame) {
    const blob = filming ? await grab() : null;
    if (!blob) { $("seats-note").textContent = "start filming first"; return; }
    form.append("image", blob, "setup.jpg");
  }
  try {
    const r = await fetch(`${api}/camera/seats`, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } });
    const answer = await r.json();
    if (!r.ok) { $("seats-note").textContent = describe(answer, r.status); return; }
    cam = answer.camera;
    if (answer.found) lastCards = answer.found.map((quad) => ({ quad, card: null }));
    render();
    $("seats-note").textContent = answer.calibrated ? `seats found (fit ${answer.fit_px} px): pick up the cards` :
      `overhead: ${name(bottomSeat)} at the bottom edge`;
  } catch (err) {
    $("seats-note").textContent = "offline: try again when the network is back";
  }
}

// A card picker: the game's deck, cards already played greyed out.
function pick(title, game, played, onPick) {
  $("picker-title").textContent = title;
  replace($("picker-grid"), deckOf(game).map((c) => el("button", {
    type: "button", class: `pick ${played.has(c) ? "played" : ""}`, "data-card": c,
    onclick: () => { $("picker").hidden = true; onPick(c); },
  }, cardFace(c, "small"))));
  $("picker").hidden = false;
}

$("picker-cancel").addEventListener("click", () => { $("picker").hidden = true; });
$("start").addEventListener("click", start);
$("stop").addEventListener("click", stop);
$("calibrate").addEventListener("click", () => calibrate(true));
$("overhead").addEventListener("click", () => calibrate(false));
$("token-save").addEventListener("click", () => {
  const value = $("token-input").value.trim();
  if (!value) return;
  localStorage.setItem(TOKEN_KEY, value);
  token = value;
  $("no-token").hidden = true;
  outbox.pump();
});
window.addEventListener("online", () => outbox.pump());

if (!token) $("no-token").hidden = false;
follow(`${api}/stream`, $("live"), (m) => {
  if (m.state) { state = m.state; render(); }
});
refreshCamera();
outbox.pump();
