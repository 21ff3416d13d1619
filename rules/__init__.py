"""trickcam's rules engine: pure Python, standard library only.

The part a club could run on paper: cards, tricks, melds and one package per game, each a
ruleset (tables and options) plus an immutable state machine fed by events. Clabber and the
Klaberjass family (Klaberjass, Jass-deux, Belote) share one trick-game core
(:mod:`rules.trickgame`) and keep only their tables, duties, bidding, melds and scoring; Clag
stands on its own. :mod:`rules.knowledge` (what the table has seen, renege evidence) and
:mod:`rules.events` serve every game.
"""

from rules.cards import DECK_24, DECK_32, DECK_52, SUITS, Card, Rank, Suit, card, cards
from rules.errors import (
    CardAlreadyPlayed,
    CardNotInDeck,
    CardParseError,
    HandOver,
    IllegalEvent,
    OutOfTurn,
    RecordError,
    RulesError,
)

__all__ = [
    "DECK_24",
    "DECK_32",
    "DECK_52",
    "SUITS",
    "Card",
    "CardAlreadyPlayed",
    "CardNotInDeck",
    "CardParseError",
    "HandOver",
    "IllegalEvent",
    "OutOfTurn",
    "Rank",
    "RecordError",
    "RulesError",
    "Suit",
    "card",
    "cards",
]
