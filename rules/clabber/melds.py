"""Clabber melds: what a hand holds, the best combination, and the meld contest.

Sequences use 9 10 J Q K A in every suit. A card serves in one meld only, except that the
bella's K and Q of trump may also sit in a run (the "forty-dollar dud" is a 20-point run plus
the 20-point bella). Only the team with the highest meld scores melds (:func:`meld_contest`);
bella is not part of the contest and always scores for its holder. Which cards make a bella
is the trick games' (:meth:`rules.trickgame.CardTables.bella_in`); the melds and their contest
are Clabber's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import SUITS, Card, Rank, Suit
from rules.clabber.ruleset import SEQUENCE_INDEX, SEQUENCE_ORDER, TABLES

_SUIT_RUN: dict[Suit, tuple[Card, ...]] = {
    s: tuple(Card(r, s) for r in SEQUENCE_ORDER) for s in SUITS
}
_FOURS: tuple[tuple[Rank, tuple[Card, ...]], ...] = tuple(
    (r, tuple(Card(r, s) for s in SUITS))
    for r in (Rank.NINE, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.JACK)
)
RUN_POINTS = {3: 20, 4: 50, 5: 100, 6: 100}
RUN_KINDS = {3: "dud", 4: "fifty", 5: "hundred", 6: "hundred"}
FOUR_POINTS = {Rank.NINE: 100, Rank.QUEEN: 100, Rank.KING: 100, Rank.ACE: 100, Rank.JACK: 200}
BELLA_POINTS = 20


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld: ``kind`` is ``"dud"`` (run of 3), ``"fifty"`` (run of 4), ``"hundred"`` (run
    of 5 or 6), ``"four"`` (four 9s, Qs, Ks or As), ``"mule"`` (four Js) or ``"bella"``;
    ``cards`` in sequence order (runs) or suit order (fours)."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    @property
    def is_run(self) -> bool:
        return self.kind in ("dud", "fifty", "hundred")

    def contest_key(self, trump: Suit) -> tuple[int, int, int, int, int]:
        """Rank in the meld contest (higher wins): points; a run beats four of a kind; a longer
        run a shorter; the higher top card; a trump run a non-trump run. Fours: the higher rank."""
        if self.is_run:
            top = max(SEQUENCE_INDEX[c.rank] for c in self.cards)
            return (self.points, 1, len(self.cards), top, int(self.cards[0].suit == trump))
        return (self.points, 0, 0, SEQUENCE_INDEX[self.cards[0].rank], 0)

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(str(c) for c in self.cards)} ({self.points})"


def meld_from_cards(cards: Iterable[Card], trump: Suit | None = None) -> Meld | None:
    """The meld exactly these cards make (a declaration), or ``None`` if they make none.
    Bella needs ``trump``."""
    group = sorted(set(cards), key=lambda c: (SUITS.index(c.suit), SEQUENCE_INDEX[c.rank]))
    if len(group) == 2 and trump is not None:
        if {(c.rank, c.suit) for c in group} == {(Rank.KING, trump), (Rank.QUEEN, trump)}:
            return Meld("bella", tuple(group), BELLA_POINTS)
        return None
    if len(group) == 4 and len({c.rank for c in group}) == 1:
        rank = group[0].rank
        if rank in FOUR_POINTS:
            return Meld("mule" if rank == Rank.JACK else "four", tuple(group), FOUR_POINTS[rank])
        return None
    if 3 <= len(group) <= 6 and len({c.suit for c in group}) == 1:
        idx = [SEQUENCE_INDEX[c.rank] for c in group]
        if idx == list(range(idx[0], idx[0] + len(idx))):
            return Meld(RUN_KINDS[len(group)], tuple(group), RUN_POINTS[len(group)])
    return None


def candidate_melds(hand: Iterable[Card]) -> list[Meld]:
    """Every run (each window of 3+ consecutive cards of a suit) and four of a kind in ``hand``."""
    by_suit: dict[Suit, set[int]] = {}
    rank_count: dict[Rank, int] = {}
    for c in set(hand):
        by_suit.setdefault(c.suit, set()).add(SEQUENCE_INDEX[c.rank])
        rank_count[c.rank] = rank_count.get(c.rank, 0) + 1
    found: list[Meld] = []
    for suit in SUITS:
        held_set = by_suit.get(suit)
        if held_set is None or len(held_set) < 3:
            continue
        seq = _SUIT_RUN[suit]
        for start in sorted(held_set):
            end = start
            while end + 1 in held_set:
                end += 1
                length = end - start + 1
                if length >= 3:
                    found.append(Meld(RUN_KINDS[length], seq[start : end + 1], RUN_POINTS[length]))
    for rank, four in _FOURS:
        if rank_count.get(rank) == 4:
            found.append(Meld("mule" if rank == Rank.JACK else "four", four, FOUR_POINTS[rank]))
    return found


def bella(hand: Iterable[Card], trump: Suit) -> Meld | None:
    """The bella (K and Q of trump in one hand), if held."""
    pair = TABLES.bella_in(hand, trump)
    return None if pair is None else Meld("bella", pair, BELLA_POINTS)


def best_melds(hand: Iterable[Card], trump: Suit) -> list[Meld]:
    """The most valuable combination of disjoint melds in ``hand`` (ties: the one whose best
    meld ranks highest in the contest), bella added as its own :class:`Meld`."""
    cards = frozenset(hand)
    candidates = candidate_melds(cards)
    best: tuple[Meld, ...] = ()
    best_key = (0, (0, 0, 0, 0, 0))

    def search(i: int, used: frozenset[Card], chosen: tuple[Meld, ...]) -> None:
        nonlocal best, best_key
        if chosen:
            key = (sum(m.points for m in chosen), max(m.contest_key(trump) for m in chosen))
            if key > best_key:
                best, best_key = chosen, key
        for j in range(i, len(candidates)):
            m = candidates[j]
            if used.isdisjoint(m.cards):
                search(j + 1, used | frozenset(m.cards), chosen + (m,))

    search(0, frozenset(), ())
    result = sorted(best, key=lambda m: m.contest_key(trump), reverse=True)
    b = bella(cards, trump)
    if b is not None:
        result.append(b)
    return result


def best_contest_key(melds: Sequence[Meld], trump: Suit) -> tuple[int, int, int, int, int] | None:
    keys = [m.contest_key(trump) for m in melds if m.kind != "bella"]
    return max(keys) if keys else None


def meld_contest(
    team_a_melds: Sequence[Meld], team_b_melds: Sequence[Meld], trump: Suit
) -> int | None:
    """0 if the first team's melds score, 1 if the second's, ``None`` if neither: the team
    holding the highest meld scores all its melds. Two equal best melds (non-trump runs of the
    same length and top card) score for neither. Bella takes no part."""
    a = best_contest_key(team_a_melds, trump)
    b = best_contest_key(team_b_melds, trump)
    if a is None and b is None:
        return None
    if b is None or (a is not None and a > b):
        return 0
    if a is None or b > a:
        return 1
    return None


def meld_points(melds: Iterable[Meld]) -> int:
    return sum(m.points for m in melds if m.kind != "bella")


def bella_points(melds: Iterable[Meld]) -> int:
    return sum(m.points for m in melds if m.kind == "bella")
