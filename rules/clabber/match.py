"""A game of Clabber to 500 as an immutable state machine over a log of hands.

The first team to 500 or more wins. If both pass 500 on the same hand the higher total wins;
equal totals at 500 or more: another hand is played. The deal passes left after every scored
hand; a hand that is not scored (four passes twice, a misdeal, both teams reneging) is dealt
again by the same dealer. Those rules are the trick games' (:mod:`rules.trickgame.match`);
the match is the log of its hands' events, corrected and replayed like a hand's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.clabber.events import Deal
from rules.clabber.hand import HandState
from rules.clabber.ruleset import DEFAULT_RULES, SEATS, ClabberRules
from rules.clabber.scoring import HandResult, hand_result
from rules.errors import HandOver, IllegalEvent, OutOfTurn
from rules.events import Correct
from rules.trickgame.log import corrected_log, replay_log
from rules.trickgame.match import GameToTarget, game_winner, next_dealer

__all__ = ["MatchState", "game_winner", "replay_match"]


@dataclass(frozen=True, slots=True)
class MatchState(GameToTarget):
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
    def target(self) -> int:
        return self.rules.game_target

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand (``None`` before the first: anyone may)."""
        cur = self.current
        if cur is None:
            return None
        if not cur.over:
            return cur.dealer
        return next_dealer(cur.dealer, hand_result(cur).redeal, SEATS)

    def apply(self, event: object) -> MatchState:
        """The match after ``event``: a :class:`Deal` starts a hand; anything else goes to the
        hand in progress."""
        if isinstance(event, Correct):
            log = corrected_log(self.events, event, HandState.WORDS.correction)
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
    return replay_log(MatchState(rules=rules), events)
