"""The tables and their event logs in the database, and the replayed state of each table.

Writes are serialised per table (a lock in this process; the ``(table_id, seq)`` unique key
between processes: a writer that loses the race retries on the fresh log). An event is
validated by applying it to the replayed state *before* it is inserted, in the same
transaction, so the log only ever holds events the engine accepted, and the caller is told
"accepted" only after the commit.

Each table's replay is cached, keyed on its last sequence number: a read checks the number in
the database and replays only what is new (several workers may share the database).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import logging
import secrets
import threading
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select
from sqlalchemy.exc import IntegrityError

from rules.errors import RulesError
from service import roles
from service.db import is_sqlite, read_transaction, write_transaction
from service.games import (
    CONTROL_TYPES,
    JSON,
    EngineFailure,
    FieldError,
    TableSession,
    effective_log,
)
from service.group_commit import GroupCommit
from service.models import card_tables, events, organiser_log
from service.pg_notify import notify
from service.sheet import table_state

WRITE_ATTEMPTS = 5
META_CACHE_S = 2.0
log = logging.getLogger("trickcam.service")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(nbytes: int = 24) -> str:
    """A secret for a table's scorer, a referee or an organiser (URL-safe), never starting
    with ``-``: one that did would read as an option on a command line (``trickcam watch
    --token -x...`` fails), and ``secrets.token_urlsafe`` gives one in 64 so."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class TableMeta:
    id: str
    name: str
    game: str
    players: tuple[str, ...]
    options: JSON
    token_hash: str
    created_at: datetime
    deleted_at: datetime | None = None  # the organiser deleted it (its log is kept)

    def as_json(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "created_at": self.created_at.isoformat(),
        }

    def token_ok(self, token: str) -> bool:
        return hmac.compare_digest(hash_token(token), self.token_hash)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table replayed up to ``seq``: its raw log, the effective log, the engine states."""

    meta: TableMeta
    seq: int
    raw: tuple[tuple[int, JSON], ...]
    effective: tuple[tuple[int, JSON], ...]
    session: TableSession
    state: JSON = field(default_factory=dict)
    actors: tuple[str, ...] = ()  # who posted each event of ``raw``

    @classmethod
    def empty(cls, meta: TableMeta) -> Snapshot:
        session = TableSession.new(meta.game, meta.players, meta.options)
        return cls(meta, 0, (), (), session, table_state(meta.as_json(), session, 0))

    def with_meta(self, meta: TableMeta) -> Snapshot:
        """The same log under the table's current metadata (the organiser renamed it)."""
        if meta == self.meta:
            return self
        state = table_state(meta.as_json(), self.session, self.seq)
        return dataclasses.replace(self, meta=meta, state=state)

    def rows(self) -> list[tuple[int, JSON, str]]:
        """The raw log as ``(seq, payload, actor)``."""
        return [(seq, p, a) for (seq, p), a in zip(self.raw, self.actors, strict=True)]

    def checked(self, payload: JSON, actor: str) -> Snapshot:
        """The table after ``actor`` posts ``payload``: :class:`~service.roles.NotAllowed`
        when that actor may not (service/roles.py), else as :meth:`extend`."""
        if roles.needs_check(payload, actor):
            roles.check(payload, actor, self.rows())
        return self.extend(self.seq + 1, payload, actor)

    def extend(self, seq: int, payload: JSON, actor: str = "scorer") -> Snapshot:
        """The table after one more event (raises the engine's error if it is impossible;
        :class:`EngineFailure` if the engine breaks on it)."""
        try:
            return self._extend(seq, payload, actor)
        except (RulesError, FieldError):
            raise
        except Exception as exc:
            log.exception(
                "rules engine failure on table %s event %s: %r", self.meta.id, seq, payload
            )
            raise EngineFailure(
                f"{payload!r}: the rules engine failed on this event "
                f"({type(exc).__name__}: {exc}); it was not recorded"
            ) from exc

    def _extend(self, seq: int, payload: JSON, actor: str) -> Snapshot:
        raw = self.raw + ((seq, payload),)
        if payload.get("type") in CONTROL_TYPES:
            effective = tuple(effective_log(raw))
            base = TableSession.new(self.meta.game, self.meta.players, self.meta.options)
            session = base.replay(effective)
        else:
            effective = self.effective + ((seq, payload),)
            session = self.session.apply(payload)
        state = table_state(self.meta.as_json(), session, seq)
        actors = self.actors + (actor,)
        return Snapshot(self.meta, seq, raw, effective, session, state, actors)


