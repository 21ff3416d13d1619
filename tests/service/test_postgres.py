"""The service on a real PostgreSQL server (a throwaway cluster, tests/service/pg_cluster.py):
migrations applied once and concurrently, writers in two processes' stores racing one table,
and the real ``trickcam serve --workers 2`` with a live stream on one worker seeing every event
posted to the other. (The API tests run on PostgreSQL too: conftest's ``client`` is
parametrized over both backends.)"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import inspect, text
from svc_helpers import BASE_SCORE, ORGANISER, PLAYERS4, base_hand_events, race_two_stores
from test_serve_process import running_server

from service.db import make_engine, migrate

TIMEOUT = httpx.Timeout(10.0)


def test_migrations_apply_once_even_from_two_processes_at_once(pg_url: str) -> None:
    engines = [make_engine(pg_url), make_engine(pg_url)]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            migrate(engines[i])
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    migrate(engines[0])  # a no-op now
    with engines[0].connect() as conn:
        versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    assert len(versions) == 1  # one row: applied once, whatever the latest revision is
    uniques = {
        tuple(u["column_names"]) for u in inspect(engines[0]).get_unique_constraints("events")
    }
    assert {("table_id", "seq"), ("table_id", "idempotency_key")} <= uniques
    for engine in engines:
        engine.dispose()


def test_two_stores_racing_one_table_keep_a_gap_free_log(pg_url: str) -> None:
    """Two stores (as two worker processes have: separate locks, caches and pools) post the
    same hand to one table with the same Idempotency-Keys: each event applies once, in order;
    the loser of each race retries on the fresh log."""
    table_id, stores, events = race_two_stores(pg_url)
    for store in stores:
        log = store.records(table_id)
        assert [r.seq for r in log] == list(range(1, len(events) + 1))
        assert [r.payload for r in log] == events
        meta = store.meta(table_id)
        assert meta is not None
        assert store.snapshot(meta).state["hands"][0]["score"] == BASE_SCORE
        store.engine.dispose()


# -- which worker process holds a connection (Linux /proc) ----------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(x) for x in (task / "children").read_text().split()]
    return out


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def worker_of(client_port: int, server_port: int, workers: list[int]) -> int | None:
    """The worker process whose socket is the server end of the connection from
    ``client_port`` (None when it is not found yet)."""
    want_local = f"0100007F:{server_port:04X}"
    want_remote = f"0100007F:{client_port:04X}"
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == want_local and fields[2] == want_remote:
            inode = fields[9]
    if inode is None:
        return None
    for pid in workers:
        try:
            if inode in _socket_inodes(pid):
                return pid
        except OSError:
            continue
    return None


def _port(response: httpx.Response) -> int:
    return int(response.extensions["network_stream"].get_extra_info("client_addr")[1])


def test_serve_two_workers_on_postgres_stream_on_one_sees_events_posted_to_the_other(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stream learns of the other worker's commits by PostgreSQL's NOTIFY: its database
    poll is set to a minute, longer than the test waits, so polling cannot be what delivers."""
    monkeypatch.setenv("TRICKCAM_STREAM_POLL_S", "60")
    events = base_hand_events()
    with running_server(pg_url, "--workers", "2") as (proc, url):  # type: ignore[arg-type]
        server_port = int(url.rsplit(":", 1)[1])
        deadline = time.monotonic() + 30
        while len(workers := _children(proc.pid)) < 2:
            assert time.monotonic() < deadline, "two workers did not start"
            time.sleep(0.1)
        created = httpx.post(
            f"{url}/api/tables",
            json={"game": "clabber", "name": "T", "players": PLAYERS4},
            timeout=TIMEOUT,
            headers=ORGANISER,
        ).json()
        table, auth = created["id"], {"Authorization": f"Bearer {created['scorer_token']}"}

        # a stream on one worker, then new connections until one reaches the other worker
        # (the kernel hands each accepted connection to either): the events go through it
        messages: list[dict[str, object]] = []
        on_worker: list[int] = []
        started, stop = threading.Event(), threading.Event()

        def follow() -> None:
            with contextlib.suppress(httpx.HTTPError):  # the server is killed at the end
                read_stream()

        def read_stream() -> None:
            with httpx.stream("GET", f"{url}/api/tables/{table}/stream", timeout=TIMEOUT) as r:
                owner = None
                for _ in range(50):
                    owner = worker_of(_port(r), server_port, workers)
                    if owner is not None:
                        break
                    time.sleep(0.02)
                assert owner is not None
                on_worker.append(owner)
                started.set()
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        messages.append(json.loads(line[6:]))
                    if stop.is_set():
                        return

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        assert started.wait(15)
        stream_worker = on_worker[0]
        poster = None
        for _ in range(100):
            http = httpx.Client(base_url=url, timeout=TIMEOUT)
            r = http.get(f"/api/tables/{table}")
            if worker_of(_port(r), server_port, workers) not in (None, stream_worker):
                poster = http
                break
            http.close()
        assert poster is not None, "no connection reached the other worker"
        try:
            for i, event in enumerate(events):
                r = poster.post(
                    f"/api/tables/{table}/events",
                    json=event,
                    headers={**auth, "Idempotency-Key": f"w{i}"},
                )
                assert r.status_code == 200, r.text
                assert worker_of(_port(r), server_port, workers) != stream_worker
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                if messages and messages[-1]["seq"] == len(events):
                    break
                time.sleep(0.05)
            stop.set()
            seqs = [m["seq"] for m in messages]
            assert seqs[0] == 0 and seqs[-1] == len(events) and seqs == sorted(set(seqs))
            # the other worker's events reached this stream by its database poll
            assert all(m["kind"] == "state" for m in messages)
            seen = [e["event"] for m in messages[1:] for e in m["events"]]  # type: ignore[attr-defined]
            assert seen == events
            state = poster.get(f"/api/tables/{table}").json()
            assert state["seq"] == len(events) and state["hands"][0]["score"] == BASE_SCORE
        finally:
            poster.close()
