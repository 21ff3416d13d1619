// Shared by the pages: card faces, small DOM helpers, a live EventSource with a status dot.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RED = new Set(["H", "D"]);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// "10H" -> a card face: rank over a big suit symbol, red for hearts and diamonds.
function cardFace(code, extra) {
  if (!code) return el("span", { class: "card dim" }, "?");
  const suit = code.slice(-1).toUpperCase();
  const rank = code.slice(0, -1).toUpperCase();
  const colour = RED.has(suit) ? "red" : "black";
  return el("span", { class: `card ${colour} ${extra || ""}`, "data-card": code, title: code },
    el("span", { class: "rank" }, rank), el("span", { class: "pip" }, SUITS[suit] || suit));
}

function suitMark(suit) {
  if (!suit) return el("span", { class: "muted" }, "\u2013");
  const s = suit.toUpperCase();
  return el("span", { class: `suit ${RED.has(s) ? "red" : "black"}`, "data-suit": s }, SUITS[s] || s);
}

// Follow a server-sent event stream; the element shows whether it is connected.
function follow(url, status, onMessage) {
  const source = new EventSource(url);
  source.onopen = () => { status.classList.add("on"); status.textContent = "live"; };
  source.onerror = () => { status.classList.remove("on"); status.textContent = "reconnecting"; };
  source.onmessage = (e) => onMessage(JSON.parse(e.data));
  return source;
}

function replace(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
}

async function getJSON(url, options) {
  const r = await fetch(url, options);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}
