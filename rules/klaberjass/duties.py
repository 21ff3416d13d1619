"""The obligations a play leaves open in the Klaberjass family: one per duty it relied on.

A play to a started trick is legal only if the player held no card of some set (the duties of
:func:`rules.klaberjass.tables.legal_plays`): not following means holding none of the suit led;
discarding on a plain lead means holding no trump (unless ``partner_master_exempt`` frees him
while his partner wins); a low trump on a trump lead means holding no higher trump; with
``must_overtrump``, a low trump-in means holding no higher trump (unless the exemption frees
him: then any card was lawful, a low trump too). Each becomes a
:class:`rules.knowledge.MustNotHold`, and the table proves the renege when a forbidden card
turns up in that hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card, Suit
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import DECK, trick_winner, trump_strength
from rules.knowledge import MustNotHold, RenegeEvidence, TableKnowledge

SUIT_CARDS: dict[Suit, frozenset[Card]] = {
    s: frozenset(c for c in DECK if c.suit == s) for s in Suit
}


def play_obligations(
    knowledge: TableKnowledge,
    seat: int,
    card: Card,
    number: int,
    trick: Sequence[Card],
    trump: Suit,
    rules: KlaberjassRules,
) -> tuple[TableKnowledge, list[RenegeEvidence]]:
    """The obligations a play to a started trick leaves open (the duties of
    :func:`rules.klaberjass.tables.legal_plays`, one per duty)."""
    led = trick[0].suit
    top = max((trump_strength(x) for x in trick if x.suit == trump), default=0)
    higher = frozenset(x for x in SUIT_CARDS[trump] if trump_strength(x) > top)
    partner = len(trick) - 2 if rules.players == 4 else -1
    exempt = rules.partner_master_exempt and partner >= 0 and trick_winner(trick, trump) == partner
    where = f"in trick {number}"
    obs: list[MustNotHold] = []
    if card.suit != led:
        knowledge = knowledge.mark_void(seat, led)
        obs.append(
            MustNotHold(seat, number, "follow", card, SUIT_CARDS[led],
                        f"seat {seat} played {card} to a {led.name.lower()} lead {where}")
        )  # fmt: skip
        if led != trump and card.suit != trump and not exempt:
            knowledge = knowledge.mark_void(seat, trump)
            obs.append(
                MustNotHold(seat, number, "trump", card, SUIT_CARDS[trump],
                            f"seat {seat} discarded {card} instead of trumping {where}")
            )  # fmt: skip
        # the partner's exemption frees the player from trumping at all, so from overtrumping
        overtrump = led != trump and card.suit == trump and rules.must_overtrump and not exempt
        if overtrump and top > 0 and trump_strength(card) < top:
            obs.append(
                MustNotHold(seat, number, "overtrump", card, higher,
                            f"seat {seat} trumped with {card} under a higher trump {where}")
            )  # fmt: skip
    elif led == trump and trump_strength(card) < top:
        obs.append(
            MustNotHold(seat, number, "head", card, higher,
                        f"seat {seat} played {card} under a higher trump to a trump lead {where}")
        )  # fmt: skip
    found: list[RenegeEvidence] = []
    for ob in obs:
        knowledge, proven = knowledge.expect(ob)
        found.extend(proven)
    return knowledge, found
