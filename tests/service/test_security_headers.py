"""Pages and answers carry security headers (issue 14 item 10): a strict Content-Security-Policy
(this server's scripts only, never framed), nosniff, no Referer, no framing; ``/docs`` is the
app's own page and loads nothing from another host (a club room may be offline). And tokens in
an address never reach the server's log (issue 14 item 8): a real ``trickcam serve`` asked for
``/referee?token=...`` logs the request with the token redacted."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER_PIN, free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "path", ["/", "/tables/abc", "/referee", "/docs", "/static/common.js", "/api/tables"]
)
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200, r.text
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "http" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_docs_load_nothing_from_another_host(client: TestClient) -> None:
    page = client.get("/docs").text
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(s.startswith("/") for s in sources), sources
    for s in sources:
        assert client.get(s).status_code == 200, s
    assert "cdn" not in page.lower()


def test_a_token_in_an_address_is_redacted_in_the_access_log(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(tmp_path / "club.db"),
         "--port", str(port), "--log-level", "info"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={"TRICKCAM_ORGANISER_PIN": ORGANISER_PIN, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    secret = "s3cret-referee-token-value"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(
                    f"http://127.0.0.1:{port}/referee?token={secret}&name=Rita", timeout=2
                )
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        assert r.status_code == 200
        httpx.get(f"http://127.0.0.1:{port}/api/tables?limit=1&key={secret}", timeout=2)
    finally:
        proc.terminate()
        log, _ = proc.communicate(timeout=20)
    assert "/referee?token=[redacted]&name=Rita" in log, log
    assert secret not in log
