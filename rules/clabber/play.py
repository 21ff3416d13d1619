"""Card play in Clabber: points, the winner of a trick, and the cards a player may play.

``trick`` arguments are the cards in play order, lead first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.cards import Card, Suit
from rules.clabber.ruleset import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH


def card_points(card: Card, trump: Suit) -> int:
    """Points a card is worth when ``trump`` is trump (J 20, 9 14 in trump; A 11, 10 10, ...)."""
    if card.suit == trump:
        return TRUMP_POINTS[card.rank]
    return PLAIN_POINTS[card.rank]


def strength(card: Card, lead: Suit, trump: Suit) -> int:
    """How strongly ``card`` competes in a trick led in ``lead``: trumps above everything,
    then the led suit, then 0 for a discard that cannot win."""
    if card.suit == trump:
        return TRUMP_STRENGTH[card.rank]
    if card.suit == lead:
        return PLAIN_STRENGTH[card.rank]
    return 0


def trump_beats(a: Card, b: Card) -> bool:
    """Whether trump ``a`` ranks above trump ``b`` (J 9 A 10 K Q)."""
    return TRUMP_STRENGTH[a.rank] > TRUMP_STRENGTH[b.rank]


def trick_winner(trick: Sequence[Card], trump: Suit) -> int:
    """The index in ``trick`` (play order, lead first) of the card that wins it: the highest
    trump, else the highest card of the led suit."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    lead = trick[0].suit
    best = 0
    best_strength = strength(trick[0], lead, trump)
    for i in range(1, len(trick)):
        s = strength(trick[i], lead, trump)
        if s > best_strength:
            best, best_strength = i, s
    return best


def highest_trump(trick: Iterable[Card], trump: Suit) -> Card | None:
    best: Card | None = None
    for c in trick:
        if c.suit == trump and (best is None or trump_beats(c, best)):
            best = c
    return best


def legal_plays(hand: Iterable[Card], trick: Sequence[Card], trump: Suit) -> frozenset[Card]:
    """The cards of ``hand`` the player to move may play to ``trick`` (cards already played,
    lead first): follow suit; else trump (even if it cannot win); whenever a trump is played
    and a trump is in the trick, beat the highest one if possible (even the partner's); else
    any card. There is no duty to beat a non-trump lead."""
    cards = frozenset(hand)
    if not trick:
        return cards
    lead = trick[0].suit
    followers = frozenset(c for c in cards if c.suit == lead)
    if followers:
        if lead != trump:
            return followers
        return _overtrump(followers, trick, trump)
    trumps = frozenset(c for c in cards if c.suit == trump)
    if trumps:
        return _overtrump(trumps, trick, trump)
    return cards


def _overtrump(trumps: frozenset[Card], trick: Sequence[Card], trump: Suit) -> frozenset[Card]:
    top = highest_trump(trick, trump)
    if top is None:
        return trumps
    higher = frozenset(c for c in trumps if trump_beats(c, top))
    return higher or trumps
