"""``POST /api/tables/{id}/frames``: a camera frame in, the cards seen and the plays posted.

For cameras that cannot run trickcam themselves (a phone in a browser, a network webcam): the
server runs recognition and the table's watcher (:mod:`service.camera`). The image is a
multipart upload (field ``image``), at most ``max_frame_bytes`` (413 beyond; the body limit
refuses it before it is read), decoded by OpenCV (415 when it is not an image); the scorer's
token is required, as for posting events.

The card model is loaded once, by this router's lifespan when the file is there, else on the
first frame; while it is missing, frames are answered 503 saying which file is missing.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from service.camera import Cameras, CameraUnavailable, NotAnImage, decode_image
from service.routers.deps import BrokerDep, ScorerTableDep, SettingsDep, StoreDep
from service.schemas import EventRecordOut


class FrameOut(BaseModel):
    cards: list[dict[str, Any]] = Field(
        description="the cards in view: card (null when unsure), confidence, quad, partial"
    )
    watching: bool = Field(description="whether the table's hand is being followed")
    reason: str = Field(description="why not, when it is not (what to post first)")
    accepted: list[EventRecordOut] = Field(description="events this frame appended")
    refused: list[dict[str, Any]] = Field(
        description="plays the rules refused: the event and the reason"
    )
    notes: list[str] = Field(description="the watcher's notes (fixtures, cards seen again...)")


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    cameras = Cameras(app.state.settings.model)
    app.state.cameras = cameras
    # load the model once, now; without one, frames answer 503 until it is there
    with contextlib.suppress(CameraUnavailable):
        await run_in_threadpool(cameras.vision)
    yield


router = APIRouter(prefix="/api/tables/{table_id}", tags=["frames"], lifespan=lifespan)


def get_cameras(request: Request) -> Cameras:
    cameras: Cameras = request.app.state.cameras
    return cameras


@router.post(
    "/frames",
    response_model=FrameOut,
    responses={
        401: {"description": "no bearer token"},
        403: {"description": "not this table's scorer token"},
        404: {"description": "no such table"},
        413: {"description": "the image is over the size limit (`max_frame_bytes`)"},
        415: {"description": "the upload is not an image OpenCV can decode"},
        422: {"description": "no `image` field, or a malformed `t`"},
        503: {"description": "the card model is missing (the message names the file)"},
    },
)
async def post_frame(
    request: Request,
    table: ScorerTableDep,
    store: StoreDep,
    broker: BrokerDep,
    settings: SettingsDep,
    image: Annotated[UploadFile, File(description="one camera frame: JPEG, PNG or WebP")],
    t: Annotated[
        float | None,
        Form(
            ge=0,
            le=1e9,
            description="the frame's capture time in seconds (any steady clock of the camera); "
            "default: when the server received it",
        ),
    ] = None,
) -> JSONResponse:
    """Recognise the cards in one frame and follow the table's hand: plays the watcher sees
    are posted as events (actor ``camera``) and broadcast like any other. Answers the cards
    in view, whether a hand is being followed (and why not), the events appended, those the
    rules refused, and the watcher's notes."""
    data = await image.read(settings.max_frame_bytes + 1)
    if len(data) > settings.max_frame_bytes:
        raise HTTPException(413, f"the image is over {settings.max_frame_bytes} bytes")
    try:
        frame = await run_in_threadpool(decode_image, data)
    except NotAnImage as exc:
        raise HTTPException(415, str(exc)) from None
    cameras = get_cameras(request)
    camera = cameras.table(table.id)
    try:
        result = await run_in_threadpool(camera.process, cameras, store, table, frame, t)
    except CameraUnavailable as exc:
        raise HTTPException(503, str(exc)) from None
    accepted = []
    for done in result.appended:
        record = done.record.as_json()
        accepted.append(EventRecordOut(**record))
        if not done.repeated:
            broker.publish(
                table.id,
                {"kind": "event", "seq": done.record.seq, "event": record, "state": done.state},
            )
    body = FrameOut(
        cards=result.cards,
        watching=result.watching,
        reason=result.reason,
        accepted=accepted,
        refused=result.refused,
        notes=result.notes,
    )
    return JSONResponse(body.model_dump(mode="json"))
