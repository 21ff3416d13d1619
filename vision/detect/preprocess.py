"""From a card's outline in a photo to the exact tensor the card classifier reads.

This module is the contract between detection (which finds card quads), training (which renders
synthetic cards) and classification (which runs the ONNX model). Both training and inference go
through the same three steps, so what the model sees in training is what detection gives it:

1. :func:`warp_quad`: perspective-warp the quad to an upright card of ``CARD_W x CARD_H``
   (portrait: the long side vertical; mirror images never happen; either 180° orientation may
   come out, which is harmless because cards are point-symmetric).
2. :func:`corner_crop` / :func:`corner_crops`: cut the index corner (rank + suit), the part of a
   card every deck design shares; ``corner_crops`` also gives the opposite corner turned 180°.
3. :func:`to_input`: white-balance each crop on its paper, standardise it and stack the crops
   into the float32 NCHW batch the model expects.

numpy + OpenCV only: inference never imports torch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from rules.cards import DECK_52

CARD_W, CARD_H = 160, 240
"""Canonical upright card warp size (pixels): portrait, long side vertical."""

CORNER_FX, CORNER_FY = 0.25, 0.30
"""The index corner: this fraction of the upright card's width and height, from the top-left."""

INPUT_W, INPUT_H = 40, 72
"""Model input size (width, height) of one corner crop."""

INPUT_CHANNELS = 3
"""BGR colour: the suit's colour helps tell hearts and diamonds from spades and clubs."""

WHITE_PERCENTILE = 90.0
"""Each channel is divided by this percentile of the crop (the card's paper), which undoes
colour casts and white balance; then the crop is standardised to zero mean, unit variance."""

LABELS: tuple[str, ...] = tuple(str(c) for c in DECK_52) + ("back", "none")
"""Class order of the model outputs: the 52 cards in ``rules.DECK_52`` order, then the card
back and 'not a card'."""

PREPROCESSING: dict[str, object] = {
    "warp": {"card_w": CARD_W, "card_h": CARD_H, "long_side": "vertical"},
    "corner_crop": {"fx": CORNER_FX, "fy": CORNER_FY, "origin": "top-left"},
    "input": {"width": INPUT_W, "height": INPUT_H, "channels": INPUT_CHANNELS, "order": "BGR"},
    "normalise": {
        "white_percentile": WHITE_PERCENTILE,
        "then": "per-crop standardisation over all channels (mean 0, std 1)",
    },
    "layout": "NCHW float32",
}
"""What the sidecar ``models/cards.json`` records, so a classifier can check it matches."""


WARP_MARGIN = 2
"""Pixels of frame kept round a quad's bounding box when it is warped from a copy of that
box (a linear sample reads one pixel beyond its point)."""


