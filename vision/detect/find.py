"""Find the cards lying face up in a camera frame and warp each to an upright card image.

Why this design: a face-up card is a bright, low-saturation, card-shaped quad, but no single
threshold separates it from every table (white-ish cloth, glare, vignettes, wood) and cards that
touch merge into one bright blob. So candidates come from several masks of a downscaled frame:

* *bright*: Otsu on the blurred per-pixel minimum of B, G, R (paper is bright in all three
  channels; wood, felt and coloured cloth are not);
* *bright minus edges*: the same with every faint Canny edge cut out, which splits touching
  and overlapping cards along the thin border or shadow between them;
* *flat*: the regions between the Canny edges of that per-pixel minimum, which finds cards on
  tables as bright as they are (a shadow falling across the table is a small step there, so
  it does not cut a card lying across it off the table);
* then, only where those found no card: *bright minus edges*, eroded (glare merging into a
  card's edge), and what lies on the table (the flat mask's holes, and all outside the
  table's outline) less the cards found (a court card touching another: its busy picture
  gives no other mask its whole outline).

Each region's outline is fitted with a quad (polygon approximation, then a least-squares line
per side, intersected, so rounded corners do not pull the corners in; failing that, for an
outline with a corner cut off, the quad on its four longest sides) and kept if it is
card-shaped: convex, aspect 0.45-1.0 (a card seen obliquely looks square), filling its quad,
nothing reaching out of it (two overlapping cards fitted as one), of a plausible size. Then
each side is snapped onto the card's border in the image (:mod:`vision.detect.edges`: masks lose a
corner where an index touches the border, a skewed warp reads a wrong card), a court card's
picture frame is led out to the card around it, and the share of the outline on a border
(edge support) joins the score.

Candidates from the different masks are merged: duplicates (same place and size, or mostly
the same pixels, or most of an outline on borders all round with a side across paper) keep
the best score; a region tiled by two or more cards (two cards side by side look like one
card of the same aspect) or cut by the frame's edge (the table) gives way to them, unless
the region is one card cut across (a row of pips, the soft edge of glare); a region holding one card off to one side is two touching cards (the other is the
rest of the region beyond it); a card keeps its picture frame or ornate ace out. Outlines not
clearly portrait (a card seen obliquely) are warped both ways round (``ambiguous``).

Cards cut by the frame's edge are ``partial``. Cards under others in a fan are found from their
visible index corner (:mod:`vision.detect.fans`) as ``one_corner`` rows: a guessed outline, read from
that corner alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.detect.candidates import (
    ASPECT_RANGE,
    COARSE_PENALTY,
    Candidate,
    Done,
    Work,
    candidates_from_mask,
    card_from,
    make_work,
    rest_masks,
)
from vision.detect.corners import (
    CornerDetector,
    Corners,
    pair_corners,
    pair_quad,
    unexplained,
    warp_exact,
)
from vision.detect.fans import corner_index, hidden_card_quads
from vision.detect.preprocess import CARD_H, CARD_W, order_quad, warp_quad
from vision.detect.quads import TAPER, beyond_side, quad_area, quad_shape, quad_sides

OVERLAP_NONE = 0.02
"""An outline found only with a photograph's steeper taper (:func:`_steeper`) is kept only
where it overlaps no outline found with the video taper by more than this share of that
outline's area."""

WORK_LONG_SIDE = 640
"""Detection runs on the frame downscaled to this long side (pixels): fast (a 1280x720 frame
halves exactly), and still ~55 x 80 px for the smallest card (3 % of the frame), its outline
snapped onto the border to a fraction of a pixel; quads are scaled back to the frame and the
warps use the full-resolution frame."""

MIN_AREA_FRACTION = 0.003
"""Smallest card, as a fraction of the frame area: a far seat's card seen by a phone on a
stand at the table's side (60 x 90 px at 1280 x 720 is 0.6 %; 0.3 % leaves margin for
perspective). Lowered from 0.8 %: on the real scenes it named 8 more cards (guillex7 2,
mabrkr 1, notanumber11 6) and no wrong one; the outline is found on the work image, the card
is warped from the full-resolution frame."""

