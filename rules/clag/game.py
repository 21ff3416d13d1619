"""A whole game of Clag (22 rounds) as an immutable state machine over the rounds' events.

``GameState.apply(event)`` feeds the round in progress; the first event after a round is
over starts the next one, dealt by the player to the left of the last dealer. A referee event
(``ConfirmRenege``, ``DismissRenege``) goes to the latest round, so a finished round can be
corrected until the next one begins. The game's log is the concatenation of its rounds' logs;
a ``Correct`` indexes that log and gives the replay of the corrected game log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.clag.errors import ClagEventError
from rules.clag.events import (
    ConfirmRenege,
    Correct,
    DismissRenege,
    Event,
    RefereeEvent,
    corrected_log,
)
from rules.clag.ruleset import DEFAULT_RULESET, ClagRuleset
from rules.clag.schedule import NUM_ROUNDS, check_players
from rules.clag.scoring import Standing, ranking
from rules.clag.state import RoundState
from rules.errors import HandOver


@dataclass(frozen=True, slots=True)
class GameState:
    """The rounds played so far (the last one possibly in progress)."""

    players: int
    first_dealer: int
    ruleset: ClagRuleset
    rounds: tuple[RoundState, ...]

    @classmethod
    def start(
        cls, players: int, first_dealer: int, ruleset: ClagRuleset = DEFAULT_RULESET
    ) -> GameState:
        check_players(players)
        return cls(
            players, first_dealer, ruleset, (RoundState.start(players, 1, first_dealer, ruleset),)
        )

    @classmethod
    def replay(
        cls,
        players: int,
        first_dealer: int,
        events: Iterable[Event | RefereeEvent | Correct],
        ruleset: ClagRuleset = DEFAULT_RULESET,
    ) -> GameState:
        game = cls.start(players, first_dealer, ruleset)
        for event in events:
            game = game.apply(event)
        return game

    @property
    def current(self) -> RoundState:
        return self.rounds[-1]

    @property
    def finished(self) -> bool:
        return len(self.rounds) == NUM_ROUNDS and self.current.phase == "done"

    @property
    def log(self) -> tuple[Event | RefereeEvent, ...]:
        return tuple(e for r in self.rounds for e in r.log)

    def apply(self, event: Event | RefereeEvent | Correct) -> GameState:
        if isinstance(event, Correct):
            log = corrected_log(self.log, event)
            return GameState.replay(self.players, self.first_dealer, log, self.ruleset)
        rounds = self.rounds
        if self.current.phase == "done" and not isinstance(event, ConfirmRenege | DismissRenege):
            if len(rounds) == NUM_ROUNDS:
                raise HandOver(f"{event!r}: the game is over after round {NUM_ROUNDS}")
            last = self.current
            rounds += (
                RoundState.start(
                    self.players, last.round_no + 1, (last.dealer + 1) % self.players, self.ruleset
                ),
            )
        return GameState(
            self.players, self.first_dealer, self.ruleset, rounds[:-1] + (rounds[-1].apply(event),)
        )

    def scored_rounds(self) -> tuple[RoundState, ...]:
        return tuple(r for r in self.rounds if r.phase == "done")

    def totals(self) -> tuple[int, ...]:
        """Running total per seat over the finished rounds."""
        totals = [0] * self.players
        for r in self.scored_rounds():
            for seat, points in enumerate(r.result().score):
                totals[seat] += points
        return tuple(totals)

    def completed_contracts(self) -> tuple[int, ...]:
        counts = [0] * self.players
        for r in self.scored_rounds():
            for seat, done in enumerate(r.result().completed):
                counts[seat] += int(done)
        return tuple(counts)

    def ranking(self) -> tuple[Standing, ...]:
        """The standing (final once :attr:`finished`): highest total first."""
        return ranking(self.totals(), self.completed_contracts())

    def winners(self) -> tuple[int, ...]:
        """The seat(s) with the highest total after round 22."""
        if not self.finished:
            raise ClagEventError(f"the game is not over: round {self.current.round_no} of 22")
        return tuple(s.seat for s in self.ranking() if s.place == 1)
