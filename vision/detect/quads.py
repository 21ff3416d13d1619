"""Quadrilateral geometry for card outlines: fitting a quad to a region's outline, and the
measures detection judges it by (area, aspect and plausibility, how far the region reaches
outside it). numpy + OpenCV only."""

from __future__ import annotations

import math
from array import array

import cv2
import numpy as np

NEXT = np.array([1, 2, 3, 0])
"""Index of the next corner (side i runs from corner i to corner NEXT[i])."""
PREV = np.array([3, 0, 1, 2])
"""Index of the previous corner."""
NEXT_I = (1, 2, 3, 0)
"""NEXT as a tuple, for plain-Python loops."""

TAPER = 1.6
"""The most one side of a card's outline may be longer than its opposite side in a video
frame: a camera on a stand at a table's side, or over it, sees a card's far side at least
1/1.6 as long as its near side."""

PHOTO_TAPER = 2.0
""":data:`TAPER` for still photographs (``trickcam recognize``): a phone held low and close,
a card's length from its near edge, sees the far side half as long as the near side
(guillex7's 7C on a glossy desk, seen nearly edge-on: its sides 1.7 apart)."""


def quad_area(quad: np.ndarray) -> float:
    """Area of a quad (pixels squared), whatever its orientation."""
    return float(abs(cv2.contourArea(quad.astype(np.float32))))


def approx_quad(contour: np.ndarray, hull: np.ndarray | None = None) -> np.ndarray | None:
    """Four corners of a roughly quadrilateral outline, or None. ``hull``: the outline's
    convex hull, when already made."""
    if hull is None:
        hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05, 0.07):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(contour))
    return np.asarray(box, dtype=np.float32)


def restored_quad(
    contour: np.ndarray, hull: np.ndarray | None = None, taper: float = TAPER
) -> np.ndarray | None:
    """The quad of a card with one corner cut off, or None.

    Such a card (its corner covered by the card lying on it, or cleared with a card found
    next to it) outlines as a pentagon, and :func:`approx_quad`, keeping four of its five
    corners, may drop a true corner and leave a triangle of the card outside the quad (then
    rejected as something sticking out). This quad lies on the four longest sides of the
    outline's hull instead (their lines intersected: the cut corner restored). Only a second
    guess, tried when the first fails: where the cut is as long as a side, it would take the
    cut for a side; and only for one cut corner snugly restored (a fanned pile, or two
    overlapping cards, leave out two corners or much more). ``hull``: the outline's convex
    hull, when already made; ``taper``: see :func:`quad_shape`."""
    if hull is None:
        hull = cv2.convexHull(contour)
    return _longest_sides_quad(hull, cv2.arcLength(hull, True), float(cv2.contourArea(hull)), taper)


