"""Synthetic training samples: rendered cards in camera-like scenes, read back like detection does.

One sample: put a rendered card (or a back, or something that is not a card) into a small scene
under a random perspective, spoil the picture the way a camera and a room do (white balance,
low light, shadows, glare, blur, noise, JPEG, a thumb over the centre), perturb the true outline
by the crop error a detector makes, then go through exactly the inference path:
``preprocess.warp_quad`` -> ``preprocess.corner_crops``. Both corner crops are kept.

Everything derives from ``numpy.random.default_rng((seed, index))``: a dataset is a pure
function of its seed, whatever the order or chunking of generation.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from vision.detect.preprocess import (
    CARD_H,
    CARD_W,
    LABELS,
    corner_crops,
    order_quad,
    warp_quad,
)
from vision.render import textures
from vision.render.decks import Deck, list_decks, load_deck
from vision.render.fontcards import font_card

Rng = np.random.Generator
BACK = LABELS.index("back")
NONE = LABELS.index("none")


@dataclass(frozen=True)
class SynthRecipe:
    """The knobs of the augmentation, recorded with every dataset and model."""

    card_height_px: tuple[int, int] = (90, 330)
    tilt: float = 0.12
    corner_jitter: float = 0.04
    shift_jitter: float = 0.025
    rotation_jitter_deg: float = 4.0
    scale_jitter: float = 0.04
    jpeg_quality: tuple[int, int] = (25, 95)
    p_back: float = 0.03
    p_none: float = 0.06
    p_centre_occlusion: float = 0.3
    p_glare: float = 0.25
    p_shadow: float = 0.4
    # phone processing and font cards (at 0 they draw no randomness, so older recipes without
    # them regenerate bit for bit)
    p_sharpen: float = 0.3
    p_contrast: float = 0.3
    p_saturation: float = 0.3
    p_fontcard: float = 0.2
    """A card drawn with Hershey-font indices (vision/render/fontcards.py) instead of a deck's card."""
    p_foreign_index: float = 0.5
    """Of the font cards' aces and courts, the share printed with another tradition's index
    (R/D/V, K/D/B, H/V/B, E/K/D/Kn, Т/К/Д/В: ``fontcards.INDEX_STYLES``); 0 in older recipes."""
    p_crowded: float = 0.0
    """Of the font cards, the share whose middle reaches the index (big pips beside the rank, a
    court's big suit sign at its shoulder, sometimes a tiny suit sign under the rank:
    ``fontcards.font_card``'s ``crowded``); 0 in older recipes."""
    p_covered: float = 0.0
    """Of the cards, the share with another card of the same deck laid over them, leaving the
    top-left index free (:func:`lay_over`: a fan's or a trick's next card beside the index, a
    solitaire column's next card below it); both crops of such a scene are index crops of two
    views (:func:`index_view`). 0 in the shipped recipe (at 0 it draws nothing); 0.25 was
    tried (models/README.md: better on the real scenes, worse on the watcher's test hands)."""
    notes: list[str] = field(
        default_factory=lambda: [
            "perspective + any rotation; outline perturbed (corners, shift, rotation, scale)",
            "white balance / colour cast (warm bias), low light + gamma, vignette",
            "soft shadows, glare blobs, thumb over the centre, gaussian/defocus/motion blur",
            "sensor noise, sharpening, contrast and saturation boosts, JPEG",
            "20 % of cards drawn with Hershey-font indices (training decks only), half of their "
            "aces and courts with the indices of other traditions (R/D/V, K/D/B, H/V/B, ...)",
            "none = paper, hands, screens, cloth, wood, card centres",
        ]
    )


def _perspective_quad(rng: Rng, w: float, h: float, recipe: SynthRecipe) -> np.ndarray:
    """Where the card's corners land in the scene: any rotation, some tilt, random size."""
    height = rng.uniform(*recipe.card_height_px)
    s = height / h
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - (w / 2, h / 2)
    corners *= s
    corners += rng.normal(0, recipe.tilt * height / 2, (4, 2)).clip(-0.3 * height, 0.3 * height)
    a = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    corners = corners @ rot.T
    return corners.astype(np.float32)


