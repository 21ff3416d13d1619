"""Cards, suits and ranks: parsing, text round trips, decks."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import DECK_24, DECK_32, DECK_52, Card, CardParseError, Rank, Suit, card, cards


@given(st.sampled_from(DECK_52))
def test_str_parse_round_trip(c: Card) -> None:
    assert Card.parse(str(c)) == c
    assert str(Card.parse(str(c))) == str(c)
    assert Card.parse(c.pretty()) == c
    assert Card.parse(str(c).lower()) == c


@given(st.sampled_from(DECK_52))
def test_equal_cards_hash_alike_even_when_built_directly(c: Card) -> None:
    twin = Card(Rank(c.rank.value), Suit(c.suit.value))
    assert twin == c and hash(twin) == hash(c)
    assert pickle.loads(pickle.dumps(c)) in set(DECK_52)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10H", "10H"), ("TH", "10H"), ("10♥", "10H"), ("qs", "QS"), ("1C", "AC"), (" 9d ", "9D")],
)
def test_aliases(text: str, expected: str) -> None:
    assert str(card(text)) == expected


@pytest.mark.parametrize("text", ["11H", "XS", "10", "H", "", "10X", "JJ"])
def test_unknown_codes_raise_quoting_the_input(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(CardParseError):
        Card.parse(10)  # type: ignore[arg-type]


def test_decks() -> None:
    assert len(DECK_24) == len(set(DECK_24)) == 24
    assert len(DECK_32) == len(set(DECK_32)) == 32
    assert len(DECK_52) == len(set(DECK_52)) == 52
    assert {c.rank for c in DECK_24} == {
        Rank.NINE,
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.ACE,
    }
    assert set(DECK_24) < set(DECK_32) < set(DECK_52)


def test_rank_order_and_cards_helper() -> None:
    assert Rank.TWO < Rank.NINE < Rank.TEN < Rank.ACE
    assert sorted([Rank.ACE, Rank.NINE, Rank.JACK]) == [Rank.NINE, Rank.JACK, Rank.ACE]
    assert cards("JH, 9H AH") == (card("JH"), card("9H"), card("AH"))
    assert Suit.parse("hearts") is Suit.HEARTS and Suit.parse("♠") is Suit.SPADES
