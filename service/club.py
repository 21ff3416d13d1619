"""The club: its organiser PIN, what the big screen shows, and the organiser's log.

The organiser (the club's tournament director) is the only one who creates, renames and
deletes tables and tournaments, reissues a lost scorer or referee token and chooses what the
big screen (``/``) shows. The organiser's secret is a PIN (or any passphrase of at least
:data:`MIN_PIN` characters) set when the club's server is started (``trickcam serve
--organiser-pin``, ``--organiser-pin-file`` or ``TRICKCAM_ORGANISER_PIN``) and kept in the
database as a salted PBKDF2 hash: a copy of the database does not give the PIN away, and a
guess costs a tenth of a second. The organiser sends it as ``Authorization: Bearer <PIN>``.
Until one is set the server creates nothing (403, saying how to set one).

Every organiser action is a row of ``organiser_log``, with the time and what changed; a
deletion only marks the table or tournament deleted (its event log stays in the database).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from service.db import read_transaction, write_transaction
from service.games import JSON
from service.models import club, organiser_log

MIN_PIN = 6
PBKDF2_ROUNDS = 200_000
PIN_KEY = "organiser_pin"
SCREEN_KEY = "big_screen"
CACHE_S = 2.0  # how long a worker trusts what it read of the club (others may change it)


class BadPin(ValueError):
    """A PIN too short or otherwise unusable (the message says why)."""


def check_pin(pin: str) -> str:
    """The PIN as stored (surrounding blanks removed), or :class:`BadPin`."""
    pin = pin.strip()
    if len(pin) < MIN_PIN:
        raise BadPin(
            f"the organiser PIN must be at least {MIN_PIN} characters (got {len(pin)}): "
            "anyone at the club can try short ones"
        )
    if len(pin) > 200 or not pin.isprintable():
        raise BadPin("the organiser PIN must be at most 200 printable characters")
    return pin


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PBKDF2_ROUNDS)
    return f"pbkdf2_sha256${PBKDF2_ROUNDS}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        scheme, rounds, salt, digest = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


def now() -> datetime:
    from service.store import now as store_now

    return store_now()


class Throttle:
    """At most ``limit`` wrong organiser PINs per client in ``window_s`` seconds."""

    def __init__(self, limit: int = 10, window_s: float = 300.0) -> None:
        self.limit, self.window_s = limit, window_s
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def blocked_for(self, client: str) -> float:
        """Seconds this client must wait before trying again (0: it may try now)."""
        with self._lock:
            times = self._failures.get(client)
            if not times:
                return 0.0
            cutoff = time.monotonic() - self.window_s
            while times and times[0] < cutoff:
                times.popleft()
            if len(times) < self.limit:
                return 0.0
            return times[0] + self.window_s - time.monotonic()

    def failed(self, client: str) -> None:
        with self._lock:
            self._failures.setdefault(client, deque()).append(time.monotonic())
            if len(self._failures) > 10_000:  # forget the oldest clients
                self._failures.pop(next(iter(self._failures)))


class Club:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.throttle = Throttle()
        self._read: dict[str, tuple[float, Any]] = {}
        self._good: set[tuple[str, str]] = set()  # (stored hash, sha256 of a right PIN)

    # -- the club's settings --------------------------------------------------------------------

    def _get(self, key: str) -> Any:
        cached = self._read.get(key)
        if cached is not None and time.monotonic() - cached[0] < CACHE_S:
            return cached[1]
        with read_transaction(self.engine) as conn:
            value = conn.execute(select(club.c.value).where(club.c.key == key)).scalar()
        self._read[key] = (time.monotonic(), value)
        return value

    def _put(self, conn: Connection, key: str, value: Any) -> None:
        found = conn.execute(select(club.c.key).where(club.c.key == key)).first()
        if found is None:
            conn.execute(insert(club).values(key=key, value=value, updated_at=now()))
        else:
            conn.execute(
                update(club).where(club.c.key == key).values(value=value, updated_at=now())
            )
        self._read.pop(key, None)

    # -- the PIN --------------------------------------------------------------------------------

    def has_pin(self) -> bool:
        return bool(self._get(PIN_KEY))

    def set_pin(self, pin: str) -> str:
        """Store the organiser PIN (hashed): "set", "changed", or "unchanged" when it is the
        one already stored (nothing written)."""
        pin = check_pin(pin)
        stored = self._get(PIN_KEY)
        if stored and pin_matches(pin, stored):
            return "unchanged"
        with write_transaction(self.engine) as conn:
            self._put(conn, PIN_KEY, hash_pin(pin))
            what = "changed" if stored else "set"
            self.log(conn, what, "pin", None, {})
        return what

    def verify(self, token: str) -> bool:
        stored = self._get(PIN_KEY)
        if not stored:
            return False
        key = (stored, hashlib.sha256(token.encode()).hexdigest())
        if key in self._good:
            return True
        if pin_matches(token, stored):
            self._good.add(key)
            return True
        return False

    # -- the big screen -------------------------------------------------------------------------

    def screen(self) -> str | None:
        value = self._get(SCREEN_KEY)
        return value if isinstance(value, str) else None

    def set_screen(self, tournament_id: str | None) -> None:
        with write_transaction(self.engine) as conn:
            self._put(conn, SCREEN_KEY, tournament_id)
            self.log(conn, "chose", "screen", tournament_id, {"tournament": tournament_id})

    # -- the organiser's log --------------------------------------------------------------------

    @staticmethod
    def log(conn: Connection, action: str, kind: str, target: str | None, detail: JSON) -> None:
        conn.execute(
            insert(organiser_log).values(
                at=now(), action=action, kind=kind, target=target, detail=detail
            )
        )

    def history(self, limit: int, offset: int) -> list[JSON]:
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                select(organiser_log).order_by(organiser_log.c.id).limit(limit).offset(offset)
            ).all()
        return [
            {
                "id": r.id,
                "at": r.at.isoformat(),
                "action": r.action,
                "kind": r.kind,
                "target": r.target,
                "detail": r.detail,
            }
            for r in rows
        ]
