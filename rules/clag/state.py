"""One Clag round as an immutable state machine: ``state.apply(event)`` returns a new state.

The order of events depends on the round (:func:`steps_of`): normally the deal, the turned
trump, the contracts from the dealer's left, then the play; round 8 has no trump, rounds 9
and 15 no contracts, round 10 turns trump after the contracts, round 11 takes the contracts
before the deal, round 14 has the dealer choose trump. An impossible event raises a
``RulesError`` that quotes it. A failure to follow suit is not refused: it opens an
obligation in :class:`~rules.knowledge.TableKnowledge`, which proves the renege as soon as
the cards do (the player later shows a card of the led suit, or his dealt hand held one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.cards import DECK_52, Card, Rank, Suit
from rules.clag import tricks as T
from rules.clag.contracts import check_contract, legal_contracts
from rules.clag.errors import ClagEventError, WildTwoError
from rules.clag.events import (
    Bid,
    ChooseTrump,
    ConfirmRenege,
    Contract,
    Correct,
    Deal,
    DismissRenege,
    Event,
    Log,
    NameWild,
    Play,
    RefereeEvent,
    TurnTrump,
    corrected_log,
)
from rules.clag.ruleset import DEFAULT_RULESET, ClagRuleset
from rules.clag.schedule import (
    HAND_SIZES,
    WILD_TWOS_ROUND,
    ZERO_CONTRACT_ROUND,
    check_players,
    check_round,
    hand_size,
    phase_of,
    steps_of,
)
from rules.clag.scoring import round_scores
from rules.errors import CardAlreadyPlayed, HandOver, IllegalEvent, OutOfTurn
from rules.knowledge import MustNotHold, RenegeEvidence, TableKnowledge

__all__ = ["RoundResult", "RoundState", "steps_of"]

FOLLOW_SUIT = "follow suit"
NAME_LED_SUIT = "a wild two names the led suit"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: contracts (``None`` where the round has none), tricks, score."""

    contracts: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    completed: tuple[bool, ...]
    score: tuple[int, ...]
    reneges: tuple[RenegeEvidence, ...]


