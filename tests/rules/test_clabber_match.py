"""A game of Clabber to 500 (rules.md "Game", "Deal": the deal passes left; redeals)."""

from __future__ import annotations

import random

import pytest
from clabber_deals import BASE_PLAYS

from rules import HandOver, IllegalEvent, OutOfTurn, card
from rules.clabber import (
    Bid,
    ClabberRules,
    Correct,
    Deal,
    MatchState,
    Play,
    hand_result,
    replay_match,
)
from rules.clabber.match import game_winner
from rules.clabber.simulate import simulate_game


@pytest.mark.parametrize(
    ("rule", "totals", "winner"),
    [
        ("first team to 500 wins", (510, 320), 0),
        ("exactly 500 wins", (300, 500), 1),
        ("under 500: no winner yet", (499, 480), None),
        ("both past 500 on the same hand: higher total wins", (530, 545), 1),
        ("equal totals at 500 or more: another hand", (520, 520), None),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_game_winner(rule: str, totals: tuple[int, int], winner: int | None) -> None:
    assert game_winner(totals, 500) == winner


def _hand_events(dealer: int, calls: list[str], plays: list[str]) -> list[object]:
    events: list[object] = [Deal(dealer, card("9H"))]
    for i, call in enumerate(calls):
        seat = (dealer + 1 + i) % 4
        events.append(Bid(seat, call))
    return events + [("play", code) for code in plays]


def _apply_all(match: MatchState, events: list[object]) -> MatchState:
    for e in events:
        if isinstance(e, tuple):
            hand = match.current
            assert hand is not None and hand.to_move is not None
            e = Play(hand.to_move, card(e[1]))
        match = match.apply(e)
    return match


def test_a_scored_hand_passes_the_deal_left_and_a_redeal_keeps_it() -> None:
    match = _apply_all(MatchState(), _hand_events(3, ["play"], BASE_PLAYS))
    assert match.totals == (128, 104) and match.next_dealer == 0
    with pytest.raises(OutOfTurn):
        match.apply(Deal(1, card("9S")))
    match = _apply_all(match, [Deal(0, card("9S"))] + [Bid((1 + i) % 4, "pass") for i in range(8)])
    assert hand_result(match.current).redeal and match.next_dealer == 0  # type: ignore[arg-type]
    assert match.totals == (128, 104) and len(match.running_totals) == 2


def test_a_deal_while_a_hand_is_in_progress_is_refused() -> None:
    match = MatchState().apply(Deal(3, card("9H")))
    with pytest.raises(IllegalEvent):
        match.apply(Deal(0, card("9S")))


def test_game_over_refuses_another_deal_and_both_past_the_target() -> None:
    rules = ClabberRules(game_target=100)
    match = _apply_all(MatchState(rules=rules), _hand_events(3, ["play"], BASE_PLAYS))
    assert match.winner == 0 and match.over  # 128 to 104: both past 100, the higher wins
    with pytest.raises(HandOver):
        match.apply(Deal(0, card("9S")))


def test_random_games_reach_500_and_replay() -> None:
    rng = random.Random(7)
    for _ in range(5):
        hands = simulate_game(rng, dealer=rng.randrange(4))
        events = [e for h in hands for e in h.events]
        match = replay_match(events)
        assert match.over and max(match.totals) >= 500 and match.winner is not None
        assert replay_match(match.events) == match
        expected = (
            sum(hand_result(h).score[0] for h in hands),
            sum(hand_result(h).score[1] for h in hands),
        )
        assert match.totals == expected


def test_match_correction_replays_the_corrected_log() -> None:
    match = _apply_all(MatchState(), _hand_events(3, ["play"], BASE_PLAYS[:10]))
    last = len(match.events) - 1
    assert match.events[last] == Play(1, card("AS"))
    fixed = match.apply(Correct(last, Play(1, card("9S"))))
    assert fixed == replay_match(fixed.events)
    assert fixed.current is not None and [str(c) for _, c in fixed.current.current] == ["10S", "9S"]
