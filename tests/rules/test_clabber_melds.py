"""Clabber melds, the best combination and the meld contest (rules.md "Melds")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DECK_24, Suit, cards
from rules.clabber import Meld, best_melds, meld_contest, meld_from_cards

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS

BEST = [
    # (rule, hand, trump, [(kind, points)] expected, bella expected)
    ("no meld", "9S JH AD KC 10S QD", H, [], False),
    ("run of 3 dud 20", "9S 10S JS AH KD QC", H, [("dud", 20)], False),
    ("run of 4 fifty 50", "10D JD QD KD 9S AC", H, [("fifty", 50)], False),
    ("run of 5 hundred 100", "9C 10C JC QC KC AS", H, [("hundred", 100)], False),
    ("run of 6 hundred 100 (no more than 5)", "9C 10C JC QC KC AC", H, [("hundred", 100)], False),
    ("four 9s 100", "9S 9H 9D 9C AS KD", H, [("four", 100)], False),
    ("four Qs 100", "QS QH QD QC AS KD", H, [("four", 100)], False),
    ("four Ks 100", "KS KH KD KC AS 9D", H, [("four", 100)], False),
    ("four As 100", "AS AH AD AC 9S KD", H, [("four", 100)], False),
    ("four 10s are no meld", "10S 10H 10D 10C 9S AD", H, [], False),
    ("four Js mule 200", "JS JH JD JC 9S AD", H, [("mule", 200)], False),
    ("bella K+Q of trump 20", "KH QH 9S AD 10C JS", H, [], True),
    ("K+Q of a plain suit is no bella", "KS QS 9H AD 10C 9S", H, [], False),
    ("forty-dollar dud J-Q-K of trump", "JH QH KH 9S AD 10C", H, [("dud", 20)], True),
    ("forty-dollar dud Q-K-A of trump", "QH KH AH 9S AD 10C", H, [("dud", 20)], True),
    ("bella's cards also in a fifty", "JH QH KH AH 9S 9D", H, [("fifty", 50)], True),
    ("two disjoint duds", "9S 10S JS QD KD AD", H, [("dud", 20), ("dud", 20)], False),
    ("a card serves once: mule over two runs", "JS QS KS JH JD JC", C, [("mule", 200)], False),
    ("a card serves once: fifty beats dud+four?", "9S 10S JS QS 9H 9D", C, [("fifty", 50)], False),
    ("four Ks and a bella from the same K", "KS KH KD KC QH 9S", H, [("four", 100)], True),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trump", "melds", "has_bella"), BEST, ids=[b[0] for b in BEST]
)
def test_best_melds(
    rule: str, hand: str, trump: Suit, melds: list[tuple[str, int]], has_bella: bool
) -> None:
    found = best_melds(cards(hand), trump)
    plain = [(m.kind, m.points) for m in found if m.kind != "bella"]
    assert sorted(plain) == sorted(melds)
    assert any(m.kind == "bella" and m.points == 20 for m in found) == has_bella
    used = [c for m in found if m.kind != "bella" for c in m.cards]
    assert len(used) == len(set(used)), "a card serves in one meld only"


CONTEST = [
    # (rule, team A hand(s), team B hand(s), trump, winner)
    ("higher points win: fifty over dud", "10D JD QD KD", "9S 10S JS", H, 0),
    ("mule over hundred", "JS JH JD JC", "9C 10C JC QC KC", H, 0),
    ("Decision: run beats four of a kind at 100", "AS AH AD AC", "9C 10C JC QC KC", H, 1),
    ("Decision: longer run beats shorter at 100", "9C 10C JC QC KC AC", "9D 10D JD QD KD", H, 0),
    ("Decision: higher top card between equal runs", "9S 10S JS", "10D JD QD", H, 1),
    ("Decision: trump run beats non-trump run", "JS QS KS", "JD QD KD", S, 0),
    ("Decision: higher four of a kind (A over K)", "KS KH KD KC", "AS AH AD AC", H, 1),
    ("Decision: higher four of a kind (Q over 9)", "QS QH QD QC", "9S 9H 9D 9C", H, 0),
    ("equal non-trump runs: neither scores", "10S JS QS", "10D JD QD", H, None),
    ("forty-dollar dud competes as a 20-point run", "JH QH KH", "10D JD QD KD", H, 1),
    ("a team without melds loses to any meld", "", "9S 10S JS", H, 1),
    ("no melds at all: neither", "", "", H, None),
]


def _melds(text: str, trump: Suit) -> list[Meld]:
    return best_melds(cards(text), trump) if text else []


@pytest.mark.parametrize(
    ("rule", "a", "b", "trump", "winner"), CONTEST, ids=[c[0] for c in CONTEST]
)
def test_meld_contest(rule: str, a: str, b: str, trump: Suit, winner: int | None) -> None:
    assert meld_contest(_melds(a, trump), _melds(b, trump), trump) == winner


def test_bella_takes_no_part_in_the_contest() -> None:
    bella_only = best_melds(cards("KH QH 9S"), H)
    assert [m.kind for m in bella_only] == ["bella"]
    assert meld_contest(bella_only, [], H) is None
    assert meld_contest(bella_only, _melds("9S 10S JS", H), H) == 1


def test_the_best_meld_of_a_team_decides_with_both_partners_melds() -> None:
    team_a = _melds("9S 10S JS", H) + _melds("AS AH AD AC", H)
    team_b = _melds("10D JD QD KD", H)
    assert meld_contest(team_a, team_b, H) == 0


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("JH QH KH", "dud"),
        ("KH QH", "bella"),
        ("9S 9H 9D 9C", "four"),
        ("JS JH JD JC", "mule"),
        ("9S JS QS", None),
    ],
)
def test_meld_from_declared_cards(text: str, kind: str | None) -> None:
    m = meld_from_cards(cards(text), H)
    assert (m.kind if m else None) == kind


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK_24), st.sampled_from(list(Suit)))
def test_best_melds_beat_every_single_candidate(deck: list, trump: Suit) -> None:
    hand = deck[:6]
    found = [m for m in best_melds(hand, trump) if m.kind != "bella"]
    total = sum(m.points for m in found)
    from rules.clabber.melds import candidate_melds

    assert all(total >= m.points for m in candidate_melds(hand))
    assert all(set(m.cards) <= set(hand) for m in found)
