"""The adapter between the API's JSON events and each game's rules engine.

A table's log holds the events as the API accepted them (plain JSON). Its state is a replay:
the log is first reduced to its *effective* events (:func:`effective_log` honours ``undo``
and ``correct``, which never delete rows), each effective event is turned into the engine's
value by the game's :class:`GameSpec`, and the engine's states are folded over them by
:class:`TableSession`, which starts a new game when one is won (a table plays game after
game; its score sheet runs across them).

Two kinds of failure, kept apart because the API answers them differently:

* :class:`FieldError`: the event is malformed for this table (a seat that does not exist, an
  event type the game does not have, a missing upcard): 422 naming the field;
* a ``RulesError`` from the engine: the event is well formed but impossible now (out of turn,
  a card twice): 409 with the rule's reason.

The game specs (one small table-driven module per family) live in :mod:`service.games_hands`
and :mod:`service.games_clag`; :func:`spec_for` finds one by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.cards import Card, Suit
from rules.errors import IllegalEvent, RulesError
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


def spec_for(game: str) -> GameSpec:
    from service.games_clag import CLAG
    from service.games_hands import BELOTE, CLABBER, KLABERJASS

    specs: dict[str, GameSpec] = {
        "clabber": CLABBER,
        "klaberjass": KLABERJASS,
        "belote": BELOTE,
        "clag": CLAG,
    }
    if game not in specs:
        raise FieldError("game", f"unknown game {game!r}: expected one of {', '.join(specs)}")
    return specs[game]


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


# -- undo and corrections ----------------------------------------------------------------------


def effective_log(rows: Iterable[tuple[int, JSON]]) -> list[tuple[int, JSON]]:
    """The game events that count, in order, from ``(seq, payload)`` rows.

    ``{"type": "undo"}`` reverses the latest action not yet undone (an event or a correction);
    ``{"type": "correct", "seq": N, "event": {...} | null}`` replaces event ``N`` (or removes
    it when ``event`` is null). Raises ``IllegalEvent`` for an undo with nothing to undo or a
    correction of an event that does not count.
    """
    entries: dict[int, JSON | None] = {}
    actions: list[tuple[int, JSON | None, bool]] = []  # (seq, previous payload, was an add)
    for seq, payload in rows:
        kind = payload.get("type")
        if kind == "undo":
            if not actions:
                raise IllegalEvent("undo: there is nothing to undo")
            target, previous, added = actions.pop()
            if added:
                del entries[target]
            else:
                entries[target] = previous
        elif kind == "correct":
            target = int(payload["seq"])
            if entries.get(target) is None:
                raise IllegalEvent(
                    f"correction of event {target}: no such event counts in the log "
                    "(never posted, undone, removed, or itself an undo/correction)"
                )
            actions.append((target, entries[target], False))
            entries[target] = payload.get("event")
        else:
            entries[seq] = payload
            actions.append((seq, None, True))
    return [(seq, p) for seq, p in entries.items() if p is not None]


# -- a table: game after game --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSession:
    """The engine states of a table's games (the last possibly in progress)."""

    spec: GameSpec
    rules: Any
    seats: int
    games: tuple[Any, ...] = ()

    @classmethod
    def new(cls, game: str, players: Sequence[str], options: Mapping[str, Any]) -> TableSession:
        spec = spec_for(game)
        seats = spec.seats(len(players), options)
        return cls(spec, spec.make_rules(options, seats), seats)

    def apply(self, payload: JSON) -> TableSession:
        """The session after one game event; FieldError or RulesError when it cannot be."""
        event = to_engine(self.spec, payload, self.seats)
        if not self.games or self.spec.is_over(self.games[-1]):
            if payload.get("type") != "deal":
                what = "the table's first game" if not self.games else "a new game"
                raise IllegalEvent(f"{payload.get('type')!r}: {what} starts with a deal")
            if payload.get("dealer") is None:
                dealer = self.spec.first_dealer_after(self.games[-1]) if self.games else None
                if dealer is None:
                    raise FieldError("dealer", "missing: the first deal of a game names the dealer")
                payload = {**payload, "dealer": dealer}
                event = to_engine(self.spec, payload, self.seats)
            game = self.spec.new_game(self.rules, self.seats, event, payload)
            return dataclasses.replace(self, games=self.games + (game,))
        game = self.spec.apply(self.games[-1], event, payload)
        return dataclasses.replace(self, games=self.games[:-1] + (game,))

    def replay(self, log: Iterable[tuple[int, JSON]]) -> TableSession:
        session = self
        for _seq, payload in log:
            session = session.apply(payload)
        return session
