"""Find the cards lying face up in a camera frame and warp each to an upright card image.

Why this design: a face-up card is a bright, low-saturation, card-shaped quad, but no single
threshold separates it from every table (white-ish cloth, glare, vignettes, wood) and cards that
touch merge into one bright blob. So candidates come from several masks of a downscaled frame:

* *bright*: Otsu on the blurred per-pixel minimum of B, G, R (paper is bright in all three
  channels; wood, felt and coloured cloth are not);
* *bright minus edges*: the same with every Canny edge cut out, which splits touching and
  overlapping cards along the thin border or shadow between them;
* *flat*: the regions between Canny edges, which finds cards on tables as bright as they are.

Each region's outline is fitted with a quad (polygon approximation, then a least-squares line
per side, intersected, so rounded corners do not pull the corners in) and kept if it is
card-shaped: convex, aspect 0.45-1.0 (a card seen obliquely looks square), filling its quad,
nothing reaching out of it (two overlapping cards fitted as one), of a plausible size.
Candidates from the different masks are merged: duplicates keep the best fit; a region tiled by
two or more cards (two cards side by side look like one card of the same aspect) or cut by the
frame's edge (the table) gives way to them; a card keeps its picture frame or ornate ace out.
Outlines not clearly portrait (a card seen obliquely) are warped both ways round
(``ambiguous``).

Cards cut by the frame's edge are ``partial``. Cards under others in a fan are found from their
visible index corner (:mod:`vision.fans`) as ``one_corner`` rows: a guessed outline, read from
that corner alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.edges import frame_to_card, snap_quad
from vision.fans import corner_index, hidden_card_quads
from vision.preprocess import CARD_H, CARD_W, order_quad, warp_quad
from vision.quads import (
    approx_quad,
    beyond_side,
    quad_area,
    quad_shape,
    quad_sides,
    reach_outside,
    refine_quad,
)

WORK_LONG_SIDE = 640
"""Detection runs on the frame downscaled to this long side (pixels): fast (a 1280x720 frame
halves exactly), and still ~70 x 100 px for the smallest card (3 % of the frame); quads are
scaled back to the frame and the warps use the full-resolution frame."""

MIN_AREA_FRACTION = 0.008
"""Smallest card, as a fraction of the frame area (the target is 3 %; margin for perspective)."""

MAX_AREA_FRACTION = 0.75
"""Largest card, as a fraction of the frame area (the target is 60 %)."""

ASPECT_RANGE = (0.45, 1.0)
"""Short side / long side of an accepted quad. Real cards are 0.63-0.72, but a card seen
obliquely along its long side looks square (the webcam scenes reach 0.97)."""

AMBIGUOUS_ASPECT = 0.6
"""Above this aspect, which pair of sides is the card's long one is unclear from the outline:
such finds carry a second view turned 90 degrees, which the classifier reads when the first
is not a sure card. Tuned on the real scenes (bench/recognition.py): 0.8 misses three very
oblique cards that 0.6 reads (real cards are 0.63-0.72, so nearly all carry one)."""

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
border in the image (:func:`vision.edges.snap_quad`)."""

SUPPORT_WEIGHT = 0.5
"""Weight of the edge support (share of the outline on a clear border) in a find's score:
of two outlines of one card, the one on the card's border wins."""

DUPLICATE_OVERLAP = 0.7
"""Two outlines sharing this much (intersection over union) are one card: cards lying on
each other show only part of the lower one, never two whole outlines this alike."""

SAME_CARD = 0.75
"""A fitted quad sharing this much (intersection over union) with a card an earlier mask gave
(and snapping put on its border all round) is that card: not snapped again."""

OFF_CENTRE = 0.15
"""A card found inside a larger outline, this far (a fraction of the outline's size) from its
middle, is one of two touching cards outlined as one, not the outline's picture frame."""

PAIR_SUPPORT = 0.5
"""Such a pair is split when both cards have at least this share of every side on a border
(a side running across paper marks part of a card, not a card)."""

FRAME_SUSPECT = 0.9
"""An outline with a side less on a border than this may be a court card's picture frame."""

FRAME_REACH = 0.25
"""How far outside a picture frame (a fraction of its size) the card's border is sought."""


