"""Procedural playing cards whose indices are set in OpenCV's Hershey fonts or a TrueType font.

The 18 training deck designs share a handful of index typefaces; real decks use many more (the
Piatnik queen's looped tail read as an 8 by a model trained on SVG decks alone). Cards drawn
here vary the font, italics, stroke weight, size, place and condensation of the rank, and the
size of the suit sign under it, so the classifier learns letter and suit shapes rather than
one deck's typeface. Centres are rough (pips in a grid, a framed blob for courts): only the
corners are read.

Court and ace indices come in the languages these games are played in (:data:`INDEX_STYLES`):
French R/D/V, German and Austrian K/D/B, Dutch H/V/B, Scandinavian E/K/D/Kn, Russian and
Bulgarian Т/К/Д/В; each card keeps the label of its meaning (a B is a jack). The French valet
and the Dutch vrouw are both a V: the same glyph is taught as a jack and as a queen, so the
classifier is unsure of a lone V rather than wrong. Letters outside the Hershey fonts
(Cyrillic) are set in Debian's DejaVu and Liberation fonts through Pillow (the ``train`` extra).
"""

from __future__ import annotations

import cv2
import numpy as np

Rng = np.random.Generator

INDEX_STYLES: dict[str, dict[str, str]] = {
    "english": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
    "german": {"A": "A", "K": "K", "Q": "D", "J": "B"},
    "french": {"A": "A", "K": "R", "Q": "D", "J": "V"},
    "dutch": {"A": "A", "K": "H", "Q": "V", "J": "B"},
    "scandinavian": {"A": "E", "K": "K", "Q": "D", "J": "Kn"},
    "russian": {"A": "Т", "K": "К", "Q": "Д", "J": "В"},
}
"""The printed index of the ace and court cards, by deck tradition (numbers are the same)."""

TTF_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
)
"""TrueType fonts of Debian's fonts-dejavu-core and fonts-liberation (those found are used)."""

FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_PLAIN,
)


def suit_mask(suit: str, size: int) -> np.ndarray:
    """A filled suit sign (S, H, D, C) ``size`` pixels tall on a square uint8 mask."""
    s = size
    m = np.zeros((s, s), np.uint8)
    c = s / 2
    if suit == "D":
        pts = np.array([[c, 0], [c + 0.38 * s, c], [c, s - 1], [c - 0.38 * s, c]], np.int32)
        cv2.fillPoly(m, [pts], 255, cv2.LINE_AA)
        return m
    r = 0.25 * s
    if suit in "HS":
        lobes = ((c - r * 0.95, 0.32 * s), (c + r * 0.95, 0.32 * s))
        tri = np.array([[c - 2 * r * 0.95, 0.38 * s], [c + 2 * r * 0.95, 0.38 * s], [c, 0.95 * s]])
        for x, y in lobes:
            cv2.circle(m, (int(x), int(y)), int(r), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(m, [tri.astype(np.int32)], 255, cv2.LINE_AA)
        if suit == "S":
            m = cv2.flip(m, 0)
            m[int(0.05 * s) :, :] = m[: s - int(0.05 * s), :].copy()  # lift the heart up
            stem = np.array([[c, 0.55 * s], [c - 0.18 * s, s - 1], [c + 0.18 * s, s - 1]])
            cv2.fillPoly(m, [stem.astype(np.int32)], 255, cv2.LINE_AA)
        return m
    r = 0.22 * s  # clubs: three balls and a stem
    for x, y in ((c, 0.25 * s), (c - 0.24 * s, 0.56 * s), (c + 0.24 * s, 0.56 * s)):
        cv2.circle(m, (int(x), int(y)), int(r), 255, -1, cv2.LINE_AA)
    stem = np.array([[c, 0.45 * s], [c - 0.16 * s, s - 1], [c + 0.16 * s, s - 1]])
    cv2.fillPoly(m, [stem.astype(np.int32)], 255, cv2.LINE_AA)
    return m


def _stamp(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: np.ndarray) -> None:
    """Paint ``colour`` through ``mask`` at (x, y), clipped to the image."""
    h, w = mask.shape[:2]
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x, None].astype(np.float32) / 255
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + colour * a


