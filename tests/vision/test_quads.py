"""Quad fitting: rounded card outlines give their true corners."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detect.preprocess import order_quad
from vision.detect.quads import approx_quad, quad_shape, reach_outside, refine_quad
from vision.render.scene import card_quad


def _outline(quad: np.ndarray, radius: int) -> np.ndarray:
    """The outline of a card with rounded corners (radius in pixels) drawn at ``quad``."""
    sharp = np.zeros((600, 800), np.uint8)
    cv2.fillPoly(sharp, [np.round(quad).astype(np.int32)], 255)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    mask = cv2.morphologyEx(sharp, cv2.MORPH_OPEN, k)  # rounds the corners
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


@settings(max_examples=25, deadline=None)
@given(angle=st.floats(-90, 90), size=st.floats(120, 400), radius=st.integers(0, 12))
def test_rounded_corners_do_not_pull_the_fitted_corners_in(
    angle: float, size: float, radius: int
) -> None:
    truth = card_quad((400, 300), size, angle)
    contour = _outline(truth, radius)
    rough = approx_quad(contour)
    assert rough is not None
    fitted = order_quad(refine_quad(rough, contour, 0.0))
    error = np.abs(fitted - order_quad(truth)).max()
    assert error < 2.0, f"corner off by {error:.1f} px"
    aspect, ok = quad_shape(fitted)
    assert ok and abs(aspect - 0.7) < 0.02
    assert reach_outside(fitted, contour) < 2.0


def test_two_overlapping_cards_reach_outside_one_quad() -> None:
    a = card_quad((350, 300), 300, 0)
    b = card_quad((430, 250), 300, 0)
    mask = np.zeros((600, 800), np.uint8)
    for q in (a, b):
        cv2.fillPoly(mask, [np.round(q).astype(np.int32)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    rough = approx_quad(contour)
    assert rough is not None
    fitted = refine_quad(rough, contour, 0.0)
    # whatever quad fits the pair, a corner of one card sticks far out of it
    assert reach_outside(fitted, contour) > 0.1 * np.sqrt(cv2.contourArea(fitted))


@settings(max_examples=25, deadline=None)
@given(angle=st.floats(-180, 180), dx=st.floats(20, 120), dy=st.floats(-120, 120))
def test_what_reaches_outside_a_quad_is_the_same_whichever_way_its_corners_run(
    angle: float, dx: float, dy: float
) -> None:
    """A card with a second one sticking out from under it: the outline reaches as far
    outside the card's quad with its corners listed clockwise or anticlockwise (the
    outward side of each side is told by the corners' order)."""
    a = card_quad((400, 300), 260, angle)
    b = card_quad((400 + dx, 300 + dy), 200, angle + 25)
    mask = np.zeros((600, 800), np.uint8)
    for q in (a, b):
        cv2.fillPoly(mask, [np.round(q).astype(np.int32)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    quad = np.asarray(a, np.float32)
    reach = reach_outside(quad, contour)
    assert abs(reach - reach_outside(quad[::-1].copy(), contour)) < 1e-3
    # beyond a side's line by that much, so at least that far from the card's outline
    # (farther past a corner), and as far when it sticks out at all
    inside = [cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(x), float(y)), True)
              for x, y in contour.reshape(-1, 2)]  # fmt: skip
    beyond = -min(inside)
    assert reach <= beyond + 1e-3
    assert reach > 0.5 * beyond or beyond < 2.0
