"""Card orders, card points, trick winners and play duties of the Klaberjass family.

Klaberjass, Belote and Jass-deux share these tables (rules.md, "Klaberjass"): in trump the
jack (*jass*) and the nine (*menel*) rise to the top; the 32-card deck holds 152 card points.

The play duties are written once, for any number of players, so that Belote (four players,
partners opposite) reuses them with its two options. Every duty has the shape "if you hold a
card of this kind you must play one", so a play is illegal exactly when the player held one
other card that forbids it; :func:`renege_witnesses` lists those cards, and a renege is proven
the moment the player shows one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.cards import DECK_32, Card, Rank, Suit

TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.JACK,
    Rank.NINE,
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Trump ranks, high to low: J (jass) 9 (menel) A 10 K Q 8 7."""

PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Non-trump ranks, high to low: A 10 K Q J 9 8 7."""

SEQUENCE_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
"""The order runs are counted in, in every suit: 7 8 9 10 J Q K A."""

TRUMP_POINTS: dict[Rank, int] = {
    Rank.JACK: 20,
    Rank.NINE: 14,
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
PLAIN_POINTS: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
LAST_TRICK_BONUS = 10
DECK: tuple[Card, ...] = DECK_32
DECK_SET: frozenset[Card] = frozenset(DECK_32)
CARD_POINTS_TOTAL = 152
HAND_TOTAL = CARD_POINTS_TOTAL + LAST_TRICK_BONUS  # 162

_TRUMP_STRENGTH = {r: len(TRUMP_ORDER) - i for i, r in enumerate(TRUMP_ORDER)}
_PLAIN_STRENGTH = {r: len(PLAIN_ORDER) - i for i, r in enumerate(PLAIN_ORDER)}


def card_points(card: Card, trump: Suit) -> int:
    """Points of ``card`` when ``trump`` is trump (a 32-card deck totals 152)."""
    table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
    try:
        return table[card.rank]
    except KeyError:
        raise ValueError(f"card {card} is not in the 32-card Klaberjass deck") from None


def trump_strength(card: Card) -> int:
    """1 (the 7) .. 8 (the jass): a trump's place in the trump order."""
    return _TRUMP_STRENGTH[card.rank]


def trick_winner(trick: Sequence[Card], trump: Suit) -> int:
    """Index (in play order) of the card that wins ``trick``: the highest trump, else the
    highest card of the suit led."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    led = trick[0].suit
    best = 0
    for i, c in enumerate(trick):
        if _beats(c, trick[best], led, trump):
            best = i
    return best


def _beats(challenger: Card, holder: Card, led: Suit, trump: Suit) -> bool:
    if challenger.suit == trump:
        if holder.suit != trump:
            return True
        return _TRUMP_STRENGTH[challenger.rank] > _TRUMP_STRENGTH[holder.rank]
    if holder.suit == trump or challenger.suit != led:
        return False
    return _PLAIN_STRENGTH[challenger.rank] > _PLAIN_STRENGTH[holder.rank]


def _highest_trump(trick: Sequence[Card], trump: Suit) -> int:
    return max((_TRUMP_STRENGTH[c.rank] for c in trick if c.suit == trump), default=0)


def legal_plays(
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit,
    *,
    partner_index: int | None = None,
    partner_master_exempt: bool = False,
    must_overtrump: bool = False,
) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played, lead first).

    Klaberjass duties: follow suit; when trump is led, play a trump higher than every trump in
    the trick if you can (heading); when you cannot follow a plain lead, trump. Two options
    serve Belote: ``partner_master_exempt`` frees a player who cannot follow from trumping
    while the partner (the card at ``partner_index`` in ``trick``) is winning the trick;
    ``must_overtrump`` makes a player who trumps in over a trump beat it if he can.
    """
    cards = frozenset(hand)
    if not trick:
        return cards
    led = trick[0].suit
    top = _highest_trump(trick, trump)
    followers = frozenset(c for c in cards if c.suit == led)
    if led == trump:
        if not followers:
            return cards
        higher = frozenset(c for c in followers if _TRUMP_STRENGTH[c.rank] > top)
        return higher or followers
    if followers:
        return followers
    trumps = frozenset(c for c in cards if c.suit == trump)
    if not trumps:
        return cards
    if (
        partner_master_exempt
        and partner_index is not None
        and 0 <= partner_index < len(trick)
        and trick_winner(trick, trump) == partner_index
    ):
        return cards
    if must_overtrump and top:
        higher = frozenset(c for c in trumps if _TRUMP_STRENGTH[c.rank] > top)
        return higher or trumps
    return trumps


def renege_witnesses(
    played: Card,
    trick: Sequence[Card],
    trump: Suit,
    *,
    partner_index: int | None = None,
    partner_master_exempt: bool = False,
    must_overtrump: bool = False,
) -> frozenset[Card]:
    """Cards whose presence in the player's hand would have made ``played`` illegal on
    ``trick``. Showing any of them later proves the renege."""
    return frozenset(
        other
        for other in DECK
        if other != played
        and played
        not in legal_plays(
            (played, other),
            trick,
            trump,
            partner_index=partner_index,
            partner_master_exempt=partner_master_exempt,
            must_overtrump=must_overtrump,
        )
    )
