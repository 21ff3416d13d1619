"""A game of Clabber to 500 as an immutable state machine over a log of hands.

The first team to 500 or more wins. If both pass 500 on the same hand the higher total wins;
equal totals at 500 or more: another hand is played. The deal passes left after every scored
hand; a hand that is not scored (four passes twice, a misdeal, both teams reneging) is dealt
again by the same dealer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.clabber.events import Deal
from rules.clabber.hand import HandState
from rules.clabber.ruleset import DEFAULT_RULES, SEATS, ClabberRules
from rules.clabber.scoring import HandResult, hand_result
from rules.errors import HandOver, IllegalEvent, OutOfTurn
from rules.events import Correct


def game_winner(totals: tuple[int, int], target: int) -> int | None:
    """The team that has won with these totals, or ``None`` (not yet, or tied past target)."""
    a, b = totals
    if a < target and b < target:
        return None
    if a == b:
        return None
    return 0 if a > b else 1


@dataclass(frozen=True, slots=True)
class MatchState:
    """``hands``: every hand dealt so far (the last may be in progress)."""

    rules: ClabberRules = DEFAULT_RULES
    hands: tuple[HandState, ...] = ()
    finished: tuple[HandResult, ...] = ()  # results of hands[:-1]
    events: tuple[object, ...] = ()

    @property
    def current(self) -> HandState | None:
        return self.hands[-1] if self.hands else None

    @property
    def results(self) -> tuple[HandResult, ...]:
        """Results of every finished hand (the current one included once it is over)."""
        cur = self.current
        if cur is not None and cur.over:
            return self.finished + (hand_result(cur),)
        return self.finished

    @property
    def running_totals(self) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        a = b = 0
        for r in self.results:
            a, b = a + r.score[0], b + r.score[1]
            out.append((a, b))
        return tuple(out)

    @property
    def totals(self) -> tuple[int, int]:
        run = self.running_totals
        return run[-1] if run else (0, 0)

    @property
    def winner(self) -> int | None:
        return game_winner(self.totals, self.rules.game_target)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand (``None`` before the first: anyone may)."""
        cur = self.current
        if cur is None:
            return None
        if not cur.over:
            return cur.dealer
        return cur.dealer if hand_result(cur).redeal else (cur.dealer + 1) % SEATS

    def apply(self, event: object) -> MatchState:
        """The match after ``event``: a :class:`Deal` starts a hand; anything else goes to the
        hand in progress."""
        if isinstance(event, Correct):
            if not 0 <= event.index < len(self.events):
                raise IllegalEvent(
                    f"correction of event {event.index}: the log has {len(self.events)} events"
                )
            log = list(self.events)
            if event.event is None:
                del log[event.index]
            else:
                log[event.index] = event.event
            return replay_match(log, self.rules)
        cur = self.current
        if isinstance(event, Deal):
            if cur is not None and not cur.over:
                raise IllegalEvent(f"deal by seat {event.dealer}: the hand in progress is not over")
            if self.winner is not None:
                raise HandOver(
                    f"deal by seat {event.dealer}: the game is over (team {self.winner} won)"
                )
            expected = self.next_dealer
            if expected is not None and event.dealer != expected:
                raise OutOfTurn(f"deal by seat {event.dealer}: seat {expected} deals this hand")
            finished = self.finished + ((hand_result(cur),) if cur is not None else ())
            hand = HandState(rules=self.rules).apply(event)
            return MatchState(self.rules, self.hands + (hand,), finished, self.events + (event,))
        if cur is None:
            raise IllegalEvent(f"{event!r}: no hand has been dealt")
        return replace(
            self, hands=self.hands[:-1] + (cur.apply(event),), events=self.events + (event,)
        )


def replay_match(
    events: list[object] | tuple[object, ...], rules: ClabberRules = DEFAULT_RULES
) -> MatchState:
    state = MatchState(rules=rules)
    for event in events:
        state = state.apply(event)
    return state
