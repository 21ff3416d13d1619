"""``POST /api/tables/{id}/frames``: a camera frame in, the cards seen and the plays posted.

For cameras that cannot run trickcam themselves (a phone in a browser, a network webcam): the
server runs recognition and the table's watcher (:mod:`service.camera`). The scorer's token is
checked first, before the upload is read. The image is a multipart upload (field ``image``),
at most ``max_frame_bytes`` (413 beyond; the body limit refuses it before it is read); its
header is read for its size before anything decodes it (:mod:`service.image_header`: JPEG,
PNG, WebP or BMP; 413 over ``max_frame_pixels``, 415 for anything else), then OpenCV decodes
it (415 when it cannot: never a 500).

The card model is loaded once, by this router's lifespan when the file is there, else on the
first frame; while it is missing, frames are answered 503 saying which file is missing.
"""

from __future__ import annotations

import contextlib
import math
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile as StarletteUpload

from service.camera import Cameras, CameraUnavailable, NotAnImage, decode_image
from service.image_header import UnknownImage, image_size
from service.live import Broker
from service.routers.deps import BrokerDep, ScorerTableDep, SettingsDep, StoreDep
from service.schemas import EventRecordOut
from service.settings import Settings
from service.store import Appended


class FrameOut(BaseModel):
    cards: list[dict[str, Any]] = Field(
        description="the cards in view: card (null when unsure), confidence, quad, partial; "
        "while a hand is followed, the cards the watcher follows (named once read, `play`: "
        "the play's number in the hand)"
    )
    watching: bool = Field(description="whether the table's hand is being followed")
    reason: str = Field(description="why not, when it is not (what to post first)")
    accepted: list[EventRecordOut] = Field(description="events this frame appended")
    refused: list[dict[str, Any]] = Field(
        description="plays the rules refused: the event and the reason"
    )
    notes: list[str] = Field(description="the watcher's notes (fixtures, cards seen again...)")
    wait_ms: int = Field(
        description="the server's pace: wait at least this long before the next frame "
        "(100 while a hand is followed, more when the server is busy or no hand is)"
    )


WORKER = uuid.uuid4().hex[:8]
"""This process, as the ``X-Trickcam-Worker`` header of a frame's answer names it: with several
workers behind nginx, every frame of a table must reach the same one (its watcher)."""


def publish(broker: Broker, table_id: str, appended: list[Appended]) -> list[EventRecordOut]:
    """Tell the table's streams of events the camera appended (a repeat is not news)."""
    out = []
    for done in appended:
        record = done.record.as_json()
        out.append(EventRecordOut(**record))
        if not done.repeated:
            broker.publish(
                table_id,
                {"kind": "event", "seq": done.record.seq, "event": record, "state": done.state},
            )
    return out


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


FRAME_FORM = {
    "multipart/form-data": {
        "schema": {
            "type": "object",
            "required": ["image"],
            "additionalProperties": False,
            "properties": {
                "image": {
                    "type": "string",
                    "format": "binary",
                    "description": "one camera frame: JPEG, PNG, WebP or BMP",
                },
                "t": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1e9,
                    "description": "the frame's capture time in seconds (any steady clock of "
                    "the camera); default: when the server received it",
                },
            },
        }
    }
}


def form_error(field: str, message: str) -> RequestValidationError:
    return RequestValidationError(
        [{"loc": ("body", field), "msg": message, "type": "value_error", "input": None}]
    )


def capture_time(raw: object) -> float | None:
    """The form's ``t``: a finite number of seconds in [0, 1e9] (422 otherwise)."""
    if raw is None:
        return None
    try:
        t = float(str(raw))
    except ValueError:
        raise form_error("t", f"{str(raw)[:40]!r}: expected a number of seconds") from None
    if not math.isfinite(t) or not 0 <= t <= 1e9:
        raise form_error("t", f"{str(raw)[:40]!r}: expected seconds from 0 to 1e9")
    return t


async def read_frame(request: Request, settings: Settings) -> tuple[bytes, float | None]:
    """The upload and its capture time, read only now: after the token was checked (the
    route's dependencies), so nobody without it makes the server parse a form."""
    data, fields = await read_form(request, settings, ("t",))
    if data is None:
        raise form_error("image", "missing: the frame goes in the form's `image` file field")
    return data, capture_time(fields.get("t"))