def _perturb_quad(rng: Rng, quad: np.ndarray, recipe: SynthRecipe) -> np.ndarray:
    """The outline a detector would report: the true quad with corner, shift, turn, size error."""
    centre = quad.mean(axis=0)
    size = float(np.sqrt(cv2.contourArea(quad.astype(np.float32))))
    q = quad - centre
    a = np.deg2rad(rng.uniform(-1, 1) * recipe.rotation_jitter_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    q = (q @ rot.T) * (1 + rng.uniform(-1, 1) * recipe.scale_jitter)
    q += rng.uniform(-1, 1, (4, 2)) * recipe.corner_jitter * size
    q += rng.uniform(-1, 1, 2) * recipe.shift_jitter * size
    return (q + centre).astype(np.float32)


def _light(rng: Rng, img: np.ndarray, recipe: SynthRecipe) -> np.ndarray:
    """Room and camera: shadows, glare, vignette, colour cast, exposure, gamma (float32 out)."""
    h, w = img.shape[:2]
    x = img.astype(np.float32)
    if rng.random() < recipe.p_shadow:  # a soft shadow edge (hand, phone, head)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        d = (xx - w * rng.uniform(0.2, 0.8)) * np.cos(a) + (
            yy - h * rng.uniform(0.2, 0.8)
        ) * np.sin(a)
        soft = rng.uniform(2, 0.3 * max(h, w))
        mask = 1 / (1 + np.exp(-d / soft))
        x *= (1 - rng.uniform(0.2, 0.65) * mask)[..., None]
    x *= (0.75 + 0.5 * textures.smooth_noise(rng, h, w, 2))[..., None]  # uneven light
    if rng.random() < recipe.p_glare:  # glossy highlight
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.05, 0.5) * w, rng.uniform(0.05, 0.5) * h
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        x += (blob * rng.uniform(40, 180))[..., None]
    cast = np.exp(rng.normal(0, 0.05, 3)) * (1 - rng.uniform(0, 0.3), 1 - rng.uniform(0, 0.1), 1)
    x *= cast.astype(np.float32)  # BGR: warm light lowers blue
    exposure = rng.uniform(0.35, 1.25) if rng.random() < 0.4 else rng.uniform(0.75, 1.15)
    x = np.clip(x * exposure, 0, 255)
    gamma = rng.uniform(0.7, 1.4)
    return 255.0 * (x / 255.0) ** gamma


def _camera(rng: Rng, x: np.ndarray, recipe: SynthRecipe, card_px: float) -> np.ndarray:
    """Lens and sensor: blur (gaussian, defocus or motion), noise, JPEG (uint8 out).

    Blur scales with the card's size in the picture (``card_px`` tall): a blur that leaves a
    large card readable would erase the index of a small one.
    """
    kind = rng.random()
    scale = card_px / 300
    if kind < 0.35:
        x = cv2.GaussianBlur(x, (0, 0), max(0.3, rng.uniform(0.3, 1.8) * scale))
    elif kind < 0.5:
        r = max(1, int(round(rng.uniform(1, 3.5) * scale)))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)).astype(
            np.float32
        )
        x = cv2.filter2D(x, -1, disc / disc.sum())
    elif kind < 0.6:
        n = max(3, int(rng.integers(3, 9) * scale))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1
        m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, m, (n, n))
        x = cv2.filter2D(x, -1, k / max(k.sum(), 1e-6))
    sigma = rng.uniform(0, 10) * (1.5 if x.mean() < 80 else 1.0)
    x = x + rng.normal(0, sigma, x.shape).astype(np.float32)
    if recipe.p_sharpen or recipe.p_contrast or recipe.p_saturation:
        img = _processing(rng, np.clip(x, 0, 255), recipe, scale)
    else:  # draws nothing from rng: recipes without this step stay reproducible
        img = np.clip(x, 0, 255).astype(np.uint8)
    quality = int(rng.integers(recipe.jpeg_quality[0], recipe.jpeg_quality[1] + 1))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def _processing(rng: Rng, x: np.ndarray, recipe: SynthRecipe, scale: float) -> np.ndarray:
    """What phones and webcams do after the sensor: sharpening, contrast and saturation boosts."""
    if rng.random() < recipe.p_sharpen:
        soft = cv2.GaussianBlur(x, (0, 0), max(0.8, 1.5 * scale))
        x = x + rng.uniform(0.4, 1.5) * (x - soft)
    if rng.random() < recipe.p_contrast:
        lo, hi = rng.uniform(0, 70), rng.uniform(170, 255)
        x = (x - lo) * (255.0 / (hi - lo))
    img = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < recipe.p_saturation:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 1] *= rng.uniform(0.5, 1.8)
        img = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)
    return img


