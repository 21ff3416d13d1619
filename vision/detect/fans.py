"""Cards half hidden in a fan: find the visible index corners and guess each card's outline.

Why: in a fanned or overlapping pile only the top card shows its whole outline, but every card
under it usually still shows one index corner. That corner is a convex, roughly square corner of
the pile's bright outline that is not a corner of a card already found. The cards of one deck
share their size, so the hidden card's outline is guessed from that corner, the two outline
edges leaving it, and the size of the cards already found (which edge is the long one follows
from how far the visible edges run; when unclear both guesses are kept and the surer reading
wins). Only the found corner is read (the opposite one is under other cards), and its reading
must be surer than for whole cards (see ``vision.read.classify.PARTIAL_THRESHOLD``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.detect.preprocess import order_quad

MIN_CORNER_COS = 0.5
"""A corner is accepted when its angle is within 60..120 degrees (|cos| <= 0.5)."""


def _polygon(contour: np.ndarray) -> np.ndarray:
    perimeter = cv2.arcLength(contour, True)
    return cv2.approxPolyDP(contour, 0.012 * perimeter, True).reshape(-1, 2).astype(np.float32)


def _table_outside(
    bright: np.ndarray, p: np.ndarray, du: np.ndarray, dv: np.ndarray, short: float
) -> bool:
    """True when the table (not paper) lies just outside both edges leaving corner ``p``:
    what makes a card's corner a corner of the pile's outline."""
    h, w = bright.shape
    d = max(3.0, 0.05 * short)
    probes = [p + t * short * du - d * dv for t in (0.1, 0.2)]
    probes += [p + t * short * dv - d * du for t in (0.1, 0.2)]
    for x, y in probes:
        xi, yi = int(round(float(x))), int(round(float(y)))
        if 0 <= xi < w and 0 <= yi < h and bright[yi, xi]:
            return False
    return True


def hidden_card_quads(
    bright: np.ndarray,
    card_quads: np.ndarray,
    card_size: tuple[float, float],
    contours: Sequence[np.ndarray] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(guessed card quad, its visible index corner) for cards under others, in ``bright``'s
    pixels. ``card_quads`` are the cards already found (same pixels); ``card_size`` their
    median (short, long) side."""
    short, long_ = card_size
    if short <= 0:
        return []
    if contours is None:
        contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    known = card_quads.reshape(-1, 2)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    card_area = short * long_
    centres = [tuple(float(v) for v in q.mean(axis=0)) for q in card_quads]
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 1.3 * card_area:
            continue  # a lone card (or less): nothing hidden
        inside = [
            q
            for q, c in zip(card_quads, centres, strict=True)
            if cv2.pointPolygonTest(contour, c, False) > 0
        ]
        explained = sum(abs(cv2.contourArea(q.astype(np.float32))) for q in inside)
        if area < 1.15 * explained:
            continue  # the blob is just touching whole cards
        poly = _polygon(contour)
        n = len(poly)
        if n < 4:
            continue
        orient = np.sign(cv2.contourArea(poly, oriented=True))
        for i in range(n):
            p, prv, nxt = poly[i], poly[i - 1], poly[(i + 1) % n]
            u, v = nxt - p, prv - p
            lu, lv = float(np.hypot(*u)), float(np.hypot(*v))
            if min(lu, lv) < 0.2 * short:
                continue  # too short an edge to trust its direction
            cos = float(u @ v) / (lu * lv)
            cross = float(u[0] * v[1] - u[1] * v[0])
            if abs(cos) > MIN_CORNER_COS or np.sign(cross) != orient:
                continue  # not a square convex corner
            if len(known) and np.hypot(*(known - p).T).min() < 0.15 * short:
                continue  # a corner of a card already found
            if any(
                abs(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(p[0]), float(p[1])), True))
                < 0.08 * short
                for q in card_quads
            ):
                continue  # where the pile's outline meets a card's edge: not a card corner
            du, dv = u / lu, v / lv
            if not _table_outside(bright, p, du, dv, short):
                continue  # a notch (an index glyph at the border), not a card's corner
            for su, sv in ((short, long_), (long_, short)):
                if lu > 1.15 * su or lv > 1.15 * sv:
                    continue  # a visible edge runs longer than this guess allows
                quad = np.array([p, p + su * du, p + su * du + sv * dv, p + sv * dv], np.float32)
                out.append((quad, p.copy()))
    return out


def corner_index(quad: np.ndarray, corner: np.ndarray) -> int:
    """Which corner of the upright warp of ``quad`` (0 top-left ... 3 bottom-left) is
    ``corner``: index corners are 0 and 2."""
    ordered = order_quad(quad)
    return int(np.argmin(np.hypot(*(ordered - corner).T)))
