"""One Clag round as an immutable state machine: ``state.apply(event)`` returns a new state.

The order of events depends on the round (:func:`steps_of`): normally the deal, the turned
trump, the contracts from the dealer's left, then the play; round 8 has no trump, round 9 and
15 no contracts, round 10 turns trump after the contracts, round 11 takes the contracts before
the deal, round 14 has the dealer choose trump. An impossible event raises a ``RulesError``
that quotes it; a failure to follow suit is recorded and proven as a renege (see
:mod:`rules.clag.knowledge`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rules.cards import DECK_52, Card, Rank, Suit
from rules.clag import tricks as T
from rules.clag.contracts import check_contract, legal_contracts
from rules.clag.errors import ClagEventError, WildTwoError
from rules.clag.events import ChooseTrump, Contract, Deal, Event, Play, TurnTrump
from rules.clag.knowledge import Renege, Shortfall, prove
from rules.clag.ruleset import DEFAULT_RULESET, ClagRuleset
from rules.clag.schedule import (
    NO_CONTRACT_ROUND,
    WILD_TWOS_ROUND,
    ZERO_CONTRACT_ROUND,
    check_players,
    check_round,
    hand_size,
)
from rules.clag.scoring import round_scores
from rules.errors import CardAlreadyPlayed, HandOver, IllegalEvent, OutOfTurn


def steps_of(round_no: int) -> tuple[str, ...]:
    """The phases of a round in order: ``deal``, ``trump``, ``choose``, ``contracts``, ``play``."""
    if round_no == 8:
        return ("deal", "contracts", "play")
    if round_no in (ZERO_CONTRACT_ROUND, NO_CONTRACT_ROUND):
        return ("deal", "trump", "play")
    if round_no == 10:
        return ("deal", "contracts", "trump", "play")
    if round_no == 11:
        return ("contracts", "deal", "trump", "play")
    if round_no == 14:
        return ("deal", "choose", "contracts", "play")
    return ("deal", "trump", "contracts", "play")


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: contracts (``None`` where the round has none), tricks, score."""

    contracts: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    completed: tuple[bool, ...]
    score: tuple[int, ...]
    reneges: tuple[Renege, ...]


