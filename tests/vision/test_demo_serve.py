"""``trickcam demo --serve``: the bundled hand, posted to a real ``trickcam serve`` it starts.

Both commands run as the user runs them (subprocesses of the real CLI): the server's score for
the hand must be the one ``trickcam score`` gives for the hand's true record, and the server
must be gone once the demo has returned, whether it ends normally or fails to start.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRUE_RECORD = ROOT / "datasets" / "samples" / "clabber_hand.json"
TIMEOUT_S = 180  # the demo itself takes a few seconds with --fast

PAGE = re.compile(r"live score page:\s+(http://127\.0\.0\.1:(\d+)/tables/([^\s/]+))")
SERVER_PID = re.compile(r"started 'trickcam serve' \(pid (\d+)\)")
SERVER_SCORE = re.compile(r"the server's score for hand (\d+): (\[[^\]]*\])")


def cli(*argv: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run ``trickcam ARGV``; its status and its stdout+stderr. Never leaves a server behind."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        out, _ = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        for pid in SERVER_PID.findall(out):
            _kill_if_alive(int(pid))
        pytest.fail(f"trickcam {' '.join(argv)} ran past {TIMEOUT_S} s:\n{out[-3000:]}")
    return proc.returncode, out


def _kill_if_alive(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_demo_serve_posts_the_hand_and_the_server_scores_it_as_trickcam_score_does() -> None:
    code, out = cli("score", str(TRUE_RECORD))
    assert code == 0, out
    expected = json.loads(out.splitlines()[0])["score"]

    code, out = cli("demo", "--serve", "--fast", "--exit")
    pids = [int(p) for p in SERVER_PID.findall(out)]
    for pid in pids:  # whatever the assertions below say, the server must be gone
        assert not alive(pid), f"trickcam serve (pid {pid}) left running"
    assert code == 0, out[-3000:]
    assert "Traceback" not in out
    assert len(pids) == 1, out[-3000:]

    page = PAGE.search(out)
    assert page is not None, out[-3000:]
    port = int(page.group(2))
    # the live page's address comes before the first card is played
    assert page.start() < out.index("watching"), out[:2000]
    assert "the record read from the video matches the true record" in out

    scores = SERVER_SCORE.findall(out)
    assert [(int(n), json.loads(s)) for n, s in scores] == [(1, expected)], out[-3000:]
    assert "stopped 'trickcam serve'" in out
    assert not listening(port), f"something still listens on the demo's port {port}"


def test_demo_serve_says_in_one_line_why_the_server_did_not_start() -> None:
    env = dict(os.environ, TRICKCAM_SQLITE_SYNCHRONOUS="bogus")  # the server refuses to start
    code, out = cli("demo", "--serve", "--fast", "--exit", env=env)
    pids = [int(p) for p in SERVER_PID.findall(out)]
    assert pids and not any(alive(pid) for pid in pids), out
    assert code == 2, out
    assert "Traceback" not in out
    errors = [line for line in out.splitlines() if "exited with status" in line]
    assert len(errors) == 1 and "sqlite_synchronous 'bogus'" in errors[0], out
    assert "live score page" not in out


def test_demo_serve_refuses_a_port_in_use_without_starting_a_server() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out = cli("demo", "--serve", "--exit", "--port", str(port))
    assert code == 2, out
    assert out.strip() == f"trickcam demo: --port {port}: something already listens there"
