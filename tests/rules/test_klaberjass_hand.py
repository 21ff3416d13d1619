"""A Klaberjass hand as a state machine: deal, trump, dix, play, reneges, scoring.

One hand is used throughout (dealer seat 0, candidate JD, trump diamonds):
seat 1 (non-dealer) holds AH 10H 7S 8S 9S AD 9D 7C 8C (a run of three, 7-8-9 of spades);
seat 0 holds KH 10D AS KS QS JS KD QC QD (a run of four J-Q-K-A of spades and the bella).
Card points: seat 0 takes 44 and the last trick, seat 1 takes 46.
"""

from __future__ import annotations

import pytest

from rules import Card, card, cards
from rules.errors import CardAlreadyPlayed, CardNotInDeck, HandOver, IllegalEvent, OutOfTurn
from rules.events import Announce, Bid, ClaimRenege, ConfirmRenege, Correct, Declare, Misdeal, Play
from rules.klaberjass import (
    Deal,
    ExchangeDix,
    KlaberjassHand,
    KlaberjassRules,
    replay,
    score_hand,
)

TRICKS = ["AH KH", "10H 10D", "AS 7S", "KS 8S", "QS 9S", "JS AD", "9D KD", "7C QC", "QD 8C"]


def start(calls: tuple[str, ...] = ("pass", "accept"), **options: object) -> KlaberjassHand:
    state = KlaberjassHand.new(0, card("JD"), KlaberjassRules(**options))  # type: ignore[arg-type]
    for call in calls:
        seat = state.to_move
        assert seat is not None
        state = state.apply(Bid(seat, call))
    return state


def play(state: KlaberjassHand, codes: str | list[str]) -> KlaberjassHand:
    for trick in [codes] if isinstance(codes, str) else codes:
        for c in cards(trick):
            seat = state.to_move
            assert seat is not None, f"no one to play {c}"
            state = state.apply(Play(seat, c))
    return state


def test_non_dealer_calls_first_and_leads_first() -> None:
    state = KlaberjassHand.new(0, card("JD"))
    assert state.to_move == 1
    state = start()
    assert (state.trump, state.maker, state.to_move) == (card("JD").suit, 0, 1)


def test_trick_winner_leads_next() -> None:
    state = play(start(), TRICKS[:3])
    assert [t.winner for t in state.tricks] == [1, 0, 0]
    assert state.to_move == 0


SCORES = [
    # (rule, calls, options, extra events, score)
    ("maker beats the opponent: both score their totals (runs, bella, last trick)",
     ("pass", "accept"), {}, {}, (124, 46)),
    ("maker not above the opponent is bete: 0, the opponent both totals",
     ("accept",), {}, {}, (170, 0)),
    ("Jass-deux: the maker reaches the bid", ("pass", "120", "pass", "D"),
     {"variant": "jass-deux"}, {}, (124, 46)),
    ("Jass-deux: the maker short of the bid is bete", ("pass", "130", "pass", "D"),
     {"variant": "jass-deux"}, {}, (0, 170)),
    ("bella announced: not announced, not scored", ("pass", "accept"),
     {"bella": "announced"}, {}, (104, 46)),
    ("bella announced with the K: scored", ("pass", "accept"),
     {"bella": "announced"}, {"KD": Announce(0, "bella")}, (124, 46)),
    ("declared runs: undeclared runs do not compete", ("pass", "accept"),
     {"sequences": "declared"}, {"start": Declare(1, tuple(cards("7S 8S 9S")))}, (74, 66)),
    ("declared runs: the longer declared run wins, only its owner scores", ("pass", "accept"),
     {"sequences": "declared"},
     {"start": Declare(1, tuple(cards("7S 8S 9S"))), "KH": Declare(0, tuple(cards("JS QS KS AS")))},
     (124, 46)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "calls", "options", "extra", "score"), SCORES, ids=[r[0] for r in SCORES]
)
def test_hand_scores(
    rule: str,
    calls: tuple[str, ...],
    options: dict[str, object],
    extra: dict[str, object],
    score: tuple[int, int],
) -> None:
    state = start(calls, **options)
    if "start" in extra:
        state = state.apply(extra["start"])
    for c in cards(" ".join(TRICKS)):
        before = extra.get(str(c))
        if isinstance(before, Declare):
            state = state.apply(before)
        seat = state.to_move
        assert seat is not None
        state = state.apply(Play(seat, c))
        after = extra.get(str(c))
        if isinstance(after, Announce):
            state = state.apply(after)
    assert state.end == "complete"
    result = score_hand(state)
    assert result.scores == score
    assert sum(t.cards for t in result.totals) == 90  # the 18 cards played hold 90 points


