"""Klaberjass card order, points and play duties (rules.md "Klaberjass": table, "Play")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DECK_32, Card, Suit, card, cards
from rules.klaberjass import card_points, legal_plays, renege_witnesses, trick_winner

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS

POINTS = [
    # (rule, card, trump, points)
    ("trump J (jass) 20", "JH", H, 20),
    ("trump 9 (menel) 14", "9H", H, 14),
    ("trump A 11", "AH", H, 11),
    ("trump 10 10", "10H", H, 10),
    ("trump K 4", "KH", H, 4),
    ("trump Q 3", "QH", H, 3),
    ("trump 8 0", "8H", H, 0),
    ("trump 7 0", "7H", H, 0),
    ("plain A 11", "AS", H, 11),
    ("plain 10 10", "10S", H, 10),
    ("plain K 4", "KS", H, 4),
    ("plain Q 3", "QS", H, 3),
    ("plain J 2", "JS", H, 2),
    ("plain 9 0", "9S", H, 0),
    ("plain 8 0", "8S", H, 0),
    ("plain 7 0", "7S", H, 0),
]


@pytest.mark.parametrize(("rule", "code", "trump", "points"), POINTS, ids=[r[0] for r in POINTS])
def test_card_points(rule: str, code: str, trump: Suit, points: int) -> None:
    assert card_points(card(code), trump) == points


@pytest.mark.parametrize("trump", list(Suit))
def test_deck_holds_152_card_points(trump: Suit) -> None:
    """rules.md: 152 card points, last trick 10: 162."""
    assert sum(card_points(c, trump) for c in DECK_32) == 152


def test_card_outside_the_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="6H"):
        card_points(card("6H"), H)


WINNERS = [
    # (rule, trick, trump, index of the winner)
    ("trump order: jass above menel", "9H JH", H, 1),
    ("trump order: menel above A", "AH 9H", H, 1),
    ("trump order: A above 10", "10H AH", H, 1),
    ("trump order: Q above 8", "8H QH", H, 1),
    ("trump order: 8 above 7", "7H 8H", H, 1),
    ("plain order: A above 10", "10S AS", H, 1),
    ("plain order: 10 above K", "KS 10S", H, 1),
    ("plain order: J below Q", "JS QS", H, 1),
    ("plain order: 9 above 8", "8S 9S", H, 1),
    ("lowest trump beats plain ace", "AS 7H", H, 1),
    ("off-suit discard cannot win", "7S AD", H, 0),
    ("four players: highest trump wins", "AS 7H 10S 8H", H, 3),
    ("four players: highest of the suit led", "9S AD 10S 7C", H, 2),
]


@pytest.mark.parametrize(("rule", "trick", "trump", "winner"), WINNERS, ids=[w[0] for w in WINNERS])
def test_trick_winner(rule: str, trick: str, trump: Suit, winner: int) -> None:
    assert trick_winner(cards(trick), trump) == winner


LEGAL = [
    # (rule, hand, trick so far, trump, legal cards)
    ("lead: any card", "7S AH JD", "", H, "7S AH JD"),
    ("follow suit", "7S AS AH JD", "KS", H, "7S AS"),
    ("no duty to beat a plain lead", "7S AS", "KS", H, "7S AS"),
    ("void in a plain lead: must trump", "7H AH JD 8C", "KS", H, "7H AH"),
    ("void and no trump: any card", "JD 8C", "KS", H, "JD 8C"),
    ("trump led: head with a higher trump", "7H JH AD", "9H", H, "JH"),
    ("trump led: every higher trump allowed", "7H JH AH 9H", "10H", H, "JH 9H AH"),
    ("trump led, no higher trump: any trump", "7H 8H AD", "9H", H, "7H 8H"),
    ("trump led, no trump: any card", "AD 7C", "9H", H, "AD 7C"),
    ("follower of a plain suit may trump only when void", "AS 7H", "KS", H, "AS"),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "trump", "legal"), LEGAL, ids=[r[0] for r in LEGAL]
)
def test_legal_plays(rule: str, hand: str, trick: str, trump: Suit, legal: str) -> None:
    assert legal_plays(cards(hand), cards(trick), trump) == frozenset(cards(legal))


FOUR_PLAYER = [
    # (rule, hand, trick, trump, options, legal)
    ("trump led: beat the highest trump in the trick", "8H 9H", "10H JH 7H", H, {}, "8H 9H"),
    ("trump led: beat the highest, not the lead", "AH 9H", "10H KH", H, {}, "AH 9H"),
    ("trump led: higher than every trump", "AH 9H KH", "QH 10H", H, {}, "AH 9H"),
    ("void: trump even over partner (Klaberjass duty)", "7H AD", "AS 8S", H, {}, "7H"),
    (
        "partner_master_exempt: partner wins, any card",
        "7H AD",
        "AS 8S",
        H,
        {"partner_master_exempt": True},
        "7H AD",
    ),
    (
        "partner_master_exempt: opponent wins, still trump",
        "7H AD",
        "8S AS",
        H,
        {"partner_master_exempt": True},
        "7H",
    ),
    ("void after a trump-in: any trump by default", "7H AH AD", "AS 9H", H, {}, "7H AH"),
    (
        "must_overtrump: beat the trump in the trick",
        "7H AH AD",
        "AS 10H",
        H,
        {"must_overtrump": True},
        "AH",
    ),
    (
        "must_overtrump: cannot beat it, any trump",
        "7H 8H AD",
        "AS JH",
        H,
        {"must_overtrump": True},
        "7H 8H",
    ),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "trump", "options", "legal"),
    FOUR_PLAYER,
    ids=[r[0] for r in FOUR_PLAYER],
)
def test_legal_plays_four_players(
    rule: str, hand: str, trick: str, trump: Suit, options: dict[str, bool], legal: str
) -> None:
    played = cards(trick)
    got = legal_plays(cards(hand), played, trump, partner_index=len(played) - 2, **options)
    assert got == frozenset(cards(legal))


# An independent reading of rules.md, brute force over the rule text: the orders are the
# book's table as text, the duties its "Play" sentences (and the two ruleset options), each
# checked for one card of the hand. Nothing here calls the engine.
BOOK_TRUMP = ["J", "9", "A", "10", "K", "Q", "8", "7"]  # rules.md table: trump, high to low
BOOK_PLAIN = ["A", "10", "K", "Q", "J", "9", "8", "7"]  # other suits, high to low


def _code_rank(c: Card) -> str:
    return str(c)[:-1]


def book_beats(a: Card, b: Card, trump: Suit) -> bool:
    """Trump ``a`` ranks above trump ``b`` in the book's trump order."""
    return BOOK_TRUMP.index(_code_rank(a)) < BOOK_TRUMP.index(_code_rank(b))


