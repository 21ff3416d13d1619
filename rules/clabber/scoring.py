"""The score of a finished Clabber hand.

Each team adds its trick points, its melds (if it won the meld contest), bella and the last
trick (10). If the makers' total is greater than the opponents', both score their totals;
otherwise the makers are set ("XXX"): they score 0 and lose melds and bella, the opponents
score their own total. A renege ends the hand: the reneging team scores 0, the other 162 plus
every meld and bella it holds (no contest); both teams reneging: nothing, same dealer again.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.clabber.hand import HandState
from rules.clabber.melds import Meld, best_melds, meld_contest, meld_from_cards
from rules.clabber.play import card_points
from rules.clabber.ruleset import HAND_TOTAL, LAST_TRICK_BONUS, SEATS, team_of
from rules.clabber.values import ProvenRenege, Trick
from rules.errors import IllegalEvent


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a finished hand scores. ``score`` is (team 0, team 1) as recorded."""

    score: tuple[int, int]
    set: bool
    makers: int | None
    maker: int | None
    redeal: bool
    end: str
    trick_points: tuple[int, int]
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    meld_winner: int | None
    meld_points: tuple[int, int]
    bella: tuple[int, int]
    totals: tuple[int, int]
    reneges: tuple[ProvenRenege, ...]
    tricks: tuple[Trick, ...]
    last_trick: int | None

    @property
    def renege_teams(self) -> frozenset[int]:
        return frozenset(r.team for r in self.reneges if r.counts)


def seat_melds(state: HandState, seat: int) -> list[Meld]:
    """The melds ``seat`` scores, bella included: with ``melds = "auto"`` every meld found in
    its known cards; with ``"declared"`` the melds declared and shown in time (bella from the
    cards either way)."""
    trump = state.trump
    assert trump is not None
    known = state.knowledge.played[seat] | state.knowledge.held[seat]
    found = best_melds(known, trump)
    if state.rules.melds == "auto":
        return found
    bella = [m for m in found if m.kind == "bella"]
    declared: list[Meld] = []
    for d in state.declared:
        if d.seat == seat and d.on_time and (d.shown or state.end == "renege"):
            m = meld_from_cards(d.cards, trump)
            if m is not None and m.kind != "bella":
                declared.append(m)
    return declared + bella


def hand_result(state: HandState) -> HandResult:
    """Score a finished hand; raises :class:`IllegalEvent` if it is not over."""
    if not state.over:
        raise IllegalEvent("the hand is not over yet")
    tricks = state.tricks
    if state.end in ("passed", "misdeal"):
        return HandResult(
            (0, 0), False, None, None, True, state.end, (0, 0), ((), ()), None, (0, 0), (0, 0), (0, 0),
            state.reneges, tricks, None,
        )  # fmt: skip
    trump = state.trump
    # Only a renege during the bidding ends a hand before trump is made; then no trick was
    # played and no meld can have been shown, so the innocent team scores 162 flat.
    assert trump is not None or state.end == "renege"
    tp = [0, 0]
    if trump is not None:
        for t in tricks:
            tp[team_of(t.winner)] += sum(card_points(c, trump) for c in t.cards)
    last = team_of(tricks[-1].winner) if len(tricks) == 6 else None
    if last is not None:
        tp[last] += LAST_TRICK_BONUS
    per_seat = [seat_melds(state, s) if trump is not None else [] for s in range(SEATS)]
    team_melds = (
        tuple(m for s in (0, 2) for m in per_seat[s] if m.kind != "bella"),
        tuple(m for s in (1, 3) for m in per_seat[s] if m.kind != "bella"),
    )
    bella = tuple(
        sum(m.points for s in (t, t + 2) for m in per_seat[s] if m.kind == "bella") for t in (0, 1)
    )
    all_meld_points = tuple(sum(m.points for m in team_melds[t]) for t in (0, 1))
    applied = state.applied_reneges
    makers = state.makers
    if state.end == "renege" and applied:
        teams = {r.team for r in applied}
        if len(teams) == 2:
            return HandResult(
                (0, 0), False, makers, state.maker, True, "renege", (tp[0], tp[1]), team_melds, None,
                (0, 0), (bella[0], bella[1]), (0, 0), state.reneges, tricks, last,
            )  # fmt: skip
        loser = teams.pop()
        winner = 1 - loser
        extra = all_meld_points[winner] + bella[winner] if state.rules.renege_melds == "all" else 0
        score = [0, 0]
        score[winner] = HAND_TOTAL + extra
        mp = [0, 0]
        if state.rules.renege_melds == "all":
            mp[winner] = all_meld_points[winner]
        return HandResult(
            (score[0], score[1]), False, makers, state.maker, False, "renege", (tp[0], tp[1]), team_melds,
            None, (mp[0], mp[1]), (bella[0], bella[1]), (score[0], score[1]), state.reneges, tricks, last,
        )  # fmt: skip
    assert makers is not None and trump is not None
    contest = meld_contest(team_melds[0], team_melds[1], trump)
    mp = [0, 0]
    if contest is not None:
        mp[contest] = all_meld_points[contest]
    totals = (tp[0] + mp[0] + bella[0], tp[1] + mp[1] + bella[1])
    is_set = totals[makers] <= totals[1 - makers]
    score = list(totals)
    if is_set:
        score[makers] = 0
    return HandResult(
        (score[0], score[1]), is_set, makers, state.maker, False, state.end, (tp[0], tp[1]), team_melds,
        contest, (mp[0], mp[1]), (bella[0], bella[1]), totals, state.reneges, tricks, last,
    )  # fmt: skip
