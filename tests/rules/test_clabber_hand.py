"""One Clabber hand: bidding, play, scoring and every renege of rules.md, with hidden hands
(the camera's view) and with a known deal."""

from __future__ import annotations

import pytest
from clabber_deals import BASE_HANDS, BASE_PLAYS, OVER_HANDS, OVER_PLAYS, codes, run

from rules import CardAlreadyPlayed, CardNotInDeck, HandOver, IllegalEvent, OutOfTurn, Suit, card
from rules.cards import cards
from rules.clabber import (
    Announce,
    Bid,
    ClabberRules,
    ClaimRenege,
    ConfirmRenege,
    Correct,
    Deal,
    Declare,
    DismissRenege,
    HandState,
    Misdeal,
    Play,
    RefereeRenege,
    Show,
    hand_result,
    legal_plays,
    replay,
)
from rules.clabber.records import sheet_marks

HIDDEN_AND_KNOWN = pytest.mark.parametrize("hands", [None, BASE_HANDS], ids=["hidden", "known"])


@HIDDEN_AND_KNOWN
def test_base_hand_scores_as_worked_out_by_hand(hands: tuple | None) -> None:
    """Scoring a hand: trick points + last trick, meld contest won by the fifty, bella."""
    state = run(["play"], BASE_PLAYS, hands)
    r = hand_result(state)
    assert [t.winner for t in state.tricks] == [0, 0, 1, 0, 0, 2]
    assert r.trick_points == (128, 34) and sum(r.trick_points) == 162
    assert r.last_trick == 0
    assert r.meld_winner == 1 and r.meld_points == (0, 50) and r.bella == (0, 20)
    assert r.score == (128, 104) and not r.set and r.makers == 0 and r.end == "complete"
    assert not state.reneges


def test_makers_set_score_zero_and_lose_melds() -> None:
    """Makers' total not greater than the opponents': set, "XXX", opponents score their own."""
    r = hand_result(run(["pass", "play"], BASE_PLAYS))
    assert r.makers == 1 and r.totals == (128, 104) and r.set
    assert r.score == (128, 0)
    assert sheet_marks(r) == ["128", "XXX"]


def test_first_trick_is_led_by_the_dealers_left_and_winner_leads() -> None:
    state = run(["play"], BASE_PLAYS[:5], dealer=3)
    assert state.tricks[0].seats == (0, 1, 2, 3) and state.to_move == 1  # seat 1: trick 2's 2nd
    state = run(["play"], BASE_PLAYS[:8])
    assert state.tricks[1].seats[0] == state.tricks[0].winner == 0


# -- bidding -----------------------------------------------------------------------------


def test_round_one_play_makes_the_upcard_suit_trump() -> None:
    state = run(["pass", "pass", "play"], [])
    assert state.trump == Suit.HEARTS and state.maker == 2 and state.phase == "play"


def test_dealer_may_play_on_the_upcard_alone() -> None:
    """The upcard counts for the dealer in round 1 (seat 3 holds no other heart)."""
    state = run(["pass", "pass", "pass", "play"], BASE_PLAYS)
    assert state.maker == 3 and not state.reneges


def test_round_two_names_another_suit() -> None:
    state = run(["pass"] * 4 + ["pass", "D"], BASE_PLAYS)
    assert state.trump == Suit.DIAMONDS and state.maker == 1


def test_four_passes_twice_redeal_by_the_same_dealer() -> None:
    state = run(["pass"] * 8, [])
    r = hand_result(state)
    assert state.end == "passed" and r.redeal and r.score == (0, 0)


@pytest.mark.parametrize("hands", [None, BASE_HANDS], ids=["hidden", "known"])
def test_renege_naming_the_refused_suit_in_round_two(hands: tuple | None) -> None:
    state = run(["pass"] * 4 + ["h"], BASE_PLAYS, hands)
    (r,) = state.reneges
    assert r.evidence.rule == "refused-suit" and r.evidence.seat == 0 and r.evidence.trick == 0
    assert str(r.evidence.card) == "9H"
    # 162 plus the melds the other team is known to hold: none seen yet with hidden hands
    expected = 162 if hands is None else 162 + 50 + 20
    assert hand_result(state).score == (0, expected)