def book_winner(trick: list[Card], trump: Suit) -> int:
    """'The highest trump wins the trick, else the highest card of the led suit.'"""
    trumps = [i for i, c in enumerate(trick) if c.suit == trump]
    if trumps:
        return min(trumps, key=lambda i: BOOK_TRUMP.index(_code_rank(trick[i])))
    led = [i for i, c in enumerate(trick) if c.suit == trick[0].suit]
    return min(led, key=lambda i: BOOK_PLAIN.index(_code_rank(trick[i])))


def book_breaks(
    card: Card, hand: list[Card], trick: list[Card], trump: Suit, partner: int,
    exempt_option: bool, over_option: bool,
) -> bool:  # fmt: skip
    """Whether playing ``card`` from ``hand`` breaks a duty of rules.md "Play" ("Follow suit.
    If trump is led, play a higher trump if you can. If a non-trump is led and you cannot
    follow, you must trump. Otherwise any card."), of the Belote Decision
    ``partner_master_exempt`` (a player who cannot follow while his partner wins the trick need
    not trump) or of ``must_overtrump`` (trumping in over a trump, beat it if you can)."""
    if not trick:
        return False
    led = trick[0].suit
    if card.suit != led and any(c.suit == led for c in hand):
        return True  # follow suit
    highest: Card | None = None  # the highest trump in the trick
    for c in trick:
        if c.suit == trump and (highest is None or book_beats(c, highest, trump)):
            highest = c

    def under(c: Card) -> bool:  # a trump that does not beat the highest trump in the trick
        return highest is not None and c.suit == trump and not book_beats(c, highest, trump)

    can_beat = any(c.suit == trump and not under(c) for c in hand) and highest is not None
    if led == trump:
        return under(card) and can_beat
    if any(c.suit == led for c in hand):
        return False
    if exempt_option and 0 <= partner < len(trick) and book_winner(trick, trump) == partner:
        return False  # the partner is master: any card
    if card.suit != trump and any(c.suit == trump for c in hand):
        return True  # must trump
    return over_option and under(card) and can_beat


# three suits (trump hearts, by symmetry) make trump leads, trump-ins and discards common
THREE_SUITS = [c for c in DECK_32 if c.suit != C]
hands = st.lists(st.sampled_from(THREE_SUITS), min_size=1, max_size=9, unique=True)


@settings(max_examples=400, deadline=None)
@given(
    hand=hands,
    trick=st.lists(st.sampled_from(THREE_SUITS), min_size=0, max_size=3, unique=True),
    trump=st.just(H),
    exempt=st.booleans(),
    over=st.booleans(),
)
def test_legal_plays_and_witnesses_follow_the_rule_book(
    hand: list[Card], trick: list[Card], trump: Suit, exempt: bool, over: bool
) -> None:
    """``legal_plays`` is the book's brute force; every duty reads "if you hold such a card,
    play one", so a card is illegal in a hand exactly when the hand holds one of its renege
    witnesses (what proves a renege later), and ``renege_witnesses`` are the cards that alone
    beside it would make it illegal by the book."""
    held = [c for c in hand if c not in trick]
    if not held:
        return
    partner = len(trick) - 2
    book = (trick, trump, partner, exempt, over)
    opts: dict[str, bool] = {"partner_master_exempt": exempt, "must_overtrump": over}
    legal = legal_plays(held, trick, trump, partner_index=partner, **opts)
    assert legal == {c for c in held if not book_breaks(c, held, *book)}
    for c in held:
        witnesses = renege_witnesses(c, trick, trump, partner_index=partner, **opts)
        by_book = {o for o in DECK_32 if o != c and book_breaks(c, [c, o], *book)}
        assert witnesses == by_book
        assert (c not in legal) == bool(witnesses & set(held))


@settings(max_examples=100, deadline=None)
@given(trick=st.lists(st.sampled_from(DECK_32), min_size=1, max_size=4, unique=True),
       trump=st.sampled_from(list(Suit)))  # fmt: skip
def test_the_winner_is_a_trump_or_the_suit_led(trick: list[Card], trump: Suit) -> None:
    w = trick[trick_winner(trick, trump)]
    has_trump = any(c.suit == trump for c in trick)
    assert w.suit == (trump if has_trump else trick[0].suit)
