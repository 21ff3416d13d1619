"""Clag rounds: schedule, the dealer's rule, each special round, scoring, reneges, replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import Card, Suit, card, cards
from rules.clag import (
    ChooseTrump,
    ClagRuleset,
    Contract,
    ContractError,
    Deal,
    GameState,
    NameWild,
    Play,
    RoundState,
    TurnTrump,
    WildTwoError,
    dealer_of_round,
    hand_size,
    legal_contracts,
    ranking,
    round_scores,
    steps_of,
    trick_winner,
)
from rules.clag.ruleset import DealerRule
from rules.clag.simulate import random_game, random_round
from rules.errors import CardAlreadyPlayed, IllegalEvent, OutOfTurn, RulesError
from rules.events import Bid, ConfirmRenege, DismissRenege


def test_schedule_hand_sizes_and_dealers() -> None:
    assert [hand_size(r) for r in range(1, 23)] == [1, 2, 3, 4, 5, 6, 7] + [7] * 9 + [
        6,
        5,
        4,
        3,
        2,
        1,
    ]
    assert [dealer_of_round(3, r, 5) for r in (1, 2, 3, 22)] == [3, 4, 0, (3 + 21) % 5]


# (rule, hand size, earlier contracts, dealer rule, allowed dealer contracts)
DEALER_RULE = [
    (
        "exceed: total must go above the hand size (rule book example)",
        7,
        [1, 1, 1],
        "exceed",
        (5, 6, 7),
    ),
    ("exceed: others already above: anything", 3, [2, 2, 0], "exceed", (0, 1, 2, 3)),
    (
        "exceed: everyone else said 0: the dealer must say the hand size",
        4,
        [0, 0, 0],
        "exceed",
        (4,),
    ),
    (
        "not_equal: the total may not equal the hand size",
        5,
        [1, 2, 0],
        "not_equal",
        (0, 1, 3, 4, 5),
    ),
    ("not_equal: others above: anything", 2, [2, 1, 0], "not_equal", (0, 1, 2)),
]


@pytest.mark.parametrize(
    ("rule", "size", "earlier", "dealer_rule", "allowed"),
    DEALER_RULE,
    ids=[d[0] for d in DEALER_RULE],
)
def test_dealer_rule(
    rule: str, size: int, earlier: list[int], dealer_rule: DealerRule, allowed: tuple[int, ...]
) -> None:
    assert legal_contracts(size, earlier, is_dealer=True, dealer_rule=dealer_rule) == allowed
    assert legal_contracts(size, earlier, is_dealer=False, dealer_rule=dealer_rule) == tuple(
        range(size + 1)
    )


def test_a_contract_breaking_the_dealer_rule_is_refused_quoting_it() -> None:
    s = RoundState.start(4, 7, dealer=3).apply(Deal()).apply(TurnTrump(card("7H")))
    for seat in (0, 1, 2):
        s = s.apply(Contract(seat, 1))
    with pytest.raises(
        ContractError, match=r"contract 4 breaks the dealer's rule \(exceed\).*allowed: 5, 6, 7"
    ):
        s.apply(Contract(3, 4))
    assert s.apply(Contract(3, 5)).phase == "play"
    assert s.apply(Bid(3, "5")).contracts == (1, 1, 1, 5)


# (round, phases in order)
PHASES = [
    (1, ("deal", "trump", "contracts", "play")),
    (8, ("deal", "contracts", "play")),
    (9, ("deal", "trump", "play")),
    (10, ("deal", "contracts", "trump", "play")),
    (11, ("contracts", "deal", "trump", "play")),
    (14, ("deal", "choose", "contracts", "play")),
    (15, ("deal", "trump", "play")),
]


@pytest.mark.parametrize(("rnd", "phases"), PHASES)
def test_phases_of_each_round(rnd: int, phases: tuple[str, ...]) -> None:
    assert steps_of(rnd) == phases


def test_round_11_contracts_come_before_the_deal_and_10_trump_after_contracts() -> None:
    s = RoundState.start(4, 11, dealer=0)
    with pytest.raises(IllegalEvent, match="phase 'contracts'"):
        s.apply(Deal())
    s = RoundState.start(4, 10, dealer=0).apply(Deal())
    with pytest.raises(IllegalEvent, match=r"TurnTrump.*phase 'contracts'"):
        s.apply(TurnTrump(card("AS")))


def test_round_14_the_dealer_chooses_a_suit() -> None:
    s = RoundState.start(4, 14, dealer=2).apply(Deal())
    assert s.to_act == 2
    with pytest.raises(RulesError, match="must choose a trump suit"):
        s.apply(ChooseTrump(None))
    assert s.apply(ChooseTrump(Suit.CLUBS)).trump is Suit.CLUBS
    relaxed = RoundState.start(4, 14, 2, ClagRuleset(chosen_trump="suit_or_none")).apply(Deal())
    assert relaxed.apply(ChooseTrump(None)).trump is None


# (rule, round, contracts, tricks won, reneged, scores, completed)
SCORES = [
    (
        "1 a trick and 10 for the exact contract",
        3,
        [1, 0, 2, 1],
        [1, 0, 1, 1],
        set(),
        [11, 10, 1, 11],
        [True, True, False, True],
    ),
    (
        "round 9: 10 for winning no trick",
        9,
        [0, 0, 0, 0],
        [0, 5, 2, 0],
        set(),
        [10, 5, 2, 10],
        [True, False, False, True],
    ),
    (
        "round 15: most tricks scores 10",
        15,
        [None] * 4,
        [1, 4, 1, 1],
        set(),
        [0, 10, 0, 0],
        [False, True, False, False],
    ),
    (
        "round 15: a tie for most scores nobody",
        15,
        [None] * 4,
        [3, 3, 1, 0],
        set(),
        [0, 0, 0, 0],
        [False] * 4,
    ),
    (
        "a renege scores 0 for the round",
        3,
        [1, 0, 2, 1],
        [1, 0, 1, 1],
        {0},
        [0, 10, 1, 11],
        [False, True, False, True],
    ),
]


@pytest.mark.parametrize(
    ("rule", "rnd", "contracts", "won", "reneged", "score", "completed"),
    SCORES,
    ids=[s[0] for s in SCORES],
)
def test_round_scores(
    rule: str,
    rnd: int,
    contracts: list[int | None],
    won: list[int],
    reneged: set[int],
    score: list[int],
    completed: list[bool],
) -> None:
    assert round_scores(rnd, contracts, won, reneged, ClagRuleset()) == (
        tuple(score),
        tuple(completed),
    )


def _round2(players_hands: str | None = None) -> RoundState:
    """Round 2 at 4 players, dealer 3 (seat 0 leads), trump turned 9C, contracts 1 0 0 2."""
    hands = None
    if players_hands:
        hands = tuple(frozenset(cards(h)) for h in players_hands.split("|"))
    s = RoundState.start(4, 2, dealer=3).apply(Deal(hands)).apply(TurnTrump(card("9C")))
    for seat, c in enumerate((1, 0, 0, 2)):
        s = s.apply(Contract(seat, c))
    return s


def test_a_renege_is_recorded_then_proven_when_the_suit_turns_up() -> None:
    s = _round2()
    for seat, c in enumerate(("KH", "3S", "4H", "5H")):
        s = s.apply(Play(seat, card(c)))
    assert s.reneges == ()  # seat 1 may simply be out of hearts
    assert all(c.suit is not Suit.HEARTS for c in s.possible_cards(1))
    s = s.apply(Play(0, card("AD"))).apply(Play(1, card("6H")))
    (r,) = s.reneges
    assert (r.seat, r.trick, r.card, r.proof, r.proof_trick, r.rule) == (
        1,
        1,
        card("3S"),
        card("6H"),
        2,
        "follow suit",
    )
    s = s.apply(Play(2, card("7D"))).apply(Play(3, card("8D")))
    assert s.phase == "done" and s.result().score[1] == 0
    kept = RoundState.replay(4, 2, 3, s.log, ClagRuleset(renege_penalty="none"))
    assert kept.result().score[1] == s.tricks_won[1] + (10 if s.tricks_won[1] == 0 else 0)


def test_a_renege_is_proven_at_once_when_the_hands_are_known() -> None:
    s = _round2("KH AD|3S 6H|4H 7D|5H 8D")
    s = s.apply(Play(0, card("KH"))).apply(Play(1, card("3S")))
    (r,) = s.reneges
    assert r.proof == card("6H") and r.proof_trick is None


def test_referee_confirms_or_dismisses_reneges() -> None:
    log = _round2("KH AD|3S 6H|4H 7D|5H 8D").log + tuple(
        Play(seat, card(c)) for seat, c in ((0, "KH"), (1, "3S"), (2, "4H"), (3, "5H"))
    )
    # seat 0 won trick 1 and leads again
    log += tuple(Play(seat, card(c)) for seat, c in ((0, "AD"), (1, "6H"), (2, "7D"), (3, "8D")))
    auto = RoundState.replay(4, 2, 3, log)
    assert auto.result().score[1] == 0
    assert RoundState.replay(4, 2, 3, log + (DismissRenege(0),)).result().score[1] == 10
    confirmed = ClagRuleset(apply_reneges="confirmed")
    assert RoundState.replay(4, 2, 3, log, confirmed).result().score[1] == 10
    assert RoundState.replay(4, 2, 3, log + (ConfirmRenege(0),), confirmed).result().score[1] == 0


def test_impossible_plays_are_refused_quoting_them() -> None:
    s = _round2()
    with pytest.raises(OutOfTurn, match="seat 0's turn"):
        s.apply(Play(1, card("AS")))
    with pytest.raises(CardAlreadyPlayed, match="turned trump card"):
        s.apply(Play(0, card("9C")))
    s = s.apply(Play(0, card("AS")))
    with pytest.raises(CardAlreadyPlayed, match="AS"):
        s.apply(Play(1, card("AS")))


# (rule, hands of a known deal in round 2 at 4 players, error expected)
BAD_DEALS = [
    ("a hand for every player", "KH AD|3S 6H|4H 7D", "deal of 3 hands at 4 players"),
    ("round 2 deals 2 cards each", "KH AD|3S|4H 7D|5H 8D", "seat 1 gets 1 cards"),
    ("a card is dealt once", "KH AD|3S 6H|4H KH|5H 8D", "KH is dealt to seat 0 and seat 2"),
]


@pytest.mark.parametrize(("rule", "hands", "error"), BAD_DEALS, ids=[d[0] for d in BAD_DEALS])
def test_a_known_deal_that_cannot_be_is_refused_quoting_it(
    rule: str, hands: str, error: str
) -> None:
    dealt = tuple(frozenset(cards(h)) for h in hands.split("|"))
    with pytest.raises(IllegalEvent, match=error):
        RoundState.start(4, 2, dealer=3).apply(Deal(dealt))


def test_a_known_deal_gives_the_hands_and_refuses_cards_from_other_hands() -> None:
    s = _round2("KH AD|3S 6H|4H 7D|5H 8D")
    assert s.hand(1) == frozenset(cards("3S 6H")) and s.possible_cards(1) == s.hand(1)
    with pytest.raises(IllegalEvent, match="card 4H is known to be in the hand of seat 2"):
        s.apply(Play(0, card("4H")))
    dealt = Deal(tuple(frozenset(cards(h)) for h in ("KH AD", "3S 6H", "4H 7D", "5H 8D")))
    with pytest.raises(IllegalEvent, match="AD was dealt to seat 0"):
        RoundState.replay(4, 2, 3, (dealt, TurnTrump(card("AD"))))
    s = s.apply(Play(0, card("KH")))
    assert s.hand(0) == frozenset(cards("AD")) and s.legal_plays() == frozenset(cards("6H"))
    s = s.apply(Play(1, card("6H"))).apply(Play(2, card("4H"))).apply(Play(3, card("5H")))
    assert s.legal_plays() == frozenset(cards("AD"))  # seat 0 won and leads


def _round12() -> RoundState:
    s = RoundState.start(4, 12, dealer=3).apply(Deal()).apply(TurnTrump(card("9C")))
    for seat, c in enumerate((1, 0, 0, 7)):
        s = s.apply(Contract(seat, c))
    return s


def test_round_12_a_two_is_named_and_two_twos_may_not_name_the_same_card() -> None:
    s = _round12().apply(Play(0, card("KH"))).apply(Play(1, card("2S")))
    assert s.phase == "name" and s.to_act == 1
    s = s.apply(NameWild(1, card("AH")))
    s = s.apply(Play(2, card("2D")))
    with pytest.raises(WildTwoError, match="2D=AH: 2S=AH already named it"):
        s.apply(NameWild(2, card("AH")))
    s = s.apply(NameWild(2, card("QH"))).apply(Play(3, card("AH")))
    assert s.winners() == (1,)


def test_round_12_a_two_named_off_suit_while_holding_the_led_suit_is_a_renege() -> None:
    s = (
        _round12()
        .apply(Play(0, card("KH")))
        .apply(Play(1, card("2S")))
        .apply(NameWild(1, card("AS")))
    )
    s = s.apply(Play(2, card("3H"))).apply(Play(3, card("4H")))
    s = s.apply(Play(0, card("5D"))).apply(Play(1, card("9H")))  # seat 0 won trick 1
    (r,) = s.reneges
    assert (r.seat, r.rule, r.proof) == (1, "a wild two names the led suit", card("9H"))


def test_round_12_a_two_does_not_count_as_holding_its_suit() -> None:
    s = _round12().apply(Play(0, card("KH"))).apply(Play(1, card("5S")))
    s = s.apply(Play(2, card("3H"))).apply(Play(3, card("4H")))
    s = s.apply(Play(0, card("AD"))).apply(Play(1, card("2H"))).apply(NameWild(1, card("3D")))
    assert s.reneges == ()


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_random_games_keep_every_invariant(players: int) -> None:
    rng = random.Random(players)
    for _ in range(3):
        for state in random_game(players, rng):
            res = state.result()
            size = state.hand_size
            assert sum(res.tricks_won) == size
            assert (
                len({Card.parse(str(e).split("=")[0]) for t in state.tricks for e in t})
                == size * players
            )
            assert res.reneges == ()  # random play only plays legal cards
            if state.round_no not in (9, 15):
                assert all(c is not None for c in res.contracts)
                total = sum(c or 0 for c in res.contracts)
                dealer_said = res.contracts[state.dealer]
                # the dealer's rule (exceed): above the hand size, or the hand size when
                # everyone else said 0
                assert total > size or (total == dealer_said == size)
            assert RoundState.replay(players, state.round_no, state.dealer, state.log) == state


@settings(max_examples=40, deadline=None)
@given(
    st.integers(4, 7),
    st.integers(1, 22),
    st.integers(0, 2**32),
    st.sampled_from(["exceed", "not_equal"]),
)
def test_replaying_the_log_with_hidden_hands_gives_the_same_tricks_and_score(
    players: int, rnd: int, seed: int, rule: str
) -> None:
    rs = ClagRuleset(dealer_rule=rule)  # type: ignore[arg-type]
    state = random_round(players, rnd, seed % players, random.Random(seed), rs)
    hidden = tuple(Deal() if isinstance(e, Deal) else e for e in state.log)
    again = RoundState.replay(players, rnd, seed % players, hidden, rs)
    assert again.tricks == state.tricks and again.result() == state.result()
    if rule == "not_equal" and rnd not in (9, 15):
        assert sum(c or 0 for c in state.contracts) != state.hand_size


def test_hidden_hands_are_learned_from_plays() -> None:
    s = _round2()
    assert len(s.possible_cards(1)) == 51  # every card but the turned 9C
    s = s.apply(Play(0, card("KH"))).apply(Play(1, card("3S")))
    possible = s.possible_cards(1)
    assert not any(c.suit is Suit.HEARTS for c in possible) and card("3S") not in possible
    s12 = _round12().apply(Play(0, card("KH"))).apply(Play(1, card("5S")))
    # in round 12 a two is wild: seat 1 may still hold 2H
    assert {c for c in s12.possible_cards(1) if c.suit is Suit.HEARTS} == {card("2H")}


# (rule, totals, completed, (place, seat) in order)
RANKING = [
    ("highest total first", [40, 55, 12, 30], [2, 3, 0, 1], [(1, 1), (2, 0), (3, 3), (4, 2)]),
    (
        "equal totals share a place",
        [50, 50, 20, 50],
        [1, 4, 0, 2],
        [(1, 0), (1, 1), (1, 3), (4, 2)],
    ),
]


@pytest.mark.parametrize(
    ("rule", "totals", "completed", "order"), RANKING, ids=[r[0] for r in RANKING]
)
def test_final_ranking(
    rule: str, totals: list[int], completed: list[int], order: list[tuple[int, int]]
) -> None:
    standings = ranking(totals, completed)
    assert [(s.place, s.seat) for s in standings] == order
    assert all(s.completed == completed[s.seat] for s in standings)


def test_trick_winner_refuses_a_trump_in_round_8() -> None:
    with pytest.raises(RulesError, match="round 8 has no trump"):
        trick_winner(["AS", "KS"], Suit.SPADES, round=8)


def test_a_game_replays_its_log_and_ranks_the_players() -> None:
    rounds = random_game(5, random.Random(11))
    log = tuple(e for r in rounds for e in r.log)
    game = GameState.replay(5, rounds[0].dealer, log)
    assert game.finished and game.rounds == tuple(rounds)
    assert game.totals() == tuple(sum(r.result().score[s] for r in rounds) for s in range(5))
    assert [r.dealer for r in game.rounds] == [(rounds[0].dealer + i) % 5 for i in range(22)]
    best = max(game.totals())
    assert game.winners() == tuple(s for s in range(5) if game.totals()[s] == best)
    with pytest.raises(RulesError, match="the game is over"):
        game.apply(Deal())
    # a referee event after a round's last card still reaches that round
    partial = GameState.replay(5, rounds[0].dealer, log[: len(rounds[0].log)])
    assert partial.current.phase == "done" and len(partial.rounds) == 1
    with pytest.raises(RulesError, match="0 renege"):
        partial.apply(ConfirmRenege(0))
