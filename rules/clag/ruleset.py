"""Clag's ruleset options: each **Decision** of the rule book is a named option.

``dealer_rule``
    ``"exceed"`` (default): the dealer's contract must make the total exceed the hand size;
    if no contract up to the hand size does (everyone else said 0), the dealer must contract
    the hand size. ``"not_equal"``: the common Oh Hell rule, the total may not equal the hand
    size (OpenSpiel's ``oh_hell``).
``renege_penalty``
    ``"zero_round"`` (default): a player with a proven renege scores 0 for the round and his
    contract does not count as completed; the trick results stand. ``"none"``: reneges are
    reported with their evidence but the score is left to the referee.
``apply_reneges``
    ``"auto"`` (default): a proven renege is applied as soon as the cards prove it (a referee
    may dismiss it, ``DismissRenege``); ``"confirmed"``: only once a referee confirms it
    (``ConfirmRenege``).
``chosen_trump``
    What the dealer may choose in round 14: ``"suit"`` (default, one of the four suits) or
    ``"suit_or_none"`` (no trump allowed as well).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, cast

from rules.clag.errors import ClagEventError

DealerRule = Literal["exceed", "not_equal"]
RenegePenalty = Literal["zero_round", "none"]
ChosenTrump = Literal["suit", "suit_or_none"]
ApplyReneges = Literal["auto", "confirmed"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer_rule": ("exceed", "not_equal"),
    "renege_penalty": ("zero_round", "none"),
    "apply_reneges": ("auto", "confirmed"),
    "chosen_trump": ("suit", "suit_or_none"),
}


@dataclass(frozen=True, slots=True)
class ClagRuleset:
    """The options a club may choose; the defaults are the rule book's decisions."""

    dealer_rule: DealerRule = "exceed"
    renege_penalty: RenegePenalty = "zero_round"
    apply_reneges: ApplyReneges = "auto"
    chosen_trump: ChosenTrump = "suit"

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ClagEventError(
                    f"option {name}={value!r} is not one of " + ", ".join(map(repr, allowed))
                )

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> ClagRuleset:
        """Read ``{"dealer_rule": "not_equal"}``; unknown names and values are errors."""
        known = {f.name for f in fields(cls)}
        for name in options:
            if name not in known:
                raise ClagEventError(
                    f"unknown option {name!r}: Clag options are " + ", ".join(sorted(known))
                )
        return cls(**cast(dict[str, Any], dict(options)))

    def options(self) -> dict[str, str]:
        """The options that differ from the defaults (what a record needs to write)."""
        default = ClagRuleset()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


DEFAULT_RULESET = ClagRuleset()
