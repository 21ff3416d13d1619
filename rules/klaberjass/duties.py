"""What frees a player from the Klaberjass family's duties: Belote's partner exemption.

The duties themselves are rows of :mod:`rules.klaberjass.tables` (follow suit; void in a plain
lead, trump; head a trump lead; with ``must_overtrump``, overtrump a trump-in), read by the
shared core (:class:`rules.trickgame.DutyTable`) both as the legal plays and as the obligations
a play leaves open: not following means holding none of the suit led; discarding on a plain
lead means holding no trump; a low trump on a trump lead means holding no higher trump; a low
trump-in under ``must_overtrump`` means holding no higher trump. Each becomes a
:class:`rules.knowledge.MustNotHold`, and the table proves the renege when a forbidden card
turns up in that hand.

``partner_master_exempt`` (Belote, the French rule) lifts the trump and overtrump rows while
the partner is winning the trick: then any card is lawful, a low trump too, and no obligation
of those rows is left open (issue 14 was such an obligation left open).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card, Suit
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import TABLES
from rules.trickgame.duties import partner_is_master

SUIT_CARDS: dict[Suit, frozenset[Card]] = TABLES.suit_cards


def exempt(trick: Sequence[Card], trump: Suit, rules: KlaberjassRules) -> bool:
    """Whether ``partner_master_exempt`` frees the player to ``trick``: four players, and the
    partner (two places back) is winning it."""
    partner = len(trick) - 2 if rules.players == 4 else None
    return rules.partner_master_exempt and partner_is_master(TABLES, trick, trump, partner)
