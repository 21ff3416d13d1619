"""Service latency: many tables posting hands at once against a real ``trickcam serve``.

Starts the server in a subprocess on a fresh SQLite file, opens one live stream per table,
and posts the hand-checked Clabber hand (26 events) to every table concurrently (one asyncio task per
table, each posting its events one after another, as a scorer's tablet would). Prints the
POST latency (until the committed answer) and the event->stream latency (from sending the
POST to the stream's message), medians and p99, and the events committed per second.

    .venv/bin/python bench/service.py [--tables 256] [--sync FULL|NORMAL]

The client shares the machine with the server: on a small machine its own CPU time counts
in the figures (they are an upper bound of the server's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "service"))

from svc_helpers import PLAYERS4, base_hand_events, free_port  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_table(
    client: httpx.AsyncClient, post_ms: list[float], stream_ms: list[float]
) -> None:
    created = (
        await client.post("/api/tables", json={"game": "clabber", "name": "T", "players": PLAYERS4})
    ).json()
    table, auth = created["id"], {"Authorization": f"Bearer {created['scorer_token']}"}
    arrivals: dict[int, float] = {}
    ready = asyncio.Event()
    events = base_hand_events()

    async def follow() -> None:
        async with client.stream("GET", f"/api/tables/{table}/stream") as r:
            async for line in r.aiter_lines():
                if line.startswith("data: "):
                    seq = json.loads(line[6:])["seq"]
                    arrivals[seq] = time.perf_counter()
                    ready.set()
                    if seq >= len(events):
                        return

    reader = asyncio.create_task(follow())
    await asyncio.wait_for(ready.wait(), 30)
    sent: dict[int, float] = {}
    for i, event in enumerate(events):
        t0 = time.perf_counter()
        r = await client.post(f"/api/tables/{table}/events", json=event, headers=auth)
        post_ms.append(1000 * (time.perf_counter() - t0))
        if r.status_code != 200:
            raise RuntimeError(f"event {i}: {r.status_code} {r.text[:200]}")
        sent[r.json()["seq"]] = t0
    await asyncio.wait_for(reader, 60)
    stream_ms.extend(1000 * (arrivals[s] - t0) for s, t0 in sent.items() if s in arrivals)


async def run_clients(url: str, tables: int) -> tuple[list[float], list[float], float]:
    post_ms: list[float] = []
    stream_ms: list[float] = []
    limits = httpx.Limits(
        max_connections=2 * tables + 10, max_keepalive_connections=2 * tables + 10
    )
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        start = time.perf_counter()
        await asyncio.gather(*(one_table(client, post_ms, stream_ms) for _ in range(tables)))
        elapsed = time.perf_counter() - start
    return post_ms, stream_ms, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument(
        "--sync", default="FULL", choices=("FULL", "NORMAL"), help="SQLite synchronous"
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="trickcam-bench-")
    port = free_port()
    env = {**os.environ, "TRICKCAM_SQLITE_SYNCHRONOUS": args.sync}
    cmd = [sys.executable, "-m", "service.cmd_serve", "--db", f"{folder}/bench.db",
           "--port", str(port), "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/api/tables", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print("bench/service.py: the server did not start", file=sys.stderr)
                    return 2
                time.sleep(0.1)
        client_cpu = time.process_time()
        server_cpu = cpu_seconds(server.pid)
        post_ms, stream_ms, elapsed = asyncio.run(run_clients(url, args.tables))
        client_cpu = time.process_time() - client_cpu
        server_cpu = cpu_seconds(server.pid) - server_cpu
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(15)
    n = len(post_ms)
    print(f"tables {args.tables}, events {n}, SQLite synchronous={args.sync}")
    print(
        f"POST           median {statistics.median(post_ms):7.1f} ms   p99 {percentile(post_ms, 0.99):7.1f} ms"
    )
    print(
        f"event->stream  median {statistics.median(stream_ms):7.1f} ms   p99 {percentile(stream_ms, 0.99):7.1f} ms"
    )
    print(f"throughput     {n / elapsed:7.0f} events/s over {elapsed:.1f} s")
    print(
        f"CPU            server {server_cpu:.1f} s, client {client_cpu:.1f} s "
        f"(server {1000 * server_cpu / n:.2f} ms per event)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
