"""vision.read.recognize: what a frame's rows become as named finds."""

from __future__ import annotations

import numpy as np

from vision.detect.candidates import iou
from vision.detect.find import Detections
from vision.detect.preprocess import LABELS
from vision.detect.quads import quad_area
from vision.read.classify import PARTIAL_THRESHOLD, Readings
from vision.read.recognize import (
    OPPOSITE_OVERLAP,
    finds_from,
    join_opposite_corners,
    one_of_each,
)


def _rect(x: float, y: float, w: float, h: float) -> np.ndarray:
    """An upright outline (TL, TR, BR, BL)."""
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def _reading(card: str, p: float) -> np.ndarray:
    """A one-corner reading: ``p`` on ``card``, some on the other black ace and on 'none', the
    rest spread."""
    probs = np.full(len(LABELS), 0.002, np.float32)
    probs[LABELS.index(card)] = p
    probs[LABELS.index("AS")] = 0.04
    probs[LABELS.index("none")] = 0.03
    return probs / probs.sum()


def _rows(quads: list[np.ndarray], readings: list[np.ndarray]) -> tuple[Detections, Readings]:
    n = len(quads)
    probs = np.stack(readings)
    best = probs.argmax(axis=1)
    confidence = probs[np.arange(n), best]
    det = Detections(
        quads=np.stack(quads),
        areas=np.ones(n, np.float32),
        scores=np.ones(n, np.float32),
        partial=np.zeros(n, bool),
        crops=np.zeros((n, 240, 160, 3), np.uint8),
        ambiguous=np.zeros(n, bool),
        one_corner=np.ones(n, bool),
    )
    return det, Readings(
        labels=LABELS,
        probs=probs,
        best=tuple(LABELS[k] for k in best),
        confidence=confidence,
        unsure=confidence < PARTIAL_THRESHOLD,
        one_corner=np.ones(n, bool),
    )


def _turned(quad: np.ndarray) -> np.ndarray:
    """The outline of the same place seen from its opposite corner (turned half round)."""
    return np.roll(quad, 2, axis=0)


def test_one_card_read_from_both_its_corners_is_named_once_from_the_two_readings() -> None:
    """guillex7's ace of clubs alone on white paper: the index-corner detector finds both its
    corners but guesses the card too small, so the two guessed outlines, each
    starting at its own index, overlap by less than half and are not paired as one card;
    each corner read alone is unsure (0.88, 0.78). Facing opposite ways and overlapping more
    than OPPOSITE_OVERLAP, naming one card, they are that card: the surer row gets the two
    readings combined and is named; the other row is left as it was."""
    small = 0.8  # the card is 400 x 600 at (100, 100); each guess a fifth short
    a = _rect(100, 100, 400 * small, 600 * small)  # from the top-left index
    b = _turned(_rect(100 + 400 * (1 - small), 100 + 600 * (1 - small), 400 * small, 600 * small))
    det, rd = _rows([a, b], [_reading("AC", 0.88), _reading("AC", 0.78)])
    assert rd.card(0) is None and rd.card(1) is None
    joined = join_opposite_corners(det, rd)
    assert joined.card(0) == "AC" and joined.confidence[0] > 0.99
    assert np.allclose(joined.probs[1], rd.probs[1]) and joined.card(1) is None
    assert [f.card for f in finds_from(det, joined)] == ["AC"]
    assert iou(a, b, quad_area(a)) < 0.5  # (what kept the two corners from pairing)


def test_corners_facing_one_way_apart_or_naming_two_cards_are_not_joined() -> None:
    a = _rect(100, 100, 300, 450)
    apart = _turned(_rect(380, 520, 300, 450))  # opposite, but sharing little
    same_way = _rect(140, 150, 300, 450)  # overlapping much, facing the same way
    other = _turned(_rect(120, 130, 300, 450))  # opposite and overlapping, another card
    for second, reading in (
        (apart, _reading("AC", 0.8)),
        (same_way, _reading("AC", 0.8)),
        (other, _reading("KC", 0.8)),
    ):
        det, rd = _rows([a, second], [_reading("AC", 0.85), reading])
        joined = join_opposite_corners(det, rd)
        assert np.allclose(joined.probs, rd.probs)
        assert joined.card(0) is None
    # (the first case shares under OPPOSITE_OVERLAP; the last two well over it)
    assert iou(a, apart, quad_area(a)) < OPPOSITE_OVERLAP
    assert iou(a, other, quad_area(a)) > OPPOSITE_OVERLAP


