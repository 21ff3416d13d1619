"""Clabber card order, points and play rules (rules.md "Card order and points", "Play")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DECK_24, Suit, card, cards
from rules.clabber import card_points, legal_plays, trick_winner

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS

POINTS = [
    # (rule, card, trump, points)
    ("trump J 20", "JH", H, 20),
    ("trump 9 14", "9H", H, 14),
    ("trump A 11", "AH", H, 11),
    ("trump 10 10", "10H", H, 10),
    ("trump K 4", "KH", H, 4),
    ("trump Q 3", "QH", H, 3),
    ("plain A 11", "AS", H, 11),
    ("plain 10 10", "10S", H, 10),
    ("plain K 4", "KS", H, 4),
    ("plain Q 3", "QS", H, 3),
    ("plain J 2", "JS", H, 2),
    ("plain 9 0", "9S", H, 0),
]


@pytest.mark.parametrize(("rule", "code", "trump", "points"), POINTS, ids=[r[0] for r in POINTS])
def test_card_points(rule: str, code: str, trump: Suit, points: int) -> None:
    assert card_points(card(code), trump) == points


@pytest.mark.parametrize("trump", list(Suit))
def test_card_points_total_152(trump: Suit) -> None:
    """rules.md: card points total 152 (162 with the last trick)."""
    assert sum(card_points(c, trump) for c in DECK_24) == 152


WINNERS = [
    # (rule, trick, trump, index of the winner)
    ("trump order J above 9", "9H JH AH 10H", H, 1),
    ("trump order 9 above A", "AH 9H 10H KH", H, 1),
    ("trump order A 10 K Q", "QH KH 10H AH", H, 3),
    ("plain order A 10 K Q J 9", "9S JS QS 10S", H, 3),
    ("plain A highest", "10S AS KS JS", H, 1),
    ("highest trump wins", "AS QH 10S 9H", H, 3),
    ("lowest trump beats plain ace", "10S AS QH KS", H, 2),
    ("off-suit discard cannot win", "9S AD AC 10D", H, 0),
    ("plain J is low", "JS 9S QS KD", H, 2),
]


@pytest.mark.parametrize(("rule", "trick", "trump", "winner"), WINNERS, ids=[w[0] for w in WINNERS])
def test_trick_winner(rule: str, trick: str, trump: Suit, winner: int) -> None:
    assert trick_winner(cards(trick), trump) == winner


LEGAL = [
    # (rule, hand, trick so far, trump, legal cards)
    ("any card to lead", "9S JH AD", "", H, "9S JH AD"),
    ("1 follow the led suit", "9S KS JH AD", "AS", H, "9S KS"),
    ("1 no duty to beat a non-trump lead", "9S AS JH", "10S", H, "9S AS"),
    ("1 follow even when the trick is trumped", "9S JH", "AS 9H", H, "9S"),
    ("2 trump when void (even if it cannot win)", "QH AD 9C", "AS", H, "QH"),
    ("2 any trump when no trump in the trick", "QH 9H AD", "AS", H, "QH 9H"),
    ("3 overtrump when trumping in", "QH JH AD", "AS 9H", H, "JH"),
    ("3 overtrump even the partner's trump", "QH JH", "AS 9H KS", H, "JH"),
    ("3 trump under when unable to overtrump", "QH KH AD", "AS 9H", H, "QH KH"),
    ("3 overtrump on a trump lead", "QH AH 9S", "10H", H, "AH"),
    ("3 overtrump the highest trump in the trick", "AH 9H 10S", "10H JH", H, "AH 9H"),
    ("1+3 follow trump lead under when unable to beat", "QH 9S", "JH", H, "QH"),
    ("4 any card when void in led suit and trump", "9C AD KS", "AH", H, "9C AD KS"),
    ("4 any card when void in led suit and trumps", "9C AD", "AS", H, "9C AD"),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "trump", "legal"), LEGAL, ids=[r[0] for r in LEGAL]
)
def test_legal_plays(rule: str, hand: str, trick: str, trump: Suit, legal: str) -> None:
    assert legal_plays(cards(hand), cards(trick), trump) == frozenset(cards(legal))


@settings(max_examples=200, deadline=None)
@given(st.permutations(DECK_24), st.integers(0, 3), st.sampled_from(list(Suit)))
def test_legal_plays_is_never_empty_and_within_the_hand(deck: list, n: int, trump: Suit) -> None:
    hand, trick = deck[:6], deck[6 : 6 + n]
    legal = legal_plays(hand, trick, trump)
    assert legal and legal <= frozenset(hand)
    if trick and any(c.suit == trick[0].suit for c in hand):
        assert all(c.suit == trick[0].suit for c in legal)


def test_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError):
        trick_winner([], H)
