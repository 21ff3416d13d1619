"""A throwaway PostgreSQL cluster for the tests: ``initdb`` into a temporary folder, the
server on a unix socket in that folder (no TCP port, nothing shared with the machine's own
PostgreSQL), ``fsync=off`` (the cluster is thrown away), stopped and removed at the end.

PostgreSQL refuses to run as root: as root (CI), the cluster belongs to the ``postgres``
system user the Debian package creates, and its binaries run through ``runuser``.

Where the binaries are absent the tests skip with a clear message, except under ``CI=true``,
where they fail: CI installs PostgreSQL and must test it (tests/ci.py).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

SEARCH = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin")


def pg_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` ($TRICKCAM_PG_BIN, PATH, Debian's)."""
    env = os.environ.get("TRICKCAM_PG_BIN")
    if env and (Path(env) / "initdb").exists():
        return Path(env)
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for pattern in SEARCH:
        for folder in sorted(glob.glob(pattern), reverse=True):  # the newest version first
            if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
                return Path(folder)
    return None


def missing(what: str) -> NoReturn:
    """Skip, or fail under ``CI=true``: tests/ci.py's rule (imported here, when needed:
    bench/service.py loads this module without the repository's root on its path)."""
    from tests.ci import missing

    missing(what)


class Cluster:
    """A running throwaway cluster; :meth:`new_database` gives each test its own database."""

    def __init__(
        self, bin_dir: Path, folder: Path, run_as: str | None, durable: bool = False
    ) -> None:
        self.durable = durable
        self.bin = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.socket_dir = folder
        self.port = 5432  # a unix socket's name only: no TCP listener is opened
        self.run_as = run_as

    def _cmd(self, *args: str) -> list[str]:
        if self.run_as is None:
            return list(args)
        return ["runuser", "-u", self.run_as, "--", *args]

    def _run(self, *args: str) -> None:
        proc = subprocess.run(self._cmd(*args), capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {proc.stdout}{proc.stderr}")

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--encoding=UTF8", "--no-sync",
        )  # fmt: skip
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.socket_dir}' "
            f"-c port={self.port} -c max_connections=200"
        )
        if not self.durable:  # thrown away after the tests: no need to survive a power cut
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def new_database(self) -> str:
        """A fresh, empty database's SQLAlchemy URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(
            host=str(self.socket_dir), port=self.port, user="postgres", dbname="postgres",
            autocommit=True,
        ) as conn:  # fmt: skip
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def throwaway_cluster(durable: bool = False) -> Iterator[Cluster]:
    """Start a cluster (skipping, or failing under CI, when PostgreSQL is not installed);
    ``durable``: fsync and synchronous commit on, as a real server (for benchmarks)."""
    bin_dir = pg_bin()
    if bin_dir is None:
        missing("PostgreSQL's initdb and pg_ctl (apt-get install postgresql, or TRICKCAM_PG_BIN)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg (pip install 'psycopg[binary]')")
    run_as = None
    # short path: a unix socket's path must stay under ~100 bytes
    folder = Path(tempfile.mkdtemp(prefix="tcpg-", dir="/tmp"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            missing("a 'postgres' user to run PostgreSQL as, when running as root")
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = "postgres"
    cluster = Cluster(bin_dir, folder, run_as, durable)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
