"""``/api/tables``: create a table, list them (a page at a time), read one's state, export its
log or sheet; the organiser renames, deletes, and reissues a lost scorer token."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from service import admin
from service.admin import check_name
from service.routers.deps import ORGANISER_ANSWERS, TABLE_404, OrganiserDep, StoreDep, TableDep
from service.routers.referee import EvidenceDep
from service.schemas import (
    Deleted,
    Rename,
    TableCreate,
    TableCreated,
    TableStateOut,
    TableSummary,
    TokenReissued,
)
from service.sheet import score_sheet_csv
from service.strict_json import StrictJSONRoute

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=StrictJSONRoute)

EXPORT_FORMAT = "trickcam-table-log"
PAGE = 100
MAX_PAGE = 500
PAGE_HEADERS = {
    "X-Total-Count": {"description": "tables in all", "schema": {"type": "integer"}},
    "Link": {"description": 'the next page: <URL>; rel="next"', "schema": {"type": "string"}},
}


@router.post(
    "",
    status_code=201,
    response_model=TableCreated,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 422: {"description": "malformed (the field in `detail`)"}},
)
async def create_table(body: TableCreate, store: StoreDep) -> TableCreated:
    """Open a table (the organiser). The answer carries the scorer token, once: keep it to
    post events (the organiser can reissue a lost one)."""
    name = check_name(body.name)
    meta, token = await run_in_threadpool(
        store.create_table, name, body.game, body.players, body.options
    )
    return TableCreated(**meta.as_json(), scorer_token=token)


@router.get(
    "",
    response_model=list[TableSummary],
    responses={200: {"headers": PAGE_HEADERS}},
)
async def list_tables(
    request: Request,
    response: Response,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="tables per page")] = PAGE,
    offset: Annotated[int, Query(ge=0, le=2**31 - 1, description="tables to skip")] = 0,
) -> list[TableSummary]:
    """The tables (not deleted), oldest first, a page at a time: ``X-Total-Count`` says how
    many there are, ``Link: <...>; rel="next"`` where the next page is."""
    metas, total = await run_in_threadpool(store.list_tables, limit, offset)
    response.headers["X-Total-Count"] = str(total)
    if offset + len(metas) < total:
        after = request.url.include_query_params(limit=limit, offset=offset + len(metas))
        response.headers["Link"] = f'<{after}>; rel="next"'
    return [TableSummary(**m.as_json()) for m in metas]


@router.patch(
    "/{table_id}",
    response_model=TableSummary,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such table"}},
)
async def rename_table(table: TableDep, body: Rename, store: StoreDep) -> TableSummary:
    """Rename a table (the organiser; kept in the organiser's log)."""
    meta = await run_in_threadpool(admin.rename_table, store, table, check_name(body.name))
    return TableSummary(**meta.as_json())


@router.delete(
    "/{table_id}",
    response_model=Deleted,
    dependencies=[OrganiserDep],
    responses={
        **ORGANISER_ANSWERS,
        404: {"description": "no such table"},
        409: {"description": "a tournament's table: delete the tournament"},
    },
)
async def delete_table(table: TableDep, store: StoreDep) -> Deleted:
    """Delete a table (the organiser): it is no longer listed, shown or written to; its
    event log stays in the database and the deletion in the organiser's log."""
    meta = await run_in_threadpool(admin.delete_table, store, table)
    assert meta.deleted_at is not None
    return Deleted(id=meta.id, name=meta.name, deleted_at=meta.deleted_at.isoformat())


@router.post(
    "/{table_id}/scorer-token",
    response_model=TokenReissued,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such table"}},
)
async def reissue_scorer_token(table: TableDep, store: StoreDep) -> TokenReissued:
    """A new scorer token for a table whose token was lost (the organiser): the old one
    stops working at once. Shown once, as at creation."""
    meta, token = await run_in_threadpool(admin.reissue_scorer_token, store, table)
    return TokenReissued(id=meta.id, name=meta.name, token=token)


@router.get("/{table_id}", responses={200: {"model": TableStateOut}, **TABLE_404})
async def table_state(table: TableDep, store: StoreDep, evidence: EvidenceDep) -> JSONResponse:
    """The table's state: the replay of its event log, plus the plays awaiting confirmation
    (a camera's reading in doubt, with its candidate cards, until a person rules on it)."""
    snap = await run_in_threadpool(store.snapshot, table)
    plays = await run_in_threadpool(evidence.for_tables, [table.id])
    awaiting = [p.as_json() for p in plays if p.awaiting]
    return JSONResponse({**snap.state, "awaiting_confirmation": awaiting})


@router.get(
    "/{table_id}/export",
    responses={
        200: {"content": {"application/json": {}, "text/csv": {}}},
        **TABLE_404,
    },
)
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
