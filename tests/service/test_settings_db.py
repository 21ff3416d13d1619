"""Settings from the environment and the command line, the SQLite engine (WAL, a file only),
Alembic migrations applied once, and ``trickcam serve``'s one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from service.db import make_engine, migrate
from service.settings import Settings, database_url

ROOT = Path(__file__).resolve().parents[2]


def test_settings_come_from_defaults_then_environment_then_overrides() -> None:
    env = {"TRICKCAM_DB": "/srv/club.db", "TRICKCAM_PORT": "9000", "TRICKCAM_HOST": "0.0.0.0"}
    s = Settings.from_env(env)
    assert (s.db, s.port, s.host) == ("/srv/club.db", 9000, "0.0.0.0")
    s = Settings.from_env(env, db="other.db", port=None)  # None: not given on the command line
    assert (s.db, s.port) == ("other.db", 9000)
    assert Settings.from_env({}).db == "trickcam.db"
    with pytest.raises(ValueError, match="TRICKCAM_PORT='x'"):
        Settings.from_env({"TRICKCAM_PORT": "x"})
    with pytest.raises(ValueError, match="sqlite_synchronous"):
        Settings.from_env({"TRICKCAM_SQLITE_SYNCHRONOUS": "sometimes"})


@pytest.mark.parametrize(
    ("db", "url"),
    [
        ("club.db", "sqlite:///club.db"),
        ("/srv/club.db", "sqlite:////srv/club.db"),
        ("postgresql+psycopg://u:p@db/club", "postgresql+psycopg://u:p@db/club"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_a_path_becomes_an_sqlite_url_and_a_url_stays(db: str, url: str) -> None:
    assert database_url(db) == url


def test_sqlite_is_a_file_in_wal_mode_and_migrations_apply_once(tmp_path: Path) -> None:
    engine = make_engine(database_url(str(tmp_path / "x.db")))
    migrate(engine)
    migrate(engine)  # a no-op the second time
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"
    tables = set(inspect(engine).get_table_names())
    assert {"card_tables", "events", "alembic_version"} <= tables
    uniques = {tuple(u["column_names"]) for u in inspect(engine).get_unique_constraints("events")}
    assert {("table_id", "seq"), ("table_id", "idempotency_key")} <= uniques
    engine.dispose()


@pytest.mark.parametrize(
    "db", ["sqlite://", "sqlite:///:memory:", "sqlite:////no/such/folder/x.db"]
)
def test_sqlite_needs_a_file_in_an_existing_folder(db: str) -> None:
    with pytest.raises(ValueError, match="SQLite file|does not exist"):
        make_engine(db)


def test_serve_with_a_bad_database_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cli.serve", "--db", str(tmp_path / "no" / "x.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("trickcam serve: ") and "does not exist" in lines[0]
    )
