"""Game specs for the hand-by-hand games to 500: Clabber, Klaberjass (and Jass-deux), Belote.

All three deal a hand, bid for trump, play it out and score it for two sides; the deal passes
left after a scored hand and stays after a redeal; the first side to the target wins (both
past it: the higher total; equal: play on). What differs is data: the engine's hand class,
its deal event, its scoring function and how its result reads; one :class:`HandGameSpec`
per game holds those.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.belote import BeloteRules
from rules.clabber import ClabberRules, HandState, hand_result
from rules.clabber import Deal as ClabberDeal
from rules.errors import IllegalEvent, OutOfTurn
from rules.klaberjass import Deal as KlaberjassDeal
from rules.klaberjass import ExchangeDix, KlaberjassHand, KlaberjassRules, score_hand
from service.game_spec import (
    JSON,
    SHARED_BUILDERS,
    Builder,
    FieldError,
    HandRow,
    card_of,
    hands_of,
    optional_card,
    rules_from,
    seat_of,
)


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def renege_json(proven: Any) -> JSON:
    """A proven renege (either engine's ``ProvenRenege``) with its evidence and status."""
    return {**proven.evidence.as_dict(), "status": proven.status}


@dataclass(frozen=True, slots=True)
class HandsGame:
    """One game to the target: the engine's hand states in order (the last maybe in play),
    and the score rows of every hand but the last (events only ever reach the last hand, so
    those rows are final: each hand is scored once, not once per event)."""

    hands: tuple[Any, ...]
    rows_before: tuple[HandRow, ...] = ()


@dataclass(frozen=True, slots=True)
class HandGameSpec:
    name: str
    players: int
    sides_of: tuple[tuple[int, ...], ...]
    rules_class: type[Any]
    fixed_options: Mapping[str, Any]
    deal: Builder
    extra_builders: Mapping[str, Builder]
    new_hand: Callable[[Any, Any], Any]
    hand_over: Callable[[Any], bool]
    target: Callable[[Any], int]
    row: Callable[[Any], HandRow]
    bids: Callable[[Any], list[JSON]]

    def seats(self, players: int, options: Mapping[str, Any]) -> int:
        if players != self.players:
            raise FieldError("players", f"{self.name} is played by {self.players}, got {players}")
        return players

    def sides(self, seats: int) -> list[list[int]]:
        return [list(s) for s in self.sides_of]

    def make_rules(self, options: Mapping[str, Any], seats: int) -> Any:
        return rules_from(self.rules_class, options, **self.fixed_options)

    def builders(self) -> Mapping[str, Builder]:
        return {**SHARED_BUILDERS, "deal": self.deal, **self.extra_builders}

    def new_game(self, rules: Any, seats: int, event: object, payload: JSON) -> HandsGame:
        return HandsGame((self.new_hand(rules, event),))

    def next_dealer(self, game: HandsGame) -> int:
        last = game.hands[-1]
        dealer = int(last.dealer)
        return dealer if self.row(last).redeal else (dealer + 1) % self.players

    def first_dealer_after(self, game: HandsGame) -> int:
        """The deal keeps passing left from one game to the next."""
        return self.next_dealer(game)

    def apply(self, game: HandsGame, event: object, payload: JSON) -> HandsGame:
        last = game.hands[-1]
        if payload.get("type") != "deal":
            return HandsGame(game.hands[:-1] + (last.apply(event),), game.rows_before)
        if not self.hand_over(last):
            raise IllegalEvent(
                f"deal by seat {payload.get('dealer')}: the hand in play is not over"
            )
        expected = self.next_dealer(game)
        dealer = payload.get("dealer")
        if dealer is not None and dealer != expected:
            raise OutOfTurn(f"deal by seat {dealer}: seat {expected} deals this hand")
        if dealer is None:  # the dealer may be left out after the first hand: it is known
            event = dataclasses.replace(event, dealer=expected)  # type: ignore[type-var]
        return HandsGame(
            game.hands + (self.new_hand(last.rules, event),), game.rows_before + (self.row(last),)
        )

    def totals(self, game: HandsGame) -> tuple[int, int]:
        a = b = 0
        for row in self.rows(game):
            a, b = a + row.score[0], b + row.score[1]
        return a, b

    def is_over(self, game: HandsGame) -> bool:
        return self.hand_over(game.hands[-1]) and bool(self.winners(game))

    def winners(self, game: HandsGame) -> list[int]:
        a, b = self.totals(game)
        if max(a, b) < self.target(game.hands[-1].rules) or a == b:
            return []
        return [0 if a > b else 1]

    def rows(self, game: HandsGame) -> list[HandRow]:
        last = game.hands[-1]
        return [*game.rows_before, *([self.row(last)] if self.hand_over(last) else [])]

    def current(self, game: HandsGame) -> JSON | None:
        hand = game.hands[-1]
        return {
            "number": len(game.hands),
            "phase": hand.phase,
            "over": self.hand_over(hand),
            "dealer": hand.dealer,
            "to_move": hand.to_move,
            "upcard": None if hand.upcard is None else str(hand.upcard),
            "trump": None if hand.trump is None else hand.trump.value,
            "maker": hand.maker,
            "makers": None if hand.maker is None else self._side(hand.maker),
            "bids": self.bids(hand),
            "trick": [{"seat": s, "card": str(c)} for s, c in hand.current],
            "tricks": [
                {
                    "number": t.number,
                    "seats": list(t.seats),
                    "cards": _cards(t.cards),
                    "winner": t.winner,
                }
                for t in hand.tricks
            ],
            "reneges": [renege_json(r) for r in hand.reneges],
            "end": hand.end,
        }

    def _side(self, seat: int) -> int:
        return next(i for i, side in enumerate(self.sides_of) if seat in side)


# -- Clabber ---------------------------------------------------------------------------------


def _clabber_deal(p: Mapping[str, Any], n: int) -> ClabberDeal:
    dealer = seat_of(p, n, "dealer") if p.get("dealer") is not None else 0
    return ClabberDeal(dealer, card_of(p, "upcard"), hands_of(p, n))


def _clabber_row(hand: HandState) -> HandRow:
    r = hand_result(hand)
    return HandRow(
        dealer=hand.dealer,
        score=r.score,
        set=r.set,
        redeal=r.redeal,
        end=r.end,
        reneges=tuple(renege_json(x) for x in r.reneges),
        detail={
            "trump": None if hand.trump is None else hand.trump.value,
            "maker": r.maker,
            "makers": r.makers,
            "trick_points": list(r.trick_points),
            "meld_points": list(r.meld_points),
            "bella": list(r.bella),
            "totals": list(r.totals),
            "melds": [[m.points for m in side] for side in r.melds],
        },
    )


CLABBER = HandGameSpec(
    name="clabber",
    players=4,
    sides_of=((0, 2), (1, 3)),
    rules_class=ClabberRules,
    fixed_options={},
    deal=_clabber_deal,
    extra_builders={},
    new_hand=lambda rules, deal: HandState(rules=rules).apply(deal),
    hand_over=lambda hand: bool(hand.over),
    target=lambda rules: int(rules.game_target),
    row=_clabber_row,
    bids=lambda hand: [{"seat": b.seat, "bid": b.call} for b in hand.bids],
)


# -- Klaberjass, Jass-deux, Belote ----------------------------------------------------------------


def _klaberjass_deal(p: Mapping[str, Any], n: int) -> KlaberjassDeal:
    dealer = seat_of(p, n, "dealer") if p.get("dealer") is not None else 0
    return KlaberjassDeal(
        dealer, optional_card(p, "upcard"), optional_card(p, "bottom"), hands_of(p, n)
    )


def _klaberjass_row(hand: KlaberjassHand) -> HandRow:
    r = score_hand(hand)
    return HandRow(
        dealer=hand.dealer,
        score=r.scores,
        set=r.bete,
        redeal=r.redeal,
        end=r.end,
        reneges=tuple(renege_json(x) for x in r.reneges),
        detail={
            "trump": None if r.trump is None else r.trump.value,
            "maker": r.maker,
            "bid": r.bid,
            "totals": [t.to_json() for t in r.totals],
            "sequence_winner": r.sequence_winner,
            "bella": r.bella,
        },
    )


def _klaberjass_spec(name: str, players: int, rules_class: type[Any]) -> HandGameSpec:
    return HandGameSpec(
        name=name,
        players=players,
        sides_of=((0,), (1,)) if players == 2 else ((0, 2), (1, 3)),
        rules_class=rules_class,
        fixed_options={"players": players},
        deal=_klaberjass_deal,
        extra_builders={"exchange_dix": lambda p, n: ExchangeDix(seat_of(p, n))},
        new_hand=lambda rules, deal: KlaberjassHand(rules).apply(deal),
        hand_over=lambda hand: bool(hand.is_over),
        target=lambda rules: int(rules.target),
        row=_klaberjass_row,
        bids=lambda hand: (
            [] if hand.auction is None else [{"seat": s, "bid": c} for s, c in hand.auction.calls]
        ),
    )


KLABERJASS = _klaberjass_spec("klaberjass", 2, KlaberjassRules)
BELOTE = _klaberjass_spec("belote", 4, BeloteRules)
