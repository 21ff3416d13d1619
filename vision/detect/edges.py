"""Card outlines checked and corrected against the image's own edges.

Why: the masks detection starts from lose a card's corner where an index glyph touches the
border, merge a card with glare or with the card under it, or stop at a court card's picture
frame. Their fitted quads are then a few pixels to a few percent off, and a skewed warp is
read as a wrong card. The paper's border, though, is nearly always a visible step in the image:
brighter inside than outside (a darker table, or the shadow a card casts on the card under it).

* :func:`snap_quad` moves each side of a quad, along its normal, onto the strongest such step
  near it (each end independently, so the side may also turn a little) and reports the edge
  support: the share of each side's length that lies on a clear step.
* :func:`frame_to_card` recognises a court card's picture frame (bright paper just outside the
  quad on every side) and looks outward for the card's own border.

All in the detection's work image (the per-pixel minimum of B, G, R: paper is bright in all
three channels, coloured tables are not), numpy + OpenCV only.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import cv2
import numpy as np

from vision.detect.quads import NEXT_I, intersect_lines

SAMPLES = 24
"""Points sampled along each side (its middle 76 %: the rounded corners are left out)."""

SAMPLE_T = np.linspace(0.12, 0.88, SAMPLES, dtype=np.float32)
"""Where the samples lie along a side (0 its start, 1 its end)."""

STEP = 1.5
"""Half the distance (work pixels) over which the step across an edge is measured."""

MIN_STEP = 10.0
"""Brightness drop (0-255) across an edge that counts as a clear border at one sample."""


def _normalised(drops: np.ndarray, axis: int = -1) -> np.ndarray:
    """Each sample's drops (along ``axis``: the offsets) over its largest one, 0 where it
    has no clear border at all: every sample counts alike (one very strong spot must not
    outweigh a whole side) and the border's place stays sharp (no plateau where strong drops
    saturate)."""
    peak = drops.max(axis=axis, keepdims=True)
    return np.maximum(drops, 0.0) * ((peak > MIN_STEP) / np.maximum(peak, 1.0))


PAPER_SHARE = 0.8
"""Inside a card's border the image is at least this share of the paper brightness (the
Otsu threshold between paper and table): a card in a shadow still counts."""

INWARD = 0.25
"""A side moves inward at most this fraction of the reach it may move outward."""

ON_BORDER = 0.95
"""A quad with at least this share of every side on a clear border moves two pixels at most."""

MIN_SIDE_EVIDENCE = 0.35
"""A side moves only onto a line where at least this share of its samples are on a clear
border; otherwise it stays where the mask put it."""


FRAME_EDGE_SHARE = 0.6
"""Around a picture frame, a card's border is a line at least this share of which is a clear
border."""


FRAME_LINE = 0.06
"""A picture frame's own lines (and their blur) reach this fraction of its size outward: the
card's border is sought beyond."""


_SIDE = np.arange(4)[:, None]
_ROW = np.arange(SAMPLES)[None, :]
_AROUND = np.array([-1, 0, 1])[:, None, None]
_POWERS = np.stack([np.ones(SAMPLES), SAMPLE_T, SAMPLE_T.astype(np.float64) ** 2], axis=1)
_REFINE = (-2, -1, 0, 1, 2)
_SIDE_START = (np.arange(4) * SAMPLES)[:, None, None]

# Speed: a frame snaps a dozen quads, each some fifty small array operations, and numpy's
# overhead per call (a reduction along a short last axis costs as much as remapping a
# thousand points) outweighs their arithmetic. So what depends only on the offsets searched
# is made once (:class:`_Search`), arrays are laid out offsets first (reductions over the
# offsets are then elementwise), and the arithmetic on the four sides is plain Python.


def _matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Constant matrices: a quad's corners (2 x 4, x and y rows) times ``diff`` are its sides
    (end - start); a value per side (2 x 4) times ``spread`` is that value at each of the
    side's samples (2 x 4S, side by side), where ``t`` (4S) places them. (Products with 0
    and 1 are exact: the same numbers as numpy's indexing.)"""
    diff = np.zeros((4, 4), np.float32)
    spread = np.zeros((4, 4 * SAMPLES), np.float32)
    for i, j in enumerate(NEXT_I):
        diff[i, i], diff[j, i] = -1.0, 1.0
        spread[i, i * SAMPLES : (i + 1) * SAMPLES] = 1.0
    return diff, spread, np.tile(SAMPLE_T, 4)


_DIFF, _SPREAD, _T_ALL = _matrices()
_TURN = (np.array([[1.0], [-1.0]], np.float32), np.array([[-1.0], [1.0]], np.float32))