LOW_ASPECT = 0.34
"""The least short / long side of a card's outline in a frame seen low from the table's side
(:func:`detect_low`, a calibration's setup frame): a card lying across the line of sight,
seen from 35 degrees up, is 0.69 x sin(35) = 0.40 as wide as long, and a far card, seen
lower still, less. Fresh seed 10820 light Belote: the setup frame's AD, lying sideways, was
outlined at 0.43, under :data:`~vision.detect.candidates.ASPECT_RANGE`, and never found;
a spot on the table's edge was taken in its place and calibrate refused the frame. Only for
the setup frame: the watcher finds cards on the plane seen from above, where every card is
0.69, and a photograph's steep cards are :data:`~vision.detect.quads.PHOTO_TAPER`'s."""

MAX_AREA_FRACTION = 0.75
"""Largest card, as a fraction of the frame area (the target is 60 %)."""

AMBIGUOUS_ASPECT = 0.6
"""Above this aspect, which pair of sides is the card's long one is unclear from the outline:
such finds carry a second view turned 90 degrees, which the classifier reads when the first
is not a sure card. Tuned on the real scenes (bench/recognition.py): 0.8 misses three very
oblique cards that 0.6 reads (real cards are 0.63-0.72, so nearly all carry one)."""

DUPLICATE_OVERLAP = 0.7
"""Two outlines sharing this much (intersection over union) are one card: cards lying on
each other show only part of the lower one, never two whole outlines this alike."""

OFF_CENTRE = 0.15
"""A card found inside a larger outline, this far (a fraction of the outline's size) from its
middle, is one of two touching cards outlined as one, not the outline's picture frame."""

PAIR_ALIKE = 0.6
"""Such a card and the rest of the outline beyond it are split into two cards only when the
rest is at least this share of the card's size: two cards of one deck lying side by side are
nearly alike in size, while a card's own pip rows, outlined as a square and a sliver, are not
(fresh seed 10562 top Belote, 30 fps: the last lead 9H, 40 x 62 px in the watcher's view,
split into its lower pips (aspect 0.95) and a strip of 0.5 its size, each read as no card:
never played)."""

CUT_APART = (0.04, 0.25)
"""Two cards found inside one card's outline, this far apart (a fraction of the outline's
size), may be its two halves either side of a dark band across it: a small card's row of
pips blurred into one, its ends a few pixels from the card's sides, which join the halves
into the outline (see :func:`_cut_apart`: the line across the gap tells them from two cards
a little apart, with table or a card under them between). Nearer, they are two cards
touching or overlapping; farther, the outer two of a blob of three whose middle card was not
found."""

PAIR_SUPPORT = 0.5
"""Such a pair is split when both cards have at least this share of every side on a border
(a side running across paper marks part of a card, not a card). The same holds inside an
outline on borders all round (at least this share of each side): two cards found in it, one
with a side across paper, are the one card cut by a faint line across it, the soft edge of
glare, which the *bright minus edges* mask cuts along (fresh seed 10611 full Clag, 30 fps: a
2D 64 x 42 px in the table view, found as two halves, its play missed); and an outline most
of the way inside it with such a side is that card cut short. On the real scenes, two cards
found in one outline have each side 0.58-1.00 on a border."""


