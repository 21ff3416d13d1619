"""Random Clabber hands and games: for property tests, benchmarks and sample records.

The players are random but lawful: a seat makes trump only when it holds a card of the suit,
and plays a random card among :func:`legal_plays`. ``illegal_at`` makes one chosen play a
random *illegal* card instead (when the seat has one), to test that every renege is proven.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.clabber.events import Deal
from rules.clabber.hand import HandState
from rules.clabber.play import legal_plays
from rules.clabber.ruleset import DECK, DEFAULT_RULES, PASS, PLAY, SEATS, ClabberRules
from rules.events import Bid, Play
from rules.trickgame.match import next_dealer

# a fixed order for random choices: sets iterate in an order that varies between processes
_ORDER: dict[Card, int] = {c: i for i, c in enumerate(DECK)}


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    hands: tuple[tuple[Card, ...], ...]
    events: tuple[object, ...]
    state: HandState
    illegal: Play | None  # the illegal play made, if any


def deal_cards(rng: random.Random, dealer: int) -> tuple[tuple[Card, ...], ...]:
    """Six cards each, one at a time from the dealer's left; the dealer's last card is the
    upcard (the last card of ``hands[dealer]``)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for i, c in enumerate(deck):
        hands[(dealer + 1 + i) % SEATS].append(c)
    return tuple(tuple(h) for h in hands)


def random_bids(rng: random.Random, hands: tuple[tuple[Card, ...], ...], dealer: int, upcard: Card,
                make_chance: float = 0.35) -> list[Bid]:  # fmt: skip
    bids: list[Bid] = []
    for i in range(SEATS):
        seat = (dealer + 1 + i) % SEATS
        if any(c.suit == upcard.suit for c in hands[seat]) and rng.random() < make_chance:
            bids.append(Bid(seat, PLAY))
            return bids
        bids.append(Bid(seat, PASS))
    for i in range(SEATS):
        seat = (dealer + 1 + i) % SEATS
        suits = sorted({c.suit for c in hands[seat]} - {upcard.suit}, key=lambda s: s.value)
        if suits and rng.random() < make_chance * 1.5:
            bids.append(Bid(seat, rng.choice(suits).value))
            return bids
        bids.append(Bid(seat, PASS))
    return bids


def simulate_hand(
    rng: random.Random,
    dealer: int = 0,
    *,
    rules: ClabberRules = DEFAULT_RULES,
    known_deal: bool = False,
    illegal_at: int | None = None,
) -> SimulatedHand:
    """Play one random hand. ``illegal_at``: the index (0..23) of the play to make illegal."""
    hands = deal_cards(rng, dealer)
    upcard = hands[dealer][-1]
    events: list[object] = [Deal(dealer, upcard, hands if known_deal else None)]
    events.extend(random_bids(rng, hands, dealer, upcard))
    state = HandState(rules=rules)
    for e in events:
        state = state.apply(e)
    illegal: Play | None = None
    remaining = [set(h) for h in hands]
    count = 0
    while state.phase == "play":
        seat = state.to_move
        assert seat is not None and state.trump is not None
        trick = [c for _, c in state.current]
        legal = legal_plays(remaining[seat], trick, state.trump)
        choice: Card | None = None
        if count == illegal_at:
            bad = sorted(remaining[seat] - legal, key=_ORDER.__getitem__)
            if bad:
                choice = rng.choice(bad)
        if choice is None:
            choice = rng.choice(sorted(legal, key=_ORDER.__getitem__))
        else:
            illegal = Play(seat, choice)
        remaining[seat].discard(choice)
        event = Play(seat, choice)
        state = state.apply(event)
        events.append(event)
        count += 1
    return SimulatedHand(hands, tuple(events), state, illegal)


def hand_record(state: HandState, with_dealer: bool = True) -> dict[str, object]:
    """The record of a played hand (the format ``trickcam score`` reads)."""
    record: dict[str, object] = {"game": "clabber"}
    if with_dealer:
        record["dealer"] = state.dealer
    record["upcard"] = str(state.upcard)
    record["bidding"] = [b.call for b in state.bids]
    tricks: list[list[str]] = [[str(c) for c in t.cards] for t in state.tricks]
    if state.current:
        tricks.append([str(c) for _, c in state.current])
    record["tricks"] = tricks
    return record


def simulate_game(
    rng: random.Random,
    dealer: int = 0,
    *,
    rules: ClabberRules = DEFAULT_RULES,
    max_hands: int = 200,
) -> list[HandState]:
    """Random hands from ``dealer`` on until a team wins the game (or ``max_hands``)."""
    from rules.clabber.match import game_winner
    from rules.clabber.scoring import hand_result

    played: list[HandState] = []
    totals = (0, 0)
    for _ in range(max_hands):
        sim = simulate_hand(rng, dealer, rules=rules)
        played.append(sim.state)
        result = hand_result(sim.state)
        totals = (totals[0] + result.score[0], totals[1] + result.score[1])
        if game_winner(totals, rules.game_target) is not None:
            break
        dealer = next_dealer(dealer, result.redeal, SEATS)
    return played


def trump_suit(state: HandState) -> Suit | None:
    return state.trump


__all__ = [
    "SimulatedHand",
    "deal_cards",
    "hand_record",
    "random_bids",
    "simulate_game",
    "simulate_hand",
]
