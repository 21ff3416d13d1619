"""The hand every trick game here plays: one immutable state machine, fed by events.

Clabber, Klaberjass, Belote and Jass-deux hands share their whole life: a deal turns an
upcard, trump is made in a bidding, then tricks are played (the lead by the dealer's left,
then by each trick's winner) until every card is played or a renege ends the hand. Hands are
hidden: :class:`~rules.knowledge.TableKnowledge` learns each card as it is played, every play
to a started trick leaves the obligations of the game's duty table
(:mod:`rules.trickgame.duties`), and a renege is proven with its evidence the moment a card
breaks one. A proven renege ends the hand at once, or waits for a referee to confirm it
(``renege_apply``); ``ClaimRenege``, ``RefereeRenege``, ``ConfirmRenege``, ``DismissRenege``,
``Misdeal`` and ``Correct`` mean the same in every game.

:class:`TrickHand` holds all of that (the renege ledger in its base,
:class:`rules.trickgame.reneges.RenegeBook`). A game's hand is a frozen dataclass that
inherits it and keeps only what is its own: its fields, its tables (:class:`CardTables`, the
duties), its bidding and deal, its own events (Clabber's declarations, Klaberjass's dix
exchange) and the hooks below, each a few lines. ``state.apply(event)`` returns a new state and never mutates
one; a hand is its event log and the replay of the log is the state.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from rules.cards import Card, Suit
from rules.errors import CardNotInDeck, HandOver, IllegalEvent
from rules.events import (
    Bid,
    ClaimRenege,
    ConfirmRenege,
    Correct,
    DismissRenege,
    Misdeal,
    Play,
    RefereeRenege,
)
from rules.knowledge import RenegeEvidence, TableKnowledge, Trick
from rules.trickgame.duties import DutyTable
from rules.trickgame.log import corrected_log, replay_log
from rules.trickgame.reneges import HandWords, RenegeBook, evolve
from rules.trickgame.tables import CardTables

__all__ = ["HandWords", "TrickHand", "evolve"]


class TrickHand(RenegeBook):
    """The shared part of a trick game's hand state (a mixin of the game's frozen dataclass).

    A game sets the class tables (``TABLES``, ``WORDS``, ``BIDDING``: the names of its
    bidding phases, ``DEAL``: its deal event) and implements ``players``, ``hand_size``,
    ``trump``, ``_fresh``, ``_bidder``, ``_deal``, ``_bid``, ``_duties`` and
    ``_record_claim``; the other hooks have a default that does nothing.
    """

    __slots__ = ()

    TABLES: ClassVar[CardTables]
    DEAL: ClassVar[type[Any]]
    DEAL_FIRST: ClassVar[bool] = False  # refuse any event but the deal before it

    dealer: int
    upcard: Card | None
    tricks: tuple[Trick, ...]
    current: tuple[tuple[int, Card], ...]
    knowledge: TableKnowledge
    events: tuple[object, ...]

    # ---- what the game supplies -------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        """Cards each player plays: the number of tricks in a hand."""
        raise NotImplementedError

    @property
    def trump(self) -> Suit | None:
        raise NotImplementedError

    def _fresh(self) -> Self:
        """A new hand with the same rules (what a corrected log is replayed from)."""
        raise NotImplementedError

    def _bidder(self) -> int | None:
        """The seat to call next during the bidding."""
        raise NotImplementedError

    def _deal(self, event: Any) -> Self:
        raise NotImplementedError

    def _bid(self, event: Bid) -> Self:
        raise NotImplementedError

    def _duties(self) -> DutyTable:
        raise NotImplementedError

    def _game_event(self, event: object) -> Self | None:
        """The state after an event of the game's own (``None``: not one)."""
        return None

    def _after_end(self, event: object) -> Self | None:
        """The state after an event the game takes once the hand is over (``None``: none)."""
        return None

    def _before_play(self, event: Play) -> tuple[Self, list[RenegeEvidence]]:
        """Refuse a play the game cannot take, or learn what it shows, before the card."""
        return self, []

    def _turn_reneges(self, seat: int, card: Card, number: int) -> list[RenegeEvidence]:
        """Reneges the play itself commits (a play out of turn, where that is a renege)."""
        return []

    def _after_play(self, seat: int) -> Self:
        return self

    def _exempt(self, trick: list[Card], trump: Suit) -> bool:
        """Whether the player to ``trick`` is freed from the exemptible duties."""
        return False

    def out_of_play(self) -> dict[Card, str]:
        """Cards known to be in no hand, with the reason: they can never be played."""
        return {}

    # ---- what the state knows ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (the last one once the hand is over)."""
        return min(len(self.tricks) + 1, self.hand_size)

    @property
    def to_move(self) -> int | None:
        """The seat to call or play next (``None`` before the deal and at the end)."""
        if self.phase in self.BIDDING:
            return self._bidder()
        if self.phase != "play":
            return None
        current = self.current
        if not current:
            return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % self.players
        n = self.players
        seat = (current[-1][0] + 1) % n
        if len(current) > 1:
            done = {s for s, _ in current}
            while seat in done:  # after a play out of turn, where the game records it
                seat = (seat + 1) % n
        return seat

    def played_count(self, seat: int) -> int:
        return len(self.knowledge.played[seat])

    def played_by(self, seat: int) -> frozenset[Card]:
        return self.knowledge.played[seat]

    def held_known(self, seat: int) -> frozenset[Card]:
        """Cards known to be in ``seat``'s hand and not yet played (an upcard taken)."""
        return self.knowledge.held[seat]

    def all_played(self) -> tuple[Card, ...]:
        return tuple(c for t in self.tricks for c in t.cards) + tuple(c for _, c in self.current)

    def possible_cards(self, seat: int) -> frozenset[Card]:
        """Cards ``seat`` may still play if it plays lawfully: its known cards when they are
        all known, else every unseen card not out of play and not of a suit its plays showed
        it out of. What the camera's decoder weighs the classifier's guesses with."""
        gone = self.out_of_play()
        possible = self.knowledge.possible(seat, self.TABLES.deck)
        return frozenset(c for c in possible if c not in gone) if gone else possible

    # ---- events -------------------------------------------------------------------------------

    def apply(self, event: object) -> Self:
        """The state after ``event``; raises a ``RulesError`` quoting an impossible event."""
        if isinstance(event, Correct):
            return replay_log(
                self._fresh(), corrected_log(self.events, event, self.WORDS.correction)
            )
        new: Self | None = None
        if self.phase == "over":
            new = self._after_end(event)
            if new is None and not isinstance(event, ConfirmRenege | DismissRenege):
                raise HandOver(f"{self._describe(event)}: the hand is over ({self.end})")
        if new is None:
            if self.DEAL_FIRST and self.phase == "deal" and not isinstance(event, self.DEAL):
                raise IllegalEvent(f"{self._describe(event)}: no hand has been dealt")
            new = self._dispatch(event)
        if new is self:
            return evolve(self, events=self.events + (event,))
        # every handler returns ``self`` or a state it has just built, not yet shared: the
        # event is logged in place (the engine's hot path, one event at a time)
        object.__setattr__(new, "events", self.events + (event,))
        return new

    def _dispatch(self, event: object) -> Self:
        """The state after ``event`` before the hand is over: the shared events here, the
        game's own through :meth:`_game_event`."""
        if isinstance(event, Play):
            return self._play(event)
        if isinstance(event, Bid):
            return self._bid(event)
        if isinstance(event, self.DEAL):
            return self._deal(event)
        if isinstance(event, ClaimRenege):
            return self._claim(event)
        if isinstance(event, RefereeRenege):
            return self._referee_renege(event)
        if isinstance(event, ConfirmRenege | DismissRenege):
            return self._referee(event)
        if isinstance(event, Misdeal):
            if self.phase not in self.BIDDING:
                raise IllegalEvent(
                    f"{self._describe(event)}: a misdeal is called before the first card"
                )
            return evolve(self, phase="over", end="misdeal")
        new = self._game_event(event)
        if new is None:
            raise IllegalEvent(self.WORDS.unknown.format(event=event))
        return new

    def _check_deal(self, event: Any, cards: dict[str, Card | None]) -> None:
        """The checks every deal passes: the first deal of the hand, by a seat that exists,
        of cards of the game's deck."""
        if self.phase != "deal":
            raise IllegalEvent(f"{self._describe(event)}: this hand was already dealt")
        self._seat(event.dealer, event)
        for name, c in cards.items():
            if c is not None and c not in self.TABLES.deck_set:
                raise CardNotInDeck(f"{name} {c}: {self.WORDS.not_in_deck}")

    def _start(self, event: Any, phase: str, knowledge: TableKnowledge, **more: object) -> Self:
        """The hand once ``event`` (the game's deal, checked) dealt it: its dealer, its upcard
        and what the table knows of the hands; the bidding (``phase``) begins."""
        return evolve(
            self, phase=phase, dealer=event.dealer, upcard=event.upcard, knowledge=knowledge, **more
        )

    def _known_deal(
        self, hands: tuple[tuple[Card, ...], ...], *, whole_deck: bool
    ) -> TableKnowledge:
        """The table's knowledge of a deal given whole (a simulation, a hand typed in after
        play): every seat's cards known from the start. ``whole_deck``: every card is dealt."""
        n, size, deck = self.players, self.hand_size, self.TABLES.deck
        if len(hands) != n or any(len(h) != size for h in hands):
            raise IllegalEvent(f"a known deal needs {n} hands of {size} cards")
        every = [c for h in hands for c in h]
        if whole_deck:
            if set(every) != self.TABLES.deck_set or len(every) != len(deck):
                raise IllegalEvent(f"a known deal must hold each of the {len(deck)} cards once")
        elif len(set(every)) != len(every) or not set(every) <= self.TABLES.deck_set:
            raise IllegalEvent(f"a known deal holds distinct cards of the {len(deck)}-card deck")
        knowledge = TableKnowledge.new((size,) * n)
        for seat, hand in enumerate(hands):
            knowledge, _ = knowledge.reveal(seat, hand)
        return knowledge

    def _play(self, event: Play) -> Self:
        self._seat(event.seat, event)
        seat, card, tables = event.seat, event.card, self.TABLES
        if self.phase != "play":
            raise IllegalEvent(f"{self._describe(event)}: {self.WORDS.no_trump}")
        if card not in tables.deck_set:
            raise CardNotInDeck(f"{self._describe(event)}: {self.WORDS.not_in_deck}")
        state, found = self._before_play(event)
        number = len(self.tricks) + 1
        trump = self.trump
        assert trump is not None
        knowledge, proven = state.knowledge.play(seat, card, number)
        found.extend(proven)
        found.extend(self._turn_reneges(seat, card, number))
        if self.current:
            trick = [c for _, c in self.current]
            exempt = self._exempt(trick, trump)
            knowledge, obliged = self._duties().obligations(
                knowledge, seat, card, number, trick, trump, exempt
            )
            found.extend(obliged)
        current = self.current + ((seat, card),)
        tricks = self.tricks
        if len(current) == self.players:
            cards = tuple(c for _, c in current)
            seats = tuple(s for s, _ in current)
            winner = seats[tables.trick_winner(cards, trump)]
            tricks = tricks + (Trick(number, seats, cards, winner),)
            current = ()
        new = evolve(state, knowledge=knowledge, current=current, tricks=tricks)._after_play(seat)
        if len(tricks) == self.hand_size:
            new = evolve(new, phase="over", end="complete")
        return self._prove(new, tuple(found))
