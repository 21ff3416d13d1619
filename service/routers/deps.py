"""Dependencies the routers share: the store, the broker, a table, the scorer's token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from starlette.concurrency import run_in_threadpool

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


async def get_table(table_id: str, store: StoreDep) -> TableMeta:
    # tables never change once created: a cached one needs no trip to a worker thread
    meta = store.cached_meta(table_id) or await run_in_threadpool(store.meta, table_id)
    if meta is None:
        raise HTTPException(404, f"no table {table_id!r}")
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
    table: TableDep, authorization: Annotated[str | None, Header()] = None
) -> TableMeta:
    """The table, when the request carries its scorer token (401 none, 403 another)."""
    if not table.token_ok(bearer(authorization)):
        raise HTTPException(403, f"that token is not table {table.id}'s scorer token")
    return table


ScorerTableDep = Annotated[TableMeta, Depends(scorer_table)]
