"""``trickcam watch --post``: what reaches a running ``trickcam serve`` when the camera missed
a play. The plays go in the game's turn order; a missed play holds back the plays after it (the
server's rules engine would refuse them out of turn), and once a person names it the hand is
posted whole and the server scores it as the record does. A real server in a thread, the real
poster; the hand log is built from a simulated Clabber hand (no video needed)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from handlog_helpers import add_play, simulated_hand

from cli.post import Poster, setup_events
from rules.cards import Card
from rules.records import score_record
from tests.vision.conftest import new_clabber_table
from vision.track.games import GameSpec
from vision.track.handlog import HandLog


def _posting(server: str, spec: GameSpec) -> tuple[dict, Poster, list[str]]:  # type: ignore[type-arg]
    """A new table on ``server``, a poster to it that has sent the hand's setup (deal,
    calls), and the list its refusals go to."""
    table = new_clabber_table(server)
    refused: list[str] = []
    poster = Poster(
        f"{server}/api/tables/{table['id']}", str(table["scorer_token"]), refused.append
    )
    for event in setup_events(spec):
        poster.add(event)
    return table, poster, refused


def _get(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


@pytest.mark.parametrize("which", [1, 9, 22])
def test_a_missed_play_holds_back_the_plays_after_it_until_a_person_names_it(
    server: str, which: int
) -> None:
    spec, tricks, truth = simulated_hand(which)
    table, poster, refused = _posting(server, spec)

    log = HandLog(spec)
    k, j = divmod(which, 4)
    missed_card: Card | None = None
    for number, trick in enumerate(tricks, start=1):
        for pos, (seat, card) in enumerate(trick):
            if number == k + 1 and pos == j:
                missed_card = card
                continue
            add_play(log, seat, card, number)
            poster.sync(log)
        if number == k + 1:  # the trick closes with the missed play (as the watcher does)
            add_play(log, trick[j][0], None, number)
            poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    current = state["current"]
    posted = sum(len(t["cards"]) for t in current["tricks"]) + len(current["trick"])
    assert posted == 4 * k + j  # everything before the missed play in turn order, no more
    assert refused == []  # nothing was sent out of turn
    assert len(poster.waiting(log)) == len(log.plays) - posted

    assert missed_card is not None
    missed = log.missed()
    log.correct(missed[0], missed_card, by="a person")
    poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    assert refused == [] and poster.waiting(log) == []
    assert state["hands"][0]["score"] == score_record(truth)["score"]
    assert state["hands"][0]["score"] == score_record(log.record())["score"]


@pytest.mark.parametrize("seed", [3, 17])
def test_a_revision_that_frees_a_card_is_posted_before_the_play_read_as_it(
    server: str, seed: int
) -> None:
    """Trick 1's second card posted as the fourth's name (a classifier reading two cards
    alike); when the fourth is read, the hand read together revises the second. The poster
    sends that correction first, then the fourth play: the other way round the server's rules
    would refuse the fourth as a card played twice, for good."""
    spec, tricks, truth = simulated_hand(seed)
    table, poster, refused = _posting(server, spec)
    log = HandLog(spec)
    for number, trick in enumerate(tricks, start=1):
        for pos, (seat, card) in enumerate(trick):
            add_play(log, seat, tricks[0][3][1] if (number, pos) == (1, 1) else card, number)
            if (number, pos) == (1, 3):
                log.correct(1, tricks[0][1][1], by="camera: the hand read together")
            poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    assert refused == [] and poster.waiting(log) == []
    assert state["hands"][0]["score"] == score_record(truth)["score"]


def test_plays_marked_for_a_person_are_posted_with_their_doubt_and_crop(server: str) -> None:
    """``trickcam watch --post`` tells the server what the camera doubted, as the camera page's
    server does: trick 1's second card read in doubt (its two candidates), trick 2's lead
    marked after it was posted (a later card read as the same), and trick 3's third never
    seen and named by the deck once the hand is over. Each is listed awaiting confirmation
    with its candidates, why, and its crop where the camera has one; the plays read sure are
    not; a play a person corrected before it was posted asks nothing."""
    import dataclasses

    import numpy as np

    from vision.read.decode import LABELS
    from vision.track.handread import deduce_missed

    spec, tricks, truth = simulated_hand(5)
    table, poster, refused = _posting(server, spec)
    log = HandLog(spec)
    crop = np.full((24, 16, 3), 200, np.uint8)
    other = tricks[0][1][1]
    for number, trick in enumerate(tricks, start=1):
        for pos, (seat, card) in enumerate(trick):
            add_play(log, seat, None if (number, pos) == (3, 2) else card, number, leads=pos == 0)
            play = log.plays[-1]
            if not play.missed:  # (a missed play has nothing to show)
                play.crop = crop
            if (number, pos) == (1, 1):  # read in doubt between it and trick 1's lead
                doubt = (card, tricks[0][0][1])
                play.reading = dataclasses.replace(play.reading, confirm=True, doubt=doubt)
            if (number, pos) == (2, 0):  # read sure, its runner-up the queen of its suit
                lead = play
                play.probs[LABELS.index(str(card))] = 0.97
                runner = next(c for c in ("Q", "K") if c + str(card)[-1] != str(card))
                play.probs[LABELS.index(runner + str(card)[-1])] = 0.02
            if (number, pos) == (4, 3):  # trick 4's last card corrected by a person at once
                play.reading = dataclasses.replace(play.reading, confirm=True, doubt=(card, other))
                log.correct(len(log.plays) - 1, card, by="--correct")
            poster.sync(log)
        if number == 2:
            lead.again_note = "play 9 reads as it too: one of the two is misread"
    assert deduce_missed(log, 60.0)
    poster.sync(log)
    state = _get(f"{server}/api/tables/{table['id']}")
    assert refused == [] and poster.waiting(log) == []
    assert state["hands"][0]["score"] == score_record(truth)["score"]
    awaiting = {(a["seat"], a["card"]): a for a in state["awaiting_confirmation"]}
    doubted, marked, named = (tricks[0][1], tricks[1][0], tricks[2][2])
    assert set(awaiting) == {(s, str(c)) for s, c in (doubted, marked, named)}
    assert awaiting[(doubted[0], str(doubted[1]))]["candidates"] == [
        str(doubted[1]),
        str(tricks[0][0][1]),
    ]
    again = awaiting[(marked[0], str(marked[1]))]
    assert "reads as it too" in again["reason"]
    assert again["candidates"] == [str(marked[1]), runner + str(marked[1])[-1]]
    deck = awaiting[(named[0], str(named[1]))]
    assert deck["candidates"] == [str(named[1])] and deck["crop_url"] is None
    assert "no other play shows" in deck["reason"]
    crop_url = awaiting[(doubted[0], str(doubted[1]))]["crop_url"]
    assert urllib.request.urlopen(f"{server}{crop_url}", timeout=10).read().startswith(b"\x89PNG")
