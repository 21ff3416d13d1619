"""Dependencies the routers share: the store, the broker, the club, a table, the scorer's
token, the organiser's PIN."""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from service.club import Club
from service.live import Broker
from service.settings import Settings
from service.store import Store, TableMeta


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_broker(request: Request) -> Broker:
    broker: Broker = request.app.state.broker
    return broker


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


StoreDep = Annotated[Store, Depends(get_store)]
BrokerDep = Annotated[Broker, Depends(get_broker)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_club(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


ClubDep = Annotated[Club, Depends(get_club)]


async def get_table(table_id: str, store: StoreDep) -> TableMeta:
    # a table read less than a moment ago needs no trip to a worker thread
    meta = store.cached_meta(table_id) or await run_in_threadpool(store.meta, table_id)
    if meta is None:
        raise HTTPException(404, f"no table {table_id!r}")
    if meta.deleted_at is not None:
        raise HTTPException(
            404,
            f"table {table_id!r} was deleted by the organiser ({meta.deleted_at:%Y-%m-%d %H:%M} UTC)",
        )
    return meta


TableDep = Annotated[TableMeta, Depends(get_table)]


def bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; 401 when there is none."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            401,
            "this needs the table's scorer token: Authorization: Bearer <scorer_token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token.strip()


async def scorer_table(
    table: TableDep, store: StoreDep, authorization: Annotated[str | None, Header()] = None
) -> TableMeta:
    """The table, when the request carries its scorer token (401 none, 403 another)."""
    token = bearer(authorization)
    if table.token_ok(token):
        return table
    # the organiser may just have reissued it (through another worker): read it again
    fresh = await run_in_threadpool(store.meta, table.id, True)
    if fresh is None or fresh.deleted_at is not None or not fresh.token_ok(token):
        raise HTTPException(403, f"that token is not table {table.id}'s scorer token")
    return fresh


async def organiser(
    request: Request, club: ClubDep, authorization: Annotated[str | None, Header()] = None
) -> None:
    """Requests only the club's organiser may make: ``Authorization: Bearer <organiser PIN>``
    (403 when the server has no PIN yet or this is not it, 401 without one, 429 after too many
    wrong ones from one client)."""
    client = request.client.host if request.client else "unknown"
    wait = club.throttle.blocked_for(client)
    if wait > 0:
        raise HTTPException(
            429,
            f"too many wrong organiser PINs from {client}: try again in {math.ceil(wait)} s",
            headers={"Retry-After": str(math.ceil(wait))},
        )
    if not await run_in_threadpool(club.has_pin):
        raise HTTPException(
            403,
            "this server has no organiser PIN yet, so nobody can create or change tables and "
            "tournaments: restart it with `trickcam serve --organiser-pin` (it asks for one), "
            "--organiser-pin-file FILE or TRICKCAM_ORGANISER_PIN set",
        )
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            401,
            "this needs the club's organiser PIN: Authorization: Bearer <organiser PIN>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not await run_in_threadpool(club.verify, token.strip()):
        club.throttle.failed(client)
        raise HTTPException(403, "that is not the club's organiser PIN")


TABLE_404: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such table, or the organiser deleted it"}
}
SCORER_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "no bearer token"},
    403: {"description": "not this table's scorer token (or it was reissued)"},
    **TABLE_404,
}
OrganiserDep = Depends(organiser)
ORGANISER_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "no organiser PIN (`Authorization: Bearer <PIN>`)"},
    403: {"description": "not the organiser PIN, or the server has none yet"},
    429: {"description": "too many wrong PINs from this client: wait (Retry-After)"},
}


ScorerTableDep = Annotated[TableMeta, Depends(scorer_table)]
