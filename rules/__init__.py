"""trickcam's rules engine: pure Python, standard library only.

The part a club could run on paper: cards, tricks, melds and one module per game, each a
ruleset (tables and options) plus an immutable state machine fed by events.
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
