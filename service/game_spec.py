"""What a game is to the service: reading an event's JSON into the engine's values, and the
:class:`GameSpec` each game's module provides (:mod:`service.games_hands` for the games to 500,
:mod:`service.games_clag` for Clag); :func:`service.games.spec_for` finds one by name.

Why a module of its own: the game modules build on these readers and the protocol, and the
table session (:mod:`service.games`) builds on the game modules; with the readers here the
imports run one way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rules.cards import Card, Suit
from rules.errors import RulesError
from rules.events import (
    Announce,
    Bid,
    ClaimRenege,
    ConfirmRenege,
    Declare,
    DismissRenege,
    Misdeal,
    Play,
    RefereeRenege,
    Show,
)

JSON = dict[str, Any]
CONTROL_TYPES = frozenset({"undo", "correct"})


class FieldError(ValueError):
    """An event or table that is malformed for this game: answered 422 naming ``field``."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class EngineFailure(RulesError):
    """The rules engine failed on an event (a bug, not a rule): the event is refused like an
    impossible one, so the log never holds an event its replay cannot get past."""


# -- reading the JSON values -----------------------------------------------------------------


def card_of(payload: Mapping[str, Any], field: str = "card") -> Card:
    value = payload.get(field)
    if value is None:
        raise FieldError(field, "missing: a card code such as '10H'")
    try:
        return Card.parse(value)
    except RulesError as exc:
        raise FieldError(field, str(exc)) from None


def cards_of(payload: Mapping[str, Any], field: str = "cards") -> tuple[Card, ...]:
    value = payload.get(field)
    if not isinstance(value, list) or not value:
        raise FieldError(field, "missing: a list of card codes")
    return tuple(card_of({field: v}, field) for v in value)


def optional_card(payload: Mapping[str, Any], field: str) -> Card | None:
    return None if payload.get(field) is None else card_of(payload, field)


def suit_of(payload: Mapping[str, Any], field: str = "suit") -> Suit | None:
    value = payload.get(field)
    if value is None:
        return None
    try:
        return Suit.parse(str(value))
    except RulesError as exc:
        raise FieldError(field, str(exc)) from None


def seat_of(payload: Mapping[str, Any], seats: int, field: str = "seat") -> int:
    value = payload.get(field)
    if value is None:
        raise FieldError(field, "missing: a seat number")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise FieldError(field, f"seat {value!r} does not exist: seats are 0..{seats - 1}")
    return value


def hands_of(payload: Mapping[str, Any], seats: int) -> tuple[tuple[Card, ...], ...] | None:
    value = payload.get("hands")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != seats:
        raise FieldError("hands", f"expected {seats} hands (one list of cards per seat)")
    return tuple(cards_of({"hands": h}, "hands") for h in value)


# -- the events every game shares ------------------------------------------------------------

Builder = Callable[[Mapping[str, Any], int], object]

SHARED_BUILDERS: dict[str, Builder] = {
    "play": lambda p, n: Play(seat_of(p, n), card_of(p)),
    "bid": lambda p, n: Bid(seat_of(p, n), str(p.get("bid", "")).strip()),
    "declare": lambda p, n: Declare(seat_of(p, n), cards_of(p)),
    "show": lambda p, n: Show(seat_of(p, n), cards_of(p)),
    "announce": lambda p, n: Announce(seat_of(p, n), str(p.get("what", ""))),
    "claim_renege": lambda p, n: ClaimRenege(
        seat_of(p, n), seat_of(p, n, "accused"), str(p.get("rule") or "")
    ),
    "referee_renege": lambda p, n: RefereeRenege(
        seat_of(p, n), str(p.get("rule") or ""), str(p.get("note") or "")
    ),
    "confirm_renege": lambda p, n: ConfirmRenege(int(p["index"])),
    "dismiss_renege": lambda p, n: DismissRenege(int(p["index"])),
    "misdeal": lambda p, n: Misdeal(str(p.get("reason") or "")),
}


def rules_from(cls: type[Any], options: Mapping[str, Any], **fixed: Any) -> Any:
    """A ruleset dataclass from a table's ``options`` (unknown names: a FieldError)."""
    known = {f.name for f in dataclasses.fields(cls)} - set(fixed)
    for name in options:
        if name not in known:
            raise FieldError(
                "options", f"unknown option {name!r}: expected one of {', '.join(sorted(known))}"
            )
    try:
        return cls(**{**options, **fixed})
    except (RulesError, TypeError, ValueError) as exc:
        raise FieldError("options", str(exc)) from None


# -- a game's rules, as the service needs them ------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandRow:
    """One scored hand (or Clag round) on the table's score sheet."""

    dealer: int
    score: tuple[int, ...]
    set: bool | tuple[bool, ...]
    redeal: bool
    end: str
    reneges: tuple[JSON, ...]
    detail: JSON


class GameSpec(Protocol):
    """What the service needs of a game; an engine state ``G`` is opaque to the service."""

    @property
    def name(self) -> str:
        """The game's name in the API (``"clabber"``...)."""

    def seats(self, players: int, options: Mapping[str, Any]) -> int:
        """The number of seats for ``players`` names (FieldError when the count is wrong)."""

    def sides(self, seats: int) -> list[list[int]]:
        """The seats scoring together, side by side (the columns of the score sheet)."""

    def make_rules(self, options: Mapping[str, Any], seats: int) -> Any:
        """The engine's ruleset from the table's options (FieldError for a bad option)."""

    def builders(self) -> Mapping[str, Builder]:
        """Event type -> function building the engine's event from the JSON."""

    def new_game(self, rules: Any, seats: int, event: object, payload: JSON) -> Any:
        """The game after its first event (a deal naming the dealer)."""

    def apply(self, game: Any, event: object, payload: JSON) -> Any: ...

    def is_over(self, game: Any) -> bool: ...

    def winners(self, game: Any) -> list[int]:
        """The winning side(s) of a finished game."""

    def rows(self, game: Any) -> list[HandRow]:
        """The game's scored hands, in order."""

    def current(self, game: Any) -> JSON | None:
        """The hand in progress (or the last one, just finished), for the live view."""

    def first_dealer_after(self, game: Any) -> int | None:
        """Who deals the first hand of the game after ``game`` when the deal does not say
        (``None``: the deal must name the dealer)."""


def to_engine(spec: GameSpec, payload: JSON, seats: int) -> object:
    kind = payload.get("type")
    builder = spec.builders().get(str(kind))
    if builder is None:
        raise FieldError("type", f"{spec.name} has no {kind!r} events")
    try:
        return builder(payload, seats)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, FieldError):
            raise
        raise FieldError(str(kind), f"cannot read the event: {exc}") from None
