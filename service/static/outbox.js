// An outbox of requests that must reach the server, in order, each exactly once: every item
// carries its Idempotency-Key, is retried until the server acknowledges it (a network error,
// a 5xx or a 429: again later; a 4xx: refused for good, said once), and lives in the
// browser's storage so that a reload or a dead battery loses nothing typed in.
"use strict";

class Outbox {
  constructor(name, onChange) {
    this.name = name;
    this.onChange = onChange || (() => {});
    this.items = JSON.parse(localStorage.getItem(name) || "[]");
    this.busy = false;
    this.delay = 500;
    this.online = true;
  }

  save() {
    localStorage.setItem(this.name, JSON.stringify(this.items));
    this.onChange(this);
  }

  // Queue a request; `label` says what it is when it is refused.
  add(url, body, token, label) {
    const key = `phone-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    this.items.push({ url, body, token, label, key });
    this.save();
    this.pump();
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.items.length) {
        const item = this.items[0];
        let r;
        try {
          r = await fetch(item.url, {
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${item.token}`,
              "Idempotency-Key": item.key },
            body: JSON.stringify(item.body),
            signal: AbortSignal.timeout(8000),
          });
        } catch (err) {
          this.setOnline(false);
          await this.wait();
          continue;
        }
        this.setOnline(true);
        if (r.status >= 500 || r.status === 429) { await this.wait(); continue; }
        this.delay = 500;
        let answer = null;
        try { answer = await r.json(); } catch (err) { answer = null; }
        this.items.shift();
        this.save();
        if (r.ok) this.onChange(this, { item, answer });
        else this.onChange(this, { item, answer, refused: describe(answer, r.status) });
      }
    } finally {
      this.busy = false;
    }
  }

  wait() {
    const d = this.delay;
    this.delay = Math.min(this.delay * 2, 5000);
    return new Promise((resolve) => setTimeout(resolve, d));
  }

  setOnline(on) {
    if (this.online !== on) { this.online = on; this.onChange(this); }
  }
}

function describe(answer, status) {
  const d = answer && answer.detail;
  if (Array.isArray(d)) return d.map((e) => e.msg).join("; ");
  return d ? String(d) : `refused (${status})`;
}
