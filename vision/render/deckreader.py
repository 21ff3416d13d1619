"""A reader that knows one deck design by heart, for checking the pipeline apart from the
classifier (see :func:`deck_reader`)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.render.decks import list_decks, load_deck

NONE_CORRELATION = 0.45
"""Below this correlation with every face of the deck, the deck reader says 'none'."""


def deck_reader(deck: str) -> Callable[[list[np.ndarray]], np.ndarray]:
    """A reader that knows one deck design by heart: each upright crop is compared with the
    deck's own 52 faces (both ways up) by normalised correlation of a small grey-and-redness
    picture, trying a few margins (outlines are never exact).

    Why: it reads rendered videos without any training, so the tracking, seating and
    sequencing can be checked apart from the classifier (and the gap between it and the ONNX
    model measures what the model loses on a design)."""
    from vision.detect.preprocess import CARD_H, CARD_W
    from vision.read.decode import LABELS

    images = load_deck(next(d for d in list_decks() if d.name == deck))
    size = (40, 60)

    def feature(img: np.ndarray) -> np.ndarray:
        small = cv2.resize(np.ascontiguousarray(img[:, :, :3]), size, interpolation=cv2.INTER_AREA)
        f = cv2.GaussianBlur(small.astype(np.float32), (3, 3), 0)
        b, g, r = f[:, :, 0], f[:, :, 1], f[:, :, 2]
        grey = (b + g + r) / 3
        red = r - (b + g) / 2
        # one joint normalisation: a black card's flat redness stays flat, a red card's not
        v = np.concatenate([(grey - grey.mean()).ravel(), 1.5 * (red - red.mean()).ravel()])
        return v / (np.linalg.norm(v) + 1e-3)

    def windows(img: np.ndarray) -> list[np.ndarray]:
        h, w = img.shape[:2]
        out = []
        for m in (0.0, 0.03, 0.06):
            dy, dx = int(round(m * h)), int(round(m * w))
            out.append(feature(img[dy : h - dy or h, dx : w - dx or w]))
        return out

    bank = []
    for label in LABELS[:52]:
        card = images[label]
        alpha = card[:, :, 3:] / 255.0
        white = card[:, :, :3].astype(np.float32) * alpha + 255 * (1 - alpha)
        up = cv2.resize(white.astype(np.uint8), (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
        bank.append((feature(up), feature(cv2.rotate(up, cv2.ROTATE_180))))
    ups = np.stack([a for a, _b in bank])
    downs = np.stack([b for _a, b in bank])

    def read(crops: list[np.ndarray]) -> np.ndarray:
        out = np.zeros((len(crops), len(LABELS)), np.float64)
        for i, crop in enumerate(crops):
            score = np.max([np.maximum(ups @ v, downs @ v) for v in windows(crop)], axis=0)
            # 'none': nothing of the deck correlates well (a blotch of the table, a hand)
            logits = np.append(score, [-1.0, NONE_CORRELATION]) * 40.0
            e = np.exp(logits - logits.max())
            out[i] = e / e.sum()
        return out

    return read
