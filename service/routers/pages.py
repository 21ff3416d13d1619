"""The pages: plain HTML + JS from ``service/static`` (no build step), live via EventSource.

``/`` is a tournament's standings for the big screen (the one the organiser chose, or ``?t=ID``),
``/tables/{id}`` a table live, ``/referee`` the referee's view (the token is typed in and
kept in the browser). The pages read the public API and streams; only the referee's page
sends a token, in a header.
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


def _page(name: str) -> FileResponse:
    return FileResponse(
        STATIC / name, media_type="text/html", headers={"Cache-Control": "no-cache"}
    )


@router.get("/")
async def standings_page() -> FileResponse:
    return _page("index.html")


@router.get("/tables/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _page("table.html")


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
