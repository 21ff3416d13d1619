"""The organiser's desk: what the big screen shows (``/api/screen``: anyone reads it, the
organiser chooses), and the organiser's log (``/api/organiser/log``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.concurrency import run_in_threadpool

from service.routers.deps import ORGANISER_ANSWERS, ClubDep, OrganiserDep
from service.routers.tournaments import TournamentsDep
from service.strict_json import StrictJSONRoute

router = APIRouter(tags=["organiser"], route_class=StrictJSONRoute)


class ScreenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tournament: StrictStr | None = Field(
        description="the tournament the big screen shows (null: none)", max_length=32
    )


class ScreenOut(BaseModel):
    tournament: str | None = Field(description="the tournament the big screen shows, if any")
    name: str | None = None


class LogEntry(BaseModel):
    id: int
    at: str
    action: str = Field(description="created, renamed, deleted, reissued, chose, set, changed")
    kind: str = Field(description="table, tournament, screen or pin")
    target: str | None
    detail: dict[str, Any]


@router.get("/api/screen", response_model=ScreenOut)
async def screen(club: ClubDep, tournaments: TournamentsDep) -> ScreenOut:
    """What the big screen (``/``) shows: the tournament the organiser chose."""
    chosen = await run_in_threadpool(club.screen)
    meta = None if chosen is None else await run_in_threadpool(tournaments.meta, chosen)
    return ScreenOut(tournament=None if meta is None else meta.id, name=meta and meta.name)


@router.put(
    "/api/screen",
    response_model=ScreenOut,
    dependencies=[OrganiserDep],
    responses={**ORGANISER_ANSWERS, 404: {"description": "no such tournament"}},
)
async def choose_screen(body: ScreenIn, club: ClubDep, tournaments: TournamentsDep) -> ScreenOut:
    """Choose the tournament the big screen shows (the organiser; null: none)."""
    meta = None
    if body.tournament is not None:
        meta = await run_in_threadpool(tournaments.meta, body.tournament)
        if meta is None:
            raise HTTPException(404, f"no tournament {body.tournament!r}")
    await run_in_threadpool(club.set_screen, body.tournament)
    return ScreenOut(tournament=body.tournament, name=meta and meta.name)


@router.get(
    "/api/organiser/log",
    response_model=list[LogEntry],
    dependencies=[OrganiserDep],
    responses=ORGANISER_ANSWERS,
)
async def organiser_log(
    club: ClubDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    offset: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
) -> list[LogEntry]:
    """What the organiser did, oldest first: tables and tournaments created, renamed and
    deleted, tokens reissued, the big screen's choice, the PIN set or changed."""
    return [LogEntry(**e) for e in await run_in_threadpool(club.history, limit, offset)]
