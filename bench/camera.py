"""Phones filming tables: frames per CPU second on the server, and the delay from a card
landing on the table to its play on the table's live page.

Starts a real ``trickcam serve`` (a fresh SQLite file, the shipped card model, one worker, or
``--workers N --proxy nginx``), opens ``--tables`` tables set up with the bundled hand's deal
and bidding, and for each table plays the part of a phone: the bundled rendered hand
(datasets/samples/clabber_hand.mp4, 640x360) is sent as JPEG frames (quality 80, encoded once
beforehand) at ``--fps`` in real time, one at a time as the page does (the next frame only once
the answer came), while one live stream per table (``/api/tables/{id}/stream``, what the
table's page reads) receives the plays.

Measured:

* frames per CPU second: the frames the server answered over the CPU seconds its processes
  used meanwhile (``/proc``: user + system, every worker and nginx), and from that the tables
  one core serves at 5 frames a second;
* card to page: the moment a play's event arrives on the table's stream, less the moment its
  card came to rest in the video (the rendered truth's ``t_rest``, on the wall clock of the
  phone that started sending the video at its time 0): median and p99 over every play;
* plays right: the cards the server posted against the true record.

    .venv/bin/python bench/camera.py [--tables 4] [--fps 5] [--seconds 65] [--workers N]

Measured 2026-12-01 on the shared 2-core dev box (load average 6-7 from other jobs): --tables 4:
1281 frames answered, 42 frames per CPU second (23.7 ms a frame), 8 tables per core at 5 fps,
card to page median 0.51 s / p99 0.83 s over 96 plays, 96/96 right. --tables 2 --workers 2
(nginx in front): 42 frames per CPU second, median 0.48 s / p99 0.60 s, 48/48 right.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import httpx

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "datasets" / "samples" / "clabber_hand.mp4"
PIN = "bench-organiser-pin"
PLAYERS = ["North", "East", "South", "West"]
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process ``root`` and its descendants (still alive)."""
    total = 0.0
    for pid in [root, *descendants(root)]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def frames(fps: float, seconds: float) -> list[tuple[float, bytes]]:
    """The sample's frames at ``fps`` (its own 10 a second, some left out), as JPEG."""
    capture = cv2.VideoCapture(str(SAMPLE))
    own = capture.get(cv2.CAP_PROP_FPS) or 10.0
    out, i, due = [], 0, 0.0
    while True:
        ok, frame = capture.read()
        t = i / own
        i += 1
        if not ok or t > seconds:
            break
        if t + 1e-9 < due:
            continue
        due += 1.0 / fps
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        out.append((t, bytes(data.tobytes())))
    capture.release()
    return out


class Phone(threading.Thread):
    """One table's phone: frames in real time, one request at a time (dropped if late)."""

    def __init__(self, base: str, table: dict[str, Any], shots: list[tuple[float, bytes]]) -> None:
        super().__init__(daemon=True)
        self.base, self.table, self.shots = base, table, shots
        self.start_wall = 0.0
        self.sent = self.dropped = self.failed = 0

    def run(self) -> None:
        url = f"{self.base}/api/tables/{self.table['id']}/frames"
        auth = {"Authorization": f"Bearer {self.table['scorer_token']}"}
        with httpx.Client(timeout=10) as client:
            self.start_wall = time.time()
            for t, data in self.shots:
                due = self.start_wall + t
                now = time.time()
                if now > due + 0.25:  # the previous answer came late: this frame is stale
                    self.dropped += 1
                    continue
                time.sleep(max(0.0, due - now))
                r = client.post(
                    url, files={"image": ("f.jpg", data, "image/jpeg")}, data={"t": f"{t:.3f}"},
                    headers=auth,
                )  # fmt: skip
                if r.status_code == 200:
                    self.sent += 1
                else:
                    self.failed += 1


class Page(threading.Thread):
    """One table's live page: the wall-clock arrival of each play on its stream."""

    def __init__(self, base: str, table_id: str) -> None:
        super().__init__(daemon=True)
        self.url = f"{base}/api/tables/{table_id}/stream"
        self.plays: list[tuple[float, int, str]] = []  # (arrival, seat, card)
        self.stop = threading.Event()

    def run(self) -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server stopped at the end
            self.read()

    def read(self) -> None:
        with httpx.Client(timeout=None) as client, client.stream("GET", self.url) as r:
            for line in r.iter_lines():
                if self.stop.is_set():
                    return
                if not line.startswith("data:"):
                    continue
                message = json.loads(line[5:])
                event = (message.get("event") or {}).get("event") or {}
                if message.get("kind") == "event" and event.get("type") == "play":
                    self.plays.append((time.time(), int(event["seat"]), str(event["card"])))


