"""Card play in Clabber: points, the winner of a trick, and the cards a player may play.

Read from Clabber's tables (:data:`rules.clabber.ruleset.TABLES`) and duties
(:data:`rules.clabber.duties.DUTIES`) by the shared trick-game core. ``trick`` arguments are the
cards in play order, lead first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.cards import Card, Suit
from rules.clabber.duties import DUTIES
from rules.clabber.ruleset import TABLES


def card_points(card: Card, trump: Suit) -> int:
    """Points a card is worth when ``trump`` is trump (J 20, 9 14 in trump; A 11, 10 10, ...)."""
    return TABLES.card_points(card, trump)


def strength(card: Card, lead: Suit, trump: Suit) -> int:
    """How strongly ``card`` competes in a trick led in ``lead``: trumps above everything,
    then the led suit, then 0 for a discard that cannot win."""
    return TABLES.strength(card, lead, trump)


def trump_beats(a: Card, b: Card) -> bool:
    """Whether trump ``a`` ranks above trump ``b`` (J 9 A 10 K Q)."""
    return TABLES.trump_beats(a, b)


def trick_winner(trick: Sequence[Card], trump: Suit) -> int:
    """The index in ``trick`` (play order, lead first) of the card that wins it: the highest
    trump, else the highest card of the led suit."""
    return TABLES.trick_winner(trick, trump)


def highest_trump(trick: Iterable[Card], trump: Suit) -> Card | None:
    return TABLES.highest_trump(trick, trump)


def legal_plays(hand: Iterable[Card], trick: Sequence[Card], trump: Suit) -> frozenset[Card]:
    """The cards of ``hand`` the player to move may play to ``trick`` (cards already played,
    lead first): follow suit; else trump (even if it cannot win); whenever a trump is played
    and a trump is in the trick, beat the highest one if possible (even the partner's); else
    any card. There is no duty to beat a non-trump lead."""
    return DUTIES.legal_plays(hand, trick, trump)
