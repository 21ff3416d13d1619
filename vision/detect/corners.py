"""Find index corners, whatever covers the rest of the card: the ONNX index-corner detector.

Why: a card is read from its index corner (rank over suit), and a corner is often all that
shows: the cards of a fanned hand, a solitaire column, a trick laid card on card, a hand laid
down to show a meld. Outlines (:mod:`vision.detect.find`) give whole cards only, and on a
table as pale as the cards (birch, white cloth) not even those. A small fully convolutional
network (``models/corners.onnx``, trained on :mod:`vision.render.layouts` scenes by
:mod:`vision.train.corners`) marks the centre of every visible index corner, with the card's
direction and size there; from those a *virtual outline* is built whose top-left corner is
that index, and the classifier reads it like any card seen by one corner.

The network runs on the frame shrunk to :data:`INPUT_LONG_SIDE` (a second, smaller pass finds
the corners of close-ups), outputs at an eighth of its input: per cell a corner score, the
card's right-hand direction (cos, sin), log width and height, and the sub-cell offset.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

INDEX_CENTRE = (0.125, 0.15)
"""Where the keypoint lies on the upright card, as fractions of its width and height: the
centre of the region the classifier reads (a quarter of the width, 30 % of the height)."""

STRIDE = 8
"""Input pixels per output cell."""

INPUT_LONG_SIDE = 512
"""The frame is shrunk to this long side for the detector (padded to a multiple of 32)."""

CLOSEUP_LONG_SIDE = 192
"""A second pass at this size finds the corners of cards too big for the first."""

FINE_LONG_SIDE = 768
"""A third pass at this size, on frames at least this large, finds index corners too small
(under about 10 px) or too blurred at 512 px; where two passes find one corner the higher
score wins. On the real scenes (bench/recognition.py, 1,152 x 864 to 1,920 x 1,280 photos) it
named 32 more jonasblanc cards, 29 mabrkr, 15 bidly, 1 fewer notanumber11, and no wrong one
(1,024 px: 2 wrong in guillex7; 768 alone instead of 512: 9 fewer notanumber11). It costs
about 13 ms a frame (one thread) beside the first pass's 5 ms."""

SCORE_THRESHOLD = 0.4
"""A corner is reported from this score (sigmoid of the heat map) up."""

OUTLINE_TOO_BIG = 1.6
"""An outline more than this many times the area of a corner's card, holding that corner, is
not that card but a pale table or a blob of cards taken for one card (see :func:`unexplained`;
a card's own outline is within 1.45 times its area, the corner's size estimate within about
10 %). Before it, every corner inside any outline was explained: the real scenes
(bench/recognition.py) now name 133 more jonasblanc cards (its birch table was outlined as one
card), 78 mabrkr, 3 notanumber11, 3 bidly, and no wrong one (3.0: 5 fewer, 2.2: 4 fewer)."""

MERGE_NEAR = 0.12
"""Two corners closer than this fraction of the card's width are one corner found twice (by
two passes, or twice in one): the higher score is kept. Distinct index corners of a tight
spread lie a fifth of a width apart or less (a row of cards each showing only its index
strip), so 0.2 here took every other one for a repeat: the real scenes (bench/recognition.py)
named 37 more bidly cards at 0.12 and 19 more notanumber11, none wrong (0.09: one more bidly;
0.06: one wrong mabrkr card)."""

INDEX_NEAR = 0.45
"""A corner inside a whole card's outline is that card's own only when it lies within this many
card widths of one of the outline's corners (an index centre lies a quarter of a width from
its card's corner; the rest allows for an outline off by a fifth of a width). Elsewhere
inside, it is the index of a card the outline also covers (a card lying half under the one
outlined, taken into its outline). Real scenes (bench/recognition.py): jonasblanc 2 more
cards named, mabrkr 1, none wrong; held-out layouts (bench/onecorner.py --scenes 200, seeds
31 and 32): one-corner readings from 0.9 351 -> 363 and 314 -> 318 named, 0 and 3 wrong
either way."""

MODEL_PATH = Path(
    os.environ.get("TRICKCAM_CORNER_MODEL")
    or Path(__file__).resolve().parents[2] / "models" / "corners.onnx"
)


class CornerModelError(RuntimeError):
    """The corner model is missing or does not load."""


@dataclass(frozen=True)
class Corners:
    """Index corners found in one frame (parallel arrays, frame pixels)."""

    points: np.ndarray
    """N x 2: the centre of each index region."""
    right: np.ndarray
    """N x 2: unit vector along the card's top edge, left to right as the index reads."""
    sizes: np.ndarray
    """N x 2: the card's width and height there."""
    scores: np.ndarray

    def __len__(self) -> int:
        return int(self.points.shape[0])

    def quads(self) -> np.ndarray:
        """N x 4 x 2 virtual outlines (TL, TR, BR, BL), each with this index at its top-left."""
        return virtual_quads(self.points, self.right, self.sizes)