@dataclass(frozen=True)
class Detections:
    """The cards found in one frame, as parallel arrays (one row per card).

    ``quads`` are in frame pixels, ordered (top-left, top-right, bottom-right, bottom-left) of
    the upright card (see :func:`vision.preprocess.order_quad`); ``crops`` are the upright
    ``CARD_W x CARD_H`` warps the classifier reads.
    """

    quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    areas: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    partial: np.ndarray = field(default_factory=lambda: np.zeros((0,), bool))
    crops: np.ndarray = field(default_factory=lambda: np.zeros((0, CARD_H, CARD_W, 3), np.uint8))
    ambiguous: np.ndarray = field(default_factory=lambda: np.zeros((0,), bool))
    """Outline not clearly portrait (a card seen obliquely): which sides are the long ones is
    unclear, and :meth:`alternative` gives the card read the other way round."""
    alternatives: dict[int, np.ndarray] = field(default_factory=dict)
    """Second crops made in advance (a hidden card's other guessed outline)."""
    frame: np.ndarray | None = None
    """The frame (a reference, not a copy): :meth:`alternative` warps it on demand."""
    one_corner: np.ndarray = field(default_factory=lambda: np.zeros((0,), bool))
    """Cards hidden under others (see :mod:`vision.fans`): the outline is a guess and only the
    top-left index corner of the crop is visible; always ``partial`` too."""

    def __len__(self) -> int:
        return int(self.quads.shape[0])

    def alternative(self, i: int) -> np.ndarray:
        """Row ``i``'s card read the other way round: the warp taking the outline's other pair
        of sides as the long ones (made on demand: most frames never need one)."""
        if i in self.alternatives:
            return self.alternatives[i]
        if self.frame is None:
            return alternative_view(self.crops[i])
        landscape = warp_quad(self.frame, self.quads[i], size=(CARD_H, CARD_W))
        return cv2.rotate(landscape, cv2.ROTATE_90_CLOCKWISE)

    def take(self, rows: list[int]) -> Detections:
        """The detections of ``rows`` only (same frame)."""
        return Detections(
            quads=self.quads[rows],
            areas=self.areas[rows],
            scores=self.scores[rows],
            partial=self.partial[rows],
            crops=self.crops[rows],
            ambiguous=self.ambiguous[rows],
            alternatives={
                k: self.alternatives[r] for k, r in enumerate(rows) if r in self.alternatives
            },
            frame=self.frame,
            one_corner=self.one_corner[rows],
        )


@dataclass
class _Candidate:
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
class _Work:
    """The downscaled frame and what candidates are taken from and checked against."""

    masks: list[tuple[np.ndarray, float, int]]  # (mask, grow, contour retrieval mode)
    edges: np.ndarray  # per-pixel min of B, G, R, blurred: what borders are sought in
    paper: float  # the brightness (Otsu) that separates paper from table in ``edges``
    holes: list[np.ndarray] = field(default_factory=list)  # the flat mask's large holes


