"""The club's organiser (issue 14 item 4): only the organiser PIN creates, renames and deletes
tables and tournaments, reissues a lost scorer or referee token, and chooses what the big
screen shows; deletions keep the event log and are in the organiser's log; ``GET /api/tables``
comes a page at a time. Real app on SQLite and PostgreSQL (``client``), and ``trickcam serve``
started without a PIN refuses to create anything, saying how to set one."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4, base_hand_events

from service.app import create_app
from service.settings import Settings

TABLE = {"game": "clabber", "name": "Table 4", "players": PLAYERS4}
TEAMS = [
    {"name": "Aces", "players": ["Ann", "Al"]},
    {"name": "Kings", "players": ["Bob", "Bea"]},
    {"name": "Queens", "players": ["Cy", "Cat"]},
]
TOURNAMENT = {"name": "Cup", "game": "clabber", "entrants": TEAMS}


def make_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={**TABLE, **extra}, headers=ORGANISER)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def scorer(table: dict[str, Any], token: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token or table['scorer_token']}"}


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({"Authorization": "Bearer 000000"}, 403), ({"Authorization": "Basic x"}, 401)],
)
def test_only_the_organiser_creates_tables_and_tournaments(
    client: TestClient, headers: dict[str, str], status: int
) -> None:
    assert client.post("/api/tables", json=TABLE, headers=headers).status_code == status
    assert client.post("/api/tournaments", json=TOURNAMENT, headers=headers).status_code == status
    made = make_table(client)  # a scorer's token is no organiser's either
    r = client.post("/api/tables", json=TABLE, headers=scorer(made))
    assert r.status_code == 403 and "organiser" in r.json()["detail"]
    assert [t["id"] for t in client.get("/api/tables").json()] == [made["id"]]
    assert client.get("/api/tournaments").json() == []


def test_the_organiser_renames_and_deletes_a_table_and_its_log_is_kept(
    client: TestClient,
) -> None:
    made = make_table(client)
    table = made["id"]
    for event in base_hand_events()[:6]:
        assert (
            client.post(f"/api/tables/{table}/events", json=event, headers=scorer(made)).status_code
            == 200
        )
    assert client.patch(f"/api/tables/{table}", json={"name": "Window"}).status_code == 401
    assert (
        client.patch(
            f"/api/tables/{table}", json={"name": "Window"}, headers=scorer(made)
        ).status_code
        == 403
    )
    r = client.patch(f"/api/tables/{table}", json={"name": "Window"}, headers=ORGANISER)
    assert r.status_code == 200 and r.json()["name"] == "Window"
    assert client.get(f"/api/tables/{table}").json()["name"] == "Window"

    assert client.delete(f"/api/tables/{table}", headers=scorer(made)).status_code == 403
    r = client.delete(f"/api/tables/{table}", headers=ORGANISER)
    assert r.status_code == 200, r.text
    assert client.get("/api/tables").json() == []
    gone = client.get(f"/api/tables/{table}")
    assert gone.status_code == 404 and "deleted" in gone.json()["detail"]
    r = client.post(f"/api/tables/{table}/events", json={"type": "undo"}, headers=scorer(made))
    assert r.status_code == 404
    log = client.get("/api/organiser/log", headers=ORGANISER).json()
    assert [(e["action"], e["kind"], e["target"]) for e in log] == [
        ("set", "pin", None),
        ("created", "table", table),
        ("renamed", "table", table),
        ("deleted", "table", table),
    ]
    assert log[2]["detail"] == {"from": "Table 4", "to": "Window"} and log[3]["at"]
    assert client.get("/api/organiser/log").status_code == 401


def test_a_deleted_tables_events_stay_in_the_database(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with TestClient(create_app(Settings(db=str(db), organiser_pin=ORGANISER_PIN))) as client:
        made = make_table(client)
        for event in base_hand_events()[:4]:
            client.post(f"/api/tables/{made['id']}/events", json=event, headers=scorer(made))
        assert client.delete(f"/api/tables/{made['id']}", headers=ORGANISER).status_code == 200
    with sqlite3.connect(db) as conn:
        count = conn.execute("SELECT count(*) FROM events WHERE table_id = ?", (made["id"],))
        assert count.fetchone()[0] == 4


def test_the_organiser_reissues_a_lost_scorer_token(client: TestClient) -> None:
    made = make_table(client)
    table = made["id"]
    deal = base_hand_events()[0]
    assert client.post(f"/api/tables/{table}/scorer-token", headers=scorer(made)).status_code == 403
    r = client.post(f"/api/tables/{table}/scorer-token", headers=ORGANISER)
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != made["scorer_token"]
    r = client.post(f"/api/tables/{table}/events", json=deal, headers=scorer(made))
    assert r.status_code == 403  # the lost token no longer works
    r = client.post(f"/api/tables/{table}/events", json=deal, headers=scorer(made, new))
    assert r.status_code == 200, r.text


def test_the_organiser_runs_tournaments_and_the_big_screen(client: TestClient) -> None:
    r = client.post("/api/tournaments", json=TOURNAMENT, headers=ORGANISER)
    assert r.status_code == 201, r.text
    cup = r.json()
    other = client.post(
        "/api/tournaments", json={**TOURNAMENT, "name": "Plate"}, headers=ORGANISER
    ).json()
    # the big screen shows what the organiser chose, not the latest tournament
    assert client.get("/api/screen").json()["tournament"] is None
    assert client.put("/api/screen", json={"tournament": cup["id"]}).status_code == 401
    r = client.put("/api/screen", json={"tournament": cup["id"]}, headers=ORGANISER)
    assert r.status_code == 200 and r.json() == {"tournament": cup["id"], "name": "Cup"}
    assert client.get("/api/screen").json()["tournament"] == cup["id"]
    assert (
        client.put("/api/screen", json={"tournament": "nope"}, headers=ORGANISER).status_code == 404
    )

    r = client.patch(f"/api/tournaments/{cup['id']}", json={"name": "Club Cup"}, headers=ORGANISER)
    assert (
        r.status_code == 200
        and client.get(f"/api/tournaments/{cup['id']}").json()["name"] == "Club Cup"
    )
    # a lost referee token, reissued
    r = client.post(f"/api/tournaments/{cup['id']}/referee-token", headers=ORGANISER)
    assert r.status_code == 200
    assert (
        client.get(
            "/api/referee", headers={"Authorization": f"Bearer {cup['referee_token']}"}
        ).status_code
        == 403
    )
    assert (
        client.get("/api/referee", headers={"Authorization": f"Bearer {r.json()['token']}"}).json()[
            "id"
        ]
        == cup["id"]
    )
    # a tournament's table goes with its tournament
    first = cup["tables"][0]["id"]
    assert client.delete(f"/api/tables/{first}", headers=ORGANISER).status_code == 409
    assert (
        client.delete(f"/api/tournaments/{cup['id']}", headers=scorer(cup["tables"][0])).status_code
        == 403
    )
    assert client.delete(f"/api/tournaments/{cup['id']}", headers=ORGANISER).status_code == 200
    assert [t["id"] for t in client.get("/api/tournaments").json()] == [other["id"]]
    assert client.get(f"/api/tournaments/{cup['id']}").status_code == 404
    assert client.get(f"/api/tables/{first}").status_code == 404
    assert {t["id"] for t in client.get("/api/tables").json()} == {t["id"] for t in other["tables"]}
    assert client.get("/api/screen").json()["tournament"] is None  # its choice went with it


def test_the_table_list_comes_a_page_at_a_time(client: TestClient) -> None:
    made = [make_table(client, name=f"T{n}")["id"] for n in range(5)]
    r = client.get("/api/tables", params={"limit": 2})
    assert [t["id"] for t in r.json()] == made[:2]
    assert r.headers["X-Total-Count"] == "5"
    seen = [t["id"] for t in r.json()]
    while "Link" in r.headers:
        url = r.headers["Link"].split(">")[0].lstrip("<")
        r = client.get(url)
        seen += [t["id"] for t in r.json()]
    assert seen == made
    assert client.get("/api/tables", params={"limit": 0}).status_code == 422
    assert client.get("/api/tables", params={"limit": 501}).status_code == 422


def test_a_server_without_an_organiser_pin_creates_nothing_and_says_how(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=str(tmp_path / "club.db")))) as client:
        r = client.post("/api/tables", json=TABLE, headers=ORGANISER)
        assert r.status_code == 403
        assert "--organiser-pin" in r.json()["detail"]
        assert client.post("/api/tournaments", json=TOURNAMENT).status_code == 403
        assert client.get("/api/tables").json() == []
    # the PIN, once set, is kept in the database: a restart without it still knows it
    with TestClient(
        create_app(Settings(db=str(tmp_path / "club.db"), organiser_pin=ORGANISER_PIN))
    ):
        pass
    with TestClient(create_app(Settings(db=str(tmp_path / "club.db")))) as client:
        assert client.post("/api/tables", json=TABLE, headers=ORGANISER).status_code == 201
    with sqlite3.connect(tmp_path / "club.db") as conn:
        stored = conn.execute("SELECT value FROM club WHERE key = 'organiser_pin'").fetchone()[0]
        assert ORGANISER_PIN not in stored  # hashed


def test_wrong_pins_are_throttled(client: TestClient) -> None:
    wrong = {"Authorization": "Bearer guess-000"}
    answers = [client.post("/api/tables", json=TABLE, headers=wrong).status_code for _ in range(11)]
    assert answers[:10] == [403] * 10 and answers[10] == 429
    r = client.post("/api/tables", json=TABLE, headers=ORGANISER)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0


def serve(db: Path, *extra: str, env: dict[str, str] | None = None) -> Any:
    """``trickcam serve`` as the club starts it, stopped at the first answer: its process."""
    import os
    import subprocess
    import sys
    import time

    import httpx
    from svc_helpers import free_port

    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k != "TRICKCAM_ORGANISER_PIN"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(db), "--port", str(port),
         "--log-level", "warning", *extra],
        cwd=Path(__file__).resolve().parents[2], env={**environ, **(env or {})},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    answer = None
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                answer = httpx.post(f"{url}/api/tables", json=TABLE, headers=ORGANISER, timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    return proc.returncode, answer, out + err


def test_trickcam_serve_sets_the_organiser_pin_from_a_file_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    code, answer, out = serve(db)
    assert answer is not None and answer.status_code == 403, out
    assert "no organiser PIN yet" in out and "--organiser-pin" in out
    pin_file = tmp_path / "pin.txt"
    pin_file.write_text(ORGANISER_PIN + "\n")
    code, answer, out = serve(db, "--organiser-pin-file", str(pin_file))
    assert answer is not None and answer.status_code == 201, out
    assert "organiser PIN set" in out
    code, answer, out = serve(db)  # a restart without it: the stored PIN
    assert answer is not None and answer.status_code == 201, out
    pin_file.write_text("123\n")
    code, answer, out = serve(db, "--organiser-pin-file", str(pin_file))
    assert code == 2 and answer is None
    assert out.strip().splitlines()[-1].startswith("trickcam serve: the organiser PIN must be")
