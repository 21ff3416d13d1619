"""A game of a trick game: to a target score, the deal passing left after every scored hand.

Clabber and the Klaberjass family play to 500 (a ruleset option). If both sides pass the
target on the same hand the higher total wins; equal totals at or past it mean another hand.
A hand that is not scored (everyone passed, a misdeal, reneges by both sides) is dealt again
by the same dealer.
"""

from __future__ import annotations


def game_winner(totals: tuple[int, int], target: int) -> int | None:
    """The side (0 or 1) that has won with these totals, or ``None`` (not yet, or tied past
    the target)."""
    a, b = totals
    if (a < target and b < target) or a == b:
        return None
    return 0 if a > b else 1


def next_dealer(dealer: int, redeal: bool, players: int) -> int:
    """Who deals after a hand dealt by ``dealer``: the same seat after a redeal, else the
    next seat to the left."""
    return dealer if redeal else (dealer + 1) % players


class GameToTarget:
    """What a match state knows of its end, from its ``totals`` and its ``target`` (a mixin
    of the game's frozen dataclass)."""

    __slots__ = ()

    @property
    def totals(self) -> tuple[int, int]:
        raise NotImplementedError

    @property
    def target(self) -> int:
        raise NotImplementedError

    @property
    def winner(self) -> int | None:
        """The winning side, ``None`` while undecided."""
        return game_winner(self.totals, self.target)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def is_over(self) -> bool:
        return self.winner is not None