def virtual_quads(points: np.ndarray, right: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Card outlines whose top-left index centre is ``points`` (see :class:`Corners`)."""
    r = np.asarray(right, np.float32).reshape(-1, 2)
    d = np.stack([-r[:, 1], r[:, 0]], axis=1)  # down: right turned a quarter clockwise
    w = np.asarray(sizes, np.float32).reshape(-1, 2)[:, :1]
    h = np.asarray(sizes, np.float32).reshape(-1, 2)[:, 1:]
    tl = np.asarray(points, np.float32).reshape(-1, 2) - r * w * INDEX_CENTRE[0]
    tl = tl - d * h * INDEX_CENTRE[1]
    return np.stack([tl, tl + r * w, tl + r * w + d * h, tl + d * h], axis=1).astype(np.float32)


def decode(
    out: np.ndarray, scale: float, threshold: float = SCORE_THRESHOLD
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Peaks of one output map (7 x H x W) in input pixels divided by ``scale``."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    if len(xs) == 0:
        z = np.zeros((0, 2), np.float32)
        return z, z, z, np.zeros((0,), np.float32)
    cos, sin = out[1, ys, xs], out[2, ys, xs]
    norm = np.maximum(np.hypot(cos, sin), 1e-6)
    right = np.stack([cos / norm, sin / norm], axis=1)
    sizes = np.exp(np.stack([out[3, ys, xs], out[4, ys, xs]], axis=1)) * STRIDE
    px = (xs + 0.5 + out[5, ys, xs]) * STRIDE
    py = (ys + 0.5 + out[6, ys, xs]) * STRIDE
    points = np.stack([px, py], axis=1) / scale
    return (
        points.astype(np.float32),
        right.astype(np.float32),
        (sizes / scale).astype(np.float32),
        heat[ys, xs].astype(np.float32),
    )


def to_input(image_bgr: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """The network's input for ``image_bgr``: shrunk to ``long_side`` (padded to a multiple
    of 32), float32 1 x 3 x H x W in [0, 1]; and the scale applied."""
    h, w = image_bgr.shape[:2]
    scale = long_side / max(h, w)
    nh, nw = max(32, round(h * scale)), max(32, round(w * scale))
    small = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
    ph, pw = -nh % 32, -nw % 32
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    x = small.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
    return np.ascontiguousarray(x), nw / w


def merge(found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]) -> Corners:
    """One corner per place from several passes: the higher score wins where two lie closer
    than MERGE_NEAR of the card's width."""
    if not found:
        z = np.zeros((0, 2), np.float32)
        return Corners(z, z, z, np.zeros((0,), np.float32))
    points, right, sizes, scores = (np.concatenate(parts) for parts in zip(*found, strict=True))
    order = np.argsort(-scores)
    keep: list[int] = []
    for i in order:
        near = False
        for j in keep:
            if np.hypot(*(points[i] - points[j])) < MERGE_NEAR * min(sizes[i, 0], sizes[j, 0]):
                near = True
                break
        if not near:
            keep.append(int(i))
    k = np.array(keep, np.int64)
    return Corners(points[k], right[k], sizes[k], scores[k])


class CornerDetector:
    """``models/corners.onnx`` through onnxruntime (one thread by default)."""

    def __init__(self, model_path: Path | str = MODEL_PATH, threads: int = 1) -> None:
        from vision.onnx import cpu_session

        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise CornerModelError(f"corner model not found: {self.model_path}")
        sidecar = self.model_path.with_suffix(".json")
        self.sidecar = json.loads(sidecar.read_text()) if sidecar.is_file() else {}
        self.session = cpu_session(self.model_path, threads, CornerModelError, "corner model")
        self.input_name = self.session.get_inputs()[0].name

    @staticmethod
    def passes(shape: tuple[int, ...], long_side: int, closeups: bool, fine: bool) -> list[int]:
        """The input sizes (long side, pixels) a frame of ``shape`` is searched at."""
        sides = [long_side]
        if closeups:
            sides.append(CLOSEUP_LONG_SIDE)
        if fine and long_side < FINE_LONG_SIDE and max(shape[:2]) >= FINE_LONG_SIDE:
            sides.append(FINE_LONG_SIDE)
        return sides

    def run(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.session.run(None, {self.input_name: x})[0][0], np.float32)

    def find(
        self,
        image_bgr: np.ndarray,
        long_side: int = INPUT_LONG_SIDE,
        closeups: bool = True,
        threshold: float = SCORE_THRESHOLD,
        fine: bool = True,
    ) -> Corners:
        """Every index corner in ``image_bgr`` (frame pixels): ``closeups`` adds the pass for
        cards too big for ``long_side``, ``fine`` the one for small corners on large frames."""
        found = []
        for side in self.passes(image_bgr.shape, long_side, closeups, fine):
            x, scale = to_input(image_bgr, side)
            points, right, sizes, scores = decode(self.run(x), scale, threshold)
            if side < long_side:  # the small pass only for cards too big for the first
                big = sizes[:, 0] * (long_side / max(image_bgr.shape[:2])) > 110
                points, right, sizes, scores = points[big], right[big], sizes[big], scores[big]
            found.append((points, right, sizes, scores))
        return merge(found)


