"""Outlines corrected against the image's edges: snapping onto a card's border, and from a court
card's picture frame out to the card."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detect.edges import edge_support, frame_to_card, snap_quad
from vision.detect.preprocess import order_quad
from vision.render.scene import card_quad, paste_card, table_texture

PAPER = 120.0  # between the black table (~22) and the paper (~246) of these scenes


def _error(found: np.ndarray, truth: np.ndarray) -> float:
    a, b = order_quad(found), order_quad(truth)
    return min(float(np.linalg.norm(np.roll(a, k, 0) - b, axis=1).max()) for k in range(4))


def _court_card(width: int = 250, height: int = 350) -> np.ndarray:
    """White paper with a picture frame: a dark line round a busy, partly white picture."""
    card = np.full((height, width, 3), 246, np.uint8)
    x0, y0, x1, y1 = int(0.14 * width), int(0.1 * height), int(0.86 * width), int(0.9 * height)
    rng = np.random.default_rng(5)
    picture = rng.integers(0, 255, ((y1 - y0) // 10 + 1, (x1 - x0) // 10 + 1, 3), np.uint8)
    picture = cv2.resize(picture, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
    card[y0:y1, x0:x1] = picture
    cv2.rectangle(card, (x0, y0), (x1, y1), (40, 40, 40), 3)
    cv2.putText(card, "Q", (4, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (30, 30, 200), 2)
    return card


def _edge_image(frame: np.ndarray) -> np.ndarray:
    """What detection looks for borders in: the blurred per-pixel minimum of B, G, R."""
    b, g, r = cv2.split(frame)
    return cv2.GaussianBlur(cv2.min(cv2.min(b, g), r), (5, 5), 0)


def _shifted(quad: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL; clockwise on screen) with each side's start and end moved
    outward by ``shifts`` (4 x 2 pixels): the skewed, grown or shrunk fit a mask gives."""
    a = quad.astype(np.float64)
    b = np.roll(a, -1, axis=0)
    d = (b - a) / np.linalg.norm(b - a, axis=1)[:, None]
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)  # outward for this corner order
    a2, b2 = a + shifts[:, :1] * n, b + shifts[:, 1:] * n
    corners = []
    for i in range(4):
        p, r = a2[i - 1], b2[i - 1] - a2[i - 1]
        q, s = a2[i], b2[i] - a2[i]
        t = ((q - p)[0] * s[1] - (q - p)[1] * s[0]) / (r[0] * s[1] - r[1] * s[0])
        corners.append(p + t * r)
    return np.array(corners, np.float32)


@settings(max_examples=20, deadline=None)
@given(
    angle=st.floats(-180, 180),
    long_side=st.floats(90, 260),
    jitter=st.lists(st.floats(0, 1), min_size=8, max_size=8),
)
def test_a_quad_a_few_pixels_off_snaps_onto_the_card(
    angle: float, long_side: float, jitter: list[float]
) -> None:
    truth = card_quad((400, 300), long_side, angle)
    frame = table_texture("black", 800, 600, np.random.default_rng(0))
    paste_card(frame, np.full((350, 250, 3), 246, np.uint8), truth)
    # each end of each side up to 7 % of the card's size inside the card or 1.5 px outside
    # (a skewed or shrunk fit; snapping inward is held back, so that a card's outline never
    # shrinks onto its picture frame)
    size = float(np.sqrt(cv2.contourArea(truth)))
    shifts = 1.5 - (0.07 * size + 1.5) * np.array(jitter).reshape(4, 2)
    off = _shifted(truth, shifts)
    snapped, support = snap_quad(_edge_image(frame), off, 0.1 * size, PAPER)
    assert _error(snapped, truth) < max(2.0, _error(off, truth) / 3)  # < 2 px, or a third
    assert support.min() > 0.9


def test_a_card_outline_does_not_shrink_onto_its_picture_frame() -> None:
    truth = card_quad((400, 300), 200, 20)
    frame = table_texture("black", 800, 600, np.random.default_rng(1))
    paste_card(frame, _court_card(), truth)
    snapped, support = snap_quad(_edge_image(frame), truth, 0.1 * 167, PAPER)
    assert _error(snapped, truth) < 2.0 and support.min() > 0.9


def test_nothing_to_snap_to_leaves_the_quad_and_reports_no_support() -> None:
    frame = table_texture("black", 800, 600, np.random.default_rng(2))
    quad = card_quad((400, 300), 200, 10)
    snapped, support = snap_quad(_edge_image(frame), quad, 16, PAPER)
    assert np.abs(snapped - quad).max() < 1e-3
    assert (support == 0.0).all()
    assert (edge_support(_edge_image(frame), quad) == 0.0).all()


def _frame_quad(card: np.ndarray) -> np.ndarray:
    """The picture frame's corners in the card's own pixels (TL, TR, BR, BL)."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = 0.14 * w, 0.1 * h, 0.86 * w, 0.9 * h
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _to_frame(points: np.ndarray, card: np.ndarray, quad: np.ndarray) -> np.ndarray:
    h, w = card.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), m).reshape(-1, 2)


def test_picture_frame_leads_out_to_the_card_even_over_another_card() -> None:
    # a court card lying on a plain card: its left side borders the paper of the card under
    # it, where only the faint shadow line marks its border
    truth = card_quad((430, 300), 240, 8)
    under = card_quad((330, 330), 240, 8)
    frame = table_texture("black", 800, 600, np.random.default_rng(3))
    paste_card(frame, np.full((350, 250, 3), 246, np.uint8), under)
    court = _court_card()
    paste_card(frame, court, truth)
    inner = _to_frame(_frame_quad(court), court, truth)
    size = float(np.sqrt(cv2.contourArea(inner)))
    card = frame_to_card(_edge_image(frame), inner, PAPER, 0.25 * size)
    assert card is not None
    assert _error(card, truth) < 0.04 * 240


def test_a_plain_card_is_not_taken_for_a_picture_frame() -> None:
    truth = card_quad((400, 300), 220, -25)
    frame = table_texture("black", 800, 600, np.random.default_rng(4))
    paste_card(frame, _court_card(), truth)
    size = float(np.sqrt(cv2.contourArea(truth)))
    assert frame_to_card(_edge_image(frame), truth, PAPER, 0.25 * size) is None