async def read_form(
    request: Request, settings: Settings, names: tuple[str, ...]
) -> tuple[bytes | None, dict[str, str]]:
    """A multipart form of an optional ``image`` (at most ``max_frame_bytes``: 413) and the
    text fields ``names`` (any other field: 422)."""
    try:
        form = await request.form(max_files=1, max_fields=4)
    except HTTPException:
        raise
    except Exception as exc:  # a body that is not the form it says it is
        raise HTTPException(400, f"the body is not a multipart form ({exc})") from None
    try:
        unknown = sorted(set(form.keys()) - {"image", *names})
        if unknown:
            allowed = ", ".join(f"`{n}`" for n in ("image", *names))
            raise form_error(unknown[0][:40], f"unknown field: the form has {allowed}")
        image = form.get("image")
        if image is not None and not isinstance(image, StarletteUpload):
            raise form_error("image", "expected a file: the frame goes in a file field")
        fields = {n: str(form.get(n)) for n in names if form.get(n) is not None}
        data = None if image is None else await image.read(settings.max_frame_bytes + 1)
    finally:
        await form.close()
    if data is not None and len(data) > settings.max_frame_bytes:
        raise HTTPException(413, f"the image is over {settings.max_frame_bytes} bytes")
    return data, fields


async def decoded(data: bytes, settings: Settings) -> Any:
    """The frame's pixels: its header checked first (413, 415), then decoded (415, and 415
    for an image under ``MIN_FRAME_SIDE`` a side: no camera's frame)."""
    check_pixels(data, settings.max_frame_pixels)
    try:
        image = await run_in_threadpool(decode_image, data)
    except NotAnImage as exc:
        raise HTTPException(415, str(exc)) from None
    from vision.track.watch import MIN_FRAME_SIDE  # (vision loads with the first frame)

    if min(image.shape[:2]) < MIN_FRAME_SIDE:  # decodes, but is no camera's frame
        h, w = image.shape[:2]
        raise HTTPException(
            415,
            f"the image is {w}x{h} pixels: too small to see a table in (at least "
            f"{MIN_FRAME_SIDE} a side; send frames of 1280x720 or so)",
        )
    return image


def check_pixels(data: bytes, limit: int) -> None:
    """413 for an image whose header declares more than ``limit`` pixels, 415 for one whose
    header this service cannot read: decided before any decoder allocates a pixel."""
    try:
        kind, width, height = image_size(data)
    except UnknownImage as exc:
        raise HTTPException(415, str(exc)) from None
    if width * height > limit:
        raise HTTPException(
            413,
            f"the {kind} image is {width}x{height} = {width * height} pixels, over the limit "
            f"of {limit} (max_frame_pixels): send frames of 1920x1080 or so",
        )


@router.post(
    "/frames",
    response_model=FrameOut,
    openapi_extra={"requestBody": {"required": True, "content": FRAME_FORM}},
    responses={
        400: {"description": "the body is not a multipart form"},
        401: {"description": "no bearer token"},
        403: {"description": "not this table's scorer token"},
        404: {"description": "no such table"},
        413: {
            "description": "the image is over the size limit (`max_frame_bytes`) or its header "
            "declares more pixels than `max_frame_pixels`"
        },
        415: {
            "description": "the upload is not a JPEG, PNG, WebP or BMP image that decodes, "
            "or it is one under 16 pixels a side (no table to see in it)"
        },
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
) -> JSONResponse:
    """Recognise the cards in one frame and follow the table's hand: plays the watcher sees
    are posted as events (actor ``camera``) and broadcast like any other. Answers the cards
    in view, whether a hand is being followed (and why not), the events appended, those the
    rules refused, and the watcher's notes.

    The form: ``image`` (one frame, JPEG, PNG, WebP or BMP, at most ``max_frame_bytes`` and
    ``max_frame_pixels``) and optionally ``t`` (its capture time in seconds)."""
    data, t = await read_frame(request, settings)
    frame = await decoded(data, settings)
    cameras = get_cameras(request)
    camera = cameras.table(table.id)
    try:
        result = await run_in_threadpool(camera.process, cameras, store, table, frame, t)
    except CameraUnavailable as exc:
        raise HTTPException(503, str(exc)) from None
    body = FrameOut(
        cards=result.cards,
        watching=result.watching,
        reason=result.reason,
        accepted=publish(broker, table.id, result.appended),
        refused=result.refused,
        notes=result.notes,
        wait_ms=result.wait_ms,
    )
    return JSONResponse(body.model_dump(mode="json"), headers={"X-Trickcam-Worker": WORKER})
