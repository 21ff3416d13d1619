"""Clag tricks: following suit, trick winners, and the special rounds 8, 12 and 13."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK_52, Card, Rank, Suit, cards
from rules.clag import WildTwo, WildTwoError, legal_names, legal_plays, trick_winner

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS

# (rule, trick, trump, round, index of the winner)
WINNERS = [
    ("highest of the led suit wins", "9H KH 4H 2H", S, None, 1),
    ("a card of another suit cannot win", "9H AS AD 2H", C, None, 0),
    ("any trump beats the led suit", "AH 2S KH QH", S, None, 1),
    ("highest trump wins", "AH 2S 3S KH", S, None, 2),
    ("trump led: highest trump", "5S AH 9S 3S", S, None, 2),
    ("ace is high in a normal round", "KD AD 2D QD", H, None, 1),
    ("round 8 no trump: the led suit wins", "9H AS 10H 2H", None, 8, 2),
    ("round 13 aces low: king beats ace", "AD KD 2D QD", H, 13, 1),
    ("round 13 aces low: the ace is below the two", "AD 2D", H, 13, 1),
    ("round 13 an ace of trump still trumps", "KD AH", H, 13, 1),
    ("round 12 the named copy ranks just above the real card", "AS 2H=AS KS", None, 12, 1),
    ("round 12 real card beats a copy of a lower card", "2H=KS AS", None, 12, 1),
    ("round 12 a wild two led sets the led suit", "2H=9D KS 10D", None, 12, 2),
    ("round 12 a two named as trump trumps", "AD 2C=3H KD", H, 12, 1),
    ("round 12 a copy named off-suit cannot win", "9D 2C=AS", H, 12, 0),
]


@pytest.mark.parametrize(
    ("rule", "trick", "trump", "rnd", "winner"), WINNERS, ids=[w[0] for w in WINNERS]
)
def test_trick_winner(
    rule: str, trick: str, trump: Suit | None, rnd: int | None, winner: int
) -> None:
    assert trick_winner(trick.split(), trump, round=rnd) == winner


# (rule, hand, trick, round, legal cards)
PLAYS = [
    ("the leader plays any card", "AS 2H 3D", "", None, "AS 2H 3D"),
    ("follow the led suit", "AS 2H 3S", "KS", None, "AS 3S"),
    ("void: any card", "AD 2H 3C", "KS", None, "AD 2H 3C"),
    ("no duty to trump", "AD 2H 3C", "KS", None, "AD 2H 3C"),
    ("round 12: a two may always be played when following", "AS 2H 3D", "KS", 12, "AS 2H"),
    ("round 12: a two of the led suit does not oblige to follow", "2S 3D", "KS", 12, "2S 3D"),
    ("round 12: a wild two led names the led suit", "AH 3D", "2S=10H", 12, "AH"),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "rnd", "legal"), PLAYS, ids=[p[0] for p in PLAYS]
)
def test_legal_plays(rule: str, hand: str, trick: str, rnd: int | None, legal: str) -> None:
    assert legal_plays(cards(hand), trick.split(), S, round=rnd) == frozenset(cards(legal))


def test_wild_two_holding_the_led_suit_names_the_led_suit() -> None:
    names = legal_names(cards("2C 3H 9S"), ["KH"])
    assert names == frozenset(c for c in DECK_52 if c.suit == H)


def test_wild_two_void_in_the_led_suit_names_any_card() -> None:
    assert legal_names(cards("2C 9S"), ["KH"]) == frozenset(DECK_52)


def test_two_wild_twos_may_not_name_the_same_card() -> None:
    names = legal_names(cards("2C 3H"), ["KH", "2D=AH"])
    assert Card.parse("AH") not in names and Card.parse("KH") in names


def test_wild_two_text_round_trips() -> None:
    two = WildTwo.parse("2H=AS")
    assert two == WildTwo(Card.parse("2H"), Card.parse("AS")) and str(two) == "2H=AS"


@pytest.mark.parametrize(
    ("trick", "rnd", "quoted"),
    [
        (["AS", "2H=KS"], 8, "2H=KS"),  # wild outside round 12
        (["AS", "2H"], 12, "2H"),  # an unnamed two in round 12
        (["AS", "3H=KS"], 12, "3H=KS"),  # only a two is wild
        (["AS", "2H=ZZ"], 12, "ZZ"),
    ],
)
def test_bad_trick_entries_are_refused_quoting_them(
    trick: list[str], rnd: int, quoted: str
) -> None:
    with pytest.raises(WildTwoError if quoted != "ZZ" else Exception, match=quoted):
        trick_winner(trick, None, round=rnd)


hands = st.lists(st.sampled_from(DECK_52), min_size=1, max_size=7, unique=True)
tricks = st.lists(st.sampled_from(DECK_52), min_size=0, max_size=6, unique=True)
suits = st.sampled_from([None, *Suit])


@settings(max_examples=200, deadline=None)
@given(hands, tricks, suits)
def test_legal_plays_are_a_nonempty_subset_that_follows_when_possible(
    hand: list[Card], trick: list[Card], trump: Suit | None
) -> None:
    trick = [c for c in trick if c not in hand]
    legal = legal_plays(hand, trick, trump)
    assert legal and legal <= set(hand)
    if trick and any(c.suit == trick[0].suit for c in hand):
        assert all(c.suit == trick[0].suit for c in legal)
    else:
        assert legal == set(hand)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(DECK_52), min_size=1, max_size=7, unique=True),
    suits,
    st.sampled_from([None, 8, 13]),
)
def test_the_winner_is_a_trump_or_of_the_led_suit_and_beats_its_suit(
    trick: list[Card], trump: Suit | None, rnd: int | None
) -> None:
    if rnd == 8:
        trump = None  # round 8 has no trump
    w = trick[trick_winner(trick, trump, round=rnd)]
    assert w.suit in (trump, trick[0].suit)
    if any(c.suit == trump for c in trick):
        assert w.suit == trump
    low = rnd == 13

    def key(c: Card) -> int:
        return -1 if low and c.rank is Rank.ACE else c.rank.index

    assert all(key(c) <= key(w) for c in trick if c.suit == w.suit)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK_52), min_size=1, max_size=7, unique=True), suits)
def test_round_12_a_copy_of_the_winning_card_takes_the_trick(
    trick: list[Card], trump: Suit | None
) -> None:
    real = [c for c in trick if c.rank is not Rank.TWO]
    if not real:
        return
    target = real[trick_winner(real, trump, round=12)]
    two = next(c for c in DECK_52 if c.rank is Rank.TWO and c not in trick)
    entries: list[Card | WildTwo] = [*real, WildTwo(two, target)]
    winner = entries[trick_winner(entries, trump, round=12)]
    assert winner == WildTwo(two, target)
