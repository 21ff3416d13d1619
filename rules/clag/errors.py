"""Errors of the Clag engine: every message quotes the input and the situation it met."""

from __future__ import annotations

from rules.errors import IllegalEvent


class ClagEventError(IllegalEvent):
    """An event Clag cannot accept in this state (a bad round, seat, contract or naming)."""


class ContractError(ClagEventError):
    """A contract outside 0..hand size, or one that breaks the dealer's rule."""


class WildTwoError(ClagEventError):
    """A wild two written wrongly, outside round 12, or naming a card already named."""
