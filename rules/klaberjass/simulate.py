"""Random Klaberjass, Jass-deux and Belote hands: for property tests, benchmarks and samples.

The players are random but lawful: they accept, pass, schmeiss, name suits or bid at random,
exchange the dix when they can, and play a random card among :func:`legal_plays`.
``illegal_at`` makes the play with that index (0-based, over the whole hand) a random
*illegal* card instead, when the player has one, to test that every renege is proven.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.cards import SUITS, Card, Rank
from rules.events import Bid, Play
from rules.klaberjass.events import ExchangeDix
from rules.klaberjass.hand import KlaberjassHand
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import DECK, legal_plays


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    """A played hand: the cards each seat played with, the event log, the final state, and
    the illegal play made (if any)."""

    hands: tuple[tuple[Card, ...], ...]
    events: tuple[object, ...]
    state: KlaberjassHand
    illegal: Play | None


def _calls(rng: random.Random, state: KlaberjassHand) -> KlaberjassHand:
    rules = state.rules
    while state.phase == "bidding":
        seat = state.to_move
        auction = state.auction
        assert seat is not None and auction is not None
        if auction.schmeiss_by is not None:
            call = rng.choice(("agree", "refuse"))
        elif rules.variant == "jass-deux":
            if auction.naming:
                call = rng.choice(SUITS).value
            elif rng.random() < 0.5:
                call = "pass"
            else:
                floor = rules.min_bid if auction.high_bid is None else auction.high_bid + 1
                call = str(floor + rng.randrange(0, 20))
        elif auction.round == 1:
            options = ["accept", "pass", "pass"] + (["schmeiss"] if rules.schmeiss else [])
            call = rng.choice(options)
        else:
            others = [s.value for s in SUITS if s != auction.candidate]
            call = rng.choice([*others, "pass"])
        state = state.apply(Bid(seat, call))
    return state


def simulate_hand(
    rng: random.Random,
    rules: KlaberjassRules | None = None,
    dealer: int = 0,
    *,
    illegal_at: int | None = None,
    known_deal: bool = False,
    exchange_chance: float = 0.7,
) -> SimulatedHand:
    """Deal, bid and play one hand at random (see the module docstring)."""
    rules = rules or KlaberjassRules()
    n = rules.players
    deck = list(DECK)
    rng.shuffle(deck)
    first = rules.first_deal
    hands: list[list[Card]] = [deck[i * first : (i + 1) * first] for i in range(n)]
    upcard = deck[n * first]
    stock = deck[n * first + 1 :]
    bottom = stock[-1] if n == 2 else None
    # the hands after bidding are only known once trump is made: bid on a hidden deal first
    probe = _calls(rng, KlaberjassHand.new(dealer, upcard, rules, bottom=bottom))
    bids = tuple(e for e in probe.events if isinstance(e, Bid))
    if probe.redeal:
        return SimulatedHand(tuple(tuple(h) for h in hands), probe.events, probe, None)
    maker, trump = probe.maker, probe.trump
    assert maker is not None and trump is not None
    for seat in range(n):
        if rules.maker_takes_candidate and seat == maker:
            hands[seat] += [upcard, *stock[:2]]
            stock = stock[2:]
        else:
            hands[seat] += stock[:3]
            stock = stock[3:]
    exchange: int | None = None
    dix = Card(Rank.SEVEN, trump)
    if rules.dix_exchange and not rules.maker_takes_candidate and upcard.suit == trump:
        holder = next((s for s in range(n) if dix in hands[s]), None)
        if holder is not None and upcard != dix and rng.random() < exchange_chance:
            hands[holder] = [upcard if c == dix else c for c in hands[holder]]
            exchange = holder
    final = tuple(tuple(h) for h in hands)
    state = KlaberjassHand.new(
        dealer, upcard, rules, bottom=bottom, hands=final if known_deal else None
    )
    for b in bids:
        state = state.apply(b)
    if exchange is not None:
        state = state.apply(ExchangeDix(exchange))
    held = [set(h) for h in final]
    illegal: Play | None = None
    index = 0
    partner_ok = rules.players == 4
    while state.phase == "play":
        who = state.to_move
        assert who is not None
        trick = [c for _, c in state.current]
        legal = legal_plays(
            held[who],
            trick,
            trump,
            partner_index=(len(trick) - 2) if partner_ok else None,
            partner_master_exempt=rules.partner_master_exempt,
            must_overtrump=rules.must_overtrump,
        )
        wrong = sorted(held[who] - legal, key=str)
        if index == illegal_at and wrong:
            c = rng.choice(wrong)
            illegal = Play(who, c)
        else:
            c = rng.choice(sorted(legal, key=str))
        held[who].discard(c)
        state = state.apply(Play(who, c))
        index += 1
    return SimulatedHand(final, state.events, state, illegal)


def hand_record(state: KlaberjassHand, game: str = "klaberjass") -> dict[str, object]:
    """The record of a played hand (what ``trickcam score`` reads), from its events."""
    record: dict[str, object] = {"game": game, "dealer": state.dealer}
    if state.upcard is not None:
        record["upcard"] = str(state.upcard)
    if state.bottom is not None:
        record["bottom"] = str(state.bottom)
    record["bidding"] = [
        int(e.call) if e.call.isdigit() else e.call for e in state.events if isinstance(e, Bid)
    ]
    if any(isinstance(e, ExchangeDix) for e in state.events):
        record["exchange"] = state.exchange
    tricks = [[str(c) for c in t.cards] for t in state.tricks]
    if state.current:
        tricks.append([str(c) for _, c in state.current])
    record["tricks"] = tricks
    defaults = type(state.rules)()
    options = {
        name: getattr(state.rules, name)
        for name in ("variant", "sequences", "bella", "partner_master_exempt", "must_overtrump")
        if getattr(state.rules, name) != getattr(defaults, name)
    }
    if options:
        record["options"] = options
    return record
