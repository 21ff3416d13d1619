"""``trickcam backup``: a consistent copy of the club's database while it serves, and its
restore.

Why not ``cp club.db``: in WAL mode the latest commits live in ``club.db-wal`` until SQLite
checkpoints them, so a copy of the main file alone misses them (and a copy of both taken
mid-write may not match). SQLite's online backup copies a consistent snapshot through a
connection, whatever the server is writing. PostgreSQL has its own tool, ``pg_dump``.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

HELP = """\
Back up the club's database while trickcam serve runs (nothing stops, nothing is lost), or
restore a backup (with the server stopped).

SQLite (a file, the default): SQLite's online backup copies a consistent snapshot, including
the latest commits still in club.db-wal (which a plain copy of club.db misses); the copy is
checked (integrity_check) and its tables and events counted.

examples:
  trickcam backup --db club.db backups/club-2026-12-01.db      back up while serving
  trickcam backup --db club.db --restore backups/club-2026-12-01.db
        restore: stop trickcam serve first; the current club.db is kept beside it as
        club.db.before-restore-<time>, then the backup is copied in
  trickcam backup --db postgresql://club@dbhost/club club.dump
        PostgreSQL: runs pg_dump --format=custom (the password from ~/.pgpass or PGPASSWORD)

PostgreSQL by hand: pg_dump --format=custom --file club.dump postgresql://club@dbhost/club
  restore (server stopped): pg_restore --clean --if-exists --dbname postgresql://club@dbhost/club club.dump
A whole tournament as JSON (its tables' event logs): GET /api/tournaments/ID/export.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "backup",
        help="back up the club's database while serving, or restore a backup",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--db",
        help="the server's database: SQLite file or URL (default: $TRICKCAM_DB or trickcam.db)",
    )
    p.add_argument("out", nargs="?", metavar="OUT", help="the backup to write (a new file)")
    p.add_argument("--restore", metavar="BACKUP", help="restore this backup into --db instead")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from service.settings import DEFAULT_DB

    db = args.db or os.environ.get("TRICKCAM_DB") or DEFAULT_DB
    try:
        if "://" in db and not db.startswith("sqlite"):
            if args.restore:
                raise BackupError(
                    "restoring PostgreSQL: stop trickcam serve, then pg_restore --clean "
                    f"--if-exists --dbname URL {args.restore} (see trickcam backup --help)"
                )
            return pg_dump(db, need_out(args))
        path = Path(db.split("///", 1)[1] if db.startswith("sqlite") else db).expanduser()
        if args.restore:
            if args.out:
                raise BackupError("give either OUT (to back up) or --restore BACKUP, not both")
            return restore(path, Path(args.restore))
        return backup(path, need_out(args))
    except BackupError as exc:
        print(f"trickcam backup: {exc}", file=sys.stderr)
        return 2


class BackupError(Exception):
    """What went wrong, in one line."""


def need_out(args: argparse.Namespace) -> Path:
    if not args.out:
        raise BackupError("where to? give the backup's file name (trickcam backup --help)")
    return Path(args.out)


def summary(path: Path) -> str:
    """Check the database file and count what it holds (BackupError if it is no trickcam
    database or is damaged)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            check = conn.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"{path}: damaged ({check})")
            tables = conn.execute("SELECT count(*) FROM card_tables").fetchone()[0]
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            version = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path}: not a trickcam database ({exc})") from None
    return f"{tables} tables, {events} events, schema {version}"


def backup(db: Path, out: Path) -> int:
    if not db.is_file():
        raise BackupError(f"{db}: no such database file")
    if out.exists():
        raise BackupError(f"{out} exists: give a new file name (nothing was overwritten)")
    if not out.parent.is_dir():
        raise BackupError(f"{out.parent}: no such folder")
    partial = out.with_name(out.name + ".partial")
    try:
        with (
            contextlib.closing(sqlite3.connect(f"file:{db}?mode=rw", uri=True)) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            src.execute("PRAGMA busy_timeout=30000")
            src.backup(dst)  # a consistent snapshot, the WAL's commits included
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        what = summary(partial)
        partial.replace(out)
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"backing up {db} to {out}: {exc}") from None
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    print(f"trickcam backup: {db} -> {out} ({what})")
    return 0


@contextlib.contextmanager
def nobody_serving(db: Path) -> Iterator[None]:
    """Hold ``db`` exclusively: a running trickcam serve holds it shared (service/db.py)."""
    with open(db, "rb") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                f"a trickcam serve is using {db}: stop it first (a restore under a running "
                "server would be overwritten or mixed with its writes)"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def restore(db: Path, source: Path) -> int:
    if not source.is_file():
        raise BackupError(f"{source}: no such backup file")
    what = summary(source)
    if not db.parent.is_dir():
        raise BackupError(f"{db.parent}: no such folder")
    kept = None
    try:
        with nobody_serving(db) if db.exists() else contextlib.nullcontext():
            if db.exists():
                kept = db.with_name(f"{db.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
                with (
                    contextlib.closing(sqlite3.connect(db)) as cur,
                    contextlib.closing(sqlite3.connect(kept)) as copy,
                ):
                    cur.backup(copy)  # what was there, kept whole (the WAL's commits too)
                    copy.execute("PRAGMA journal_mode=DELETE")
            with (
                contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
                contextlib.closing(sqlite3.connect(db)) as dst,
            ):
                src.backup(dst)  # through SQLite: a stale club.db-wal cannot come back
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"restoring {source} into {db}: {exc}") from None
    if kept is not None:
        print(f"trickcam backup: the database as it was is kept in {kept}")
    print(f"trickcam backup: restored {source} into {db} ({what}); start trickcam serve again")
    return 0


def pg_dump(url: str, out: Path) -> int:
    """``pg_dump --format=custom`` of the server's PostgreSQL database, the password kept
    out of the command line."""
    from sqlalchemy.engine import make_url

    if out.exists():
        raise BackupError(f"{out} exists: give a new file name (nothing was overwritten)")
    tool = shutil.which("pg_dump")
    if tool is None:
        raise BackupError(
            "pg_dump is not installed (apt-get install postgresql-client); by hand: "
            f"pg_dump --format=custom --file {out} URL"
        )
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None).render_as_string()
    done = subprocess.run(
        [tool, "--format=custom", "--file", str(out), plain], env=env, check=False
    )
    if done.returncode != 0:
        raise BackupError(f"pg_dump failed (status {done.returncode})")
    print(f"trickcam backup: {parsed.database} -> {out} (pg_dump, custom format)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="trickcam backup", description=HELP)
    sub = parser.add_subparsers()
    register(sub)
    return int(run(parser.parse_args(["backup", *(argv or [])])))