def test_totals_of_the_sample_hand() -> None:
    result = score_hand(play(start(), TRICKS))
    a, b = result.totals
    assert (a.cards, a.last_trick, a.runs, a.bella) == (44, 10, 50, 20)
    assert (b.cards, b.last_trick, b.runs, b.bella) == (46, 0, 0, 0)
    assert result.sequence_winner == 0 and result.bella == 0 and not result.bete


IMPOSSIBLE = [
    # (rule, events after trump, error, fragment)
    ("a card twice", ["AH KH", "10H KH"], CardAlreadyPlayed, "KH"),
    ("a card outside the 32-card deck", ["6H"], CardNotInDeck, "6H"),
    ("the candidate lies on the table once the dix is played", ["AH 7D", "JD"], IllegalEvent,
     "candidate"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "tricks", "error", "fragment"), IMPOSSIBLE, ids=[r[0] for r in IMPOSSIBLE]
)
def test_impossible_plays_raise_and_quote(
    rule: str, tricks: list[str], error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=fragment):
        play(start(), tricks)


def test_a_play_after_the_hand_raises() -> None:
    with pytest.raises(HandOver, match="7H"):
        play(start(), TRICKS).apply(Play(0, card("7H")))


def test_out_of_turn_and_before_trump() -> None:
    with pytest.raises(OutOfTurn, match="seat 1's turn"):
        start().apply(Play(0, card("KH")))
    with pytest.raises(IllegalEvent, match="trump is not made"):
        KlaberjassHand.new(0, card("JD")).apply(Play(1, card("AH")))


def test_candidate_turned_down_in_round_two_is_out_of_play() -> None:
    state = start(("pass", "pass", "H"))
    with pytest.raises(IllegalEvent, match="trump candidate"):
        state.apply(Play(1, card("JD")))


def test_bottom_card_is_out_of_play() -> None:
    state = KlaberjassHand.new(0, card("JD"), bottom=card("7S")).apply(Bid(1, "accept"))
    with pytest.raises(IllegalEvent, match="bottom card"):
        state.apply(Play(1, card("7S")))


def test_dix_exchange_puts_the_candidate_in_hand_and_the_seven_on_the_stock() -> None:
    state = start().apply(ExchangeDix(1))
    assert state.held_known(1) == {card("JD")}
    with pytest.raises(IllegalEvent, match="exchanged"):
        state.apply(Play(1, card("7D")))
    with pytest.raises(IllegalEvent, match="holds|hand of seat 1"):
        state.apply(Play(1, card("AH"))).apply(Play(0, card("JD")))
    assert state.apply(Play(1, card("JD"))).exchange == 1


def test_playing_the_candidate_shows_the_exchange() -> None:
    state = play(start(), "JD")
    assert state.exchange == 1
    with pytest.raises(IllegalEvent, match="exchanged"):
        state.apply(Play(0, card("7D")))


def test_no_exchange_when_the_candidate_is_not_trump_or_after_the_lead() -> None:
    with pytest.raises(IllegalEvent, match="no exchange"):
        start(("pass", "pass", "H")).apply(ExchangeDix(0))
    with pytest.raises(IllegalEvent, match="before the first lead"):
        play(start(), "AH").apply(ExchangeDix(0))
    with pytest.raises(IllegalEvent, match="no exchange"):
        start(dix_exchange=False).apply(ExchangeDix(0))


RENEGES = [
    # (rule, tricks, renege rule proven, reneging seat, proof card)
    ("failing to follow, proven by a later card of the suit", ["AH QC", "10H KH"], "follow", 0, "KH"),
    ("failing to trump when void, proven by a later trump", ["AH KH", "10H QC", "7C 10D"], "trump", 0,
     "10D"),
    ("failing to head a trump lead, proven by a higher trump", ["AD QD", "AH KH", "10H 9D"], "head", 0,
     "9D"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "tricks", "duty", "seat", "proof"), RENEGES, ids=[r[0] for r in RENEGES]
)
def test_reneges_are_proven_with_evidence_and_end_the_hand(
    rule: str, tricks: list[str], duty: str, seat: int, proof: str
) -> None:
    state = play(start(), tricks)
    assert state.end == "renege"
    (r,) = state.reneges
    assert (r.evidence.rule, r.seat, r.evidence.proof) == (duty, seat, card(proof))
    assert str(proof) in r.evidence.detail
    result = score_hand(state)
    assert result.scores[seat] == 0 and result.scores[1 - seat] >= 162
    with pytest.raises(HandOver):
        state.apply(Play(state.tricks[-1].winner, card("8H")))


