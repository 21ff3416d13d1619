"""The classifier's lessons from layouts: index corners as the corner detector will cut them.

Why: the classifier first learned whole cards, each alone in its scene; a card in a fan or a
column shows its index with the next card's edge a few pixels to its right or below it, and
the index-corner detector's virtual outline (:func:`vision.detect.corners.virtual_quads`) is a
few degrees and a few percent off. Read that way, today's classifier names a quarter of the
visible corners of rendered layouts at the one-corner threshold. So corner crops are cut from
the layout scenes (:mod:`vision.render.layouts`, written by ``trickcam dataset corners``)
exactly as detection will: the true index point, direction and size, spoiled by the
detector's typical errors, warped, and the top-left corner cropped. Corners less than
:data:`MIN_VISIBLE` visible are left out; places that are not an index corner (a card's
pips and court art, the surface and what lies on it) are taught as ``none``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect.corners import virtual_quads, warp_exact
from vision.detect.preprocess import CARD_H, CARD_W, LABELS, corner_crop
from vision.render.layouts import index_point

Rng = np.random.Generator

MIN_VISIBLE = 0.6
"""An index corner at least this visible is a lesson in its card's name."""

ANGLE_ERROR_DEG = 5.0
SIZE_ERROR = 0.1
SHIFT_ERROR = 0.05
"""The detector's errors (standard deviations: degrees, share of the size, share of the width)."""

P_NONE = 0.12
"""Share of the crops that are not an index corner."""

LABEL_INDEX = {label: k for k, label in enumerate(LABELS)}


def _corner_frame(quad: np.ndarray, corner: int) -> tuple[np.ndarray, float, float]:
    """The card's right-hand unit vector, width and height seen from ``corner`` (0 or 2)."""
    a, b, c = (quad[0], quad[1], quad[3]) if corner == 0 else (quad[2], quad[3], quad[1])
    width = float(np.linalg.norm(b - a))
    height = float(np.linalg.norm(c - a))
    return (b - a) / max(width, 1e-6), width, height


def _crop(
    rng: Rng, image: np.ndarray, point: np.ndarray, right: np.ndarray, w: float, h: float
) -> np.ndarray:
    a = np.deg2rad(rng.normal(0, ANGLE_ERROR_DEG))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    r = rot @ right
    s = float(np.clip(1 + rng.normal(0, SIZE_ERROR), 0.7, 1.35))
    p = point + rng.normal(0, SHIFT_ERROR * w, 2)
    quad = virtual_quads(p[None], r[None], np.array([[w * s, h * s * rng.uniform(0.95, 1.05)]]))
    return corner_crop(warp_exact(image, quad[0], (CARD_W, CARD_H)))


def scene_crops(
    rng: Rng, image: np.ndarray, record: dict[str, Any]
) -> tuple[list[np.ndarray], list[int]]:
    """Corner crops of one layout scene and their labels (card, ``back`` or ``none``)."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    cards = [(c, np.asarray(c["quad"], np.float32)) for c in record["cards"]]
    for card, quad in cards:
        for corner, vis in zip((0, 2), card["visible"], strict=True):
            if vis < MIN_VISIBLE:
                continue
            right, w, h = _corner_frame(quad, corner)
            if w < 8:
                continue
            crops.append(_crop(rng, image, index_point(quad, corner), right, w, h))
            labels.append(LABEL_INDEX[card["label"]])
    wanted = max(1, int(round(len(crops) * P_NONE / (1 - P_NONE))))
    ih, iw = image.shape[:2]
    for _ in range(wanted):
        if cards and rng.random() < 0.7:  # somewhere on a card but its index corners
            card, quad = cards[int(rng.integers(len(cards)))]
            corner = int(rng.choice([0, 2]))
            right, w, h = _corner_frame(quad, corner)
            if w < 8:
                continue
            # (not the corners without an index: some decks print one in all four)
            u, v = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)
            src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            m = cv2.getPerspectiveTransform(src, quad)
            point = cv2.perspectiveTransform(np.array([[[u, v]]], np.float32), m)[0, 0]
            turn = rng.choice([0.0, np.pi / 2, np.pi, 3 * np.pi / 2]) + rng.normal(0, 0.1)
            rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            crops.append(_crop(rng, image, point, rot @ right, w, h))
        else:  # the surface or whatever lies on it
            w = float(rng.uniform(20, 120))
            point = rng.uniform((0, 0), (iw, ih))
            a = rng.uniform(0, 2 * np.pi)
            crops.append(_crop(rng, image, point, np.array([np.cos(a), np.sin(a)]), w, w * 1.45))
        labels.append(LABEL_INDEX["none"])
    return crops, labels


def write_crops(scenes: Path, out: Path, limit: int, seed: int, progress: bool = True) -> int:
    """Corner crops of the first ``limit`` scenes in ``scenes`` (a ``trickcam dataset
    corners`` split) as ``out`` (npz: x N x 72 x 40 x 3 uint8, y labels); returns N."""
    from tqdm import tqdm

    with (scenes / "labels.jsonl").open(encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()][:limit]
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for i, record in enumerate(tqdm(records, disable=not progress, unit="scene", desc="crops")):
        image = cv2.imread(str(scenes / record["file"]))
        if image is None:
            continue
        crops, labels = scene_crops(np.random.default_rng((seed, i)), image, record)
        xs.extend(crops)
        ys.extend(labels)
    out.parent.mkdir(parents=True, exist_ok=True)
    x = np.stack(xs) if xs else np.zeros((0, 72, 40, 3), np.uint8)
    np.savez(out, x=x, y=np.asarray(ys, np.int16))
    return len(ys)