class _Sides(NamedTuple):
    """A quad's corners (2 x 4: x and y rows), its sides (end - start) and their outward unit
    normals, the same way."""

    corners: np.ndarray
    ab: np.ndarray
    n: np.ndarray

    def lists(self) -> list[list[tuple[float, float]]]:
        """[corners, sides, normals], each four (x, y) pairs in plain Python."""
        return [list(zip(*m.tolist(), strict=True)) for m in (self.corners, self.ab, self.n)]


def _sides(quad: np.ndarray) -> _Sides:
    """The sides of ``quad``; the normals point out whatever way round its corners run."""
    corners = np.asarray(quad, np.float32).reshape(4, 2).T
    ab = corners @ _DIFF
    length = np.hypot(ab[0], ab[1]) + np.float32(1e-6)
    # the normals point out when the corners run clockwise on screen (positive signed area)
    (x0, x1, x2, x3), (y0, y1, y2, y3) = corners.tolist()
    turn = x0 * y1 - x1 * y0 + x1 * y2 - x2 * y1 + x2 * y3 - x3 * y2 + x3 * y0 - x0 * y3
    return _Sides(corners, ab, ab[::-1] * _TURN[turn < 0] / length)


class _Search:
    """What a search over ``offsets`` needs that depends on the offsets only (made once per
    range: see :func:`_search`)."""

    def __init__(self, offsets: np.ndarray) -> None:
        o = offsets.astype(np.float32)
        self.offsets = o
        self.n = n = len(o)
        # inner, then outer probe of each offset, shaped to broadcast over sides and samples
        self.probes = np.concatenate([o - STEP, o + STEP])[:, None]
        self.zero = int(np.argmin(np.abs(o)))
        # moving costs a little (ties stay put), inward more (onto a picture frame's line)
        self.cost = 0.02 * np.maximum(o, -4.0 * o) / max(1.0, float(o.max()))
        self.pair_cost_table = 0.5 * (self.cost[:, None] + self.cost[None, :])
        self.step = 1 if n <= 7 else 2
        self.pairs, self.weights = _pair_weights(n, self.step)
        self.pair_cost = (0.5 * (self.cost[self.pairs[:, 0]] + self.cost[self.pairs[:, 1]]))[None]
        grid = np.arange(n)
        # the offset index each sample of the line from offset index i to j falls on
        self.lines = np.rint(
            (1 - SAMPLE_T)[None, None, :] * grid[:, None, None]
            + SAMPLE_T[None, None, :] * grid[None, :, None]
        ).astype(np.intp)
        self.lines_flat = self.lines.reshape(n * n, SAMPLES)
        # where each sample of each line lies in evidence (O x 4 x S) laid flat: add the
        # side's start (_SIDE_START)
        self.lines_at = self.lines_flat * (4 * SAMPLES) + np.arange(SAMPLES)
        self.flat_cost = self.pair_cost_table.ravel()
        # each grid pair (as i * n + j): itself, or the 25 pairs with each end within two
        # offsets of it (the second, finer step)
        pairs = self.pairs.tolist()
        self.coarse = np.array([i * n + j for i, j in pairs])
        near = [[min(max(k + d, 0), n - 1) for d in _REFINE] for k in range(n)]
        self.refined = np.array([[i * n + j for i in near[a] for j in near[b]] for a, b in pairs])


@functools.lru_cache(maxsize=128)
def _search(first: float, count: int) -> _Search:
    """The search over ``count`` offsets a pixel apart from ``first``."""
    return _Search(first + np.arange(count, dtype=np.float32))


