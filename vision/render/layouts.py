"""Rendered table scenes as hard as real ones: many cards lying on each other, on any surface.

Why: the real photographs that recognition misses show cards the way card players lay them:
fanned hands with only the index corners showing, solitaire columns, a trick's cards on top
of each other, rows of cards on pale birch, cork, white paper, patterned cloth, floorboards,
seen from a phone at an angle, in warm or dim light. A scene here is made the same way, and
it knows for every card its outline and how much of each of its two index corners is still
visible (not covered by a card lying on it, not outside the picture): the truth a detector of
index corners is trained and measured on.

A scene (:func:`render_layout`) is: a surface (:func:`surface`); an arrangement of cards in
the table's plane (:func:`arrange`: scatter, fan, spread row, column, trick, row, close-up);
a camera (a random homography: from overhead to steep, any rotation); cards pasted in order,
each casting a soft shadow on what lies under it; light and lens spoiling the picture as
:mod:`vision.render.synth` does for the classifier's samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect.preprocess import LABELS
from vision.render import textures
from vision.render.fontcards import font_card
from vision.render.synth import SynthRecipe, _camera, _light

Rng = np.random.Generator

INDEX_BOX = (0.25, 0.30)
"""The index corner as fractions of the card's width and height: the region the classifier
reads (:func:`vision.detect.preprocess.corner_crop`)."""

INDEX_CENTRE = (INDEX_BOX[0] / 2, INDEX_BOX[1] / 2)
"""The centre of the top-left index region, in card fractions: the point a detector finds."""

ARRANGEMENTS = ("scatter", "fan", "spread", "column", "trick", "row", "closeup")


@dataclass(frozen=True)
class PlacedCard:
    """One card in a rendered scene."""

    label: str
    """A card code (``"QH"``) or ``back``."""
    quad: np.ndarray
    """4 x 2 float32 image pixels: top-left, top-right, bottom-right, bottom-left of the
    upright card (its index corners are the top-left and bottom-right ones)."""
    visible: tuple[float, float]
    """Share of the top-left and of the bottom-right index region that shows in the picture."""


@dataclass(frozen=True)
class Layout:
    image: np.ndarray
    """BGR uint8."""
    cards: tuple[PlacedCard, ...]
    """In the order they were laid (later cards lie on earlier ones)."""
    arrangement: str
    surface: str


# -- surfaces ---------------------------------------------------------------------------------


def _pale_wood(rng: Rng, h: int, w: int) -> np.ndarray:
    """Birch, maple or pine: wood grain in pale, warm tones (cards barely stand out)."""
    grain = textures.wood(rng, h, w).astype(np.float32)
    grain = (grain - grain.mean()) * rng.uniform(0.15, 0.5)
    base = np.array([rng.uniform(120, 185), rng.uniform(160, 210), rng.uniform(185, 235)])
    return np.clip(base + grain, 0, 255).astype(np.uint8)


def _floorboards(rng: Rng, h: int, w: int) -> np.ndarray:
    """Pale planks with dark seams, each plank a shade of its own."""
    img = _pale_wood(rng, h, w).astype(np.float32)
    width = int(rng.integers(max(8, w // 12), max(9, w // 4)))
    vertical = rng.random() < 0.5
    n = (w if vertical else h) // width + 1
    for k in range(n):
        shade = rng.uniform(0.8, 1.1)
        if vertical:
            img[:, k * width : (k + 1) * width] *= shade
            img[:, k * width : k * width + 2] *= 0.55
        else:
            img[k * width : (k + 1) * width] *= shade
            img[k * width : k * width + 2] *= 0.55
    return np.clip(img, 0, 255).astype(np.uint8)


def _cork(rng: Rng, h: int, w: int) -> np.ndarray:
    """Cork board: orange-brown with dense dark and light speckles."""
    base = np.array([rng.uniform(60, 100), rng.uniform(110, 150), rng.uniform(160, 200)])
    speck = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
    img = base * (1 + 0.25 * speck[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


def _white_cloth(rng: Rng, h: int, w: int) -> np.ndarray:
    """A white or cream tablecloth or sheet of paper: as bright as the cards."""
    base = np.array([rng.uniform(200, 245), rng.uniform(205, 248), rng.uniform(210, 252)])
    folds = textures.smooth_noise(rng, h, w, int(rng.integers(2, 6)))
    img = base * (0.9 + 0.12 * folds[..., None]) + rng.normal(0, 2.5, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


def _motif(rng: Rng, h: int, w: int) -> np.ndarray:
    """Patterned cloth or carpet: a repeated motif (dots, flowers, checks, stripes)."""
    bg = rng.uniform(20, 230, 3)
    ink = rng.uniform(0, 255, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = bg
    step = int(rng.integers(10, 40))
    kind = int(rng.integers(3))
    for y in range(0, h + step, step):
        for x in range(0, w + step, step):
            jx, jy = (x + (step // 2 if (y // step) % 2 else 0)), y
            if kind == 0:
                cv2.circle(img, (jx, jy), max(2, step // 4), ink.tolist(), -1, cv2.LINE_AA)
            elif kind == 1:
                for a in range(0, 360, 72):
                    r = step * 0.25
                    px = int(jx + r * np.cos(np.deg2rad(a)))
                    py = int(jy + r * np.sin(np.deg2rad(a)))
                    cv2.circle(img, (px, py), max(1, step // 8), ink.tolist(), -1, cv2.LINE_AA)
            else:
                cv2.rectangle(img, (x, y), (x + step // 2, y + step // 2), ink.tolist(), -1)
    img = cv2.GaussianBlur(img, (0, 0), 0.6) + rng.normal(0, 4, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


SURFACES = {
    "table": textures.table,
    "pale_wood": _pale_wood,
    "floorboards": _floorboards,
    "cork": _cork,
    "white": _white_cloth,
    "motif": _motif,
    "paper": textures.paper,
}


def surface(rng: Rng, h: int, w: int, kind: str | None = None) -> tuple[str, np.ndarray]:
    """A surface cards lie on: the classifier's tables plus the pale and patterned ones."""
    if kind is None:
        names = list(SURFACES)
        weights = np.array([0.3, 0.2, 0.1, 0.08, 0.14, 0.1, 0.08])
        kind = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    return kind, SURFACES[kind](rng, h, w)


