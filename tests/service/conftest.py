"""Fixtures for the service tests: an app on a real SQLite file in ``tmp_path``, and the same
app on a real PostgreSQL server (a throwaway cluster, one fresh database per test).

``client`` is parametrized over both backends: every API test that uses it runs on SQLite
and on PostgreSQL (ids ``[sqlite]`` and ``[postgresql]``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pg_cluster import Cluster, throwaway_cluster
from svc_helpers import ORGANISER_PIN

from service.app import create_app
from service.settings import Settings


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One PostgreSQL cluster for the whole session (started on first use)."""
    with throwaway_cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh, empty PostgreSQL database (``postgresql+psycopg://...``)."""
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """The ``db`` setting of a fresh database: an SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(db_path)
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(organiser_pin=ORGANISER_PIN, db=database))) as c:
        yield c
