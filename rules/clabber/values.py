"""The small values a Clabber hand keeps: finished tricks, proven reneges, claims and
declared melds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.cards import Card
from rules.clabber.ruleset import team_of
from rules.knowledge import RenegeEvidence

RenegeStatus = Literal["applied", "pending", "confirmed", "dismissed"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: ``number`` (1-based), seats and cards in play order, winning seat."""

    number: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class ProvenRenege:
    evidence: RenegeEvidence
    status: RenegeStatus

    @property
    def team(self) -> int:
        return team_of(self.evidence.seat)

    @property
    def counts(self) -> bool:
        return self.status in ("applied", "confirmed")


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
