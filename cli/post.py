"""Posting a watched hand to a running ``trickcam serve``: the client side of the API.

``trickcam watch --post URL --token T`` sends the deal and calls (:func:`setup_events`), then
each play as the hand log allows it (:class:`Poster`), one POST per event with an
Idempotency-Key, retried with the next event while the server cannot be reached.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from vision.track.games import GameSpec


class Poster:
    """Send the hand's events to ``trickcam serve`` (one POST each, retried on the next)."""

    def __init__(self, url: str, token: str, log: Callable[[str], None]) -> None:
        self.table_url = url.rstrip("/")
        self.url = self.table_url + "/events"
        self.token, self.log = token, log
        self.queue: list[dict[str, Any]] = []
        self.sent = 0
        self.seq_of_play: dict[int, int] = {}
        self.posted: dict[int, str] = {}  # play index -> the card posted for it
        self.evidenced: set[int] = set()  # plays whose doubt the server holds
        self.session = f"watch-{int(time.time())}"

    def sync(self, log: Any) -> None:
        """Post what the hand log holds that the server has not had, in the game's turn
        order (``HandLog.postable``: a missed play holds back the plays after it until a
        person names it): a ``correct`` event for each posted play whose card has changed
        since (a person's --correct, the camera's own revision), then new plays (a wild
        two's naming right after its play). Corrections first: a play revised away from a
        card read twice frees it for the play read as it since, which the server's rules
        would refuse, for good, while the card stands posted."""
        cards = log.cards()
        named = {n.index: n.card for n in log.namings}
        for i, was in list(self.posted.items()):
            seat, card = cards[i]
            seq = self.seq_of_play.get(i)
            if card is not None and str(card) != was and seq is not None:
                fix = {"type": "play", "seat": seat, "card": str(card)}
                self.add({"type": "correct", "seq": seq, "event": fix})
                self.posted[i] = str(card)
        for i in log.postable():
            if i in self.posted:
                continue
            seat, card = cards[i]
            self.add({"type": "play", "seat": seat, "card": str(card)}, i)
            self.posted[i] = str(card)
            if i in named:
                self.add({"type": "name", "seat": seat, "card": str(named[i])})
        self.send_doubts(log)

    def send_doubts(self, log: Any) -> None:
        """What the camera saw of each posted play marked for a person (read in doubt, or
        marked since it was posted, or named by the deck): the cards to choose from, why,
        and its crop, once (``POST /api/tables/ID/plays/SEQ/evidence``). The table's page and
        the referee's list it awaiting confirmation until a person rules; a person's
        --correct before it was posted leaves nothing to ask."""
        import base64
        import urllib.error
        import urllib.request

        import cv2

        corrected = log.settled()
        for i, seq in list(self.seq_of_play.items()):
            play = log.plays[i]
            if i in self.evidenced or i in corrected or not play.shown_in_doubt:
                continue
            body: dict[str, Any] = {
                "candidates": play.choices(self.posted[i]),
                "confirm": True,
                "reason": play.reason or "read in doubt",
            }
            ok, png = cv2.imencode(".png", play.crop) if play.crop.size > 3 else (False, None)
            if ok:
                body["crop_png"] = base64.b64encode(png.tobytes()).decode()
            req = urllib.request.Request(
                f"{self.table_url}/plays/{seq}/evidence", data=json.dumps(body).encode(),
                method="POST", headers={"Content-Type": "application/json",
                                        "Authorization": f"Bearer {self.token}"},
            )  # fmt: skip
            try:
                with urllib.request.urlopen(req, timeout=3):
                    pass
            except urllib.error.HTTPError as exc:
                if exc.code >= 500:
                    return  # the server's trouble: the next sync tries again
                if exc.code != 409:  # 409: already held (an earlier run posted it)
                    self.log(f"post evidence of play {i + 1}: refused ({exc.code})")
            except (urllib.error.URLError, OSError):
                return  # unreachable: the next sync tries again
            self.evidenced.add(i)

    def waiting(self, log: Any) -> list[int]:
        """Plays of the log not posted (held back behind a missed or out-of-turn play)."""
        return [i for i in range(len(log.plays)) if i not in self.posted]

    def add(self, event: dict[str, Any], play_index: int | None = None) -> None:
        self.queue.append(
            {
                "event": event,
                "play": play_index,
                "key": f"{self.session}-{self.sent + len(self.queue)}",
            }
        )
        self.flush()

    def flush(self) -> None:
        import urllib.error
        import urllib.request

        while self.queue:
            item = self.queue[0]
            req = urllib.request.Request(
                self.url, data=json.dumps(item["event"]).encode(), method="POST",
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
                         "Idempotency-Key": item["key"]},
            )  # fmt: skip
            try:
                with urllib.request.urlopen(req, timeout=3) as resp:
                    answer = json.loads(resp.read() or b"{}")
                seq = (answer.get("accepted") or {}).get("seq")
                if item["play"] is not None and isinstance(seq, int):
                    self.seq_of_play[item["play"]] = seq
            except urllib.error.HTTPError as exc:
                if exc.code in (401, 403, 409, 422):  # refused for good: say why, go on
                    self.log(f"post {item['event']}: refused ({exc.code}) {exc.read()[:200]!r}")
                else:
                    self.log(f"post: server error {exc.code}; will retry")
                    return
            except (urllib.error.URLError, OSError) as exc:
                self.log(f"post: {self.url} unreachable ({exc}); will retry with the next event")
                return
            self.queue.pop(0)
            self.sent += 1


def setup_events(spec: GameSpec) -> list[dict[str, Any]]:
    """The events before the first card: the deal, trump and the calls."""
    h = spec.header
    events: list[dict[str, Any]] = []
    n = spec.players
    if spec.game == "clag":
        events.append({"type": "deal", "dealer": spec.dealer})
        if "trump_card" in h:
            events.append({"type": "trump", "card": h["trump_card"]})
        if "trump" in h:
            events.append({"type": "choose_trump", "suit": h["trump"]})
        contracts = h.get("contracts")
        if isinstance(contracts, list):
            for k in range(n):
                seat = (spec.dealer + 1 + k) % n
                events.append({"type": "bid", "seat": seat, "bid": contracts[seat]})
        return events
    events.append({"type": "deal", "dealer": spec.dealer, "upcard": h["upcard"]})
    calls = h.get("bidding")
    assert isinstance(calls, list)
    seat = (spec.dealer + 1) % n
    for call in calls:
        events.append({"type": "bid", "seat": seat, "bid": call})
        seat = (seat + 1) % n
    return events
