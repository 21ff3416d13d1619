"""405 answers whose ``Allow`` lists every method the path supports.

Why: Starlette answers a method a route does not have from the first route whose path
matches, so ``PUT /api/tables/{id}`` was told ``Allow: PATCH`` although GET and DELETE work
there too (schemathesis' allow-header check). Here the routes are asked all together.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

SHOWN = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed(app: FastAPI, request: Request) -> list[str]:
    """The methods of every route whose path matches the request's."""
    found: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            found |= set(getattr(route, "methods", None) or ())
    return [m for m in SHOWN if m in found]


def install(app: FastAPI) -> None:
    @app.exception_handler(405)
    async def _method_not_allowed(request: Request, exc: HTTPException) -> JSONResponse:
        methods = allowed(app, request)
        return JSONResponse(
            status_code=405,
            content={"detail": f"{request.method} is not allowed here: {', '.join(methods)}"},
            headers={"Allow": ", ".join(methods)},
        )
