"""A tournament's live stream: each change built once, and only what changed sent.

Why: each open tournament stream used to rebuild the whole tournament from the database on
every event at any of its tables and send all of it (22 KB a message for 16 teams): with
120 tables posting an event a second, 20 open streams (the big screen, phones, the referee)
took POSTs from 3 to over 1,000 ms. Here one :class:`TournamentHub` per tournament and
process follows the tournament's tables (a listener on the broker: no queue, no database
read for events this process committed): each event's table state, already in the message,
gives that table's row and finished games; the standings are recomputed from the results in
memory only when a game ends. Changes are gathered for :data:`FLUSH_S` and sent together:
``{"kind": "tables", "rows": [...]}`` (each changed table's latest row) plus ``"standings"``
when they changed, serialised once and handed to every stream: at 120 events a second a
stream writes 5 messages a second, not 120, and a screen is at most a fifth of a second late.

A stream's first message is the whole tournament (``{"kind": "tournament", ...}``, as
``GET /api/tournaments/{id}`` gives it); a stream too slow to keep up is ended (the
``EventSource`` reconnects and is sent the whole tournament again). Events another worker
committed (PostgreSQL's NOTIFY, or the hub's one poll per ``stream_poll_s`` for the whole
tournament) are read from the database once, for the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.concurrency import run_in_threadpool

from service.live import JSON, Broker, sse
from service.tournament import TableResult
from service.tournament_store import (
    Seating,
    TournamentMeta,
    TournamentStore,
    standings_json,
    table_results,
    table_row,
)

log = logging.getLogger("trickcam.service")
QUEUE = 256  # messages a stream may fall behind before it is ended
FLUSH_S = 0.2  # changes gathered this long go out as one message


class TournamentHub:
    """The live view of one tournament in this process, and its streams' queues."""

    def __init__(
        self, tournaments: TournamentStore, meta: TournamentMeta, broker: Broker, poll_s: float
    ) -> None:
        self.tournaments, self.meta, self.broker, self.poll_s = tournaments, meta, broker, poll_s
        self.queues: set[asyncio.Queue[str | None]] = set()
        self.ready = asyncio.Event()
        self.failed = False
        self.view: JSON = {}
        self.seatings: dict[str, Seating] = {}
        self.rows: dict[str, int] = {}  # table id -> index in view["tables"]
        self.results: dict[str, list[TableResult]] = {}
        self.early: list[tuple[str, JSON]] = []  # messages before the first view was ready
        self.tasks: set[asyncio.Task[None]] = set()
        self.pending: dict[str, JSON] = {}  # rows changed since the last message
        self.standings_changed = False
        self.flushing: asyncio.TimerHandle | None = None

    async def start(self) -> None:
        seatings = await run_in_threadpool(self.tournaments.seatings, self.meta.id)
        self.seatings = {s.table_id: s for s in seatings}
        for table_id in self.seatings:  # before the view: no event falls in between
            self.broker.listen(table_id, self.on_message)
        try:
            view = await run_in_threadpool(self.tournaments.view, self.meta)
            self.view = {**view, "tables": [dict(t) for t in view["tables"]]}
            self.rows = {t["id"]: i for i, t in enumerate(self.view["tables"])}
            states = await run_in_threadpool(self._states)
            self.results = {t: table_results(self.seatings[t], st) for t, st in states.items()}
        except BaseException:
            self.failed = True
            self.ready.set()  # streams waiting for it learn it failed
            self.close()
            raise
        self.ready.set()
        for table_id, message in self.early:
            self.on_message(table_id, message)
        self.early.clear()
        if self.poll_s > 0:
            self._spawn(self._poll())

    def _states(self) -> dict[str, JSON]:
        out = {}
        for table_id in self.seatings:
            table = self.tournaments.store.meta(table_id)
            if table is not None:
                out[table_id] = self.tournaments.store.snapshot(table).state
        return out

    # -- changes in ---------------------------------------------------------------------------

    def on_message(self, table_id: str, message: JSON) -> None:
        """A message the broker published for one of the tournament's tables (event loop)."""
        if not self.ready.is_set():
            self.early.append((table_id, message))
            return
        kind = message.get("kind")
        if kind == "event":
            self.apply(table_id, message["state"])
        elif kind == "committed":  # another worker's event: read the table once, for all
            self._spawn(self._refresh(table_id))
        elif kind == "evidence":
            self.flush()  # what changed before it goes first
            self.send({"kind": "evidence", "table": table_id, "seq": message.get("play")})

    def apply(self, table_id: str, state: JSON) -> None:
        index = self.rows.get(table_id)
        if index is None or int(state["seq"]) <= int(self.view["tables"][index]["seq"]):
            return  # not ours, or already in the view
        seating = self.seatings[table_id]
        row = table_row(seating, list(self.meta.entrants), state)
        self.view["tables"][index] = row
        self.pending[table_id] = row
        results = table_results(seating, state)
        if results != self.results.get(table_id):
            self.results[table_id] = results
            ranked = standings_json(self.meta, [r for rs in self.results.values() for r in rs])
            if ranked != self.view["standings"]:
                self.view["standings"] = ranked
                self.standings_changed = True
        if self.flushing is None:
            self.flushing = asyncio.get_running_loop().call_later(FLUSH_S, self.flush)

    def flush(self) -> None:
        """Send what changed since the last message, as one message."""
        if self.flushing is not None:
            self.flushing.cancel()
            self.flushing = None
        if not self.pending and not self.standings_changed:
            return
        message: JSON = {"kind": "tables", "rows": list(self.pending.values())}
        if self.standings_changed:
            message["standings"] = self.view["standings"]
        self.pending.clear()
        self.standings_changed = False
        self.send(message)

    async def _refresh(self, table_id: str) -> None:
        table = await run_in_threadpool(self.tournaments.store.meta, table_id)
        if table is not None:
            snap = await run_in_threadpool(self.tournaments.store.snapshot, table)
            self.apply(table_id, snap.state)

    async def _poll(self) -> None:
        """Events other workers committed, for every table at once (one query a poll)."""
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                latest = await run_in_threadpool(self.tournaments.latest_seqs, self.meta.id)
            except Exception as exc:  # the database is away for a moment: try again
                log.warning("tournament %s: polling failed (%s)", self.meta.id, exc)
                continue
            for table_id, seq in latest:
                index = self.rows.get(table_id)
                if index is not None and seq > int(self.view["tables"][index]["seq"]):
                    await self._refresh(table_id)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- streams out --------------------------------------------------------------------------

    def subscribe(self) -> tuple[asyncio.Queue[str | None], str]:
        """A queue for a new stream, and its first message: the whole tournament now."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.queues.add(queue)
        return queue, sse({"kind": "tournament", "table": None, **self.view})

    def unsubscribe(self, queue: asyncio.Queue[str | None]) -> None:
        self.queues.discard(queue)

    def send(self, message: JSON) -> None:
        text = sse(message)  # once, for every stream
        for queue in list(self.queues):
            try:
                queue.put_nowait(text)
            except asyncio.QueueFull:  # too slow: end it (it reconnects to the whole view)
                self.queues.discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)

    def close(self) -> None:
        if self.flushing is not None:
            self.flushing.cancel()
            self.flushing = None
        for table_id in self.seatings:
            self.broker.unlisten(table_id, self.on_message)
        for task in list(self.tasks):
            task.cancel()
        for queue in list(self.queues):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
        self.queues.clear()


class Hubs:
    """The process's tournament hubs: made when a tournament's first stream opens, closed
    when its last one ends."""

    def __init__(self, broker: Broker, poll_s: float) -> None:
        self.broker, self.poll_s = broker, poll_s
        self._hubs: dict[str, TournamentHub] = {}
        broker.at_close(self.close)

    def close(self) -> None:
        """End every tournament stream (shutdown)."""
        for hub in list(self._hubs.values()):
            hub.close()
        self._hubs.clear()

    async def join(
        self, tournaments: TournamentStore, meta: TournamentMeta
    ) -> tuple[TournamentHub, asyncio.Queue[str | None], str]:
        hub = self._hubs.get(meta.id)
        if hub is None:
            hub = TournamentHub(tournaments, meta, self.broker, self.poll_s)
            self._hubs[meta.id] = hub
            try:
                await hub.start()
            except BaseException:
                self._hubs.pop(meta.id, None)
                raise
        else:
            await hub.ready.wait()
            if hub.failed:
                raise RuntimeError(f"tournament {meta.id}: its live view could not be read")
        queue, first = hub.subscribe()
        return hub, queue, first

    def leave(self, hub: TournamentHub, queue: asyncio.Queue[str | None]) -> None:
        hub.unsubscribe(queue)
        if not hub.queues and self._hubs.get(hub.meta.id) is hub:
            del self._hubs[hub.meta.id]
            hub.close()

    def hub(self, tournament_id: str) -> TournamentHub | None:
        return self._hubs.get(tournament_id)
