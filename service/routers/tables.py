"""``/api/tables``: create a table, list them, read one's state, export its log or sheet."""

from __future__ import annotations

import json
from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from service.routers.deps import StoreDep, TableDep
from service.routers.referee import EvidenceDep
from service.schemas import TableCreate, TableCreated, TableStateOut, TableSummary
from service.sheet import score_sheet_csv
from service.strict_json import StrictJSONRoute

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=StrictJSONRoute)

EXPORT_FORMAT = "trickcam-table-log"


@router.post("", status_code=201, response_model=TableCreated)
async def create_table(body: TableCreate, store: StoreDep) -> TableCreated:
    """Open a table. The answer carries the scorer token, once: keep it to post events."""
    meta, token = await run_in_threadpool(
        store.create_table, body.name, body.game, body.players, body.options
    )
    return TableCreated(**meta.as_json(), scorer_token=token)


@router.get("", response_model=list[TableSummary])
async def list_tables(store: StoreDep) -> list[TableSummary]:
    metas = await run_in_threadpool(store.list_tables)
    return [TableSummary(**m.as_json()) for m in metas]


@router.get("/{table_id}", responses={200: {"model": TableStateOut}})
async def table_state(table: TableDep, store: StoreDep, evidence: EvidenceDep) -> JSONResponse:
    """The table's state: the replay of its event log, plus the plays awaiting confirmation
    (a camera's reading in doubt, with its candidate cards, until a person rules on it)."""
    snap = await run_in_threadpool(store.snapshot, table)
    plays = await run_in_threadpool(evidence.for_tables, [table.id])
    awaiting = [p.as_json() for p in plays if p.awaiting]
    return JSONResponse({**snap.state, "awaiting_confirmation": awaiting})


@router.get("/{table_id}/export")
async def export(
    table: TableDep, store: StoreDep, format: Literal["json", "csv"] = Query("json")
) -> Response:
    """``json``: the replayable event log (post its events in order to a new table of the
    same game and players to get the same state); ``csv``: the score sheet."""
    if format == "csv":
        snap = await run_in_threadpool(store.snapshot, table)
        return Response(
            score_sheet_csv(snap.state),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="table-{table.id}.csv"'},
        )
    records = await run_in_threadpool(store.records, table.id)
    body = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "table": table.as_json(),
        "events": [r.as_json() for r in records],
    }
    return Response(
        json.dumps(body, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="table-{table.id}.json"'},
    )
