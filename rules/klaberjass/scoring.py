"""Scoring a Klaberjass-family hand (rules.md "Scoring", "Bella", "Sequences").

Each side (a player in Klaberjass, a team in Belote) adds its card points, the last trick's
10, its runs if it won the sequence contest, and its bella. The maker must score more than
the opponent (Jass-deux: reach his bid); otherwise he is *bete*: he scores 0 and the
opponent scores both totals. A proven renege (rules.md is silent for this family; the
ruleset's ``renege_penalty``) gives the reneging side 0 and the other 162 plus all its runs
and bella, or treats the reneging side as bete; reneges by both sides void the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Rank, Suit
from rules.errors import IllegalEvent
from rules.klaberjass.hand import KlaberjassHand
from rules.klaberjass.melds import BELLA_POINTS, Meld, sequence_winner
from rules.klaberjass.tables import HAND_TOTAL, LAST_TRICK_BONUS, card_points
from rules.knowledge import ProvenRenege, Trick


@dataclass(frozen=True, slots=True)
class SideTotals:
    """What one side made in the hand before the maker's test."""

    cards: int = 0
    last_trick: int = 0
    runs: int = 0
    bella: int = 0

    @property
    def total(self) -> int:
        return self.cards + self.last_trick + self.runs + self.bella

    def to_json(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "last_trick": self.last_trick,
            "runs": self.runs,
            "bella": self.bella,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """The score of a hand. ``scores`` and ``totals`` are per side: seat in Klaberjass,
    team (0 = seats 0 and 2, 1 = seats 1 and 3) in Belote."""

    scores: tuple[int, int]
    totals: tuple[SideTotals, SideTotals]
    trump: Suit | None
    maker: int | None
    bid: int | None
    bete: bool
    redeal: bool
    runs: tuple[tuple[int, Meld], ...]
    sequence_winner: int | None
    bella: int | None
    reneges: tuple[ProvenRenege, ...]
    end: str
    tricks: tuple[Trick, ...]


def _side(hand: KlaberjassHand, seat: int) -> int:
    return hand.rules.team(seat)


def _bella_seat(hand: KlaberjassHand, trump: Suit) -> int | None:
    k, q = Card(Rank.KING, trump), Card(Rank.QUEEN, trump)
    for seat in range(hand.players):
        mine = hand.knowledge.known(seat)
        if k in mine and q in mine:
            if hand.rules.bella == "announced" and hand.bella_announced != seat:
                return None
            return seat
    return None


def side_totals(hand: KlaberjassHand, *, contest: bool = True) -> tuple[SideTotals, SideTotals]:
    """Each side's card points, last trick, runs and bella from what has been played.

    With ``contest=False`` every side counts all its runs (the renege penalty's "all its
    melds"); otherwise only the contest winner's side does.
    """
    trump = hand.trump
    if trump is None:
        return SideTotals(), SideTotals()
    cards = [0, 0]
    last = [0, 0]
    for t in hand.tricks:
        cards[_side(hand, t.winner)] += sum(card_points(c, trump) for c in t.cards)
    if len(hand.tricks) == hand.rules.hand_size:
        last[_side(hand, hand.tricks[-1].winner)] = LAST_TRICK_BONUS
    run_points = [0, 0]
    winner = _contest_winner(hand, trump)
    for seat in range(hand.players):
        if contest and (winner is None or _side(hand, seat) != _side(hand, winner)):
            continue
        run_points[_side(hand, seat)] += sum(m.points for m in hand.runs_of(seat))
    bella = [0, 0]
    b = _bella_seat(hand, trump)
    if b is not None:
        bella[_side(hand, b)] = BELLA_POINTS
    return (
        SideTotals(cards[0], last[0], run_points[0], bella[0]),
        SideTotals(cards[1], last[1], run_points[1], bella[1]),
    )


def _contest_winner(hand: KlaberjassHand, trump: Suit) -> int | None:
    order = [(hand.dealer + 1 + i) % hand.players for i in range(hand.players)]
    return sequence_winner({s: hand.runs_of(s) for s in order}, trump, order)


def score_hand(hand: KlaberjassHand) -> HandResult:
    """The result of a finished ``hand``; raises :class:`IllegalEvent` before its end."""
    if not hand.is_over:
        raise IllegalEvent(
            f"no result yet: the hand is in its {hand.phase} phase "
            f"({len(hand.tricks)} of {hand.rules.hand_size} tricks played)"
        )
    trump, maker = hand.trump, hand.maker
    bid = None if hand.auction is None else hand.auction.high_bid
    if hand.redeal or trump is None:
        zero = SideTotals()
        return HandResult(
            (0, 0), (zero, zero), trump, maker, bid, False, True, (), None, None, (),
            hand.end, (),
        )  # fmt: skip
    all_runs = tuple((s, m) for s in range(hand.players) for m in hand.runs_of(s))
    winner = _contest_winner(hand, trump)
    bella = _bella_seat(hand, trump)
    applied = hand.applied_reneges
    scores = [0, 0]
    if applied:
        sides = {_side(hand, r.seat) for r in applied}
        totals = side_totals(hand, contest=False)
        if len(sides) == 2:  # both sides reneged: nothing scored, the same dealer again
            return HandResult(
                (0, 0), totals, trump, maker, bid, False, True, all_runs, None, bella,
                hand.reneges, hand.end, hand.tricks,
            )  # fmt: skip
        (bad,) = sides
        good = 1 - bad
        if hand.rules.renege_penalty == "bete":
            played = side_totals(hand)
            scores[good] = played[0].total + played[1].total
            return HandResult(
                (scores[0], scores[1]), played, trump, maker, bid, True, False, all_runs,
                winner, bella, hand.reneges, hand.end, hand.tricks,
            )  # fmt: skip
        scores[good] = HAND_TOTAL + totals[good].runs + totals[good].bella
        return HandResult(
            (scores[0], scores[1]), totals, trump, maker, bid, False, False, all_runs,
            None, bella, hand.reneges, hand.end, hand.tricks,
        )  # fmt: skip
    totals = side_totals(hand)
    assert maker is not None
    ms = _side(hand, maker)
    mine, theirs = totals[ms].total, totals[1 - ms].total
    made = mine >= bid if bid is not None else mine > theirs
    scores = [totals[0].total, totals[1].total]
    if not made:
        scores[ms] = 0
        scores[1 - ms] = mine + theirs
    return HandResult(
        (scores[0], scores[1]), totals, trump, maker, bid, not made, False, all_runs, winner,
        bella, hand.reneges, hand.end, hand.tricks,
    )  # fmt: skip
