"""A Klaberjass game to 500 (rules.md "Scoring": first to 500 wins; ties settled as Clabber's)."""

from __future__ import annotations

import pytest

from rules.errors import HandOver, IllegalEvent
from rules.klaberjass import HandResult, KlaberjassMatch, KlaberjassRules, SideTotals


def result(a: int, b: int, *, redeal: bool = False) -> HandResult:
    zero = SideTotals()
    return HandResult((a, b), (zero, zero), None, 0, None, False, redeal, (), None, None, (),
                      "complete", ())  # fmt: skip


GAMES = [
    # (rule, hand scores, winner)
    ("first to 500 wins", [(300, 100), (210, 50)], 0),
    ("not yet 500: no winner", [(300, 100), (190, 50)], None),
    ("both pass 500 on the same hand: the higher total wins", [(450, 450), (60, 80)], 1),
    ("equal totals at 500 or more: another hand", [(450, 450), (70, 70)], None),
    ("the other player can win too", [(0, 162), (0, 170), (0, 170)], 1),
]


@pytest.mark.parametrize(("rule", "hands", "winner"), GAMES, ids=[g[0] for g in GAMES])
def test_game_winner(rule: str, hands: list[tuple[int, int]], winner: int | None) -> None:
    match = KlaberjassMatch(KlaberjassRules(), dealer=0)
    for a, b in hands:
        match = match.add(result(a, b))
    assert match.winner == winner
    assert match.totals == (sum(h[0] for h in hands), sum(h[1] for h in hands))


def test_deal_alternates_and_stays_after_a_redeal() -> None:
    match = KlaberjassMatch(KlaberjassRules(), dealer=1)
    match = match.add(result(10, 20))
    assert match.dealer == 0
    match = match.add(result(0, 0, redeal=True), dealer=0)
    assert match.dealer == 0
    with pytest.raises(IllegalEvent, match="seat 0's deal"):
        match.add(result(1, 2), dealer=1)


def test_no_hand_after_the_game_is_won() -> None:
    match = KlaberjassMatch(KlaberjassRules(), dealer=0).add(result(500, 0))
    with pytest.raises(HandOver, match="already won"):
        match.add(result(1, 1))