@dataclass(frozen=True)
class Detections:
    """The cards found in one frame, as parallel arrays (one row per card).

    ``quads`` are in frame pixels, ordered (top-left, top-right, bottom-right, bottom-left) of
    the upright card (see :func:`vision.detect.preprocess.order_quad`); ``crops`` are the upright
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
    """Cards hidden under others (see :mod:`vision.detect.fans`): the outline is a guess and only the
    top-left index corner of the crop is visible; always ``partial`` too."""
    corners: Corners | None = None
    """Every index corner the corner detector found in the frame, when it ran (see
    :func:`release_corners`)."""

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
            corners=self.corners,
        )


def _overlap(a: Candidate, b: Candidate) -> float:
    """Intersection over union of two convex outlines."""
    inter, _ = cv2.intersectConvexConvex(a.quad, b.quad)
    return float(inter) / (a.area + b.area - float(inter) + 1e-6)


def _contains(outer: Candidate, inner: Candidate) -> bool:
    q = outer.quad.reshape(-1, 1, 2)
    return cv2.pointPolygonTest(q, (float(inner.centre[0]), float(inner.centre[1])), False) > 0


def _gap(a: Candidate, b: Candidate) -> float:
    """How far apart two convex outlines lie (0 when they touch or overlap): for outlines
    apart, the nearest points are a corner of one and a side of the other."""
    if cv2.intersectConvexConvex(a.quad, b.quad)[0] > 0:
        return 0.0
    qa, qb = a.quad.reshape(-1, 1, 2), b.quad.reshape(-1, 1, 2)
    near = [cv2.pointPolygonTest(qb, (float(x), float(y)), True) for x, y in a.quad.tolist()]
    near += [cv2.pointPolygonTest(qa, (float(x), float(y)), True) for x, y in b.quad.tolist()]
    return max(0.0, -max(near))


def _across_gap(a: Candidate, b: Candidate, outline: Candidate, bright: np.ndarray) -> list[int]:
    """The bright mask along the line across ``outline`` through the middle of the gap
    between ``a`` and ``b`` (at right angles to the line between their centres), from one
    side of the outline to the other, a pixel in from it, every half pixel."""
    d = b.centre - a.centre
    d = d / (float(np.hypot(*d)) + 1e-9)
    near_a, near_b = float((a.quad @ d).max()), float((b.quad @ d).min())
    middle = a.centre + ((near_a + near_b) / 2 - float(a.centre @ d)) * d
    across = np.array([-d[1], d[0]])
    reach = float(np.sqrt(outline.area))
    pts = middle + np.arange(-reach, reach, 0.5)[:, None] * across  # N x 2
    h, w = bright.shape
    x, y = pts[:, 0], pts[:, 1]
    keep = (_depth(outline.quad, pts) >= 1.0) & (x >= 0) & (x < w) & (y >= 0) & (y < h)
    return (bright[y[keep].astype(int), x[keep].astype(int)] > 0).astype(int).tolist()


def _depth(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """How far inside the convex ``quad`` each of ``pts`` (N x 2) lies (negative outside):
    inside, the distance to the nearest of its side lines, which in a convex outline is the
    distance to its border (as ``cv2.pointPolygonTest`` measures it)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.roll(q, -1, axis=0) - q
    x0, y0 = q[:, 0], q[:, 1]
    dx, dy = sides[:, 0], sides[:, 1]
    turn = float(np.sum(x0 * np.roll(y0, -1) - np.roll(x0, -1) * y0))  # twice the signed area
    cross = dx * (pts[:, 1:2] - y0) - dy * (pts[:, 0:1] - x0)  # N x 4
    return (np.sign(turn) * cross / (np.hypot(dx, dy) + 1e-12)).min(axis=1)


