"""Round-robin schedule (circle method) and standings: properties over every entrant count
(hypothesis) and the ranking rules of rules.md "Tournaments" table by table."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.tournament import GameResult, circle_rounds, pairs_of, schedule, standings

COUNTS = st.integers(min_value=2, max_value=40)


@settings(max_examples=60, deadline=None)
@given(COUNTS)
def test_every_pair_meets_exactly_once(n: int) -> None:
    matches, _byes = schedule(n)
    met = Counter(pairs_of(matches))
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}


@settings(max_examples=60, deadline=None)
@given(COUNTS)
def test_no_entrant_twice_in_a_round_and_rounds_are_full(n: int) -> None:
    rounds = circle_rounds(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for pairs in rounds:
        seen = [e for a, b in pairs for e in (a, b) if e is not None]
        assert sorted(seen) == list(range(n))  # everyone once: playing, or on the bye
        assert sum(b is not None for _, b in pairs) == n // 2


@settings(max_examples=60, deadline=None)
@given(COUNTS)
def test_byes_only_for_odd_counts_each_entrant_once(n: int) -> None:
    matches, byes = schedule(n)
    if n % 2 == 0:
        assert byes == []
    else:
        assert sorted(b.entrant for b in byes) == list(range(n))
        assert [b.round for b in byes] == list(range(1, n + 1))  # one bye a round
    for r in {m.round for m in matches}:
        tables = sorted(m.table for m in matches if m.round == r)
        assert tables == list(range(1, n // 2 + 1))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=30))
def test_nobody_is_always_listed_first(n: int) -> None:
    matches, _ = schedule(n)
    home = Counter(m.home for m in matches)
    games = n - 1
    assert all(home[e] < games for e in range(n))


@pytest.mark.parametrize("bad", [0, 1, -3, True, 2.5])
def test_too_few_entrants_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="at least 2 entrants"):
        circle_rounds(bad)  # type: ignore[arg-type]


def test_too_few_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="3 tables are too few"):
        schedule(8, tables=3)
    assert len(schedule(8, tables=4)[0]) == 28


# rules.md: teams ranked by games won, ties broken by total game points; some events rank by
# game points alone.
RESULTS = [
    GameResult(0, 1, (510, 320), 0),
    GameResult(2, 3, (505, 480), 2),
    GameResult(0, 2, (300, 502), 2),
    GameResult(1, 3, (500, 100), 1),
    GameResult(0, 3, (520, 499), 0),
    GameResult(1, 2, (200, 530), 2),
]


def test_standings_by_games_won_then_points() -> None:
    table = standings(4, RESULTS)
    assert [(s.entrant, s.won, s.points) for s in table] == [
        (2, 3, 1537),
        (0, 2, 1330),
        (1, 1, 1020),
        (3, 0, 1079),  # more points than team 1, fewer games won
    ]
    assert [s.place for s in table] == [1, 2, 3, 4]
    assert (
        table[0].played == 3 and table[0].lost == 0 and table[0].points_against == 480 + 300 + 200
    )


def test_standings_by_points_alone() -> None:
    table = standings(4, RESULTS, rank_by="points")
    assert [s.entrant for s in table] == [2, 0, 3, 1]


def test_level_entrants_share_a_place() -> None:
    results = [GameResult(0, 1, (500, 400), 0), GameResult(2, 3, (500, 400), 2)]
    assert [s.place for s in standings(4, results)] == [1, 1, 3, 3]
    assert [s.place for s in standings(5, [])] == [1, 1, 1, 1, 1]


def test_results_naming_unknown_entrants_are_refused() -> None:
    with pytest.raises(ValueError, match="no entrant 7"):
        standings(4, [GameResult(0, 7, (500, 0), 0)])
    with pytest.raises(ValueError, match="rank_by"):
        standings(4, [], rank_by="luck")  # type: ignore[arg-type]
