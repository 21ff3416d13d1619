"""The small values a Clabber hand keeps: finished tricks, proven reneges, claims and
declared melds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.cards import Card
from rules.knowledge import ProvenRenege, RenegeStatus, Trick

__all__ = ["Claim", "Declared", "ProvenRenege", "RenegeStatus", "Trick"]


@dataclass(frozen=True, slots=True)
class Claim:
    seat: int
    accused: int
    trick: int
    rule: str
    status: Literal["open", "proven", "failed", "moot"]


@dataclass(frozen=True, slots=True)
class Declared:
    """A meld declared aloud (``melds = "declared"``): on time if before the seat's first card,
    shown if its cards were shown before the seat's second card."""

    seat: int
    cards: tuple[Card, ...]
    on_time: bool
    shown: bool