def index_text(rng: Rng, rank: str, p_foreign: float = 0.0) -> str:
    """What a deck prints for ``rank`` (``"10"``, ``"Q"``...): English, or with ``p_foreign``
    the index of another deck tradition (numbers never change)."""
    if rank not in "AKQJ" or rng.random() >= p_foreign:
        return rank
    styles = [s for s in INDEX_STYLES if s != "english"]
    return INDEX_STYLES[styles[int(rng.integers(len(styles)))]][rank]


def _ttf_fonts() -> list[str]:
    from pathlib import Path

    return [f for f in TTF_FONTS if Path(f).is_file()]


def _ttf_canvas(rng: Rng, text: str) -> np.ndarray | None:
    """``text`` set in a TrueType font (white on black), or None without Pillow or fonts."""
    fonts = _ttf_fonts()
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return None
    if not fonts:
        return None
    font = ImageFont.truetype(fonts[int(rng.integers(len(fonts)))], 96)
    box = font.getbbox(text)
    image = Image.new("L", (box[2] + 16, box[3] + 16), 0)
    ImageDraw.Draw(image).text((8, 8), text, fill=255, font=font)
    return np.asarray(image, np.uint8).copy()


def _rank_mask(rng: Rng, rank: str, height: int, max_width: int, p_ttf: float = 0.0) -> np.ndarray:
    """The rank in a random Hershey font (a TrueType one for letters Hershey lacks, and with
    ``p_ttf``), ``height`` tall, squeezed to ``max_width`` if needed. At ``p_ttf`` 0 the draws
    are those of the Hershey-only cards, so older datasets regenerate bit for bit."""
    canvas = None
    if not rank.isascii() or (p_ttf and rng.random() < p_ttf):
        canvas = _ttf_canvas(rng, rank)
    if canvas is None or not canvas.any():
        if not rank.isascii():  # no font for it here: the English index instead
            rank = {"Т": "A", "К": "K", "Д": "Q", "В": "J"}.get(rank, rank)
        font = int(FONTS[int(rng.integers(len(FONTS)))]) | (
            cv2.FONT_ITALIC if rng.random() < 0.15 else 0
        )
        thick = int(rng.integers(2, 6))
        (tw, th), base = cv2.getTextSize(rank, font, 2.0, thick)
        canvas = np.zeros((th + base + 2 * thick + 4, tw + 2 * thick + 4), np.uint8)
        cv2.putText(canvas, rank, (thick + 2, th + thick + 2), font, 2.0, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    glyph = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    gh, gw = glyph.shape
    width = int(gw * height / gh * rng.uniform(0.7, 1.15))
    width = max(2, min(width, max_width))
    return cv2.resize(glyph, (width, height), interpolation=cv2.INTER_AREA)


def font_card(
    rng: Rng, label: str, height: int = 320, p_foreign: float = 0.0, crowded: bool = False
) -> np.ndarray:
    """A BGRA card for ``label`` (e.g. ``"10H"``) with Hershey-font indices in two corners;
    with ``p_foreign`` the ace and courts may carry another tradition's index (same label).

    ``crowded``: the middle reaches the index, as on many French and continental decks (big
    pips beside the rank, a court's big suit sign at its shoulder) and the suit sign under the
    rank may be tiny: the corner crop then shows a big pip's edge beside the index, which must
    not be taken for part of it (a pip's lobe beside an 8 is not a 10)."""
    rank, suit = label[:-1], label[-1]
    printed = index_text(rng, rank, p_foreign) if p_foreign else rank
    w = int(height * rng.uniform(0.62, 0.72))
    h = height
    paper = np.clip(rng.normal((238, 244, 248), 8), 180, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = paper
    red = suit in "HD"
    ink = np.clip(rng.normal((40, 30, 200) if red else (30, 30, 30), 20), 0, 255)

    # the index corner, drawn once and pasted upright (top-left) and turned (bottom-right)
    ch, cw = int(0.32 * h), int(0.26 * w)
    corner = np.empty((ch, cw, 3), np.float32)
    corner[:] = paper
    rank_h = int(h * rng.uniform(0.075, 0.13))
    rank_img = _rank_mask(rng, printed, rank_h, int(cw * 0.85), 0.3 if p_foreign else 0.0)
    x0 = int(w * rng.uniform(0.03, 0.08))
    y0 = int(h * rng.uniform(0.025, 0.06))
    _stamp(corner, rank_img, x0, y0, ink)
    sy = y0 + rank_h + int(h * rng.uniform(0.005, 0.025))
    size = int(h * rng.uniform(0.03 if crowded else 0.045, 0.085))
    sx = x0 + (rank_img.shape[1] - size) // 2 + int(rng.integers(-2, 3))
    _stamp(corner, suit_mask(suit, size), sx, sy, ink)
    img[:ch, :cw] = corner
    img[h - ch :, w - cw :] = corner[::-1, ::-1]

    # the middle: pips, a framed court, or a big ace
    inner = (int(0.3 * w), int(0.2 * h), int(0.7 * w), int(0.8 * h))
    if crowded:
        mx, my = rng.uniform(0.17, 0.26), rng.uniform(0.08, 0.16)
        left = max(int(mx * w), x0 + rank_img.shape[1] + 2)  # beside the index, never on it
        inner = (left, int(my * h), w - left, int((1 - my) * h))
    if rank in ("J", "Q", "K") and crowded:
        big = int(h * rng.uniform(0.1, 0.2))
        _stamp(img, suit_mask(suit, big), inner[0] + int(rng.integers(0, 6)), inner[1], ink)
        _stamp(img, suit_mask(suit, big)[::-1, ::-1], inner[2] - big, inner[3] - big, ink)
        cx, cy = (inner[0] + inner[2]) // 2, (inner[1] + inner[3]) // 2
        inner = (
            min(inner[0] + big // 2, cx - 4),
            min(inner[1] + big, cy - 4),
            max(inner[2] - big // 2, cx + 4),
            max(inner[3] - big, cy + 4),
        )
    if rank in ("J", "Q", "K"):
        frame = np.clip(rng.normal((120, 90, 60), 50), 0, 255)
        cv2.rectangle(img, inner[:2], inner[2:], frame.tolist(), 2)
        for _ in range(int(rng.integers(4, 10))):
            centre = (int(rng.uniform(inner[0], inner[2])), int(rng.uniform(inner[1], inner[3])))
            axes = (int(rng.uniform(4, 0.12 * w)), int(rng.uniform(4, 0.1 * h)))
            colour = rng.uniform(0, 255, 3).tolist()
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    else:
        count = 1 if rank == "A" else int(rank)
        pips = (0.12, 0.2) if crowded else (0.09, 0.13)
        size = int(h * (0.25 if rank == "A" else rng.uniform(*pips)))
        cols = 1 if count < 4 else 2 if count < 9 else 3
        rows = int(np.ceil(count / cols))
        if crowded:  # as big as the grid allows
            size = min(size, (inner[2] - inner[0]) // cols, (inner[3] - inner[1]) // rows)
        for k in range(count):
            cx = inner[0] + (k % cols + 0.5) * (inner[2] - inner[0]) / cols
            cy = inner[1] + (k // cols + 0.5) * (inner[3] - inner[1]) / rows
            _stamp(img, suit_mask(suit, size), int(cx - size / 2), int(cy - size / 2), ink)

    alpha = np.zeros((h, w), np.uint8)
    r = int(w * rng.uniform(0.03, 0.09))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])