def test_renege_in_confirm_mode_waits_for_the_referee() -> None:
    state = play(start(renege_apply="confirm"), ["AH QC", "10H KH"])
    assert state.end == "" and state.reneges[0].status == "pending"
    confirmed = state.apply(ConfirmRenege(0))
    assert confirmed.end == "renege" and score_hand(confirmed).scores == (0, 162)
    claimed = state.apply(ClaimRenege(1, 0))
    assert claimed.end == "renege"


def test_renege_penalty_bete_option() -> None:
    state = play(start(renege_penalty="bete"), ["AH QC", "10H KH"])
    result = score_hand(state)
    # trick 1 (AH QC: 14 to seat 1) and trick 2 (10H KH: 14 to seat 1): seat 1 takes both totals
    assert result.scores == (0, 28) and result.bete


def test_false_declared_run_is_a_renege() -> None:
    state = start(sequences="declared").apply(Declare(1, tuple(cards("10S JS QS"))))
    state = play(state, ["AH KH", "10H 10D", "AS 7S", "KS 8S", "QS"])
    assert state.end == "renege"
    assert state.reneges[0].evidence.rule == "declared-run-not-held"
    assert score_hand(state).scores == (162, 0)


def test_declare_needs_the_declared_mode_and_a_run() -> None:
    with pytest.raises(IllegalEvent, match="auto"):
        start().apply(Declare(1, tuple(cards("7S 8S 9S"))))
    with pytest.raises(IllegalEvent, match="not one run"):
        start(sequences="declared").apply(Declare(1, tuple(cards("7S 8S 10S"))))
    with pytest.raises(IllegalEvent, match="too late"):
        play(start(sequences="declared"), "AH").apply(Declare(1, tuple(cards("7S 8S 9S"))))


def test_bella_is_announced_on_playing_the_king_or_queen() -> None:
    with pytest.raises(IllegalEvent, match="bella"):
        start(bella="announced").apply(Announce(0, "bella"))


def test_redeal_and_misdeal_score_nothing() -> None:
    for state in (start(("pass",) * 4), start(("schmeiss", "agree")), start(()).apply(Misdeal())):
        result = score_hand(state)
        assert result.redeal and result.scores == (0, 0)
        with pytest.raises(HandOver):
            state.apply(Play(1, card("AH")))


def test_replaying_the_log_gives_the_same_state() -> None:
    state = play(start().apply(ExchangeDix(1)), TRICKS[:5])
    assert replay(state.events) == state
    assert state.events[0] == Deal(0, card("JD"))


def test_a_correction_replaces_an_event_and_replays() -> None:
    state = play(start(), ["AH KH", "10H"])
    corrected = state.apply(Correct(3, Play(1, Card.parse("AH"))))
    assert corrected.current == ((1, card("10H")),)
    fixed = state.apply(Correct(4, Play(0, card("QC"))))  # the renege never happened
    assert fixed.end == "" and fixed.tricks[0].cards == tuple(cards("AH QC"))


def test_the_state_is_never_mutated() -> None:
    state = start()
    after = state.apply(Play(1, card("AH")))
    assert state.current == () and after.current != ()
    with pytest.raises(AttributeError):
        state.dealer = 1  # type: ignore[misc]


def test_possible_cards_narrow_as_the_table_learns() -> None:
    state = start()
    assert card("JD") in state.possible_cards(1)  # the dix holder may take the candidate
    state = play(state, ["AH QC"])  # seat 0 shows no heart and no diamond (trump) is left him
    possible = state.possible_cards(0)
    assert not any(c.suit.value in "HD" for c in possible)
    assert card("AH") not in state.possible_cards(1) and card("QC") not in possible
    hearts_out = play(start(), ["AH 7D"])  # seat 0 trumped: the candidate is on the table now
    assert card("JD") not in hearts_out.possible_cards(1)