def _cut_apart(a: Candidate, b: Candidate, outline: Candidate, bright: np.ndarray) -> bool:
    """True when the two cards found inside ``outline`` are the halves of one card on either
    side of a dark band across it (see CUT_APART), not two cards touching."""
    gap = _gap(a, b) / np.sqrt(outline.area)
    if not CUT_APART[0] < gap < CUT_APART[1]:
        return False
    # a band of pips: paper at both its ends (inside the outline), dark across the middle;
    # between two cards lies table (dark to the outline's sides) or a card under them
    # (bright all along)
    line = _across_gap(a, b, outline, bright)
    n = len(line)
    if n < 8:
        return False
    end = max(1, round(0.15 * n))
    middle = line[n // 4 : n - n // 4]
    return any(line[:end]) and any(line[-end:]) and middle.count(0) >= 0.6 * len(middle)


def _rest_of(work: Work, blob: Candidate, card: Candidate, min_area: float) -> Candidate | None:
    """The card beside ``card`` in ``blob`` (two touching cards outlined as one): the part of
    the blob beyond ``card``'s side that faces the blob's middle, snapped onto its border."""
    if blob.outline is None:
        return None
    rest = beyond_side(blob.outline, card.quad, 0.03 * np.sqrt(card.area))
    if rest is None or quad_area(rest) < 0.8 * min_area:
        return None
    found = card_from(work, rest, min_area, blob.area)
    if found is None:
        return None
    quad, aspect, support = found
    if support.min() < PAIR_SUPPORT:
        return None  # a side across paper: part of a card, not a card
    return Candidate(
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
    cands: list[Candidate], work: Work | None = None, min_area: float = 0.0
) -> list[Candidate]:
    """Merge candidates from all masks into one find per card (see the module docstring)."""
    # 1. duplicates: same place, same size -> keep the best-fitting one
    cands = sorted(cands, key=lambda c: -c.score)
    unique: list[Candidate] = []
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
            # or most of it, inside it, with a side across paper (glare's edge cutting the
            # card short: PAIR_SUPPORT)
            if (
                1 / 1.45 < ratio < 1
                and c.weakest < PAIR_SUPPORT <= u.weakest
                and cv2.intersectConvexConvex(c.quad, u.quad)[0] > 0.9 * c.area
            ):
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

    def resolve(i: int) -> list[Candidate]:
        if not children[i]:
            return [unique[i]]
        tiles = [t for k in children[i] for t in resolve(k)]
        me = unique[i]
        if me.partial:
            return tiles  # cut by the frame's edge: the table, a screen, a cut card
        if len(tiles) >= 2 and sum(t.area for t in tiles) >= 0.5 * me.area:
            if len(tiles) == 2 and work is not None:
                if _cut_apart(tiles[0], tiles[1], me, work.masks[0][0]):
                    return [me]  # a card cut in two across by its row of pips
                if me.weakest >= PAIR_SUPPORT and min(t.weakest for t in tiles) < PAIR_SUPPORT:
                    return [me]  # a card cut in two by a faint line across it (glare's edge)
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
                if (
                    rest is not None
                    and rest.area >= PAIR_ALIKE * tiles[0].area
                    and not _cut_apart(tiles[0], rest, me, work.masks[0][0])
                ):
                    return [tiles[0], rest]
        return [me]  # a card and its picture frame, ornate ace or pips

    out: list[Candidate] = []
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
    known: Sequence[np.ndarray] = (),
    taper: float = TAPER,
    min_aspect: float = ASPECT_RANGE[0],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Card outlines in ``frame_bgr``: (quads N x 4 x 2 in frame pixels, scores, partial, and
    the guessed outlines of cards hidden in fans with their visible index corner). ``known``:
    outlines (frame pixels) of cards known to lie there (see :func:`detect`); ``taper``: see
    :func:`vision.detect.quads.quad_shape`; ``min_aspect``: the least short / long side
    (:data:`~vision.detect.candidates.ASPECT_RANGE`, :data:`LOW_ASPECT`)."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = _downscale(frame_bgr, scale)
    sh, sw = small.shape[:2]
    scale = sw / w
    min_area = MIN_AREA_FRACTION * sh * sw
    max_area = MAX_AREA_FRACTION * sh * sw
    cands: list[Candidate] = []
    seen: list[tuple[float, float, float]] = []
    done: list[Done] = []
    work = make_work(small, taper, min_aspect)
    for k in range(len(work.masks)):
        cands.extend(candidates_from_mask(work, k, min_area, max_area, seen, done))
    small_known = [np.asarray(q, np.float64).reshape(4, 2) * scale for q in known]
    work.masks.extend(rest_masks(work, cands, min_area, small_known))
    for k in (3, 4, 5):
        cands.extend(candidates_from_mask(work, k, min_area, max_area, seen, done, COARSE_PENALTY))
    chosen = _select(cands, work, min_area)
    if small_known:
        # what the last masks found over a known card is that card (a piece of it beyond
        # its known outline): the card itself, when found, comes from the finer masks
        polys = [q.astype(np.float32).reshape(-1, 1, 2) for q in small_known]
        chosen = [
            c
            for c in chosen
            if c.penalty < COARSE_PENALTY
            or not any(
                cv2.pointPolygonTest(p, (float(c.centre[0]), float(c.centre[1])), False) >= 0
                for p in polys
            )
        ]
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
            for q, p in hidden_card_quads(work.masks[0][0], small_quads, size, work.blobs)
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


def detect(
    frame_bgr: np.ndarray,
    hidden_cards: bool = True,
    corner_detector: CornerDetector | None = None,
    known: Sequence[np.ndarray] = (),
    taper: float = TAPER,
    min_aspect: float = ASPECT_RANGE[0],
) -> Detections:
    """Every face-up card in a BGR frame, with its upright warp (see :class:`Detections`);
    with ``hidden_cards``, also the cards of a fan whose index corner alone shows; with a
    ``corner_detector``, also every card whose index corner it finds where no outline was
    (:func:`add_corner_rows`). ``known``: outlines (frame pixels) of cards a video has shown
    lying there: a card touching one of them, which merges with it into one bright blob, is
    what is left of the blob beyond it (they are not themselves returned unless found).
    ``taper``: how much longer one side of a card's outline may be than its opposite side
    (:data:`vision.detect.quads.TAPER` for video, :data:`~vision.detect.quads.PHOTO_TAPER`
    for still photographs, which may be taken low and close); ``min_aspect``: the least short /
    long side of an outline (:data:`LOW_ASPECT` for a frame seen low, :func:`detect_low`)."""
    if frame_bgr.ndim == 2:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    elif frame_bgr.shape[2] == 4:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_BGRA2BGR)
    found = _outlined(frame_bgr, hidden_cards, known, taper, min_aspect)
    if corner_detector is not None:
        corners = corner_detector.find(frame_bgr)
        found = replace(add_corner_rows(found, frame_bgr, corners), corners=corners)
    return found


