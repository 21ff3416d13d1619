"""End to end: the real ``trickcam serve`` in a subprocess, killed with SIGKILL while events
are being posted and a live stream is open, restarted on the same database file: every
acknowledged event is there, and retrying the rest with their Idempotency-Keys finishes
the hand with nothing applied twice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from svc_helpers import BASE_SCORE, ORGANISER, ORGANISER_PIN, PLAYERS4, base_hand_events, free_port

from cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 30.0


def serve_command(db: Path, port: int, *extra: str) -> list[str]:
    args = ["--db", str(db), "--port", str(port), "--log-level", "warning", *extra]
    if any(name == "serve" for name, _ in COMMANDS):
        return [sys.executable, "-m", "cli.main", "serve", *args]
    return [sys.executable, "-m", "cli.serve", *args]  # until the CLI lists it


@contextmanager
def running_server(db: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``trickcam serve`` on a free port, in its own process group (so that its workers, if
    any, are killed with it)."""
    port = free_port()
    proc = subprocess.Popen(
        serve_command(db, port, *extra),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "TRICKCAM_ORGANISER_PIN": ORGANISER_PIN},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"trickcam serve exited with {proc.returncode}: {err}")
            try:
                if httpx.get(f"{url}/api/tables", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("trickcam serve did not answer in time")
            time.sleep(0.05)
        yield proc, url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the group this test started
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()


def follow(url: str, seen: list[str], started: threading.Event, done: threading.Event) -> None:
    try:
        with httpx.stream("GET", url, timeout=httpx.Timeout(10.0)) as r:
            for line in r.iter_lines():
                seen.append(line)
                if line.startswith("data: "):
                    started.set()
    except httpx.HTTPError:
        pass  # the server was killed under us: expected
    finally:
        done.set()


def test_sigkill_mid_stream_loses_no_acknowledged_event(tmp_path: Path) -> None:
    db = tmp_path / "night.db"
    events = base_hand_events()
    acked: list[int] = []  # indexes of the events the server acknowledged (200)
    with running_server(db) as (proc, url):
        created = httpx.post(
            f"{url}/api/tables",
            json={"game": "clabber", "name": "Table 4", "players": PLAYERS4},
            timeout=10,
            headers=ORGANISER,
        ).json()
        table, token = created["id"], created["scorer_token"]
        auth = {"Authorization": f"Bearer {token}"}
        stream_lines: list[str] = []
        stream_started, stream_done = threading.Event(), threading.Event()
        reader = threading.Thread(
            target=follow,
            args=(f"{url}/api/tables/{table}/stream", stream_lines, stream_started, stream_done),
            daemon=True,
        )
        reader.start()
        assert stream_started.wait(15), "the stream sent nothing"

        ten_acked, killed = threading.Event(), threading.Event()

        def poster() -> None:
            try:
                with httpx.Client(base_url=url, timeout=10) as http:
                    for i, event in enumerate(events):
                        if i == len(events) - 1:
                            killed.wait(30)  # the last event waits for the kill: always mid-hand
                        try:
                            r = http.post(
                                f"/api/tables/{table}/events",
                                json=event,
                                headers={**auth, "Idempotency-Key": f"ev-{i}"},
                            )
                        except httpx.HTTPError:
                            return  # killed
                        assert r.status_code == 200, r.text
                        acked.append(i)
                        if len(acked) == 10:
                            ten_acked.set()  # killed from here on, while the next ones go out
            finally:
                ten_acked.set()

        posting = threading.Thread(target=poster, daemon=True)
        posting.start()
        assert ten_acked.wait(30) and len(acked) >= 10, "posting stalled"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        killed.set()
        posting.join(15)
        assert not posting.is_alive()
        assert stream_done.wait(15), "the stream did not end when the server died"
        assert sum(line.startswith("data: ") for line in stream_lines) >= 2  # state + events

    assert 10 <= len(acked) < len(events), "the kill came after the whole hand: nothing tested"
    with running_server(db) as (_proc, url), httpx.Client(base_url=url, timeout=10) as http:
        log = http.get(f"/api/tables/{table}/events").json()
        stored = [e["event"] for e in log]
        # every acknowledged event is there, in order; at most the one in flight besides
        assert stored[: len(acked)] == [events[i] for i in acked] == events[: len(acked)]
        assert len(stored) in (len(acked), len(acked) + 1)
        # retry everything not acknowledged with its key: applied once each
        for i in range(len(acked), len(events)):
            r = http.post(
                f"/api/tables/{table}/events",
                json=events[i],
                headers={**auth, "Idempotency-Key": f"ev-{i}"},
            )
            assert r.status_code == 200, r.text
        state: dict[str, Any] = http.get(f"/api/tables/{table}").json()
        assert state["seq"] == len(events)
        assert [h["score"] for h in state["hands"]] == [BASE_SCORE]


def test_several_workers_share_the_database_and_every_stream_sees_every_event(
    tmp_path: Path,
) -> None:
    events = base_hand_events()
    with (
        running_server(tmp_path / "room.db", "--workers", "2") as (_proc, url),
        httpx.Client(base_url=url, timeout=10) as http,
    ):
        created = http.post(
            "/api/tables",
            json={"game": "clabber", "name": "T", "players": PLAYERS4},
            headers=ORGANISER,
        ).json()
        table, auth = created["id"], {"Authorization": f"Bearer {created['scorer_token']}"}
        lines: list[str] = []
        started, done = threading.Event(), threading.Event()
        threading.Thread(
            target=follow,
            args=(f"{url}/api/tables/{table}/stream", lines, started, done),
            daemon=True,
        ).start()
        assert started.wait(15)
        for i, event in enumerate(events):
            # a new connection each time: the OS hands each to either worker (not checked)
            r = httpx.post(
                f"{url}/api/tables/{table}/events",
                json=event,
                headers={**auth, "Idempotency-Key": f"w{i}"},
                timeout=10,
            )
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            seqs = [json.loads(x[6:])["seq"] for x in list(lines) if x.startswith("data: ")]
            if seqs and seqs[-1] == len(events):
                break
            time.sleep(0.05)
        assert seqs[-1] == len(events) and seqs == sorted(set(seqs))
        state = http.get(f"/api/tables/{table}").json()
        assert state["seq"] == len(events) and state["hands"][0]["score"] == BASE_SCORE
