// "/camera": a table opened from a phone. Only the club's organiser opens tables: the PIN is
// asked once and kept for this browser session (sessionStorage); the new table's scorer token
// goes to the camera page in the address's fragment, never to a server's log.
"use strict";

const PIN_KEY = "trickcam-organiser-pin";
const SEATS = { clabber: 4, belote: 4, klaberjass: 2 };
const $ = (id) => document.getElementById(id);

function players() {
  const game = $("game").value;
  $("count-label").hidden = game !== "clag";
  const n = SEATS[game] || Math.max(3, Math.min(7, Number($("count").value) || 4));
  const box = $("players");
  const before = [...box.querySelectorAll("input")].map((i) => i.value);
  replace(box, el("legend", {}, "Players, clockwise from any seat"),
    Array.from({ length: n }, (_, i) => el("input", { class: "player", required: "required", maxlength: "40",
      "aria-label": `player ${i + 1}`, value: before[i] || `Player ${i + 1}` })));
}

function pinShown() {
  const kept = sessionStorage.getItem(PIN_KEY);
  $("pin-row").hidden = !!kept;
  $("pin-kept").hidden = !kept;
}

async function create(e) {
  e.preventDefault();
  const error = $("error");
  error.hidden = true;
  const pin = sessionStorage.getItem(PIN_KEY) || $("pin").value.trim();
  const body = {
    game: $("game").value,
    name: $("name").value.trim(),
    players: [...document.querySelectorAll("#players input")].map((i) => i.value.trim()),
  };
  let r;
  try {
    r = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${pin}` },
      body: JSON.stringify(body),
    });
  } catch (err) {
    error.textContent = "Offline: try again when the network is back.";
    error.hidden = false;
    return;
  }
  const answer = await r.json().catch(() => ({}));
  if (r.status === 401 || r.status === 403 || r.status === 429) {
    sessionStorage.removeItem(PIN_KEY);
    pinShown();
  }
  if (!r.ok) {
    const d = answer.detail;
    error.textContent = Array.isArray(d) ? d.map((x) => x.msg).join("; ") : d || `refused (${r.status})`;
    error.hidden = false;
    return;
  }
  sessionStorage.setItem(PIN_KEY, pin);
  location.assign(`/tables/${encodeURIComponent(answer.id)}/camera#token=${encodeURIComponent(answer.scorer_token)}`);
}

$("game").addEventListener("change", players);
$("count").addEventListener("change", players);
$("forget").addEventListener("click", () => { sessionStorage.removeItem(PIN_KEY); pinShown(); });
$("new-table").addEventListener("submit", create);
players();
pinShown();
