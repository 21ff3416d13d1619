"""Card candidates from the masks of a downscaled frame: regions fitted with quads, checked
for a card's shape and snapped onto the card's border (see :mod:`vision.detect.find`, which merges
them into one find per card).

Why a module of its own: which regions become candidates (masks, cheap checks first, outlines
an earlier mask already gave skipped) is the costly, per-region part of detection, kept apart
from how candidates are merged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from vision.detect.edges import frame_to_card, snap_quad
from vision.detect.quads import (
    TAPER,
    approx_quad,
    quad_area,
    quad_shape,
    reach_outside,
    refine_quad,
    restored_quad,
)

ASPECT_RANGE = (0.45, 1.0)
"""Short side / long side of an accepted quad. Real cards are 0.63-0.72, but a card seen
obliquely along its long side looks square (the webcam scenes reach 0.97)."""

MAX_OUTSIDE = 0.1
"""How far a region may reach outside its fitted quad, as a fraction of the quad's size
(sqrt of its area): two overlapping cards fitted with one quad leave a corner sticking out."""

ERODE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))

WIDE_OPEN = 0.4
"""The last mask (what lies on the table less the cards found) is opened once more with a
kernel this fraction of a found card's width: a card touching another found a little askew."""

COARSE_PENALTY = 0.2
"""Score handicap of outlines from the eroded mask (the last one): they stand in for a card
no other mask outlines, never replace a finer outline of the same card."""

MIN_FILL = 0.86
"""Region area / quad area: a card region fills its quad (rounded corners lose ~2 %)."""

SNAP_REACH = 0.1
"""How far (a fraction of the quad's size, sqrt of its area) a side may move onto the card's
border in the image (:func:`vision.detect.edges.snap_quad`)."""

SUPPORT_WEIGHT = 0.5
"""Weight of the edge support (share of the outline on a clear border) in a find's score:
of two outlines of one card, the one on the card's border wins."""

SAME_CARD = 0.75
"""A fitted quad sharing this much (intersection over union) with a card an earlier mask gave
(and snapping put on its border all round) is that card: not snapped again."""

DONE_ASPECT = 0.8
"""... and only when card-shaped (short side / long side up to this): a quad much squarer than
a card, snapped onto borders all round, may hold one side on a court's picture frame and the
others on the card's border, a small framed court on a pale table whose bright mask the
picture breaks (fresh seed 10599 oblique Clag, bellot, 10 fps: a KH 45 px wide in the
watcher's table view outlined across its middle, aspect 0.89, read as no card and its play
missed); the flat mask's outline of the whole card (aspect 0.68) is then fitted too, and the
better-scored one kept (:attr:`Candidate.score`). On bench/vision.py's frames, the real scenes and the
kept renders of a watch seed, 19 of 2,694 detections changed, no real scene's reading."""

CUT_CORNER = 1.06
"""A region this much larger than its rough quad reaches outside it: the quad may have
dropped a corner of a card whose own corner is cut off (:func:`vision.detect.quads.restored_quad`)."""

TABLE_SHARE = 0.5
"""The flat mask's largest region is the table when it covers this share of the frame (a
patterned cloth's is one of its patches)."""

FRAME_SUSPECT = 0.9
"""An outline with a side less on a border than this may be a court card's picture frame."""

FRAME_REACH = 0.25
"""How far outside a picture frame (a fraction of its size) the card's border is sought."""


@dataclass
class Candidate:
    quad: np.ndarray  # 4 x 2 float32, work-image pixels
    area: float  # quad area
    fill: float  # region area / quad area
    aspect: float  # short / long
    partial: bool
    penalty: float = 0.0  # outlines from a coarser mask lose ties
    support: float = 0.0  # share of the outline on a clear border in the image
    weakest: float = 0.0  # the same for its least supported side
    outline: np.ndarray | None = None  # the region's contour (work pixels)
    centre: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.centre = np.add.reduce(self.quad, axis=0) / 4  # (its mean, bit for bit)

    @property
    def score(self) -> float:
        """Card-likeness: how well the region fills its quad and how card-like the aspect is."""
        return (
            self.fill
            - 0.5 * abs(self.aspect - 0.69)
            - self.penalty
            + SUPPORT_WEIGHT * (self.support - 1.0)
        )


