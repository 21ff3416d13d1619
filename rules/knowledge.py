"""What the table has seen: the cards each seat has shown, and the reneges they prove.

Hands are hidden. A camera sees a card only when it is played (or shown); the engine learns
each hand card by card. Every play that is legal only if the player held no card of some set
leaves an open :class:`MustNotHold`; every call that is legal only if the player held some card
leaves an open :class:`MustHold`. The table proves a renege the moment a card settles one of
them: the player who failed to follow later plays a card of the led suit; a maker without
trump has shown all his cards and none is trump, or every trump has turned up elsewhere.

The helper is game-neutral: each game decides which obligations a play creates and which rule
names they carry; this module only keeps the cards and checks the obligations against them.
Values are frozen; every method returns a new :class:`TableKnowledge` and the reneges proven.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar

from rules.cards import Card, Suit
from rules.errors import CardAlreadyPlayed, IllegalEvent


@dataclass(frozen=True, slots=True)
class RenegeEvidence:
    """A proven renege and what proves it.

    ``trick`` is the 1-based number of the trick in which the renege was committed (0: before
    the first card, e.g. in the bidding). ``card`` is the card the seat played (or the card the
    breach concerns); ``proof`` is the card that proves it (``None`` when the proof is an
    absence: the player's cards are all known and none fits); ``proof_trick`` the trick in
    which the proof was shown (``None`` when it was known in hand, e.g. the upcard, or from the
    end of the hand).
    """

    seat: int
    trick: int
    rule: str
    card: Card | None
    proof: Card | None
    proof_trick: int | None
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "trick": self.trick,
            "rule": self.rule,
            "card": None if self.card is None else str(self.card),
            "proof": None if self.proof is None else str(self.proof),
            "proof_trick": self.proof_trick,
            "detail": self.detail,
        }


RenegeStatus = Literal["applied", "pending", "confirmed", "dismissed"]


@dataclass(frozen=True, slots=True)
class ProvenRenege:
    """A renege the cards (or the referee) proved, with its status: applied at once, or
    pending until a referee confirms or dismisses it (a ruleset option of each game)."""

    evidence: RenegeEvidence
    status: RenegeStatus

    @property
    def seat(self) -> int:
        return self.evidence.seat

    @property
    def team(self) -> int:
        """The reneging side in the partnership games (seats 0+2 are team 0, 1+3 team 1); in a
        two-player game this is the seat itself."""
        return self.evidence.seat % 2

    @property
    def counts(self) -> bool:
        return self.status in ("applied", "confirmed")


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: ``number`` (1-based), seats and cards in play order, winning seat."""

    number: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class MustNotHold:
    """The play of ``card`` by ``seat`` in ``trick`` was legal only if the seat held none of
    ``forbidden`` at that moment. Any of them shown by the seat later proves ``rule`` broken."""

    seat: int
    trick: int
    rule: str
    card: Card | None
    forbidden: frozenset[Card]
    detail: str


@dataclass(frozen=True, slots=True)
class MustHold:
    """``seat`` had to hold one of ``required`` (``need_all``: every one of them) when it made
    the call. Broken when the seat's cards are all known without them, or when a required card
    turns up in another hand."""

    seat: int
    trick: int
    rule: str
    card: Card | None
    required: frozenset[Card]
    need_all: bool
    detail: str


Obligation = MustNotHold | MustHold


@dataclass(frozen=True, slots=True)
class TableKnowledge:
    """Per seat: the cards played, the cards known to be still in hand, the suits the seat is
    known (by its own plays) to be out of; and the obligations still open."""

    hand_sizes: tuple[int, ...]
    played: tuple[frozenset[Card], ...]
    held: tuple[frozenset[Card], ...]
    voids: tuple[frozenset[Suit], ...]
    open: tuple[Obligation, ...] = ()

    @classmethod
    def new(cls, hand_sizes: tuple[int, ...]) -> TableKnowledge:
        empty: frozenset[Card] = frozenset()
        n = len(hand_sizes)
        return cls(hand_sizes, (empty,) * n, (empty,) * n, (frozenset(),) * n)

    # -- queries -----------------------------------------------------------------------
    def known(self, seat: int) -> frozenset[Card]:
        """Every card ``seat`` is known to have been dealt (played or known in hand)."""
        return self.played[seat] | self.held[seat]

    def owner(self, card: Card) -> int | None:
        """The seat known to have been dealt ``card``, or ``None``."""
        for seat in range(len(self.hand_sizes)):
            if card in self.played[seat] or card in self.held[seat]:
                return seat
        return None

    def fully_known(self, seat: int) -> bool:
        return len(self.played[seat]) + len(self.held[seat]) >= self.hand_sizes[seat]

    def all_played(self) -> frozenset[Card]:
        out: frozenset[Card] = frozenset()
        for p in self.played:
            out |= p
        return out

    def possible(self, seat: int, deck: tuple[Card, ...]) -> frozenset[Card]:
        """Cards ``seat`` may still hold, assuming it has not reneged: its known cards in hand,
        or when not all known, every unseen card it is not forbidden to hold."""
        if self.fully_known(seat):
            return self.held[seat]
        seen: set[Card] = set()
        for s in range(len(self.hand_sizes)):
            seen |= self.played[s]
            if s != seat:
                seen |= self.held[s]
        forbidden: set[Card] = set()
        for ob in self.open:
            if isinstance(ob, MustNotHold) and ob.seat == seat:
                forbidden |= ob.forbidden
        return frozenset(c for c in deck if c not in seen and c not in forbidden)

    # -- updates -------------------------------------------------------------------------
    def _check_new_card(self, seat: int, card: Card, *, playing: bool) -> None:
        if not 0 <= seat < len(self.hand_sizes):
            raise IllegalEvent(f"seat {seat} does not exist (seats 0..{len(self.hand_sizes) - 1})")
        if card in self.held[seat]:
            return  # known in this hand: by construction neither played nor held elsewhere
        for s in range(len(self.hand_sizes)):
            if self.played[s] and card in self.played[s]:
                raise CardAlreadyPlayed(f"card {card} was already played by seat {s}")
            if s != seat and self.held[s] and card in self.held[s]:
                raise IllegalEvent(
                    f"card {card} is known to be in the hand of seat {s}, not seat {seat}"
                )
        if (
            card not in self.held[seat]
            and len(self.played[seat]) + len(self.held[seat]) >= self.hand_sizes[seat]
        ):
            what = "play" if playing else "show"
            raise IllegalEvent(
                f"seat {seat} cannot {what} {card}: all {self.hand_sizes[seat]} of its cards are already known"
            )

    def play(
        self, seat: int, card: Card, trick: int
    ) -> tuple[TableKnowledge, tuple[RenegeEvidence, ...]]:
        """``seat`` plays ``card`` in ``trick`` (1-based); returns the new knowledge and the
        reneges the card proves. Raises :class:`IllegalEvent` for an impossible play."""
        self._check_new_card(seat, card, playing=True)
        played = _with(self.played, seat, self.played[seat] | {card})
        held = self.held
        if card in held[seat]:
            held = _with(held, seat, held[seat] - {card})
        new = TableKnowledge(self.hand_sizes, played, held, self.voids, self.open)
        return new._settle(seat, card, trick)

    def reveal(
        self, seat: int, cards: tuple[Card, ...] | frozenset[Card], trick: int | None = None
    ) -> tuple[TableKnowledge, tuple[RenegeEvidence, ...]]:
        """``cards`` are known to be in ``seat``'s hand (an upcard, a shown meld, a known deal)."""
        k = self
        proven: list[RenegeEvidence] = []
        for card in cards:
            if card in k.held[seat]:
                continue
            k._check_new_card(seat, card, playing=False)
            k = TableKnowledge(
                k.hand_sizes, k.played, _with(k.held, seat, k.held[seat] | {card}), k.voids, k.open
            )
            k, found = k._settle(seat, card, trick)
            proven.extend(found)
        return k, tuple(proven)

    def mark_void(self, seat: int, suit: Suit) -> TableKnowledge:
        if suit in self.voids[seat]:
            return self
        return TableKnowledge(
            self.hand_sizes,
            self.played,
            self.held,
            _with(self.voids, seat, self.voids[seat] | {suit}),
            self.open,
        )

    def expect(self, ob: Obligation) -> tuple[TableKnowledge, tuple[RenegeEvidence, ...]]:
        """Open an obligation and check it at once against what is already known."""
        if isinstance(ob, MustNotHold):
            known_bad = ob.forbidden & self.held[ob.seat]
            if known_bad:
                proof = min(known_bad, key=str)
                return self, (_evidence(ob, proof, None),)
            return TableKnowledge(
                self.hand_sizes, self.played, self.held, self.voids, self.open + (ob,)
            ), ()
        status = self._hold_status(ob)
        if status is True:
            return self, ()
        if status is False:
            return self, (_evidence(ob, None, None),)
        return TableKnowledge(
            self.hand_sizes, self.played, self.held, self.voids, self.open + (ob,)
        ), ()

    def _hold_status(self, ob: MustHold) -> bool | None:
        """True: satisfied; False: proven broken; None: not known yet."""
        mine = self.played[ob.seat] | self.held[ob.seat]
        elsewhere: frozenset[Card] = frozenset()
        for s in range(len(self.hand_sizes)):
            if s != ob.seat:
                elsewhere = elsewhere | self.played[s] | self.held[s]
        if ob.need_all:
            if ob.required <= mine:
                return True
            if not ob.required.isdisjoint(elsewhere):
                return False
        else:
            if not ob.required.isdisjoint(mine):
                return True
            if ob.required <= elsewhere:
                return False
        if self.fully_known(ob.seat):
            return False
        return None

    def _settle(
        self, seat: int, card: Card, trick: int | None
    ) -> tuple[TableKnowledge, tuple[RenegeEvidence, ...]]:
        if not self.open:
            return self, ()
        still: list[Obligation] = []
        proven: list[RenegeEvidence] = []
        for ob in self.open:
            if isinstance(ob, MustNotHold):
                if ob.seat == seat and card in ob.forbidden:
                    proven.append(_evidence(ob, card, trick))
                else:
                    still.append(ob)
                continue
            status = self._hold_status(ob)
            if status is None:
                still.append(ob)
            elif status is False:
                proof = card if card in ob.required and seat != ob.seat else None
                proven.append(_evidence(ob, proof, trick if proof is not None else None))
        if len(still) == len(self.open):
            return self, ()
        return TableKnowledge(
            self.hand_sizes, self.played, self.held, self.voids, tuple(still)
        ), tuple(proven)


_T = TypeVar("_T")


def _with(values: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    return values[:i] + (value,) + values[i + 1 :]


def _evidence(ob: Obligation, proof: Card | None, proof_trick: int | None) -> RenegeEvidence:
    if proof is None:
        detail = ob.detail
    elif isinstance(ob, MustNotHold):
        detail = f"{ob.detail}; seat {ob.seat} later showed {proof}"
    else:
        detail = f"{ob.detail}; {proof} turned up in another hand"
    return RenegeEvidence(ob.seat, ob.trick, ob.rule, ob.card, proof, proof_trick, detail)
