"""Request bodies as strict JSON, and validation errors that can always be answered.

Why: Python's ``json.loads`` accepts ``NaN``, ``Infinity`` and lone surrogates (``"\\ud800"``),
none of which JSON allows or our answers can encode. A body holding one used to reach the
validation-error handler, which echoed it and failed to encode its own answer: a 500. Here
such a body is refused where it is parsed (422 ``json_invalid`` naming what and where), and
:func:`safe_errors` makes any echoed input encodable whatever got through.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def strict_loads(body: bytes | str) -> Any:
    """``json.loads`` that refuses NaN, Infinity and text with a lone surrogate
    (``json.JSONDecodeError``, which FastAPI answers as a 422 ``json_invalid``)."""
    doc = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        value = json.loads(body, parse_constant=_reject_constant)
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise
        raise json.JSONDecodeError(str(exc), doc, 0) from None
    bad = _lone_surrogate(value)
    if bad is not None:
        raise json.JSONDecodeError(f"text {bad!r} holds a lone surrogate (not a character)", doc, 0)
    return value


def _lone_surrogate(value: Any) -> str | None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("ascii", "replace")[:80]
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _lone_surrogate(k) or _lone_surrogate(v)
            if found is not None:
                return found
    elif isinstance(value, list):
        for v in value:
            found = _lone_surrogate(v)
            if found is not None:
                return found
    return None


class StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is parsed by :func:`strict_loads` (use as a router's
    ``route_class``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler


def safe(value: Any) -> Any:
    """``value`` with what JSON cannot encode made text: non-finite floats, lone surrogates,
    bytes and anything else unknown."""
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {str(safe(k)): safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [safe(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return safe(str(value))


def safe_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validation errors as JSON can always carry them (``input`` and ``ctx`` made safe)."""
    return [safe(e) for e in errors]
