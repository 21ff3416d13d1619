"""One hand of Klaberjass (or Belote, or Jass-deux): the shared trick-game hand with the
family's own rules.

``KlaberjassHand(rules).apply(Deal(dealer, upcard))`` starts a hand (``KlaberjassHand.new``
is the shorthand); ``apply(event)`` returns the next state and never mutates; ``replay(log)``
is ``apply`` folded over a log, so a hand *is* its event log. Everything but the family's own
is :class:`rules.trickgame.TrickHand`: hidden hands learnt card by card
(:mod:`rules.knowledge`), the duty rows of :mod:`rules.klaberjass.tables`, reneges proven from
the cards, referee events and corrections. What is the family's own lives here: the trump
candidate and the stock's bottom card, the auction (:mod:`rules.klaberjass.bidding`), the dix
exchange, declared runs, the bella announcement, and a play out of turn refused (an
:class:`~rules.errors.OutOfTurn`) rather than recorded.

rules.md gives this family no renege rule; like Clabber, a proven renege ends the hand
(applied at once, or when a referee confirms it: ``renege_apply``). A ``ClaimRenege`` is
recorded (and in confirm mode confirms a proven renege of the accused); a claim never proved
costs nothing here, since rules.md gives Klaberjass no such rule.

Events: :class:`Deal`, :class:`rules.events.Bid`, :class:`ExchangeDix`,
:class:`rules.events.Play`, :class:`rules.events.Declare` (a run, with
``sequences="declared"``), :class:`rules.events.Announce` (``"bella"``), ``ClaimRenege``,
``RefereeRenege``, ``ConfirmRenege``, ``DismissRenege``, ``Misdeal`` and ``Correct``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rules.cards import Card, Rank, Suit
from rules.errors import IllegalEvent, OutOfTurn
from rules.events import Announce, Bid, ClaimRenege, Declare, Play
from rules.klaberjass.bidding import Auction
from rules.klaberjass.duties import exempt
from rules.klaberjass.events import Deal, ExchangeDix
from rules.klaberjass.melds import Meld, runs
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import TABLES, duties
from rules.knowledge import MustHold, ProvenRenege, RenegeEvidence, TableKnowledge, Trick
from rules.trickgame.duties import DutyTable
from rules.trickgame.hand import HandWords, TrickHand, evolve
from rules.trickgame.log import replay_log

Phase = Literal["deal", "bidding", "play", "over"]
End = Literal["", "complete", "renege", "redeal", "misdeal"]


@dataclass(frozen=True, slots=True)
class KlaberjassHand(TrickHand):
    """The state of one hand; start it with a :class:`Deal` (or :meth:`new`)."""

    TABLES = TABLES
    WORDS = HandWords(
        call="call",
        no_trump="trump is not made yet",
        not_in_deck="not in the 32-card deck (7 to A)",
        correction="{event}: the log holds {count} event(s)",
        proven="{count} renege(s) proven",
        unknown="event {event!r} is not a Klaberjass event",
    )
    BIDDING = frozenset(("bidding",))
    DEAL = Deal
    DEAL_FIRST = True
    REFEREE_STATUS = "confirmed"

    rules: KlaberjassRules = KlaberjassRules()
    phase: Phase = "deal"
    end: End = ""
    dealer: int = -1
    upcard: Card | None = None
    bottom: Card | None = None
    auction: Auction | None = None
    exchange: int | None = None
    tricks: tuple[Trick, ...] = ()
    current: tuple[tuple[int, Card], ...] = ()
    knowledge: TableKnowledge = TableKnowledge.new((9, 9))
    reneges: tuple[ProvenRenege, ...] = ()
    claims: tuple[ClaimRenege, ...] = ()
    declared: tuple[tuple[int, Meld], ...] = ()
    bella_announced: int | None = None
    events: tuple[object, ...] = ()

    @classmethod
    def new(
        cls,
        dealer: int,
        upcard: Card | None,
        rules: KlaberjassRules | None = None,
        *,
        bottom: Card | None = None,
        hands: tuple[tuple[Card, ...], ...] | None = None,
    ) -> KlaberjassHand:
        """The hand after ``Deal(dealer, upcard, bottom, hands)``."""
        return cls(rules or KlaberjassRules()).apply(Deal(dealer, upcard, bottom, hands))

    # ---- what the state knows -------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size

    @property
    def trump(self) -> Suit | None:
        return None if self.auction is None else self.auction.trump

    @property
    def maker(self) -> int | None:
        return None if self.auction is None else self.auction.maker

    @property
    def redeal(self) -> bool:
        """No score and a new deal: passes all round, an agreed schmeiss, a misdeal."""
        return self.end in ("redeal", "misdeal")

    def out_of_play(self) -> dict[Card, str]:
        """Cards known to be in no hand, with the reason: they can never be played."""
        out: dict[Card, str] = {}
        if self.bottom is not None:
            out[self.bottom] = "it is the bottom card of the stock"
        up, trump = self.upcard, self.trump
        if up is None or trump is None or self.rules.maker_takes_candidate:
            return out
        if self.exchange is not None:
            out[Card(Rank.SEVEN, trump)] = f"seat {self.exchange} exchanged it for {up}"
        elif not self._candidate_exchangeable():
            out[up] = "it is the trump candidate, which lies on the table"
        return out

    def _candidate_exchangeable(self) -> bool:
        up, trump = self.upcard, self.trump
        if not self.rules.dix_exchange or self.rules.maker_takes_candidate:
            return False
        if up is None or trump is None or up.suit != trump or self.exchange is not None:
            return False
        dix = Card(Rank.SEVEN, trump)
        return up != dix and self.knowledge.owner(dix) is None

    def runs_of(self, seat: int) -> tuple[Meld, ...]:
        """The runs that count for ``seat``: declared ones, or (auto) those in his cards."""
        if self.rules.sequences == "declared":
            return tuple(m for s, m in self.declared if s == seat)
        return runs(self.knowledge.known(seat))

    # ---- the hooks of the shared hand -------------------------------------------------------

    def _fresh(self) -> KlaberjassHand:
        return KlaberjassHand(self.rules)

    def _bidder(self) -> int | None:
        assert self.auction is not None
        return self.auction.to_call

    def _duties(self) -> DutyTable:
        return duties(self.rules.must_overtrump)

    def _exempt(self, trick: list[Card], trump: Suit) -> bool:
        return exempt(trick, trump, self.rules)

    def _describe(self, event: object) -> str:
        if isinstance(event, Deal):
            return f"deal by seat {event.dealer} (candidate {event.upcard})"
        return TrickHand._describe(self, event)

    def _game_event(self, event: object) -> KlaberjassHand | None:
        if isinstance(event, ExchangeDix):
            return self._exchange(event)
        if isinstance(event, Declare):
            return self._declare(event)
        if isinstance(event, Announce):
            return self._announce(event)
        return None

    def _record_claim(self, event: ClaimRenege) -> KlaberjassHand:
        return evolve(self, claims=(*self.claims, event))

    # ---- the family's own events ------------------------------------------------------------

    def _deal(self, event: Deal) -> KlaberjassHand:
        self._check_deal(event, {"upcard": event.upcard, "bottom": event.bottom})
        rules = self.rules
        if event.upcard is None and rules.variant == "classic":
            raise IllegalEvent(
                f"{self._describe(event)}: classic Klaberjass turns a trump candidate"
            )
        if event.bottom is not None and rules.players == 4:
            raise IllegalEvent(f"{self._describe(event)}: Belote deals every card; no bottom card")
        if event.bottom is not None and event.bottom == event.upcard:
            raise IllegalEvent(f"{self._describe(event)}: the bottom card is the trump candidate")
        knowledge = TableKnowledge.new((rules.hand_size,) * rules.players)
        if event.hands is not None:
            knowledge = self._known_deal(event.hands, whole_deck=False)
            if event.bottom in {c for h in event.hands for c in h}:
                raise IllegalEvent(f"bottom card {event.bottom} is in a hand of the known deal")
        candidate = None if event.upcard is None else event.upcard.suit
        auction = Auction(rules, event.dealer, candidate)
        return self._start(event, "bidding", knowledge, bottom=event.bottom, auction=auction)

    def _bid(self, event: Bid) -> KlaberjassHand:
        self._seat(event.seat, event)
        if self.phase != "bidding" or self.auction is None:
            raise IllegalEvent(f"{self._describe(event)}: the bidding is over")
        auction = self.auction.call(event.seat, event.call)
        new = evolve(self, auction=auction)
        if auction.redeal:
            return evolve(new, phase="over", end="redeal")
        if auction.trump is None:
            return new
        new = evolve(new, phase="play")
        if self.rules.maker_takes_candidate and self.upcard is not None:
            assert auction.maker is not None
            knowledge, found = new.knowledge.reveal(auction.maker, (self.upcard,), None)
            return self._prove(evolve(new, knowledge=knowledge), found)
        return new

    def _exchange(self, event: ExchangeDix) -> KlaberjassHand:
        self._seat(event.seat, event)
        d = self._describe(event)
        if self.phase != "play":
            raise IllegalEvent(f"{d}: the dix is exchanged once trump is made")
        if self.exchange is not None:
            raise IllegalEvent(f"{d}: seat {self.exchange} exchanged already")
        if self.tricks or self.current:
            raise IllegalEvent(f"{d}: the dix is exchanged before the first lead")
        if not self._candidate_exchangeable():
            raise IllegalEvent(
                f"{d}: no exchange (candidate {self.upcard}, trump {self.trump}, "
                f"dix_exchange={self.rules.dix_exchange})"
            )
        assert self.upcard is not None
        knowledge, found = self.knowledge.reveal(event.seat, (self.upcard,), None)
        return self._prove(evolve(self, knowledge=knowledge, exchange=event.seat), found)

    def _declare(self, event: Declare) -> KlaberjassHand:
        self._seat(event.seat, event)
        seat, d = event.seat, self._describe(event)
        if self.rules.sequences != "declared":
            raise IllegalEvent(f"{d}: runs are scored from the cards (auto)")
        if self.phase != "play":
            raise IllegalEvent(f"{d}: runs are declared once trump is made")
        if self.played_by(seat):
            raise IllegalEvent(f"{d}: too late, runs are declared with the first card")
        cards = tuple(event.cards)
        found = runs(cards)
        if len(found) != 1 or len(found[0].cards) != len(set(cards)):
            raise IllegalEvent(f"{d}: not one run of 3 or more cards in a suit")
        run = found[0]
        if any(set(run.cards) & set(m.cards) for s, m in self.declared if s == seat):
            raise IllegalEvent(f"{d}: overlaps a run seat {seat} declared")
        ob = MustHold(
            seat, 0, "declared-run-not-held", None, frozenset(run.cards), True,
            f"seat {seat} declared the run {' '.join(map(str, run.cards))} without holding it",
        )  # fmt: skip
        knowledge, proven = self.knowledge.expect(ob)
        new = evolve(self, knowledge=knowledge, declared=(*self.declared, (seat, run)))
        return self._prove(new, proven)

    def _announce(self, event: Announce) -> KlaberjassHand:
        self._seat(event.seat, event)
        if event.what.strip().lower() != "bella":
            raise IllegalEvent(f"{self._describe(event)}: Klaberjass announces only 'bella'")
        last = self.current[-1] if self.current else None
        if last is None and self.tricks:
            t = self.tricks[-1]
            last = (t.seats[-1], t.cards[-1])
        if last is None or last[0] != event.seat or last[1] not in TABLES.bella(self.trump):
            raise IllegalEvent(
                f"{self._describe(event)}: bella is announced on playing the trump K or Q"
            )
        if self.bella_announced is not None:
            return self
        return evolve(self, bella_announced=event.seat)

    def _before_play(self, event: Play) -> tuple[KlaberjassHand, list[RenegeEvidence]]:
        seat, c = event.seat, event.card
        if seat != self.to_move:
            raise OutOfTurn(f"{self._describe(event)}: it is seat {self.to_move}'s turn")
        gone = self.out_of_play()
        if c in gone:
            raise IllegalEvent(f"{self._describe(event)}: {gone[c]}")
        if c == self.upcard and self._candidate_exchangeable():
            # the candidate in a hand proves its player exchanged the dix before play
            knowledge, more = self.knowledge.reveal(seat, (c,), None)
            return evolve(self, knowledge=knowledge, exchange=seat), list(more)
        return self, []


def replay(events: Iterable[object], rules: KlaberjassRules | None = None) -> KlaberjassHand:
    """The state a log of events leads to (the first event is the :class:`Deal`)."""
    return replay_log(KlaberjassHand(rules or KlaberjassRules()), events)