@dataclass(frozen=True)
class RoundState:
    """Where a round stands. Build with :meth:`start`, advance with :meth:`apply`.

    Frozen; each event builds exactly one new state, by copying the instance dictionary (a
    C-level copy: the reason this class has no ``__slots__``) and changing what the event
    changes. The previous state is never touched.
    """

    players: int
    round_no: int
    dealer: int
    ruleset: ClagRuleset
    knowledge: TableKnowledge
    contracts: tuple[int | None, ...]
    leaders: tuple[int, ...]
    step: int = 0
    hands_known: bool = False
    trump_card: Card | None = None
    trump: Suit | None = None
    stated: int = 0
    tricks: tuple[tuple[T.Entry, ...], ...] = ()
    current: tuple[T.Entry, ...] = ()
    unnamed: Card | None = None
    reneges: tuple[RenegeEvidence, ...] = ()
    confirmed: frozenset[int] = frozenset()
    dismissed: frozenset[int] = frozenset()
    log: tuple[Event | RefereeEvent, ...] = ()
    phase: str = field(init=False)
    """``deal``, ``trump``, ``choose``, ``contracts``, ``play``, ``name`` (a two awaits its
    name) or ``done``: derived from ``step`` and ``unnamed``, kept because every event and
    every question asks for it."""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "phase", phase_of(self.round_no, self.step, self.unnamed is not None)
        )

    @classmethod
    def start(
        cls, players: int, round_no: int, dealer: int, ruleset: ClagRuleset = DEFAULT_RULESET
    ) -> RoundState:
        check_players(players)
        check_round(round_no)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ClagEventError(f"dealer {dealer!r} is not a seat 0..{players - 1}")
        fixed = 0 if round_no == ZERO_CONTRACT_ROUND else None
        return cls(
            players,
            round_no,
            dealer,
            ruleset,
            TableKnowledge.new((hand_size(round_no),) * players),
            contracts=(fixed,) * players,
            leaders=((dealer + 1) % players,),
        )

    @classmethod
    def replay(
        cls,
        players: int,
        round_no: int,
        dealer: int,
        events: Iterable[Event | RefereeEvent | Correct],
        ruleset: ClagRuleset = DEFAULT_RULESET,
    ) -> RoundState:
        state = cls.start(players, round_no, dealer, ruleset)
        for event in events:
            state = state.apply(event)
        return state

    # -- where we are ---------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return HAND_SIZES[self.round_no]

    @property
    def to_act(self) -> int | None:
        """The seat expected to act next (``None`` when nobody in particular is)."""
        return self._seat_for(self.phase)

    def _seat_for(self, phase: str) -> int | None:
        if phase == "play" or phase == "name":
            return (self.leaders[-1] + len(self.current)) % self.players
        if phase == "contracts":
            return (self.dealer + 1 + self.stated) % self.players
        if phase == "choose":
            return self.dealer
        return None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        won = [0] * self.players
        for winner in self.winners():
            won[winner] += 1
        return tuple(won)

    def winners(self) -> tuple[int, ...]:
        """The seat that won each finished trick."""
        return self.leaders[1 : len(self.tricks) + 1]

    def hand(self, seat: int) -> frozenset[Card] | None:
        """The cards ``seat`` still holds, when the deal gave the hands."""
        return self.knowledge.held[seat] if self.hands_known else None

    def legal_contracts(self) -> tuple[int, ...]:
        seat = self._expect("contracts", None)
        return legal_contracts(
            self.hand_size,
            [c for c in self.contracts if c is not None],
            is_dealer=seat == self.dealer,
            dealer_rule=self.ruleset.dealer_rule,
        )

    def legal_plays(self) -> frozenset[Card]:
        """The cards the player to act may play; needs the hands (a :class:`Deal` with them)."""
        seat = self._expect("play", None)
        if not self.hands_known:
            raise ClagEventError("legal plays need the hands: the deal did not give them")
        return T.playable(self.knowledge.held[seat], self._led(), self.round_no)

    def _led(self) -> Suit | None:
        """The suit led to the trick in progress (``None`` before its first card)."""
        if not self.current:
            return None
        first = self.current[0]
        return first.named.suit if isinstance(first, T.WildTwo) else first.suit

    def legal_names(self) -> frozenset[Card]:
        """What the two just played may name (needs the hands, else any card not taken)."""
        seat = self._expect("name", None)
        hand = self.hand(seat) or frozenset()
        return T.legal_names(hand, self.current)

    def possible_cards(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may still hold (reneges aside): his known hand, else every unseen
        card outside what his failures to follow showed he lacks."""
        return self.knowledge.possible(seat, _DECK_WITHOUT[self.trump_card])

    def applied_reneges(self) -> tuple[RenegeEvidence, ...]:
        """The proven reneges that count, under ``apply_reneges`` and the referee's events."""
        auto = self.ruleset.apply_reneges == "auto"
        return tuple(
            r
            for i, r in enumerate(self.reneges)
            if (auto and i not in self.dismissed) or (not auto and i in self.confirmed)
        )

    def result(self) -> RoundResult:
        if self.phase != "done":
            raise ClagEventError(f"round {self.round_no} is not over: phase {self.phase}")
        won = self.tricks_won
        reneged = {r.seat for r in self.applied_reneges()}
        score, completed = round_scores(self.round_no, self.contracts, won, reneged, self.ruleset)
        return RoundResult(self.contracts, won, completed, score, self.reneges)

    # -- events ---------------------------------------------------------------------------

    def _evolve(self, **changes: object) -> RoundState:
        """A new state: this one with ``changes`` (``dataclasses.replace`` without its
        per-call checks; ``changes`` are this module's own field names)."""
        new = _new(RoundState)
        fields_of = new.__dict__
        fields_of.update(self.__dict__)
        fields_of.update(changes)
        if "step" in changes or "unnamed" in changes:
            fields_of["phase"] = phase_of(self.round_no, new.step, new.unnamed is not None)
        return new

    def apply(self, event: Event | RefereeEvent | Correct) -> RoundState:
        """The state after ``event``; an impossible event raises a ``RulesError`` quoting it.
        A :class:`Correct` gives the replay of the corrected log (the correction itself is not
        logged); if the corrected log is impossible, the replay's error is raised."""
        if isinstance(event, Correct):
            log = corrected_log(self.log, event)
            return RoundState.replay(self.players, self.round_no, self.dealer, log, self.ruleset)
        log = self.log + (event,)
        if isinstance(event, Play):
            return self._play(event, log)
        if isinstance(event, ConfirmRenege | DismissRenege):
            return self._referee(event, log)
        if self.phase == "done":
            raise HandOver(f"{event!r}: round {self.round_no} is over")
        if isinstance(event, NameWild):
            return self._name(event, log)
        if isinstance(event, Contract | Bid):
            return self._contract(event, log)
        if isinstance(event, Deal):
            return self._deal(event, log)
        if isinstance(event, TurnTrump):
            return self._turn(event, log)
        if isinstance(event, ChooseTrump):
            return self._choose(event, log)
        raise ClagEventError(f"{event!r} is not a Clag event")

    def _expect(self, phase: str, event: object | None) -> int:
        """The seat to act, if the round is in ``phase`` (-1 where no seat is expected)."""
        now = self.phase
        if now != phase:
            if now == "done" and event is not None:
                raise HandOver(f"{event!r}: round {self.round_no} is over")
            what = repr(event) if event is not None else phase
            raise ClagEventError(
                f"{what}: round {self.round_no} is in phase {now!r}, not {phase!r}"
            )
        seat = self._seat_for(now)
        return -1 if seat is None else seat

    def _seat(self, event: Contract | Bid | Play | NameWild, expected: int) -> None:
        seat = event.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ClagEventError(f"{event!r}: no seat {seat!r} at {self.players} players")
        if seat != expected:
            raise OutOfTurn(f"{event!r}: it is seat {expected}'s turn, not seat {seat}'s")

    def _referee(self, event: ConfirmRenege | DismissRenege, log: Log) -> RoundState:
        if not 0 <= event.index < len(self.reneges):
            raise ClagEventError(f"{event!r}: {len(self.reneges)} renege(s) proven so far")
        if isinstance(event, ConfirmRenege):
            return self._evolve(confirmed=self.confirmed | {event.index}, log=log)
        return self._evolve(dismissed=self.dismissed | {event.index}, log=log)

    def _deal(self, event: Deal, log: Log) -> RoundState:
        self._expect("deal", event)
        step = self.step + 1
        if event.hands is None:
            return self._evolve(step=step, log=log)
        if len(event.hands) != self.players:
            raise ClagEventError(f"deal of {len(event.hands)} hands at {self.players} players")
        size = self.hand_size
        owner: dict[Card, int] = {}
        held: list[frozenset[Card]] = []
        for seat, given in enumerate(event.hands):
            cards = tuple(given)
            hand = frozenset(cards)
            if len(hand) != size or len(cards) != size:
                raise ClagEventError(
                    f"deal: seat {seat} gets {len(cards)} cards ({' '.join(map(str, cards))}); "
                    f"round {self.round_no} deals {size} each"
                )
            if self.trump_card in hand:
                raise IllegalEvent(f"deal: {self.trump_card} is the turned trump card")
            for c in hand:
                if owner.setdefault(c, seat) != seat:
                    raise IllegalEvent(f"deal: {c} is dealt to seat {owner[c]} and seat {seat}")
            held.append(hand)
        # nothing is known before the deal (no card is played before it in any round): the
        # dealt hands are the whole of what the table knows
        knowledge = self.knowledge
        known = TableKnowledge(
            knowledge.hand_sizes, knowledge.played, tuple(held), knowledge.voids, knowledge.open
        )
        return self._evolve(step=step, knowledge=known, hands_known=True, log=log)

    def _turn(self, event: TurnTrump, log: Log) -> RoundState:
        self._expect("trump", event)
        card = event.card
        if self.knowledge.owner(card) is not None:
            raise IllegalEvent(f"{event!r}: {card} was dealt to seat {self.knowledge.owner(card)}")
        return self._evolve(step=self.step + 1, trump_card=card, trump=card.suit, log=log)

    def _choose(self, event: ChooseTrump, log: Log) -> RoundState:
        self._expect("choose", event)
        if event.suit is None and self.ruleset.chosen_trump == "suit":
            raise ClagEventError("round 14: the dealer must choose a trump suit, not no trump")
        return self._evolve(step=self.step + 1, trump=event.suit, log=log)

    def _contract(self, event: Contract | Bid, log: Log) -> RoundState:
        expected = self._expect("contracts", event)
        self._seat(event, expected)
        if isinstance(event, Bid):
            if not event.call.isdigit():
                raise ClagEventError(f"{event!r}: a Clag contract is a number of tricks")
            said: object = int(event.call)
        else:
            said = event.tricks
        tricks = check_contract(
            said,
            self.hand_size,
            [c for c in self.contracts if c is not None],
            is_dealer=event.seat == self.dealer,
            dealer_rule=self.ruleset.dealer_rule,
            seat=event.seat,
        )
        contracts = self.contracts[: event.seat] + (tricks,) + self.contracts[event.seat + 1 :]
        stated = self.stated + 1
        step = self.step + 1 if stated == self.players else self.step
        return self._evolve(contracts=contracts, stated=stated, step=step, log=log)

    def _play(self, event: Play, log: Log) -> RoundState:
        expected = self._expect("play", event)
        self._seat(event, expected)
        card = event.card
        if not isinstance(card, Card):
            raise ClagEventError(f"{event!r}: the card must be a Card")
        if card == self.trump_card:
            raise CardAlreadyPlayed(f"{event!r}: {card} is the turned trump card")
        try:
            knowledge, proven = self.knowledge.play(expected, card, len(self.tricks) + 1)
        except IllegalEvent as exc:
            raise type(exc)(f"{event!r}: {exc}") from None
        reneges = self.reneges + proven if proven else self.reneges
        if self.round_no == WILD_TWOS_ROUND and card.rank is Rank.TWO:
            return self._evolve(knowledge=knowledge, reneges=reneges, unnamed=card, log=log)
        return self._add(expected, card, card, knowledge, reneges, log)

    def _name(self, event: NameWild, log: Log) -> RoundState:
        expected = self._expect("name", event)
        self._seat(event, expected)
        two = self.unnamed
        assert two is not None
        named = event.named
        for e in self.current:
            if isinstance(e, T.WildTwo) and e.named == named:
                raise WildTwoError(f"{two}={named}: {e} already named it in this trick")
        entry = T.WildTwo(two, named)
        return self._add(expected, entry, named, self.knowledge, self.reneges, log)

    def _add(
        self,
        seat: int,
        entry: T.Entry,
        counts_as: Card,
        knowledge: TableKnowledge,
        reneges: tuple[RenegeEvidence, ...],
        log: Log,
    ) -> RoundState:
        """The state with ``entry`` (counting as ``counts_as``) put in the trick: a failure to
        follow opens its obligation, and a full trick is closed and won."""
        led = self._led()
        if led is not None and counts_as.suit is not led:
            knowledge, proven = self._shortfall(seat, entry, led, knowledge)
            reneges += proven
        current = self.current + (entry,)
        if len(current) < self.players:
            return self._evolve(
                knowledge=knowledge, reneges=reneges, current=current, unnamed=None, log=log
            )
        offset = T.winning_index(current, self.trump, self.round_no)
        done = len(self.tricks) + 1 == self.hand_size
        return self._evolve(
            knowledge=knowledge,
            reneges=reneges,
            tricks=self.tricks + (current,),
            current=(),
            unnamed=None,
            leaders=self.leaders + ((self.leaders[-1] + offset) % self.players,),
            step=self.step + 1 if done else self.step,
            log=log,
        )

    def _shortfall(
        self, seat: int, entry: T.Entry, led: Suit, knowledge: TableKnowledge
    ) -> tuple[TableKnowledge, tuple[RenegeEvidence, ...]]:
        """``seat`` did not follow ``led``: legal only if he held no card that follows it."""
        rule = NAME_LED_SUIT if isinstance(entry, T.WildTwo) else FOLLOW_SUIT
        trick = len(self.tricks) + 1
        detail = f"seat {seat} played {entry} to trick {trick} when {_SUIT_WORDS[led]} were led"
        forbidden = T.following_cards(led, self.round_no)
        return knowledge.mark_void(seat, led).expect(
            MustNotHold(seat, trick, rule, T.physical(entry), forbidden, detail)
        )


_new = object.__new__
_SUIT_WORDS: dict[Suit, str] = {s: s.name.lower() for s in Suit}
# the cards a hand may hold, by turned trump card (``None``: none turned yet)
_DECK_WITHOUT: dict[Card | None, tuple[Card, ...]] = {
    turned: tuple(c for c in DECK_52 if c != turned) for turned in (None, *DECK_52)
}
