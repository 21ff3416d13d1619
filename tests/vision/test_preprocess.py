"""The warp/crop/normalise contract shared by detection, training and classification."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK_52
from vision.detect.preprocess import (
    CARD_H,
    CARD_W,
    INPUT_CHANNELS,
    INPUT_H,
    INPUT_W,
    LABELS,
    channel_percentile,
    corner_crop,
    corner_crops,
    order_quad,
    to_input,
    warp_quad,
)


def _marked_card() -> np.ndarray:
    """An upright card whose four corners carry different colours, so orientation shows."""
    card = np.full((CARD_H, CARD_W, 3), 255, np.uint8)
    card[:40, :30] = (0, 0, 255)  # top-left red
    card[:40, -30:] = (0, 255, 0)  # top-right green
    card[-40:, -30:] = (255, 0, 0)  # bottom-right blue
    card[-40:, :30] = (0, 0, 0)  # bottom-left black
    return card


def _scene(card: np.ndarray, angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Paste ``card`` rotated by ``angle_deg`` on a grey 600x600 table; return scene and quad."""
    scene = np.full((600, 600, 3), 90, np.uint8)
    corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    m = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), angle_deg, 1.5)
    m[:, 2] += (300 - CARD_W / 2, 300 - CARD_H / 2)
    quad = cv2.transform(corners[None], m)[0]
    warped = cv2.warpAffine(card, m, (600, 600), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full(card.shape[:2], 255, np.uint8), m, (600, 600))
    scene[mask > 0] = warped[mask > 0]
    return scene, quad


def _same_up_to_180(a: np.ndarray, b: np.ndarray) -> bool:
    diff = min(
        np.abs(a.astype(int) - b.astype(int)).mean(),
        np.abs(a.astype(int) - cv2.rotate(b, cv2.ROTATE_180).astype(int)).mean(),
    )
    return bool(diff < 12)


@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_warp_of_a_card_in_each_quarter_turn_gives_the_upright_card(angle: int) -> None:
    card = _marked_card()
    scene, quad = _scene(card, angle)
    for order in ([0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0]):
        up = warp_quad(scene, quad[order])
        assert up.shape == (CARD_H, CARD_W, 3)
        assert _same_up_to_180(up, card)


@settings(max_examples=30, deadline=None)
@given(st.floats(-180, 180), st.permutations([0, 1, 2, 3]))
def test_warp_never_mirrors_a_card_at_any_angle(angle: float, order: list[int]) -> None:
    card = _marked_card()
    scene, quad = _scene(card, angle)
    up = warp_quad(scene, quad[order])
    # the top-left colour decides orientation; mirrored it would be green or black
    tl = up[20, 15].astype(int)
    red, blue = (0, 0, 255), (255, 0, 0)
    assert min(np.abs(tl - red).sum(), np.abs(tl - blue).sum()) < 60
    assert _same_up_to_180(up, card)


def test_upright_card_in_an_upright_photo_stays_upright() -> None:
    scene, quad = _scene(_marked_card(), 3)
    up = warp_quad(scene, quad[[2, 3, 0, 1]])
    assert np.abs(up[20, 15].astype(int) - (0, 0, 255)).sum() < 60  # red top-left


def test_order_quad_rejects_a_bad_quad() -> None:
    with pytest.raises(ValueError, match="4 finite"):
        order_quad([[0, 0], [1, 0], [1, 1]])


def test_corner_crops_give_both_index_corners_upright() -> None:
    card = _marked_card()
    tl, br = corner_crops(card)
    assert tl.shape == br.shape == (INPUT_H, INPUT_W, 3)
    assert np.abs(tl[10, 10].astype(int) - (0, 0, 255)).sum() < 10
    assert np.abs(br[10, 10].astype(int) - (255, 0, 0)).sum() < 10
    assert np.array_equal(corner_crop(card), tl)


def test_to_input_undoes_a_colour_cast_and_brightness() -> None:
    crop = corner_crop(_marked_card())
    crop[:] = 255
    cv2.putText(crop, "7", (5, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    cast = np.clip(crop.astype(np.float32) * (0.45, 0.6, 0.8), 0, 255).astype(np.uint8)
    x = to_input([crop, cast])
    assert x.shape == (2, INPUT_CHANNELS, INPUT_H, INPUT_W) and x.dtype == np.float32
    assert np.abs(x[0] - x[1]).max() < 0.1
    assert abs(float(x[0].mean())) < 1e-4 and abs(float(x[0].std()) - 1) < 1e-3


def test_to_input_of_nothing_is_an_empty_batch() -> None:
    assert to_input([]).shape == (0, INPUT_CHANNELS, INPUT_H, INPUT_W)


def test_labels_are_the_52_cards_in_deck_order_then_back_and_none() -> None:
    assert LABELS[:52] == tuple(str(c) for c in DECK_52)
    assert LABELS[52:] == ("back", "none") and len(set(LABELS)) == 54


@pytest.mark.parametrize("q", [0.0, 37.5, 50.0, 90.0, 100.0])
@pytest.mark.parametrize("shape", [(16, 72, 40, 3), (1, 5, 3, 1), (2, 1, 1, 3)])
def test_channel_percentile_equals_numpy_percentile(q: float, shape: tuple[int, ...]) -> None:
    x = np.random.default_rng(7).integers(0, 256, shape).astype(np.float32)
    want = np.percentile(x, q, axis=(1, 2), keepdims=True)
    got = channel_percentile(x, q)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, atol=1e-3)


def _whole_frame_warp(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The warp read out of the whole frame, as warp_quad did before it warped from a box."""
    src = order_quad(quad)
    dst = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(
        image, matrix, (CARD_W, CARD_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


@settings(max_examples=60, deadline=None)
@given(
    st.floats(-150, 1400),
    st.floats(-150, 850),
    st.floats(20, 500),
    st.floats(0, 360),
    st.floats(0.6, 1.0),
    st.integers(0, 2**31 - 1),
)
def test_a_card_warped_from_the_box_round_it_is_the_card_warped_from_the_frame(
    x: float, y: float, size: float, angle: float, squash: float, seed: int
) -> None:
    """warp_quad reads a small card out of a copy of the box round it (cheaper): on a frame of
    noise (every pixel unlike its neighbours, so a box a pixel too tight shows), anywhere,
    cards half out of the frame included, every value is the whole frame's within one level
    (the sample points are rounded to 1/32 px from another origin) and nearly all are equal."""
    image = np.random.default_rng(seed).integers(0, 256, (720, 1280, 3), np.uint8)
    t = np.radians(angle)
    half = np.array([[-0.36, -0.5], [0.36, -0.5], [0.36, 0.5], [-0.36, 0.5]]) * size
    half[:, 1] *= squash
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    quad = (half @ rot.T + (x, y)).astype(np.float32)
    got = warp_quad(image, quad).astype(int)
    want = _whole_frame_warp(image, quad).astype(int)
    assert got.shape == want.shape == (CARD_H, CARD_W, 3)
    diff = np.abs(got - want)
    assert diff.max() <= 1
    assert (diff > 0).mean() < 0.01
