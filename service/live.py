"""Live updates: an in-process broadcast per table, read as server-sent events.

Every accepted event is published once, after its commit, to each open stream of its table
as ``data: {...}`` (the event and the state after it), with ``id: <seq>`` so a client can see
what it has. Streams are asyncio queues on the server's event loop; a subscriber that falls
too far behind is dropped (its stream ends; an ``EventSource`` reconnects and is sent the
state again) rather than slowing the writers.

With several worker processes each worker only sees its own publications. On PostgreSQL each
commit also sends a NOTIFY that every worker's listener hands to its broker
(:meth:`Broker.committed`, service/pg_notify.py): the table's streams catch up at once. And an
idle stream also polls the database every ``poll_s`` (``catch_up``; off by default, on with ``trickcam
serve --workers N``): events another worker committed are sent as one ``{"kind": "state",
"seq", "state", "events": [...]}`` message. Each poll is a database read per open stream; a
single poller per process reading every table's latest seq at once would scale better.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

JSON = dict[str, Any]
CatchUp = Callable[[int], Awaitable[JSON | None]]
Listener = Callable[[str, JSON], None]
log = logging.getLogger("trickcam.service")


class Broker:
    """Per-table fan-out of messages to subscriber queues (use from the event loop only)."""

    def __init__(self, queue_size: int = 1024) -> None:
        self.queue_size = queue_size
        self._subscribers: dict[str, set[asyncio.Queue[JSON | None]]] = {}
        self._published: dict[str, int] = {}  # per table, the last event seq published here
        # per table, functions called with each message (a tournament's hub: no queue)
        self._listeners: dict[str, list[Listener]] = {}
        self._closers: list[Callable[[], None]] = []

    def subscribe(self, table_id: str) -> asyncio.Queue[JSON | None]:
        queue: asyncio.Queue[JSON | None] = asyncio.Queue(self.queue_size)
        self._subscribers.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[JSON | None]) -> None:
        subs = self._subscribers.get(table_id)
        if subs is not None:
            subs.discard(queue)
            if not subs:
                del self._subscribers[table_id]

    def listen(self, table_id: str, listener: Listener) -> None:
        """Call ``listener(table_id, message)`` with every message of the table, as it is
        published (on the event loop: it must be quick)."""
        self._listeners.setdefault(table_id, []).append(listener)

    def unlisten(self, table_id: str, listener: Listener) -> None:
        found = self._listeners.get(table_id)
        if found is not None:
            with contextlib.suppress(ValueError):
                found.remove(listener)
            if not found:
                del self._listeners[table_id]

    def subscribers(self, table_id: str) -> int:
        return len(self._subscribers.get(table_id, ()))

    def committed(self, table_id: str, seq: int) -> None:
        """Event ``seq`` of the table was committed, maybe by another worker (PostgreSQL's
        NOTIFY): unless this process published it, its streams are told to catch up."""
        watched = table_id in self._subscribers or table_id in self._listeners
        if seq > self._published.get(table_id, 0) and watched:
            self.publish(table_id, {"kind": "committed", "seq": seq})

    def publish(self, table_id: str, message: JSON) -> None:
        if message.get("kind") == "event":
            seq = int(message.get("seq", 0))
            self._published[table_id] = max(seq, self._published.get(table_id, 0))
        for listener in list(self._listeners.get(table_id, ())):
            try:
                listener(table_id, message)
            except Exception:  # one listener's bug must not stop the table's streams
                log.exception("live listener failed on table %s", table_id)
        for queue in list(self._subscribers.get(table_id, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self.unsubscribe(table_id, queue)
                _drain(queue)
                queue.put_nowait(None)  # tells the stream to end

    def at_close(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` when the broker closes (streams kept elsewhere end too)."""
        self._closers.append(fn)

    def close(self) -> None:
        """End every stream (shutdown)."""
        for fn in self._closers:
            fn()
        for table_id in list(self._subscribers):
            for queue in list(self._subscribers.get(table_id, ())):
                _drain(queue)
                queue.put_nowait(None)
        self._subscribers.clear()


def _drain(queue: asyncio.Queue[JSON | None]) -> None:
    while not queue.empty():
        queue.get_nowait()


def sse(message: JSON, seq: int | None = None) -> str:
    """One server-sent event: ``id:`` (when given) and a single ``data:`` line of JSON."""
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}data: {json.dumps(message, separators=(',', ':'))}\n\n"


async def stream_messages(
    broker: Broker,
    table_id: str,
    queue: asyncio.Queue[JSON | None],
    first: JSON,
    first_seq: int,
    heartbeat_s: float,
    catch_up: CatchUp | None = None,
    poll_s: float = 1.0,
) -> AsyncIterator[str]:
    """The text of one table's event stream: ``first`` (the state when the client connected),
    then every message published after it, what ``catch_up(seq)`` finds committed elsewhere
    when idle for ``poll_s``, and a comment line when idle for ``heartbeat_s``."""
    wait = min(poll_s, heartbeat_s) if catch_up is not None and poll_s > 0 else heartbeat_s
    try:
        yield "retry: 1000\n\n"
        yield sse(first, first_seq)
        sent = first_seq
        idle = 0.0
        while True:
            try:
                message = await asyncio.wait_for(queue.get(), wait)
            except TimeoutError:
                missed = await catch_up(sent) if catch_up is not None and poll_s > 0 else None
                if missed is not None and int(missed["seq"]) > sent:
                    sent = int(missed["seq"])
                    idle = 0.0
                    yield sse(missed, sent)
                    continue
                idle += wait
                if idle >= heartbeat_s:
                    idle = 0.0
                    yield ": keep-alive\n\n"
                continue
            if message is None:
                return
            seq = int(message.get("seq", 0))
            if seq <= sent:  # already in the state the client was first sent
                continue
            if message.get("kind") == "committed":  # another worker's event: read it now
                missed = await catch_up(sent) if catch_up is not None else None
                if missed is not None and int(missed["seq"]) > sent:
                    sent = int(missed["seq"])
                    yield sse(missed, sent)
                continue
            sent = seq
            yield sse(message, seq)
    finally:
        broker.unsubscribe(table_id, queue)
