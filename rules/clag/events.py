"""Clag's own events. The shared ones (``Play``, ``Bid``, referee events) live in
:mod:`rules.events`; a round is its event log and replaying the log gives the state.

Hands are hidden: :class:`Deal` says the cards were dealt and may carry the hands when they
are known (a digital table, a test); the engine otherwise learns each hand from the cards
played. A wild two in round 12 is ``Play(seat, 2H)`` followed by ``NameWild(seat, AS)``: the
camera sees the two, the table hears the name.

A :class:`~rules.events.Correct` is not itself logged: the state it gives is the replay of the
corrected log (:func:`corrected_log`), at the round level or the game level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from rules.cards import Card, Suit
from rules.clag.errors import ClagEventError
from rules.events import Bid, ConfirmRenege, Correct, DismissRenege, Play


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
    """A player states how many tricks he will win (``Bid(seat, "3")`` is read the same)."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class NameWild:
    """Round 12: the player who just played a two names the card it stands for."""

    seat: int
    named: Card


Event = Deal | TurnTrump | ChooseTrump | Contract | Bid | Play | NameWild
RefereeEvent = ConfirmRenege | DismissRenege
Logged = Event | RefereeEvent
Log = tuple[Logged, ...]


def corrected_log(log: Log, correction: Correct) -> Log:
    """``log`` with event number ``correction.index`` (0-based) replaced by
    ``correction.event``, or removed when it is ``None``. The caller replays the result, which
    checks every event (a replacement that is no Clag event is refused there)."""
    index = correction.index
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(log):
        raise ClagEventError(f"correction of event {index!r}: the log has {len(log)} events")
    kept = () if correction.event is None else (cast(Logged, correction.event),)
    return log[:index] + kept + log[index + 1 :]


__all__ = [
    "Bid",
    "ChooseTrump",
    "ConfirmRenege",
    "Contract",
    "Correct",
    "Deal",
    "DismissRenege",
    "Event",
    "Log",
    "Logged",
    "NameWild",
    "Play",
    "RefereeEvent",
    "TurnTrump",
    "corrected_log",
]
