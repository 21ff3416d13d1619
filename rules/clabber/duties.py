"""Clabber's play duties as a table.

rules.md "Play": follow the suit led; otherwise trump (even if it cannot win); whenever you play
a trump and a trump is already in the trick, beat the highest one if you can (even your
partner's); there is no duty to beat a plain lead. These are the rows of :data:`DUTIES`; the
shared core (:class:`rules.trickgame.DutyTable`) reads them both ways: the cards a player may
play (:func:`rules.clabber.play.legal_plays`) and, for a card played, the cards the player
cannot have held (``DUTIES.obligations``: each an open :class:`~rules.knowledge.MustNotHold`
that the table proves broken the moment the player shows such a card).
"""

from __future__ import annotations

from rules.cards import Card, Suit
from rules.clabber.ruleset import TABLES
from rules.trickgame.duties import FOLLOW, TRUMP, Duty, DutyTable

OVERTRUMP = Duty(
    "overtrump", "beat", "always", "seat {seat} played {card} under {top} in trick {number}"
)
DUTIES = DutyTable(TABLES, (FOLLOW, TRUMP, OVERTRUMP))

SUIT_CARDS: dict[Suit, frozenset[Card]] = TABLES.suit_cards
BELLA: dict[Suit, frozenset[Card]] = {s: TABLES.bella(s) for s in Suit}


def bella_cards(trump: Suit | None) -> frozenset[Card]:
    return TABLES.bella(trump)
