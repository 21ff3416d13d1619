"""One hand of Klaberjass (or Belote, or Jass-deux) as an immutable state fed by events.

``KlaberjassHand(rules).apply(Deal(dealer, upcard))`` starts a hand (``KlaberjassHand.new``
is the shorthand); ``apply(event)`` returns the next state and never mutates; ``replay(log)``
is ``apply`` folded over a log, so a hand *is* its event log. Hands are hidden: the engine
learns each player's cards as they are played (:mod:`rules.knowledge`). An impossible event
(out of turn, a card played twice, a card lying on the stock) raises a
:class:`rules.errors.RulesError` that quotes it; a renege is recorded as an open obligation
and proven from the cards. rules.md gives this family no renege rule; like Clabber, a proven
renege ends the hand (applied at once, or when a referee confirms it: ``renege_apply``). A
``ClaimRenege`` is recorded (and in confirm mode confirms a proven renege of the accused); a
claim never proved costs nothing here, since rules.md gives Klaberjass no such rule.

Events: :class:`Deal`, :class:`rules.events.Bid` (:mod:`rules.klaberjass.bidding`),
:class:`ExchangeDix`, :class:`rules.events.Play`, :class:`rules.events.Declare` (a run, with
``sequences="declared"``), :class:`rules.events.Announce` (``"bella"``), ``ClaimRenege``,
``RefereeRenege``, ``ConfirmRenege``, ``DismissRenege``, ``Misdeal`` and ``Correct``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from rules.cards import Card, Rank, Suit
from rules.errors import CardNotInDeck, HandOver, IllegalEvent, OutOfTurn
from rules.events import (
    Announce,
    Bid,
    ClaimRenege,
    ConfirmRenege,
    Correct,
    Declare,
    DismissRenege,
    Misdeal,
    Play,
    RefereeRenege,
)
from rules.klaberjass.bidding import Auction
from rules.klaberjass.duties import play_obligations
from rules.klaberjass.events import Deal, ExchangeDix
from rules.klaberjass.melds import Meld, runs
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import DECK, DECK_SET, trick_winner
from rules.knowledge import (
    MustHold,
    ProvenRenege,
    RenegeEvidence,
    RenegeStatus,
    TableKnowledge,
    Trick,
)

Phase = Literal["deal", "bidding", "play", "over"]
End = Literal["", "complete", "renege", "redeal", "misdeal"]


@dataclass(frozen=True, slots=True)
class KlaberjassHand:
    """The state of one hand; start it with a :class:`Deal` (or :meth:`new`)."""

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
    def trump(self) -> Suit | None:
        return None if self.auction is None else self.auction.trump

    @property
    def maker(self) -> int | None:
        return None if self.auction is None else self.auction.maker

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def redeal(self) -> bool:
        """No score and a new deal: passes all round, an agreed schmeiss, a misdeal."""
        return self.end in ("redeal", "misdeal")

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (the last one once the hand is over)."""
        return min(len(self.tricks) + 1, self.rules.hand_size)

    @property
    def to_move(self) -> int | None:
        """The seat to call or play next (``None`` before the deal and at the end)."""
        if self.phase == "bidding":
            assert self.auction is not None
            return self.auction.to_call
        if self.phase != "play":
            return None
        if not self.current:
            return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % self.players
        return (self.current[-1][0] + 1) % self.players

    def played_by(self, seat: int) -> frozenset[Card]:
        return self.knowledge.played[seat]

    def held_known(self, seat: int) -> frozenset[Card]:
        """Cards known to be in ``seat``'s hand and not yet played (the candidate he took)."""
        return self.knowledge.held[seat]

    def possible_cards(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may still play if he plays lawfully: unseen, not on the stock or
        the table, not known elsewhere, and not of a suit his plays showed him out of. What
        the camera's decoder weighs the classifier's guesses with."""
        gone = self.out_of_play()
        return frozenset(c for c in self.knowledge.possible(seat, DECK) if c not in gone)

    def all_played(self) -> tuple[Card, ...]:
        return tuple(c for t in self.tricks for c in t.cards) + tuple(c for _, c in self.current)

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

    @property
    def applied_reneges(self) -> tuple[ProvenRenege, ...]:
        return tuple(r for r in self.reneges if r.counts)

    # ---- events -------------------------------------------------------------------------

    def apply(self, event: object) -> KlaberjassHand:
        """The state after ``event``; raises a ``RulesError`` quoting an impossible event."""
        if isinstance(event, Correct):
            if not 0 <= event.index < len(self.events):
                raise IllegalEvent(f"{event}: the log holds {len(self.events)} event(s)")
            log = list(self.events)
            if event.event is None:
                del log[event.index]
            else:
                log[event.index] = event.event
            return replay(log, self.rules)
        if self.phase == "over" and not isinstance(event, ConfirmRenege | DismissRenege):
            raise HandOver(f"{_describe(event)}: the hand is over ({self.end})")
        if self.phase == "deal" and not isinstance(event, Deal):
            raise IllegalEvent(f"{_describe(event)}: no hand has been dealt")
        if isinstance(event, Play):
            new = self._play(event)
        elif isinstance(event, Bid):
            new = self._bid(event)
        elif isinstance(event, Deal):
            new = self._deal(event)
        elif isinstance(event, ExchangeDix):
            new = self._exchange(event)
        elif isinstance(event, Declare):
            new = self._declare(event)
        elif isinstance(event, Announce):
            new = self._announce(event)
        elif isinstance(event, ClaimRenege):
            new = self._claim(event)
        elif isinstance(event, RefereeRenege):
            self._seat(event.seat, event)
            ev = RenegeEvidence(
                event.seat, self._renege_trick(), event.rule, None, None, None,
                event.note or "ruled by the referee",
            )  # fmt: skip
            new = self._prove(self, (ev,), status="confirmed")
        elif isinstance(event, ConfirmRenege | DismissRenege):
            new = self._referee(event)
        elif isinstance(event, Misdeal):
            if self.phase != "bidding":
                raise IllegalEvent(f"{_describe(event)}: a misdeal is called before the first card")
            new = replace(self, phase="over", end="misdeal")
        else:
            raise IllegalEvent(f"event {event!r} is not a Klaberjass event")
        return replace(new, events=(*self.events, event))

    def _seat(self, seat: object, event: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalEvent(
                f"{_describe(event)}: seat {seat!r} does not exist (seats 0..{self.players - 1})"
            )

    def _renege_trick(self) -> int:
        return 0 if self.phase == "bidding" else self.trick_number

    def _deal(self, event: Deal) -> KlaberjassHand:
        if self.phase != "deal":
            raise IllegalEvent(f"{_describe(event)}: this hand was already dealt")
        self._seat(event.dealer, event)
        rules = self.rules
        for name, c in (("upcard", event.upcard), ("bottom", event.bottom)):
            if c is not None and c not in DECK_SET:
                raise CardNotInDeck(f"{name} {c}: not in the 32-card deck (7 to A)")
        if event.upcard is None and rules.variant == "classic":
            raise IllegalEvent(f"{_describe(event)}: classic Klaberjass turns a trump candidate")
        if event.bottom is not None and rules.players == 4:
            raise IllegalEvent(f"{_describe(event)}: Belote deals every card; no bottom card")
        if event.bottom is not None and event.bottom == event.upcard:
            raise IllegalEvent(f"{_describe(event)}: the bottom card is the trump candidate")
        knowledge = TableKnowledge.new((rules.hand_size,) * rules.players)
        if event.hands is not None:
            hands = event.hands
            every = [c for h in hands for c in h]
            if len(hands) != rules.players or any(len(h) != rules.hand_size for h in hands):
                raise IllegalEvent(
                    f"a known deal needs {rules.players} hands of {rules.hand_size} cards"
                )
            if len(set(every)) != len(every) or not set(every) <= DECK_SET:
                raise IllegalEvent("a known deal holds distinct cards of the 32-card deck")
            if event.bottom in set(every):
                raise IllegalEvent(f"bottom card {event.bottom} is in a hand of the known deal")
            for seat, hand in enumerate(hands):
                knowledge, _ = knowledge.reveal(seat, hand)
        candidate = None if event.upcard is None else event.upcard.suit
        return replace(
            self,
            phase="bidding",
            dealer=event.dealer,
            upcard=event.upcard,
            bottom=event.bottom,
            auction=Auction(rules, event.dealer, candidate),
            knowledge=knowledge,
        )

    def _bid(self, event: Bid) -> KlaberjassHand:
        self._seat(event.seat, event)
        if self.phase != "bidding" or self.auction is None:
            raise IllegalEvent(f"{_describe(event)}: the bidding is over")
        auction = self.auction.call(event.seat, event.call)
        new = replace(self, auction=auction)
        if auction.redeal:
            return replace(new, phase="over", end="redeal")
        if auction.trump is None:
            return new
        new = replace(new, phase="play")
        if self.rules.maker_takes_candidate and self.upcard is not None:
            assert auction.maker is not None
            knowledge, found = new.knowledge.reveal(auction.maker, (self.upcard,), None)
            return self._prove(replace(new, knowledge=knowledge), found)
        return new

    def _exchange(self, event: ExchangeDix) -> KlaberjassHand:
        self._seat(event.seat, event)
        if self.phase != "play":
            raise IllegalEvent(f"{_describe(event)}: the dix is exchanged once trump is made")
        if self.exchange is not None:
            raise IllegalEvent(f"{_describe(event)}: seat {self.exchange} exchanged already")
        if self.tricks or self.current:
            raise IllegalEvent(f"{_describe(event)}: the dix is exchanged before the first lead")
        if not self._candidate_exchangeable():
            raise IllegalEvent(
                f"{_describe(event)}: no exchange (candidate {self.upcard}, trump {self.trump}, "
                f"dix_exchange={self.rules.dix_exchange})"
            )
        assert self.upcard is not None
        knowledge, found = self.knowledge.reveal(event.seat, (self.upcard,), None)
        return self._prove(replace(self, knowledge=knowledge, exchange=event.seat), found)

    def _declare(self, event: Declare) -> KlaberjassHand:
        self._seat(event.seat, event)
        seat = event.seat
        if self.rules.sequences != "declared":
            raise IllegalEvent(f"{_describe(event)}: runs are scored from the cards (auto)")
        if self.phase != "play":
            raise IllegalEvent(f"{_describe(event)}: runs are declared once trump is made")
        if self.played_by(seat):
            raise IllegalEvent(
                f"{_describe(event)}: too late, runs are declared with the first card"
            )
        cards = tuple(event.cards)
        found = runs(cards)
        if len(found) != 1 or len(found[0].cards) != len(set(cards)):
            raise IllegalEvent(f"{_describe(event)}: not one run of 3 or more cards in a suit")
        run = found[0]
        if any(set(run.cards) & set(m.cards) for s, m in self.declared if s == seat):
            raise IllegalEvent(f"{_describe(event)}: overlaps a run seat {seat} declared")
        ob = MustHold(
            seat, 0, "declared-run-not-held", None, frozenset(run.cards), True,
            f"seat {seat} declared the run {' '.join(map(str, run.cards))} without holding it",
        )  # fmt: skip
        knowledge, proven = self.knowledge.expect(ob)
        new = replace(self, knowledge=knowledge, declared=(*self.declared, (seat, run)))
        return self._prove(new, proven)

    def _announce(self, event: Announce) -> KlaberjassHand:
        self._seat(event.seat, event)
        if event.what.strip().lower() != "bella":
            raise IllegalEvent(f"{_describe(event)}: Klaberjass announces only 'bella'")
        trump = self.trump
        last = self.current[-1] if self.current else None
        if last is None and self.tricks:
            t = self.tricks[-1]
            last = (t.seats[-1], t.cards[-1])
        bella = (Card(Rank.KING, trump), Card(Rank.QUEEN, trump)) if trump else ()
        if last is None or last[0] != event.seat or last[1] not in bella:
            raise IllegalEvent(
                f"{_describe(event)}: bella is announced on playing the trump K or Q"
            )
        if self.bella_announced is not None:
            return self
        return replace(self, bella_announced=event.seat)

    def _claim(self, event: ClaimRenege) -> KlaberjassHand:
        self._seat(event.seat, event)
        self._seat(event.accused, event)
        new = replace(self, claims=(*self.claims, event))
        if self.rules.renege_apply == "confirm":  # calling a proven renege confirms it
            reneges = tuple(
                replace(r, status="confirmed")
                if r.status == "pending" and r.seat == event.accused
                else r
                for r in new.reneges
            )
            new = replace(new, reneges=reneges)
        return new._end_on_renege()

    def _referee(self, event: ConfirmRenege | DismissRenege) -> KlaberjassHand:
        if self.rules.renege_apply != "confirm":
            raise IllegalEvent(f"{_describe(event)}: this ruleset applies proven reneges itself")
        if not 0 <= event.index < len(self.reneges):
            raise IllegalEvent(f"{_describe(event)}: {len(self.reneges)} renege(s) proven")
        status: RenegeStatus = "confirmed" if isinstance(event, ConfirmRenege) else "dismissed"
        reneges = list(self.reneges)
        reneges[event.index] = replace(reneges[event.index], status=status)
        return replace(self, reneges=tuple(reneges))._end_on_renege()

    def _play(self, event: Play) -> KlaberjassHand:
        self._seat(event.seat, event)
        seat, c = event.seat, event.card
        if self.phase != "play":
            raise IllegalEvent(f"{_describe(event)}: trump is not made yet")
        if c not in DECK_SET:
            raise CardNotInDeck(f"{_describe(event)}: not in the 32-card deck (7 to A)")
        if seat != self.to_move:
            raise OutOfTurn(f"{_describe(event)}: it is seat {self.to_move}'s turn")
        gone = self.out_of_play()
        if c in gone:
            raise IllegalEvent(f"{_describe(event)}: {gone[c]}")
        state = self
        found: list[RenegeEvidence] = []
        if c == self.upcard and self._candidate_exchangeable():
            # the candidate in a hand proves its player exchanged the dix before play
            knowledge, more = self.knowledge.reveal(seat, (c,), None)
            state = replace(self, knowledge=knowledge, exchange=seat)
            found.extend(more)
        number = len(self.tricks) + 1
        trump = self.trump
        assert trump is not None
        knowledge, more = state.knowledge.play(seat, c, number)
        found.extend(more)
        if self.current:
            trick = [x for _, x in self.current]
            knowledge, obliged = play_obligations(
                knowledge, seat, c, number, trick, trump, self.rules
            )
            found.extend(obliged)
        current = (*self.current, (seat, c))
        tricks = self.tricks
        if len(current) == self.players:
            cards = tuple(x for _, x in current)
            seats = tuple(s for s, _ in current)
            tricks = (*tricks, Trick(number, seats, cards, seats[trick_winner(cards, trump)]))
            current = ()
        new = replace(state, knowledge=knowledge, current=current, tricks=tricks)
        if len(tricks) == self.rules.hand_size:
            new = replace(new, phase="over", end="complete")
        return self._prove(new, tuple(found))

    def _prove(
        self,
        new: KlaberjassHand,
        found: Iterable[RenegeEvidence],
        status: RenegeStatus | None = None,
    ) -> KlaberjassHand:
        proven = tuple(found)
        if proven:
            if status is None:
                status = "applied" if self.rules.renege_apply == "auto" else "pending"
            added = tuple(ProvenRenege(ev, status) for ev in proven)
            new = replace(new, reneges=new.reneges + added)
        return new._end_on_renege()

    def _end_on_renege(self) -> KlaberjassHand:
        if any(r.counts for r in self.reneges) and self.end in ("", "complete"):
            return replace(self, phase="over", end="renege")
        return self


def _describe(event: object) -> str:
    if isinstance(event, Play):
        return f"play {event.card} by seat {event.seat}"
    if isinstance(event, Bid):
        return f"call {event.call!r} by seat {event.seat}"
    if isinstance(event, Deal):
        return f"deal by seat {event.dealer} (candidate {event.upcard})"
    return repr(event)


def replay(events: Iterable[object], rules: KlaberjassRules | None = None) -> KlaberjassHand:
    """The state a log of events leads to (the first event is the :class:`Deal`)."""
    state = KlaberjassHand(rules or KlaberjassRules())
    for event in events:
        state = state.apply(event)
    return state
