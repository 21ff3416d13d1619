"""A table's events: post one (scorer token), read the audit trail, follow the live stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Header, Query
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from service.live import stream_messages
from service.pg_notify import CommitListener
from service.routers.deps import (
    SCORER_ANSWERS,
    TABLE_404,
    BrokerDep,
    ScorerTableDep,
    SettingsDep,
    StoreDep,
    TableDep,
)
from service.schemas import EventAccepted, EventIn, EventRecordOut
from service.store import IdempotencyMismatch
from service.strict_json import StrictJSONRoute

MAX_SEQ = 2**31 - 1  # a database integer: a larger number is 422, not a driver's overflow


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """On PostgreSQL, listen for events other workers commit (service/pg_notify.py)."""
    if app.state.engine.dialect.name != "postgresql":
        yield
        return
    loop = asyncio.get_running_loop()
    broker = app.state.broker

    def on_commit(table_id: str, seq: int) -> None:
        loop.call_soon_threadsafe(broker.committed, table_id, seq)

    listener = CommitListener(app.state.engine, on_commit)
    app.state.commit_listener = listener
    listener.start()
    try:
        yield
    finally:
        listener.stop()


router = APIRouter(
    prefix="/api/tables/{table_id}",
    tags=["events"],
    lifespan=lifespan,
    route_class=StrictJSONRoute,
)


@router.post(
    "/events",
    responses={
        200: {"model": EventAccepted, "description": "accepted and committed: the new state"},
        **SCORER_ANSWERS,
        409: {"description": "impossible now (the rule's reason in `detail`)"},
        422: {
            "description": "malformed (the field in `detail[].loc`), or well formed but not "
            "for this table's game or seats (`detail[].type` `table_value_error`), or an "
            "Idempotency-Key already used for another event (`idempotency_key_reused`)"
        },
    },
)
async def post_event(
    table: ScorerTableDep,
    store: StoreDep,
    broker: BrokerDep,
    event: Annotated[EventIn, Body()],
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=200,
            pattern=r"\S",
            description="names this event: a retry with the same key applies it once",
        ),
    ] = None,
) -> JSONResponse:
    """Add one event to the table's log. It is acknowledged only once committed; a retry
    with the same ``Idempotency-Key`` applies once and is answered the same way."""
    if idempotency_key is not None and not idempotency_key.strip():
        raise IdempotencyMismatch(
            "an empty Idempotency-Key: send a key that names this event (or no header)"
        )
    payload = event.model_dump(mode="json", exclude_unset=True)  # as posted, cards normalised
    done = await run_in_threadpool(store.append, table, payload, "scorer", idempotency_key)
    record = done.record.as_json()
    if not done.repeated:
        broker.publish(
            table.id,
            {"kind": "event", "seq": done.record.seq, "event": record, "state": done.state},
        )
    return JSONResponse({**done.state, "accepted": record, "repeated": done.repeated})


@router.get("/events", response_model=list[EventRecordOut], responses=TABLE_404)
async def list_events(
    table: TableDep,
    store: StoreDep,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ, description="only events after this seq")] = 0,
) -> list[EventRecordOut]:
    """The audit trail: every event as posted (undos and corrections included), who posted
    it and when."""
    records = await run_in_threadpool(store.records, table.id, after)
    return [EventRecordOut(**r.as_json()) for r in records]


@router.get("/stream", response_class=StreamingResponse)
async def stream(
    table: TableDep, store: StoreDep, broker: BrokerDep, settings: SettingsDep
) -> StreamingResponse:
    """Server-sent events: first the state (``{"kind": "state", ...}``), then every accepted
    event with the state after it (``{"kind": "event", "seq", "event", "state"}``); events
    another worker committed arrive as ``{"kind": "state", ..., "events": [...]}``."""
    queue = broker.subscribe(table.id)  # before the snapshot: nothing falls in between
    snap = await run_in_threadpool(store.snapshot, table)
    first = {"kind": "state", "seq": snap.seq, "state": snap.state}

    async def catch_up(after: int) -> dict[str, Any] | None:
        """Events committed by another worker since ``after`` (None when there are none)."""
        latest, records = await run_in_threadpool(store.since, table, after)
        if latest.seq <= after:
            return None
        return {
            "kind": "state",
            "seq": latest.seq,
            "state": latest.state,
            "events": [r.as_json() for r in records],
        }

    messages = stream_messages(
        broker, table.id, queue, first, snap.seq, settings.stream_heartbeat_s,
        catch_up, settings.stream_poll_s,
    )  # fmt: skip
    return StreamingResponse(
        messages,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
