"""Backups (issue 14 item 7): ``trickcam backup`` copies the club's SQLite database while
``trickcam serve`` runs, the commits still in the WAL included (a plain copy of the file misses
them), and restores a backup with the server stopped, keeping the database it replaces; a
restore while a server runs is refused. ``GET /api/tournaments/{id}/export`` gives a whole
tournament with every table's log. Real subprocesses of the real CLI, real SQLite."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, PLAYERS4, base_hand_events
from test_serve_process import running_server

ROOT = Path(__file__).resolve().parents[2]


def trickcam(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *argv],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def events_in(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])


def test_backup_while_serving_keeps_the_commits_in_the_wal_and_restore_brings_them_back(
    tmp_path: Path,
) -> None:
    db = tmp_path / "club.db"
    events = base_hand_events()
    with running_server(db) as (_proc, url), httpx.Client(base_url=url, timeout=10) as http:
        made = http.post(
            "/api/tables",
            json={"game": "clabber", "name": "T", "players": PLAYERS4},
            headers=ORGANISER,
        ).json()
        auth = {"Authorization": f"Bearer {made['scorer_token']}"}
        for event in events:
            assert (
                http.post(f"/api/tables/{made['id']}/events", json=event, headers=auth).status_code
                == 200
            )
        # what copying club.db while serving gives: the WAL's commits are not in it
        shutil.copy(db, tmp_path / "copied.db")
        assert Path(f"{db}-wal").stat().st_size > 0
        done = trickcam("backup", "--db", str(db), str(tmp_path / "backup.db"))
        assert done.returncode == 0, done.stderr
        assert f"{len(events)} events" in done.stdout
        # a restore under a running server is refused, nothing touched
        refused = trickcam("backup", "--db", str(db), "--restore", str(tmp_path / "backup.db"))
        assert refused.returncode == 2 and "stop it first" in refused.stderr
    assert events_in(tmp_path / "backup.db") == len(events)
    copied = sqlite3.connect(tmp_path / "copied.db")
    assert copied.execute("SELECT count(*) FROM events").fetchone()[0] < len(events)
    copied.close()

    # the server stopped, the hand undone by mistake... and the backup restored
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM events")
    assert events_in(db) == 0
    done = trickcam("backup", "--db", str(db), "--restore", str(tmp_path / "backup.db"))
    assert done.returncode == 0, done.stderr
    assert events_in(db) == len(events)
    [kept] = tmp_path.glob("club.db.before-restore-*")
    assert events_in(kept) == 0  # what was replaced is kept
    with running_server(db) as (_proc, url):
        state = httpx.get(f"{url}/api/tables/{made['id']}", timeout=10).json()
        assert state["hands"][0]["score"] == [128, 104]


def test_backup_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    for argv, words in [
        (["--db", str(tmp_path / "none.db"), str(tmp_path / "b.db")], "no such database"),
        (["--db", str(tmp_path / "none.db")], "give the backup's file name"),
        (
            ["--db", str(tmp_path / "x.db"), "--restore", str(tmp_path / "nope.db")],
            "no such backup",
        ),
    ]:
        done = trickcam("backup", *argv)
        assert done.returncode == 2, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("trickcam backup: ") and words in lines[0]
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello")
    done = trickcam("backup", "--db", str(tmp_path / "x.db"), "--restore", str(not_db))
    assert done.returncode == 2 and "not a trickcam database" in done.stderr
    assert "pg_dump" in trickcam("backup", "--help").stdout


def test_a_whole_tournament_exports_with_every_tables_log(client: TestClient) -> None:
    teams = [{"name": n, "players": [f"{n}1", f"{n}2"]} for n in ("Aces", "Kings", "Queens")]
    made = client.post(
        "/api/tournaments",
        json={"name": "Cup", "game": "clabber", "entrants": teams},
        headers=ORGANISER,
    ).json()
    table = made["tables"][0]
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    for event in base_hand_events():
        client.post(f"/api/tables/{table['id']}/events", json=event, headers=auth)
    r = client.get(f"/api/tournaments/{made['id']}/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    doc = r.json()
    assert doc["format"] == "trickcam-tournament" and doc["tournament"]["id"] == made["id"]
    assert [t["table"]["id"] for t in doc["tables"]] == [t["id"] for t in made["tables"]]
    [played] = [t for t in doc["tables"] if t["events"]]
    assert [e["event"] for e in played["events"]] == base_hand_events()
    assert doc["standings"][0]["won"] == 0 and len(doc["standings"]) == 3
