"""The hands that rendered videos stage: dealt, bid and played at random but lawfully by each
game's own simulator, with what lies face up before the lead and the options
``trickcam watch`` needs to follow them."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.cards import Card


@dataclass(frozen=True)
class StagedHand:
    """The truth of a hand and what lies face up before the first lead."""

    game: str
    players: int
    dealer: int
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    """Per trick, (seat, card) in play order."""
    winners: tuple[int, ...]
    record: dict[str, object]
    fixture: Card | None
    fixture_stays: bool
    """Clag's trump card stays all round; an upcard or candidate is taken up before the lead."""
    watch_args: dict[str, object] = field(default_factory=dict)
    """The options ``trickcam watch`` needs for this hand (dealer, upcard, bidding...)."""


def stage_clabber(rng: random.Random) -> StagedHand:
    from rules.clabber.simulate import hand_record, simulate_hand

    while True:
        dealer = rng.randrange(4)
        sim = simulate_hand(rng, dealer)
        if sim.state.end == "complete":
            break
    st = sim.state
    rec = hand_record(st)
    return StagedHand(
        "clabber", 4, dealer,
        tuple(tuple(zip(t.seats, t.cards, strict=True)) for t in st.tricks),
        tuple(t.winner for t in st.tricks), rec, st.upcard, False,
        {"dealer": dealer, "upcard": rec["upcard"], "bidding": ",".join(rec["bidding"])},  # type: ignore[arg-type]
    )  # fmt: skip


def stage_klaberjass(rng: random.Random, game: str = "klaberjass") -> StagedHand:
    from rules.events import Bid
    from rules.klaberjass.ruleset import KlaberjassRules
    from rules.klaberjass.simulate import simulate_hand

    rules: KlaberjassRules
    if game == "belote":
        from rules.belote import BeloteRules

        rules = BeloteRules()
    else:
        rules = KlaberjassRules()
    while True:
        dealer = rng.randrange(rules.players)
        sim = simulate_hand(rng, rules, dealer, exchange_chance=0.0)
        st = sim.state
        if st.end == "complete" and not st.reneges and st.exchange is None:
            break
    bidding = [e.call for e in st.events if isinstance(e, Bid)]
    rec: dict[str, object] = {
        "game": game, "dealer": dealer, "upcard": str(st.upcard), "bidding": bidding,
        "tricks": [[str(c) for c in t.cards] for t in st.tricks],
    }  # fmt: skip
    assert st.upcard is not None
    return StagedHand(
        game, rules.players, dealer,
        tuple(tuple(zip(t.seats, t.cards, strict=True)) for t in st.tricks),
        tuple(t.winner for t in st.tricks), rec, st.upcard, False,
        {"dealer": dealer, "upcard": str(st.upcard), "bidding": ",".join(bidding)},
    )  # fmt: skip


def stage_clag(rng: random.Random, players: int = 4, round_no: int = 3) -> StagedHand:
    from rules.clag import tricks as T
    from rules.clag.simulate import random_round

    dealer = rng.randrange(players)
    st = random_round(players, round_no, dealer, rng)
    staged: list[tuple[tuple[int, Card], ...]] = []
    winners = []
    for i, trick in enumerate(st.tricks):
        leader = st.leaders[i]
        seats = [(leader + k) % players for k in range(players)]
        cards = [T.physical(e) for e in trick]
        staged.append(tuple(zip(seats, cards, strict=True)))
        winners.append(seats[T.trick_winner(list(trick), st.trump, round=round_no)])
    rec: dict[str, object] = {
        "game": "clag",
        "players": players,
        "round": round_no,
        "dealer": dealer,
    }
    args: dict[str, object] = {"players": players, "round": round_no, "dealer": dealer}
    if st.trump_card is not None:
        rec["trump_card"] = args["trump_card"] = str(st.trump_card)
    if any(c is not None for c in st.contracts):
        rec["contracts"] = list(st.contracts)
        args["contracts"] = ",".join(str(c) for c in st.contracts)
    rec["tricks"] = [[str(c) for _, c in t] for t in staged]
    return StagedHand(
        "clag", players, dealer, tuple(staged), tuple(winners), rec, st.trump_card, True, args
    )


STAGERS: dict[str, Callable[[random.Random], StagedHand]] = {
    "clabber": stage_clabber,
    "klaberjass": stage_klaberjass,
    "belote": lambda rng: stage_klaberjass(rng, "belote"),
    "clag": stage_clag,
}


# -- the look of a video -------------------------------------------------------------------
