"""One hand of Evansville Clabber as an immutable state machine fed by events.

The hand knows nothing of the deal but the upcard (unless a known deal is given): it learns
each player's cards as they are played and proves reneges from them (see
:mod:`rules.knowledge`). ``state.apply(event)`` returns a new state; an impossible event
raises an :class:`~rules.errors.IllegalEvent`; a punishable one is recorded as a renege.
The score is :func:`rules.clabber.scoring.hand_result` of a finished state.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

from rules.cards import Card, Suit
from rules.clabber.duties import SUIT_CARDS, bella_cards, play_obligations
from rules.clabber.events import Deal
from rules.clabber.melds import meld_from_cards
from rules.clabber.play import trick_winner
from rules.clabber.ruleset import (
    DECK,
    DECK_SET,
    DEFAULT_RULES,
    HAND_SIZE,
    PASS,
    PLAY,
    SEATS,
    TRICKS,
    ClabberRules,
    team_of,
)
from rules.clabber.values import Claim, Declared, ProvenRenege, RenegeStatus, Trick
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
    Show,
)
from rules.knowledge import MustHold, RenegeEvidence, TableKnowledge

Phase = Literal["deal", "bid1", "bid2", "play", "over"]


@dataclass(frozen=True, slots=True)
class HandState:
    rules: ClabberRules = DEFAULT_RULES
    phase: Phase = "deal"
    dealer: int = -1
    upcard: Card | None = None
    deal: tuple[tuple[Card, ...], ...] | None = None
    bids: tuple[Bid, ...] = ()
    trump: Suit | None = None
    maker: int | None = None
    tricks: tuple[Trick, ...] = ()
    current: tuple[tuple[int, Card], ...] = ()
    knowledge: TableKnowledge = TableKnowledge.new((HAND_SIZE,) * SEATS)
    reneges: tuple[ProvenRenege, ...] = ()
    claims: tuple[Claim, ...] = ()
    declared: tuple[Declared, ...] = ()
    end: Literal["", "complete", "renege", "passed", "misdeal"] = ""
    events: tuple[object, ...] = ()

    # -- queries -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (or the last one when the hand is over)."""
        return min(len(self.tricks) + 1, TRICKS)

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is to bid or play (``None`` before the deal and at the end)."""
        if self.phase in ("bid1", "bid2"):
            in_round = len(self.bids) if self.phase == "bid1" else len(self.bids) - SEATS
            return (self.dealer + 1 + in_round) % SEATS
        if self.phase != "play":
            return None
        if not self.current:
            return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % SEATS
        done = {s for s, _ in self.current}
        seat = (self.current[-1][0] + 1) % SEATS
        while seat in done:
            seat = (seat + 1) % SEATS
        return seat

    @property
    def makers(self) -> int | None:
        return None if self.maker is None else team_of(self.maker)

    @property
    def applied_reneges(self) -> tuple[ProvenRenege, ...]:
        return tuple(r for r in self.reneges if r.counts)

    def played_count(self, seat: int) -> int:
        return len(self.knowledge.played[seat])

    def possible_cards(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may still hold if it has not reneged: what a camera should expect it
        to play (its known cards when its hand is fully known)."""
        return self.knowledge.possible(seat, DECK)

    # -- events --------------------------------------------------------------------------
    def apply(self, event: object) -> HandState:
        """The state after ``event``; raises :class:`IllegalEvent` for an impossible one."""
        if isinstance(event, Correct):
            return self._correct(event)
        if self.phase == "over" and isinstance(event, Show) and self.end == "renege":
            new = self._lay_down(event)
        elif self.phase == "over" and not isinstance(event, ConfirmRenege | DismissRenege):
            raise HandOver(f"{_describe(event)}: the hand is over ({self.end})")
        elif isinstance(event, Play):
            new = self._play(event)
        elif isinstance(event, Bid):
            new = self._bid(event)
        elif isinstance(event, Deal):
            new = self._deal(event)
        elif isinstance(event, Declare | Show):
            new = self._declare_or_show(event)
        elif isinstance(event, Announce):
            new = self._announce(event)
        elif isinstance(event, ClaimRenege):
            new = self._claim(event)
        elif isinstance(event, RefereeRenege):
            self._seat(event.seat, event)
            if self.phase == "deal":
                raise IllegalEvent(f"{_describe(event)}: no hand has been dealt")
            ev = RenegeEvidence(
                event.seat,
                self._renege_trick(),
                event.rule,
                None,
                None,
                None,
                event.note or "ruled by the referee",
            )
            new = self._prove(self, (ev,))
        elif isinstance(event, ConfirmRenege | DismissRenege):
            new = self._referee(event)
        elif isinstance(event, Misdeal):
            if self.phase not in ("bid1", "bid2"):
                raise IllegalEvent(f"{_describe(event)}: a misdeal is called before the first card")
            new = _evolve(self, phase="over", end="misdeal")
        else:
            raise IllegalEvent(f"unknown event {event!r}")
        if new is self:
            return _evolve(self, events=self.events + (event,))
        # ``new`` was built by this call and is not yet shared: completing it is safe
        _set(new, "events", self.events + (event,))
        return new

    def _correct(self, event: Correct) -> HandState:
        if not 0 <= event.index < len(self.events):
            raise IllegalEvent(
                f"correction of event {event.index}: the log has {len(self.events)} events"
            )
        log = list(self.events)
        if event.event is None:
            del log[event.index]
        else:
            log[event.index] = event.event
        return replay(log, self.rules)

    def _seat(self, seat: object, event: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            raise IllegalEvent(
                f"{_describe(event)}: seat {seat!r} does not exist (seats 0..{SEATS - 1})"
            )

    def _renege_trick(self) -> int:
        return 0 if self.phase in ("bid1", "bid2") else self.trick_number

    def _deal(self, event: Deal) -> HandState:
        if self.phase != "deal":
            raise IllegalEvent(f"{_describe(event)}: this hand was already dealt")
        self._seat(event.dealer, event)
        if event.upcard not in DECK_SET:
            raise CardNotInDeck(f"upcard {event.upcard}: Clabber uses 9 10 J Q K A only")
        knowledge = self.knowledge
        if event.hands is not None:
            hands = event.hands
            if len(hands) != SEATS or any(len(h) != HAND_SIZE for h in hands):
                raise IllegalEvent(f"a known deal needs {SEATS} hands of {HAND_SIZE} cards")
            every = [c for h in hands for c in h]
            if set(every) != DECK_SET or len(every) != len(DECK):
                raise IllegalEvent("a known deal must hold each of the 24 cards once")
            if event.upcard not in hands[event.dealer]:
                raise IllegalEvent(f"upcard {event.upcard} is not in the dealer's hand")
            for seat, hand in enumerate(hands):
                knowledge, _ = knowledge.reveal(seat, hand)
        else:
            knowledge, _ = knowledge.reveal(event.dealer, (event.upcard,))
        return replace(
            self,
            phase="bid1",
            dealer=event.dealer,
            upcard=event.upcard,
            deal=event.hands,
            knowledge=knowledge,
        )

    def _bid(self, event: Bid) -> HandState:
        self._seat(event.seat, event)
        if self.phase not in ("bid1", "bid2"):
            raise IllegalEvent(f"{_describe(event)}: the bidding is over (or not begun)")
        if event.seat != self.to_move:
            raise OutOfTurn(f"{_describe(event)}: it is seat {self.to_move}'s turn to bid")
        assert self.upcard is not None
        call = event.call.strip().lower() if isinstance(event.call, str) else ""
        bids = self.bids + (event,)
        if call == PASS:
            if len(bids) == SEATS:
                return _evolve(self, bids=bids, phase="bid2")
            if len(bids) == 2 * SEATS:
                return _evolve(self, bids=bids, phase="over", end="passed")
            return _evolve(self, bids=bids)
        if self.phase == "bid1":
            if call not in (PLAY, self.upcard.suit.value.lower()):
                raise IllegalEvent(f"{_describe(event)}: in round 1 the call is 'play' or 'pass'")
            trump = self.upcard.suit
        else:
            try:
                trump = Suit.parse(call)
            except ValueError:
                raise IllegalEvent(
                    f"{_describe(event)}: in round 2 the call is a suit (S H D C) or 'pass'"
                ) from None
        new = _evolve(self, bids=bids, trump=trump, maker=event.seat, phase="play")
        proven: list[RenegeEvidence] = []
        if self.phase == "bid2" and trump == self.upcard.suit:
            proven.append(
                RenegeEvidence(
                    event.seat, 0, "refused-suit", self.upcard, self.upcard, None,
                    f"seat {event.seat} named {trump.name.lower()}, the suit refused in round 1",
                )
            )  # fmt: skip
        ob = MustHold(
            event.seat, 0, "maker-without-trump", None, SUIT_CARDS[trump], False,
            f"seat {event.seat} made {trump.name.lower()} trump without holding a card of it",
        )  # fmt: skip
        knowledge, found = new.knowledge.expect(ob)
        proven.extend(found)
        return self._prove(_evolve(new, knowledge=knowledge), tuple(proven))

    def _play(self, event: Play) -> HandState:
        self._seat(event.seat, event)
        seat, card = event.seat, event.card
        if self.phase != "play":
            raise IllegalEvent(f"{_describe(event)}: trump has not been made yet")
        if card not in DECK_SET:
            raise CardNotInDeck(f"{_describe(event)}: Clabber uses 9 10 J Q K A only")
        if self.current and seat in [s for s, _ in self.current]:
            raise IllegalEvent(
                f"{_describe(event)}: seat {seat} already played to trick {self.trick_number}"
            )
        if card == self.upcard and seat != self.dealer:
            raise IllegalEvent(
                f"{_describe(event)}: {card} is the upcard, part of the dealer's (seat {self.dealer}) hand"
            )
        number = len(self.tricks) + 1
        trump = self.trump
        assert trump is not None
        knowledge, proven = self.knowledge.play(seat, card, number)
        found = list(proven)
        if seat != self.to_move and (number < TRICKS or self.rules.out_of_turn_last_trick):
            what = "led" if not self.current else "played"
            found.append(
                RenegeEvidence(
                    seat, number, "out-of-turn", card, card, number,
                    f"seat {seat} {what} {card} out of turn (seat {self.to_move} was to play)",
                )
            )  # fmt: skip
        if self.current:
            knowledge, more = play_obligations(
                knowledge, seat, card, number, [c for _, c in self.current], trump
            )
            found.extend(more)
        current = self.current + ((seat, card),)
        tricks = self.tricks
        if len(current) == SEATS:
            cards = tuple(c for _, c in current)
            seats = tuple(s for s, _ in current)
            tricks = tricks + (Trick(number, seats, cards, seats[trick_winner(cards, trump)]),)
            current = ()
        new = _evolve(self, knowledge=knowledge, current=current, tricks=tricks)
        new = new._declared_progress(seat)
        if len(tricks) == TRICKS:
            new = _evolve(new, phase="over", end="complete")
        return self._prove(new, tuple(found))

    def _declared_progress(self, seat: int) -> HandState:
        """A declared meld not shown before the seat's second card no longer scores."""
        if not self.declared or self.played_count(seat) != 2:
            return self
        return replace(
            self,
            declared=tuple(
                replace(d, on_time=False) if d.seat == seat and not d.shown else d
                for d in self.declared
            ),
        )

    def _declare_or_show(self, event: Declare | Show) -> HandState:
        self._seat(event.seat, event)
        if self.phase != "play":
            raise IllegalEvent(f"{_describe(event)}: melds are declared during the first trick")
        seat = event.seat
        cards = tuple(event.cards)
        for c in cards:
            if c not in DECK_SET:
                raise CardNotInDeck(f"{_describe(event)}: {c} is not a Clabber card")
        found: list[RenegeEvidence] = []
        new = self
        if seat != self.to_move:
            rule_word = "declared" if isinstance(event, Declare) else "showed"
            found.append(
                RenegeEvidence(
                    seat, self.trick_number, "meld-out-of-turn", cards[0] if cards else None, None, None,
                    f"seat {seat} {rule_word} a meld out of turn (seat {self.to_move} was to play)",
                )
            )  # fmt: skip
        if isinstance(event, Declare):
            meld = meld_from_cards(cards, self.trump)
            if meld is None:
                raise IllegalEvent(f"{_describe(event)}: {' '.join(map(str, cards))} is not a meld")
            for d in self.declared:
                if (
                    d.seat == seat
                    and meld.kind != "bella"
                    and (set(d.cards) & set(cards)) - bella_cards(self.trump)
                ):
                    raise IllegalEvent(f"{_describe(event)}: a card serves in one meld only")
            on_time = self.played_count(seat) == 0
            new = replace(
                new, declared=new.declared + (Declared(seat, meld.cards, on_time, False),)
            )
            if self.rules.melds == "declared":
                ob = MustHold(
                    seat, self.trick_number, "declared-meld-not-held", cards[0], frozenset(cards), True,
                    f"seat {seat} declared {meld} without holding it",
                )  # fmt: skip
                knowledge, more = new.knowledge.expect(ob)
                new = _evolve(new, knowledge=knowledge)
                found.extend(more)
        else:
            knowledge, more = new.knowledge.reveal(seat, cards, None)
            found.extend(more)
            shown_by = set(knowledge.held[seat]) | set(knowledge.played[seat])
            in_time = self.played_count(seat) <= 1
            declared = tuple(
                replace(d, shown=True)
                if d.seat == seat and in_time and d.on_time and set(d.cards) <= shown_by
                else d
                for d in new.declared
            )
            new = _evolve(new, knowledge=knowledge, declared=declared)
        return self._prove(new, tuple(found))

    def _lay_down(self, event: Show) -> HandState:
        """After a renege ends the hand the players lay their cards down: the cards tell what
        each hand held (the innocent team's melds) but prove nothing more: the hand is over."""
        self._seat(event.seat, event)
        for c in event.cards:
            if c not in DECK_SET:
                raise CardNotInDeck(f"{_describe(event)}: {c} is not a Clabber card")
        knowledge, _ = self.knowledge.reveal(event.seat, tuple(event.cards), None)
        return _evolve(self, knowledge=knowledge)

    def _announce(self, event: Announce) -> HandState:
        self._seat(event.seat, event)
        if self.phase == "deal":
            raise IllegalEvent(f"{_describe(event)}: no hand has been dealt")
        if event.what.strip().lower() != "bella":
            return self
        bella = bella_cards(self.trump)
        seat = event.seat
        if bella and bella <= self.knowledge.played[seat] | self.knowledge.held[seat]:
            return self
        ev = RenegeEvidence(
            seat, self._renege_trick(), "early-bella", None, None, None,
            f"seat {seat} announced bella before playing (or showing) both the K and Q of trump",
        )  # fmt: skip
        return self._prove(self, (ev,))

    def _claim(self, event: ClaimRenege) -> HandState:
        self._seat(event.seat, event)
        self._seat(event.accused, event)
        if self.phase == "deal":
            raise IllegalEvent(f"{_describe(event)}: no hand has been dealt")
        claim = Claim(event.seat, event.accused, self._renege_trick(), event.rule, "open")
        new = _evolve(self, claims=self.claims + (claim,))
        if self.rules.renege_apply == "confirm":
            # calling a proven renege is confirming it
            reneges = tuple(
                replace(r, status="confirmed")
                if r.status == "pending" and r.evidence.seat == event.accused
                else r
                for r in new.reneges
            )
            new = _evolve(new, reneges=reneges)
        return new._finish_claims()._end_on_renege()

    def _referee(self, event: ConfirmRenege | DismissRenege) -> HandState:
        if self.rules.renege_apply != "confirm":
            raise IllegalEvent(f"{_describe(event)}: this ruleset applies proven reneges itself")
        if not 0 <= event.index < len(self.reneges):
            raise IllegalEvent(f"{_describe(event)}: {len(self.reneges)} reneges have been proven")
        status: RenegeStatus = "confirmed" if isinstance(event, ConfirmRenege) else "dismissed"
        reneges = list(self.reneges)
        reneges[event.index] = replace(reneges[event.index], status=status)
        return _evolve(self, reneges=tuple(reneges))._finish_claims()._end_on_renege()

    def _prove(self, new: HandState, found: tuple[RenegeEvidence, ...]) -> HandState:
        if found:
            claimed = {c.accused for c in new.claims if c.status == "open"}
            proven: list[ProvenRenege] = []
            for ev in found:
                if self.rules.renege_apply == "auto":
                    proven.append(ProvenRenege(ev, "applied"))
                else:  # a renege already called by a player's claim stands once proven
                    proven.append(
                        ProvenRenege(ev, "confirmed" if ev.seat in claimed else "pending")
                    )
            new = _evolve(new, reneges=new.reneges + tuple(proven))
        if not found and new.phase != "over":
            return new
        return new._finish_claims()._end_on_renege()

    def _finish_claims(self) -> HandState:
        if not self.claims:
            return self
        claims: list[Claim] = []
        extra: list[ProvenRenege] = []
        for cl in self.claims:
            if cl.status == "open":
                if any(
                    r.evidence.seat == cl.accused and r.status != "dismissed" for r in self.reneges
                ):
                    cl = replace(cl, status="proven")
                elif self.end == "complete":
                    cl = replace(cl, status="failed")
                    ev = RenegeEvidence(
                        cl.seat, cl.trick, "false-claim", None, None, None,
                        f"seat {cl.seat} claimed a renege by seat {cl.accused} that the cards never proved",
                    )  # fmt: skip
                    status: RenegeStatus = (
                        "applied" if self.rules.renege_apply == "auto" else "confirmed"
                    )
                    extra.append(ProvenRenege(ev, status))
                elif self.phase == "over":
                    cl = replace(cl, status="moot")
            claims.append(cl)
        return _evolve(self, claims=tuple(claims), reneges=self.reneges + tuple(extra))

    def _end_on_renege(self) -> HandState:
        if any(r.counts for r in self.reneges) and (self.phase != "over" or self.end == "complete"):
            return _evolve(self, phase="over", end="renege")
        return self


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(HandState))
_new = object.__new__
_set = object.__setattr__


def _evolve(state: HandState, **changes: object) -> HandState:
    """``dataclasses.replace`` without its overhead (the engine's hot path: one per event)."""
    new = _new(HandState)
    for name in _FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _describe(event: object) -> str:
    if isinstance(event, Play):
        return f"play {event.card} by seat {event.seat}"
    if isinstance(event, Bid):
        return f"bid {event.call!r} by seat {event.seat}"
    return repr(event)


def replay(
    events: list[object] | tuple[object, ...], rules: ClabberRules = DEFAULT_RULES
) -> HandState:
    """The state a log of events leads to."""
    state = HandState(rules=rules)
    for event in events:
        state = state.apply(event)
    return state