def _probe(image: np.ndarray, sides: _Sides, probes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(drops O x 4 x SAMPLES, inside O x 4 x SAMPLES): the brightness drop (inside minus
    outside) across each side moved outward by each offset, at each sample point, and the
    brightness on the inner side. ``probes`` (2O x 1): the inner, then the outer probe
    offsets. (Points are laid out x and y apart, offsets by samples of all sides: numpy's
    loops then run over the long last axis.)"""
    base = sides.corners @ _SPREAD + _T_ALL * (sides.ab @ _SPREAD)  # 2 x 4S
    normal = sides.n @ _SPREAD
    pts = base[:, None, :] + probes * normal[:, None, :]  # 2 x 2O x 4S
    vals = cv2.remap(image, pts[0], pts[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    vals = vals.reshape(len(probes), 4, SAMPLES).astype(np.float32)
    o = len(probes) // 2
    inside = vals[:o]
    return inside - vals[o:], inside


def _drops(
    image: np.ndarray, quad: np.ndarray, offsets: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(drops 4 x SAMPLES x O, t SAMPLES, inside 4 x SAMPLES x O): :func:`_probe` for any
    ``offsets``, sides first; ``t`` places the samples."""
    o = offsets.astype(np.float32)
    probes = np.concatenate([o - STEP, o + STEP])[:, None]
    drops, inside = _probe(image, _sides(quad), probes)
    return drops.transpose(1, 2, 0), SAMPLE_T, inside.transpose(1, 2, 0)


@functools.lru_cache(maxsize=64)
def _pair_weights(n_off: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """(pairs P x 2 of offset indices, weights SAMPLES*n_off x P): for every pair of ends on
    a grid of every ``step``-th offset, which offset each sample's point of that line falls
    on, as weights 1/SAMPLES; a side's evidence (SAMPLES x n_off, flattened) times them is
    each line's mean evidence. Depends on the grid only, so it is made once."""
    grid = np.arange(0, n_off, step)
    ka, kb = np.meshgrid(grid, grid, indexing="ij")
    pairs = np.stack([ka.ravel(), kb.ravel()], axis=1)
    idx = np.rint((1 - SAMPLE_T)[None, :] * pairs[:, :1] + SAMPLE_T[None, :] * pairs[:, 1:])
    weights = np.zeros((SAMPLES, n_off, len(pairs)), np.float32)
    rows = np.arange(SAMPLES)[None, :]
    weights[rows, idx.astype(np.intp), np.arange(len(pairs))[:, None]] = 1.0 / SAMPLES
    return pairs, weights.reshape(SAMPLES * n_off, len(pairs))


def _best_lines(evidence: np.ndarray, search: _Search) -> np.ndarray:
    """The best line over each side's ``evidence`` (O x 4 x SAMPLES), as the pair (offset
    index at its start, at its end) ``i * n + j`` (4): every pair of ends on a grid of
    every offset (few) or every other offset, then each end within two offsets of the best
    pair. Moving costs a little (ties stay put), inward more (onto a picture frame's line)."""
    score = evidence.transpose(1, 2, 0).reshape(4, -1) @ search.weights
    score -= search.pair_cost
    best = score.argmax(axis=1)
    if search.step == 1:
        return search.coarse[best]
    pairs = search.refined[best]  # 4 x 25
    values = evidence.ravel()[search.lines_at[pairs] + _SIDE_START]  # 4 x 25 x SAMPLES
    score = values.sum(-1) / SAMPLES - search.flat_cost[pairs]
    return pairs[_SIDE[:, 0], score.argmax(axis=1)]


def _subpixel(
    drops: np.ndarray, search: _Search, idx: np.ndarray, on: np.ndarray, moves: list[bool]
) -> list[tuple[float, float]]:
    """(offset at the start, at the end) per side of the line through the sub-pixel peaks of
    the drops (O x 4 x SAMPLES) of the samples ``on`` the border found (``idx``: its offset
    index per sample, 4 x SAMPLES); (0, 0) for the sides that do not move."""
    k = np.minimum(np.maximum(idx, 1), search.n - 2)
    y0, y1, y2 = drops[k + _AROUND, _SIDE, _ROW]  # each 4 x S
    curve = y0 - 2 * y1 + y2
    peaked = curve < -1e-3
    frac = np.where(peaked, 0.5 * (y0 - y2) / np.where(peaked, curve, -1.0), 0.0)
    peaks = search.offsets[k] + np.minimum(np.maximum(frac, -0.5), 0.5)
    # least-squares line peak = start + slope * t over the samples on the border, per side:
    # from the sums of 1, t, t^2 and of peak, peak t over them
    sums = (np.concatenate([on, on * peaks]) @ _POWERS).tolist()
    out = []
    for side, moving in enumerate(moves):
        if not moving:
            out.append((0.0, 0.0))
            continue
        (count, st, stt), (sp, stp, _) = sums[side], sums[side + 4]
        n = count + 1e-6
        mt, mp = st / n, sp / n
        var = stt - 2.0 * mt * st + count * mt * mt
        cov = stp - mt * sp - mp * st + count * mt * mp
        slope = cov / max(var, 1e-9) if var > 1e-3 * n else 0.0
        start = mp - slope * mt
        out.append((start, start + slope))
    return out


def _moved(sides: _Sides, shifts: list[tuple[float, float]]) -> np.ndarray | None:
    """The quad of ``sides`` with each side's start and end moved outward by ``shifts``."""
    pts, dirs = [], []
    for (ax, ay), (dx, dy), (nx, ny), (s0, s1) in zip(*sides.lists(), shifts, strict=True):
        ux, uy = dx + (s1 - s0) * nx, dy + (s1 - s0) * ny
        norm = math.hypot(ux, uy) + 1e-6
        pts.append((ax + s0 * nx, ay + s0 * ny))
        dirs.append((ux / norm, uy / norm))
    return intersect_lines(pts, dirs)


def edge_support(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Per side, the share of its samples that lie on a clear border (brighter inside)."""
    drops, _ = _probe(image, _sides(quad), _search(0.0, 1).probes)
    return (drops[0] > MIN_STEP).sum(axis=1) / SAMPLES


def _snap(
    image: np.ndarray, quad: np.ndarray, search: _Search, paper: float
) -> tuple[np.ndarray, np.ndarray, bool]:
    """(snapped quad, support per side, settled): one search over ``search``'s offsets (see
    :func:`snap_quad`); ``settled`` when every side lies on a border well inside the range."""
    sides = _sides(quad)
    drops, inside = _probe(image, sides, search.probes)
    # a drop from the table into something darker (a gap, a shadow) is not a card's border
    drops *= inside > PAPER_SHARE * paper
    clear = drops > MIN_STEP
    ends = _best_lines(_normalised(drops, axis=0), search)
    idx = search.lines_flat[ends]  # 4 x SAMPLES
    on = clear[idx, _SIDE, _ROW]
    shares = [sum(flags) / SAMPLES for flags in on.tolist()]
    top = search.n - 1
    inner = all(0 < i < top and 0 < j < top for i, j in map(divmod, ends.tolist(), [search.n] * 4))
    settled = inner and min(shares) >= ON_BORDER
    # a side moves only onto a line most of which is a clear border
    moves = [s >= MIN_SIDE_EVIDENCE for s in shares]
    out = _moved(sides, _subpixel(drops, search, idx, on, moves)) if any(moves) else None
    if out is None:
        return quad.astype(np.float32), clear[search.zero].sum(axis=1) / SAMPLES, settled
    return out, np.array(shares), settled


def snap_quad(
    image: np.ndarray, quad: np.ndarray, reach: float, paper: float
) -> tuple[np.ndarray, np.ndarray]:
    """(quad with each side on the nearest strong border within ``reach`` pixels, the edge
    support of each side). A border is a drop from paper (inside brighter than
    ``PAPER_SHARE * paper``) to something darker; sides with no clear border nearby stay
    where they are. A quad already on the border all round (most) is settled by a search of
    two pixels either way, the others searched over the whole reach."""
    out, support, settled = _snap(image, quad, _search(-2.0, 5), paper)
    if settled:
        return out, support
    r = max(2, int(round(reach)))
    # inward only a little: a court card's picture frame is a border (brighter inside) a
    # tenth of the card in, and a card's outline must not shrink onto it
    inward = max(3, int(round(INWARD * r)))
    out, _, _ = _snap(image, quad, _search(float(-inward), inward + r + 1), paper)
    return out, edge_support(image, out)


def frame_to_card(
    image: np.ndarray, quad: np.ndarray, paper: float, reach: float
) -> np.ndarray | None:
    """The card around ``quad`` when ``quad`` is a court card's picture frame, else None.

    A frame has bright paper (``paper``: the brightness that separates paper from table) just
    outside it on all four sides, and the card's border some way further out: a clear step on
    at least two sides within ``reach`` pixels. A side without a clear border (it lies on
    another card) takes the margin of the opposite side: the frame sits in the card's middle.
    """
    sides = _sides(quad)
    a, ab, n = sides.corners.T, sides.ab.T, sides.n.T
    size = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    t = np.linspace(0.2, 0.8, 9, dtype=np.float32)
    near = max(2.0, 0.03 * size)
    probe = (a[:, None, :] + t[None, :, None] * ab[:, None, :]) + near * n[:, None, :]
    flat = probe.reshape(1, -1, 2)
    outside = cv2.remap(image, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR).reshape(4, -1)
    if (np.median(outside, axis=1) < paper).any():
        return None  # the table (or something dark) right outside a side: a card, not a frame
    r = max(4, int(round(reach)))
    offsets = np.arange(near, r + 1, 1.0, dtype=np.float32)
    drops, _, inside = _drops(image, quad, offsets)
    # the card's border is a drop from paper: the frame's own lines have the picture inside
    clear = (drops > MIN_STEP) & (inside > paper)
    evidence = _normalised(np.where(inside > paper, drops, 0.0)).mean(axis=1)
    evidence[:, offsets < FRAME_LINE * size] = 0.0  # the frame's own lines and their blur
    margins = np.full(4, np.nan, np.float32)
    for i in range(4):
        k = int(np.argmax(evidence[i]))
        if clear[i, :, k].mean() >= FRAME_EDGE_SHARE:
            margins[i] = offsets[k]
    found = ~np.isnan(margins)
    if found.sum() < 2:
        return None
    for i in range(4):
        if not found[i]:
            j = (i + 2) % 4
            if not found[j]:
                return None
            margins[i] = margins[j]
    return _moved(sides, [(m, m) for m in margins.tolist()])
