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

The event readers and the :class:`~service.game_spec.GameSpec` protocol live in
:mod:`service.game_spec`, the game specs (one small table-driven module per family) in
:mod:`service.games_hands` and :mod:`service.games_clag`; :func:`spec_for` finds one by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalEvent
from service.game_spec import (
    CONTROL_TYPES,
    JSON,
    EngineFailure,
    FieldError,
    GameSpec,
    to_engine,
)
from service.games_clag import CLAG
from service.games_hands import BELOTE, CLABBER, KLABERJASS

__all__ = [
    "CONTROL_TYPES",
    "JSON",
    "EngineFailure",
    "FieldError",
    "GameSpec",
    "TableSession",
    "effective_log",
    "spec_for",
]


def spec_for(game: str) -> GameSpec:
    specs: dict[str, GameSpec] = {
        "clabber": CLABBER,
        "klaberjass": KLABERJASS,
        "belote": BELOTE,
        "clag": CLAG,
    }
    if game not in specs:
        raise FieldError("game", f"unknown game {game!r}: expected one of {', '.join(specs)}")
    return specs[game]


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
