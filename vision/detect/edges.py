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

import cv2
import numpy as np

from vision.detect.quads import NEXT, intersect_sides

SAMPLES = 24
"""Points sampled along each side (its middle 76 %: the rounded corners are left out)."""

SAMPLE_T = np.linspace(0.12, 0.88, SAMPLES, dtype=np.float32)
"""Where the samples lie along a side (0 its start, 1 its end)."""

STEP = 1.5
"""Half the distance (work pixels) over which the step across an edge is measured."""

MIN_STEP = 10.0
"""Brightness drop (0-255) across an edge that counts as a clear border at one sample."""


def _normalised(drops: np.ndarray) -> np.ndarray:
    """Each sample's drops (last axis: the offsets) over its largest one, 0 where it has no
    clear border at all: every sample counts alike (one very strong spot must not outweigh a
    whole side) and the border's place stays sharp (no plateau where strong drops saturate)."""
    peak = drops.max(axis=-1, keepdims=True)
    return np.maximum(drops, 0.0) * np.where(peak > MIN_STEP, 1.0 / np.maximum(peak, 1.0), 0.0)


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


def _sides(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(start, end, unit direction, outward unit normal) of each side, each 4 x 2."""
    a = quad.astype(np.float32)
    b = a[NEXT]
    d = b - a
    d /= np.hypot(d[:, 0], d[:, 1])[:, None] + 1e-6
    n = d[:, ::-1] * np.array([1.0, -1.0], np.float32)
    # the normals point out when the corners run clockwise on screen (positive signed area)
    if (a[:, 0] * b[:, 1] - b[:, 0] * a[:, 1]).sum() < 0:
        n = -n
    return a, b, d, n


def _drops(
    image: np.ndarray, quad: np.ndarray, offsets: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(drops 4 x SAMPLES x O, t SAMPLES, inside 4 x SAMPLES x O): the brightness drop
    (inside minus outside) across each side moved outward by each offset, at each sample
    point; ``t`` places the samples; ``inside`` is the brightness on the inner side."""
    a, b, _, n = _sides(quad)
    t = SAMPLE_T
    base = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]  # 4 x S x 2
    o = offsets.astype(np.float32)
    pts_in = base[:, :, None, :] + (o - STEP)[None, None, :, None] * n[:, None, None, :]
    pts_out = base[:, :, None, :] + (o + STEP)[None, None, :, None] * n[:, None, None, :]
    pts = np.concatenate([pts_in, pts_out], axis=1)  # 4 x 2S x O x 2
    flat = pts.reshape(1, -1, 2)
    vals = (
        cv2.remap(
            image, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        .reshape(4, 2 * SAMPLES, len(o))
        .astype(np.float32)
    )
    inside = vals[:, :SAMPLES]
    return inside - vals[:, SAMPLES:], t, inside


def _line_scores(
    evidence: np.ndarray, t: np.ndarray, ka: np.ndarray, kb: np.ndarray, cost: np.ndarray
) -> np.ndarray:
    """Mean evidence (less the cost of moving) of each side's lines from offset index
    ``ka[s, i]`` at its start to ``kb[s, j]`` at its end: 4 x len(ka) x len(kb)."""
    idx = np.rint(
        (1 - t)[None, None, None, :] * ka[:, :, None, None]
        + t[None, None, None, :] * kb[:, None, :, None]
    ).astype(np.intp)
    sides = np.arange(4)[:, None, None, None]
    rows = np.arange(len(t))[None, None, None, :]
    score = evidence[sides, rows, idx].mean(-1)
    return score - 0.5 * (cost[ka][:, :, None] + cost[kb][:, None, :])


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


def _best_lines(evidence: np.ndarray, t: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(offset index at the start, at the end) of the best line over each side's
    ``evidence`` (4 x SAMPLES x O): every pair of ends on a grid of every offset (few) or
    every other offset, then each end within two offsets of the best pair. Moving costs a
    little (ties stay put), inward more (onto a picture frame's line). Returns 4 x 2."""
    n_off = len(offsets)
    cost = 0.02 * np.maximum(offsets, -4.0 * offsets) / max(1.0, float(offsets.max()))
    step = 1 if n_off <= 7 else 2
    pairs, weights = _pair_weights(n_off, step)
    score = evidence.reshape(4, -1).astype(np.float32) @ weights
    score -= 0.5 * (cost[pairs[:, 0]] + cost[pairs[:, 1]])[None, :]
    best = pairs[score.argmax(axis=1)]  # 4 x 2
    if step == 1:
        return best
    near = np.arange(-2, 3)[None, :]
    ka = np.clip(best[:, :1] + near, 0, n_off - 1)
    kb = np.clip(best[:, 1:] + near, 0, n_off - 1)
    score = _line_scores(evidence, t, ka, kb, cost).reshape(4, -1)
    i, j = np.divmod(score.argmax(axis=1), len(near[0]))
    return np.stack([ka[np.arange(4), i], kb[np.arange(4), j]], axis=1)


def _subpixel(
    drops: np.ndarray, t: np.ndarray, offsets: np.ndarray, idx: np.ndarray, on: np.ndarray
) -> np.ndarray:
    """(offset at the start, at the end) per side (4 x 2) of the line through the sub-pixel
    peaks of the drops (4 x SAMPLES x O) of the samples ``on`` the border found (``idx``:
    its offset index per sample, 4 x SAMPLES)."""
    k = np.clip(idx, 1, len(offsets) - 2)
    side = np.arange(4)[:, None]
    row = np.arange(len(t))[None, :]
    y0, y1, y2 = drops[side, row, k - 1], drops[side, row, k], drops[side, row, k + 1]
    curve = y0 - 2 * y1 + y2
    safe = np.where(curve < -1e-3, curve, -1.0)
    frac = np.where(curve < -1e-3, 0.5 * (y0 - y2) / safe, 0.0)
    peak = offsets[k] + np.clip(frac, -0.5, 0.5)
    # least-squares line peak = start + slope * t over the samples on the border
    w = on.astype(np.float32)
    n = w.sum(1) + 1e-6
    mt = (w * t).sum(1) / n
    mp = (w * peak).sum(1) / n
    var = (w * (t - mt[:, None]) ** 2).sum(1)
    cov = (w * (t - mt[:, None]) * (peak - mp[:, None])).sum(1)
    slope = np.where(var > 1e-3 * n, cov / np.maximum(var, 1e-9), 0.0)
    start = mp - slope * mt
    return np.stack([start, start + slope], axis=1).astype(np.float32)


def _moved(quad: np.ndarray, shifts: np.ndarray) -> np.ndarray | None:
    """``quad`` with each side's start and end moved outward by ``shifts`` (4 x 2)."""
    a, b, _, n = _sides(quad)
    a2 = a + shifts[:, :1] * n
    b2 = b + shifts[:, 1:] * n
    dirs = b2 - a2
    return intersect_sides(a2, dirs / (np.hypot(dirs[:, 0], dirs[:, 1])[:, None] + 1e-6))


def edge_support(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Per side, the share of its samples that lie on a clear border (brighter inside)."""
    drops = _drops(image, quad, np.zeros(1, np.float32))[0]
    return (drops[..., 0] > MIN_STEP).mean(axis=1)


def _snap(
    image: np.ndarray, quad: np.ndarray, offsets: np.ndarray, paper: float
) -> tuple[np.ndarray, np.ndarray, bool]:
    """(snapped quad, support per side, settled): one search over ``offsets`` (see
    :func:`snap_quad`); ``settled`` when every side lies on a border well inside the range."""
    drops, t, inside = _drops(image, quad, offsets)
    # a drop from the table into something darker (a gap, a shadow) is not a card's border
    drops = np.where(inside > PAPER_SHARE * paper, drops, 0.0)
    evidence = _normalised(drops)
    clear = drops > MIN_STEP
    ends = _best_lines(evidence, t, offsets)
    idx = np.rint((1 - t)[None, :] * ends[:, :1] + t[None, :] * ends[:, 1:]).astype(np.intp)
    on = clear[np.arange(4)[:, None], np.arange(SAMPLES)[None, :], idx]
    share = on.mean(axis=1)
    inner = (ends > 0).all() and (ends < len(offsets) - 1).all()
    settled = bool(inner and share.min() >= ON_BORDER)
    # a side moves only onto a line most of which is a clear border
    moves = share >= MIN_SIDE_EVIDENCE
    shifts = np.where(moves[:, None], _subpixel(drops, t, offsets, idx, on), 0.0)
    out = _moved(quad, shifts) if moves.any() else None
    if out is None:
        zero = int(np.argmin(np.abs(offsets)))
        return quad.astype(np.float32), clear[:, :, zero].mean(axis=1), settled
    return out, share, settled


def snap_quad(
    image: np.ndarray, quad: np.ndarray, reach: float, paper: float
) -> tuple[np.ndarray, np.ndarray]:
    """(quad with each side on the nearest strong border within ``reach`` pixels, the edge
    support of each side). A border is a drop from paper (inside brighter than
    ``PAPER_SHARE * paper``) to something darker; sides with no clear border nearby stay
    where they are. A quad already on the border all round (most) is settled by a search of
    two pixels either way, the others searched over the whole reach."""
    near = np.arange(-2.0, 3.0, dtype=np.float32)
    out, support, settled = _snap(image, quad, near, paper)
    if settled:
        return out, support
    r = max(2, int(round(reach)))
    # inward only a little: a court card's picture frame is a border (brighter inside) a
    # tenth of the card in, and a card's outline must not shrink onto it
    inward = max(3, int(round(INWARD * r)))
    out, _, _ = _snap(image, quad, np.arange(-inward, r + 1, 1.0, dtype=np.float32), paper)
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
    a, b, _, n = _sides(quad)
    size = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    t = np.linspace(0.2, 0.8, 9, dtype=np.float32)
    near = max(2.0, 0.03 * size)
    probe = (a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]) + near * n[:, None, :]
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
    shifts = np.repeat(margins[:, None], 2, axis=1)
    return _moved(quad, shifts)
