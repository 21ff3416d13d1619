"""Sequences (runs) and bella in the Klaberjass family, and the sequence contest.

rules.md: runs of three in one suit score 20, of four or more 50, counted in the order
7 8 9 10 J Q K A. A run is a *maximal* stretch of consecutive cards (a run of seven is one
fifty, not a fifty and a twenty): the source scores "a run of four or more" as one meld.
Bella, the K and Q of trump in one hand, scores 20 and may also sit inside a run.

The contest: the two best runs are compared - longer wins; then the higher top card; then a
trump run over a plain one; then the run of the player who plays first (the non-dealer in
Klaberjass; in Belote, the seat nearest the dealer's left). Only the winner scores runs, and
then all of his (in Belote: all of his team's). Which cards make a bella is the trick games'
(:meth:`rules.trickgame.CardTables.bella_in`); runs and the contest are the family's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.cards import SUITS, Card, Rank, Suit
from rules.klaberjass.tables import SEQUENCE_ORDER, TABLES

RUN_3_POINTS = 20
RUN_4_POINTS = 50
BELLA_POINTS = 20
_SEQ_INDEX = {r: i for i, r in enumerate(SEQUENCE_ORDER)}


@dataclass(frozen=True, slots=True)
class Meld:
    """A run or bella. ``kind`` is ``"run"`` or ``"bella"``; ``cards`` low to high."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    @property
    def suit(self) -> Suit:
        return self.cards[0].suit

    @property
    def length(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> Rank:
        return self.cards[-1].rank

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(str(c) for c in self.cards)} ({self.points})"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


def run_points(length: int) -> int:
    """20 for a run of three, 50 for four or more, 0 below three."""
    if length >= 4:
        return RUN_4_POINTS
    return RUN_3_POINTS if length == 3 else 0


def runs(hand: Iterable[Card]) -> tuple[Meld, ...]:
    """Every maximal run of three or more consecutive cards of one suit in ``hand``."""
    held = frozenset(hand)
    found: list[Meld] = []
    for suit in SUITS:
        stretch: list[Card] = []
        for rank in (*SEQUENCE_ORDER, None):
            c = Card(rank, suit) if rank is not None else None
            if c is not None and c in held:
                stretch.append(c)
                continue
            if len(stretch) >= 3:
                found.append(Meld("run", tuple(stretch), run_points(len(stretch))))
            stretch = []
    return tuple(found)


def bella(hand: Iterable[Card], trump: Suit) -> Meld | None:
    """The bella (K and Q of trump) if ``hand`` holds both."""
    pair = TABLES.bella_in(hand, trump)
    return None if pair is None else Meld("bella", pair, BELLA_POINTS)


def best_melds(hand: Iterable[Card], trump: Suit) -> tuple[Meld, ...]:
    """All the runs of ``hand`` (longest first) and its bella: what the hand can score."""
    held = tuple(hand)
    found = sorted(runs(held), key=lambda m: run_key(m, trump), reverse=True)
    b = bella(held, trump)
    return (*found, b) if b is not None else tuple(found)


def run_key(run: Meld, trump: Suit) -> tuple[int, int, int]:
    """Ordering key of a run in the contest, before the seat tie-break."""
    return (run.length, _SEQ_INDEX[run.top], 1 if run.suit == trump else 0)


def sequence_winner(
    runs_by_seat: Mapping[int, Iterable[Meld]], trump: Suit, seat_order: Iterable[int]
) -> int | None:
    """The seat whose best run wins the contest, or ``None`` when nobody has a run.

    ``seat_order`` lists seats in play order from the first lead: on a complete tie the
    earlier seat wins (the non-dealer in Klaberjass).
    """
    best: tuple[tuple[int, int, int, int], int] | None = None
    for position, seat in enumerate(seat_order):
        for run in runs_by_seat.get(seat, ()):
            if run.kind != "run":
                continue
            key = (*run_key(run, trump), -position)
            if best is None or key > best[0]:
                best = (key, seat)
    return None if best is None else best[1]
