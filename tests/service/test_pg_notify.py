"""The LISTEN thread of service/pg_notify.py on a real PostgreSQL server: stopping it wakes it
at once (an app's shutdown, hence every PostgreSQL API test, used to wait out its poll), and
the empty wake-up NOTIFY is ignored by the other workers' listeners."""

from __future__ import annotations

import threading
import time

from sqlalchemy import text

from service.db import make_engine
from service.pg_notify import CHANNEL, CommitListener


def test_stop_wakes_the_listener_at_once_and_others_ignore_the_wake_up(pg_url: str) -> None:
    engine = make_engine(pg_url)
    seen: list[tuple[str, int]] = []
    got = threading.Event()

    def other_worker(table_id: str, seq: int) -> None:
        seen.append((table_id, seq))
        got.set()

    stopping = CommitListener(engine, lambda _table, _seq: None)
    stopping.poll_s = 60.0  # only a wake-up can end its wait within stop()'s 5 s join
    other = CommitListener(engine, other_worker)
    try:
        for listener in (stopping, other):
            listener.start()
            assert listener.listening.wait(15)
        started = time.monotonic()
        stopping.stop()
        assert not stopping._thread.is_alive(), "stop() left the thread waiting"
        assert time.monotonic() - started < 2.0
        # notifications arrive in order: once this one is seen, the wake-up was seen before it
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_notify(:c, 't1:7')"), {"c": CHANNEL})
        assert got.wait(15)
        assert seen == [("t1", 7)]
    finally:
        stopping.stop()
        other.stop()
        engine.dispose()