def _occlude_centre(rng: Rng, img: np.ndarray, quad: np.ndarray) -> None:
    """A thumb or a coin over the middle of the card, never over the index corners."""
    centre = quad.mean(axis=0)
    size = float(np.sqrt(cv2.contourArea(quad)))
    colour = tuple(float(v) for v in np.clip(rng.normal((110, 140, 190), 30), 0, 255))
    axes = (int(size * rng.uniform(0.1, 0.3)), int(size * rng.uniform(0.1, 0.4)))
    offset = rng.uniform(-0.15, 0.15, 2) * size
    cv2.ellipse(
        img,
        tuple(int(v) for v in centre + offset),
        axes,
        float(rng.uniform(0, 180)),
        0,
        360,
        colour,
        -1,
    )


def _first_run(ink: np.ndarray, start: int, gap: int) -> int | None:
    """The end (exclusive) of the first run of True from ``start`` on, gaps up to ``gap``."""
    hits = np.flatnonzero(ink[start:]) + start
    if not len(hits):
        return None
    end = int(hits[0])
    for c in hits[1:]:
        if c - end > gap:
            break
        end = int(c)
    return end + 1


def index_box(card: np.ndarray) -> tuple[float, float]:
    """Where the top-left index ends, as shares of the card's width and height: the first run
    of ink columns in the index band (gaps under 2 % of the width bridged), then the first run
    of ink rows under it (gaps under 4 % of the height: between the rank and the suit sign)."""
    h, w = card.shape[:2]
    paper = np.percentile(card[:, :, :3].reshape(-1, 3), 90, axis=0)
    top = int(0.02 * h)
    band = card[top : int(0.35 * h), : int(0.5 * w), :3].astype(np.int16)
    ink = np.abs(band - paper).max(axis=2) > 70
    left = int(0.025 * w)
    right = _first_run(ink.any(axis=0), left, max(2, int(0.02 * w)))
    if right is None:
        return 0.2, 0.25
    bottom = _first_run(ink[:, left:right].any(axis=1), 0, max(2, int(0.04 * h)))
    return right / w, (top + (bottom or int(0.23 * h))) / h