def _card_from(
    work: _Work, quad: np.ndarray, min_area: float, max_area: float
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


def _iou(a: np.ndarray, b: np.ndarray, area_a: float) -> float:
    """Intersection over union of two convex quads (``area_a``: the area of ``a``)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter) / (area_a + quad_area(b) - float(inter) + 1e-6)


def _candidates_from_mask(
    work: _Work,
    k: int,
    min_area: float,
    max_area: float,
    seen: list[tuple[float, float, float]],
    done: list[np.ndarray],
    penalty: float = 0.0,
) -> list[_Candidate]:
    """Card candidates from mask ``k`` of ``work``. ``seen`` (rough quads) and ``done``
    (fitted and snapped quads) record the cards earlier masks gave, to skip refitting them."""
    mask, grow, retrieve = work.masks[k]
    h, w = mask.shape
    contours, hierarchy = cv2.findContours(mask, retrieve, cv2.CHAIN_APPROX_NONE)
    found: list[_Candidate] = []
    # an outline of n pixels encloses at most n^2 / (4 pi): skip the many small ones cheaply
    shortest = int(np.sqrt(4 * np.pi * 0.7 * min_area))
    if retrieve == cv2.RETR_CCOMP:
        # things lying on the table: kept to look again where cards touch (see _rest_mask)
        work.holes.extend(
            c for i, c in enumerate(contours) if len(c) >= shortest and hierarchy[0][i][3] >= 0
        )
    for k in [i for i, c in enumerate(contours) if len(c) >= shortest]:
        contour = contours[k]
        # a hole's outline runs outside the edge band around it: shrink instead of grow
        grow_k = -grow if hierarchy[0][k][3] >= 0 and retrieve == cv2.RETR_CCOMP else grow
        region = float(cv2.contourArea(contour))
        if region < 0.7 * min_area or region > max_area:
            continue
        quad = approx_quad(contour)
        if quad is None:
            continue
        # cheap checks on the rough quad first: most regions are not cards
        rough = quad_area(quad)
        if rough < 0.8 * min_area or region < 0.8 * MIN_FILL * rough:
            continue
        key = _rough_key(quad, grow_k)
        if not quad_shape(quad)[1] or _seen(key, seen):
            continue
        if any(_iou(quad, q, rough) > SAME_CARD for q in done):
            continue  # an earlier mask's card, already snapped onto its border
        quad = refine_quad(quad, contour, grow_k)
        area = quad_area(quad)
        if area < 0.8 * min_area or area > max_area:
            continue
        if any(_iou(quad, q, area) > SAME_CARD for q in done):
            continue
        aspect, ok = quad_shape(quad)
        if not ok or not ASPECT_RANGE[0] - 0.05 <= aspect <= ASPECT_RANGE[1]:
            continue
        grown_region = region + grow_k * cv2.arcLength(contour, True)
        fill = min(1.0, grown_region / area)
        if fill < MIN_FILL:
            continue
        if reach_outside(quad, contour) > MAX_OUTSIDE * np.sqrt(area) + abs(grow_k):
            continue  # something sticks out: overlapping cards merged into one region
        card = _card_from(work, quad, min_area, max_area)
        if card is None:
            continue
        seen.append(key)
        if card[2].min() >= 0.9:
            done.append(card[0])  # a card well on its border all round
        x, y, bw, bh = cv2.boundingRect(contour)
        at_edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        found.append(
            _Candidate(
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
        )
    return found


def _work(small: np.ndarray) -> _Work:
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
    return _Work(masks, minc, float(paper))


def _without(mask: np.ndarray, cands: list[_Candidate]) -> np.ndarray:
    """``mask`` with the cards found so far (grown a little) cleared."""
    for c in cands:
        centre = c.quad.mean(axis=0)
        grown = centre + (c.quad - centre) * 1.06
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 0)
    return mask


def _rest_masks(work: _Work, cands: list[_Candidate]) -> list[tuple[np.ndarray, float, int]]:
    """Two last masks, where the others found no card (coarse: see COARSE_PENALTY): the cut
    mask eroded, which cuts the wider necks (glare merging into a card's edge); and what lies
    on the table (the flat mask's holes) less the cards found, which leaves a card touching
    another (a court card, whose busy picture no other mask outlines whole)."""
    eroded = cv2.erode(_without(work.masks[1][0].copy(), cands), ERODE_KERNEL)
    things = np.zeros_like(eroded)
    if work.holes:
        cv2.drawContours(things, work.holes, -1, 255, cv2.FILLED)
        things = cv2.morphologyEx(_without(things, cands), cv2.MORPH_OPEN, ERODE_KERNEL)
    return [(eroded, 5.0, cv2.RETR_EXTERNAL), (things, -1.5, cv2.RETR_EXTERNAL)]


def _overlap(a: _Candidate, b: _Candidate) -> float:
    """Intersection over union of two convex outlines."""
    inter, _ = cv2.intersectConvexConvex(a.quad, b.quad)
    return float(inter) / (a.area + b.area - float(inter) + 1e-6)


def _contains(outer: _Candidate, inner: _Candidate) -> bool:
    q = outer.quad.reshape(-1, 1, 2)
    return cv2.pointPolygonTest(q, (float(inner.centre[0]), float(inner.centre[1])), False) > 0


def _rest_of(work: _Work, blob: _Candidate, card: _Candidate, min_area: float) -> _Candidate | None:
    """The card beside ``card`` in ``blob`` (two touching cards outlined as one): the part of
    the blob beyond ``card``'s side that faces the blob's middle, snapped onto its border."""
    if blob.outline is None:
        return None
    rest = beyond_side(blob.outline, card.quad, 0.03 * np.sqrt(card.area))
    if rest is None or quad_area(rest) < 0.8 * min_area:
        return None
    found = _card_from(work, rest, min_area, blob.area)
    if found is None:
        return None
    quad, aspect, support = found
    if support.min() < PAIR_SUPPORT:
        return None  # a side across paper: part of a card, not a card
    return _Candidate(
        quad,
        quad_area(quad),
        blob.fill,
        aspect,
        blob.partial,
        blob.penalty,
        float(support.mean()),
        float(support.min()),
    )


def _select(
    cands: list[_Candidate], work: _Work | None = None, min_area: float = 0.0
) -> list[_Candidate]:
    """Merge candidates from all masks into one find per card (see the module docstring)."""
    # 1. duplicates: same place, same size -> keep the best-fitting one
    cands = sorted(cands, key=lambda c: -c.score)
    unique: list[_Candidate] = []
    for c in cands:
        dup = False
        for u in unique:
            ratio = c.area / u.area
            dist = float(np.hypot(*(c.centre - u.centre)))
            # (concentric outlines up to 1.45x apart are one card: the outer side of the
            # edge band around a small card adds several pixels all round)
            if 1 / 1.45 < ratio < 1.45 and dist < 0.08 * np.sqrt(u.area):
                dup = True
                break
            # or mostly the same pixels (one outline stretched over the card's shadow)
            if 1 / 1.45 < ratio < 1.45 and _overlap(c, u) > DUPLICATE_OVERLAP:
                dup = True
                break
        if not dup:
            unique.append(c)
    # 2. nesting, largest first. Inside a card, card-shaped quads are its picture frame, an
    # ornate ace or pips, covering little of it; a region tiled by two or more cards is a blob
    # of cards, and a region cut by the frame's edge is the table: both give way to the cards.
    unique.sort(key=lambda c: -c.area)
    children: list[list[int]] = [[] for _ in unique]
    has_parent = [False] * len(unique)
    for i, c in enumerate(unique):
        for j in range(i - 1, -1, -1):  # the smallest container that holds it
            if unique[j].area > 1.45 * c.area and _contains(unique[j], c):
                has_parent[i] = True
                children[j].append(i)
                break

    def resolve(i: int) -> list[_Candidate]:
        if not children[i]:
            return [unique[i]]
        tiles = [t for k in children[i] for t in resolve(k)]
        me = unique[i]
        if me.partial:
            return tiles  # cut by the frame's edge: the table, a screen, a cut card
        if len(tiles) >= 2 and sum(t.area for t in tiles) >= 0.5 * me.area:
            return tiles  # a blob of cards
        if (
            len(tiles) == 1
            and work is not None
            and tiles[0].area >= 0.3 * me.area
            and tiles[0].weakest >= PAIR_SUPPORT
        ):
            # a picture frame, ornate ace or pips sits in the card's middle; a card off to
            # one side of the outline is one of two touching cards outlined as one
            off = float(np.hypot(*(tiles[0].centre - me.centre)))
            if off > OFF_CENTRE * np.sqrt(me.area):
                rest = _rest_of(work, me, tiles[0], min_area)
                if rest is not None:
                    return [tiles[0], rest]
        return [me]  # a card and its picture frame, ornate ace or pips

    out: list[_Candidate] = []
    for i, nested in enumerate(has_parent):
        if not nested:
            out.extend(resolve(i))
    return out


def _downscale(image: np.ndarray, scale: float) -> np.ndarray:
    """Shrink by ``scale``: exact halvings (area-averaging, fast) then one linear step."""
    if scale >= 1.0:
        return image
    h, w = image.shape[:2]
    target = (max(1, round(w * scale)), max(1, round(h * scale)))
    while image.shape[1] >= 2 * target[0] and image.shape[0] >= 2 * target[1]:
        image = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    if image.shape[1] != target[0]:
        image = cv2.resize(image, target, interpolation=cv2.INTER_LINEAR)
    return image


def find_quads(
    frame_bgr: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Card outlines in ``frame_bgr``: (quads N x 4 x 2 in frame pixels, scores, partial, and
    the guessed outlines of cards hidden in fans with their visible index corner)."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = _downscale(frame_bgr, scale)
    sh, sw = small.shape[:2]
    scale = sw / w
    min_area = MIN_AREA_FRACTION * sh * sw
    max_area = MAX_AREA_FRACTION * sh * sw
    cands: list[_Candidate] = []
    seen: list[tuple[float, float, float]] = []
    done: list[np.ndarray] = []
    work = _work(small)
    for k in range(len(work.masks)):
        cands.extend(_candidates_from_mask(work, k, min_area, max_area, seen, done))
    work.masks.extend(_rest_masks(work, cands))
    for k in (3, 4):
        cands.extend(_candidates_from_mask(work, k, min_area, max_area, seen, done, COARSE_PENALTY))
    chosen = _select(cands, work, min_area)
    if not chosen:
        empty = np.zeros((0, 4, 2), np.float32)
        return empty, np.zeros((0,), np.float32), np.zeros((0,), bool), []
    small_quads = np.stack([c.quad for c in chosen]).astype(np.float32)
    quads = np.stack([order_quad(q / scale) for q in small_quads]).astype(np.float32)
    scores = np.array([c.score for c in chosen], np.float32)
    partial = np.array([c.partial for c in chosen], bool)
    whole = [q for q, c in zip(small_quads, chosen, strict=True) if not c.partial]
    hidden: list[tuple[np.ndarray, np.ndarray]] = []
    if whole:
        sides = np.array([quad_sides(q) for q in whole])
        size = (float(np.median(sides[:, 0])), float(np.median(sides[:, 1])))
        hidden = [
            (q / scale, p / scale)
            for q, p in hidden_card_quads(work.masks[0][0], small_quads, size)
        ]
    return quads, scores, partial, hidden


def alternative_view(crop: np.ndarray) -> np.ndarray:
    """An upright card crop read the other way round, when the frame is gone: turned 90
    degrees and stretched back to portrait (blurrier than warping the frame again)."""
    h, w = crop.shape[:2]
    return cv2.resize(
        cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE), (w, h), interpolation=cv2.INTER_LINEAR
    )


def _hidden_rows(
    frame_bgr: np.ndarray, hidden: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray | None]]:
    """Quads and crops (visible index corner at the crop's top-left) of hidden cards; the two
    guesses from one corner become a row and its alternative."""
    by_corner: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray]]] = {}
    for quad, corner in hidden:
        k = corner_index(quad, corner)
        if k not in (0, 2):
            continue  # this corner of the guessed card carries no index
        crop = warp_quad(frame_bgr, quad)
        if k == 2:
            crop = cv2.rotate(crop, cv2.ROTATE_180)
        # the pile's outline may give one corner twice, a few pixels apart
        near = max(4.0, 0.04 * float(np.sqrt(quad_area(quad))))
        key = (round(float(corner[0])), round(float(corner[1])))
        for other in by_corner:
            if abs(other[0] - key[0]) <= near and abs(other[1] - key[1]) <= near:
                key = other
                break
        by_corner.setdefault(key, []).append((order_quad(quad), crop))
    quads, crops, alts = [], [], []
    for guesses in by_corner.values():
        quads.append(guesses[0][0])
        crops.append(guesses[0][1])
        alts.append(guesses[1][1] if len(guesses) > 1 else None)
    return quads, crops, alts


def detect(frame_bgr: np.ndarray, hidden_cards: bool = True) -> Detections:
    """Every face-up card in a BGR frame, with its upright warp (see :class:`Detections`);
    with ``hidden_cards``, also the cards of a fan whose index corner alone shows."""
    if frame_bgr.ndim == 2:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    elif frame_bgr.shape[2] == 4:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_BGRA2BGR)
    quads, scores, partial, hidden = find_quads(frame_bgr)
    if len(quads) == 0:
        return Detections()
    crops = np.stack([warp_quad(frame_bgr, q) for q in quads])
    ambiguous = np.array([quad_shape(q)[0] > AMBIGUOUS_ASPECT for q in quads], bool)
    one_corner = np.zeros(len(quads), bool)
    alternatives: dict[int, np.ndarray] = {}
    h_quads, h_crops, h_alts = _hidden_rows(frame_bgr, hidden) if hidden_cards else ([], [], [])
    if h_quads:
        n0, n = len(quads), len(h_quads)
        quads = np.concatenate([quads, np.stack(h_quads)])
        scores = np.concatenate([scores, np.zeros(n, np.float32)])
        partial = np.concatenate([partial, np.ones(n, bool)])
        crops = np.concatenate([crops, np.stack(h_crops)])
        ambiguous = np.concatenate([ambiguous, [a is not None for a in h_alts]])
        alternatives = {n0 + k: a for k, a in enumerate(h_alts) if a is not None}
        one_corner = np.concatenate([one_corner, np.ones(n, bool)])
    areas = np.array([quad_area(q) for q in quads], np.float32)
    return Detections(
        quads=quads,
        areas=areas,
        scores=scores,
        partial=partial,
        crops=crops,
        ambiguous=ambiguous,
        alternatives=alternatives,
        frame=frame_bgr,
        one_corner=one_corner,
    )