def detect_low(frame_bgr: np.ndarray) -> Detections:
    """:func:`detect` for a frame seen low from the table's side, before the table's plane is
    known (a calibration's setup frame): a card lying across the line of sight may be outlined
    as narrow as :data:`LOW_ASPECT`."""
    return detect(frame_bgr, min_aspect=LOW_ASPECT)


def _steeper(
    frame_bgr: np.ndarray,
    known: Sequence[np.ndarray],
    taper: float,
    quads: np.ndarray,
    scores: np.ndarray,
    partial: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``quads``, ``scores``, ``partial`` (found with :data:`~vision.detect.quads.TAPER`) and
    the outlines found with the steeper ``taper`` that share nothing with them: a card seen
    low and close, the other side of it too short for the video taper, where nothing else was
    found. Only there: allowed everywhere, the steeper taper also fits a steep quad across two
    overlapping cards, or over a card and its shadow, before the cards themselves (on the
    real photographs it cost 4 of 14 outlines of one solitaire photo, though no name)."""
    more, more_scores, more_partial, _ = find_quads(frame_bgr, known, taper)
    add = [
        k
        for k in range(len(more))
        if not any(
            cv2.intersectConvexConvex(more[k], q)[0] > OVERLAP_NONE * quad_area(q) for q in quads
        )
    ]
    if not add:
        return quads, scores, partial
    return (
        np.concatenate([quads.reshape(-1, 4, 2), more[add]]).astype(np.float32),
        np.concatenate([scores, more_scores[add]]).astype(np.float32),
        np.concatenate([partial, more_partial[add]]).astype(bool),
    )


def _outlined(
    frame_bgr: np.ndarray,
    hidden_cards: bool,
    known: Sequence[np.ndarray] = (),
    taper: float = TAPER,
    min_aspect: float = ASPECT_RANGE[0],
) -> Detections:
    quads, scores, partial, hidden = find_quads(frame_bgr, known, min_aspect=min_aspect)
    if taper > TAPER:
        quads, scores, partial = _steeper(frame_bgr, known, taper, quads, scores, partial)
    if len(quads) == 0:
        return Detections(frame=frame_bgr)
    crops = np.stack([warp_quad(frame_bgr, q, ordered=True) for q in quads])  # (find_quads')
    ambiguous = np.array([quad_shape(q, taper)[0] > AMBIGUOUS_ASPECT for q in quads], bool)
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


def add_corner_rows(found: Detections, frame_bgr: np.ndarray, corners: Corners) -> Detections:
    """``found`` with the cards only the index-corner detector saw (see
    :mod:`vision.detect.corners`): two corners of one card make a whole card (read from both
    corners), a lone corner a card read from that corner alone (``one_corner``); corners on a
    card already outlined are that card's and add nothing."""
    whole = found.quads[~found.one_corner] if len(found) else np.zeros((0, 4, 2), np.float32)
    return _with_corner_rows(found, frame_bgr, corners, unexplained(corners, whole))


def release_corners(found: Detections, outlines: Sequence[int]) -> Detections:
    """``found`` with rows added for the index corners that only the whole-card ``outlines``
    (row indices) held: outlines the classifier did not name (two overlapping cards on a pale
    table outlined as one, read as nothing or unsure), whose corners are then read each as a
    card seen by its corner alone (see :func:`add_corner_rows`). Without the detector's
    corners (``found.corners``), ``found`` as it is."""
    if found.corners is None or found.frame is None or len(outlines) == 0:
        return found
    whole = [i for i in range(len(found)) if not found.one_corner[i]]
    freed = set(outlines)
    kept = [i for i in whole if i not in freed]
    before = set(unexplained(found.corners, found.quads[whole]).tolist())
    after = unexplained(found.corners, found.quads[kept])
    rows = np.array([i for i in after.tolist() if i not in before], np.int64)
    # each read alone: two cards lying across each other put one card's index where the
    # other's far index would be, and such a pair read as one card may be named wrongly
    return _with_corner_rows(found, found.frame, found.corners, rows, pair=False)


def _with_corner_rows(
    found: Detections, frame_bgr: np.ndarray, corners: Corners, rows: np.ndarray, pair: bool = True
) -> Detections:
    """``found`` with the corners ``rows`` added: pairs as whole cards (unless not ``pair``),
    the rest alone."""
    if len(rows) == 0:
        return found
    pairs, singles = pair_corners(corners, rows) if pair else ([], rows.tolist())
    virtual = corners.quads()
    quads = [pair_quad(corners, i, j) for i, j in pairs] + [virtual[i] for i in singles]
    crops = [warp_exact(frame_bgr, q, (CARD_W, CARD_H)) for q in quads]
    h, w = frame_bgr.shape[:2]
    n_pairs = len(pairs)
    partial = [
        k >= n_pairs or bool((q < 0).any() or (q[:, 0] > w - 1).any() or (q[:, 1] > h - 1).any())
        for k, q in enumerate(quads)
    ]
    return Detections(
        quads=np.concatenate([found.quads, np.stack(quads)]).astype(np.float32),
        areas=np.concatenate([found.areas, [quad_area(q) for q in quads]]).astype(np.float32),
        scores=np.concatenate(
            [found.scores, [float(corners.scores[i]) for i, _ in pairs]]
            + [[float(corners.scores[i]) for i in singles]]
        ).astype(np.float32),
        partial=np.concatenate([found.partial, partial]).astype(bool),
        crops=np.concatenate([found.crops, np.stack(crops)]),
        ambiguous=np.concatenate([found.ambiguous, np.zeros(len(quads), bool)]),
        alternatives=dict(found.alternatives),
        frame=frame_bgr,
        one_corner=np.concatenate(
            [found.one_corner, [k >= n_pairs for k in range(len(quads))]]
        ).astype(bool),
        corners=found.corners,
    )
