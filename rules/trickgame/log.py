"""A hand or a match is its event log: replaying it, and correcting it.

The engine keeps no other history. A referee's :class:`~rules.events.Correct` replaces or
removes one logged event, and the corrected state is the replay of the corrected log, so a
correction is checked by the same rules as the original events. Shared by every trick game's
hand and match (Clag keeps its own, with its own error type).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, Self, TypeVar

from rules.errors import IllegalEvent
from rules.events import Correct


class Replayable(Protocol):
    def apply(self, event: object) -> Self: ...


S = TypeVar("S", bound=Replayable)


def replay_log(start: S, events: Iterable[object]) -> S:
    """``start.apply`` folded over ``events``: the state the log leads to."""
    state = start
    for event in events:
        state = state.apply(event)
    return state


def corrected_log(
    events: tuple[object, ...] | list[object], correction: Correct, refusal: str
) -> list[object]:
    """``events`` with event number ``correction.index`` (0-based) replaced by
    ``correction.event``, or removed when that is ``None``. An index outside the log raises
    :class:`IllegalEvent` with ``refusal`` (a template over ``index``, ``count`` and
    ``event``: each game words it its own way)."""
    if not 0 <= correction.index < len(events):
        raise IllegalEvent(
            refusal.format(index=correction.index, count=len(events), event=correction)
        )
    log = list(events)
    if correction.event is None:
        del log[correction.index]
    else:
        log[correction.index] = correction.event
    return log
