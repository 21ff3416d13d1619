"""Many tables, many workers (issue 13 item 6): ``trickcam serve --workers 2 --proxy nginx``
puts Debian's nginx in front of two worker processes with the configuration in
cli/serve_nginx.py (docs/camera.md shows it). Every request about a table reaches the same
worker (the one holding its camera's watcher), tables spread over both; two phones' frames
of the bundled hand, sent through nginx, become each table's first trick on its live stream,
read through nginx too; a killed ``trickcam serve`` leaves neither nginx nor a worker behind."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import httpx
import pytest
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4, free_port

from cli.serve_nginx import nginx_binary
from tests.ci import need
from vision.read.classify import MODEL_PATH

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "samples" / "clabber_hand.mp4"
pytestmark = pytest.mark.slow


@contextlib.contextmanager
def serving(tmp_path: Path, *extra: str, scheme: str = "http") -> Any:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(tmp_path / "club.db"),
         "--port", str(port), "--log-level", "warning", *extra],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=(tmp_path / "serve.log").open("wb"),
        start_new_session=True, env={**os.environ, "TRICKCAM_ORGANISER_PIN": ORGANISER_PIN},
    )  # fmt: skip
    url = f"{scheme}://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{url}/api/tables", timeout=2, verify=False).status_code == 200:
                    break
            assert time.monotonic() < deadline, "trickcam serve did not answer"
            time.sleep(0.2)
        yield proc, url, port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


@pytest.fixture
def served(tmp_path: Path) -> Any:
    need(nginx_binary(), "nginx (apt-get install nginx; ./dev.sh test installs it)")
    with serving(tmp_path, "--workers", "2", "--proxy", "nginx") as found:
        yield found


@pytest.mark.parametrize("proxy", [[], ["--workers", "2", "--proxy", "nginx"]])
def test_https_for_the_phones_camera(tmp_path: Path, proxy: list[str]) -> None:
    """A phone's browser opens its camera only on a secure page: with --tls-cert/--tls-key
    the server (or nginx in front of it) speaks https, and plain http is not served."""
    openssl = shutil.which("openssl")
    need(openssl, "openssl (Debian's, to make a test certificate)")
    if proxy:
        need(nginx_binary(), "nginx (apt-get install nginx; ./dev.sh test installs it)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [str(openssl), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "2", "-subj", "/CN=trickcam",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    tls = ["--tls-cert", str(cert), "--tls-key", str(key)]
    with serving(tmp_path, *tls, *proxy, scheme="https") as (_proc, url, port):
        r = httpx.get(
            f"{url}/tables/x/camera",
            verify=ssl.create_default_context(cafile=str(cert)),
            timeout=10,
        )
        assert r.status_code == 200 and "camera=(self)" in r.headers["permissions-policy"]
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=5).raise_for_status()


def new_table(url: str, name: str) -> dict[str, Any]:
    r = httpx.post(
        f"{url}/api/tables",
        json={"game": "clabber", "name": name, "players": PLAYERS4},
        headers=ORGANISER,
        timeout=10,
    )
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def worker(url: str, table: str) -> str:
    r = httpx.get(f"{url}/api/tables/{table}/camera", timeout=10)
    assert r.status_code == 200, r.text
    return r.headers["x-trickcam-worker"]


def test_every_request_about_a_table_reaches_one_worker_and_tables_spread(served: Any) -> None:
    _proc, url, _port = served
    tables = [new_table(url, f"T{k}")["id"] for k in range(16)]
    homes = {t: {worker(url, t) for _ in range(4)} for t in tables}
    assert all(len(h) == 1 for h in homes.values()), homes  # one worker per table
    assert len(set().union(*homes.values())) == 2  # both workers hold tables


def test_two_phones_frames_through_nginx_become_their_tables_first_tricks(
    served: Any, tmp_path: Path
) -> None:
    need(MODEL_PATH.is_file(), f"the card model {MODEL_PATH}")
    proc, url, port = served
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    args = truth["rendered"]["watch_args"]
    capture = cv2.VideoCapture(str(SAMPLE))
    shots = []
    while len(shots) < 100:  # the first trick rests by 8.5 s
        ok, frame = capture.read()
        assert ok
        shots.append(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes())
    capture.release()
    tables = [new_table(url, f"Phone {k}") for k in range(2)]
    streams: dict[str, list[str]] = {t["id"]: [] for t in tables}
    connected = {t["id"]: threading.Event() for t in tables}
    readers = [threading.Thread(target=read_plays, args=(url, t["id"], streams, connected),
                                daemon=True) for t in tables]  # fmt: skip
    for r in readers:
        r.start()
    for t in tables:  # each stream's first message (the state) read before any play is made
        assert connected[t["id"]].wait(30), "the live stream did not open"
    answered: dict[str, set[str]] = {t["id"]: set() for t in tables}
    for t in tables:
        auth = {"Authorization": f"Bearer {t['scorer_token']}"}
        dealer = int(args["dealer"])
        events = [{"type": "deal", "dealer": dealer, "upcard": args["upcard"]}]
        for k, call in enumerate(str(args["bidding"]).split(",")):
            events.append({"type": "bid", "seat": (dealer + 1 + k) % 4, "bid": call})
        for event in events:
            r = httpx.post(f"{url}/api/tables/{t['id']}/events", json=event, headers=auth)
            assert r.status_code == 200, r.text
    with httpx.Client(timeout=20) as client:
        for i, data in enumerate(shots):  # the two phones' frames interleaved
            for t in tables:
                r = client.post(
                    f"{url}/api/tables/{t['id']}/frames",
                    files={"image": ("f.jpg", data, "image/jpeg")},
                    data={"t": f"{i / 10:.1f}"},
                    headers={"Authorization": f"Bearer {t['scorer_token']}"},
                )
                assert r.status_code == 200, r.text
                answered[t["id"]].add(r.headers["x-trickcam-worker"])
    first = truth["tricks"][0]
    deadline = time.monotonic() + 10
    while any(len(v) < 4 for v in streams.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    for t in tables:
        assert len(answered[t["id"]]) == 1  # every frame of a table, one worker
        state = httpx.get(f"{url}/api/tables/{t['id']}").json()
        assert state["current"]["tricks"][0]["cards"] == first
        assert streams[t["id"]] == first, streams  # the live stream, through nginx too
    # trickcam serve killed outright: nginx and the workers end with it, the port is free
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + 20
    while listening(port):
        assert time.monotonic() < deadline, "nginx or a worker outlived trickcam serve"
        time.sleep(0.2)


def read_plays(
    url: str, table: str, out: dict[str, list[str]], connected: dict[str, threading.Event]
) -> None:
    """The cards played on ``table``'s live stream, as a page reads them: each accepted event
    (``kind: event``), and the events an idle stream caught up with from the database
    (``kind: state`` with ``events``; with several workers an idle stream polls, and a play
    committed while it polls arrives that way)."""
    with (
        contextlib.suppress(httpx.HTTPError),
        httpx.stream("GET", f"{url}/api/tables/{table}/stream", timeout=None) as r,
    ):
        for line in r.iter_lines():
            if not line.startswith("data:"):
                continue
            message = json.loads(line[5:])
            connected[table].set()
            if message.get("kind") == "event":
                records = [message.get("event") or {}]
            else:
                records = list(message.get("events") or [])
            for record in records:
                event = record.get("event") or {}
                if event.get("type") == "play":
                    out[table].append(event["card"])


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0
