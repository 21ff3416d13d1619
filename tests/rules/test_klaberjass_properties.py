"""Invariants of random Klaberjass and Jass-deux hands and games (hypothesis + simulation).

Random but lawful players (:mod:`rules.klaberjass.simulate`): 162 a hand (152 card points in
the deck; the 18 cards played hold their card points, plus 10 for the last trick), every card
at most once, replay = state, a lawful hand never reneges, and one illegal play is always
proven by the end of the hand, against the right seat.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.klaberjass import (
    HAND_TOTAL,
    KlaberjassMatch,
    KlaberjassRules,
    card_points,
    replay,
    score_hand,
)
from rules.klaberjass.simulate import simulate_hand

RULESETS = st.sampled_from(
    [
        KlaberjassRules(),
        KlaberjassRules(variant="jass-deux"),
        KlaberjassRules(bella="announced"),
        KlaberjassRules(must_overtrump=True),
    ]
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=RULESETS, dealer=st.integers(0, 1), known=st.booleans())
def test_a_lawful_hand_is_complete_and_adds_up(
    seed: int, rules: KlaberjassRules, dealer: int, known: bool
) -> None:
    sim = simulate_hand(random.Random(seed), rules, dealer, known_deal=known)
    state = sim.state
    result = score_hand(state)
    assert state.reneges == ()
    if state.redeal:
        assert result.scores == (0, 0) and state.tricks == ()
        return
    assert state.end == "complete"
    played = state.all_played()
    assert len(played) == 18 == len(set(played))  # every card once, nine tricks of two
    assert state.upcard not in played or state.exchange is not None
    trump = state.trump
    assert trump is not None
    card_total = sum(card_points(c, trump) for c in played)
    a, b = result.totals
    assert a.cards + b.cards == card_total
    assert a.cards + a.last_trick + b.cards + b.last_trick == card_total + 10 <= HAND_TOTAL
    # the score hands out exactly the two totals, whether the maker made it or was bete
    assert sum(result.scores) == a.total + b.total
    maker_side = state.maker
    assert maker_side is not None
    if result.bete:
        assert result.scores[maker_side] == 0
    assert replay(state.events, rules) == state


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=RULESETS, at=st.integers(0, 17), known=st.booleans())
def test_an_illegal_play_is_proven_against_its_player(
    seed: int, rules: KlaberjassRules, at: int, known: bool
) -> None:
    sim = simulate_hand(random.Random(seed), rules, illegal_at=at, known_deal=known)
    state = sim.state
    if sim.illegal is None:
        assert state.reneges == ()
        return
    assert state.end == "renege"
    (first, *_) = state.reneges
    assert first.seat == sim.illegal.seat and first.evidence.card == sim.illegal.card
    if known:  # with the deal known, the play itself is the proof
        assert state.events[-1] == sim.illegal
    result = score_hand(state)
    assert result.scores[sim.illegal.seat] == 0
    assert result.scores[1 - sim.illegal.seat] >= 162
    assert replay(state.events, rules) == state


def test_random_games_reach_500() -> None:
    """Whole games of random hands: the dealer alternates (stays after a redeal), totals run,
    and the game stops at the first hand that puts a player on 500 or more."""
    rng = random.Random(7)
    for _ in range(5):
        match = KlaberjassMatch(KlaberjassRules(), dealer=0)
        hands = 0
        while not match.is_over:
            sim = simulate_hand(rng, match.rules, match.dealer)
            before = match.dealer
            match = match.add(score_hand(sim.state), sim.state.dealer)
            assert match.dealer == (before if sim.state.redeal else 1 - before)
            hands += 1
            assert hands < 200
        assert match.winner is not None and max(match.totals) >= 500
        assert match.totals[match.winner] > match.totals[1 - match.winner]
        assert match.running[-1] == match.totals
