"""The pages: plain HTML + JS from ``service/static`` (no build step), live via EventSource.

``/`` is a tournament's standings for the big screen (the one the organiser chose, or ``?t=ID``)
and the tables being played, ``/tables/{id}`` a table live, ``/referee`` the referee's view (the
token is typed in and kept in the browser), ``/tables/{id}/camera`` the phone that films the
table (its scorer token in the address's fragment, ``#token=``: a browser never sends a
fragment, so it lands in no log), ``/camera`` a new table opened from a phone (the organiser's
PIN). The pages read the public API and streams; only the referee's and the camera's pages send
a token, in a header.

Every answer says ``Permissions-Policy: camera=()`` (service/headers.py) but the camera page's,
which may use this server's camera (``camera=(self)``), and no other page or frame may.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent.parent / "static"
TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}

router = APIRouter(include_in_schema=False)


CAMERA_POLICY = "camera=(self), microphone=(), geolocation=(), screen-wake-lock=(self)"


def _page(name: str, headers: dict[str, str] | None = None) -> FileResponse:
    return FileResponse(
        STATIC / name,
        media_type="text/html",
        headers={"Cache-Control": "no-cache", **(headers or {})},
    )


@router.get("/")
async def standings_page() -> FileResponse:
    return _page("index.html")


@router.get("/tables/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _page("table.html")


@router.get("/tables/{table_id}/camera")
async def camera_page(table_id: str) -> FileResponse:
    """The phone that films the table: the one page allowed the camera."""
    return _page("camera.html", {"Permissions-Policy": CAMERA_POLICY})


@router.get("/camera")
async def new_table_page() -> FileResponse:
    """A new table from a phone: the game, the players, the organiser's PIN (asked once)."""
    return _page("newtable.html")


@router.get("/docs")
async def docs_page() -> FileResponse:
    """The API reference, laid out from /openapi.json by the page itself (no CDN)."""
    return _page("docs.html")


@router.get("/referee")
async def referee_page() -> FileResponse:
    return _page("referee.html")


@router.get("/static/{name}")
async def static_file(name: str) -> FileResponse:
    """A file of ``service/static`` by its plain name (no folders: nothing else is reachable)."""
    path = STATIC / name
    if "/" in name or name.startswith(".") or path.suffix not in TYPES or not path.is_file():
        raise HTTPException(404, f"no static file {name!r}")
    return FileResponse(path, media_type=TYPES[path.suffix], headers={"Cache-Control": "no-cache"})
