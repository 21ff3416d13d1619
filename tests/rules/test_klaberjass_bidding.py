"""Making trump in Klaberjass, Belote and Jass-deux (rules.md "Making trump", "Jass-deux")."""

from __future__ import annotations

import pytest

from rules import Suit
from rules.belote import BeloteRules
from rules.errors import HandOver, OutOfTurn
from rules.klaberjass import Auction, IllegalBid, KlaberjassRules

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS
JASS_DEUX = KlaberjassRules(variant="jass-deux")

OUTCOMES = [
    # (rule, rules, calls from the non-dealer (dealer 0), trump, maker, redeal)
    ("round 1: non-dealer accepts", KlaberjassRules(), ["accept"], D, 1, False),
    ("round 1: dealer accepts after a pass", KlaberjassRules(), ["pass", "accept"], D, 0, False),
    ("schmeiss agreed: redeal", KlaberjassRules(), ["schmeiss", "agree"], None, None, True),
    (
        "schmeiss refused: the proposer accepted",
        KlaberjassRules(),
        ["schmeiss", "refuse"],
        D,
        1,
        False,
    ),
    ("dealer's schmeiss refused", KlaberjassRules(), ["pass", "schmeiss", "refuse"], D, 0, False),
    ("round 2: non-dealer names a suit", KlaberjassRules(), ["pass", "pass", "H"], H, 1, False),
    ("round 2: dealer names a suit", KlaberjassRules(), ["pass", "pass", "pass", "s"], S, 0, False),
    ("two rounds of passes: redeal", KlaberjassRules(), ["pass"] * 4, None, None, True),
    (
        "Belote: four passes, then the third seat names",
        BeloteRules(),
        ["pass"] * 6 + ["C"],
        C,
        3,
        False,
    ),
    ("Belote: eight passes: redeal", BeloteRules(), ["pass"] * 8, None, None, True),
    (
        "Jass-deux: one bid, the other passes, bidder names",
        JASS_DEUX,
        ["90", "pass", "S"],
        S,
        1,
        False,
    ),
    ("Jass-deux: outbid", JASS_DEUX, ["90", "100", "pass", "H"], H, 0, False),
    ("Jass-deux: pass then a bid", JASS_DEUX, ["pass", "82", "pass", "D"], D, 0, False),
    ("Jass-deux: the candidate's suit may be named", JASS_DEUX, ["82", "pass", "D"], D, 1, False),
    ("Jass-deux: two passes: redeal", JASS_DEUX, ["pass", "pass"], None, None, True),
]


@pytest.mark.parametrize(
    ("rule", "rules", "calls", "trump", "maker", "redeal"), OUTCOMES, ids=[r[0] for r in OUTCOMES]
)
def test_auction_outcomes(
    rule: str,
    rules: KlaberjassRules,
    calls: list[str],
    trump: Suit | None,
    maker: int | None,
    redeal: bool,
) -> None:
    a = Auction(rules, 0, D)
    for call in calls:
        seat = a.to_call
        assert seat is not None
        a = a.call(seat, call)
    assert (a.trump, a.maker, a.redeal, a.done) == (trump, maker, redeal, True)


REFUSED = [
    # (rule, rules, calls before, bad call, message fragment)
    ("round 2 cannot name the refused suit", KlaberjassRules(), ["pass", "pass"], "D", "refused"),
    ("round 1 takes no suit name", KlaberjassRules(), [], "H", "round 1"),
    ("a schmeiss is answered agree or refuse", KlaberjassRules(), ["schmeiss"], "pass", "schmeiss"),
    ("Belote has no schmeiss", BeloteRules(), [], "schmeiss", "'accept' or 'pass'"),
    ("round 2 takes a suit or pass", KlaberjassRules(), ["pass", "pass"], "accept", "round 2"),
    ("Jass-deux: the first bid is at least 82", JASS_DEUX, [], "81", "at least 82"),
    ("Jass-deux: each bid is higher", JASS_DEUX, ["90"], "90", "higher"),
    ("Jass-deux: bids are numbers", JASS_DEUX, [], "accept", "point bids"),
    ("Jass-deux: the high bidder names a suit", JASS_DEUX, ["90", "pass"], "100", "names trump"),
]


@pytest.mark.parametrize(
    ("rule", "rules", "before", "bad", "fragment"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_impossible_calls_raise_and_quote(
    rule: str, rules: KlaberjassRules, before: list[str], bad: str, fragment: str
) -> None:
    a = Auction(rules, 0, D)
    for call in before:
        seat = a.to_call
        assert seat is not None
        a = a.call(seat, call)
    seat = a.to_call
    assert seat is not None
    with pytest.raises(IllegalBid, match=fragment) as err:
        a.call(seat, bad)
    assert repr(bad) in str(err.value)


def test_out_of_turn_and_after_the_end() -> None:
    a = Auction(KlaberjassRules(), 0, D)
    with pytest.raises(OutOfTurn, match="seat 1"):
        a.call(0, "accept")
    done = a.call(1, "accept")
    with pytest.raises(HandOver):
        done.call(0, "pass")
