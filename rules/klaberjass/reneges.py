"""Reneges in the Klaberjass family, proven from the cards themselves.

A play that breaks a duty is not refused (the camera saw it happen); it is recorded with the
set of cards that would have made it illegal (:func:`rules.klaberjass.tables.renege_witnesses`).
Every card a player plays was in his hand from the first trick on, so the renege is proven
the moment he plays (or is known to hold) one of those cards; at the end of the hand every
card is known and every renege is proven or cleared.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class Suspect:
    """A play that was a renege if ``seat`` held any of ``witnesses`` at the time."""

    seat: int
    trick: int
    card: Card
    led: Suit
    witnesses: frozenset[Card]


@dataclass(frozen=True, slots=True)
class Renege:
    """A proven renege. ``rule`` names the duty; ``evidence`` is the card that proves it
    (``None`` for a referee's report) and ``evidence_trick`` where it was shown."""

    seat: int
    rule: str
    trick: int
    card: Card | None
    evidence: Card | None
    evidence_trick: int | None
    note: str = ""

    def describe(self) -> str:
        if self.card is None or self.evidence is None:
            return f"seat {self.seat}: {self.rule}" + (f" ({self.note})" if self.note else "")
        where = "later" if self.evidence_trick is None else f"in trick {self.evidence_trick + 1}"
        return (
            f"seat {self.seat} broke '{self.rule}' with {self.card} in trick {self.trick + 1}: "
            f"{self.evidence}, shown {where}, was in that hand"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "rule": self.rule,
            "trick": self.trick + 1,
            "card": None if self.card is None else str(self.card),
            "evidence": None if self.evidence is None else str(self.evidence),
            "evidence_trick": None if self.evidence_trick is None else self.evidence_trick + 1,
            "text": self.describe(),
        }


def duty_broken(suspect: Suspect, evidence: Card, trump: Suit) -> str:
    """Which duty ``suspect`` broke, given the card that proves it."""
    if evidence.suit == suspect.led and suspect.card.suit != suspect.led:
        return "follow suit"
    if suspect.led == trump:
        return "head: play a higher trump"
    if suspect.card.suit == trump:
        return "overtrump"
    return "trump when void in the suit led"


def prove(suspect: Suspect, evidence: Card, evidence_trick: int | None, trump: Suit) -> Renege:
    return Renege(
        seat=suspect.seat,
        rule=duty_broken(suspect, evidence, trump),
        trick=suspect.trick,
        card=suspect.card,
        evidence=evidence,
        evidence_trick=evidence_trick,
    )
