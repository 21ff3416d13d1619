"""The one family of errors the rules engine raises.

Every message quotes the offending input and the situation it met, so that a scorer or a
referee reading it knows what to fix without a traceback.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: an input the rules cannot accept."""


class CardParseError(RulesError):
    """A card code that names no card (``"11H"``, ``"XS"``)."""


class IllegalEvent(RulesError):
    """An event that is impossible rather than punishable.

    A card played twice, a play after the hand is over, a seat that does not exist, a bid
    that breaks the dealer's rule. A renege is *not* an illegal event: it is recorded.
    """


class OutOfTurn(IllegalEvent):
    """An event from a seat whose turn it is not (when the engine cannot record it as a renege)."""


class CardAlreadyPlayed(IllegalEvent):
    """A card seen a second time in the same hand."""


class CardNotInDeck(IllegalEvent):
    """A card outside the deck the game uses (a 7 in Clabber)."""


class HandOver(IllegalEvent):
    """An event after the hand (or round) has ended."""


class RecordError(RulesError):
    """A hand or match record that cannot be read; names the field at fault."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")
