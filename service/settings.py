"""Service settings, read from environment variables (``TRICKCAM_*``) and the command line.

A value on the command line (``trickcam serve --db PATH``) wins over the environment, which
wins over the default. ``db`` is a file path (SQLite) or any SQLAlchemy URL, so the same
setting serves a laptop at a club night and a PostgreSQL server behind several workers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

DEFAULT_DB = "trickcam.db"
ENV_PREFIX = "TRICKCAM_"


def database_url(db: str) -> str:
    """``db`` as an SQLAlchemy URL: a URL stays as it is, a path becomes ``sqlite:///PATH``."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app factory needs.

    ``sqlite_synchronous``: ``FULL`` makes every acknowledged event survive a power cut as
    well as a killed process; ``NORMAL`` (WAL) survives a killed process only, and is faster.
    ``max_frame_bytes``: the largest image ``POST /api/tables/{id}/frames`` accepts.
    ``max_frame_pixels``: the most pixels (width x height, read from the image's header
    before anything decodes it) a frame may declare; 413 beyond. 25 megapixels: a 4K
    camera's 8.3 fits three times over, a 30000x30000 "image bomb" does not.
    ``max_body_bytes``: the largest request body of every other endpoint (events and tables
    are a few hundred bytes); a larger one is refused with 413 before it is read.
    ``model``: the card classifier the frames endpoint loads (empty: ``models/cards.onnx``).
    ``stream_heartbeat_s``: how often an idle event stream sends a comment line, so proxies
    and clients notice a dead connection.
    ``organiser_pin``: when given, stored (hashed) as the club's organiser PIN at startup
    (service/club.py); empty: the PIN stored in the database stays as it is.
    ``stream_poll_s``: how often an idle stream checks the database for events committed by
    another worker process (0, the default: never; one process needs no polling, and each
    poll costs a database read per open stream; ``trickcam serve --workers N`` sets 1 s).
    """

    db: str = DEFAULT_DB
    host: str = "127.0.0.1"
    port: int = 8000
    sqlite_synchronous: str = "FULL"
    max_frame_bytes: int = 8 * 1024 * 1024
    max_frame_pixels: int = 25_000_000
    max_body_bytes: int = 256 * 1024
    model: str = ""
    stream_heartbeat_s: float = 15.0
    stream_poll_s: float = 0.0
    stream_queue_size: int = 1024
    organiser_pin: str = ""

    @property
    def database_url(self) -> str:
        return database_url(self.db)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Defaults, then ``TRICKCAM_DB``, ``TRICKCAM_HOST``..., then non-``None`` ``overrides``."""
        env = os.environ if environ is None else environ
        settings = cls()
        values: dict[str, object] = {}
        for name in cls.__dataclass_fields__:
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is None:
                continue
            values[name] = _convert(name, raw, getattr(settings, name))
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = replace(settings, **values)  # type: ignore[arg-type]
        if settings.sqlite_synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(
                f"sqlite_synchronous {settings.sqlite_synchronous!r}: expected OFF, NORMAL, FULL or EXTRA"
            )
        return settings


def _convert(name: str, raw: str, default: object) -> object:
    try:
        if isinstance(default, bool):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}={raw!r}: expected a number") from None
    return raw
