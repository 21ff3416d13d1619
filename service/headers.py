"""Security headers on every answer (ASGI middleware).

The pages are plain HTML and scripts served by the app itself, so they can be held to a
strict Content-Security-Policy: scripts, styles, images and connections from this server only
(``blob:``/``data:`` images for camera crops and snapshots), never framed by another site (a
page that could be framed could be clicked through by a hidden one), no inline script. The
API's answers get the same headers: ``nosniff`` so a browser never runs JSON or an upload as
something else, and no Referer (a page's address may name a table).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "media-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# no page uses the camera, the microphone or the location, nor may anything it frames; the
# camera page alone says camera=(self) (service/routers/pages.py)
PERMISSIONS = "camera=(), microphone=(), geolocation=()"
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"permissions-policy", PERMISSIONS.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in HEADERS if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)
