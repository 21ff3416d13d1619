"""Helpers for the service tests: engine events as API JSON, a real server in a thread."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn
from fastapi import FastAPI

from rules.clabber import Deal as ClabberDeal
from rules.clag import ChooseTrump, Contract, NameWild, TurnTrump
from rules.clag import Deal as ClagDeal
from rules.events import Announce, Bid, Declare, Play, Show
from rules.klaberjass import Deal as KlaberjassDeal
from rules.klaberjass import ExchangeDix

PLAYERS4 = ["Ann", "Bob", "Cy", "Di"]

# rules.md Clabber, hand-checked (tests/rules/clabber_deals.py BASE): dealer 3, upcard 9H,
# seat 0 says "play". Trick points 128 / 34; team 1 wins the meld contest with a fifty (50)
# and holds bella (20): 128 against 104, the makers are not set.
BASE_DEALER = 3
BASE_PLAYS = "JH QH 10H 9H  AH KH JS 9D  10S AS QS 10C  10D KD JC AD  KS 9S QD QC  9C JD AC KC"
BASE_SCORE = [128, 104]


def base_hand_events() -> list[dict[str, Any]]:
    """The BASE hand as the API's events (a camera's view: no hands in the deal)."""
    out: list[dict[str, Any]] = [{"type": "deal", "dealer": BASE_DEALER, "upcard": "9H"}]
    out.append({"type": "bid", "seat": 0, "bid": "play"})
    seat = 0  # the dealer's left leads; the engine checks every later turn
    winners = [0, 0, 1, 0, 0, 2]
    cards = BASE_PLAYS.split()
    for trick in range(6):
        for i in range(4):
            out.append({"type": "play", "seat": (seat + i) % 4, "card": cards[trick * 4 + i]})
        seat = winners[trick]
    return out


def to_json(event: object, dealer: int | None = None) -> dict[str, Any]:
    """An engine event as the API's JSON event (hands left out, as a camera sees it)."""
    if isinstance(event, ClabberDeal | KlaberjassDeal):
        out: dict[str, Any] = {"type": "deal", "dealer": event.dealer}
        if event.upcard is not None:
            out["upcard"] = str(event.upcard)
        if getattr(event, "bottom", None) is not None:
            out["bottom"] = str(event.bottom)  # type: ignore[union-attr]
        return out
    if isinstance(event, ExchangeDix):
        return {"type": "exchange_dix", "seat": event.seat}
    if isinstance(event, Declare | Show):
        kind = "declare" if isinstance(event, Declare) else "show"
        return {"type": kind, "seat": event.seat, "cards": [str(c) for c in event.cards]}
    if isinstance(event, Announce):
        return {"type": "announce", "seat": event.seat, "what": event.what}
    if isinstance(event, ClagDeal):
        return {"type": "deal", "dealer": dealer}
    if isinstance(event, Bid):
        return {"type": "bid", "seat": event.seat, "bid": event.call}
    if isinstance(event, Contract):
        return {"type": "bid", "seat": event.seat, "bid": event.tricks}
    if isinstance(event, Play):
        return {"type": "play", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, TurnTrump):
        return {"type": "trump", "card": str(event.card)}
    if isinstance(event, ChooseTrump):
        return {"type": "choose_trump", "suit": None if event.suit is None else event.suit.value}
    if isinstance(event, NameWild):
        return {"type": "name", "seat": event.seat, "card": str(event.named)}
    raise TypeError(f"no JSON form for {event!r}")


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        return int(sock.getsockname()[1])


class ThreadServer:
    """A real uvicorn server for ``app`` in a background thread, on a port the OS chose."""

    def __init__(self, app: FastAPI) -> None:
        self.sock = free_socket()
        self.port = int(self.sock.getsockname()[1])
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def race_two_stores(url: str) -> tuple[str, list[Any], list[dict[str, Any]]]:
    """Two stores on one database (as two worker processes have: separate locks, caches and
    pools) post the base hand to one table with the same Idempotency-Keys, in two threads.
    Returns the table id, the stores (their engines still open: dispose them) and the events
    posted; fails the test if any append raised."""
    from service.db import make_engine, migrate
    from service.store import Store

    stores = [Store(make_engine(url)), Store(make_engine(url))]
    migrate(stores[0].engine)
    meta, _token = stores[0].create_table("T", "clabber", PLAYERS4, {})
    events = base_hand_events()
    failures: list[str] = []

    def writer(store: Store) -> None:
        table = store.meta(meta.id)
        assert table is not None
        for k, event in enumerate(events):
            try:
                store.append(table, event, "scorer", f"k{k}")
            except Exception as exc:  # reported below
                failures.append(f"event {k}: {exc!r}")

    threads = [threading.Thread(target=writer, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    return meta.id, stores, events


# the club's organiser PIN the test servers are started with, and the header that sends it
ORGANISER_PIN = "club-pin-2468"
ORGANISER = {"Authorization": f"Bearer {ORGANISER_PIN}"}