def _longest_sides_quad(
    hull: np.ndarray, perimeter: float, hull_area: float, taper: float = TAPER
) -> np.ndarray | None:
    """The quad whose sides lie on the four longest sides of a fine polygon of ``hull`` (kept
    in their order round it), when it is convex, card-like and holds the hull snugly."""
    poly = cv2.approxPolyDP(hull, 0.01 * perimeter, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 5:
        return None
    edges = poly[(np.arange(n) + 1) % n] - poly
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    keep = np.sort(np.argsort(-lengths)[:4])
    # the sides left out between two kept ones: a rounded corner's few pixels, except at
    # the one cut corner (a pile of fanned cards, or two overlapping ones, leaves out two)
    between = [
        float(
            sum(lengths[(keep[i - 1] + 1 + j) % n] for j in range((keep[i] - keep[i - 1] - 1) % n))
        )
        for i in range(4)
    ]
    if sum(gap > 0.2 * np.sqrt(hull_area) for gap in between) != 1:
        return None
    corners = []
    for i in range(4):
        a, b = keep[i - 1], keep[i]  # corner between side a and the next kept side b
        p1, d1, p2, d2 = poly[a], edges[a], poly[b], edges[b]
        denom = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(denom) < 1e-6 * lengths[a] * lengths[b]:
            return None
        diff = p2 - p1
        t = (diff[0] * d2[1] - diff[1] * d2[0]) / denom
        corners.append(p1 + t * d1)
    quad = np.array(corners, np.float32)
    if not quad_shape(quad, taper)[1]:
        return None
    area = quad_area(quad)
    if not 0.97 * hull_area <= area <= 1.1 * hull_area:
        return None
    return quad


def intersect_sides(points: np.ndarray, dirs: np.ndarray) -> np.ndarray | None:
    """The quad whose corner i is where side i-1 meets side i (each side a point on it and a
    direction, 4 x 2 each); None when two neighbouring sides are (nearly) parallel."""
    p1, d1 = points[PREV], dirs[PREV]
    p2, d2 = points, dirs
    denom = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    if np.abs(denom).min() < 1e-3:
        return None
    diff = p2 - p1
    t = (diff[:, 0] * d2[:, 1] - diff[:, 1] * d2[:, 0]) / denom
    return (p1 + t[:, None] * d1).astype(np.float32)


def intersect_lines(
    points: list[tuple[float, float]], dirs: list[tuple[float, float]]
) -> np.ndarray | None:
    """:func:`intersect_sides` on plain-Python points and directions (four of each): the
    same quad, without numpy's per-call overhead on eight numbers."""
    out = []
    for i in range(4):
        (p1x, p1y), (d1x, d1y) = points[i - 1], dirs[i - 1]
        (p2x, p2y), (d2x, d2y) = points[i], dirs[i]
        denom = d1x * d2y - d1y * d2x
        if abs(denom) < 1e-3:
            return None
        t = ((p2x - p1x) * d2y - (p2y - p1y) * d2x) / denom
        out.append((p1x + t * d1x, p1y + t * d1y))
    return np.array(out, np.float32)


_F32_006, _F32_015, _F32_085 = (float(np.float32(v)) for v in (0.06, 0.15, 0.85))


def _f32(values: list[float]) -> list[float]:
    """``values`` rounded to float32, as numpy's float32 arithmetic and OpenCV's float
    outputs round them."""
    return array("f", values).tolist()


def _line_fits(sums: list[list[float]]) -> list[tuple[float, float, float, float] | None]:
    """``cv2.fitLine(points, DIST_L2, ...)`` from each side's point sums (count, x, y, x^2,
    x y, y^2): (vx, vy, x0, y0), or None below five points. OpenCV's arithmetic (its sums
    of integer pixel coordinates are exact in any order), without a call per side."""
    fits: list[tuple[float, float, float, float] | None] = []
    for count, sx, sy, sxx, sxy, syy in sums:
        if count < 5:
            fits.append(None)
            continue
        x, y = sx / count, sy / count
        dx2, dy2, dxy = sxx / count - x * x, syy / count - y * y, sxy / count - x * y
        t = _f32([math.atan2(2 * dxy, dx2 - dy2)])[0] / 2
        vx, vy, x0, y0 = _f32([math.cos(t), math.sin(t), x, y])
        fits.append((vx, vy, x0, y0))
    return fits


def refine_quad(quad: np.ndarray, contour: np.ndarray, grow: float) -> np.ndarray:
    """Fit a line to the outline points along each side and intersect neighbouring lines.

    Only the middle 70 % of each side is fitted, so rounded card corners do not pull the
    corners inwards. ``grow`` pushes every side outward by that many pixels (to undo a mask
    eroded by the edge band).
    """
    # (Speed: called for most candidate regions; the per-side arithmetic is plain Python
    # and the four line fits one matrix product, where numpy's per-call overhead on 4 x 2
    # arrays used to dominate.)
    pts = contour.reshape(-1, 2)
    if len(pts) > 400:
        pts = pts[:: len(pts) // 200]
    corners = quad.tolist()
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    # per side, in float32 as numpy computes it: which outline points lie along a side is
    # decided to the last bit as with float32 arrays (a point on a limit changes a fit)
    ux = _f32([xs[j] - xs[i] for i, j in enumerate(NEXT_I)])
    uy = _f32([ys[j] - ys[i] for i, j in enumerate(NEXT_I)])
    lengths = _f32([math.hypot(x, y) for x, y in zip(ux, uy, strict=True)])
    if min(lengths) < 4:
        return quad
    dx = _f32([x / v for x, v in zip(ux, lengths, strict=True)])
    dy = _f32([y / v for y, v in zip(uy, lengths, strict=True)])
    tol = [max(3.0, v) for v in _f32([_F32_006 * v for v in lengths])]
    lo = _f32([_F32_015 * v for v in lengths])
    hi = _f32([_F32_085 * v for v in lengths])
    # 8 x P rows (along side 0, across side 0, along side 1, ...): along = rx dx + ry dy
    # and across = rx (-dy) + ry dx, (rx, ry) the point less the side's start; a point is
    # on side i when lo < along < hi and -tol < across < tol
    rows = np.array(
        [
            (xs[i], ys[i], dx[i], dy[i], lo[i], hi[i], xs[i], ys[i], -dy[i], dx[i], -tol[i], tol[i])
            for i in range(4)
        ],
        np.float32,
    ).reshape(8, 6)
    px, py = pts.T.astype(np.float32)
    value = (px - rows[:, 0:1]) * rows[:, 2:3] + (py - rows[:, 1:2]) * rows[:, 3:4]
    inside = (value > rows[:, 4:5]) & (value < rows[:, 5:6])
    near = inside[0::2] & inside[1::2]  # 4 x P
    # each side's point sums (count, x, y, x^2, x y, y^2) at once, for its line fit
    x, y = pts.T.astype(np.float64)
    feats = np.empty((6, len(x)))
    feats[0] = 1.0
    feats[1] = x
    feats[2] = y
    np.multiply(x, x, out=feats[3])
    np.multiply(x, y, out=feats[4])
    np.multiply(y, y, out=feats[5])
    fits = _line_fits((near.astype(np.float64) @ feats.T).tolist())
    cx, cy = sum(xs) / 4, sum(ys) / 4
    points, lines = [], []
    for i, fit in enumerate(fits):
        # a side with too few points keeps its place and direction
        vx, vy = (dx[i], dy[i]) if fit is None else fit[:2]
        x0, y0 = corners[i] if fit is None else fit[2:]
        # pushed outward (away from the quad's centre) by grow
        side = (x0 - cx) * -vy + (y0 - cy) * vx
        push = grow * ((side > 0) - (side < 0))
        points.append((x0 - push * vy, y0 + push * vx))
        lines.append((vx, vy))
    out = intersect_lines(points, lines)
    if out is None:
        return quad
    if float(np.abs(out - quad).max()) > 0.25 * math.sqrt(quad_area(quad)) + abs(grow):
        return quad
    return out


def quad_shape(quad: np.ndarray, taper: float = TAPER) -> tuple[float, bool]:
    """(aspect short/long, plausible) for a quad: convex, no sharp corners, no side longer
    than ``taper`` times its opposite side (:data:`TAPER`, :data:`PHOTO_TAPER`).
    (Plain, unrolled Python on the eight numbers: called for every candidate region, and
    numpy's per-call overhead, or even a Python loop's, dwarfs the arithmetic.)"""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    # side i runs from corner i to corner i + 1: a, b, c, d
    ax, ay, bx, by = x1 - x0, y1 - y0, x2 - x1, y2 - y1
    cx, cy, dx, dy = x3 - x2, y3 - y2, x0 - x3, y0 - y3
    s0, s1, s2, s3 = math.hypot(ax, ay), math.hypot(bx, by), math.hypot(cx, cy), math.hypot(dx, dy)
    if s0 < 4 or s1 < 4 or s2 < 4 or s3 < 4:
        return 0.0, False
    # at corner i the previous side turns into side i: all turns one way round (convex)
    c0, c1, c2, c3 = dy * ax - dx * ay, ay * bx - ax * by, by * cx - bx * cy, cy * dx - cx * dy
    if not ((c0 > 0 and c1 > 0 and c2 > 0 and c3 > 0) or (c0 < 0 and c1 < 0 and c2 < 0 and c3 < 0)):
        return 0.0, False
    # opposite sides of a card under perspective stay within a factor ``taper``
    if s0 > taper * s2 or s2 > taper * s0 or s1 > taper * s3 or s3 > taper * s1:
        return 0.0, False
    # a corner angle outside ~41..139 degrees (|cos| > 0.75)
    if (
        abs(-(ax * dx + ay * dy) / (s0 * s3 + 1e-6)) > 0.75
        or abs(-(bx * ax + by * ay) / (s1 * s0 + 1e-6)) > 0.75
        or abs(-(cx * bx + cy * by) / (s2 * s1 + 1e-6)) > 0.75
        or abs(-(dx * cx + dy * cy) / (s3 * s2 + 1e-6)) > 0.75
    ):
        return 0.0, False
    pair_a = (s0 + s2) / 2
    pair_b = (s1 + s3) / 2
    return min(pair_a, pair_b) / max(pair_a, pair_b), True


def quad_sides(quad: np.ndarray) -> tuple[float, float]:
    """(short, long) side of a quad: the means of its two pairs of opposite sides."""
    sides = np.hypot(*(quad[NEXT] - quad).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(min(a, b)), float(max(a, b))


def reach_outside(quad: np.ndarray, contour: np.ndarray) -> float:
    """How far (pixels) the outline reaches outside ``quad`` (convex: see
    :func:`quad_shape`) at its worst point."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    if len(pts) > 400:
        pts = pts[:: len(pts) // 200]
    side = quad[NEXT] - quad
    normal = np.stack([side[:, 1], -side[:, 0]], axis=1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None] + 1e-6
    # the normals point out when the corners run clockwise on screen (positive signed
    # area); a convex quad's centre lies inside every side, so this is the same as asking
    # on which side of them the centre lies (and cheaper)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    if x0 * y1 - x1 * y0 + x1 * y2 - x2 * y1 + x2 * y3 - x3 * y2 + x3 * y0 - x0 * y3 < 0:
        normal = -normal  # outward
    dist = (pts[None, :, 0] - quad[:, 0, None]) * normal[:, 0, None] + (
        pts[None, :, 1] - quad[:, 1, None]
    ) * normal[:, 1, None]  # 4 x P
    return float(dist.max())


def beyond_side(outline: np.ndarray, inner: np.ndarray, margin: float) -> np.ndarray | None:
    """The quad of the part of a region's ``outline`` (its contour points) beyond ``inner``'s
    side that faces the region's middle, by more than ``margin`` pixels: when two touching
    cards are outlined as one and ``inner`` is one of them, the other. None if too little."""
    pts = outline.reshape(-1, 2).astype(np.float32)
    centre = pts.mean(axis=0)
    side = inner[NEXT] - inner
    normal = np.stack([side[:, 1], -side[:, 0]], axis=1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None] + 1e-6
    if ((inner.mean(axis=0) - inner) * normal).sum(-1).mean() > 0:
        normal = -normal  # outward
    facing = int(np.argmax(((centre - inner) * normal).sum(-1)))
    beyond = pts[((pts - inner[facing]) * normal[facing]).sum(-1) > margin]
    if len(beyond) < 8:
        return None
    return approx_quad(beyond.reshape(-1, 1, 2))
