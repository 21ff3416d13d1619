"""The database engine: SQLite (one file, WAL) by default, any SQLAlchemy URL otherwise.

SQLite specifics stay in this module: the pragmas (WAL, synchronous, foreign keys, a busy
timeout) and ``BEGIN IMMEDIATE`` for write transactions, so two threads appending to
different tables wait for each other instead of failing when a read transaction tries to
become a write one. Everything else in the service speaks portable SQLAlchemy Core.

The schema is created and upgraded by Alembic (:func:`migrate`), run at startup.
"""

from __future__ import annotations

import contextvars
import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

MIGRATION_LOCK = 0x7472_6963_6B63  # "trickc": the advisory lock key migrations hold

_writing: contextvars.ContextVar[bool] = contextvars.ContextVar("trickcam_writing", default=False)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str, *, sqlite_synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; for SQLite a file in WAL mode (the file's folder must exist)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # a connection per request thread (Starlette's pool has 40) without opening them all
        # up front; PostgreSQL's max_connections must cover workers x (pool_size + overflow)
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=30)
    database = parsed.database or ""
    if database in ("", ":memory:"):
        raise ValueError("trickcam needs an SQLite file, not an in-memory database")
    folder = Path(database).expanduser().resolve().parent
    if not folder.is_dir():
        raise ValueError(f"database {database!r}: folder {str(folder)!r} does not exist")
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    synchronous = sqlite_synchronous.upper()

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # let SQLAlchemy's "begin" event (below) issue BEGIN itself
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _writing.get() else "BEGIN")

    return engine


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: committed on leaving, rolled back on an exception.

    On SQLite it takes the write lock at once (``BEGIN IMMEDIATE``)."""
    token = _writing.set(True)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        _writing.reset(token)


@contextmanager
def read_transaction(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction (one consistent snapshot)."""
    with engine.connect() as conn, conn.begin():
        yield conn


def hold_sqlite_file(engine: Engine) -> IO[bytes] | None:
    """While serving, hold the SQLite file with a shared ``flock`` (several workers may),
    so that ``trickcam backup --restore`` can tell a server is using it (it takes the lock
    exclusively). Separate from SQLite's own locks; released when the file is closed."""
    if not is_sqlite(engine) or not engine.url.database:
        return None
    f = open(Path(engine.url.database).expanduser(), "rb")  # noqa: SIM115 (held while serving)
    fcntl.flock(f, fcntl.LOCK_SH)
    return f


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # a URL's escapes (``?host=%2Ftmp...``) must survive configparser's % interpolation
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the latest Alembic revision (a no-op when it is already there)."""
    config = alembic_config(engine)
    with write_transaction(engine) as conn:
        if engine.dialect.name == "postgresql":
            # workers starting together: one migrates, the others wait and find it done
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