def test_renege_making_trump_without_a_card_of_it_hidden_is_proven_by_the_cards() -> None:
    """Seat 3 names spades holding none: proven when its six cards are all seen, none a spade
    (before seat 0 plays the last spade)."""
    state = run(["pass"] * 7 + ["S"], [])
    hands = [set(h) for h in BASE_HANDS]
    while not state.over:
        seat = state.to_move
        assert seat is not None and state.trump is not None
        choice = min(legal_plays(hands[seat], [c for _, c in state.current], state.trump), key=str)
        hands[seat].discard(choice)
        state = state.apply(Play(seat, choice))
    (r,) = state.reneges
    assert (
        r.evidence.rule == "maker-without-trump" and r.evidence.seat == 3 and r.evidence.trick == 0
    )
    assert r.evidence.proof is None and len(state.knowledge.played[3]) == 6
    assert card("KS") not in state.knowledge.all_played()
    assert state.end == "renege" and hand_result(state).score == (162, 0)


def test_renege_making_trump_without_a_card_of_it_known_deal_is_caught_at_once() -> None:
    state = run(["pass"] * 7 + ["S"], [], BASE_HANDS)
    assert state.over and state.reneges[0].evidence.rule == "maker-without-trump"


@pytest.mark.parametrize(
    ("bids", "error"),
    [(["S"], IllegalEvent), (["pass"] * 4 + ["play"], IllegalEvent), (["maybe"], IllegalEvent)],
    ids=["suit in round 1", "play in round 2", "unknown call"],
)
def test_impossible_bids_raise(bids: list[str], error: type[Exception]) -> None:
    with pytest.raises(error):
        run(bids, [])


def test_bid_out_of_turn_raises() -> None:
    state = HandState().apply(Deal(3, card("9H")))
    with pytest.raises(OutOfTurn):
        state.apply(Bid(2, "pass"))


# -- play reneges --------------------------------------------------------------------------

FOLLOW_PLAYS = codes("JH QH 10H 9H  AH KH JS 9D  10S 10D QS 10C  KS AS")
TRUMP_PLAYS = codes("AD 10D KD 9D  9C JD AC 10C  QS 9H 10S 9S  JC AH KH")


@pytest.mark.parametrize(
    ("rule", "plays", "hands", "seat", "trick", "played", "proof", "proof_trick"),
    [
        ("follow", FOLLOW_PLAYS, None, 1, 3, "10D", "AS", 4),
        ("follow", FOLLOW_PLAYS, BASE_HANDS, 1, 3, "10D", "9S", None),
        ("trump", TRUMP_PLAYS, None, 1, 2, "JD", "KH", 4),
        ("trump", TRUMP_PLAYS, BASE_HANDS, 1, 2, "JD", "KH", None),
        ("overtrump", OVER_PLAYS, None, 1, 1, "QH", "JH", 6),
        ("overtrump", OVER_PLAYS, OVER_HANDS, 1, 1, "QH", "JH", None),
    ],
    ids=[
        "follow-hidden",
        "follow-known",
        "trump-hidden",
        "trump-known",
        "overtrump-hidden",
        "overtrump-known",
    ],
)
def test_play_reneges_are_proven_with_evidence(
    rule: str, plays: list[str], hands: tuple | None, seat: int, trick: int, played: str, proof: str,
    proof_trick: int | None,
) -> None:  # fmt: skip
    state = run(["play"], plays, hands)
    assert state.over and state.end == "renege"
    (r,) = state.reneges
    ev = r.evidence
    assert (ev.rule, ev.seat, ev.trick, str(ev.card)) == (rule, seat, trick, played)
    if hands is None:
        assert (str(ev.proof), ev.proof_trick) == (proof, proof_trick)
    else:
        assert ev.proof is not None and ev.proof.suit in (
            card(played).suit,
            card(proof).suit,
            Suit.HEARTS,
            Suit.SPADES,
        )
        assert len(state.tricks) + 1 == trick  # caught in the trick it happened
    result = hand_result(state)
    assert result.score[1] == 0 and result.score[0] >= 162


def test_overtrump_renege_proven_by_the_last_card_still_counts() -> None:
    """At the end every hand is known: a renege left open is decided (team 0 holds a dud)."""
    state = run(["play"], OVER_PLAYS)
    assert len(state.tricks) == 6 and state.end == "renege"
    assert hand_result(state).score == (162 + 20, 0)


def test_a_legal_hand_keeps_open_obligations_unproven() -> None:
    state = run(["play"], BASE_PLAYS)
    assert state.knowledge.voids[2] >= {Suit.HEARTS}  # seat 2 discarded JS on a trump lead
    assert not state.reneges


def test_out_of_turn_play_is_a_renege_with_the_card_as_evidence() -> None:
    state = run(["play"], [])
    state = state.apply(Play(1, card("QH")))
    (r,) = state.reneges
    assert (r.evidence.rule, r.evidence.seat, r.evidence.trick, str(r.evidence.card)) == (
        "out-of-turn",
        1,
        1,
        "QH",
    )
    assert hand_result(state).score == (162, 0)