def _rough_key(rough: np.ndarray, grow: float) -> tuple[float, float, float]:
    """(centre x, centre y, area) of a rough quad once its mask's inset (``grow``) is undone."""
    p0, p1, p2, p3 = pts = rough.tolist()
    perimeter = math.dist(p3, p0) + math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3)
    cx = (pts[0][0] + pts[1][0] + pts[2][0] + pts[3][0]) / 4
    cy = (pts[0][1] + pts[1][1] + pts[2][1] + pts[3][1]) / 4
    return cx, cy, quad_area(rough) + grow * perimeter


def _seen(key: tuple[float, float, float], seen: list[tuple[float, float, float]]) -> bool:
    """True when an earlier mask gave a card from (almost) the same rough quad: skip refitting
    it. (Only cards are recorded: a region rejected in one mask may be whole in the next.)"""
    cx, cy, area = key
    for ox, oy, oa in seen:
        if abs(ox - cx) < 3.0 and abs(oy - cy) < 3.0 and abs(oa - area) < 0.05 * area:
            return True
    return False


@dataclass(frozen=True)
class Work:
    """The downscaled frame and what candidates are taken from and checked against."""

    masks: list[tuple[np.ndarray | None, float, int]]  # (mask, grow, contour retrieval)
    edges: np.ndarray  # per-pixel min of B, G, R, blurred: what borders are sought in
    paper: float  # the brightness (Otsu) that separates paper from table in ``edges``
    holes: list[np.ndarray] = field(default_factory=list)  # the flat mask's large holes
    blobs: list[np.ndarray] = field(default_factory=list)  # the bright mask's outlines
    table: list[np.ndarray] = field(default_factory=list)  # the flat mask's largest region
    taper: float = TAPER  # the most a side may exceed its opposite (quads.quad_shape)
    min_aspect: float = ASPECT_RANGE[0]  # the least short / long side (see ASPECT_RANGE)


def card_from(
    work: Work, quad: np.ndarray, min_area: float, max_area: float
) -> tuple[np.ndarray, float, np.ndarray] | None:
    """(quad snapped onto the card's border, its aspect, its edge support per side) for a
    fitted quad, or None when the result is no plausible card. A quad on a court card's picture frame
    (little support: darker inside than out) is replaced by the card around it when found."""
    size = float(np.sqrt(quad_area(quad)))
    snapped, support = snap_quad(work.edges, quad, SNAP_REACH * size, work.paper)
    if support.min() < FRAME_SUSPECT:
        # not on a border all round: perhaps a court card's picture frame
        card = frame_to_card(work.edges, quad, work.paper, FRAME_REACH * size)
        if card is not None and quad_shape(card, work.taper)[1]:
            outer, outer_support = snap_quad(work.edges, card, SNAP_REACH * size, work.paper)
            if outer_support.mean() > support.mean():
                snapped, support = outer, outer_support
    area = quad_area(snapped)
    if area < min_area or area > max_area:
        return None
    aspect, ok = quad_shape(snapped, work.taper)
    if not ok or not work.min_aspect <= aspect <= ASPECT_RANGE[1]:
        return None
    return snapped, aspect, support