def lay_over(rng: Rng, card: np.ndarray, neighbour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``card`` (BGRA) with ``neighbour`` lying on it, clipped to the card's box: in a fan or a
    row beside the index (70 %, its edge up to 10 degrees off, 1-8 % of the width right of
    where the index ends) or in a column below it (its top edge 1-15 % of the height under the
    index), with a soft shadow along its edge. The top-left index stays whole (a shadow may fall on it).

    Returns the card (BGRA) and where the neighbour lies on it (H x W floats 0-1)."""
    h, w = card.shape[:2]
    nb = cv2.resize(neighbour, (w, h), interpolation=cv2.INTER_AREA)
    right, bottom = index_box(card)
    # never less than most decks' indices take (a thin or pale glyph may end a run early)
    right, bottom = max(right, 0.13), max(bottom, 0.22)
    if rng.random() < 0.7:
        angle = float(rng.uniform(-10, 10))
        x0, y0 = (right + rng.uniform(0.01, 0.08)) * w, rng.uniform(-0.08, 0.1) * h
    else:
        angle = float(rng.uniform(-5, 5))
        x0, y0 = rng.uniform(-0.05, 0.08) * w, (bottom + rng.uniform(0.01, 0.15)) * h
    m = cv2.getRotationMatrix2D((0.0, 0.0), -angle, 1.0)
    m[:, 2] += (x0, y0)
    # turned, its edge may lean over the index: move it clear (the index box plus 1 px)
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1]], np.float64) @ m.T
    (tlx, tly), (trx, try_), (blx, bly) = corners
    ix, iy = right * w + 1, bottom * h + 1
    if y0 < iy:  # beside the index: the left edge, from the top-left towards the bottom-left
        rows = np.linspace(max(0.0, min(tly, bly)), iy, 8)
        xs = tlx + (rows - tly) * (blx - tlx) / (bly - tly)
        m[0, 2] += max(0.0, ix - float(xs.min()))
    else:  # below it: the top edge, from the top-left towards the top-right
        cols = np.linspace(max(0.0, tlx), ix, 8)
        ys = tly + (cols - tlx) * (try_ - tly) / (trx - tlx)
        m[1, 2] += max(0.0, iy - float(ys.min()))
    laid = cv2.warpAffine(nb, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = laid[:, :, 3:4].astype(np.float32) / 255.0
    out = card.astype(np.float32)
    if rng.random() < 0.7:
        soft = float(rng.uniform(0.004, 0.02) * w)
        shadow = cv2.GaussianBlur(a[:, :, 0], (0, 0), soft)[..., None]
        shift = np.float32([[1, 0, -rng.uniform(0.5, 2.5) * soft], [0, 1, 0]])
        shadow = cv2.warpAffine(shadow, shift, (w, h))[..., None]
        out[:, :, :3] *= 1 - rng.uniform(0.15, 0.45) * shadow * (1 - a)
    out[:, :, :3] = laid[:, :, :3] * a + out[:, :, :3] * (1 - a)
    out[:, :, 3:4] = np.maximum(out[:, :, 3:4], laid[:, :, 3:4])
    return np.clip(out, 0, 255).astype(np.uint8), a[:, :, 0]


def scene_sample(
    rng: Rng, card_bgra: np.ndarray | None, label: int, recipe: SynthRecipe
) -> list[np.ndarray]:
    """Render one scene around ``card_bgra`` (None: not a card) and return both corner crops."""
    return list(corner_crops(seen_warp(rng, card_bgra, label, recipe)))


def seen_warp(
    rng: Rng, card_bgra: np.ndarray | None, label: int, recipe: SynthRecipe
) -> np.ndarray:
    """Render one scene around ``card_bgra`` (None: not a card) and return the card as the
    pipeline sees it: warped upright (``warp_quad``) from the outline a detector would report."""
    return _seen(rng, card_bgra, label, recipe)[0]


def index_view(rng: Rng, card_bgra: np.ndarray, label: int, recipe: SynthRecipe) -> np.ndarray:
    """The corner crop of ``card_bgra``'s top-left index as the pipeline sees it, whichever
    way up the outline warps (a card read from its index corner alone is warped with that
    corner at the top-left; its other corner may lie under another card)."""
    warp, seen = _seen(rng, card_bgra, label, recipe)
    first = order_quad(seen)[0]
    flipped = np.linalg.norm(first - seen[2]) < np.linalg.norm(first - seen[0])
    return corner_crops(warp)[1 if flipped else 0]


def _seen(
    rng: Rng, card_bgra: np.ndarray | None, label: int, recipe: SynthRecipe
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`seen_warp`, and the outline it was warped from (the card's top-left first)."""
    if card_bgra is None:
        card_bgra = _not_a_card_patch(rng)
    h, w = card_bgra.shape[:2]
    quad = _perspective_quad(rng, w, h, recipe)
    margin = 0.25 * float(np.ptp(quad[:, 1])) + 8
    lo = quad.min(axis=0) - margin
    quad = quad - lo
    sw, sh = (int(np.ceil(v)) for v in quad.max(axis=0) + margin)
    scene = textures.table(rng, sh, sw)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(card_bgra, m, (sw, sh), flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    scene = (warped[:, :, :3] * alpha + scene * (1 - alpha)).astype(np.uint8)
    if label != NONE and rng.random() < recipe.p_centre_occlusion:
        _occlude_centre(rng, scene, quad)
    card_px = float(np.sqrt(cv2.contourArea(quad) * h / w))
    photo = _camera(rng, _light(rng, scene, recipe), recipe, card_px)
    seen = _perturb_quad(rng, quad, recipe)
    return warp_quad(photo, seen), seen


def _not_a_card_patch(rng: Rng) -> np.ndarray:
    """An opaque card-shaped patch of something else (BGRA)."""
    h = 320
    w = int(h * rng.uniform(0.5, 0.9))
    patch = textures.not_a_card(rng, h, w)
    return np.dstack([patch, np.full((h, w), 255, np.uint8)])


def _centre_of_card(rng: Rng, card: np.ndarray) -> np.ndarray:
    """The middle of a card (pips, court art) without its index corners: a hard ``none``."""
    h, w = card.shape[:2]
    y0, x0 = int(h * rng.uniform(0.25, 0.4)), int(w * rng.uniform(0.25, 0.35))
    mid = card[y0 : h - y0, x0 : w - x0].copy()
    mid = cv2.resize(mid, (w, h), interpolation=cv2.INTER_LINEAR)
    mid[:, :, 3] = 255
    return mid


def _procedural_back(rng: Rng) -> np.ndarray:
    h = 320
    w = int(h * rng.uniform(0.62, 0.72))
    return np.dstack([textures.card_back(rng, h, w), np.full((h, w), 255, np.uint8)])


def make_sample(
    seed: int, index: int, decks: Sequence[dict[str, np.ndarray]], recipe: SynthRecipe
) -> tuple[list[np.ndarray], int, int]:
    """Sample ``index`` of the dataset with ``seed``: (two crops, label, deck number or -1)."""
    rng = np.random.default_rng((seed, index))
    u = rng.random()
    deck_no = int(rng.integers(len(decks)))
    if u < recipe.p_none:
        label = NONE
        if rng.random() < 0.3:
            card = _centre_of_card(rng, decks[deck_no][LABELS[int(rng.integers(52))]])
        else:
            card, deck_no = None, -1
    elif u < recipe.p_none + recipe.p_back:
        label = BACK
        if rng.random() < 0.4:
            card, deck_no = _procedural_back(rng), -1
        else:
            card = decks[deck_no]["back"]
    else:
        label = int(rng.integers(52))
        font = bool(recipe.p_fontcard) and rng.random() < recipe.p_fontcard
        if font:
            crowded = bool(recipe.p_crowded) and rng.random() < recipe.p_crowded
            card = font_card(rng, LABELS[label], p_foreign=recipe.p_foreign_index, crowded=crowded)
        else:
            card = decks[deck_no][LABELS[label]]
        if recipe.p_covered and rng.random() < recipe.p_covered:
            other = LABELS[(label + int(rng.integers(1, 52))) % 52]
            if font:
                nb = font_card(rng, other, card.shape[0], recipe.p_foreign_index)
            else:
                nb = decks[deck_no][other]
            card = lay_over(rng, card, nb)[0]
            views = [index_view(rng, card, label, recipe) for _ in range(2)]
            return views, label, -1 if font else deck_no
        if font:
            deck_no = -1
    return scene_sample(rng, card, label, recipe), label, deck_no


DESIGNS = ("aisleriot", "all")
"""Which deck packages ``write_dataset`` renders: aisleriot only (default) or all."""

_WORK: dict[str, Any] = {}
"""What forked generator workers share: seed, rendered decks and recipe."""


def _chunk(bounds: tuple[int, int]) -> tuple[list[np.ndarray], list[int], list[int]]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ds: list[int] = []
    for i in range(*bounds):
        crops, label, deck_no = make_sample(_WORK["seed"], i, _WORK["cards"], _WORK["recipe"])
        xs.extend(crops)
        ys.extend([label] * len(crops))
        ds.extend([deck_no] * len(crops))
    return xs, ys, ds


def generate(
    decks: Sequence[Deck],
    count: int,
    seed: int,
    recipe: SynthRecipe | None = None,
    progress: bool = True,
    desc: str = "synth",
    workers: int = 1,
) -> dict[str, np.ndarray]:
    """``count`` scenes (2 crops each) from ``decks``: arrays x (N,H,W,3 uint8), y, deck.

    ``workers`` > 1 forks processes over chunks of scenes; the result is the same.
    """
    recipe = recipe or SynthRecipe()
    _WORK.update(seed=seed, cards=[load_deck(d) for d in decks], recipe=recipe)
    step = 200
    chunks = [(i, min(i + step, count)) for i in range(0, count, step)]
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ds: list[int] = []
    bar = tqdm(total=count, desc=desc, disable=not progress, unit="scene")
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.imap(_chunk, chunks)
            for (lo, hi), (x, y, d) in zip(chunks, parts, strict=True):
                xs += x
                ys += y
                ds += d
                bar.update(hi - lo)
    else:
        for lo, hi in chunks:
            x, y, d = _chunk((lo, hi))
            xs += x
            ys += y
            ds += d
            bar.update(hi - lo)
    bar.close()
    return {
        "x": np.stack(xs) if xs else np.zeros((0, 72, 40, 3), np.uint8),
        "y": np.asarray(ys, np.int16),
        "deck": np.asarray(ds, np.int16),
    }


def write_dataset(
    out_dir: Path,
    train_count: int,
    heldout_count: int,
    seed: int,
    recipe: SynthRecipe | None = None,
    progress: bool = True,
    workers: int = 1,
    designs: str = "aisleriot",
) -> dict[str, object]:
    """Write ``train.npz`` (training decks) and ``heldout.npz`` (unseen decks) plus ``meta.json``.

    ``designs``: ``"aisleriot"`` (gnome-cards-data's decks: the shipped model's dataset) or
    ``"all"`` (the KDE decks too; measured worse on the unseen designs, see models/README.md).
    """
    if designs not in DESIGNS:
        raise ValueError(f"designs {designs!r}: expected one of {', '.join(DESIGNS)}")
    recipe = recipe or SynthRecipe()
    all_decks = [d for d in list_decks() if designs == "all" or d.source == designs]
    train_decks = [d for d in all_decks if not d.heldout]
    held_decks = [d for d in all_decks if d.heldout]
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, decks, count, sub_seed in (
        ("train", train_decks, train_count, seed),
        ("heldout", held_decks, heldout_count, seed + 1_000_003),
    ):
        # held-out scenes show only the unseen deck designs, never procedural font cards
        used = recipe if name == "train" else replace(recipe, p_fontcard=0.0, p_covered=0.0)
        data = generate(decks, count, sub_seed, used, progress, desc=name, workers=workers)
        np.savez(out_dir / f"{name}.npz", **data)
    meta: dict[str, object] = {
        "seed": seed,
        "train_scenes": train_count,
        "heldout_scenes": heldout_count,
        "crops_per_scene": 2,
        "train_decks": [d.name for d in train_decks],
        "heldout_decks": [d.name for d in held_decks],
        "designs": designs,
        "labels": list(LABELS),
        "warp": [CARD_W, CARD_H],
        "recipe": asdict(recipe),
    }
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return meta
