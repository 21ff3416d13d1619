"""A play whose index reads a number card while the middle of its views shows a court's picture is
marked for a person (``Watcher._judge_pips``, ``vision.read.pips.picture_doubt``).

Fresh seed 10574's light Klaberjass (10 fps, plastic; session 2026-12-06 thirty-second): a QH,
blurred, read 7H at 0.98 from its index on both its views (a face at 0.58 and 0.90), its middle
a court's figure: played unmarked, the one unmarked misread of that run. The hand log is built
by hand, the views drawn (no video needed)."""

from __future__ import annotations

import cv2
import numpy as np
from handlog_helpers import add_play, simulated_hand

from rules.cards import Card
from vision.read.decode import CARD_LABELS, LABELS
from vision.render.scene import plain_card
from vision.track.watch import Watcher, picture_views


def _reading(card: Card, p: float) -> np.ndarray:
    row = np.zeros(len(LABELS))
    row[CARD_LABELS.index(card)] = p
    row[LABELS.index("none")] = 1.0 - p
    return row


def _court_like(card: np.ndarray) -> np.ndarray:
    """``card`` with a figure drawn over its middle, as a court card's picture fills it."""
    out = card.copy()
    h, w = out.shape[:2]
    cv2.ellipse(out, (w // 2, h // 2), (w // 4, h // 3), 0, 0, 360, (60, 40, 30), cv2.FILLED)
    cv2.rectangle(out, (w // 2 - 12, h // 3), (w // 2 + 12, 2 * h // 3), (40, 40, 200), cv2.FILLED)
    return out


def test_a_number_card_read_where_the_middle_shows_a_picture_is_marked() -> None:
    spec, tricks, _truth = simulated_hand(4)
    watcher = Watcher(spec, lambda crops: np.zeros((len(crops), len(LABELS))), suit_reader=None)
    for seat, card in tricks[0]:
        add_play(watcher.log, seat, card, 1)
    play = watcher.log.plays[-1]
    number = next(c for c in CARD_LABELS if c.rank.value.isdigit())
    seven = cv2.resize(plain_card("7", "H"), (160, 240))
    views = [_reading(number, 0.58), _reading(number, 0.90)]
    # the middle of a number card (its pips) is no picture: nothing to doubt
    play.views, play.pictures = views, picture_views([seven, seven], views)
    assert play.pictures == [False, False]
    watcher._judge_pips()
    assert play.pips_note == ""
    # a court's figure there: the index is doubted and the play marked, whatever it read
    court = _court_like(seven)
    play.pictures = picture_views([court, court], views)
    assert play.pictures == [True, True]
    watcher._judge_pips()
    assert f"its index reads {number} but its middle shows a picture" in play.pips_note
    assert play.confirm


def test_only_views_that_read_more_as_a_face_than_not_say_whether_a_picture_shows() -> None:
    court = _court_like(cv2.resize(plain_card("7", "H"), (160, 240)))
    card = Card.parse("7H")
    assert picture_views([court, court], [_reading(card, 0.3), _reading(card, 0.6)]) == [True]