def iou(a: np.ndarray, b: np.ndarray, area_a: float) -> float:
    """Intersection over union of two convex quads (``area_a``: the area of ``a``)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter) / (area_a + quad_area(b) - float(inter) + 1e-6)


class Done(NamedTuple):
    """A card an earlier mask gave, snapped onto its border all round (see SAME_CARD), with
    what bounds its overlap with another quad cheaply."""

    quad: np.ndarray
    area: float
    box: tuple[float, float, float, float]  # x min, y min, x max, y max


def _box(quad: np.ndarray) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    return min(x0, x1, x2, x3), min(y0, y1, y2, y3), max(x0, x1, x2, x3), max(y0, y1, y2, y3)


def done_card(quad: np.ndarray) -> Done:
    return Done(quad, quad_area(quad), _box(quad))


def _is_done(quad: np.ndarray, area: float, done: list[Done]) -> bool:
    """True when ``quad`` (of ``area``) shares more than SAME_CARD (intersection over union)
    with a card in ``done``. The overlap is at most the smaller area and the overlap of the
    bounding boxes: only where that bound could pass is the exact overlap computed (most
    cards lie elsewhere)."""
    if not done:
        return False
    bx0, by0, bx1, by1 = _box(quad)
    for d in done:
        x0, y0, x1, y1 = d.box
        w, h = min(x1, bx1) - max(x0, bx0), min(y1, by1) - max(y0, by0)
        if w <= 0 or h <= 0:
            continue
        most = min(area, d.area, w * h) * 1.001  # (margin for the exact overlap's rounding)
        if most / (area + d.area - most + 1e-6) <= SAME_CARD:
            continue
        inter = float(cv2.intersectConvexConvex(quad, d.quad)[0])
        if inter / (area + d.area - inter + 1e-6) > SAME_CARD:
            return True
    return False


def _candidate(
    quad: np.ndarray,
    work: Work,
    contour: np.ndarray,
    region: float,
    grow_k: float,
    min_area: float,
    max_area: float,
    seen: list[tuple[float, float, float]],
    done: list[Done],
    penalty: float,
    checked: bool = False,
) -> Candidate | None:
    """The card a region's rough ``quad`` fits, checked (cheap checks first: most regions
    are not cards) and snapped onto its border, or None. ``checked``: the rough quad is
    already known to be no card in ``done``."""
    h, w = work.masks[0][0].shape
    # cheap checks on the rough quad first: most regions are not cards
    rough = quad_area(quad)
    if rough < 0.8 * min_area or region < 0.8 * MIN_FILL * rough:
        return None
    key = _rough_key(quad, grow_k)
    if not quad_shape(quad, work.taper)[1] or _seen(key, seen):
        return None
    if not checked and _is_done(quad, rough, done):
        return None  # an earlier mask's card, already snapped onto its border
    quad = refine_quad(quad, contour, grow_k)
    area = quad_area(quad)
    if area < 0.8 * min_area or area > max_area:
        return None
    if _is_done(quad, area, done):
        return None
    aspect, ok = quad_shape(quad, work.taper)
    if not ok or not work.min_aspect - 0.05 <= aspect <= ASPECT_RANGE[1]:
        return None
    grown_region = region + grow_k * cv2.arcLength(contour, True)
    fill = min(1.0, grown_region / area)
    if fill < MIN_FILL:
        return None
    if reach_outside(quad, contour) > MAX_OUTSIDE * np.sqrt(area) + abs(grow_k):
        return None  # something sticks out: overlapping cards merged into one region
    card = card_from(work, quad, min_area, max_area)
    if card is None:
        return None
    seen.append(key)
    if card[2].min() >= 0.9 and card[1] <= DONE_ASPECT:
        done.append(done_card(card[0]))  # a card well on its border all round
    x, y, bw, bh = cv2.boundingRect(contour)
    at_edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
    return Candidate(
        card[0],
        quad_area(card[0]),
        fill,
        card[1],
        at_edge,
        penalty,
        float(card[2].mean()),
        float(card[2].min()),
        contour,
    )


def _shortest(min_area: float) -> int:
    """Fewest outline points of a region of ``min_area`` (0.7 of it: the rough fit's slack):
    an outline of n pixels encloses at most n^2 / (4 pi)."""
    return int(np.sqrt(4 * np.pi * 0.7 * min_area))


def candidates_from_mask(
    work: Work,
    k: int,
    min_area: float,
    max_area: float,
    seen: list[tuple[float, float, float]],
    done: list[Done],
    penalty: float = 0.0,
) -> list[Candidate]:
    """Card candidates from mask ``k`` of ``work``. ``seen`` (rough quads) and ``done``
    (fitted and snapped quads) record the cards earlier masks gave, to skip refitting them."""
    mask, grow, retrieve = work.masks[k]
    if mask is None:
        return []  # nothing there (see rest_masks)
    contours, hierarchy = cv2.findContours(mask, retrieve, cv2.CHAIN_APPROX_NONE)
    found: list[Candidate] = []
    # an outline of n pixels encloses at most n^2 / (4 pi): skip the many small ones cheaply
    shortest = _shortest(min_area)
    if k == 0:
        work.blobs.extend(contours)  # for the cards hidden in fans (vision.detect.fans)
    holes = retrieve == cv2.RETR_CCOMP
    parents = hierarchy[0][:, 3].tolist() if holes and contours else []
    if holes:
        # things lying on the table: kept to look again where cards touch (see rest_masks)
        work.holes.extend(
            c for c, up in zip(contours, parents, strict=True) if up >= 0 and len(c) >= shortest
        )
        # the table: the largest region. Only its outline is used, and only when it covers
        # TABLE_SHARE of the frame: an outline of n points (steps of at most sqrt 2 px)
        # encloses at most n^2 / (2 pi), so only the long outlines can be that
        longest = math.sqrt(2 * math.pi * TABLE_SHARE * mask.size) - 1
        outer = [c for c, up in zip(contours, parents, strict=True) if up < 0 and len(c) >= longest]
        if outer:
            work.table.append(max(outer, key=cv2.contourArea))
    for j in [i for i, c in enumerate(contours) if len(c) >= shortest]:
        contour = contours[j]
        # a hole's outline runs outside the edge band around it: shrink instead of grow
        grow_k = -grow if holes and parents[j] >= 0 else grow
        region = float(cv2.contourArea(contour))
        if region < 0.7 * min_area or region > max_area:
            continue
        hull = cv2.convexHull(contour)
        quad = approx_quad(contour, hull)
        if quad is None:
            continue
        if _is_done(quad, quad_area(quad), done):
            continue  # an earlier mask's card: no second guess at its outline either
        args = (work, contour, region, grow_k, min_area, max_area, seen, done, penalty)
        cand = _candidate(quad, *args, checked=True)
        if cand is None and region > CUT_CORNER * quad_area(quad):
            # the region reaches well outside its quad: perhaps a card with a corner cut off
            restored = restored_quad(contour, hull, work.taper)
            if restored is not None:
                cand = _candidate(restored, *args)
        if cand is None and penalty > 0:
            # the last masks (what is left once the cards found are cleared) may keep a
            # bump where the card touched another: the rectangle round the region, snapped
            # onto the card's border, is the card
            box = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
            cand = _candidate(box, *args)
        if cand is not None:
            found.append(cand)
    return found


def make_work(small: np.ndarray, taper: float = TAPER, min_aspect: float = ASPECT_RANGE[0]) -> Work:
    """The masks candidates are taken from (see the module docstring) and the edge image;
    ``taper``: see :func:`vision.detect.quads.quad_shape`; ``min_aspect``: the least short /
    long side of a card's outline (:data:`ASPECT_RANGE`)."""
    b, g, r = cv2.split(small)
    minc = cv2.GaussianBlur(cv2.min(cv2.min(b, g), r), (5, 5), 0)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    paper, bright = cv2.threshold(minc, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    kernel = np.ones((3, 3), np.uint8)
    edges = cv2.dilate(cv2.Canny(minc, 40, 120), kernel)
    # a faint edge inside the bright blob is the border of one card lying on another
    fine = cv2.dilate(cv2.Canny(gray, 15, 45), kernel)
    cut = cv2.bitwise_and(bright, cv2.bitwise_not(fine))
    # break the thin bridges left where that border fades out
    cut = cv2.morphologyEx(
        cut, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    )
    flat = cv2.bitwise_not(edges)
    masks = [
        (bright, 0.0, cv2.RETR_EXTERNAL),
        (cut, 1.5, cv2.RETR_EXTERNAL),
        (flat, 1.5, cv2.RETR_CCOMP),
    ]
    return Work(masks, minc, float(paper), taper=taper, min_aspect=min_aspect)


def _grown(cands: list[Candidate]) -> list[np.ndarray]:
    """The cards found so far, each grown a little (6 %) about its centre, in whole pixels:
    what :func:`_without` clears."""
    return _grown_quads([c.quad for c in cands])


def _grown_quads(quads_list: list[np.ndarray]) -> list[np.ndarray]:
    if not quads_list:
        return []
    quads = np.stack([np.asarray(q, np.float64).reshape(4, 2) for q in quads_list])
    centre = quads.mean(axis=1, keepdims=True)
    return list(np.round(centre + (quads - centre) * 1.06).astype(np.int32))


def _without(mask: np.ndarray, grown: list[np.ndarray]) -> np.ndarray:
    """``mask`` with the cards found so far (``grown``: see :func:`_grown`) cleared."""
    for poly in grown:
        cv2.fillConvexPoly(mask, poly, 0)
    return mask


def _unless_empty(mask: np.ndarray, shortest: int) -> np.ndarray | None:
    """``mask``, or None when it holds no outline of ``shortest`` points: no outline passes
    through a pixel more than 8 times, so fewer than ``shortest / 8`` pixels hold none (the
    usual case once the cards are cleared; what is skipped then gives no candidate)."""
    return mask if 8 * cv2.countNonZero(mask) >= shortest else None


def _eroded(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``cv2.erode(mask, kernel)``, eroding only the box round what is set (with a margin of
    the kernel's reach): erosion never adds a pixel, so all outside that box stays unset,
    and every pixel inside sees the whole of its window (the same result, cheaper when
    little is set)."""
    x, y, w, h = cv2.boundingRect(mask)
    out = np.zeros_like(mask)
    if w == 0:
        return out
    r = max(kernel.shape) // 2
    x0, y0 = max(0, x - r), max(0, y - r)
    x1, y1 = min(mask.shape[1], x + w + r), min(mask.shape[0], y + h + r)
    out[y0:y1, x0:x1] = cv2.erode(np.ascontiguousarray(mask[y0:y1, x0:x1]), kernel)
    return out


def _opened(mask: np.ndarray, k: int) -> np.ndarray:
    """``mask`` opened with a k x k ellipse. Opening never adds a pixel, and a pixel's
    result depends only on the mask within k of it: only the box round what is set, with a
    margin of k (one pixel would do: a window reaching past the box crosses its unset
    margin), is opened (the same result, at a fraction of the cost when little is set)."""
    x, y, w, h = cv2.boundingRect(mask)
    out = np.zeros_like(mask)
    if w == 0:
        return out
    x0, y0 = max(0, x - k), max(0, y - k)
    x1, y1 = min(mask.shape[1], x + w + k), min(mask.shape[0], y + h + k)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out[y0:y1, x0:x1] = cv2.morphologyEx(
        np.ascontiguousarray(mask[y0:y1, x0:x1]), cv2.MORPH_OPEN, kernel
    )
    return out


def _touching(kept: np.ndarray, grown: list[np.ndarray]) -> np.ndarray | None:
    """The regions of ``kept`` with a pixel near a card found (``grown``, dilated by
    ``ERODE_KERNEL``), or None when no region is. Only the box round what is set in
    ``kept`` is labelled, and the cards are dilated in that box widened by the kernel's
    reach: the same regions as labelling the whole mask, at a fraction of the cost."""
    x, y, w, h = cv2.boundingRect(kept)
    if w == 0:
        return None
    r = ERODE_KERNEL.shape[0] // 2
    x0, y0 = max(0, x - r), max(0, y - r)
    x1, y1 = min(kept.shape[1], x + w + r), min(kept.shape[0], y + h + r)
    near = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for poly in grown:
        cv2.fillConvexPoly(near, poly - np.array([x0, y0], np.int32), 255)
    near = cv2.dilate(near, ERODE_KERNEL)[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
    count, labels = cv2.connectedComponents(np.ascontiguousarray(kept[y : y + h, x : x + w]))
    # the regions (label > 0) with a pixel near a card found
    touching = np.flatnonzero(np.bincount(labels[near > 0], minlength=count)[1:]) + 1
    if len(touching) == 0:
        return None
    pick = np.zeros(count, np.uint8)
    pick[touching] = 255
    joined = np.zeros_like(kept)
    joined[y : y + h, x : x + w] = pick[labels]
    return joined


def rest_masks(
    work: Work,
    cands: list[Candidate],
    min_area: float,
    known: Sequence[np.ndarray] = (),
) -> list[tuple[np.ndarray | None, float, int]]:
    """Two last masks, where the others found no card (coarse: see COARSE_PENALTY): the cut
    mask eroded, which cuts the wider necks (glare merging into a card's edge); and what lies
    on the table (the flat mask's holes, and on a plain table all outside the table's outline:
    cards joined to one reaching out of the frame) less the cards found, which leaves a card
    touching another (a court card, whose busy picture no other mask outlines whole). A mask
    with too little left for any card outline is None (nothing to search). ``known``: the
    outlines (work pixels) of cards known to lie there though not found now (a video's cards
    followed so far): cleared like the cards found, so that a new card touching one is what
    is left of their blob."""
    shortest = _shortest(min_area)
    grown = _grown(cands) + _grown_quads(list(known))
    left = _unless_empty(_without(work.masks[1][0].copy(), grown), shortest)
    eroded = None if left is None else _eroded(left, ERODE_KERNEL)
    things = np.zeros_like(work.masks[0][0])
    if work.holes:
        cv2.drawContours(things, work.holes, -1, 255, cv2.FILLED)
    if work.table and cv2.contourArea(work.table[0]) > TABLE_SHARE * things.size:
        # cards touching one that reaches the frame's edge are no hole in the table: all
        # that lies outside the table's outline is on it too
        outside = np.full_like(things, 255)
        cv2.drawContours(outside, work.table, -1, 0, cv2.FILLED)
        things = cv2.bitwise_or(things, outside)
    kept: np.ndarray | None = things
    if work.holes or work.table:
        kept = _unless_empty(_without(things, grown), shortest)
        if kept is not None:
            kept = _opened(kept, ERODE_KERNEL.shape[0])
    else:
        kept = _unless_empty(things, shortest)
    # a card found a little askew leaves a sliver of itself joined to the card it touches:
    # opened with a kernel a third of a card's width, the sliver goes and the card stays
    # (only what touches a card found: a cup or a bag is made no card-shaped by opening it)
    wide = None
    areas = [c.area for c in cands] + [abs(float(cv2.contourArea(np.float32(q)))) for q in known]
    joined = _touching(kept, grown) if kept is not None and areas else None
    if joined is not None:
        width = math.sqrt(float(np.median(areas)) / 1.45)
        k = max(9, int(round(WIDE_OPEN * width)) | 1)
        wide = _unless_empty(_opened(joined, k), shortest)
    return [
        (eroded, 5.0, cv2.RETR_EXTERNAL),
        (kept, -1.5, cv2.RETR_EXTERNAL),
        (wide, -1.5, cv2.RETR_EXTERNAL),
    ]
