"""A game of Klaberjass or Belote to 500: hands in order, running totals, the winner.

rules.md: first to 500 wins. Not said for this family, settled as in Clabber (the trick games'
rules, :mod:`rules.trickgame.match`): if both sides pass the target on the same hand the
higher total wins, and equal totals mean another hand. The deal passes to the left after every
scored hand; a redeal (two rounds of passes, an agreed schmeiss, a misdeal, reneges by both
sides) is dealt again by the same dealer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import HandOver, IllegalEvent
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.scoring import HandResult
from rules.trickgame.match import GameToTarget, next_dealer


@dataclass(frozen=True, slots=True)
class KlaberjassMatch(GameToTarget):
    """The match so far: ``results`` of the hands, ``totals`` per side (seats in Klaberjass,
    teams in Belote; ``winner`` is one of them once decided), the next ``dealer``."""

    rules: KlaberjassRules
    dealer: int = 0
    results: tuple[HandResult, ...] = ()
    totals: tuple[int, int] = (0, 0)
    running: tuple[tuple[int, int], ...] = ()

    @property
    def target(self) -> int:
        return self.rules.target

    def next_dealer(self, result: HandResult) -> int:
        return next_dealer(self.dealer, result.redeal, self.rules.players)

    def add(self, result: HandResult, dealer: int | None = None) -> KlaberjassMatch:
        """The match after one more hand dealt by ``dealer`` (checked when given)."""
        if self.is_over:
            raise HandOver(
                f"hand {len(self.results) + 1}: side {self.winner} already won "
                f"{self.totals[0]}-{self.totals[1]}"
            )
        if dealer is not None and dealer != self.dealer:
            raise IllegalEvent(
                f"hand {len(self.results) + 1}: dealt by seat {dealer}, "
                f"but it is seat {self.dealer}'s deal"
            )
        totals = (self.totals[0] + result.scores[0], self.totals[1] + result.scores[1])
        return replace(
            self,
            dealer=self.next_dealer(result),
            results=(*self.results, result),
            totals=totals,
            running=(*self.running, totals),
        )
