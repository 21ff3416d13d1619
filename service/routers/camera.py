"""The phone that films a table (``/tables/{id}/camera``) and what it asks of the server.

* ``GET /api/tables/{id}/camera``: what the server's camera holds (public, as every read):
  whether a hand is followed and why not, the plays read, those a person must still name or
  confirm, and each seat's area of the frame for the live view.
* ``POST /api/tables/{id}/camera/plays/{index}`` (scorer token): a person names play
  ``index`` of the hand followed (one the camera missed, read in doubt, or refused): the
  answer goes through the watcher and becomes the table's events (a play, a ``correct``).
* ``POST /api/tables/{id}/camera/seats`` (scorer token): where the players sit, from a frame
  with one card before each player (or an overhead camera's default), and who sits nearest
  the image's bottom edge.
* ``POST /api/tables/{id}/camera/qr`` (scorer token): the QR code of the camera page's link,
  its scorer token in the address's fragment (never sent to a server), as SVG.
* ``GET /api/playing``: the tables being played, for the home page.

With several worker processes every request under ``/api/tables/{id}/`` must reach the
worker holding the table's watcher: ``trickcam serve --workers N --proxy nginx``.
"""

from __future__ import annotations

import io
import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.concurrency import run_in_threadpool

from service.camera import CameraUnavailable, NotWatching
from service.camera_view import camera_status
from service.games import FieldError
from service.routers.deps import (
    SCORER_ANSWERS,
    TABLE_404,
    BrokerDep,
    ScorerTableDep,
    SettingsDep,
    StoreDep,
    TableDep,
)
from service.routers.frames import WORKER, decoded, get_cameras, publish, read_form
from service.schemas import CardCode, WholeNumber
from service.strict_json import StrictJSONRoute

router = APIRouter(tags=["camera"], route_class=StrictJSONRoute)

ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]{1,200}$")


class NameIn(BaseModel):
    """A person's answer about one play of the hand the camera follows."""

    model_config = ConfigDict(extra="forbid")
    deal: WholeNumber = Field(
        ge=0,
        le=2**31 - 1,
        description="the hand: its deal's event seq (`deal` in the camera's state)",
    )
    card: CardCode = Field(description="the card that was played")


class QrIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    origin: StrictStr = Field(
        max_length=220,
        pattern=ORIGIN.pattern,
        description="where the phone reaches this server, as the page sees it "
        "(`location.origin`: scheme, host, port)",
    )


@router.get("/api/tables/{table_id}/camera", responses=TABLE_404)
async def camera_state(table: TableDep, request: Request) -> JSONResponse:
    """What the server's camera holds for the table (see the module)."""
    camera = get_cameras(request).existing(table.id)
    status = await run_in_threadpool(camera_status, camera, list(table.players))
    return JSONResponse(status, headers={"X-Trickcam-Worker": WORKER})


@router.post(
    "/api/tables/{table_id}/camera/plays/{index}",
    responses={
        **SCORER_ANSWERS,
        409: {"description": "the camera follows no such hand here (post an event instead)"},
        422: {"description": "malformed, or no such play in the hand"},
    },
)
async def name_play(
    index: Annotated[int, Path(ge=0, le=63, description="the play's number in the hand")],
    body: Annotated[NameIn, Body()],
    table: ScorerTableDep,
    store: StoreDep,
    broker: BrokerDep,
    request: Request,
) -> JSONResponse:
    """Play ``index`` was ``card``: names a play the camera missed (it is posted, with the
    plays it held back, in turn), confirms a play read in doubt, or corrects one (a
    ``correct`` event); recorded as the scorer's."""
    camera = get_cameras(request).table(table.id)
    try:
        result = await run_in_threadpool(
            camera.name, store, table, body.deal, index, str(body.card)
        )
    except NotWatching as exc:
        raise HTTPException(409, str(exc)) from None
    accepted = publish(broker, table.id, result.appended)
    status = await run_in_threadpool(camera_status, camera, list(table.players))
    return JSONResponse(
        {
            "accepted": [a.model_dump(mode="json") for a in accepted],
            "refused": result.refused,
            "camera": status,
        }
    )


