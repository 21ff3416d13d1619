"""Group commit for SQLite: appends that arrive together share one transaction and one fsync.

Why: with ``synchronous=FULL`` every commit waits for the disk (several milliseconds here),
and SQLite has one writer at a time, so committing each event alone caps a whole room at a
few hundred events a second however fast the rest is, and queues every POST behind the disk.
Here a thread that wants to write puts its work in a queue and takes the writer lock; whoever
holds it runs *everything* queued and commits once. One refused event undoes no other: the
store validates an event before it inserts it, and a failed INSERT (a unique key another
process took) is undone by SQLite alone, the transaction going on. Each caller gets its own
result or exception only after that commit: an event is still acknowledged only once durable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy import Connection, Engine

from service.db import write_transaction

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("work", "value", "error", "done")

    def __init__(self, work: Callable[[Connection], T]) -> None:
        self.work = work
        self.value: T | None = None
        self.error: BaseException | None = None
        self.done = False


class GroupCommit:
    """Run pieces of write work in shared transactions (use one per engine, SQLite only)."""

    def __init__(self, engine: Engine, writer: threading.Lock) -> None:
        self.engine = engine
        self.writer = writer  # the process's one SQLite writer lock
        self._queue: list[_Job[object]] = []
        self._queue_lock = threading.Lock()
        self.batches = 0
        self.jobs = 0

    def run(self, work: Callable[[Connection], T]) -> T:
        """``work(conn)`` inside a transaction; returns (or raises) what it did, after the
        transaction holding it has committed."""
        job: _Job[T] = _Job(work)
        with self._queue_lock:
            self._queue.append(job)  # type: ignore[arg-type]
        with self.writer:
            if not job.done:  # nobody took it yet: lead a batch of all that is queued
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        if job.error is not None:
            raise job.error
        return job.value  # type: ignore[return-value]

    def _commit(self, batch: list[_Job[object]]) -> None:
        self.batches += 1
        self.jobs += len(batch)
        try:
            with write_transaction(self.engine) as conn:
                for job in batch:
                    try:
                        job.value = job.work(conn)
                    except Exception as exc:  # this job's own failure: handed to its caller
                        job.error = exc
        except Exception as exc:  # the commit failed: nothing of the batch is stored
            for job in batch:
                if job.error is None:
                    job.error, job.value = exc, None
        finally:
            for job in batch:
                job.done = True
