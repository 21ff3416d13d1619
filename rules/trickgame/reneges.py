"""The base of every trick game's hand: how it words its refusals and keeps its reneges.

A renege is not refused: it is recorded with its evidence (:class:`~rules.knowledge.RenegeEvidence`)
as soon as the cards prove it, and, depending on the ruleset's ``renege_apply``, it ends the
hand at once (``"auto"``) or waits for a referee (``"confirm"``: a ``ConfirmRenege``, or a
``ClaimRenege`` against the seat, confirms it; a ``DismissRenege`` sets it aside). A referee
may also rule a renege the cards cannot show (``RefereeRenege``). :class:`RenegeBook` keeps
that ledger for :class:`rules.trickgame.TrickHand`; a game changes only what a claim is
(:meth:`RenegeBook._record_claim`), whether a claim never proved is itself a renege
(:meth:`RenegeBook._finish_claims`, Clabber) and the status a new renege takes
(:meth:`RenegeBook._new_status`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import ClassVar, Protocol, Self, TypeVar

from rules.errors import IllegalEvent
from rules.events import Bid, ClaimRenege, ConfirmRenege, DismissRenege, Play, RefereeRenege
from rules.knowledge import ProvenRenege, RenegeEvidence, RenegeStatus


class HandRules(Protocol):
    """What the shared hand reads from a game's ruleset."""

    @property
    def renege_apply(self) -> str: ...


@dataclass(frozen=True, slots=True)
class HandWords:
    """How a game words the refusals of the shared events: the engine's wording (Clag words
    a correction the same way), which a game may change where its hands always said it
    otherwise. ``correction``, ``proven`` and ``unknown`` are templates (over ``index``,
    ``count`` and ``event``)."""

    call: str = "bid"  # a bid is described as "bid 'pass' by seat 1"
    no_trump: str = "trump has not been made yet"  # a play before trump is made
    not_in_deck: str = "not in this game's deck"
    correction: str = "correction of event {index}: the log has {count} events"
    proven: str = "{count} reneges have been proven"
    unknown: str = "unknown event {event!r}"


class RenegeBook:
    """The hand's ledger of reneges and claims, and the checks every event handler uses
    (a mixin of the game's frozen dataclass, through :class:`~rules.trickgame.TrickHand`)."""

    __slots__ = ()

    WORDS: ClassVar[HandWords]
    BIDDING: ClassVar[frozenset[str]]  # the names of the game's bidding phases
    REFEREE_STATUS: ClassVar[RenegeStatus | None] = None  # status of a referee's renege

    rules: HandRules
    phase: str
    end: str
    reneges: tuple[ProvenRenege, ...]

    @property
    def players(self) -> int:
        raise NotImplementedError

    @property
    def trick_number(self) -> int:
        raise NotImplementedError

    @property
    def applied_reneges(self) -> tuple[ProvenRenege, ...]:
        return tuple(r for r in self.reneges if r.counts)

    # ---- the game's hooks ----------------------------------------------------------------

    def _record_claim(self, event: ClaimRenege) -> Self:
        """The state with ``event`` recorded among the claims."""
        raise NotImplementedError

    def _finish_claims(self) -> Self:
        """Settle the open claims (where a claim never proved is itself a renege)."""
        return self

    def _new_status(self, new: Self, evidence: RenegeEvidence) -> RenegeStatus:
        """The status of a renege just proven: applied, or pending a referee's confirmation."""
        return "applied" if self.rules.renege_apply == "auto" else "pending"

    # ---- checks ------------------------------------------------------------------------------

    def _describe(self, event: object) -> str:
        if isinstance(event, Play):
            return f"play {event.card} by seat {event.seat}"
        if isinstance(event, Bid):
            return f"{self.WORDS.call} {event.call!r} by seat {event.seat}"
        return repr(event)

    def _seat(self, seat: object, event: object) -> None:
        n = self.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise IllegalEvent(
                f"{self._describe(event)}: seat {seat!r} does not exist (seats 0..{n - 1})"
            )

    def _require_deal(self, event: object) -> None:
        if self.phase == "deal":
            raise IllegalEvent(f"{self._describe(event)}: no hand has been dealt")

    def _renege_trick(self) -> int:
        return 0 if self.phase in self.BIDDING else self.trick_number

    # ---- the ledger ----------------------------------------------------------------------------

    def _prove(
        self, new: Self, found: tuple[RenegeEvidence, ...], status: RenegeStatus | None = None
    ) -> Self:
        """``new`` with the reneges ``found`` recorded; the hand ends on one that counts."""
        if found:
            added = tuple(ProvenRenege(ev, status or self._new_status(new, ev)) for ev in found)
            new = evolve(new, reneges=new.reneges + added)
        elif new.phase != "over":
            return new
        return new._finish_claims()._end_on_renege()

    def _end_on_renege(self) -> Self:
        if self.end in ("", "complete") and any(r.counts for r in self.reneges):
            return evolve(self, phase="over", end="renege")
        return self

    def _referee_renege(self, event: RefereeRenege) -> Self:
        self._seat(event.seat, event)
        self._require_deal(event)
        note = event.note or "ruled by the referee"
        ev = RenegeEvidence(event.seat, self._renege_trick(), event.rule, None, None, None, note)
        return self._prove(self, (ev,), self.REFEREE_STATUS)

    def _claim(self, event: ClaimRenege) -> Self:
        self._seat(event.seat, event)
        self._seat(event.accused, event)
        self._require_deal(event)
        new = self._record_claim(event)
        if self.rules.renege_apply == "confirm":  # calling a proven renege confirms it
            reneges = tuple(
                replace(r, status="confirmed")
                if r.status == "pending" and r.seat == event.accused
                else r
                for r in new.reneges
            )
            new = evolve(new, reneges=reneges)
        return new._finish_claims()._end_on_renege()

    def _referee(self, event: ConfirmRenege | DismissRenege) -> Self:
        if self.rules.renege_apply != "confirm":
            raise IllegalEvent(
                f"{self._describe(event)}: this ruleset applies proven reneges itself"
            )
        if not 0 <= event.index < len(self.reneges):
            proven = self.WORDS.proven.format(count=len(self.reneges))
            raise IllegalEvent(f"{self._describe(event)}: {proven}")
        status: RenegeStatus = "confirmed" if isinstance(event, ConfirmRenege) else "dismissed"
        reneges = list(self.reneges)
        reneges[event.index] = replace(reneges[event.index], status=status)
        return evolve(self, reneges=tuple(reneges))._finish_claims()._end_on_renege()


_FIELDS: dict[type, tuple[str, ...]] = {}
S = TypeVar("S")
_new = object.__new__
_set = object.__setattr__


def evolve(state: S, **changes: object) -> S:
    """``dataclasses.replace`` without its overhead (one or more per event: the hot path).
    Unlike ``replace`` it does not check the names it is given: callers name fields."""
    cls = type(state)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = _new(cls)
    for name in names:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new
