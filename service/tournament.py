"""A tournament's schedule and standings, as pure functions (no database, no web).

Schedule: a single round robin by the circle method. With ``n`` entrants (teams; players for
a two-handed game) every pair meets exactly once: ``n - 1`` rounds of ``n / 2`` matches for
even ``n``; for odd ``n`` a bye is added, so ``n`` rounds in which each entrant sits out
once. Each round's matches are laid out on tables 1, 2, ...

Standings (rules.md "Tournaments"): by games won, ties broken by total game points
(``rank_by="games"``, the default), or by game points alone (``rank_by="points"``). Entrants
still level share a place (1, 2, 2, 4).

Clag is every player for himself at tables of 4 to 7, so a pairing schedule does not fit it;
its tournaments use the standings (by points) with seatings made another way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

RankBy = Literal["games", "points"]


@dataclass(frozen=True, slots=True)
class Match:
    """``home`` plays ``away`` (entrant indexes) at ``table`` (1-based) in ``round`` (1-based)."""

    round: int
    table: int
    home: int
    away: int


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    entrant: int


def circle_rounds(n: int) -> list[list[tuple[int, int | None]]]:
    """The pairings of each round for ``n`` entrants (0..n-1); ``None`` is the bye.

    Entrant 0 (or the bye slot, for odd ``n``) stays put while the others rotate one place a
    round; the first pairing's sides alternate so nobody is always listed first."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"a round robin needs at least 2 entrants, got {n!r}")
    slots: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    size = len(slots)
    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(size - 1):
        pairs: list[tuple[int, int | None]] = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a
            if a is None:  # keep the bye second
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        pairs.sort(key=lambda p: p[1] is None)  # matches first, the bye last
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def schedule(n: int, tables: int | None = None) -> tuple[list[Match], list[Bye]]:
    """The round robin of ``n`` entrants laid out on tables: the matches and the byes.

    ``tables`` (default: as many as a round needs) must be at least ``n // 2``."""
    needed = n // 2
    if tables is not None and tables < needed:
        raise ValueError(f"{n} entrants play {needed} matches a round: {tables} tables are too few")
    matches: list[Match] = []
    byes: list[Bye] = []
    for r, pairs in enumerate(circle_rounds(n), 1):
        table = 0
        for a, b in pairs:
            if b is None:
                byes.append(Bye(r, a))
            else:
                table += 1
                matches.append(Match(r, table, a, b))
    return matches, byes


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the two entrants, their game points, the winner (``None``: no winner
    decided, e.g. a game abandoned)."""

    home: int
    away: int
    points: tuple[int, int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    entrant: int
    played: int
    won: int
    lost: int
    points: int
    points_against: int


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished game at a table of any size (Clag seats 4 to 7 entrants): the entrants side
    by side, their game points, and the winners among them (empty: no winner decided).
    A player's points against are the other sides' points together."""

    entrants: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def of(cls, res: GameResult | TableResult) -> TableResult:
        if isinstance(res, TableResult):
            return res
        winners = () if res.winner is None else (res.winner,)
        return cls((res.home, res.away), res.points, winners)


def standings(
    entrants: int, results: Iterable[GameResult | TableResult], rank_by: RankBy = "games"
) -> list[Standing]:
    """The table of entrants 0..entrants-1 after ``results``, best first."""
    if rank_by not in ("games", "points"):
        raise ValueError(f"rank_by {rank_by!r}: expected 'games' or 'points'")
    played = [0] * entrants
    won = [0] * entrants
    lost = [0] * entrants
    points = [0] * entrants
    against = [0] * entrants
    for given in results:
        res = TableResult.of(given)
        if len(res.points) != len(res.entrants):
            raise ValueError(
                f"result {given}: {len(res.entrants)} entrants, points for {len(res.points)}"
            )
        for who in (*res.entrants, *res.winners):
            if not 0 <= who < entrants:
                raise ValueError(f"result {given}: no entrant {who} (0..{entrants - 1})")
        total = sum(res.points)
        for me, mine in zip(res.entrants, res.points, strict=True):
            played[me] += 1
            points[me] += mine
            against[me] += total - mine
            if res.winners:
                if me in res.winners:
                    won[me] += 1
                else:
                    lost[me] += 1

    def key(e: int) -> tuple[int, ...]:
        return (won[e], points[e]) if rank_by == "games" else (points[e],)

    order = sorted(range(entrants), key=lambda e: (tuple(-k for k in key(e)), e))
    out: list[Standing] = []
    for i, e in enumerate(order):
        place = out[-1].place if out and key(order[i - 1]) == key(e) else i + 1
        out.append(Standing(place, e, played[e], won[e], lost[e], points[e], against[e]))
    return out


def pairs_of(matches: Sequence[Match]) -> list[frozenset[int]]:
    """Who met whom (for checking a schedule)."""
    return [frozenset((m.home, m.away)) for m in matches]
