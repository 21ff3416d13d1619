"""``trickcam demo --serve``: a throw-away ``trickcam serve`` for the demo to post its hand to.

The server runs in a subprocess on a temporary SQLite file, so the demo shows the live page
(``/tables/ID``) without any setup; whatever happens (the end of the hand, Ctrl-C, an error)
the subprocess is stopped before the demo returns.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

HOST = "127.0.0.1"
PLAYERS = ["North", "East", "South", "West"]  # seats 0..3
START_TIMEOUT_S = 60.0  # importing the service on a busy machine takes seconds, not minutes
STOP_TIMEOUT_S = 10.0  # uvicorn's graceful shutdown is 3 s


class ServerError(Exception):
    """The demo's server did not start or did not answer as expected (one line to print)."""


def free_port() -> int:
    """A port nobody listens on now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def port_taken(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return True
    return False


def request_json(
    url: str, body: dict[str, Any] | None = None, timeout: float = 5.0, token: str | None = None
) -> Any:
    """GET (or POST ``body`` to) ``url``, with ``token`` as the bearer; the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read())


class DemoServer:
    """``trickcam serve`` in a subprocess, its log in a file (a pipe nobody reads could fill)."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port = port
        self.base = f"http://{HOST}:{port}"
        # the throw-away server's organiser PIN (only the organiser creates tables): made
        # here, handed over in the environment (never on the command line, where ps shows it)
        self.organiser_pin = secrets.token_urlsafe(16)
        self.log_path = folder / "serve.log"
        cmd = [sys.executable, "-m", "cli.main", "serve", "--db", str(folder / "demo.db"),
               "--host", HOST, "--port", str(port), "--log-level", "warning"]  # fmt: skip
        with self.log_path.open("wb") as log:
            # its own session: a Ctrl-C in the terminal reaches the demo only, which then
            # stops the server itself (after reading the final state if the hand was played)
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, "TRICKCAM_ORGANISER_PIN": self.organiser_pin},
            )  # fmt: skip

    def last_log_line(self) -> str:
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return ""
        lines = [line.strip() for line in lines if line.strip()]
        return lines[-1] if lines else ""

    def wait_ready(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Return once the API answers; :class:`ServerError` if it exits or stays silent."""
        deadline = time.monotonic() + timeout_s
        while True:
            code = self.proc.poll()
            if code is not None:
                why = self.last_log_line() or "no output"
                raise ServerError(f"'trickcam serve' exited with status {code} ({why})")
            try:
                request_json(self.base + "/api/tables", timeout=2.0)
                return
            except (urllib.error.URLError, OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise ServerError(
                    f"'trickcam serve' did not answer on {self.base} within {timeout_s:.0f} s"
                )
            time.sleep(0.2)

    def stop(self) -> None:
        """Terminate (SIGTERM: uvicorn shuts down gracefully), kill if it lingers; reap it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def create_table(base: str, organiser_pin: str) -> dict[str, Any]:
    body = {"game": "clabber", "name": "trickcam demo", "players": PLAYERS}
    try:
        table = request_json(base + "/api/tables", body, token=organiser_pin)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ServerError(f"could not create the demo table on {base} ({exc})") from None
    if not isinstance(table, dict) or "id" not in table or "scorer_token" not in table:
        raise ServerError(f"unexpected answer creating the demo table: {str(table)[:200]}")
    return table


def print_banner(page: str) -> None:
    rule = "=" * max(60, len(page) + 20)
    print(rule)
    print(f"  live score page:  {page}")
    print("  open it in a browser to follow the hand as the camera reads it")
    print(rule, flush=True)


def print_server_score(base: str, table_id: str) -> None:
    """What the server made of the posted events: each hand's score, the totals."""
    try:
        state = request_json(f"{base}/api/tables/{table_id}")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ServerError(f"could not read the table's state from {base} ({exc})") from None
    hands = state.get("hands") or []
    if not hands:
        print("trickcam demo: the server scored no hand", flush=True)
    for hand in hands:
        print(
            f"trickcam demo: the server's score for hand {hand['number']}: "
            f"{json.dumps(hand['score'])} (totals {json.dumps(state.get('totals'))})",
            flush=True,
        )


def _terminate_as_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def run_served(args: argparse.Namespace, play: Callable[[str, str], int]) -> int:
    """Start the server, open the table, ``play(post_url, token)``, then wait or stop."""
    port = args.port if args.port is not None else free_port()
    if not 0 < port < 65536:
        print(f"trickcam demo: --port {port}: expected 1 to 65535", file=sys.stderr)
        return 2
    if port_taken(port):
        print(f"trickcam demo: --port {port}: something already listens there", file=sys.stderr)
        return 2
    # a SIGTERM to the demo must still stop the server: run the finally clauses
    previous = signal.signal(signal.SIGTERM, _terminate_as_exit)
    server: DemoServer | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="trickcam-demo-") as tmp:
            try:
                server = DemoServer(port, Path(tmp))
                print(f"trickcam demo: started 'trickcam serve' (pid {server.proc.pid}) "
                      f"on {server.base}", flush=True)  # fmt: skip
                server.wait_ready()
                table = create_table(server.base, server.organiser_pin)
                print_banner(f"{server.base}/tables/{table['id']}")
                code = play(f"{server.base}/api/tables/{table['id']}", table["scorer_token"])
                print_server_score(server.base, table["id"])
                if code == 130 or args.exit:
                    return code
                print("trickcam demo: the server keeps running; press Ctrl-C to stop the server",
                      flush=True)  # fmt: skip
                try:
                    status = server.proc.wait()
                    print(f"trickcam demo: 'trickcam serve' stopped by itself (status {status})",
                          file=sys.stderr)  # fmt: skip
                    return 2
                except KeyboardInterrupt:
                    return code
            except ServerError as exc:
                print(f"trickcam demo: {exc}", file=sys.stderr)
                return 2
            except KeyboardInterrupt:
                return 130
            finally:
                if server is not None:
                    server.stop()
                    print(f"trickcam demo: stopped 'trickcam serve' (pid {server.proc.pid})",
                          flush=True)  # fmt: skip
    finally:
        signal.signal(signal.SIGTERM, previous)
