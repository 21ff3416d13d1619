"""Clag corrections: ``rules.events.Correct`` replaces or removes a logged event, and the
corrected state is the replay of the corrected log, in a round and across a whole game."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rules.cards import DECK_52, Suit, card
from rules.clag import (
    Contract,
    Correct,
    Deal,
    GameState,
    NameWild,
    Play,
    RoundState,
    TurnTrump,
    WildTwoError,
    dealer_of_round,
)
from rules.clag.events import Logged
from rules.clag.simulate import random_round
from rules.errors import CardAlreadyPlayed, IllegalEvent, OutOfTurn, RulesError
from rules.events import DismissRenege


def _plays(*seat_cards: tuple[int, str]) -> tuple[Play, ...]:
    return tuple(Play(seat, card(c)) for seat, c in seat_cards)


# round 2 at 4 players, dealer 3 (seat 0 leads), trump turned 9C, contracts 1 0 0 2
ROUND2_START: tuple[Logged, ...] = (
    Deal(),
    TurnTrump(card("9C")),
    *(Contract(seat, c) for seat, c in enumerate((1, 0, 0, 2))),
)
# trick 1: hearts led, seat 1 follows; seat 0 wins and leads trick 2
RIGHT_ROUND2 = ROUND2_START + _plays(
    (0, "KH"), (1, "3H"), (2, "4H"), (3, "5H"), (0, "AD"), (1, "6H"), (2, "7D"), (3, "8D")
)
MISREAD = len(ROUND2_START) + 1  # the camera read seat 1's 3H as 3S
WRONG_ROUND2 = RIGHT_ROUND2[:MISREAD] + (Play(1, card("3S")),) + RIGHT_ROUND2[MISREAD + 1 :]


def _round2(log: tuple[Logged, ...]) -> RoundState:
    return RoundState.replay(4, 2, 3, log)


def test_a_misread_card_corrected_gives_the_state_of_the_right_log() -> None:
    wrong = _round2(WRONG_ROUND2)
    # the misread 3S looked like a failure to follow that 6H later proved a renege
    assert [r.seat for r in wrong.reneges] == [1] and wrong.result().score[1] == 0
    fixed = wrong.apply(Correct(MISREAD, Play(1, card("3H"))))
    assert fixed == _round2(RIGHT_ROUND2)
    assert fixed.log == RIGHT_ROUND2  # the correction itself is not logged
    assert fixed.reneges == () and fixed.result().score[1] == 10  # contract 0, no trick
    assert wrong.log == WRONG_ROUND2  # the state corrected is left as it was


def test_a_correction_in_progress_keeps_the_round_going() -> None:
    partial = _round2(WRONG_ROUND2[: MISREAD + 1])
    fixed = partial.apply(Correct(MISREAD, Play(1, card("3H"))))
    assert fixed == _round2(RIGHT_ROUND2[: MISREAD + 1])
    assert fixed.phase == "play" and fixed.to_act == 2
    assert any(c.suit is Suit.HEARTS for c in fixed.possible_cards(1))


def test_removing_an_event_replays_the_log_without_it() -> None:
    dismissed = WRONG_ROUND2[: MISREAD + 6] + (DismissRenege(0),) + WRONG_ROUND2[MISREAD + 6 :]
    state = _round2(dismissed)
    assert state.applied_reneges() == () and state.result().score[1] == 10
    index = dismissed.index(DismissRenege(0))
    restored = state.apply(Correct(index, None))
    assert restored == _round2(WRONG_ROUND2)
    assert restored.result().score[1] == 0  # the renege counts again
    # removing the last card gives the state before it
    assert state.apply(Correct(len(dismissed) - 1, None)) == _round2(dismissed[:-1])


def test_a_correction_that_makes_the_log_impossible_raises_the_replays_error() -> None:
    state = _round2(RIGHT_ROUND2)
    before = _round2(RIGHT_ROUND2)
    with pytest.raises(CardAlreadyPlayed, match="KH was already played by seat 0"):
        state.apply(Correct(MISREAD, Play(1, card("KH"))))
    with pytest.raises(OutOfTurn, match="seat 1's turn, not seat 2's"):
        state.apply(Correct(MISREAD, None))  # seat 1's card was never played
    with pytest.raises(RulesError, match="not a Clag event"):
        state.apply(Correct(MISREAD, "3H"))
    assert state == before


@pytest.mark.parametrize("index", [len(RIGHT_ROUND2), len(RIGHT_ROUND2) + 5, -1])
def test_a_correction_of_an_event_that_is_not_in_the_log_is_refused(index: int) -> None:
    state = _round2(RIGHT_ROUND2)
    n = len(RIGHT_ROUND2)
    with pytest.raises(IllegalEvent, match=rf"correction of event {index}: the log has {n} events"):
        state.apply(Correct(index, None))
    with pytest.raises(IllegalEvent, match="correction of event 0: the log has 0 events"):
        RoundState.start(4, 2, 3).apply(Correct(0, Deal()))


# round 12 at 4 players, dealer 3: seat 1's wild two was heard naming AS, he said AH
ROUND12_START: tuple[Logged, ...] = (
    Deal(),
    TurnTrump(card("9C")),
    *(Contract(seat, c) for seat, c in enumerate((1, 0, 0, 7))),
    Play(0, card("KH")),
    Play(1, card("2S")),
)
HEARD = len(ROUND12_START)


def test_a_wild_two_name_misheard_in_round_12_is_corrected() -> None:
    trick = _plays((2, "3H"), (3, "4H"))
    heard = RoundState.replay(4, 12, 3, ROUND12_START + (NameWild(1, card("AS")),) + trick)
    # 2S=AS off suit: seat 1 must be out of hearts; KH wins the trick
    assert heard.winners() == (0,) and heard.to_act == 0
    assert not any(c.suit is Suit.HEARTS and c.rank.index > 0 for c in heard.possible_cards(1))
    said = heard.apply(Correct(HEARD, NameWild(1, card("AH"))))
    assert said == RoundState.replay(4, 12, 3, ROUND12_START + (NameWild(1, card("AH")),) + trick)
    assert said.winners() == (1,) and said.to_act == 1  # the copy of AH beats KH
    assert str(said.tricks[0][1]) == "2S=AH"
    # a name may not be corrected to a card another two of the trick already names
    two_twos = ROUND12_START + (
        NameWild(1, card("AH")),
        Play(2, card("2D")),
        NameWild(2, card("QH")),
    )
    state = RoundState.replay(4, 12, 3, two_twos)
    with pytest.raises(WildTwoError, match="2D=AH: 2S=AH already named it"):
        state.apply(Correct(len(two_twos) - 1, NameWild(2, card("AH"))))


def _round1_game_log() -> tuple[Logged, ...]:
    """Round 1 (1 card, dealer 0, seat 1 leads) then round 2 (dealer 1, seat 2 leads)."""
    round1: tuple[Logged, ...] = (Deal(), TurnTrump(card("9C")))
    round1 += tuple(Contract(seat, c) for seat, c in ((1, 1), (2, 0), (3, 0), (0, 1)))
    round1 += _plays((1, "AS"), (2, "2S"), (3, "3S"), (0, "4S"))
    round2: tuple[Logged, ...] = (Deal(), TurnTrump(card("9D")))
    round2 += tuple(Contract(seat, c) for seat, c in ((2, 1), (3, 0), (0, 0), (1, 2)))
    round2 += _plays((2, "AH"), (3, "2H"), (0, "3H"), (1, "4H"))
    round2 += _plays((2, "AC"), (3, "2C"), (0, "3C"), (1, "4C"))
    return round1 + round2


def test_a_correction_inside_a_game_changes_the_running_totals() -> None:
    log = _round1_game_log()
    game = GameState.replay(4, 0, log)
    # round 1: seat 1 wins AS (1 + 10), seats 2 and 3 make 0 (10), the dealer misses (0);
    # round 2: seat 2 wins both tricks (2), seats 3 and 0 make 0 (10), seat 1 misses
    assert game.totals() == (10, 11, 12, 20)
    misread = log.index(Play(3, card("3S")))  # seat 3 trumped with 3C
    fixed = game.apply(Correct(misread, Play(3, card("3C"))))
    corrected = log[:misread] + (Play(3, card("3C")),) + log[misread + 1 :]
    assert fixed == GameState.replay(4, 0, corrected)
    assert fixed.rounds[0].winners() == (3,)
    # round 1 now: seat 1 misses (0), seat 2 makes 0 (10), seat 3 wins one against 0 (1)
    assert fixed.totals() == (10, 0, 12, 11)
    assert fixed.rounds[1] == game.rounds[1]  # round 2 is replayed unchanged
    contract = log.index(Contract(2, 0))
    said_one = game.apply(Correct(contract, Contract(2, 1)))
    assert said_one.totals() == (10, 11, 2, 20)


def test_a_game_correction_is_checked_like_a_round_correction() -> None:
    log = _round1_game_log()
    game = GameState.replay(4, 0, log)
    with pytest.raises(IllegalEvent, match=f"correction of event {len(log)}: the log has"):
        game.apply(Correct(len(log), None))
    # removing round 1's last card makes round 2's deal arrive in the middle of a trick
    with pytest.raises(RulesError, match="Deal"):
        game.apply(Correct(log.index(Play(0, card("4S"))), None))
    assert game == GameState.replay(4, 0, log)


def _replacements(log: tuple[Logged, ...], index: int, players: int) -> st.SearchStrategy[object]:
    """Removal, another event of the log, any play or contract (mostly impossible ones), or
    another card from the same seat (often possible when the hands are hidden)."""
    same_seat = log[index]
    return st.one_of(
        st.none(),
        st.sampled_from(log),
        st.builds(Play, st.integers(0, players - 1), st.sampled_from(DECK_52)),
        st.builds(Contract, st.integers(0, players - 1), st.integers(0, 7)),
        *(
            [st.builds(Play, st.just(same_seat.seat), st.sampled_from(DECK_52))]
            if isinstance(same_seat, Play)
            else []
        ),
    )


def _index(data: st.DataObject, log: tuple[Logged, ...]) -> int:
    """Any event, the last one more often (a correction usually comes soon)."""
    return data.draw(st.one_of(st.just(len(log) - 1), st.integers(0, len(log) - 1)))


def _corrected(log: tuple[Logged, ...], index: int, event: object) -> list[Any]:
    out: list[Any] = list(log)
    if event is None:
        del out[index]
    else:
        out[index] = event
    return out


def _outcome(run: Callable[[], object]) -> object:
    """A state, or the error raised (its type and message)."""
    try:
        state = run()
    except RulesError as exc:
        event("refused")
        return (type(exc), str(exc))
    event("corrected")
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 7), st.integers(1, 22), st.integers(0, 2**32), st.data())
def test_a_corrected_round_is_the_replay_of_the_corrected_log(
    players: int, rnd: int, seed: int, data: st.DataObject
) -> None:
    dealer = seed % players
    full = random_round(players, rnd, dealer, random.Random(seed)).log
    if data.draw(st.booleans()):
        full = tuple(Deal() if isinstance(e, Deal) else e for e in full)
    log = full[: data.draw(st.integers(1, len(full)))]
    index = _index(data, log)
    replacement = data.draw(_replacements(log, index, players))
    state = RoundState.replay(players, rnd, dealer, log)
    corrected = _corrected(log, index, replacement)
    assert _outcome(lambda: state.apply(Correct(index, replacement))) == _outcome(
        lambda: RoundState.replay(players, rnd, dealer, corrected)
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(4, 7), st.integers(0, 2**32), st.data())
def test_a_corrected_game_is_the_replay_of_the_corrected_log(
    players: int, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    first = seed % players
    log = tuple(
        e
        for r in (1, 2, 3)
        for e in random_round(players, r, dealer_of_round(first, r, players), rng).log
    )
    log = log[: data.draw(st.integers(1, len(log)))]
    index = _index(data, log)
    replacement = data.draw(_replacements(log, index, players))
    game = GameState.replay(players, first, log)
    corrected = _corrected(log, index, replacement)
    assert _outcome(lambda: game.apply(Correct(index, replacement))) == _outcome(
        lambda: GameState.replay(players, first, corrected)
    )