# -- corners beside outlines --------------------------------------------------------------------

PAIR_TOLERANCE = 0.18
"""Two opposite corners are one card's when each lies within this share of the card's width
of where the other says it should."""


def warp_exact(image_bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Warp ``quad`` (TL, TR, BR, BL as given: never reordered) to an upright ``size`` image."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(
        image_bgr, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def _inside(quad: np.ndarray, point: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), (float(point[0]), float(point[1])), False) >= 0  # fmt: skip


def unexplained(corners: Corners, outlines: np.ndarray) -> np.ndarray:
    """Indices of the corners that lie on none of the whole cards outlined (a visible index
    inside a whole card that detection outlined, near one of its corners (``INDEX_NEAR``), is
    that card's own). An outline more than
    ``OUTLINE_TOO_BIG`` times the area of a corner's card is not that card (a pale table or a
    blob of cards taken for one card): the corner stays unexplained."""
    areas = [abs(float(cv2.contourArea(np.asarray(q, np.float32).reshape(-1, 1, 2)))) for q in outlines]  # fmt: skip
    card = corners.sizes[:, 0] * corners.sizes[:, 1] if len(corners) else np.zeros(0)
    keep = [
        i
        for i in range(len(corners))
        if not any(
            a <= OUTLINE_TOO_BIG * float(card[i])
            and _inside(q, corners.points[i])
            and _at_a_corner(q, corners.points[i], float(corners.sizes[i, 0]))
            for q, a in zip(outlines, areas, strict=True)
        )
    ]
    return np.array(keep, np.int64)


def _at_a_corner(quad: np.ndarray, point: np.ndarray, width: float) -> bool:
    """True when ``point`` lies within INDEX_NEAR card widths of a corner of ``quad``."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    return float(np.hypot(*(corners - point).T).min()) <= INDEX_NEAR * width


def pair_corners(corners: Corners, rows: np.ndarray) -> tuple[list[tuple[int, int]], list[int]]:
    """Split ``rows`` of ``corners`` into pairs that are the two index corners of one card
    (opposite directions, one where the other's card puts its far index) and single ones."""
    quads = corners.quads()
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    order = sorted(rows.tolist(), key=lambda i: -float(corners.scores[i]))
    for i in order:
        if i in used:
            continue
        best, best_err = -1, PAIR_TOLERANCE
        for j in order:
            if j == i or j in used:
                continue
            if float(corners.right[i] @ corners.right[j]) > -0.9:
                continue
            wi, wj = float(corners.sizes[i, 0]), float(corners.sizes[j, 0])
            if not 0.75 < wi / wj < 1.33:
                continue
            # where i's card has its far index, and j's
            far_i = _far_index(quads[i])
            far_j = _far_index(quads[j])
            err = max(
                float(np.hypot(*(far_i - corners.points[j]))) / wi,
                float(np.hypot(*(far_j - corners.points[i]))) / wj,
            )
            if err < best_err:
                best, best_err = j, err
        if best >= 0:
            pairs.append((i, best))
            used.update((i, best))
    singles = [i for i in order if i not in used]
    return pairs, singles


def _far_index(quad: np.ndarray) -> np.ndarray:
    """The bottom-right index centre of a card outline (TL, TR, BR, BL)."""
    fx, fy = 1 - INDEX_CENTRE[0], 1 - INDEX_CENTRE[1]
    top = quad[0] + fx * (quad[1] - quad[0])
    bottom = quad[3] + fx * (quad[2] - quad[3])
    return top + fy * (bottom - top)


def pair_quad(corners: Corners, i: int, j: int) -> np.ndarray:
    """The outline of the card whose top-left index is corner ``i`` and bottom-right ``j``:
    the two virtual outlines averaged (``j``'s turned half round)."""
    qi = corners.quads()[[i]][0]
    qj = np.roll(corners.quads()[[j]][0], 2, axis=0)
    return ((qi + qj) / 2).astype(np.float32)