# -- arrangements in the table's plane --------------------------------------------------------


def _card(centre: np.ndarray, width: float, height: float, angle: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of an upright ``width x height`` card turned by ``angle``."""
    c, s = np.cos(angle), np.sin(angle)
    right, down = np.array([c, s]), np.array([-s, c])
    hw, hh = width / 2, height / 2
    return np.array(
        [
            centre - hw * right - hh * down,
            centre + hw * right - hh * down,
            centre + hw * right + hh * down,
            centre - hw * right + hh * down,
        ],
        np.float32,
    )


def arrange(rng: Rng, kind: str, size: float, card_w: float, aspect: float) -> list[np.ndarray]:
    """Card outlines in a ``size x size`` table plane, in the order laid."""
    h = card_w / aspect
    quads: list[np.ndarray] = []
    mid = np.array([size / 2, size / 2]) + rng.normal(0, 0.08 * size, 2)
    base = rng.uniform(0, 2 * np.pi)
    if kind == "fan":  # a hand held open and laid down: turned about a point below the cards
        n = int(rng.integers(3, 14))
        step = np.deg2rad(rng.uniform(4, 14))
        pivot_down = rng.uniform(0.3, 0.55) * h
        for k in range(n):
            a = base + (k - (n - 1) / 2) * step
            down = np.array([-np.sin(a), np.cos(a)])
            quads.append(_card(mid - down * pivot_down, card_w, h, a))
    elif kind == "spread":  # a row of overlapping cards, each a little to the right
        n = int(rng.integers(3, 14))
        step = rng.uniform(0.14, 0.45) * card_w
        right = np.array([np.cos(base), np.sin(base)])
        wobble = np.deg2rad(rng.uniform(0, 4))
        for k in range(n):
            centre = mid + (k - (n - 1) / 2) * step * right + rng.normal(0, 0.02 * card_w, 2)
            quads.append(_card(centre, card_w, h, base + rng.normal(0, wobble)))
    elif kind == "column":  # solitaire: each card a little lower on the one before
        cols = int(rng.integers(1, 5))
        step = rng.uniform(0.15, 0.35) * h
        right = np.array([np.cos(base), np.sin(base)])
        down = np.array([-np.sin(base), np.cos(base)])
        for col in range(cols):
            n = int(rng.integers(2, 8))
            top = mid + (col - (cols - 1) / 2) * card_w * rng.uniform(1.05, 1.3) * right
            top = top - down * (n - 1) * step / 2
            for k in range(n):
                jitter = rng.normal(0, 0.015 * card_w, 2)
                quads.append(_card(top + k * step * down + jitter, card_w, h, base))
    elif kind == "trick":  # each player's card laid on the ones before, at its own angle
        n = int(rng.integers(2, 5))
        for _ in range(n):
            centre = mid + rng.normal(0, 0.35 * card_w, 2)
            quads.append(_card(centre, card_w, h, base + rng.normal(0, 0.6)))
    elif kind == "row":  # the board cards of a poker table, or cards dealt face up apart
        n = int(rng.integers(2, 7))
        gap = rng.uniform(1.05, 1.5) * card_w
        right = np.array([np.cos(base), np.sin(base)])
        for k in range(n):
            centre = mid + (k - (n - 1) / 2) * gap * right + rng.normal(0, 0.03 * card_w, 2)
            quads.append(_card(centre, card_w, h, base + rng.normal(0, 0.05)))
    elif kind == "closeup":  # one or two cards filling the picture, cut by its edges
        n = int(rng.integers(1, 3))
        for _ in range(n):
            centre = mid + rng.normal(0, 0.15 * size, 2)
            quads.append(_card(centre, card_w, h, base + rng.normal(0, 0.3)))
    else:  # scatter: anywhere, any angle, some on top of others
        n = int(rng.integers(1, 12))
        for _ in range(n):
            centre = rng.uniform(0.1 * size, 0.9 * size, 2)
            quads.append(_card(centre, card_w, h, rng.uniform(0, 2 * np.pi)))
    return quads


def _camera_homography(rng: Rng, size: float, out_w: int, out_h: int) -> np.ndarray:
    """Table plane (``size`` square) to picture: overhead to steep, any turn, some zoom."""
    src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    tilt = rng.uniform(0, 0.45) if rng.random() < 0.6 else 0.0  # far side shrinks by this
    dst = src.copy()
    dst[0, 0] += tilt * size / 2
    dst[1, 0] -= tilt * size / 2
    dst[[0, 1], 1] += tilt * size * 0.3
    a = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    dst = (dst - size / 2) @ rot.T
    scale = min(out_w, out_h) / size * rng.uniform(0.9, 1.4)
    dst = dst * scale + (out_w / 2, out_h / 2) + rng.normal(0, 0.05 * min(out_w, out_h), 2)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _map(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)


def index_region(quad: np.ndarray, corner: int) -> np.ndarray:
    """The index region (4 x 2) of the card with outline ``quad`` at its top-left (0) or
    bottom-right (2) corner, in the same coordinates as ``quad``."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    bw, bh = INDEX_BOX
    box = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    if corner == 2:
        box = 1 - box
    return _map(m, box)


def index_point(quad: np.ndarray, corner: int) -> np.ndarray:
    """The centre of the index region at ``corner`` (0 or 2): the detector's keypoint."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    p = np.array([INDEX_CENTRE], np.float32)
    if corner == 2:
        p = 1 - p
    return _map(m, p)[0]


# -- cards ------------------------------------------------------------------------------------


def _darkened(rng: Rng, card: np.ndarray) -> np.ndarray:
    """A dark deck: the paper black or navy, the ink light (gold, white, pale red)."""
    bgr = card[:, :, :3].astype(np.float32)
    ink = 1 - bgr.min(axis=2, keepdims=True) / 255.0  # 0 on paper, 1 on dark ink
    red = np.clip((bgr[:, :, 2:3] - bgr[:, :, 1:2]) / 255.0, 0, 1)
    paper = rng.uniform(10, 60, 3)
    gold = np.array([rng.uniform(40, 120), rng.uniform(150, 210), rng.uniform(190, 240)])
    pale_red = np.array([rng.uniform(60, 120), rng.uniform(60, 120), rng.uniform(200, 255)])
    colour = gold * (1 - red) + pale_red * red
    out = paper * (1 - ink) + colour * ink
    return np.dstack([np.clip(out, 0, 255).astype(np.uint8), card[:, :, 3]])


def _with_alpha(card: np.ndarray, radius: float) -> np.ndarray:
    if card.shape[2] == 4:
        return card
    h, w = card.shape[:2]
    alpha = np.zeros((h, w), np.uint8)
    r = max(1, int(radius * w))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([card, alpha])


class CardSource:
    """Card faces for scenes: rendered deck designs, Hershey-font cards, dark decks."""

    def __init__(
        self,
        decks: Sequence[dict[str, np.ndarray]],
        p_fontcard: float = 0.15,
        p_dark: float = 0.05,
    ) -> None:
        self.decks = list(decks)
        self.p_fontcard = p_fontcard
        self.p_dark = p_dark

    def hand(self, rng: Rng, n: int) -> tuple[list[str], list[np.ndarray]]:
        """``n`` different cards of one deck (a scene shows one deck), BGRA."""
        labels = [LABELS[int(i)] for i in rng.choice(52, size=min(n, 52), replace=False)]
        use_font = not self.decks or rng.random() < self.p_fontcard
        dark = rng.random() < self.p_dark
        deck = self.decks[int(rng.integers(len(self.decks)))] if self.decks else {}
        faces = []
        for label in labels:
            face = font_card(rng, label, p_foreign=0.5) if use_font else deck[label]
            face = _with_alpha(face, 0.06)
            faces.append(_darkened(rng, face) if dark else face)
        return labels, faces


# -- the scene --------------------------------------------------------------------------------


def _paste(
    canvas: np.ndarray, owner: np.ndarray, index: int, face: np.ndarray, quad: np.ndarray,
    shadow: float,
) -> None:  # fmt: skip
    """Paste ``face`` (BGRA) at ``quad`` with a soft shadow on what lies under it."""
    h, w = face.shape[:2]
    oh, ow = canvas.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 8
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, ow), min(y1, oh)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    mm = shift @ m
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, mm, size, flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3].astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sh = cv2.GaussianBlur(alpha, (0, 0), max(1.0, 0.01 * w * (x1 - x0) / w))
        off = np.roll(sh, (2, 2), axis=(0, 1))
        roi *= (1 - shadow * off)[..., None]
    roi = roi * (1 - alpha[..., None]) + warped[:, :, :3].astype(np.float32) * alpha[..., None]
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    owner[y0:y1, x0:x1][alpha > 0.5] = index


def _visible(owner: np.ndarray, index: int, region: np.ndarray) -> float:
    """Share of ``region`` (a quad in pixels) where card ``index`` is on top and in view."""
    x0, y0 = np.floor(region.min(axis=0)).astype(int)
    x1, y1 = np.ceil(region.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(region - (x0, y0)).astype(np.int32), 1)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    oh, ow = owner.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, ow), min(y1, oh)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    sub = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    mine = owner[cy0:cy1, cx0:cx1] == index
    return float((sub.astype(bool) & mine).sum()) / total


def render_layout(
    rng: Rng,
    cards: CardSource,
    width: int = 384,
    height: int = 384,
    card_w_px: tuple[float, float] = (18.0, 120.0),
    kind: str | None = None,
    surface_kind: str | None = None,
    recipe: SynthRecipe | None = None,
) -> Layout:
    """One scene: cards of one deck laid out on a surface, photographed.

    ``card_w_px`` bounds a card's width in the picture (before the camera's tilt);
    ``kind`` one of :data:`ARRANGEMENTS` (random when None).
    """
    recipe = recipe or SynthRecipe()
    kind = kind or str(rng.choice(ARRANGEMENTS, p=[0.2, 0.2, 0.2, 0.14, 0.12, 0.08, 0.06]))
    plane = 1000.0
    m = _camera_homography(rng, plane, width, height)
    scale = float(np.sqrt(abs(np.linalg.det(m[:2, :2])))) if m[2, 2] else 1.0
    lo, hi = card_w_px
    if kind == "closeup":
        lo, hi = 0.45 * min(width, height), 1.1 * min(width, height)
    want_w = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    card_w = want_w / max(scale, 1e-6)
    aspect = float(rng.uniform(0.64, 0.72))
    plane_quads = arrange(rng, kind, plane, card_w, aspect)
    labels, faces = cards.hand(rng, len(plane_quads))
    # a few cards face down (backs) among them, as on a real table
    kind_surface, canvas = surface(rng, height, width, surface_kind)
    canvas = canvas.copy()
    owner = np.full((height, width), -1, np.int32)
    placed: list[tuple[str, np.ndarray]] = []
    shadow = float(rng.uniform(0.1, 0.45))
    for k, (pq, label, face) in enumerate(zip(plane_quads, labels, faces, strict=False)):
        quad = _map(m, pq)
        if rng.random() < 0.04:
            bh, bw = face.shape[:2]
            face = _with_alpha(textures.card_back(rng, bh, bw), 0.06)
            label = "back"
        _paste(canvas, owner, k, face, quad, shadow)
        placed.append((label, quad))
    _distractors(rng, canvas, owner)
    out = []
    for k, (label, quad) in enumerate(placed):
        vis = (
            _visible(owner, k, index_region(quad, 0)),
            _visible(owner, k, index_region(quad, 2)),
        )
        out.append(PlacedCard(label, quad.astype(np.float32), vis))
    card_px = float(np.median([np.linalg.norm(q[3] - q[0]) for _, q in placed])) if placed else 100
    photo = _camera(rng, _light(rng, canvas, recipe), recipe, card_px)
    return Layout(photo, tuple(out), kind, kind_surface)


def _distractors(rng: Rng, canvas: np.ndarray, owner: np.ndarray) -> None:
    """Things on a card table that are not cards: chips, coins, a pen, a hand's edge."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.poisson(1.2))):
        kind = rng.random()
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        if kind < 0.5:  # a chip or coin
            r = int(rng.uniform(0.02, 0.07) * min(h, w))
            cv2.circle(canvas, centre, r, colour, -1, cv2.LINE_AA)
            cv2.circle(canvas, centre, max(1, r * 2 // 3), (235, 235, 235), max(1, r // 6))
            cv2.circle(owner, centre, r, -2, -1)
        elif kind < 0.75:  # a pen or pencil
            a = rng.uniform(0, np.pi)
            length = rng.uniform(0.1, 0.4) * min(h, w)
            end = (int(centre[0] + length * np.cos(a)), int(centre[1] + length * np.sin(a)))
            thick = max(2, int(0.012 * min(h, w)))
            cv2.line(canvas, centre, end, colour, thick, cv2.LINE_AA)
            cv2.line(owner, centre, end, -2, thick)
        else:  # a patch of skin at the edge (a hand reaching in)
            skin = tuple(float(v) for v in np.clip(rng.normal((120, 150, 200), 30), 0, 255))
            axes = (int(rng.uniform(0.05, 0.2) * w), int(rng.uniform(0.1, 0.3) * h))
            edge = (int(rng.choice([0, w])), centre[1])
            cv2.ellipse(canvas, edge, axes, float(rng.uniform(0, 180)), 0, 360, skin, -1)
            cv2.ellipse(owner, edge, axes, 0, 0, 360, -2, -1)


# -- a dataset for the index-corner detector --------------------------------------------------


def _scene_record(layout: Layout) -> dict[str, object]:
    return {
        "arrangement": layout.arrangement,
        "surface": layout.surface,
        "cards": [
            {
                "label": c.label,
                "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in c.quad],
                "visible": [round(v, 3) for v in c.visible],
            }
            for c in layout.cards
        ],
    }


_WORKER_SOURCE: CardSource | None = None


def _init_worker(source: CardSource) -> None:
    global _WORKER_SOURCE
    _WORKER_SOURCE = source


def _write_scene(job: tuple[Path, int, int, int]) -> str:
    """Render scene ``i`` (its JPEG written), return its ``labels.jsonl`` line."""
    import json

    out_dir, i, seed, size = job
    assert _WORKER_SOURCE is not None
    rng = np.random.default_rng((seed, i))
    layout = render_layout(rng, _WORKER_SOURCE, size, size)
    name = f"{i:06d}.jpg"
    cv2.imwrite(str(out_dir / name), layout.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return json.dumps({"file": name, **_scene_record(layout)})


def write_scenes(
    out_dir: Path,
    decks: Sequence[dict[str, np.ndarray]],
    count: int,
    seed: int,
    size: int = 384,
    start: int = 0,
    progress: bool = True,
    p_fontcard: float = 0.15,
    workers: int = 1,
) -> None:
    """Write scenes ``start..count-1`` as ``NNNNNN.jpg`` plus one JSON line each in
    ``labels.jsonl`` (appended in scene order: a stopped run goes on where it stopped).
    Scene ``i`` depends only on ``(seed, i)``: any number of ``workers`` processes write the
    same files."""
    import multiprocessing

    from tqdm import tqdm

    out_dir.mkdir(parents=True, exist_ok=True)
    source = CardSource(decks, p_fontcard=p_fontcard)
    jobs = [(out_dir, i, seed, size) for i in range(start, count)]
    with (out_dir / "labels.jsonl").open("a", encoding="utf-8") as labels:
        bar = tqdm(total=len(jobs), disable=not progress, unit="scene", desc="scenes")
        if workers <= 1:
            _init_worker(source)
            lines: Any = map(_write_scene, jobs)
            pool = None
        else:
            pool = multiprocessing.get_context("fork").Pool(
                workers, initializer=_init_worker, initargs=(source,)
            )
            lines = pool.imap(_write_scene, jobs, chunksize=8)
        try:
            for line in lines:
                labels.write(line + "\n")
                labels.flush()
                bar.update()
        finally:
            bar.close()
            if pool is not None:
                pool.terminate()
