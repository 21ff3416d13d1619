"""What the hand records of every trick game share: seats, replaying into the state, tricks.

Each game reads its own record format (``rules/<game>/records.py``); these are the pieces
they read alike. Errors are :class:`~rules.errors.RecordError` values naming the field.
"""

from __future__ import annotations

from typing import TypeVar

from rules.cards import Card
from rules.errors import RecordError, RulesError
from rules.knowledge import Trick
from rules.records import record_card
from rules.trickgame.log import Replayable

S = TypeVar("S", bound=Replayable)


def record_seat(value: object, field: str, players: int) -> int:
    """A seat number read from ``field``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise RecordError(field, f"expected a seat 0..{players - 1}, got {value!r}")
    return value


def record_step(state: S, event: object, field: str) -> S:
    """``state.apply(event)``, its refusal turned into a :class:`RecordError` for ``field``."""
    try:
        return state.apply(event)
    except RulesError as exc:
        raise RecordError(field, str(exc)) from None


def record_trick_card(code: object, field: str, seen: dict[Card, str]) -> Card:
    """A card of a recorded trick, read from ``field``: a card recorded twice in one hand is
    an error that names both places. ``seen`` (card: field) is updated."""
    card = record_card(code, field)
    if card in seen:
        raise RecordError(field, f"card {card} is recorded twice (first at {seen[card]})")
    seen[card] = field
    return card


def trick_json(trick: Trick) -> dict[str, object]:
    """A finished trick as a result shows it."""
    return {
        "number": trick.number,
        "leader": trick.seats[0],
        "cards": [str(c) for c in trick.cards],
        "winner": trick.winner,
    }