@dataclass(frozen=True, slots=True)
class EventRecord:
    seq: int
    payload: JSON
    actor: str
    idempotency_key: str | None
    created_at: datetime

    def as_json(self) -> JSON:
        return {
            "seq": self.seq,
            "event": self.payload,
            "actor": self.actor,
            "at": self.created_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Appended:
    """The outcome of a POSTed event: the event, the state after it; ``repeated`` when an
    earlier POST with the same Idempotency-Key had already applied it."""

    record: EventRecord
    state: JSON
    repeated: bool


class IdempotencyMismatch(ValueError):
    """An Idempotency-Key reused for a different event."""


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._metas: dict[str, TableMeta] = {}
        self._meta_at: dict[str, float] = {}  # when each was read (another worker may change it)
        self._snapshots: dict[str, Snapshot] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        # SQLite has one writer at a time; threads queueing on this lock wait their turn at
        # once, where waiting on SQLite's busy handler sleeps in steps of up to 100 ms
        self._sqlite_writer = threading.Lock() if is_sqlite(engine) else None
        self._notify = engine.dialect.name == "postgresql"
        # events arriving together share one commit (one fsync) on SQLite: service/group_commit
        self._group = (
            GroupCommit(engine, self._sqlite_writer) if self._sqlite_writer is not None else None
        )

    def _writer(self) -> AbstractContextManager[object]:
        return self._sqlite_writer if self._sqlite_writer is not None else nullcontext()

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    # -- tables ------------------------------------------------------------------------------

    def create_table(
        self, name: str, game: str, players: list[str], options: JSON
    ) -> tuple[TableMeta, str]:
        """A new table and its scorer token (shown once; only its hash is stored). The game,
        players and options are checked by building the table's session first."""
        check_text("name", name)
        check_text("players", players)
        check_text("options", options)
        TableSession.new(game, players, options)
        token = new_token()
        meta = TableMeta(
            secrets.token_hex(8),
            name,
            game,
            tuple(players),
            dict(options),
            hash_token(token),
            now(),
        )
        with self._writer(), write_transaction(self.engine) as conn:
            conn.execute(
                insert(card_tables).values(
                    id=meta.id,
                    name=meta.name,
                    game=meta.game,
                    players=list(meta.players),
                    options=meta.options,
                    scorer_token_hash=meta.token_hash,
                    created_at=meta.created_at,
                )
            )
            conn.execute(
                insert(organiser_log).values(
                    at=meta.created_at, action="created", kind="table", target=meta.id,
                    detail={"name": name, "game": game},
                )
            )  # fmt: skip
        self.remember(meta)
        return meta, token

    def remember(self, meta: TableMeta) -> None:
        self._metas[meta.id] = meta
        self._meta_at[meta.id] = time.monotonic()

    def cached_meta(self, table_id: str) -> TableMeta | None:
        """The table's metadata when this process read it less than :data:`META_CACHE_S`
        ago (no database access). The organiser may rename or delete a table, or reissue its
        token, through another worker: older reads are read again."""
        found = self._metas.get(table_id)
        if found is None or time.monotonic() - self._meta_at.get(table_id, 0.0) > META_CACHE_S:
            return None
        return found

    def meta(self, table_id: str, fresh: bool = False) -> TableMeta | None:
        """The table (deleted ones too: see ``deleted_at``); ``fresh``: read it now."""
        found = None if fresh else self.cached_meta(table_id)
        if found is not None:
            return found
        if "\x00" in table_id:  # no table has one (PostgreSQL would refuse the query)
            return None
        with read_transaction(self.engine) as conn:
            row = conn.execute(select(card_tables).where(card_tables.c.id == table_id)).first()
        if row is None:
            return None
        created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
        deleted = row.deleted_at
        if deleted is not None and deleted.tzinfo is None:
            deleted = deleted.replace(tzinfo=UTC)
        meta = TableMeta(
            row.id, row.name, row.game, tuple(row.players), dict(row.options),
            row.scorer_token_hash, created, deleted,
        )  # fmt: skip
        self.remember(meta)
        return meta

    def list_tables(self, limit: int | None = None, offset: int = 0) -> tuple[list[TableMeta], int]:
        """The tables not deleted, oldest first, ``limit`` of them from ``offset``; and how
        many there are in all."""
        live = card_tables.c.deleted_at.is_(None)
        with read_transaction(self.engine) as conn:
            total = conn.execute(select(func.count()).select_from(card_tables).where(live)).scalar()
            query = (
                select(card_tables.c.id)
                .where(live)
                .order_by(card_tables.c.created_at, card_tables.c.id)
                .offset(offset)
            )
            if limit is not None:
                query = query.limit(limit)
            wanted = list(conn.execute(query).scalars())
        return [m for m in (self.meta(i) for i in wanted) if m is not None], int(total or 0)

    # -- reading the log ---------------------------------------------------------------------

    def records(self, table_id: str, after: int = 0) -> list[EventRecord]:
        with read_transaction(self.engine) as conn:
            return _records(conn, table_id, after)

    def snapshot(self, meta: TableMeta) -> Snapshot:
        """The table's state as of the latest committed event."""
        with read_transaction(self.engine) as conn:
            return self._fresh(conn, meta)

    def _fresh(self, conn: Connection, meta: TableMeta) -> Snapshot:
        found = self._snapshots.get(meta.id)
        cached = Snapshot.empty(meta) if found is None else found.with_meta(meta)
        last = conn.execute(
            select(func.max(events.c.seq)).where(events.c.table_id == meta.id)
        ).scalar()
        if (last or 0) != cached.seq:
            for rec in _records(conn, meta.id, cached.seq):
                cached = cached.extend(rec.seq, rec.payload, rec.actor)
        self._snapshots[meta.id] = cached
        return cached

    def since(self, meta: TableMeta, after: int) -> tuple[Snapshot, list[EventRecord]]:
        """The latest state and the events after ``after``, from one read (a stream catching
        up with another worker's commits)."""
        with read_transaction(self.engine) as conn:
            snap = self._fresh(conn, meta)
            if snap.seq <= after:
                return snap, []
            return snap, [r for r in _records(conn, meta.id, after) if r.seq <= snap.seq]

    def state_at(self, meta: TableMeta, seq: int) -> JSON:
        """The state right after event ``seq`` (an uncached replay: for repeated POSTs)."""
        snap = Snapshot.empty(meta)
        for rec in self.records(meta.id):
            if rec.seq > seq:
                break
            snap = snap.extend(rec.seq, rec.payload, rec.actor)
        return snap.state

    # -- appending -------------------------------------------------------------------------------

    def append(
        self, meta: TableMeta, payload: JSON, actor: str, idempotency_key: str | None = None
    ) -> Appended:
        """Validate ``payload`` against the replayed table and commit it as the next event.

        Raises the engine's ``RulesError``, a ``FieldError``, :class:`IdempotencyMismatch`, or
        :class:`~service.roles.NotAllowed` (the actor may not post it); nothing is written
        then."""
        check_text("body", payload)
        if idempotency_key is not None and "\x00" in idempotency_key:
            raise IdempotencyMismatch(f"Idempotency-Key {idempotency_key!r}: a NUL character")
        with self._lock(meta.id):
            for attempt in range(WRITE_ATTEMPTS):
                try:
                    return self._append_once(meta, payload, actor, idempotency_key)
                except IntegrityError:
                    # another process committed first (same seq or same key): start again
                    self._snapshots.pop(meta.id, None)
                    if attempt == WRITE_ATTEMPTS - 1:
                        raise
            raise AssertionError("unreachable")

    def _append_once(self, meta: TableMeta, payload: JSON, actor: str, key: str | None) -> Appended:
        def repeat(done: EventRecord) -> tuple[EventRecord, None]:
            if done.payload != payload:
                raise IdempotencyMismatch(
                    f"Idempotency-Key {key!r} was used for event {done.seq} "
                    f"({done.payload!r}), not for this one ({payload!r})"
                )
            return done, None

        def validate(conn: Connection) -> Snapshot:
            """The table after the event. Accepted by the cached replay, unread: if another
            process appended meanwhile, our seq is taken and the unique key refuses the insert
            (IntegrityError: append retries). Refused: only by the log as it is now."""
            cached = self._snapshots.get(meta.id)
            if cached is not None:
                with contextlib.suppress(RulesError, FieldError, roles.NotAllowed):
                    return cached.with_meta(meta).checked(payload, actor)
            snap = self._fresh(conn, meta)
            return snap.checked(payload, actor)

        def work(conn: Connection) -> tuple[EventRecord, Snapshot | None]:
            _check_live(conn, meta, actor)
            done = None if key is None else _by_key(conn, meta.id, key)
            if done is not None:
                return repeat(done)
            try:
                new = validate(conn)
            except (RulesError, FieldError, roles.NotAllowed):
                # PostgreSQL (read committed): another worker may have committed this very
                # event between the key lookup and the read of the log; then it is a repeat
                late = None if key is None else _by_key(conn, meta.id, key)
                if late is not None:
                    return repeat(late)
                raise
            record = EventRecord(new.seq, payload, actor, key, now())
            conn.execute(
                insert(events).values(
                    table_id=meta.id,
                    seq=record.seq,
                    type=str(payload.get("type")),
                    payload=payload,
                    actor=actor,
                    idempotency_key=key,
                    created_at=record.created_at,
                )
            )
            if self._notify:  # other workers' streams learn of it on commit
                notify(conn, meta.id, record.seq)
            return record, new

        if self._group is not None:
            record, new = self._group.run(work)  # committed with whatever came alongside
        else:
            with write_transaction(self.engine) as conn:
                record, new = work(conn)
        if new is None:
            return Appended(record, self.state_at(meta, record.seq), True)
        self._snapshots[meta.id] = new
        return Appended(record, new.state, False)


def check_text(field: str, value: object) -> None:
    """Refuse text holding a NUL character (a :class:`FieldError`, 422): PostgreSQL cannot
    store one, and no name, player or card needs one; the same answer on every database."""
    if isinstance(value, str):
        if "\x00" in value:
            raise FieldError(field, f"{value!r}: text may not contain a NUL character")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_text(field, k)
            check_text(field, v)
    elif isinstance(value, list | tuple):
        for v in value:
            check_text(field, v)


class TableGone(LookupError):
    """The table was deleted by the organiser (404)."""


def _check_live(conn: Connection, meta: TableMeta, actor: str) -> None:
    """In the write's own transaction: the table is not deleted, and a scorer's (or its
    camera's) token is still the table's (the organiser may have reissued it, maybe through
    another worker)."""
    row = conn.execute(
        select(card_tables.c.scorer_token_hash, card_tables.c.deleted_at).where(
            card_tables.c.id == meta.id
        )
    ).first()
    if row is None or row.deleted_at is not None:
        raise TableGone(f"table {meta.id} was deleted by the organiser")
    if roles.table_side(actor) and row.scorer_token_hash != meta.token_hash:
        raise roles.NotAllowed(
            f"table {meta.id}'s scorer token was reissued by the organiser: use the new one"
        )


def _by_key(conn: Connection, table_id: str, key: str) -> EventRecord | None:
    row = conn.execute(
        select(events).where(events.c.table_id == table_id, events.c.idempotency_key == key)
    ).first()
    return None if row is None else _record(row)


def _record(r: Any) -> EventRecord:
    created = r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=UTC)
    return EventRecord(r.seq, r.payload, r.actor, r.idempotency_key, created)


def _records(conn: Connection, table_id: str, after: int) -> list[EventRecord]:
    rows = conn.execute(
        select(events)
        .where(events.c.table_id == table_id, events.c.seq > after)
        .order_by(events.c.seq)
    )
    return [_record(r) for r in rows]