def test_out_of_turn_in_the_last_trick_is_not_a_renege_by_default() -> None:
    state = run(["play"], BASE_PLAYS[:21])
    assert state.to_move == 1
    state = state.apply(Play(3, card("KC")))
    assert not state.reneges
    strict = run(["play"], BASE_PLAYS[:21], rules=ClabberRules(out_of_turn_last_trick=True))
    assert strict.apply(Play(3, card("KC"))).reneges


# -- impossible events ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "error"),
    [
        (Play(1, card("JH")), CardAlreadyPlayed),  # JH led by seat 0
        (Play(5, card("QH")), IllegalEvent),
        (Play(1, card("7H")), CardNotInDeck),
        (Play(1, card("9H")), IllegalEvent),  # the upcard is in the dealer's hand
        (Play(0, card("AH")), IllegalEvent),  # seat 0 already played to this trick
        (Deal(0, card("9S")), IllegalEvent),
    ],
    ids=[
        "card twice",
        "no such seat",
        "not in the deck",
        "upcard in another hand",
        "twice in a trick",
        "second deal",
    ],
)
def test_impossible_events_raise(event: object, error: type[Exception]) -> None:
    state = run(["play"], ["JH"])
    with pytest.raises(error) as info:
        state.apply(event)
    assert str(info.value)


def test_known_deal_refuses_a_card_from_another_hand() -> None:
    state = run(["play"], [], BASE_HANDS)
    with pytest.raises(IllegalEvent):
        state.apply(Play(0, card("QH")))


def test_play_before_trump_and_after_the_end_raise() -> None:
    with pytest.raises(IllegalEvent):
        HandState().apply(Deal(3, card("9H"))).apply(Play(0, card("JH")))
    with pytest.raises(HandOver):
        run(["play"], BASE_PLAYS).apply(Play(0, card("JH")))


# -- melds, bella, declarations ---------------------------------------------------------------


def _declared_base(
    declare: bool, show: bool = True, seat3_cards: str = "10C JC QC KC"
) -> HandState:
    state = run(["play"], BASE_PLAYS[:3], rules=ClabberRules(melds="declared"))
    if declare:
        state = state.apply(Declare(3, cards(seat3_cards)))
        if show:
            state = state.apply(Show(3, cards(seat3_cards)))
    for code in BASE_PLAYS[3:]:
        if state.over:
            break
        state = state.apply(Play(state.to_move, card(code)))  # type: ignore[arg-type]
    return state


def test_declared_mode_scores_declared_and_shown_melds() -> None:
    r = hand_result(_declared_base(True))
    assert r.meld_points == (0, 50) and r.score == (128, 104)


def test_declared_mode_meld_not_declared_does_not_score() -> None:
    r = hand_result(_declared_base(False))
    assert r.meld_points == (0, 0) and r.score == (128, 34 + 20)


def test_declared_mode_meld_declared_but_not_shown_does_not_score() -> None:
    r = hand_result(_declared_base(True, show=False))
    assert r.meld_points == (0, 0)


def test_declared_meld_the_cards_do_not_hold_is_a_renege() -> None:
    state = _declared_base(True, show=False, seat3_cards="JS QS KS")
    assert state.reneges[0].evidence.rule == "declared-meld-not-held"


def test_declaring_out_of_turn_is_a_renege() -> None:
    state = run(["play"], [])
    state = state.apply(Declare(2, cards("JS QS KS")))
    assert state.reneges[0].evidence.rule == "meld-out-of-turn" and state.over


def test_early_bella_is_a_renege_and_bella_on_the_second_card_is_not() -> None:
    early = run(["play"], BASE_PLAYS[:1]).apply(Announce(1, "bella"))
    assert early.reneges[0].evidence.rule == "early-bella"
    on_time = run(["play"], BASE_PLAYS[:6]).apply(Announce(1, "bella"))
    assert not on_time.reneges


# -- claims, referee, confirmation -------------------------------------------------------------


def test_a_claim_that_is_never_proven_is_a_renege_by_the_claimant() -> None:
    state = run(["play"], BASE_PLAYS[:6]).apply(ClaimRenege(0, 1))
    for code in BASE_PLAYS[6:]:
        state = state.apply(Play(state.to_move, card(code)))  # type: ignore[arg-type]
    assert [r.evidence.rule for r in state.reneges] == ["false-claim"]
    assert hand_result(state).score == (0, 162 + 50 + 20)