def _between(first: str, p: float, second: str, q: float, **more: float) -> np.ndarray:
    """A reading unsure between cards: ``p`` on ``first``, ``q`` on ``second`` (and each of
    ``more``'s), a little on every other label."""
    probs = np.full(len(LABELS), 0.0002, np.float32)
    probs[LABELS.index(first)] = p
    probs[LABELS.index(second)] = q
    for card, r in more.items():
        probs[LABELS.index(card)] = r
    return probs / probs.sum()


def _sure(card: str) -> np.ndarray:
    """A sure reading of ``card`` (above the one-corner threshold)."""
    return _between(card, 0.99, "none", 0.0)


def _whole(det: Detections, rd: Readings, *rows: int) -> tuple[Detections, Readings]:
    """The same rows, ``rows`` whole cards (read from the whole face), the rest one-corner."""
    one = np.ones(len(rd), bool)
    one[list(rows)] = False
    return (
        Detections(
            quads=det.quads,
            areas=det.areas,
            scores=det.scores,
            partial=det.partial,
            crops=det.crops,
            ambiguous=det.ambiguous,
            one_corner=one,
        ),
        Readings(rd.labels, rd.probs, rd.best, rd.confidence, rd.unsure, one),
    )


def test_a_card_named_elsewhere_is_ruled_out_of_an_unsure_reading() -> None:
    """bidly's fanned hands: a 7 read from one corner as 7S 0.55 / 7C 0.40 beside the 7S
    lying surely named in another hand. One deck holds one 7S: the unsure corner is the 7C,
    and the 7C so named rules it out of a third corner read 7C / 7H in turn."""
    sure = _rect(600, 100, 300, 450)  # the 7S, in another hand
    fanned = _rect(100, 100, 300, 450)  # a fanned card's corner: the next card lies on it
    on_it = _rect(160, 110, 300, 450)
    third = _rect(100, 600, 300, 450)
    det, rd = _rows(
        [sure, fanned, on_it, third],
        [
            _sure("7S"),
            _between("7S", 0.55, "7C", 0.40),
            _sure("KD"),
            _between("7C", 0.50, "7H", 0.46),
        ],
    )
    assert [rd.card(i) for i in range(4)] == ["7S", None, "KD", None]
    out = one_of_each(det, rd)
    assert [out.card(i) for i in range(4)] == ["7S", "7C", "KD", "7H"]
    assert out.confidence[1] >= PARTIAL_THRESHOLD and out.confidence[3] >= PARTIAL_THRESHOLD
    assert np.allclose(out.probs[[0, 2]], rd.probs[[0, 2]])  # the sure rows as they were
    assert sorted(f.card for f in finds_from(det, out)) == ["7C", "7H", "7S", "KD"]
    # a card ruled out leaves an unsure reading unsure when what is left is not sure
    left = _between("7S", 0.5, "7C", 0.3, **{"8C": 0.2})
    det, rd = _rows([sure, fanned], [_sure("7S"), left])
    assert one_of_each(det, rd).card(1) is None


def test_what_may_be_the_same_card_rules_nothing_out() -> None:
    """Never struck out by the card it may itself be: a corner lying on a whole card named
    7S (that card's own index), the same corner found twice, or the card's other corner
    facing the other way over it; each stays unsure."""
    whole = _rect(100, 100, 300, 450)
    own_corner = _rect(110, 110, 300, 450)
    det, rd = _whole(*_rows([whole, own_corner], [_sure("7S"), _between("7S", 0.55, "7C", 0.4)]), 0)
    assert one_of_each(det, rd).card(1) is None
    # a whole outline left unsure is never named so (it may span two overlapping cards)
    far = _rect(700, 100, 300, 450)
    det, rd = _whole(*_rows([far, whole], [_sure("7S"), _between("7S", 0.55, "7C", 0.4)]), 1)
    assert one_of_each(det, rd).card(1) is None
    det, rd = _whole(*_rows([far, whole], [_sure("7S"), _between("7S", 0.55, "7C", 0.4)]))
    assert one_of_each(det, rd).card(1) == "7C"  # (read from one corner: named)

    corner = _rect(100, 100, 300, 450)
    twice = _rect(112, 104, 290, 440)
    other_end = _turned(_rect(160, 190, 300, 450))
    for second in (twice, other_end):
        det, rd = _rows([corner, second], [_sure("7S"), _between("7S", 0.55, "7C", 0.4)])
        out = one_of_each(det, rd)
        assert out.card(1) is None and np.allclose(out.probs, rd.probs)
    # the same readings apart: ruled out
    apart = _rect(700, 100, 300, 450)
    det, rd = _rows([corner, apart], [_sure("7S"), _between("7S", 0.55, "7C", 0.4)])
    assert one_of_each(det, rd).card(1) == "7C"
