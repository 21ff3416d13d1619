"""Klaberjass (two players, 32 cards) and its family: Jass-deux and, with four players, Belote.

rules.md "Klaberjass". The public API mirrors Clabber's:

- :func:`legal_plays(hand, trick, trump) <rules.klaberjass.tables.legal_plays>` and
  :func:`trick_winner(trick, trump) <rules.klaberjass.tables.trick_winner>` (``trick`` = the
  cards already played to the trick, lead first; the winner is an index in play order);
- :func:`card_points`, :func:`best_melds` (runs and bella as :class:`Meld` values);
- :class:`KlaberjassRules` (every option with rules.md's default; ``variant="jass-deux"`` for
  point bidding) and :class:`KlaberjassHand` (``new``, ``apply``, :func:`replay`);
- :func:`score_hand` and :class:`KlaberjassMatch` (a game to 500).

The hand is the shared trick-game core (:mod:`rules.trickgame`) with the family's tables and
duty rows (:mod:`rules.klaberjass.tables`), auction, runs and bella.
"""

from rules.klaberjass.bidding import Auction, IllegalBid
from rules.klaberjass.events import Deal, ExchangeDix
from rules.klaberjass.hand import KlaberjassHand, replay
from rules.klaberjass.match import KlaberjassMatch
from rules.klaberjass.melds import Meld, bella, best_melds, runs, sequence_winner
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.scoring import HandResult, SideTotals, score_hand
from rules.klaberjass.tables import (
    HAND_TOTAL,
    PLAIN_ORDER,
    SEQUENCE_ORDER,
    TRUMP_ORDER,
    card_points,
    legal_plays,
    renege_witnesses,
    trick_winner,
)
from rules.knowledge import ProvenRenege, Trick

__all__ = [
    "HAND_TOTAL",
    "PLAIN_ORDER",
    "SEQUENCE_ORDER",
    "TRUMP_ORDER",
    "Auction",
    "Deal",
    "ExchangeDix",
    "HandResult",
    "IllegalBid",
    "KlaberjassHand",
    "KlaberjassMatch",
    "KlaberjassRules",
    "Meld",
    "ProvenRenege",
    "SideTotals",
    "Trick",
    "bella",
    "best_melds",
    "card_points",
    "legal_plays",
    "renege_witnesses",
    "replay",
    "runs",
    "score_hand",
    "sequence_winner",
    "trick_winner",
]
