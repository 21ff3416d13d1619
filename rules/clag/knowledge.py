"""What the table has seen of hidden hands: cards played, suits shown void, reneges proven.

A player who does not follow the led suit is either void in it or reneging. The engine
records a :class:`Shortfall` and turns it into a :class:`Renege` as soon as the cards prove
it: the player later plays a card of that suit (in round 12 a card that is not a two), or his
dealt hand is known and held one.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.clag.tricks import Entry


@dataclass(frozen=True, slots=True)
class Shortfall:
    """``seat`` did not follow ``led`` in trick ``trick`` (0-based), playing ``entry``."""

    seat: int
    trick: int
    led: Suit
    entry: Entry


@dataclass(frozen=True, slots=True)
class Renege:
    """A proven failure to follow suit, with the card that proves it.

    ``evidence_trick`` is the trick where the proving card was played, ``None`` when the
    dealt hand was known to hold it.
    """

    seat: int
    trick: int
    led: Suit
    entry: Entry
    evidence: Card
    evidence_trick: int | None

    def describe(self) -> str:
        where = (
            "held it from the deal"
            if self.evidence_trick is None
            else f"played it in trick {self.evidence_trick + 1}"
        )
        return (
            f"seat {self.seat} played {self.entry} to trick {self.trick + 1} "
            f"({self.led.name.lower()} led) while holding {self.evidence} ({where})"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "trick": self.trick,
            "played": str(self.entry),
            "led": self.led.value,
            "evidence": str(self.evidence),
            "evidence_trick": self.evidence_trick,
            "text": self.describe(),
        }


def prove(shortfall: Shortfall, evidence: Card, evidence_trick: int | None) -> Renege:
    return Renege(
        shortfall.seat, shortfall.trick, shortfall.led, shortfall.entry, evidence, evidence_trick
    )
