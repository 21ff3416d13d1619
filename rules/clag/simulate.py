"""Random play: deal, choose and play at random among the legal moves.

Used by the random-play tests and ``bench/engine_clag.py``; it goes through the public state
machine only, so a random round exercises every rule a real round does.
"""

from __future__ import annotations

import random

from rules.cards import DECK_52, SUITS, Card
from rules.clag.events import ChooseTrump, Contract, Deal, Event, NameWild, Play, TurnTrump
from rules.clag.ruleset import DEFAULT_RULESET, ClagRuleset
from rules.clag.schedule import NUM_ROUNDS, dealer_of_round
from rules.clag.state import RoundState


def random_round(
    players: int,
    round_no: int,
    dealer: int,
    rng: random.Random,
    ruleset: ClagRuleset = DEFAULT_RULESET,
) -> RoundState:
    """A finished round played at random with known hands (every play legal)."""
    state = RoundState.start(players, round_no, dealer, ruleset)
    pack = list(DECK_52)
    rng.shuffle(pack)
    size = state.hand_size
    # dealt one at a time from the dealer's left
    hands = [frozenset(pack[i] for i in range(k, players * size, players)) for k in range(players)]
    hands = hands[players - (dealer + 1) % players :] + hands[: players - (dealer + 1) % players]
    while state.phase != "done":
        state = state.apply(_next_event(state, hands, pack[players * size], rng))
    return state


def _next_event(
    state: RoundState, hands: list[frozenset[Card]], turned: Card, rng: random.Random
) -> Event:
    phase = state.phase
    if phase == "deal":
        return Deal(tuple(hands))
    if phase == "trump":
        return TurnTrump(turned)
    if phase == "choose":
        return ChooseTrump(rng.choice(SUITS))
    seat = state.to_act
    assert seat is not None
    if phase == "contracts":
        return Contract(seat, rng.choice(state.legal_contracts()))
    if phase == "name":
        return NameWild(seat, rng.choice(sorted(state.legal_names(), key=_BY_CODE.__getitem__)))
    return Play(seat, rng.choice(sorted(state.legal_plays(), key=_BY_CODE.__getitem__)))


# Choices are made from the legal cards sorted by their codes, so that a seed gives the same
# game in every run (a set's order depends on the run's hashes). Codes precomputed: random
# play sorts the legal cards at every turn.
_BY_CODE: dict[Card, str] = {c: str(c) for c in DECK_52}


def random_game(
    players: int, rng: random.Random, ruleset: ClagRuleset = DEFAULT_RULESET
) -> list[RoundState]:
    """All 22 rounds of a game played at random, the first dealer drawn at random."""
    first = rng.randrange(players)
    return [
        random_round(players, r, dealer_of_round(first, r, players), rng, ruleset)
        for r in range(1, NUM_ROUNDS + 1)
    ]
