"""What the watcher knows of each game (vision.track.games): trump from the calls, voids, records."""

from __future__ import annotations

import random

import pytest

from rules.cards import Card, Suit, cards
from rules.errors import RulesError
from rules.records import score_record
from vision.track.games import clabber, clag, klaberjass


@pytest.mark.parametrize(
    ("bidding", "trump"),
    [
        ("play", Suit.HEARTS),
        ("pass,pass,play", Suit.HEARTS),
        ("pass,pass,pass,pass,S", Suit.SPADES),
    ],
)
def test_clabber_trump_comes_from_the_calls(bidding: str, trump: Suit) -> None:
    spec = clabber(3, "9H", bidding)
    assert spec.trump == trump and spec.first_leader == 0 and spec.fixtures == (Card.parse("9H"),)


@pytest.mark.parametrize(
    ("rule", "spec", "card", "trick", "voids"),
    [
        (
            "Clabber: follow suit, or trump: a discard shows both suits are out",
            clabber(0, "9H", "play"),
            "AS",
            "KC",
            {Suit.CLUBS, Suit.HEARTS},
        ),
        (
            "Clabber: trumping in shows only the led suit is out",
            clabber(0, "9H", "play"),
            "JH",
            "KC",
            {Suit.CLUBS},
        ),
        ("following suit shows nothing", clabber(0, "9H", "play"), "AC", "KC", set()),
        (
            "Klaberjass: must trump a plain lead when out of it",
            klaberjass(0, "JD", "accept"),
            "7S",
            "KC",
            {Suit.CLUBS, Suit.DIAMONDS},
        ),
        (
            "Clag: follow suit, otherwise any card",
            clag(4, 3, 0, "7H", None, "1,1,1,1"),
            "2S",
            "KC",
            {Suit.CLUBS},
        ),
        (
            "Clag round 12: a two may be played at any time, so it shows no void",
            clag(4, 12, 0, "7H", None, "1,1,1,1"),
            "2S",
            "KC",
            set(),
        ),
        (
            "Clag round 12: any other card off the led suit shows the seat out of it",
            clag(4, 12, 0, "7H", None, "1,1,1,1"),
            "3S",
            "KC",
            {Suit.CLUBS},
        ),
    ],  # fmt: skip
)
def test_voids_a_play_shows(
    rule: str, spec: object, card: str, trick: str, voids: set[Suit]
) -> None:
    assert spec.voids(Card.parse(card), cards(trick)) == voids, rule  # type: ignore[attr-defined]


def test_a_simulated_clabber_hand_sequenced_by_the_spec_scores_like_the_engine() -> None:
    from rules.clabber.simulate import hand_record, simulate_hand

    rng = random.Random(5)
    sim = simulate_hand(rng, dealer=2)
    while sim.state.end != "complete":
        sim = simulate_hand(rng, dealer=2)
    truth = hand_record(sim.state)
    spec = clabber(2, str(truth["upcard"]), truth["bidding"])  # type: ignore[arg-type]
    winners = [spec.winner(t.cards) for t in sim.state.tricks]
    assert [t.seats[w] for t, w in zip(sim.state.tricks, winners, strict=True)] == [
        t.winner for t in sim.state.tricks
    ]
    record = spec.record([t.cards for t in sim.state.tricks])
    assert score_record(record)["score"] == score_record(truth)["score"]


def test_klaberjass_candidate_is_out_of_play_unless_the_dix_was_exchanged() -> None:
    plain = klaberjass(0, "JD", "accept")
    assert Card.parse("JD") in plain.elsewhere
    swapped = klaberjass(0, "JD", "accept", exchange=1)
    assert Card.parse("JD") not in swapped.elsewhere and Card.parse("7D") in swapped.elsewhere
    assert swapped.header["exchange"] == 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: clabber(0, "9H", "pass,pass,pass,pass,pass,pass,pass,pass"), "no trump"),
        (lambda: clabber(5, "9H", "play"), "dealer 5"),
        (lambda: clabber(0, "2H", "play"), "2H"),
        (lambda: clag(4, 3, 0, "7H", None, None), "--contracts"),
        (lambda: clag(4, 3, 0, None, None, "1,1,1,1"), "--trump-card"),
        (lambda: clag(4, 14, 0, None, None, "1,1,1,1"), "--trump"),
        (lambda: clag(9, 3, 0, "7H", None, "1,1,1,1"), "9"),
    ],
)
def test_setup_errors_name_the_missing_or_bad_option(make: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):  # GameSetupError, or the engine's own
        make()  # type: ignore[operator]


def test_clag_round_12_a_named_two_leads_and_wins_as_its_name() -> None:
    """The led suit is the named card's; the copy ranks just above the real card (rules.md
    round 12); a two not yet named shows nothing and counts as it lies, provisionally."""
    from rules.clag.tricks import WildTwo

    spec = clag(4, 12, 0, "7H", None, "1,1,1,1")
    assert spec.wild_twos and not clag(4, 3, 0, "7H", None, "1,1,1,1").wild_twos
    lead = WildTwo.parse("2S=AC")
    assert spec.voids(Card.parse("3D"), [lead]) == {Suit.CLUBS}
    assert spec.voids(Card.parse("3D"), [Card.parse("2S")]) == set()
    assert spec.winner([Card.parse("AC"), lead, Card.parse("KC"), Card.parse("3C")]) == 1
    assert (
        spec.winner([Card.parse("2S"), Card.parse("3C"), Card.parse("KS"), Card.parse("3D")]) == 2
    )