@dataclass(frozen=True, slots=True)
class RoundState:
    """Where a round stands. Build with :meth:`start`, advance with :meth:`apply`."""

    players: int
    round_no: int
    dealer: int
    ruleset: ClagRuleset = DEFAULT_RULESET
    step: int = 0
    hands: tuple[frozenset[Card], ...] | None = None
    trump_card: Card | None = None
    trump: Suit | None = None
    contracts: tuple[int | None, ...] = ()
    stated: int = 0
    tricks: tuple[tuple[T.Entry, ...], ...] = ()
    leaders: tuple[int, ...] = ()
    current: tuple[T.Entry, ...] = ()
    seen: frozenset[Card] = frozenset()
    shortfalls: tuple[Shortfall, ...] = ()
    reneges: tuple[Renege, ...] = ()
    log: tuple[Event, ...] = field(default=())

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
            contracts=(fixed,) * players,
            leaders=((dealer + 1) % players,),
        )

    @classmethod
    def replay(
        cls,
        players: int,
        round_no: int,
        dealer: int,
        events: Iterable[Event],
        ruleset: ClagRuleset = DEFAULT_RULESET,
    ) -> RoundState:
        state = cls.start(players, round_no, dealer, ruleset)
        for event in events:
            state = state.apply(event)
        return state

    # -- where we are ---------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return hand_size(self.round_no)

    @property
    def phase(self) -> str:
        steps = steps_of(self.round_no)
        return steps[self.step] if self.step < len(steps) else "done"

    @property
    def to_act(self) -> int | None:
        """The seat expected to act next (``None`` when nobody in particular is)."""
        if self.phase == "contracts":
            return (self.dealer + 1 + self.stated) % self.players
        if self.phase == "choose":
            return self.dealer
        if self.phase == "play":
            return (self.leaders[-1] + len(self.current)) % self.players
        return None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        won = [0] * self.players
        for leader in self.leaders[1 : len(self.tricks) + 1]:
            won[leader] += 1
        return tuple(won)

    def winners(self) -> tuple[int, ...]:
        """The seat that won each finished trick."""
        return self.leaders[1 : len(self.tricks) + 1]

    def legal_contracts(self) -> tuple[int, ...]:
        seat = self._expect("contracts", None)
        earlier = [c for c in self.contracts if c is not None]
        return legal_contracts(
            self.hand_size,
            earlier,
            is_dealer=seat == self.dealer,
            dealer_rule=self.ruleset.dealer_rule,
        )

    def legal_plays(self) -> frozenset[Card]:
        """The cards the player to act may play; needs the hands (a :class:`Deal` with them)."""
        seat = self._expect("play", None)
        if self.hands is None:
            raise ClagEventError("legal plays need the hands: the deal did not give them")
        return T.legal_plays(self.hands[seat], self.current, self.trump, round=self.round_no)

    def possible_cards(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may still hold: his known hand, else every unseen card outside the
        suits he showed void in (a renege aside)."""
        if self.hands is not None:
            return self.hands[seat]
        void = {s.led for s in self.shortfalls if s.seat == seat}
        wild = self.round_no == WILD_TWOS_ROUND
        return frozenset(
            c
            for c in DECK_52
            if c not in self.seen and (c.suit not in void or (wild and c.rank is Rank.TWO))
        )

    def result(self) -> RoundResult:
        if self.phase != "done":
            raise ClagEventError(f"round {self.round_no} is not over: phase {self.phase}")
        won = self.tricks_won
        score, completed = round_scores(
            self.round_no,
            self.contracts,
            won,
            {r.seat for r in self.reneges},
            self.ruleset,
        )
        return RoundResult(self.contracts, won, completed, score, self.reneges)

    # -- events ---------------------------------------------------------------------------

    def apply(self, event: Event) -> RoundState:
        if self.phase == "done":
            raise HandOver(f"{event!r}: round {self.round_no} is over")
        if isinstance(event, Play):
            new = self._play(event)
        elif isinstance(event, Contract):
            new = self._contract(event)
        elif isinstance(event, Deal):
            new = self._deal(event)
        elif isinstance(event, TurnTrump):
            new = self._turn(event)
        elif isinstance(event, ChooseTrump):
            new = self._choose(event)
        else:
            raise ClagEventError(f"{event!r} is not a Clag event")
        return replace(new, log=self.log + (event,))

    def _expect(self, phase: str, event: Event | None) -> int:
        if self.phase != phase:
            what = repr(event) if event is not None else phase
            raise ClagEventError(
                f"{what}: round {self.round_no} is in phase {self.phase!r}, not {phase!r}"
            )
        seat = self.to_act
        return -1 if seat is None else seat

    def _seat(self, event: Contract | Play, expected: int) -> None:
        seat = event.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ClagEventError(f"{event!r}: no seat {seat!r} at {self.players} players")
        if seat != expected:
            raise OutOfTurn(f"{event!r}: it is seat {expected}'s turn, not seat {seat}'s")

    def _deal(self, event: Deal) -> RoundState:
        self._expect("deal", event)
        if event.hands is None:
            return replace(self, step=self.step + 1)
        hands = tuple(frozenset(h) for h in event.hands)
        if len(hands) != self.players:
            raise ClagEventError(f"deal of {len(hands)} hands at {self.players} players")
        seen: set[Card] = set()
        for seat, (given, hand) in enumerate(zip(event.hands, hands, strict=True)):
            if len(hand) != self.hand_size or len(tuple(given)) != self.hand_size:
                raise ClagEventError(
                    f"deal: seat {seat} gets {len(tuple(given))} cards "
                    f"({' '.join(map(str, given))}); round {self.round_no} deals {self.hand_size}"
                )
            twice = seen & hand
            if twice:
                raise CardAlreadyPlayed(f"deal: {min(twice, key=str)} dealt twice")
            seen |= hand
        return replace(self, step=self.step + 1, hands=hands)

    def _turn(self, event: TurnTrump) -> RoundState:
        self._expect("trump", event)
        card = event.card
        if self.hands is not None and any(card in h for h in self.hands):
            raise IllegalEvent(f"trump card {card} was dealt to a player")
        return replace(
            self, step=self.step + 1, trump_card=card, trump=card.suit, seen=self.seen | {card}
        )

    def _choose(self, event: ChooseTrump) -> RoundState:
        self._expect("choose", event)
        if event.suit is None and self.ruleset.chosen_trump == "suit":
            raise ClagEventError("round 14: the dealer must choose a trump suit (no trump chosen)")
        return replace(self, step=self.step + 1, trump=event.suit)

    def _contract(self, event: Contract) -> RoundState:
        expected = self._expect("contracts", event)
        self._seat(event, expected)
        earlier = [c for c in self.contracts if c is not None]
        tricks = check_contract(
            event.tricks,
            self.hand_size,
            earlier,
            is_dealer=event.seat == self.dealer,
            dealer_rule=self.ruleset.dealer_rule,
            seat=event.seat,
        )
        contracts = list(self.contracts)
        contracts[event.seat] = tricks
        stated = self.stated + 1
        step = self.step + 1 if stated == self.players else self.step
        return replace(self, contracts=tuple(contracts), stated=stated, step=step)

    def _entry(self, event: Play) -> T.Entry:
        if not isinstance(event.card, Card):
            raise ClagEventError(f"{event!r}: the card must be a Card")
        wild = self.round_no == WILD_TWOS_ROUND and event.card.rank is Rank.TWO
        if not wild:
            if event.named is not None:
                raise WildTwoError(
                    f"{event.card}={event.named}: only a two in round 12 names a card "
                    f"(round {self.round_no})"
                )
            return event.card
        if event.named is None:
            raise WildTwoError(f"{event.card} in round 12: a wild two must name a card")
        for e in self.current:
            if isinstance(e, T.WildTwo) and e.named == event.named:
                raise WildTwoError(
                    f"{event.card}={event.named}: {e} already named {event.named} in this trick"
                )
        return T.WildTwo(event.card, event.named)

    def _play(self, event: Play) -> RoundState:
        expected = self._expect("play", event)
        self._seat(event, expected)
        entry = self._entry(event)
        card, seat, trick_no = event.card, event.seat, len(self.tricks)
        if card in self.seen:
            what = "the turned trump card" if card == self.trump_card else "already played"
            raise CardAlreadyPlayed(f"{event!r}: {card} is {what}")
        hands = self.hands
        if hands is not None:
            if card not in hands[seat]:
                held = " ".join(sorted(map(str, hands[seat])))
                raise IllegalEvent(f"{event!r}: seat {seat} does not hold {card} (holds {held})")
            hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
        shortfalls, reneges = self._evidence(seat, card, trick_no)
        led = T.effective(self.current[0]).suit if self.current else None
        if led is not None and T.effective(entry).suit != led:
            short = Shortfall(seat, trick_no, led, entry)
            if self.hands is None:
                shortfalls += (short,)
            else:
                rest = [c for c in self.hands[seat] if c != card]
                proof = sorted(
                    (c for c in rest if T.holds_led_suit((c,), led, self.round_no)), key=str
                )
                if proof:
                    reneges += (prove(short, proof[0], None),)
                else:
                    shortfalls += (short,)
        current = self.current + (entry,)
        new = replace(
            self,
            hands=hands,
            seen=self.seen | {card},
            shortfalls=shortfalls,
            reneges=reneges,
            current=current,
        )
        if len(current) < self.players:
            return new
        winner = (self.leaders[-1] + T.trick_winner(current, self.trump, round=self.round_no)) % (
            self.players
        )
        done = len(self.tricks) + 1 == self.hand_size
        return replace(
            new,
            tricks=self.tricks + (current,),
            current=(),
            leaders=self.leaders + (winner,),
            step=self.step + 1 if done else self.step,
        )

    def _evidence(
        self, seat: int, card: Card, trick_no: int
    ) -> tuple[tuple[Shortfall, ...], tuple[Renege, ...]]:
        """Prove this seat's earlier shortfalls that ``card`` (a card of that suit) contradicts."""
        keep: list[Shortfall] = []
        proven: list[Renege] = []
        for s in self.shortfalls:
            if s.seat == seat and T.holds_led_suit((card,), s.led, self.round_no):
                proven.append(prove(s, card, trick_no))
            else:
                keep.append(s)
        return tuple(keep), self.reneges + tuple(proven)
