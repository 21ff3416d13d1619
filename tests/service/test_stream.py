"""Server-sent events from a real uvicorn server (in a thread): the state on connect, then
every accepted event with the new state; rejected events are not broadcast. Every wait is
bounded. The heartbeat (15 s) is longer than the waits (10 s), so a stream that buffered its
messages until the next write would fail here; latency is measured in bench/, not here."""

from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4, ThreadServer

from service.app import create_app
from service.settings import Settings

TIMEOUT = httpx.Timeout(10.0)


def read_messages(url: str, out: queue.Queue[Any], stop: threading.Event) -> None:
    """Follow the stream; put each ``data:`` message (decoded) and its arrival time on ``out``."""
    try:
        with httpx.stream("GET", url, timeout=TIMEOUT) as r:
            out.put(("status", r.status_code, r.headers.get("content-type")))
            for line in r.iter_lines():
                if line.startswith("data: "):
                    out.put((json.loads(line[6:]), time.perf_counter()))
                if stop.is_set():
                    return
    except Exception as exc:  # reported to the test thread, which fails on it
        out.put(("error", repr(exc)))


def test_stream_sends_the_state_then_each_accepted_event(tmp_path: Path) -> None:
    # one process: no database polling, so every message is the broadcast "event" kind
    app = create_app(
        Settings(
            organiser_pin=ORGANISER_PIN,
            db=str(tmp_path / "live.db"),
            stream_heartbeat_s=15.0,
            stream_poll_s=0,
        )
    )
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=TIMEOUT) as http:
        created = http.post(
            "/api/tables",
            json={"game": "clabber", "name": "T", "players": PLAYERS4},
            headers=ORGANISER,
        ).json()
        table, auth = created["id"], {"Authorization": f"Bearer {created['scorer_token']}"}
        http.post(
            f"/api/tables/{table}/events",
            json={"type": "deal", "dealer": 0, "upcard": "9H"},
            headers=auth,
        )

        messages: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        reader = threading.Thread(
            target=read_messages,
            args=(f"{server.url}/api/tables/{table}/stream", messages, stop),
            daemon=True,
        )
        reader.start()
        assert messages.get(timeout=10) == ("status", 200, "text/event-stream; charset=utf-8")
        first, _ = messages.get(timeout=10)
        assert (
            first["kind"] == "state"
            and first["seq"] == 1
            and first["state"]["current"]["upcard"] == "9H"
        )

        for seat, call in ((1, "pass"), (2, "play")):
            r = http.post(
                f"/api/tables/{table}/events",
                json={"type": "bid", "seat": seat, "bid": call},
                headers=auth,
            )
            assert r.status_code == 200
            message, _ = messages.get(timeout=10)
            assert message["kind"] == "event" and message["seq"] == r.json()["seq"]
            assert message["event"]["event"] == {"type": "bid", "seat": seat, "bid": call}
            assert message["state"] == {
                k: v for k, v in r.json().items() if k not in ("accepted", "repeated")
            }
        # a refused event is not broadcast; the next accepted one is
        assert (
            http.post(
                f"/api/tables/{table}/events",
                json={"type": "bid", "seat": 3, "bid": "pass"},
                headers=auth,
            ).status_code
            == 409
        )
        http.post(f"/api/tables/{table}/events", json={"type": "undo"}, headers=auth)
        message, _ = messages.get(timeout=10)
        assert (
            message["event"]["event"] == {"type": "undo"}
            and message["state"]["current"]["maker"] is None
        )
        stop.set()


def test_stream_of_an_unknown_table_is_404(tmp_path: Path) -> None:
    app = create_app(Settings(organiser_pin=ORGANISER_PIN, db=str(tmp_path / "live.db")))
    with ThreadServer(app) as server:
        assert httpx.get(f"{server.url}/api/tables/nope/stream", timeout=TIMEOUT).status_code == 404


def test_a_stream_sees_events_another_worker_committed(tmp_path: Path) -> None:
    """Two servers (as two workers would be) on one database file: events posted through one
    reach a stream opened on the other, by its database poll."""
    db = str(tmp_path / "shared.db")
    first = create_app(Settings(organiser_pin=ORGANISER_PIN, db=db, stream_poll_s=0.1))
    second = create_app(Settings(organiser_pin=ORGANISER_PIN, db=db, stream_poll_s=0.1))
    with ThreadServer(first) as a, ThreadServer(second) as b, httpx.Client(timeout=TIMEOUT) as http:
        created = http.post(
            f"{a.url}/api/tables",
            json={"game": "clabber", "name": "T", "players": PLAYERS4},
            headers=ORGANISER,
        ).json()
        table, auth = created["id"], {"Authorization": f"Bearer {created['scorer_token']}"}
        messages: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        threading.Thread(
            target=read_messages,
            args=(f"{a.url}/api/tables/{table}/stream", messages, stop),
            daemon=True,
        ).start()
        assert messages.get(timeout=10)[1] == 200
        assert messages.get(timeout=10)[0]["seq"] == 0
        deal = {"type": "deal", "dealer": 0, "upcard": "9H"}
        assert (
            http.post(f"{b.url}/api/tables/{table}/events", json=deal, headers=auth).status_code
            == 200
        )
        message, _ = messages.get(timeout=10)
        assert message["kind"] == "state" and message["seq"] == 1
        assert [e["event"] for e in message["events"]] == [deal]
        assert message["state"]["current"]["upcard"] == "9H"
        # and the first worker's own state is up to date too (its cache follows the database)
        assert http.get(f"{a.url}/api/tables/{table}").json()["seq"] == 1
        stop.set()
