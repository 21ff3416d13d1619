"""Making trump in the Klaberjass family: an immutable auction fed by calls.

Classic (rules.md "Making trump"), first call from the seat after the dealer:

- round 1: ``"accept"`` (the candidate's suit is trump, the caller is the maker), ``"pass"``,
  or ``"schmeiss"`` (a proposed redeal, Klaberjass only), which the next player answers with
  ``"agree"`` (redeal) or ``"refuse"`` (the proposer has accepted);
- round 2, after everyone passed: a suit letter other than the candidate's (``"S"``, ``"H"``,
  ``"D"``, ``"C"``) or ``"pass"``; everyone passing again means a redeal.

Jass-deux (rules.md Decision): calls are point bids (``"90"``) of at least ``min_bid``, each
higher than the last, or ``"pass"``; when every other player has passed after a bid, the
highest bidder names trump with a suit letter. Everyone passing without a bid: redeal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.cards import Suit
from rules.errors import CardParseError, HandOver, IllegalEvent, OutOfTurn
from rules.klaberjass.ruleset import KlaberjassRules

ROUND1_CALLS = ("accept", "pass", "schmeiss")
SCHMEISS_ANSWERS = ("agree", "refuse")


class IllegalBid(IllegalEvent):
    """A call the auction cannot take at this point (quotes the call and the situation)."""


@dataclass(frozen=True, slots=True)
class Auction:
    """The state of the trump-making auction. ``calls`` are ``(seat, call)`` in order."""

    rules: KlaberjassRules
    dealer: int
    candidate: Suit | None
    calls: tuple[tuple[int, str], ...] = ()
    round: int = 1
    passes: int = 0
    schmeiss_by: int | None = None
    high_bid: int | None = None
    high_bidder: int | None = None
    naming: bool = False
    trump: Suit | None = None
    maker: int | None = None
    redeal: bool = False

    @property
    def done(self) -> bool:
        return self.trump is not None or self.redeal

    @property
    def to_call(self) -> int | None:
        """The seat whose call is next, ``None`` once trump is made or a redeal is due."""
        if self.done:
            return None
        if self.naming:
            return self.high_bidder
        if self.schmeiss_by is not None:
            return self._next(self.schmeiss_by)
        if not self.calls:
            return self._next(self.dealer)
        return self._next(self.calls[-1][0])

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    def call(self, seat: int, call: str) -> Auction:
        """The auction after ``seat`` says ``call``; raises :class:`IllegalBid`/``OutOfTurn``."""
        if self.done:
            what = "trump is made" if self.trump is not None else "the hand is to be redealt"
            raise HandOver(f"call {call!r} by seat {seat}: the auction is over ({what})")
        if seat != self.to_call:
            raise OutOfTurn(f"call {call!r} by seat {seat}: it is seat {self.to_call}'s call")
        word = call.strip().lower() if isinstance(call, str) else ""
        after = replace(self, calls=(*self.calls, (seat, call)))
        if self.rules.variant == "jass-deux":
            return after._jass_deux(seat, call, word)
        return after._classic(seat, call, word)

    def _classic(self, seat: int, call: str, word: str) -> Auction:
        n = self.rules.players
        if self.schmeiss_by is not None:
            if word == "agree":
                return replace(self, redeal=True, schmeiss_by=None)
            if word == "refuse":
                return replace(self, trump=self.candidate, maker=self.schmeiss_by, schmeiss_by=None)
            raise IllegalBid(
                f"call {call!r} by seat {seat}: seat {self.schmeiss_by} proposed a schmeiss; "
                "answer 'agree' (redeal) or 'refuse' (he has accepted)"
            )
        if word == "pass":
            if self.passes + 1 < n:
                return replace(self, passes=self.passes + 1)
            if self.round == 1:
                return replace(self, passes=0, round=2)
            return replace(self, redeal=True)
        if self.round == 1:
            if word == "accept":
                return replace(self, trump=self.candidate, maker=seat)
            if word == "schmeiss" and self.rules.schmeiss:
                return replace(self, schmeiss_by=seat)
            allowed = (
                "'accept', 'pass' or 'schmeiss'" if self.rules.schmeiss else "'accept' or 'pass'"
            )
            raise IllegalBid(
                f"call {call!r} by seat {seat}: in round 1 the candidate suit "
                f"{self.candidate} is accepted or refused; expected {allowed}"
            )
        suit = _suit(call)
        if suit is None:
            raise IllegalBid(
                f"call {call!r} by seat {seat}: in round 2 name a suit (S, H, D, C) or 'pass'"
            )
        if suit == self.candidate:
            raise IllegalBid(
                f"call {call!r} by seat {seat}: {suit} was refused in round 1; "
                "round 2 names another suit"
            )
        return replace(self, trump=suit, maker=seat)

    def _jass_deux(self, seat: int, call: str, word: str) -> Auction:
        n = self.rules.players
        if self.naming:
            suit = _suit(call)
            if suit is None:
                raise IllegalBid(
                    f"call {call!r} by seat {seat}: the highest bidder now names trump (S, H, D, C)"
                )
            return replace(self, trump=suit, maker=seat, naming=False)
        if word == "pass":
            passes = self.passes + 1
            if self.high_bid is None:
                return replace(self, passes=passes, redeal=passes >= n)
            return replace(self, passes=passes, naming=passes >= n - 1)
        try:
            bid = int(word)
        except ValueError:
            raise IllegalBid(
                f"call {call!r} by seat {seat}: Jass-deux calls are point bids "
                f"(at least {self.rules.min_bid}) or 'pass'"
            ) from None
        floor = self.rules.min_bid if self.high_bid is None else self.high_bid + 1
        if bid < floor:
            why = (
                f"the first bid is at least {self.rules.min_bid}"
                if self.high_bid is None
                else f"seat {self.high_bidder} bid {self.high_bid}; a bid must be higher"
            )
            raise IllegalBid(f"call {call!r} by seat {seat}: {why}")
        return replace(self, high_bid=bid, high_bidder=seat, passes=0)


def _suit(call: str) -> Suit | None:
    if not isinstance(call, str) or len(call.strip()) != 1:
        return None
    try:
        return Suit.parse(call)
    except CardParseError:
        return None