def test_a_claim_proven_by_the_cards_stands() -> None:
    rules = ClabberRules(renege_apply="confirm")
    state = run(["play"], FOLLOW_PLAYS, rules=rules)
    assert state.reneges[0].status == "pending" and not state.over
    state = state.apply(ClaimRenege(0, 1))
    assert (
        state.claims[0].status == "proven" and state.over and hand_result(state).score == (162, 0)
    )


def test_confirm_mode_applies_only_confirmed_reneges() -> None:
    rules = ClabberRules(renege_apply="confirm")
    state = run(["play"], FOLLOW_PLAYS, rules=rules)
    dismissed = state.apply(DismissRenege(0))
    assert not dismissed.over and not dismissed.applied_reneges
    confirmed = state.apply(ConfirmRenege(0))
    assert confirmed.over and hand_result(confirmed).score == (162, 0)


def test_both_teams_reneging_means_no_score_and_a_redeal() -> None:
    rules = ClabberRules(renege_apply="confirm")
    state = run(["play"], FOLLOW_PLAYS, rules=rules).apply(RefereeRenege(2, "coaching"))
    state = state.apply(ConfirmRenege(0)).apply(ConfirmRenege(1))
    r = hand_result(state)
    assert r.redeal and r.score == (0, 0)


def test_referee_renege_ends_the_hand() -> None:
    state = run(["play"], BASE_PLAYS[:5]).apply(RefereeRenege(3, "looked at a turned trick"))
    assert state.over and hand_result(state).score == (162, 0)


def test_referee_renege_during_the_bidding_scores_162_before_trump_is_made() -> None:
    """Renege (coaching) before any trump is made: the hand ends, the other team scores 162."""
    state = run([], []).apply(RefereeRenege(0, "coaching"))
    assert state.over and state.trump is None
    r = hand_result(state)
    assert r.score == (0, 162) and r.end == "renege" and not r.set


def test_renege_penalty_adds_every_meld_of_the_innocent_team_without_contest() -> None:
    """Team 0 reneges after the cards showed seat 1's bella: 162 + bella only (seat 3's fifty
    is not yet known with hidden hands; with the deal known it counts too)."""
    state = run(["play"], BASE_PLAYS[:6]).apply(RefereeRenege(2, "coaching"))
    assert hand_result(state).score == (0, 162 + 20)
    known = run(["play"], BASE_PLAYS[:6], BASE_HANDS).apply(RefereeRenege(2, "coaching"))
    assert hand_result(known).score == (0, 162 + 20 + 50)
    no_melds = run(["play"], BASE_PLAYS[:6], rules=ClabberRules(renege_melds="none")).apply(
        RefereeRenege(2, "coaching")
    )
    assert hand_result(no_melds).score == (0, 162)


def test_misdeal_is_a_redeal() -> None:
    state = HandState().apply(Deal(3, card("9H"))).apply(Misdeal("card exposed"))
    assert hand_result(state).redeal


# -- replay ----------------------------------------------------------------------------------


def test_replay_of_the_log_gives_the_same_state() -> None:
    state = run(["pass", "pass", "play"], BASE_PLAYS)
    assert replay(state.events) == state


def test_correction_replaces_an_event_and_replays() -> None:
    state = run(["play"], FOLLOW_PLAYS[:10])  # seat 1 reneged with 10D (not yet proven)
    fixed = state.apply(Correct(len(state.events) - 1, Play(1, card("AS"))))
    assert [str(c) for _, c in fixed.current] == ["10S", "AS"]
    assert fixed == replay(fixed.events)


def test_possible_cards_follow_what_the_table_has_seen() -> None:
    """Seat 2 discarded JS on a trump lead: it is out of trump; the upcard is the dealer's."""
    state = run(["play"], BASE_PLAYS[:7])
    assert not any(c.suit == Suit.HEARTS for c in state.possible_cards(2))
    assert card("JS") not in state.possible_cards(3)
    fresh = run(["play"], [])
    assert card("9H") in fresh.possible_cards(3) and card("9H") not in fresh.possible_cards(0)
    known = run(["play"], [], BASE_HANDS)
    assert known.possible_cards(1) == frozenset(BASE_HANDS[1])


def test_confirm_mode_a_claim_made_before_the_proof_applies_the_renege_once_proven() -> None:
    rules = ClabberRules(renege_apply="confirm")
    state = run(["play"], FOLLOW_PLAYS[:12], rules=rules).apply(ClaimRenege(0, 1))
    assert not state.reneges and state.claims[0].status == "open"
    for code in FOLLOW_PLAYS[12:]:
        state = state.apply(Play(state.to_move, card(code)))  # type: ignore[arg-type]
    assert state.reneges[0].status == "confirmed" and state.claims[0].status == "proven"
    assert state.over and hand_result(state).score == (162, 0)
