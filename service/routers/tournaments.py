"""``/api/tournaments``: create one (its schedule as real tables), read it, its standings,
and follow it live (server-sent events of the standings and the tables' progress)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from service import admin
from service.admin import check_name
from service.club import now
from service.routers.deps import ORGANISER_ANSWERS, OrganiserDep, SettingsDep
from service.schemas import Deleted, Rename, TokenReissued
from service.strict_json import StrictJSONRoute
from service.tournament_live import Hubs
from service.tournament_schemas import (
    ScheduledTable,
    StandingOut,
    TournamentCreate,
    TournamentCreated,
    TournamentSummary,
)
from service.tournament_store import TournamentMeta, TournamentStore

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], route_class=StrictJSONRoute)


def get_tournaments(request: Request) -> TournamentStore:
    """The app's tournament store, made on first use from its engine and table store."""
    state = request.app.state
    found: TournamentStore | None = getattr(state, "tournaments", None)
    if found is None or found.store is not state.store:
        found = TournamentStore(state.engine, state.store)
        state.tournaments = found
    return found


TournamentsDep = Annotated[TournamentStore, Depends(get_tournaments)]


async def get_tournament(tournament_id: str, tournaments: TournamentsDep) -> TournamentMeta:
    meta = await run_in_threadpool(tournaments.meta, tournament_id)
    if meta is None:
        raise HTTPException(404, f"no tournament {tournament_id!r}")
    return meta


TournamentDep = Annotated[TournamentMeta, Depends(get_tournament)]
TOURNAMENT_404: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such tournament, or the organiser deleted it"}
}


@router.post(
    "",
    status_code=201,
    response_model=TournamentCreated,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 422: {"description": "malformed (the field in `detail`)"}},
)
async def create_tournament(
    body: TournamentCreate, tournaments: TournamentsDep
) -> TournamentCreated:
    """Create a tournament and every table of its round robin (circle method; a bye a round
    for an odd count), the organiser. The answer carries the referee token and each table's
    scorer token, once: hand them to the referee and the scorers."""
    entrants = [e.model_dump() for e in body.entrants]
    made = await run_in_threadpool(
        tournaments.create, check_name(body.name), body.game, body.options, body.rank_by, entrants
    )
    return TournamentCreated(
        **made.meta.as_json(),
        referee_token=made.referee_token,
        tables=[
            ScheduledTable(
                id=t.id,
                name=t.name,
                round=s.round,
                number=s.number,
                entrants=list(s.entrants),
                players=list(t.players),
                scorer_token=token,
            )  # fmt: skip
            for s, t, token in made.tables
        ],
    )


@router.get("", response_model=list[TournamentSummary])
async def list_tournaments(tournaments: TournamentsDep) -> list[TournamentSummary]:
    metas = await run_in_threadpool(tournaments.list)
    return [TournamentSummary(**m.as_json()) for m in metas]


@router.patch(
    "/{tournament_id}",
    response_model=TournamentSummary,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such tournament"}},
)
async def rename_tournament(
    tournament: TournamentDep, body: Rename, tournaments: TournamentsDep
) -> TournamentSummary:
    """Rename a tournament (the organiser; its tables keep their names)."""
    meta = await run_in_threadpool(
        admin.rename_tournament, tournaments, tournament, check_name(body.name)
    )
    return TournamentSummary(**meta.as_json())


@router.delete(
    "/{tournament_id}",
    response_model=Deleted,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such tournament"}},
)
async def delete_tournament(tournament: TournamentDep, tournaments: TournamentsDep) -> Deleted:
    """Delete a tournament and its tables (the organiser): no longer listed or shown, no
    longer written to; their logs stay in the database, the deletion in the organiser's log."""
    await run_in_threadpool(admin.delete_tournament, tournaments, tournament)
    return Deleted(id=tournament.id, name=tournament.name, deleted_at=now().isoformat())


@router.post(
    "/{tournament_id}/referee-token",
    response_model=TokenReissued,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such tournament"}},
)
async def reissue_referee_token(
    tournament: TournamentDep, tournaments: TournamentsDep
) -> TokenReissued:
    """A new referee token (the organiser): the old one stops working at once."""
    token = await run_in_threadpool(admin.reissue_referee_token, tournaments, tournament)
    return TokenReissued(id=tournament.id, name=tournament.name, token=token)


@router.get("/{tournament_id}", responses=TOURNAMENT_404)
async def tournament_view(tournament: TournamentDep, tournaments: TournamentsDep) -> JSONResponse:
    """The tournament: entrants, its tables (round, number, sides, scores so far), the byes,
    and the standings."""
    return JSONResponse(await run_in_threadpool(tournaments.view, tournament))


@router.get(
    "/{tournament_id}/export",
    responses={200: {"content": {"application/json": {}}}, **TOURNAMENT_404},
)
async def export_tournament(tournament: TournamentDep, tournaments: TournamentsDep) -> Response:
    """The whole tournament as one JSON file (a backup of it, or for another program):
    entrants, standings, and every table with its seating and full event log."""
    body = await run_in_threadpool(tournaments.export, tournament)
    return Response(
        json.dumps(body, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="tournament-{tournament.id}.json"'},
    )


@router.get(
    "/{tournament_id}/standings", response_model=list[StandingOut], responses=TOURNAMENT_404
)
async def tournament_standings(
    tournament: TournamentDep, tournaments: TournamentsDep
) -> list[StandingOut]:
    """Best first, from the tables' finished games: by games won with game points breaking
    ties, or by game points alone (the tournament's ``rank_by``). Level entrants share a
    place."""
    view = await run_in_threadpool(tournaments.view, tournament)
    return [StandingOut(**s) for s in view["standings"]]


def get_hubs(request: Request) -> Hubs:
    """The app's tournament hubs (service/tournament_live.py), made on first use."""
    state = request.app.state
    found: Hubs | None = getattr(state, "hubs", None)
    if found is None or found.broker is not state.broker:
        found = Hubs(state.broker, state.settings.stream_poll_s)
        state.hubs = found
    return found


@router.get("/{tournament_id}/stream", response_class=StreamingResponse)
async def tournament_stream(
    request: Request,
    tournament: TournamentDep,
    tournaments: TournamentsDep,
    settings: SettingsDep,
) -> StreamingResponse:
    """Server-sent events: the whole tournament first (``{"kind": "tournament", ...}``, as
    ``GET`` gives it), then what changes, gathered a fifth of a second at a time:
    ``{"kind": "tables", "rows": [...]}`` (each changed table's row, as in ``tables``), with
    ``"standings"`` (all of them) when a finished game changed them; ``{"kind": "evidence",
    "table", "seq"}`` when a camera recorded what it saw of a play (a play in doubt awaits
    the referee). Each message is built once for every open stream
    (service/tournament_live.py)."""
    hubs = get_hubs(request)
    hub, queue, first = await hubs.join(tournaments, tournament)

    async def messages() -> AsyncIterator[str]:
        try:
            yield "retry: 1000\n\n"
            yield first
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), settings.stream_heartbeat_s)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if text is None:  # too slow, or shutting down: end (EventSource reconnects)
                    return
                yield text
        finally:
            hubs.leave(hub, queue)

    return StreamingResponse(
        messages(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
