"""Request body size limits (ASGI middleware): 413 for a body over the endpoint's limit.

Why a middleware and not a check in the handlers: a handler sees the body only once it has
been read (and, for an upload, spooled to disk), so a client could make the server swallow
gigabytes before any handler runs. Here a ``Content-Length`` over the limit is refused before
one byte of the body is read, and a body sent without one (chunked) is counted as it arrives
and refused the moment it passes the limit.

Frame uploads (``.../frames``) get ``max_frame_bytes`` plus room for the multipart envelope;
every other endpoint ``max_body_bytes``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MULTIPART_OVERHEAD = 64 * 1024
"""Room for a multipart upload's boundaries, part headers and small fields."""


def too_large(limit: int) -> str:
    return f"request body over {limit} bytes, the limit of this endpoint"


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a body without ``Content-Length`` passes the limit
    (an HTTPException, so FastAPI's body parsing lets it through as the 413 it is)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit))


class BodySizeLimit:
    """Refuse request bodies over ``limit_for(path)`` bytes with 413."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, max_frame_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_frame_bytes = max_frame_bytes

    def limit_for(self, path: str) -> int:
        if path.rstrip("/").endswith("/frames"):
            return self.max_frame_bytes + MULTIPART_OVERHEAD
        return self.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(str(scope.get("path", "")))
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _reply(
                        send,
                        400,
                        f"Content-Length {value.decode(errors='replace')!r}: not a number",
                    )
                    return
                if declared > limit:
                    await _reply(send, 413, too_large(limit))
                    return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            # read outside FastAPI's body parsing (which answers it itself): answer here
            if started:
                raise
            await _reply(send, 413, too_large(limit))


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
