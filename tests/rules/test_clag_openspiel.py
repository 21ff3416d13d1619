"""Differential test: random OpenSpiel ``oh_hell`` deals replayed through ``rules.clag``.

Mapping. OpenSpiel's Oh Hell is a Clag normal round with the ``not_equal`` dealer rule: the
player left of the dealer bids and leads first, follow suit if you can, highest trump else
highest of the led suit. With its defaults (``off_bid_penalty=False``,
``points_per_trick=1``) it scores 1 a trick + 10 for an exact bid, as Clag does. A deal of k
cards is replayed as a normal Clag round of k cards (round k or round 23 - k). OpenSpiel
deals card i of its deal to player i % players whoever the dealer is; the dealer only decides
who bids and leads first, which is how the replay uses it. Cards: OpenSpiel's card c is rank
``"23456789TJQKA"[c // 4]`` of suit ``"CDSH"[c % 4]``; bids are actions 52 + n.
"""

from __future__ import annotations

import random

from rules.cards import Card
from rules.clag import ClagRuleset, Contract, Deal, Play, RoundState, TurnTrump, hand_size
from tests.ci import need_module

# skipped (saying so) where OpenSpiel is not installed; under CI=true that fails instead
pyspiel = need_module("pyspiel", "OpenSpiel's pyspiel (the dev extra: pip install open-spiel)")

NOT_EQUAL = ClagRuleset(dealer_rule="not_equal")
GAMES = 200


def spiel_card(action: int) -> Card:
    return Card.parse("23456789TJQKA"[action // 4] + "CDSH"[action % 4])


_games: dict[tuple[int, int], object] = {}


def spiel_game(players: int, tricks: int) -> object:
    key = (players, tricks)
    if key not in _games:
        _games[key] = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})
    return _games[key]


def replay_one(rng: random.Random) -> tuple[int, int, int]:
    """Play one random OpenSpiel deal, checking Clag's legal moves at every turn."""
    players, tricks = rng.randint(4, 7), rng.randint(1, 7)
    state = spiel_game(players, tricks).new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(tricks)  # chance: number of tricks (fixed)
    dealer = rng.randrange(players)
    state.apply_action(dealer)
    dealt: list[set[Card]] = [set() for _ in range(players)]
    for i in range(players * tricks + 1):
        action = rng.choice(state.legal_actions())
        if i < players * tricks:
            dealt[i % players].add(spiel_card(action))
        else:
            turned = spiel_card(action)
        state.apply_action(action)
    # a normal round with that hand size: 1-7 or 16-22
    round_no = rng.choice([r for r in (*range(1, 8), *range(16, 23)) if hand_size(r) == tricks])
    clag = RoundState.start(players, round_no, dealer, NOT_EQUAL)
    clag = clag.apply(Deal(tuple(frozenset(h) for h in dealt))).apply(TurnTrump(turned))
    while not state.is_terminal():
        seat = state.current_player()
        assert clag.to_act == seat, "turn order (and so trick winners) must agree"
        legal = state.legal_actions()
        action = rng.choice(legal)
        if clag.phase == "contracts":
            assert clag.legal_contracts() == tuple(a - 52 for a in legal)
            clag = clag.apply(Contract(seat, action - 52))
        else:
            assert clag.legal_plays() == frozenset(spiel_card(a) for a in legal)
            clag = clag.apply(Play(seat, spiel_card(action)))
        state.apply_action(action)
    assert clag.phase == "done"
    result = clag.result()
    assert list(result.score) == [int(r) for r in state.returns()]
    assert not result.reneges
    return players, tricks, dealer


def test_random_oh_hell_deals_agree_with_clag_not_equal_rule() -> None:
    rng = random.Random(20261129)
    seen = {replay_one(rng)[:2] for _ in range(GAMES)}
    # the sample covers every table size and most hand sizes
    assert {p for p, _ in seen} == {4, 5, 6, 7}
    assert len({t for _, t in seen}) == 7
