"""Draw finds on a frame: outlines and names. Drawing only, no recognition logic."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.read.recognize import Find

NAMED = (40, 200, 40)
UNSURE = (0, 165, 255)
PARTIAL = (200, 120, 40)


def annotate(frame_bgr: np.ndarray, finds: Sequence[Find]) -> np.ndarray:
    """A copy of ``frame_bgr`` with each find's outline and name (``?`` when unsure)."""
    out = frame_bgr.copy()
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, round(2 * scale))
    for f in finds:
        colour = UNSURE if f.card is None else (PARTIAL if f.partial else NAMED)
        pts = np.round(f.quad).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in pts[0, 0]), 2 * thick, colour, -1)
        text = f"{f.card} {f.confidence:.2f}" if f.card else f"? {f.best} {f.confidence:.2f}"
        org = tuple(int(v) for v in f.quad.mean(axis=0))
        size = 0.6 * max(scale, 0.5)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
        x, y = org[0] - tw // 2, org[1] + th // 2
        cv2.rectangle(out, (x - 3, y - th - 3), (x + tw + 3, y + 5), (0, 0, 0), -1)
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, colour, thick, cv2.LINE_AA)
    return out
