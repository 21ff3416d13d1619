"""A deck played out names its one play never seen (vision.track.handread.deduce_missed):
the hand's tricks take every card of the deck, so the card of the one play the camera never
saw (a card under a resting hand its whole trick) is the card no other play shows."""

from __future__ import annotations

import dataclasses

from handlog_helpers import add_play, simulated_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK_32, Card
from rules.records import score_record
from vision.track.handlog import HandLog
from vision.track.handread import DEDUCED, deduce_missed


def _log(seed: int, unseen: set[int], spec=None) -> tuple[HandLog, list[Card]]:  # type: ignore[no-untyped-def]
    """A simulated Clabber hand's plays as the watcher logs them, the plays ``unseen``
    (indices in play order) missed; with the true cards in play order."""
    sim_spec, tricks, _ = simulated_hand(seed)
    log = HandLog(spec or sim_spec)
    true = []
    for number, trick in enumerate(tricks, start=1):
        for j, (seat, card) in enumerate(trick):
            add_play(log, seat, None if len(true) in unseen else card, number, leads=j == 0)
            true.append(card)
    return log, true


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 300), which=st.integers(0, 23))
def test_the_one_play_never_seen_of_a_deck_played_out_is_named_and_stays_marked(
    seed: int, which: int
) -> None:
    log, true = _log(seed, {which})
    _, tricks, truth = simulated_hand(seed)
    assert log.missed() == [which]
    lines = deduce_missed(log, 30.0)
    assert log.cards()[which][1] == true[which] and log.missed() == []
    assert len(lines) == 1 and f"play {which + 1} " in lines[0] and str(true[which]) in lines[0]
    assert [(c.index, c.by) for c in log.corrections] == [(which, DEDUCED)]
    assert log.plays[which].confirm  # a person confirms it: it rests on every other play
    assert f"named {true[which]}: the one card of the deck" in log.plays[which].reason
    assert log.record()["tricks"] == truth["tricks"]
    assert score_record(log.record())["score"] == score_record(truth)["score"]
    assert deduce_missed(log, 31.0) == [] and len(log.corrections) == 1  # made once


def test_nothing_is_named_while_the_hand_is_not_over() -> None:
    log, _ = _log(5, {3})
    del log.plays[-1]  # the last trick still lacks a card
    assert deduce_missed(log, 30.0) == [] and log.missed() == [3]


def test_two_plays_never_seen_are_not_guessed_until_a_person_names_one() -> None:
    log, true = _log(7, {2, 13})
    assert deduce_missed(log, 30.0) == [] and log.missed() == [2, 13]
    log.correct(2, true[2], by="referee", t=31.0)
    assert len(deduce_missed(log, 32.0)) == 1
    assert log.cards()[13][1] == true[13] and log.cards()[2][1] == true[2]


def test_a_play_a_person_named_is_never_renamed() -> None:
    log, true = _log(11, {6})
    wrong = true[7]  # the person names another card (their mistake, theirs to make)
    log.correct(6, wrong, by="referee", t=31.0)
    assert deduce_missed(log, 32.0) == [] and log.cards()[6][1] == wrong


def test_a_deck_not_played_out_names_nothing() -> None:
    """Klaberjass plays 18 of its 32 cards: the card no play shows is one of 15."""
    spec, _, _ = simulated_hand(13)
    bigger = dataclasses.replace(spec, deck=frozenset(DECK_32))
    log, _ = _log(13, {4}, bigger)
    assert deduce_missed(log, 30.0) == [] and log.missed() == [4]


def test_a_card_shown_twice_names_nothing_and_a_revision_renames_after_it() -> None:
    """Another play read as a card some play shows: two plays, one card, and the card
    no play shows is one of two, so nothing is named. Once the camera's deduction is made,
    another play revised onto the card it named frees the card that play showed: named so."""
    log, true = _log(17, {9})
    log.correct(0, true[1], by="camera: the hand read together", t=29.0)
    assert deduce_missed(log, 30.0) == [] and log.missed() == [9]
    log.correct(0, true[0], by="camera: the hand read together", t=30.5)
    assert len(deduce_missed(log, 31.0)) == 1 and log.cards()[9][1] == true[9]
    log.correct(0, true[9], by="camera: the hand read together", t=32.0)
    assert len(deduce_missed(log, 33.0)) == 1 and log.cards()[9][1] == true[0]


def test_the_watcher_names_it_among_its_revisions() -> None:
    """What ``trickcam watch`` reports once the hand is over: a 'revised' event naming it."""
    import numpy as np

    from vision.track.watch import Watcher

    spec, _, _ = simulated_hand(19)
    watcher = Watcher(spec, lambda crops: np.zeros((len(crops), 54)))
    log, true = _log(19, {22}, spec)
    watcher.log = log
    events = watcher._revise(40.0)
    assert [e.kind for e in events] == ["revised"] and str(true[22]) in events[0].text
    assert watcher.complete and watcher.log.cards()[22][1] == true[22]
    # trickcam watch's line tells a person how to correct it (plays 0-based, as --correct)
    from cli.watch import describe

    line = describe(events[0], spec)
    assert "play 23 (seat" in line and line.endswith("(if wrong: --correct 22=CARD)")


def test_a_play_named_by_the_deck_then_seen_after_all_is_read_as_it_shows() -> None:
    """The last trick judged gone short names its missing play by the deck; the card then
    shows after all (a hand had lain over it): the watcher reads it into that play, and its
    reading, not the deck's name, is the play's card, as the camera's correction (the
    corrections are events: the service posts each once, in order). A person's name since
    never gives way."""
    from vision.track.handread import SEEN, named_by_deck, seen_after_all

    log, true = _log(23, {23})
    assert len(deduce_missed(log, 30.0)) == 1 and named_by_deck(log, 23)
    seat, trick = log.plays[23].seat, log.plays[23].trick

    def read_into(card: Card) -> None:  # as Watcher._play(into=...) replaces the play
        add_play(log, seat, card, trick)
        log.plays[23] = dataclasses.replace(log.plays.pop(), index=23)
        seen_after_all(log, 23, 40.0)

    read_into(true[23])  # read as the deck named it: nothing to correct
    assert log.cards()[23][1] == true[23] and len(log.corrections) == 1
    read_into(true[0])  # read otherwise (some other play is then misread): the reading
    assert log.cards()[23][1] == true[0] and log.corrections[-1].by == SEEN
    assert not named_by_deck(log, 23)
    log2, true2 = _log(29, {10})
    deduce_missed(log2, 30.0)
    log2.correct(10, true2[11], by="referee", t=31.0)
    assert not named_by_deck(log2, 10)  # a person's name since: the watcher leaves it
    add_play(log2, log2.plays[10].seat, true2[10], log2.plays[10].trick)
    log2.plays[10] = dataclasses.replace(log2.plays.pop(), index=10)
    seen_after_all(log2, 10, 32.0)
    assert log2.cards()[10][1] == true2[11] and log2.corrections[-1].by == "referee"
