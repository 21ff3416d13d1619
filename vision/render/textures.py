"""Procedural surfaces for synthetic scenes: tables, cloth, hands, paper, phone screens, backs.

They serve twice: as the table a rendered card lies on, and as the class ``none`` (what a
detector may mistake for a card). All functions draw from a ``numpy.random.Generator`` only, so
a dataset is a pure function of its seed.
"""

from __future__ import annotations

import cv2
import numpy as np

Rng = np.random.Generator


def smooth_noise(rng: Rng, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in [0, 1], ``cells`` blobs across (value noise, bicubic)."""
    gh = max(2, cells)
    gw = max(2, int(round(cells * w / max(h, 1))))
    grid = rng.random((gh, gw)).astype(np.float32)
    out = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(out, 0.0, 1.0)


def _colour(rng: Rng, base: tuple[float, float, float], spread: float) -> np.ndarray:
    return np.clip(np.array(base, np.float32) + rng.normal(0, spread, 3), 0, 255)


def wood(rng: Rng, h: int, w: int) -> np.ndarray:
    """Wood grain: stretched noise along a random direction, brown to blond."""
    base = _colour(rng, (40, 80, 140), 25) * rng.uniform(0.5, 1.3)
    big = max(h, w) * 2
    grain = smooth_noise(rng, big, big // 12 + 2, int(rng.integers(8, 40)))
    grain = cv2.resize(grain, (big, big))
    rings = np.sin(grain * rng.uniform(10, 40)) * 0.5 + 0.5
    m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(0, 180)), 1.0)
    rings = cv2.warpAffine(rings, m, (big, big))[:h, :w]
    shade = 0.75 + 0.35 * rings[..., None]
    return np.clip(base * shade, 0, 255).astype(np.uint8)


def cloth(rng: Rng, h: int, w: int) -> np.ndarray:
    """Felt or woven cloth: a saturated or dark colour with a fine weave and folds."""
    palette = [(40, 110, 30), (120, 60, 20), (30, 30, 150), (25, 25, 25), (110, 110, 110),
               (150, 170, 190), (60, 40, 90), (20, 60, 100)]  # fmt: skip
    base = _colour(rng, palette[int(rng.integers(len(palette)))], 20)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.0, 6.0)
    weave = 0.5 + 0.5 * np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = smooth_noise(rng, h, w, int(rng.integers(2, 6)))
    grain = rng.normal(0, 1, (h, w)).astype(np.float32)
    shade = 0.8 + 0.08 * weave + 0.3 * (folds - 0.5) + 0.04 * grain
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)


def plain(rng: Rng, h: int, w: int) -> np.ndarray:
    """A plain surface (laminate, mat, painted table) with a light gradient and speckle."""
    base = rng.uniform(10, 230, 3).astype(np.float32)
    grad = smooth_noise(rng, h, w, 2)
    speck = rng.normal(0, rng.uniform(1, 8), (h, w, 1)).astype(np.float32)
    return np.clip(base * (0.7 + 0.5 * grad[..., None]) + speck, 0, 255).astype(np.uint8)


def paper(rng: Rng, h: int, w: int) -> np.ndarray:
    """White or cream paper, sometimes ruled, printed or scribbled: the card's worst look-alike."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = _colour(rng, (225, 232, 238), 12)
    img += rng.normal(0, 3, (h, w, 1))
    kind = rng.integers(4)
    if kind == 1:  # ruled
        step = int(rng.integers(8, 20))
        img[::step, :] = (200, 170, 140)
    elif kind == 2:  # printed text lines
        for y in range(int(rng.integers(4, 12)), h, int(rng.integers(8, 16))):
            x = int(rng.integers(0, 10))
            while x < w:
                word = int(rng.integers(5, 30))
                cv2.line(img, (x, y), (min(w, x + word), y), (40, 40, 40), int(rng.integers(1, 3)))
                x += word + int(rng.integers(4, 10))
    elif kind == 3:  # handwriting-ish scribbles
        for _ in range(int(rng.integers(2, 8))):
            pts = np.cumsum(rng.normal(0, 6, (12, 2)), axis=0) + rng.uniform(0, [w, h])
            colour = tuple(float(v) for v in _colour(rng, (120, 60, 20), 40))
            cv2.polylines(img, [pts.astype(np.int32)], False, colour, 1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def hand(rng: Rng, h: int, w: int) -> np.ndarray:
    """Skin: a palm blob and fingers in a random skin tone, on a table."""
    img = table(rng, h, w)
    skin = tuple(float(v) for v in _colour(rng, (120, 150, 200), 30) * rng.uniform(0.45, 1.1))
    centre = rng.uniform(0.2, 0.8, 2) * (w, h)
    axes = (int(w * rng.uniform(0.25, 0.5)), int(h * rng.uniform(0.2, 0.4)))
    cv2.ellipse(
        img, tuple(int(v) for v in centre), axes, float(rng.uniform(0, 180)), 0, 360, skin, -1
    )
    for _ in range(int(rng.integers(2, 5))):
        angle = rng.uniform(0, 2 * np.pi)
        tip = centre + np.array([np.cos(angle), np.sin(angle)]) * max(h, w) * rng.uniform(0.4, 0.8)
        width = int(max(h, w) * rng.uniform(0.06, 0.12))
        p0 = tuple(int(v) for v in centre)
        cv2.line(img, p0, tuple(int(v) for v in tip), skin, width, cv2.LINE_AA)
    shade = 0.8 + 0.35 * smooth_noise(rng, h, w, 3)
    return np.clip(img * shade[..., None], 0, 255).astype(np.uint8)


def screen(rng: Rng, h: int, w: int) -> np.ndarray:
    """A phone or laptop screen: bright UI blocks, text lines, icons on a lit background."""
    bg = _colour(rng, (235, 235, 235) if rng.random() < 0.5 else (30, 30, 30), 20)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bg
    for _ in range(int(rng.integers(3, 12))):
        x0, y0 = rng.integers(0, w), rng.integers(0, h)
        x1, y1 = x0 + rng.integers(4, max(5, w // 2)), y0 + rng.integers(3, max(4, h // 4))
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), colour, -1)
    for y in range(int(rng.integers(2, 10)), h, int(rng.integers(6, 14))):
        if rng.random() < 0.6:
            x1 = int(rng.integers(w // 4, w))
            cv2.line(img, (2, y), (x1, y), tuple(float(v) for v in 255 - bg), 1)
    return img


def card_back(rng: Rng, h: int, w: int) -> np.ndarray:
    """A generic printed card back: a white border around a repeating red or blue pattern."""
    ink = (40, 40, 170) if rng.random() < 0.5 else (150, 60, 20)
    ink = tuple(float(v) for v in _colour(rng, ink, 25))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (245, 245, 245)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(4, 12)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    kind = rng.integers(3)
    if kind == 0:
        mask = (np.sin(u * 2 * np.pi / period) * np.sin(v * 2 * np.pi / period)) > 0
    elif kind == 1:
        mask = np.sin(u * 2 * np.pi / period) > rng.uniform(-0.5, 0.5)
    else:
        mask = (np.sin(u / period * 4) + np.sin(v / period * 4) + np.sin((u + v) / period * 3)) > 0
    border = int(min(h, w) * rng.uniform(0.04, 0.1))
    mask[:border] = False
    mask[-border:] = False
    mask[:, :border] = False
    mask[:, -border:] = False
    img[mask] = ink
    return img


def table(rng: Rng, h: int, w: int) -> np.ndarray:
    """A table surface a card lies on."""
    kind = rng.random()
    if kind < 0.35:
        return wood(rng, h, w)
    if kind < 0.75:
        return cloth(rng, h, w)
    return plain(rng, h, w)


def not_a_card(rng: Rng, h: int, w: int) -> np.ndarray:
    """Something a detector might outline that is not a card (class ``none``)."""
    makers = (paper, paper, hand, screen, wood, cloth, plain)
    return makers[int(rng.integers(len(makers)))](rng, h, w)