@router.post(
    "/api/tables/{table_id}/camera/seats",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "image": {
                                "type": "string",
                                "format": "binary",
                                "description": "a frame with one card face up before each "
                                "player (none: an overhead camera, seats round the frame)",
                            },
                            "bottom_seat": {
                                "type": "integer",
                                "minimum": 0,
                                "maximum": 7,
                                "description": "the seat nearest the image's bottom edge",
                            },
                        },
                    }
                }
            },
        }
    },
    responses={
        **SCORER_ANSWERS,
        400: {"description": "the body is not a multipart form"},
        409: {"description": "a hand is being followed: calibrate between hands"},
        413: {"description": "the image is too large"},
        415: {"description": "not an image"},
        422: {"description": "the cards could not be found, or a malformed field"},
        503: {"description": "the card model is missing"},
    },
)
async def seats(table: ScorerTableDep, settings: SettingsDep, request: Request) -> JSONResponse:
    """Where the players sit, from a frame with one card before each (the table's plane and
    seats, as ``trickcam calibrate``), or without a frame an overhead camera's default;
    ``bottom_seat`` sits nearest the image's bottom edge, the others clockwise."""
    data, fields = await read_form(request, settings, ("bottom_seat",))
    players = len(table.players)
    try:
        bottom = int(fields.get("bottom_seat", "0"))
    except ValueError:
        bottom = -1
    if not 0 <= bottom < players:
        raise FieldError(
            "bottom_seat",
            f"{fields.get('bottom_seat')!r}: expected a seat of this table, 0 to {players - 1}",
        )
    frame = None if data is None else await decoded(data, settings)
    cameras = get_cameras(request)
    camera = cameras.table(table.id)
    try:
        vision = await run_in_threadpool(cameras.vision)
        found = await run_in_threadpool(camera.calibrate, vision, frame, players, bottom)
    except CameraUnavailable as exc:
        raise HTTPException(503, str(exc)) from None
    except NotWatching as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise FieldError(
            "image", f"the seats could not be found: {exc} (one card face up before each player)"
        ) from None
    if frame is not None:
        camera.frame_size = (int(frame.shape[1]), int(frame.shape[0]))
    status = await run_in_threadpool(camera_status, camera, list(table.players))
    return JSONResponse({**found, "camera": status})


@router.post(
    "/api/tables/{table_id}/camera/qr",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **SCORER_ANSWERS},
)
async def camera_qr(
    table: ScorerTableDep, body: Annotated[QrIn, Body()], request: Request
) -> Response:
    """The camera page's link for a phone to scan: ``ORIGIN/tables/ID/camera#token=TOKEN``
    (the token in the fragment: a browser never sends it, so it lands in no log)."""
    import segno

    token = request.headers["authorization"].partition(" ")[2].strip()
    link = f"{body.origin}/tables/{table.id}/camera#token={token}"
    svg = io.BytesIO()  # a whole SVG document (its namespace: an <img> shows it)
    segno.make_qr(link, error="m").save(
        svg, kind="svg", scale=8, border=4, dark="#000", light="#fff"
    )
    return Response(
        svg.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


@router.get("/api/playing", tags=["tables"])
async def playing(store: StoreDep, request: Request) -> list[dict[str, Any]]:
    """The tables being played (not deleted), the latest active first: each table's game,
    players, running totals, hand number, who is to play, whether a camera films it."""
    metas, _total = await run_in_threadpool(store.list_tables, 500, 0)
    cameras = get_cameras(request)

    def rows() -> list[dict[str, Any]]:
        out = []
        for meta in metas:
            snap = store.snapshot(meta)
            state = snap.state
            current = state.get("current") or {}
            camera = cameras.existing(meta.id)
            out.append(
                {
                    "id": meta.id,
                    "name": meta.name,
                    "game": meta.game,
                    "players": list(meta.players),
                    "seq": snap.seq,
                    "totals": state.get("totals"),
                    "sides": state.get("sides"),
                    "hand": current.get("number"),
                    "over": bool(state.get("games") and state["games"][-1]["over"]),
                    "to_move": current.get("to_move"),
                    "trump": current.get("trump"),
                    # a camera films it: frames here lately, or its recent plays are the
                    # camera's (posted by another worker's camera)
                    "camera": (camera is not None and camera.seen_lately())
                    or "camera" in snap.actors[-8:],
                }  # fmt: skip
            )
        out.sort(key=lambda r: -r["seq"])
        return out

    return await run_in_threadpool(rows)
