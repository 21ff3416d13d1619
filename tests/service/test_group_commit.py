"""Group commit on SQLite (service/group_commit.py): events that arrive together are committed
in one transaction, each caller answered after that commit with its own outcome; one refused
event does not undo the others; the logs stay gap-free under many concurrent writers."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import BASE_SCORE, PLAYERS4, base_hand_events, race_two_stores

from rules.errors import RulesError
from service.db import make_engine, migrate
from service.store import Store

DEAL = {"type": "deal", "dealer": 0, "upcard": "9H"}


@pytest.fixture
def store(tmp_path: Path) -> Any:
    engine = make_engine(f"sqlite:///{tmp_path / 'g.db'}")
    migrate(engine)
    yield Store(engine)
    engine.dispose()


def test_events_queued_together_share_one_commit_and_keep_their_own_outcomes(
    store: Store,
) -> None:
    group = store._group
    assert group is not None and store._sqlite_writer is not None
    metas = [store.create_table("T", "clabber", PLAYERS4, {})[0] for _ in range(6)]
    # table 5 already has its deal: a second deal there is refused by the rules
    store.append(metas[5], DEAL, "scorer")
    outcomes: dict[int, object] = {}

    def post(i: int) -> None:
        try:
            outcomes[i] = store.append(metas[i], DEAL, "scorer").record.seq
        except RulesError as exc:
            outcomes[i] = exc

    before = group.batches
    threads = [threading.Thread(target=post, args=(i,)) for i in range(6)]
    with store._sqlite_writer:  # the writer is busy: every post queues up behind it
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(group._queue) < 6:
            assert time.monotonic() < deadline, "the posts did not queue"
            time.sleep(0.005)
    for t in threads:
        t.join(10)
    assert group.batches == before + 1  # one transaction, one commit for all six
    assert [outcomes[i] for i in range(5)] == [1, 1, 1, 1, 1]
    assert isinstance(outcomes[5], RulesError) and "not over" in str(outcomes[5])
    assert [len(store.records(m.id)) for m in metas] == [1, 1, 1, 1, 1, 1]


def test_many_concurrent_writers_keep_gap_free_logs(store: Store) -> None:
    events = base_hand_events()
    metas = [store.create_table("T", "clabber", PLAYERS4, {})[0] for _ in range(12)]
    failures: list[str] = []

    def writer(i: int) -> None:
        for k, event in enumerate(events):
            try:
                store.append(metas[i], event, "scorer", f"k{k}")
            except Exception as exc:  # reported below
                failures.append(f"table {i} event {k}: {exc!r}")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    fresh = Store(store.engine)  # nothing cached: what the database holds
    for meta in metas:
        assert [r.payload for r in fresh.records(meta.id)] == events
        assert fresh.snapshot(meta).state["hands"][0]["score"] == BASE_SCORE
    assert store._group is not None and store._group.jobs == 12 * len(events)


def test_two_stores_racing_one_table_on_one_file_apply_each_event_once(tmp_path: Path) -> None:
    """Two stores on one SQLite file (as two worker processes: separate locks, queues and
    caches) post the same hand with the same keys: the loser of each race gets the unique
    key's IntegrityError inside its batch, retries on the fresh log, and each event applies
    once, in order."""
    table_id, stores, events = race_two_stores(f"sqlite:///{tmp_path / 'two.db'}")
    for s in stores:
        assert [r.seq for r in s.records(table_id)] == list(range(1, len(events) + 1))
        assert [r.payload for r in s.records(table_id)] == events
        s.engine.dispose()


def test_a_store_with_a_stale_cache_decides_on_the_log_as_it_is(tmp_path: Path) -> None:
    """Store B read the table before store A (another process) appended: an event the stale
    replay refuses but the log allows is accepted; one the stale replay accepts collides on
    the seq and is applied after A's events. Nothing is refused or lost for staleness."""
    url = f"sqlite:///{tmp_path / 'stale.db'}"
    a, b = Store(make_engine(url)), Store(make_engine(url))
    migrate(a.engine)
    meta, _ = a.create_table("T", "clabber", PLAYERS4, {})
    b.snapshot(meta)  # B caches the empty table
    a.append(meta, DEAL, "scorer")
    # stale B: "a game starts with a deal"; the log: seat 1's bid is right
    assert b.append(meta, {"type": "bid", "seat": 1, "bid": "pass"}, "scorer").record.seq == 2
    a.append(meta, {"type": "bid", "seat": 2, "bid": "pass"}, "scorer")  # A is stale now too
    b_cached = b.snapshot(meta).seq
    assert b_cached == 3
    a.append(meta, {"type": "bid", "seat": 3, "bid": "pass"}, "scorer")  # seq 4, B unaware
    # stale B accepts an undo (of seq 3): its seq 4 is taken; retried on the fresh log
    undone = b.append(meta, {"type": "undo"}, "scorer")
    assert undone.record.seq == 5
    log = [(r.seq, r.payload["type"]) for r in a.records(meta.id)]
    assert log == [(1, "deal"), (2, "bid"), (3, "bid"), (4, "bid"), (5, "undo")]
    assert undone.state["current"]["to_move"] == 3  # seat 3's pass was the one undone
    for s in (a, b):
        s.engine.dispose()
