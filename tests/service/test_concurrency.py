"""Writers in parallel against a real server: tables written side by side keep gap-free
logs, and two clients racing the same events with the same Idempotency-Keys apply each once
(no 5xx, no lost or doubled event)."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
from svc_helpers import (
    BASE_SCORE,
    ORGANISER,
    ORGANISER_PIN,
    PLAYERS4,
    ThreadServer,
    base_hand_events,
)

from service.app import create_app
from service.settings import Settings


def test_parallel_writers(tmp_path: Path) -> None:
    app = create_app(Settings(organiser_pin=ORGANISER_PIN, db=str(tmp_path / "busy.db")))
    events = base_hand_events()
    failures: list[str] = []
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        tables = []
        for n in range(4):
            body = http.post(
                "/api/tables",
                json={"game": "clabber", "name": f"T{n}", "players": PLAYERS4},
                headers=ORGANISER,
            ).json()
            tables.append((body["id"], {"Authorization": f"Bearer {body['scorer_token']}"}))

        def writer(table: str, auth: dict[str, str]) -> None:
            with httpx.Client(base_url=server.url, timeout=30) as c:
                for i, event in enumerate(events):
                    r = c.post(
                        f"/api/tables/{table}/events",
                        json=event,
                        headers={**auth, "Idempotency-Key": f"k{i}"},
                    )
                    if r.status_code != 200:
                        failures.append(f"{table} event {i}: {r.status_code} {r.text}")

        # tables 0-2: one writer each; table 3: two writers racing with the same keys
        jobs = [(t, a) for t, a in tables] + [tables[3]]
        threads = [threading.Thread(target=writer, args=job, daemon=True) for job in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads)
        assert failures == []
        for table, _ in tables:
            log = http.get(f"/api/tables/{table}/events").json()
            assert [e["seq"] for e in log] == list(range(1, len(events) + 1))
            assert [e["event"] for e in log] == events
            assert http.get(f"/api/tables/{table}").json()["hands"][0]["score"] == BASE_SCORE
