"""Klaberjass runs, bella and the sequence contest (rules.md "Sequences", "Bella")."""

from __future__ import annotations

import pytest

from rules import Suit, cards
from rules.klaberjass import bella, best_melds, runs, sequence_winner

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS

RUNS = [
    # (rule, hand, runs found as (cards, points))
    ("run of three scores 20", "7S 8S 9S", [("7S 8S 9S", 20)]),
    ("run of four scores 50", "10S JS QS KS", [("10S JS QS KS", 50)]),
    ("run of five or more scores 50", "9D 10D JD QD KD AD", [("9D 10D JD QD KD AD", 50)]),
    ("order 7 8 9 10 J Q K A: 9 10 J", "9C 10C JC", [("9C 10C JC", 20)]),
    ("order 7 8 9 10 J Q K A: Q K A", "QH KH AH", [("QH KH AH", 20)]),
    ("no wrap from A to 7", "KH AH 7H 8H", []),
    ("two cards are no run", "7S 8S 10S", []),
    (
        "one run per suit stretch; two stretches two runs",
        "7S 8S 9S JS QS KS",
        [("7S 8S 9S", 20), ("JS QS KS", 20)],
    ),  # fmt: skip
    ("mixed suits do not make a run", "7S 8H 9S", []),
    ("a run of eight is one fifty", "7C 8C 9C 10C JC QC KC AC", [("7C 8C 9C 10C JC QC KC AC", 50)]),
]


@pytest.mark.parametrize(("rule", "hand", "expected"), RUNS, ids=[r[0] for r in RUNS])
def test_runs(rule: str, hand: str, expected: list[tuple[str, int]]) -> None:
    got = sorted((" ".join(map(str, m.cards)), m.points) for m in runs(cards(hand)))
    assert got == sorted(expected)


def test_bella_needs_k_and_q_of_trump() -> None:
    assert bella(cards("KH QH 7S"), H) is not None
    assert bella(cards("KH QH 7S"), S) is None
    assert bella(cards("KH JH"), H) is None
    b = bella(cards("QD KD"), D)
    assert b is not None and b.kind == "bella" and b.points == 20


def test_best_melds_lists_runs_longest_first_and_bella() -> None:
    melds = best_melds(cards("7S 8S 9S JH QH KH AH 8D"), H)
    assert [m.kind for m in melds] == ["run", "run", "bella"]
    assert melds[0].points == 50 and melds[1].points == 20
    # bella's K and Q may also sit in a run
    assert set(melds[2].cards) <= set(melds[0].cards)


CONTEST = [
    # (rule, seat 0's hand, seat 1's hand, trump, first to play, winner)
    ("longer run wins", "7S 8S 9S 10S", "JH QH KH", C, 1, 0),
    ("longer wins even against a higher top", "7S 8S 9S 10S 8D", "10H JH QH KH AH", C, 1, 1),
    ("equal length: higher top card", "7S 8S 9S", "8H 9H 10H", C, 1, 1),
    ("equal length and top: trump run wins", "8S 9S 10S", "8H 9H 10H", H, 0, 1),
    ("equal in all: non-dealer's run wins (seat 1 first)", "8S 9S 10S", "8D 9D 10D", H, 1, 1),
    ("equal in all: non-dealer's run wins (seat 0 first)", "8S 9S 10S", "8D 9D 10D", H, 0, 0),
    ("only one player has a run", "8S 9S 10S", "8D 9C 10H", H, 1, 0),
    ("nobody has a run", "8S 9H", "8D 9C", H, 1, None),
]


@pytest.mark.parametrize(
    ("rule", "a", "b", "trump", "first", "winner"), CONTEST, ids=[r[0] for r in CONTEST]
)
def test_sequence_contest(
    rule: str, a: str, b: str, trump: Suit, first: int, winner: int | None
) -> None:
    held = {0: runs(cards(a)), 1: runs(cards(b))}
    order = [first, 1 - first]
    assert sequence_winner(held, trump, order) == winner
