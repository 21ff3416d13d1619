"""Fixtures shared by the vision tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ORGANISER_PIN = "club-pin-2468"
"""The organiser's PIN of the ``server`` fixture: creating a table needs it."""
ORGANISER = {"Authorization": f"Bearer {ORGANISER_PIN}"}


def new_clabber_table(server: str, name: str = "t") -> dict[str, object]:
    """A new Clabber table on the ``server`` fixture's app, made with the organiser's PIN:
    the server's answer (its ``id`` and ``scorer_token``)."""
    import json
    import urllib.request

    body = json.dumps({"game": "clabber", "name": name, "players": ["a", "b", "c", "d"]})
    req = urllib.request.Request(
        f"{server}/api/tables",
        body.encode(),
        {"Content-Type": "application/json", **ORGANISER},
        method="POST",
    )
    return dict(json.loads(urllib.request.urlopen(req, timeout=10).read()))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A real ``trickcam serve`` app on a free local port (SQLite in ``tmp_path``), in a
    thread: its base URL."""
    import uvicorn

    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings(db=str(tmp_path / "tables.db"), organiser_pin=ORGANISER_PIN))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()
