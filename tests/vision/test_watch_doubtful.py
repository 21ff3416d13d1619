"""A card that came to rest read as no card (its outline found wrong, the table in it) and then,
found whole where it lay, read as a face but never clearly as one card (blurred, in shadow) is a
doubtful card: should its trick close with its seat's play missing, it is that play, named by
its best reading and marked for a person (``Watcher._read_clear``, ``Watcher._doubtful_plays``).

Light seed 10562's Clabber (30 fps, bellot; session 2026-12-06 thirty-second): trick 2's last
card, a QC, came to rest outlined a third off (read as no card), then read QC 0.53 / JC 0.24 at
every look until the trick was gathered: its play was marked missed rather than named QC. The
hand log is built by hand and the reader gives fixed readings (no video needed)."""

from __future__ import annotations

import numpy as np
from handlog_helpers import add_play, card_at, simulated_hand, toward_seat

from rules.cards import Card
from vision.read.decode import CARD_LABELS, LABELS
from vision.track.motion import Track
from vision.track.watch import Watcher


def _reading(best: Card, second: Card, top: float) -> np.ndarray:
    """A reading of ``best`` at ``top``, ``second`` at half that, the rest 'none'."""
    row = np.zeros(len(LABELS))
    row[CARD_LABELS.index(best)] = top
    row[CARD_LABELS.index(second)] = top / 2
    row[LABELS.index("none")] = 1.0 - 1.5 * top
    return row


def _trick_short_of_its_last_card(top: float) -> tuple[Watcher, Track, int, Card]:
    """A watcher with trick 1 played and trick 2 lacking its last card, whose find lies on
    its seat's side, read as no card when it came to rest; the reader reads every look as
    that card at ``top``."""
    spec, tricks, _truth = simulated_hand(5)
    seat, card = tricks[1][3]
    second = next(c for c in CARD_LABELS if c.suit == card.suit and c != card)
    watcher = Watcher(spec, lambda crops: np.array([_reading(card, second, top)] * len(crops)))
    watcher.size = (1280, 720)
    for s, c in tricks[0]:
        add_play(watcher.log, s, c, 1)
    for s, c in tricks[1][:3]:
        add_play(watcher.log, s, c, 2)
    middle = np.asarray(watcher.size, np.float64) / 2
    way = toward_seat(watcher, seat, 200)
    tr = Track(99, card_at(middle + 200 * way), 10.0, 10.0, status="present")
    tr.near_look = np.zeros((240, 160, 3), np.uint8)
    tr.crops = [tr.near_look]  # (as it came to rest)
    tr.found_last = 10.5
    watcher.tracker.tracks.append(tr)
    watcher.ignored_tracks.add(tr.id)
    watcher.ignored_reads[tr.id] = (10.0, -1)  # read as no card as it came to rest
    return watcher, tr, seat, card


def test_a_card_never_read_clearly_is_its_seats_play_when_the_trick_closes_short() -> None:
    watcher, tr, seat, card = _trick_short_of_its_last_card(0.55)
    assert watcher._read_clear() == []  # a face (0.83), but no card clearly: not played
    assert tr.id in watcher.doubtful
    watcher._infer_missed(12.0, why="the next trick's lead came")
    last = watcher.log.plays[-1]
    assert (last.seat, last.card, last.missed) == (seat, card, False)
    assert last.confirm  # marked for a person
    assert "never read clearly" in last.seat_note
    assert watcher.play_of_track[tr.id] == last.index


def test_a_find_that_reads_as_no_face_stays_a_missed_play() -> None:
    watcher, tr, seat, _card = _trick_short_of_its_last_card(0.1)  # 'none' at 0.85
    assert watcher._read_clear() == []
    assert tr.id not in watcher.doubtful
    watcher._infer_missed(12.0, why="the next trick's lead came")
    last = watcher.log.plays[-1]
    assert (last.seat, last.card, last.missed) == (seat, None, True)
