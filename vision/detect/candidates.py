"""Card candidates from the masks of a downscaled frame: regions fitted with quads, checked
for a card's shape and snapped onto the card's border (see :mod:`vision.detect.find`, which merges
them into one find per card).

Why a module of its own: which regions become candidates (masks, cheap checks first, outlines
an earlier mask already gave skipped) is the costly, per-region part of detection, kept apart
from how candidates are merged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detect.edges import frame_to_card, snap_quad
from vision.detect.quads import (
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
        self.centre = self.quad.mean(axis=0)

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
    pts = rough.tolist()
    perimeter = sum(math.dist(pts[i - 1], pts[i]) for i in range(4))
    cx = sum(p[0] for p in pts) / 4
    cy = sum(p[1] for p in pts) / 4
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

    masks: list[tuple[np.ndarray, float, int]]  # (mask, grow, contour retrieval mode)
    edges: np.ndarray  # per-pixel min of B, G, R, blurred: what borders are sought in
    paper: float  # the brightness (Otsu) that separates paper from table in ``edges``
    holes: list[np.ndarray] = field(default_factory=list)  # the flat mask's large holes
    blobs: list[np.ndarray] = field(default_factory=list)  # the bright mask's outlines
    table: list[np.ndarray] = field(default_factory=list)  # the flat mask's largest region


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
        if card is not None and quad_shape(card)[1]:
            outer, outer_support = snap_quad(work.edges, card, SNAP_REACH * size, work.paper)
            if outer_support.mean() > support.mean():
                snapped, support = outer, outer_support
    area = quad_area(snapped)
    if area < min_area or area > max_area:
        return None
    aspect, ok = quad_shape(snapped)
    if not ok or not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return None
    return snapped, aspect, support


def iou(a: np.ndarray, b: np.ndarray, area_a: float) -> float:
    """Intersection over union of two convex quads (``area_a``: the area of ``a``)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter) / (area_a + quad_area(b) - float(inter) + 1e-6)


def _candidate(
    quad: np.ndarray,
    work: Work,
    contour: np.ndarray,
    region: float,
    grow_k: float,
    min_area: float,
    max_area: float,
    seen: list[tuple[float, float, float]],
    done: list[np.ndarray],
    penalty: float,
) -> Candidate | None:
    """The card a region's rough ``quad`` fits, checked (cheap checks first: most regions
    are not cards) and snapped onto its border, or None."""
    h, w = work.masks[0][0].shape
    # cheap checks on the rough quad first: most regions are not cards
    rough = quad_area(quad)
    if rough < 0.8 * min_area or region < 0.8 * MIN_FILL * rough:
        return None
    key = _rough_key(quad, grow_k)
    if not quad_shape(quad)[1] or _seen(key, seen):
        return None
    if any(iou(quad, q, rough) > SAME_CARD for q in done):
        return None  # an earlier mask's card, already snapped onto its border
    quad = refine_quad(quad, contour, grow_k)
    area = quad_area(quad)
    if area < 0.8 * min_area or area > max_area:
        return None
    if any(iou(quad, q, area) > SAME_CARD for q in done):
        return None
    aspect, ok = quad_shape(quad)
    if not ok or not ASPECT_RANGE[0] - 0.05 <= aspect <= ASPECT_RANGE[1]:
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
    if card[2].min() >= 0.9:
        done.append(card[0])  # a card well on its border all round
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


def candidates_from_mask(
    work: Work,
    k: int,
    min_area: float,
    max_area: float,
    seen: list[tuple[float, float, float]],
    done: list[np.ndarray],
    penalty: float = 0.0,
) -> list[Candidate]:
    """Card candidates from mask ``k`` of ``work``. ``seen`` (rough quads) and ``done``
    (fitted and snapped quads) record the cards earlier masks gave, to skip refitting them."""
    mask, grow, retrieve = work.masks[k]
    contours, hierarchy = cv2.findContours(mask, retrieve, cv2.CHAIN_APPROX_NONE)
    found: list[Candidate] = []
    # an outline of n pixels encloses at most n^2 / (4 pi): skip the many small ones cheaply
    shortest = int(np.sqrt(4 * np.pi * 0.7 * min_area))
    if k == 0:
        work.blobs.extend(contours)  # for the cards hidden in fans (vision.detect.fans)
    if retrieve == cv2.RETR_CCOMP:
        # things lying on the table: kept to look again where cards touch (see rest_masks)
        work.holes.extend(
            c for i, c in enumerate(contours) if len(c) >= shortest and hierarchy[0][i][3] >= 0
        )
        outer = [c for i, c in enumerate(contours) if hierarchy[0][i][3] < 0]
        if outer:
            work.table.append(max(outer, key=cv2.contourArea))
    for j in [i for i, c in enumerate(contours) if len(c) >= shortest]:
        contour = contours[j]
        # a hole's outline runs outside the edge band around it: shrink instead of grow
        grow_k = -grow if hierarchy[0][j][3] >= 0 and retrieve == cv2.RETR_CCOMP else grow
        region = float(cv2.contourArea(contour))
        if region < 0.7 * min_area or region > max_area:
            continue
        quad = approx_quad(contour)
        if quad is None:
            continue
        args = (work, contour, region, grow_k, min_area, max_area, seen, done, penalty)
        cand = _candidate(quad, *args)
        if cand is None and region > CUT_CORNER * quad_area(quad):
            # the region reaches well outside its quad: perhaps a card with a corner cut off
            restored = restored_quad(contour)
            if restored is not None:
                cand = _candidate(restored, *args)
        if cand is not None:
            found.append(cand)
    return found


def make_work(small: np.ndarray) -> Work:
    """The masks candidates are taken from (see the module docstring) and the edge image."""
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
    return Work(masks, minc, float(paper))


def _without(mask: np.ndarray, cands: list[Candidate]) -> np.ndarray:
    """``mask`` with the cards found so far (grown a little) cleared."""
    for c in cands:
        centre = c.quad.mean(axis=0)
        grown = centre + (c.quad - centre) * 1.06
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 0)
    return mask


def rest_masks(work: Work, cands: list[Candidate]) -> list[tuple[np.ndarray, float, int]]:
    """Two last masks, where the others found no card (coarse: see COARSE_PENALTY): the cut
    mask eroded, which cuts the wider necks (glare merging into a card's edge); and what lies
    on the table (the flat mask's holes, and on a plain table all outside the table's outline:
    cards joined to one reaching out of the frame) less the cards found, which leaves a card
    touching another (a court card, whose busy picture no other mask outlines whole)."""
    eroded = cv2.erode(_without(work.masks[1][0].copy(), cands), ERODE_KERNEL)
    things = np.zeros_like(eroded)
    if work.holes:
        cv2.drawContours(things, work.holes, -1, 255, cv2.FILLED)
    if work.table and cv2.contourArea(work.table[0]) > TABLE_SHARE * things.size:
        # cards touching one that reaches the frame's edge are no hole in the table: all
        # that lies outside the table's outline is on it too
        outside = np.full_like(things, 255)
        cv2.drawContours(outside, work.table, -1, 0, cv2.FILLED)
        things = cv2.bitwise_or(things, outside)
    if work.holes or work.table:
        things = cv2.morphologyEx(_without(things, cands), cv2.MORPH_OPEN, ERODE_KERNEL)
    return [(eroded, 5.0, cv2.RETR_EXTERNAL), (things, -1.5, cv2.RETR_EXTERNAL)]
