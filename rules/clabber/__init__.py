"""Evansville Clabber: 24 cards, four players in fixed partnerships, a game to 500.

The public face of the engine: card points, trick winners, legal plays, melds and the meld
contest as plain functions; :class:`HandState` (one hand) and :class:`MatchState` (a game to
500) as immutable state machines fed by events; :class:`ClabberRules` for the club options.
The hand is the shared trick-game core (:mod:`rules.trickgame`) with Clabber's tables
(:mod:`rules.clabber.ruleset`), duties (:mod:`rules.clabber.duties`), bidding and melds.
"""

from rules.clabber.events import Deal
from rules.clabber.hand import HandState, replay
from rules.clabber.match import MatchState, replay_match
from rules.clabber.melds import Meld, best_melds, meld_contest, meld_from_cards
from rules.clabber.play import card_points, legal_plays, trick_winner
from rules.clabber.ruleset import DEFAULT_RULES, ClabberRules, team_of
from rules.clabber.scoring import HandResult, hand_result
from rules.clabber.values import Claim, Declared, ProvenRenege, Trick
from rules.events import (
    Announce,
    Bid,
    ClaimRenege,
    ConfirmRenege,
    Correct,
    Declare,
    DismissRenege,
    Misdeal,
    Play,
    RefereeRenege,
    Show,
)

__all__ = [
    "DEFAULT_RULES",
    "Announce",
    "Bid",
    "Claim",
    "ClaimRenege",
    "ClabberRules",
    "ConfirmRenege",
    "Correct",
    "Deal",
    "Declare",
    "Declared",
    "DismissRenege",
    "HandResult",
    "HandState",
    "MatchState",
    "Meld",
    "Misdeal",
    "Play",
    "ProvenRenege",
    "RefereeRenege",
    "Show",
    "Trick",
    "best_melds",
    "card_points",
    "hand_result",
    "legal_plays",
    "meld_contest",
    "meld_from_cards",
    "replay",
    "replay_match",
    "team_of",
    "trick_winner",
]
