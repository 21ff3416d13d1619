"""Klaberjass's own events; the shared ones (Play, Bid, Declare, ...) live in :mod:`rules.events`."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card


@dataclass(frozen=True, slots=True)
class Deal:
    """``dealer`` dealt; ``upcard`` is the trump candidate (optional in Jass-deux), ``bottom``
    the stock's bottom card when shown. ``hands`` is the whole deal when it is known (a
    simulation): each seat's cards as they will be played (after any dix exchange); the
    engine then proves an illegal play at once. A camera leaves it ``None``."""

    dealer: int
    upcard: Card | None
    bottom: Card | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class ExchangeDix:
    """``seat`` exchanges the trump 7 (dix) for the trump candidate (rules.md Decision)."""

    seat: int
