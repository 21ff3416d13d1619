"""Invariants of Clabber over random hands (hypothesis) and a 10,000-hand random-play run."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clabber import DEFAULT_RULES, ClabberRules, hand_result, replay
from rules.clabber.records import score_record
from rules.clabber.ruleset import DECK
from rules.clabber.simulate import hand_record, simulate_hand

SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.integers(0, 3))
def test_card_points_plus_last_trick_are_162_and_every_card_is_played_once(
    seed: int, dealer: int
) -> None:
    sim = simulate_hand(random.Random(seed), dealer)
    r = hand_result(sim.state)
    if r.end == "passed":
        return
    played = [c for t in sim.state.tricks for c in t.cards]
    assert sorted(played, key=DECK.index) == list(DECK)
    assert sum(r.trick_points) == 162
    assert r.makers is not None
    if r.set:
        assert r.score[r.makers] == 0 and r.score[1 - r.makers] == r.totals[1 - r.makers]
    else:
        assert r.score == r.totals and r.totals[r.makers] > r.totals[1 - r.makers]


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(0, 3), st.booleans())
def test_replay_of_the_log_gives_the_same_state(seed: int, dealer: int, known: bool) -> None:
    sim = simulate_hand(random.Random(seed), dealer, known_deal=known)
    assert replay(sim.state.events) == sim.state
    assert sim.state.events == sim.events


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.integers(0, 3))
def test_a_random_legal_hand_never_yields_a_renege_and_hidden_equals_known(
    seed: int, dealer: int
) -> None:
    hidden = simulate_hand(random.Random(seed), dealer)
    known = simulate_hand(random.Random(seed), dealer, known_deal=True)
    assert not hidden.state.reneges and not known.state.reneges
    assert hand_result(hidden.state).score == hand_result(known.state).score


@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(0, 3), st.integers(0, 23), st.booleans())
def test_a_random_illegal_play_is_always_proven_by_the_end(
    seed: int, dealer: int, at: int, known: bool
) -> None:
    sim = simulate_hand(random.Random(seed), dealer, illegal_at=at, known_deal=known)
    if sim.illegal is None:
        return
    assert sim.state.over and sim.state.end == "renege"
    first = sim.state.reneges[0].evidence
    assert first.seat == sim.illegal.seat and first.card == sim.illegal.card
    assert first.rule in ("follow", "trump", "overtrump")
    if known:  # with the deal known it is caught at once
        assert sim.state.events[-1] == sim.illegal
    r = hand_result(sim.state)
    assert r.score[first.seat % 2] == 0 and r.score[1 - first.seat % 2] >= 162


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(0, 3), st.sampled_from([DEFAULT_RULES, ClabberRules(melds="declared")]))
def test_a_hand_record_scores_like_the_engine(seed: int, dealer: int, rules: ClabberRules) -> None:
    sim = simulate_hand(random.Random(seed), dealer, rules=rules)
    record = hand_record(sim.state)
    record["options"] = {"melds": rules.melds}
    result = score_record(record)
    expected = hand_result(sim.state)
    assert result["score"] == list(expected.score)
    assert [t["winner"] for t in result["tricks"]] == [t.winner for t in expected.tricks]  # type: ignore[union-attr]


def test_ten_thousand_random_hands() -> None:
    """Random play of 10,000 hands, scored: the invariants hold in every one."""
    rng = random.Random(20261129)
    ends: dict[str, int] = {}
    sets = melds = bellas = 0
    for i in range(10_000):
        sim = simulate_hand(rng, i % 4)
        r = hand_result(sim.state)
        ends[r.end] = ends.get(r.end, 0) + 1
        assert not sim.state.reneges
        if r.end == "complete":
            assert sum(r.trick_points) == 162
            assert r.score[1 - r.makers] == r.totals[1 - r.makers]  # type: ignore[index]
            sets += r.set
            melds += r.meld_winner is not None
            bellas += sum(r.bella) > 0
    assert ends.get("complete", 0) > 9000 and ends.get("passed", 0) > 0
    assert sets > 100 and melds > 100 and bellas > 100
