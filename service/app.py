"""The FastAPI application: ``create_app(settings)``.

The lifespan opens the database, applies the Alembic migrations and builds the
:class:`~service.store.Store` and the live :class:`~service.live.Broker`; routers per
resource (``service/routers``) reach them through ``request.app.state``. Errors from the
rules engine become 409 with the rule's reason, malformed input 422 naming the field.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from rules.errors import RulesError
from service import methods
from service.admin import Refused
from service.club import Club
from service.db import hold_sqlite_file, make_engine, migrate
from service.games import FieldError
from service.headers import SecurityHeaders
from service.limits import BodySizeLimit
from service.live import Broker
from service.roles import NotAllowed
from service.settings import Settings
from service.store import IdempotencyMismatch, Store, TableGone
from service.strict_json import safe_errors
from service.worker import end_with_parent

# the youngest generation's collection threshold (CPython's default is 700): see tune_gc
GC_YOUNG_THRESHOLD = 10_000


def field_error(loc: list[str], message: str, kind: str = "value_error") -> JSONResponse:
    """A 422 in FastAPI's own shape, so clients read every validation error one way.
    ``kind`` ``table_value_error``: well formed, but not for this table (its game, its seats:
    what no schema of the API can say, as it serves every game)."""
    return JSONResponse(
        status_code=422,
        content={"detail": [{"loc": loc, "msg": message, "type": kind}]},
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        migrate(engine)
        held = hold_sqlite_file(engine)  # trickcam backup --restore refuses while it is held
        app.state.settings = settings
        app.state.engine = engine
        app.state.store = Store(engine)
        app.state.club = Club(engine)
        if settings.organiser_pin:  # the club's organiser PIN, set when the server starts
            app.state.club.set_pin(settings.organiser_pin)
        app.state.broker = Broker(settings.stream_queue_size)
        try:
            yield
        finally:
            app.state.broker.close()
            engine.dispose()
            if held is not None:
                held.close()

    app = FastAPI(
        title="trickcam",
        summary="Scorekeeping service for trick-taking card games: tables, event logs, live state.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # /docs is the app's own page (service/static/docs.html): no CDN
        redoc_url=None,
    )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for err in exc.errors():
            err = dict(err)
            if err.get("type") in ("union_tag_invalid", "union_tag_not_found"):
                err["loc"] = (*err.get("loc", ()), "type")  # the discriminator is the field
            errors.append(err)
        # echoed input made encodable: a NaN or a lone surrogate must not turn a 422 into a 500
        return JSONResponse(
            status_code=422, content={"detail": safe_errors(jsonable_encoder(errors))}
        )

    methods.install(app)  # a 405's Allow names every method of the path

    @app.exception_handler(RulesError)
    async def _rules_error(_request: Request, exc: RulesError) -> JSONResponse:
        return JSONResponse(
            status_code=409, content={"detail": str(exc), "error": type(exc).__name__}
        )

    @app.exception_handler(FieldError)
    async def _field_error(_request: Request, exc: FieldError) -> JSONResponse:
        return field_error(["body", exc.field], exc.message, "table_value_error")

    @app.exception_handler(NotAllowed)
    async def _not_allowed(_request: Request, exc: NotAllowed) -> JSONResponse:
        return JSONResponse(status_code=403, content={"detail": str(exc)})

    @app.exception_handler(TableGone)
    async def _gone(_request: Request, exc: TableGone) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc)})

    @app.exception_handler(Refused)
    async def _refused(_request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse(status_code=409, content={"detail": str(exc)})

    @app.exception_handler(IdempotencyMismatch)
    async def _idempotency(_request: Request, exc: IdempotencyMismatch) -> JSONResponse:
        kind = "idempotency_key_reused" if "was used for" in str(exc) else "value_error"
        return field_error(["header", "Idempotency-Key"], str(exc), kind)

    from service.routers import events, frames, tables

    app.include_router(tables.router)
    app.include_router(events.router)
    from service.routers import pages, referee, tournaments

    app.include_router(tournaments.router)
    app.include_router(referee.router)
    app.include_router(pages.router)
    app.include_router(frames.router)
    from service.routers import camera, organiser

    app.include_router(organiser.router)
    app.include_router(camera.router)
    app.add_middleware(SecurityHeaders)
    # around the routes: a body over the limit is refused before anything reads it
    app.add_middleware(
        BodySizeLimit,
        max_body_bytes=settings.max_body_bytes,
        max_frame_bytes=settings.max_frame_bytes,
    )
    return app


def create_app_from_env() -> FastAPI:
    """The app with settings from ``TRICKCAM_*`` only: the factory each worker process calls
    when ``trickcam serve --workers N`` runs several (uvicorn imports it by name)."""
    app = create_app(Settings.from_env())
    tune_gc()  # a worker process of trickcam serve: see tune_gc
    end_with_parent()  # and it must not outlive trickcam serve (service/worker.py)
    return app


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses short in a long-running server.

    Why: under bench/service.py (256 tables) the server's full collections paused every
    thread for 100-500 ms at a time on a busy 2-core box, the long tail of the POST and
    stream latencies. Each walks every live object, and half of them are the ~120k objects
    of the imported modules (FastAPI, pydantic, SQLAlchemy, the rules), which never die:
    ``gc.freeze()`` after startup moves them out of every later collection. A larger young
    threshold collects less often, so fewer of a request's short-lived objects (alive while
    it waits for its commit) are promoted, and full collections come less often. Nothing is
    leaked: garbage is still collected, and the frozen objects are alive anyway."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
