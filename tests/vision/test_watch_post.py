"""``trickcam watch --post``: what reaches a running ``trickcam serve`` when the camera missed
a play. The plays go in the game's turn order; a missed play holds back the plays after it (the
server's rules engine would refuse them out of turn), and once a person names it the hand is
posted whole and the server scores it as the record does. A real server in a thread, the real
poster; the hand log is built from a simulated Clabber hand (no video needed)."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from rules.cards import Card
from rules.records import score_record
from vision.cmd_watch import Poster, setup_events
from vision.decode import LABELS, Reading
from vision.games import clabber
from vision.handlog import HandLog, PlayEvent


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    import uvicorn

    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings(db=str(tmp_path / "tables.db")))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


def _get(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


def _play(log: HandLog, seat: int, card: Card | None, trick: int) -> None:
    reading = (
        None if card is None else Reading(card, 1.0, str(card), 1.0, None, 0.0, False, None, "")
    )
    log.plays.append(
        PlayEvent(
            index=len(log.plays), seat=seat, card=card, t=float(len(log.plays)), trick=trick,
            reading=reading, probs=np.zeros(len(LABELS)), crop=np.zeros((1, 1, 3), np.uint8),
            quad=np.zeros((4, 2)), track_id=len(log.plays),
        )
    )  # fmt: skip


@pytest.mark.parametrize("which", [1, 9, 22])
def test_a_missed_play_holds_back_the_plays_after_it_until_a_person_names_it(
    server: str, which: int
) -> None:
    from rules.clabber.simulate import hand_record, simulate_hand

    rng = random.Random(which)
    sim = simulate_hand(rng, dealer=which % 4)
    while sim.state.end != "complete":
        sim = simulate_hand(rng, dealer=which % 4)
    truth = hand_record(sim.state)
    spec = clabber(which % 4, str(truth["upcard"]), truth["bidding"])  # type: ignore[arg-type]
    body = json.dumps({"game": "clabber", "name": "t", "players": ["a", "b", "c", "d"]}).encode()
    req = urllib.request.Request(
        f"{server}/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    table = json.loads(urllib.request.urlopen(req, timeout=10).read())
    refused: list[str] = []
    poster = Poster(f"{server}/api/tables/{table['id']}", table["scorer_token"], refused.append)
    for event in setup_events(spec):
        poster.add(event)

    log = HandLog(spec)
    k, j = divmod(which, 4)
    missed_card: Card | None = None
    for number, trick in enumerate(sim.state.tricks, start=1):
        for pos, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            if number == k + 1 and pos == j:
                missed_card = card
                continue
            _play(log, seat, card, number)
            poster.sync(log)
        if number == k + 1:  # the trick closes with the missed play (as the watcher does)
            _play(log, trick.seats[j], None, number)
            poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    current = state["current"]
    posted = sum(len(t["cards"]) for t in current["tricks"]) + len(current["trick"])
    assert posted == 4 * k + j  # everything before the missed play in turn order, no more
    assert refused == []  # nothing was sent out of turn
    assert len(poster.waiting(log)) == len(log.plays) - posted

    assert missed_card is not None
    missed = log.missed()
    log.correct(missed[0], missed_card, by="a person")
    poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    assert refused == [] and poster.waiting(log) == []
    assert state["hands"][0]["score"] == score_record(truth)["score"]
    assert state["hands"][0]["score"] == score_record(log.record())["score"]
