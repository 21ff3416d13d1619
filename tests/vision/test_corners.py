"""The index-corner path: layout truth, virtual outlines, decoding, pairing, and the shipped
corner detector on rendered layouts of deck designs it never saw."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.ci import need
from vision.detect.corners import (
    CLOSEUP_LONG_SIDE,
    FINE_LONG_SIDE,
    INDEX_CENTRE,
    INPUT_LONG_SIDE,
    MODEL_PATH,
    STRIDE,
    CornerDetector,
    Corners,
    decode,
    merge,
    pair_corners,
    pair_quad,
    unexplained,
    virtual_quads,
)
from vision.detect.find import Detections, release_corners
from vision.detect.preprocess import CARD_H, CARD_W
from vision.render.layouts import _paste, _visible, index_point, index_region


def _rect(x: float, y: float, w: float, h: float, angle: float = 0.0) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    right, down = np.array([c, s]), np.array([-s, c])
    tl = np.array([x, y])
    return np.array([tl, tl + w * right, tl + w * right + h * down, tl + h * down], np.float32)


@pytest.mark.parametrize("angle", [0.0, 0.4, 2.0, -2.7])
def test_a_virtual_outline_from_either_index_is_the_card(angle: float) -> None:
    quad = _rect(300, 200, 90, 130, angle)
    right = (quad[1] - quad[0]) / 90
    tl = virtual_quads(index_point(quad, 0)[None], right[None], np.array([[90, 130]]))[0]
    assert np.abs(tl - quad).max() < 1e-3
    br = virtual_quads(index_point(quad, 2)[None], -right[None], np.array([[90, 130]]))[0]
    assert np.abs(br - np.roll(quad, 2, axis=0)).max() < 1e-3


def test_the_index_point_is_the_middle_of_the_index_region() -> None:
    quad = _rect(10, 20, 100, 150, 0.3)
    for corner in (0, 2):
        assert np.allclose(index_region(quad, corner).mean(axis=0), index_point(quad, corner))
    assert np.allclose(index_point(quad, 0) - quad[0], INDEX_CENTRE[0] * (quad[1] - quad[0]) + INDEX_CENTRE[1] * (quad[3] - quad[0]))  # fmt: skip


def test_visibility_counts_what_a_later_card_covers() -> None:
    canvas = np.zeros((300, 400, 3), np.uint8)
    owner = np.full((300, 400), -1, np.int32)
    face = np.dstack([np.full((130, 90, 3), 240, np.uint8), np.full((130, 90), 255, np.uint8)])
    under = _rect(100, 50, 90, 130)
    over = _rect(150, 120, 90, 130)  # covers the lower card's bottom-right corner
    _paste(canvas, owner, 0, face, under, 0.0)
    _paste(canvas, owner, 1, face, over, 0.0)
    assert _visible(owner, 0, index_region(under, 0)) > 0.95
    assert _visible(owner, 0, index_region(under, 2)) < 0.05
    assert _visible(owner, 1, index_region(over, 0)) > 0.95
    cut = _rect(350, 250, 90, 130)  # mostly outside the picture
    _paste(canvas, owner, 2, face, cut, 0.0)
    assert _visible(owner, 2, index_region(cut, 2)) == 0.0


def test_decode_reads_a_peak_back_into_frame_pixels() -> None:
    out = np.full((7, 20, 30), 0.0, np.float32)
    out[0] = -8.0
    out[0, 6, 11] = 3.0  # one corner
    out[1, 6, 11], out[2, 6, 11] = 0.0, 2.0  # pointing down (unnormalised)
    out[3, 6, 11], out[4, 6, 11] = np.log(40 / STRIDE), np.log(60 / STRIDE)
    out[5, 6, 11], out[6, 6, 11] = 0.25, -0.5
    points, right, sizes, scores = decode(out, scale=0.5)
    assert len(points) == 1 and scores[0] > 0.9
    assert np.allclose(points[0], ((11 + 0.75) * STRIDE / 0.5, (6 + 0.0) * STRIDE / 0.5))
    assert np.allclose(right[0], (0.0, 1.0))
    assert np.allclose(sizes[0], (80, 120), rtol=1e-5)


def _inside_quad(quad: np.ndarray, point: np.ndarray) -> bool:
    import cv2

    return (
        cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) > 0
    )


def _corners_of(quads: list[np.ndarray], which: list[tuple[int, int]]) -> Corners:
    pts, rights, sizes = [], [], []
    for k, corner in which:
        q = quads[k]
        w = float(np.linalg.norm(q[1] - q[0]))
        h = float(np.linalg.norm(q[3] - q[0]))
        r = (q[1] - q[0]) / w
        pts.append(index_point(q, corner))
        rights.append(r if corner == 0 else -r)
        sizes.append((w, h))
    n = len(which)
    return Corners(
        np.array(pts, np.float32),
        np.array(rights, np.float32),
        np.array(sizes, np.float32),
        np.linspace(0.9, 0.5, n).astype(np.float32),
    )


def test_the_two_corners_of_one_card_pair_and_give_its_outline() -> None:
    a = _rect(100, 100, 80, 120, 0.2)
    b = _rect(400, 120, 80, 120, -0.5)  # a lone corner of another card
    corners = _corners_of([a, b], [(0, 0), (1, 0), (0, 2)])
    pairs, singles = pair_corners(corners, np.arange(3))
    assert len(pairs) == 1 and sorted(pairs[0]) == [0, 2]
    assert singles == [1]
    i, j = pairs[0]
    quad = pair_quad(corners, i, j)
    expected = a if i == 0 else np.roll(a, 2, axis=0)
    assert np.abs(quad - expected).max() < 1e-3


def test_corners_on_an_outlined_card_are_that_cards() -> None:
    a = _rect(100, 100, 80, 120)
    b = _rect(300, 100, 80, 120)
    corners = _corners_of([a, b], [(0, 0), (0, 2), (1, 0)])
    assert unexplained(corners, np.stack([a])).tolist() == [2]
    assert unexplained(corners, np.zeros((0, 4, 2), np.float32)).tolist() == [0, 1, 2]
    # a card half under an outlined one, its index inside that outline but far from the
    # outline's corners, is another card
    under = _rect(130, 150, 80, 120)
    inside = _corners_of([under], [(0, 0)])
    assert _inside_quad(a, inside.points[0])
    assert unexplained(inside, np.stack([a])).tolist() == [0]


def test_an_outline_far_bigger_than_the_corners_card_does_not_explain_it() -> None:
    # a pale table (or a blob of cards) outlined as one "card" holds the index corners of the
    # cards on it: they are not its own
    a = _rect(100, 100, 80, 120)
    b = _rect(300, 100, 80, 120)
    corners = _corners_of([a, b], [(0, 0), (1, 0)])
    table = _rect(40, 40, 400, 300)
    assert unexplained(corners, np.stack([table])).tolist() == [0, 1]
    # an outline a little bigger than the card (its edge band) is still that card's
    band = _rect(94, 94, 92, 132)
    assert unexplained(corners, np.stack([band])).tolist() == [1]


def test_a_tight_spreads_corners_stay_apart_and_a_corner_found_twice_is_one() -> None:
    # a row of cards each showing only its index strip: corners under a fifth of a width apart
    width, n = 200.0, 8
    points = np.array([[100.0 + 0.17 * width * k, 80.0] for k in range(n)], np.float32)
    right = np.tile(np.float32([1.0, 0.0]), (n, 1))
    sizes = np.tile(np.float32([width, 1.45 * width]), (n, 1))
    first = (points, right, sizes, np.full(n, 0.8, np.float32))
    # a second pass finds every one again a few pixels off, less surely
    second = (points + np.float32([3.0, -2.0]), right, sizes * 1.05, np.full(n, 0.6, np.float32))
    got = merge([first, second])
    assert len(got.points) == n
    assert np.allclose(np.sort(got.points[:, 0]), points[:, 0])
    assert np.all(got.scores == np.float32(0.8))


def test_large_frames_are_searched_again_at_a_finer_scale() -> None:
    passes = CornerDetector.passes
    assert passes((720, 1280, 3), INPUT_LONG_SIDE, True, True) == [
        INPUT_LONG_SIDE,
        CLOSEUP_LONG_SIDE,
        FINE_LONG_SIDE,
    ]
    assert passes((480, 640, 3), INPUT_LONG_SIDE, True, True) == [
        INPUT_LONG_SIDE,
        CLOSEUP_LONG_SIDE,
    ]
    assert passes((720, 1280, 3), INPUT_LONG_SIDE, False, False) == [INPUT_LONG_SIDE]


@pytest.mark.parametrize("kind", ["spread", "column", "fan", "row"])
def test_the_shipped_detector_finds_the_corners_of_unseen_designs(kind: str) -> None:
    """Layouts of held-out deck designs (never trained on): the detector finds most visible
    index corners, and what it reports lies on an index corner."""
    need(MODEL_PATH.is_file(), f"the shipped corner model at {MODEL_PATH}")
    from vision.detect.corners import CornerDetector
    from vision.render.decks import list_decks, load_deck
    from vision.render.layouts import CardSource, render_layout

    decks = [d for d in list_decks() if d.heldout]
    need(bool(decks), "Debian's gnome-cards-data decks (the held-out designs)")
    source = CardSource([load_deck(d) for d in decks], p_fontcard=0.0, p_dark=0.0)
    detector = CornerDetector(Path(MODEL_PATH))
    found = wanted = hits = false = 0
    for seed in range(6):
        rng = np.random.default_rng((99, seed))
        layout = render_layout(rng, source, 640, 480, (50, 90), kind=kind, surface_kind="table")
        corners = detector.find(layout.image)
        truth = [
            (index_point(c.quad, corner), float(np.linalg.norm(c.quad[1] - c.quad[0])), vis)
            for c in layout.cards
            if c.label != "back"
            for corner, vis in zip((0, 2), c.visible, strict=True)
        ]
        for p, w, vis in truth:
            if vis >= 0.8:
                wanted += 1
                hits += (
                    bool(len(corners)) and float(np.hypot(*(corners.points - p).T).min()) < w / 3
                )
        for q in corners.points:
            found += 1
            false += not any(np.hypot(*(q - p)) < w / 3 for p, w, vis in truth if vis >= 0.3)
    assert hits >= 0.85 * wanted, f"{hits} of {wanted} visible corners found"
    assert false <= 0.1 * max(found, 1), f"{false} of {found} finds on no index corner"


def test_training_targets_peak_at_one_on_the_corners_cell_and_recover_the_point() -> None:
    from vision.train.corners import targets

    kps = [
        (np.array([37.3, 61.9], np.float32), np.array([0.6, 0.8], np.float32), 48.0, 70.0, 0.9),
        (np.array([120.0, 20.0], np.float32), np.array([1.0, 0.0], np.float32), 40.0, 60.0, 0.45),
    ]
    t = targets(kps, 192, 192)
    peaks = np.argwhere(t["heat"] >= 1.0)
    assert peaks.tolist() == [[int(round(61.9 / STRIDE - 0.5)), int(round(37.3 / STRIDE - 0.5))]]
    y, x = peaks[0]
    reg = t["reg"][:, y, x]
    assert np.allclose(reg[:2], (0.6, 0.8))
    assert np.allclose(np.exp(reg[2:4]) * STRIDE, (48.0, 70.0))
    assert np.allclose(((x + 0.5 + reg[4]) * STRIDE, (y + 0.5 + reg[5]) * STRIDE), (37.3, 61.9))
    # the half-visible corner is neither a corner nor background
    hy, hx = int(round(20 / STRIDE - 0.5)), int(round(120 / STRIDE - 0.5))
    assert t["heat"][hy, hx] == 0 and t["ignore"][hy, hx] == 1


def test_corners_an_outline_read_as_no_card_held_are_released() -> None:
    # two overlapping cards on a pale table outlined as one blob (its area within what one
    # card's corners are explained by); a third card outlined on its own
    a, b, c = _rect(100, 100, 80, 120), _rect(130, 110, 80, 120), _rect(330, 100, 80, 120)
    blob = _rect(100, 100, 110, 130)
    # (a's top-left index and b's bottom-right one: each at a corner of the blob's outline)
    corners = _corners_of([a, b, c], [(0, 0), (1, 2), (2, 0)])
    assert unexplained(corners, np.stack([blob, c])).tolist() == []
    found = Detections(
        quads=np.stack([blob, c]).astype(np.float32),
        areas=np.array([110 * 130, 80 * 120], np.float32),
        scores=np.ones(2, np.float32),
        partial=np.zeros(2, bool),
        crops=np.zeros((2, CARD_H, CARD_W, 3), np.uint8),
        ambiguous=np.zeros(2, bool),
        frame=np.full((400, 600, 3), 200, np.uint8),
        one_corner=np.zeros(2, bool),
        corners=corners,
    )
    assert release_corners(found, []) is found
    freed = release_corners(found, [0])  # the blob was read as no card
    assert len(freed) == 4
    assert freed.one_corner.tolist() == [False, False, True, True]
    assert freed.corners is corners
    # the new rows are the two cards' virtual outlines (their corners alone), not the third's
    virtual = corners.quads()
    got = sorted(freed.quads[2:].reshape(2, -1).tolist())
    assert np.allclose(got, sorted(virtual[:2].reshape(2, -1).tolist()), atol=1e-3)
    # without the detector's corners nothing is released
    assert release_corners(replace(found, corners=None), [0]).quads.shape == (2, 4, 2)
