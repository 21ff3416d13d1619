"""One hand of Evansville Clabber: the shared trick-game hand with Clabber's own rules.

:class:`HandState` is :class:`rules.trickgame.TrickHand` (the deal, tricks, table knowledge,
renege proof, referee events, corrections) with what only Clabber has: the upcard is the last
card of the dealer's own hand; trump is made in two rounds (``play``/``pass`` on the upcard's
suit, then naming another suit), where making trump without a card of it, or naming the suit
refused in round 1, is a renege; a play out of turn is a renege (recorded, not refused); melds
are declared and shown during the first tricks (``melds = "declared"``); bella is announced;
a renege claimed and never proved is itself a renege. The hand knows nothing of the deal but
the upcard (unless a known deal is given) and learns each player's cards as they are played.
``state.apply(event)`` returns a new state; an impossible event raises an
:class:`~rules.errors.IllegalEvent`. The score is :func:`rules.clabber.scoring.hand_result`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rules.cards import Card, Suit
from rules.clabber.duties import DUTIES
from rules.clabber.events import Deal
from rules.clabber.melds import meld_from_cards
from rules.clabber.ruleset import (
    DEFAULT_RULES,
    HAND_SIZE,
    PASS,
    PLAY,
    SEATS,
    TABLES,
    TRICKS,
    ClabberRules,
    team_of,
)
from rules.clabber.values import Claim, Declared, ProvenRenege, RenegeStatus, Trick
from rules.errors import CardNotInDeck, IllegalEvent, OutOfTurn
from rules.events import Announce, Bid, ClaimRenege, Declare, Play, Show
from rules.knowledge import MustHold, RenegeEvidence, TableKnowledge
from rules.trickgame.duties import DutyTable
from rules.trickgame.hand import HandWords, TrickHand, evolve
from rules.trickgame.log import replay_log

Phase = Literal["deal", "bid1", "bid2", "play", "over"]


@dataclass(frozen=True, slots=True)
class HandState(TrickHand):
    TABLES = TABLES
    WORDS = HandWords(not_in_deck="Clabber uses 9 10 J Q K A only")
    BIDDING = frozenset(("bid1", "bid2"))
    DEAL = Deal

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

    # -- the tables and hooks of the shared hand ----------------------------------------
    players = SEATS
    hand_size = TRICKS

    @property
    def makers(self) -> int | None:
        return None if self.maker is None else team_of(self.maker)

    def _fresh(self) -> HandState:
        return HandState(rules=self.rules)

    def _duties(self) -> DutyTable:
        return DUTIES

    def _bidder(self) -> int:
        in_round = len(self.bids) if self.phase == "bid1" else len(self.bids) - SEATS
        return (self.dealer + 1 + in_round) % SEATS

    def _game_event(self, event: object) -> HandState | None:
        if isinstance(event, Declare | Show):
            return self._declare_or_show(event)
        if isinstance(event, Announce):
            return self._announce(event)
        return None

    def _after_end(self, event: object) -> HandState | None:
        if isinstance(event, Show) and self.end == "renege":
            return self._lay_down(event)
        return None

    # -- the deal and the bidding -------------------------------------------------------
    def _deal(self, event: Deal) -> HandState:
        self._check_deal(event, {"upcard": event.upcard})
        knowledge = self.knowledge
        if event.hands is not None:
            knowledge = self._known_deal(event.hands, whole_deck=True)
            if event.upcard not in event.hands[event.dealer]:
                raise IllegalEvent(f"upcard {event.upcard} is not in the dealer's hand")
        else:
            knowledge, _ = knowledge.reveal(event.dealer, (event.upcard,))
        return self._start(event, "bid1", knowledge, deal=event.hands)

    def _bid(self, event: Bid) -> HandState:
        self._seat(event.seat, event)
        if self.phase not in ("bid1", "bid2"):
            raise IllegalEvent(f"{self._describe(event)}: the bidding is over (or not begun)")
        if event.seat != self.to_move:
            raise OutOfTurn(f"{self._describe(event)}: it is seat {self.to_move}'s turn to bid")
        assert self.upcard is not None
        call = event.call.strip().lower() if isinstance(event.call, str) else ""
        bids = self.bids + (event,)
        if call == PASS:
            if len(bids) == SEATS:
                return evolve(self, bids=bids, phase="bid2")
            if len(bids) == 2 * SEATS:
                return evolve(self, bids=bids, phase="over", end="passed")
            return evolve(self, bids=bids)
        if self.phase == "bid1":
            if call not in (PLAY, self.upcard.suit.value.lower()):
                raise IllegalEvent(
                    f"{self._describe(event)}: in round 1 the call is 'play' or 'pass'"
                )
            trump = self.upcard.suit
        else:
            try:
                trump = Suit.parse(call)
            except ValueError:
                raise IllegalEvent(
                    f"{self._describe(event)}: in round 2 the call is a suit (S H D C) or 'pass'"
                ) from None
        new = evolve(self, bids=bids, trump=trump, maker=event.seat, phase="play")
        proven: list[RenegeEvidence] = []
        if self.phase == "bid2" and trump == self.upcard.suit:
            proven.append(
                RenegeEvidence(
                    event.seat, 0, "refused-suit", self.upcard, self.upcard, None,
                    f"seat {event.seat} named {trump.name.lower()}, the suit refused in round 1",
                )
            )  # fmt: skip
        ob = MustHold(
            event.seat, 0, "maker-without-trump", None, TABLES.suit_cards[trump], False,
            f"seat {event.seat} made {trump.name.lower()} trump without holding a card of it",
        )  # fmt: skip
        knowledge, found = new.knowledge.expect(ob)
        proven.extend(found)
        return self._prove(evolve(new, knowledge=knowledge), tuple(proven))

    # -- play: the checks and reneges of Clabber's own ------------------------------------
    def _before_play(self, event: Play) -> tuple[HandState, list[RenegeEvidence]]:
        seat, card = event.seat, event.card
        if self.current and seat in [s for s, _ in self.current]:
            raise IllegalEvent(
                f"{self._describe(event)}: seat {seat} already played to trick {self.trick_number}"
            )
        if card == self.upcard and seat != self.dealer:
            raise IllegalEvent(
                f"{self._describe(event)}: {card} is the upcard, part of the dealer's (seat {self.dealer}) hand"
            )
        return self, []

    def _turn_reneges(self, seat: int, card: Card, number: int) -> list[RenegeEvidence]:
        if seat == self.to_move or (number >= TRICKS and not self.rules.out_of_turn_last_trick):
            return []
        what = "led" if not self.current else "played"
        return [
            RenegeEvidence(
                seat, number, "out-of-turn", card, card, number,
                f"seat {seat} {what} {card} out of turn (seat {self.to_move} was to play)",
            )
        ]  # fmt: skip

    def _after_play(self, seat: int) -> HandState:
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

    # -- melds and bella -----------------------------------------------------------------
    def _declare_or_show(self, event: Declare | Show) -> HandState:
        self._seat(event.seat, event)
        if self.phase != "play":
            raise IllegalEvent(
                f"{self._describe(event)}: melds are declared during the first trick"
            )
        seat = event.seat
        cards = tuple(event.cards)
        for c in cards:
            if c not in TABLES.deck_set:
                raise CardNotInDeck(f"{self._describe(event)}: {c} is not a Clabber card")
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
                raise IllegalEvent(
                    f"{self._describe(event)}: {' '.join(map(str, cards))} is not a meld"
                )
            for d in self.declared:
                if (
                    d.seat == seat
                    and meld.kind != "bella"
                    and (set(d.cards) & set(cards)) - TABLES.bella(self.trump)
                ):
                    raise IllegalEvent(f"{self._describe(event)}: a card serves in one meld only")
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
                new = evolve(new, knowledge=knowledge)
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
            new = evolve(new, knowledge=knowledge, declared=declared)
        return self._prove(new, tuple(found))

    def _lay_down(self, event: Show) -> HandState:
        """After a renege ends the hand the players lay their cards down: the cards tell what
        each hand held (the innocent team's melds) but prove nothing more: the hand is over."""
        self._seat(event.seat, event)
        for c in event.cards:
            if c not in TABLES.deck_set:
                raise CardNotInDeck(f"{self._describe(event)}: {c} is not a Clabber card")
        knowledge, _ = self.knowledge.reveal(event.seat, tuple(event.cards), None)
        return evolve(self, knowledge=knowledge)

    def _announce(self, event: Announce) -> HandState:
        self._seat(event.seat, event)
        self._require_deal(event)
        if event.what.strip().lower() != "bella":
            return self
        bella = TABLES.bella(self.trump)
        seat = event.seat
        if bella and bella <= self.knowledge.played[seat] | self.knowledge.held[seat]:
            return self
        ev = RenegeEvidence(
            seat, self._renege_trick(), "early-bella", None, None, None,
            f"seat {seat} announced bella before playing (or showing) both the K and Q of trump",
        )  # fmt: skip
        return self._prove(self, (ev,))

    # -- claims: a renege claimed and never proved is the claimant's renege ----------------
    def _record_claim(self, event: ClaimRenege) -> HandState:
        claim = Claim(event.seat, event.accused, self._renege_trick(), event.rule, "open")
        return evolve(self, claims=self.claims + (claim,))

    def _new_status(self, new: HandState, evidence: RenegeEvidence) -> RenegeStatus:
        if self.rules.renege_apply == "auto":
            return "applied"
        # a renege already called by a player's claim stands once proven
        claimed = any(c.accused == evidence.seat and c.status == "open" for c in new.claims)
        return "confirmed" if claimed else "pending"

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
        return evolve(self, claims=tuple(claims), reneges=self.reneges + tuple(extra))


def replay(
    events: list[object] | tuple[object, ...], rules: ClabberRules = DEFAULT_RULES
) -> HandState:
    """The state a log of events leads to."""
    return replay_log(HandState(rules=rules), events)
