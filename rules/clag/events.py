"""The events of a Clag round. A round is its event log; replaying the log gives the state.

Hands are hidden: :class:`Deal` says the cards were dealt and may carry the hands when they
are known (a digital table, a test, a record replayed after the round); the engine otherwise
learns each hand from the cards played.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards are dealt; ``hands`` (by seat) when they are known, else ``None``."""

    hands: tuple[frozenset[Card], ...] | None = None


@dataclass(frozen=True, slots=True)
class TurnTrump:
    """The dealer turns the next card of the pack; its suit is trump."""

    card: Card


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Round 14: the dealer chooses trump (``None``: no trump, if the ruleset allows it)."""

    suit: Suit | None


@dataclass(frozen=True, slots=True)
class Contract:
    """A player states how many tricks he will win."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class Play:
    """A player plays a card; in round 12 a two also ``named`` the card it stands for."""

    seat: int
    card: Card
    named: Card | None = None


Event = Deal | TurnTrump | ChooseTrump | Contract | Play
