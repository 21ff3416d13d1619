"""Clabber's own events. The shared ones (Play, Bid, Declare, ...) live in :mod:`rules.events`."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card


@dataclass(frozen=True, slots=True)
class Deal:
    """``dealer`` dealt and turned ``upcard`` (the last card of the dealer's own hand).

    ``hands`` is the whole deal in seat order when it is known (a simulation, a hand typed in
    after play); the engine then catches an illegal play at once. A table camera never knows
    it: leave ``None`` and the engine learns each hand card by card.
    """

    dealer: int
    upcard: Card
    hands: tuple[tuple[Card, ...], ...] | None = None
