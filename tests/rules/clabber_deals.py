"""Hand-checked Clabber deals shared by the tests (every card's owner and every trick worked
out by hand; see the comments)."""

from __future__ import annotations

from rules import Card, card, cards
from rules.clabber import DEFAULT_RULES, Bid, ClabberRules, Deal, HandState, Play


def codes(text: str) -> list[str]:
    """``codes("JH QH")``: card codes in play order."""
    return text.split()


# BASE: dealer 3, upcard 9H; seat 0 says "play": hearts trump, team 0 makers.
# Seat 1 holds bella (QH KH); seat 3 holds a fifty (10C JC QC KC) and no spade.
BASE_HANDS: tuple[tuple[Card, ...], ...] = (
    cards("JH AH 10S KS AD 9C"),
    cards("QH KH AS 9S 10D JD"),
    cards("10H JS QS KD QD AC"),
    cards("9H 9D JC QC KC 10C"),
)
# trick winners: 0 0 1 0 0 2; trick points team 0 = 47+17+27+10+17+10 = 128, team 1 = 34.
BASE_PLAYS = codes(
    "JH QH 10H 9H  AH KH JS 9D  10S AS QS 10C  10D KD JC AD  KS 9S QD QC  9C JD AC KC"
)

# OVER: dealer 3, upcard 9H, seat 0 says "play". Seat 1 plays QH under 10H in trick 1 while
# holding JH (fails to overtrump), and shows JH in trick 6.
OVER_HANDS: tuple[tuple[Card, ...], ...] = (
    cards("10H 9S 10S JS 9D 9C"),
    cards("JH QH QS 10D JD 10C"),
    cards("KH AH KS QD JC QC"),
    cards("9H AS KD AD KC AC"),
)
OVER_PLAYS = codes(
    "10H QH AH 9H  AS 9S QS KS  AD 9D JD QD  AC 9C 10C QC  KD 10S 10D KH  JC KC JS JH"
)


def run(
    bids: list[str],
    plays: list[str],
    hands: tuple[tuple[Card, ...], ...] | None = None,
    rules: ClabberRules = DEFAULT_RULES,
    dealer: int = 3,
    upcard: str = "9H",
) -> HandState:
    """Deal, bid (seats in turn) and play (seats in turn) until the hand is over."""
    state = HandState(rules=rules).apply(Deal(dealer, card(upcard), hands))
    for call in bids:
        seat = state.to_move
        assert seat is not None
        state = state.apply(Bid(seat, call))
    for code in plays:
        if state.over:
            break
        seat = state.to_move
        assert seat is not None
        state = state.apply(Play(seat, card(code)))
    return state