def start_server(folder: Path, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    extra = ["--workers", str(workers), "--proxy", "nginx"] if workers > 1 else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(folder / "bench.db"),
         "--port", str(port), "--log-level", "warning", *extra],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=(folder / "serve.log").open("wb"),
        start_new_session=True, env={**os.environ, "TRICKCAM_ORGANISER_PIN": PIN},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            sys.exit(f"trickcam serve exited: {(folder / 'serve.log').read_text()[-1500:]}")
        try:
            if httpx.get(f"{base}/api/tables", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            sys.exit("trickcam serve did not answer")
        time.sleep(0.2)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_table(base: str, n: int, truth: dict[str, Any]) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(
        f"{base}/api/tables",
        json={"game": "clabber", "name": f"Bench {n}", "players": PLAYERS},
        headers={"Authorization": f"Bearer {PIN}"},
        timeout=10,
    ).json()
    args = truth["rendered"]["watch_args"]
    dealer = int(args["dealer"])
    events = [{"type": "deal", "dealer": dealer, "upcard": args["upcard"]}]
    for k, call in enumerate(str(args["bidding"]).split(",")):
        events.append({"type": "bid", "seat": (dealer + 1 + k) % 4, "bid": call})
    auth = {"Authorization": f"Bearer {made['scorer_token']}"}
    for event in events:
        r = httpx.post(f"{base}/api/tables/{made['id']}/events", json=event, headers=auth)
        r.raise_for_status()
    return made


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=4, help="phones filming at once (default 4)")
    p.add_argument("--fps", type=float, default=5.0, help="frames a second each (default 5)")
    p.add_argument("--seconds", type=float, default=65.0, help="of the hand (default: all)")
    p.add_argument("--workers", type=int, default=1, help=">1: --proxy nginx in front")
    args = p.parse_args(argv)
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    shots = frames(args.fps, args.seconds)
    true_plays = [pl for pl in truth["rendered"]["plays"] if pl["t_rest"] < args.seconds - 1.5]
    with tempfile.TemporaryDirectory(prefix="trickcam-bench-camera-") as tmp:
        proc, base = start_server(Path(tmp), args.workers)
        try:
            tables = [new_table(base, n, truth) for n in range(args.tables)]
            pages = [Page(base, t["id"]) for t in tables]
            for page in pages:
                page.start()
            time.sleep(1.0)
            phones = [Phone(base, t, shots) for t in tables]
            cpu0, wall0 = cpu_seconds(proc.pid), time.time()
            for k, phone in enumerate(phones):
                time.sleep(0.2 / max(1, args.tables) * k)  # not all in the same instant
                phone.start()
            for phone in phones:
                phone.join()
            cpu = cpu_seconds(proc.pid) - cpu0
            wall = time.time() - wall0
            time.sleep(1.0)  # the last plays' messages
            for page in pages:
                page.stop.set()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    answered = sum(ph.sent for ph in phones)
    delays: list[float] = []
    right = total = 0
    for phone, page in zip(phones, pages, strict=True):
        for k, true in enumerate(true_plays):
            total += 1
            if k < len(page.plays):
                arrived, seat, card = page.plays[k]
                right += seat == true["seat"] and card == true["card"]
                delays.append(arrived - (phone.start_wall + float(true["t_rest"])))
    per_cpu = answered / cpu if cpu > 0 else float("nan")
    print(f"camera bench: {args.tables} tables x {len(shots)} frames of the bundled hand "
          f"(640x360 JPEG q80) at {args.fps:g} fps, {wall:.0f} s; trickcam serve, "
          f"{args.workers} worker{'s behind nginx' if args.workers > 1 else ''}, SQLite")  # fmt: skip
    print(f"  frames answered {answered}, dropped as late {sum(ph.dropped for ph in phones)}, "
          f"failed {sum(ph.failed for ph in phones)}")  # fmt: skip
    print(f"  server CPU {cpu:.1f} s: {per_cpu:.0f} frames per CPU second "
          f"({1000 / per_cpu:.1f} ms a frame)")  # fmt: skip
    print(f"  tables one core serves at 5 fps: {per_cpu / 5:.0f}")
    if delays:
        print(f"  card to page (card at rest -> its play on the live stream): median "
              f"{statistics.median(delays):.2f} s, p99 {percentile(delays, 0.99):.2f} s, "
              f"max {max(delays):.2f} s over {len(delays)} plays")  # fmt: skip
    print(f"  plays right {right}/{total}")
    return 0 if right == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
