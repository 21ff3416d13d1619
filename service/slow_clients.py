"""Slow clients: a request's headers must arrive within ``header_timeout_s``.

Why: uvicorn starts no timer on a new connection (its keep-alive timer runs only between two
requests), so a client that connects and sends nothing, or sends its headers a byte every few
seconds ("slowloris"), holds a connection, a file descriptor and a slot for ever; enough of
them and the club's tablets cannot connect. This protocol closes a connection whose request
headers are not complete ``header_timeout_s`` after it opened (or after the request's first
byte, on a kept-alive connection). Bodies and streams are not limited here (the body limit is
service/limits.py; a live stream is a long answer, not a slow request). With
``limit_concurrency`` (trickcam serve --limit-concurrency) uvicorn answers 503 past that many
connections, so no client can take them all.
"""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT_S = 20.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers."""

    header_timeout_s = float(os.environ.get("TRICKCAM_HEADER_TIMEOUT_S", HEADER_TIMEOUT_S))
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection whose request headers took too long")
            self.transport.close()
