"""Belote: Klaberjass played by two teams of two (rules.md "Belote").

Four players, partners opposite (seats 0 and 2 against 1 and 3), the 32-card deck, eight cards
each (3 + 2, the trump candidate, bidding from the dealer's left, then the maker takes the
candidate and two more, the others three more). Everything else is Klaberjass: the same
tables, runs and bella, the same duties, team totals, bete, a game to 500. The engine is
:class:`rules.klaberjass.KlaberjassHand` (on the shared core, :mod:`rules.trickgame`) run
with :class:`BeloteRules`.

Public API, as Clabber's: :func:`legal_plays`, :func:`trick_winner`, :func:`card_points`,
:func:`best_melds`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.klaberjass import (
    HandResult,
    KlaberjassHand,
    KlaberjassMatch,
    KlaberjassRules,
    Meld,
    best_melds,
    card_points,
    replay,
    score_hand,
    trick_winner,
)
from rules.klaberjass import legal_plays as _legal_plays


@dataclass(frozen=True, slots=True)
class BeloteRules(KlaberjassRules):
    """Klaberjass options with Belote's table: four players, no schmeiss (rules.md gives it
    to the two-player game only), no dix exchange (every card is dealt), and the maker takes
    the candidate. ``partner_master_exempt`` (rules.md Decision, default off) frees a player
    who cannot follow while his partner wins the trick from trumping."""

    players: int = 4
    schmeiss: bool = False
    dix_exchange: bool = False
    maker_takes_candidate: bool = True


def legal_plays(
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit,
    *,
    partner_master_exempt: bool = False,
    must_overtrump: bool = False,
    partner_index: int | None = None,
) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (lead first).

    The partner of the player about to play is the card two places back in the trick
    (``partner_index`` defaults to ``len(trick) - 2``); it only matters with
    ``partner_master_exempt=True``.
    """
    if partner_index is None:
        partner_index = len(trick) - 2 if len(trick) >= 2 else None
    return _legal_plays(
        hand,
        trick,
        trump,
        partner_index=partner_index,
        partner_master_exempt=partner_master_exempt,
        must_overtrump=must_overtrump,
    )


def new_hand(dealer: int, upcard: Card, rules: BeloteRules | None = None) -> KlaberjassHand:
    """A Belote hand after the deal, ``upcard`` the trump candidate."""
    return KlaberjassHand.new(dealer, upcard, rules or BeloteRules())


__all__ = [
    "BeloteRules",
    "HandResult",
    "KlaberjassHand",
    "KlaberjassMatch",
    "Meld",
    "best_melds",
    "card_points",
    "legal_plays",
    "new_hand",
    "replay",
    "score_hand",
    "trick_winner",
]