def order_quad(quad: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """The quad's corners as (top-left, top-right, bottom-right, bottom-left) of the upright card.

    Corners are sorted around their centroid (clockwise on screen, so the card is never
    mirrored), then rotated so the first edge is a short edge (the card's top). Of the two short
    edges, the one nearer the top of the image becomes the top, so an upright card stays upright.
    """
    pts = np.asarray(quad, dtype=np.float32).reshape(-1, 2)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise ValueError(f"a card quad needs 4 finite (x, y) points, got {np.asarray(quad)!r}")
    # (plain Python on the eight numbers: called for every find, and numpy's per-call
    # overhead on a 4 x 2 array was most of its cost; the corners are only reordered)
    p = pts.tolist()
    cx = (p[0][0] + p[1][0] + p[2][0] + p[3][0]) / 4
    cy = (p[0][1] + p[1][1] + p[2][1] + p[3][1]) / 4
    # increasing angle with y down = clockwise on screen
    order = sorted(range(4), key=lambda k: math.atan2(p[k][1] - cy, p[k][0] - cx))
    q = [p[k] for k in order]
    # edge i: q[i] -> q[i + 1]
    e = [math.hypot(q[i][0] - q[(i + 1) % 4][0], q[i][1] - q[(i + 1) % 4][1]) for i in range(4)]
    start = 0 if e[0] + e[2] <= e[1] + e[3] else 1
    # the two short edges start at `start` and `start + 2`: pick the one higher in the image
    mid_a = q[start][1] + q[(start + 1) % 4][1]
    mid_b = q[(start + 2) % 4][1] + q[(start + 3) % 4][1]
    if mid_b < mid_a:
        start += 2
    return pts[[order[(start + i) % 4] for i in range(4)]]


def warp_quad(
    image_bgr: np.ndarray,
    quad: np.ndarray | Sequence[Sequence[float]],
    size: tuple[int, int] = (CARD_W, CARD_H),
    ordered: bool = False,
) -> np.ndarray:
    """Perspective-warp the card outlined by ``quad`` (4 points, any order) to an upright image.

    The result is ``size`` = (width, height), portrait, in the colour layout of the input.
    ``ordered``: ``quad`` is already as :func:`order_quad` gives it (float32), not ordered again.
    """
    w, h = size
    src = np.asarray(quad, np.float32).reshape(4, 2) if ordered else order_quad(quad)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    # Every sample lies inside the quad's bounding box (a convex quad is the image of the
    # card's rectangle), and a linear sample reads one pixel beyond: a card small in a large
    # frame is warped from a contiguous copy of that box (with a margin), about a quarter
    # cheaper than reading it out of the whole frame. Where the box meets the frame's edge
    # the copy's edge is the frame's, so edge replication is the same. (The sample
    # coordinates are rounded to 1/32 px from the box's origin rather than the frame's: a
    # few pixels of a crop come out one level apart.)
    (x0, y0), (x1, y1) = src.min(axis=0).tolist(), src.max(axis=0).tolist()
    ih, iw = image_bgr.shape[:2]
    bx0, by0 = max(0, math.floor(x0) - WARP_MARGIN), max(0, math.floor(y0) - WARP_MARGIN)
    bx1, by1 = min(iw, math.ceil(x1) + WARP_MARGIN + 1), min(ih, math.ceil(y1) + WARP_MARGIN + 1)
    if bx1 > bx0 and by1 > by0 and (bx1 - bx0) * (by1 - by0) < 0.5 * iw * ih:
        image_bgr = np.ascontiguousarray(image_bgr[by0:by1, bx0:bx1])
        matrix = matrix @ np.array([[1.0, 0.0, bx0], [0.0, 1.0, by0], [0.0, 0.0, 1.0]])
    return cv2.warpPerspective(
        image_bgr, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def corner_crop(card_img: np.ndarray) -> np.ndarray:
    """The top-left index corner of an upright card image, resized to ``INPUT_W x INPUT_H``."""
    h, w = card_img.shape[:2]
    cw = max(1, round(w * CORNER_FX))
    ch = max(1, round(h * CORNER_FY))
    crop = card_img[:ch, :cw]
    if crop.shape[1] != INPUT_W or crop.shape[0] != INPUT_H:
        crop = cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
    return crop


def corner_crop_at(card_img: np.ndarray, dx: float, dy: float, scale: float) -> np.ndarray:
    """:func:`corner_crop` of a window moved by (``dx``, ``dy``) pixels of ``card_img`` and
    ``scale`` times as large (edges replicated where it reaches past the image)."""
    h, w = card_img.shape[:2]
    cw, ch = w * CORNER_FX * scale, h * CORNER_FY * scale
    size = (max(2, round(cw)), max(2, round(ch)))
    crop = cv2.getRectSubPix(card_img, size, (dx + cw / 2, dy + ch / 2))
    return cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)


def corner_crops(card_img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both index corners: the top-left one, and the bottom-right one turned 180° upright.

    A classifier can average the two (a finger or glare rarely covers both).
    """
    return corner_crop(card_img), corner_crop(cv2.rotate(card_img, cv2.ROTATE_180))


def channel_percentile(x: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(x, q, axis=(1, 2), keepdims=True)`` (linear interpolation) of an
    N x H x W x C array, by partial sorting: the same values, several times faster than a
    full percentile on the small crops of one frame."""
    n, h, w, c = x.shape
    flat = np.ascontiguousarray(x.reshape(n, h * w, c).transpose(0, 2, 1))  # N C P
    pos = q / 100.0 * (h * w - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, h * w - 1)
    part = np.partition(flat, hi, axis=-1)
    # everything before index hi is <= part[hi]: the largest of it is the lo-th value
    low = part[..., lo] if lo == hi else part[..., :hi].max(axis=-1)
    high = part[..., hi]
    value = low + (high - low) * np.float32(pos - lo)
    return value.reshape(n, 1, 1, c).astype(x.dtype)


def to_input(crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Stack corner crops (H x W x 3 BGR uint8, or grey H x W) into the model's float32 NCHW batch.

    Each crop: channels divided by their ``WHITE_PERCENTILE`` percentile (the paper becomes
    white whatever the light's colour), then standardised to mean 0 and std 1.
    """
    batch = []
    for crop in crops:
        c = np.asarray(crop)
        if c.ndim == 2:
            c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
        if c.shape[:2] != (INPUT_H, INPUT_W):
            c = cv2.resize(c, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        batch.append(c[:, :, :INPUT_CHANNELS])
    if not batch:
        return np.zeros((0, INPUT_CHANNELS, INPUT_H, INPUT_W), dtype=np.float32)
    x = np.stack(batch).astype(np.float32)  # N H W C
    white = channel_percentile(x, WHITE_PERCENTILE)
    x = x / np.maximum(white, 8.0)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / np.maximum(std, 0.02)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32)
