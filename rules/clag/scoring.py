"""Scoring a Clag round and ranking a game.

Every round but 9 and 15: 1 point a trick, 10 more for winning exactly the contract (a
*completed contract*). Round 9: 1 a trick and 10 for winning none. Round 15: the one player
with the most tricks scores 10 (his contract counts as completed); a tie for most: nobody
scores. A proven renege costs the round (ruleset option ``renege_penalty``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rules.clag.ruleset import ClagRuleset
from rules.clag.schedule import NO_CONTRACT_ROUND, ZERO_CONTRACT_ROUND

BONUS = 10


def completed_contracts(
    round_no: int, contracts: Sequence[int | None], tricks_won: Sequence[int]
) -> tuple[bool, ...]:
    """Who completed his contract, before any renege penalty."""
    if round_no == NO_CONTRACT_ROUND:
        most = max(tricks_won)
        leaders = [t for t in tricks_won if t == most]
        return tuple(len(leaders) == 1 and t == most for t in tricks_won)
    if round_no == ZERO_CONTRACT_ROUND:
        return tuple(t == 0 for t in tricks_won)
    return tuple(c == t for c, t in zip(contracts, tricks_won, strict=True))


def round_scores(
    round_no: int,
    contracts: Sequence[int | None],
    tricks_won: Sequence[int],
    reneged: Collection[int],
    ruleset: ClagRuleset,
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """(score, completed) per seat for a finished round."""
    done = list(completed_contracts(round_no, contracts, tricks_won))
    scores = []
    for seat, won in enumerate(tricks_won):
        if round_no == NO_CONTRACT_ROUND:
            points = BONUS if done[seat] else 0
        else:
            points = won + (BONUS if done[seat] else 0)
        if seat in reneged and ruleset.renege_penalty == "zero_round":
            points, done[seat] = 0, False
        scores.append(points)
    return tuple(scores), tuple(done)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final ranking; equal totals share a place."""

    place: int
    seat: int
    total: int
    completed: int


def ranking(totals: Sequence[int], completed: Sequence[int]) -> tuple[Standing, ...]:
    """Highest total first; completed contracts are shown beside, not used to break ties."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[Standing] = []
    for i, seat in enumerate(order):
        tied = out and totals[out[-1].seat] == totals[seat]
        place = out[-1].place if tied else i + 1
        out.append(Standing(place, seat, totals[seat], completed[seat]))
    return tuple(out)
