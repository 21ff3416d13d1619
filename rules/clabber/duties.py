"""What a Clabber play obliges: the cards a player may not have held when playing it.

A play to a started trick is lawful only if the player held no card of some set (the led
suit when he did not follow; trumps when he discarded; higher trumps when he played under the
highest trump). Each becomes an open :class:`~rules.knowledge.MustNotHold` that the table
proves broken the moment the player shows such a card. These sets are exactly the complement
of :func:`rules.clabber.play.legal_plays`.
"""

from __future__ import annotations

from rules.cards import Card, Rank, Suit
from rules.clabber.play import highest_trump, trump_beats
from rules.clabber.ruleset import DECK
from rules.knowledge import MustNotHold, RenegeEvidence, TableKnowledge

_TEXT: dict[Card, str] = {c: str(c) for c in DECK}
_SUIT_NAME: dict[Suit, str] = {s: s.name.lower() for s in Suit}
SUIT_CARDS: dict[Suit, frozenset[Card]] = {
    s: frozenset(c for c in DECK if c.suit == s) for s in Suit
}


def play_obligations(
    knowledge: TableKnowledge, seat: int, card: Card, number: int, trick: list[Card], trump: Suit
) -> tuple[TableKnowledge, list[RenegeEvidence]]:
    """The obligations a play to a started trick leaves open (see :func:`legal_plays`)."""
    lead = trick[0].suit
    found: list[RenegeEvidence] = []
    top = highest_trump(trick, trump)
    obs: list[MustNotHold] = []
    if card.suit != lead:
        knowledge = knowledge.mark_void(seat, lead)
        obs.append(
            MustNotHold(seat, number, "follow", card, SUIT_CARDS[lead],
                        f"seat {seat} played {_TEXT[card]} to a {_SUIT_NAME[lead]} lead in trick {number}")
        )  # fmt: skip
        if card.suit != trump and lead != trump:
            knowledge = knowledge.mark_void(seat, trump)
            obs.append(
                MustNotHold(seat, number, "trump", card, SUIT_CARDS[trump],
                            f"seat {seat} discarded {_TEXT[card]} instead of trumping in trick {number}")
            )  # fmt: skip
    if card.suit == trump and top is not None and not trump_beats(card, top):
        higher = frozenset(c for c in SUIT_CARDS[trump] if trump_beats(c, top))
        obs.append(
            MustNotHold(seat, number, "overtrump", card, higher,
                        f"seat {seat} played {_TEXT[card]} under {_TEXT[top]} in trick {number}")
        )  # fmt: skip
    for ob in obs:
        knowledge, proven = knowledge.expect(ob)
        found.extend(proven)
    return knowledge, found


BELLA: dict[Suit, frozenset[Card]] = {
    s: frozenset(c for c in SUIT_CARDS[s] if c.rank in (Rank.KING, Rank.QUEEN)) for s in Suit
}


def bella_cards(trump: Suit | None) -> frozenset[Card]:
    return frozenset() if trump is None else BELLA[trump]
