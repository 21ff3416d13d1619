"""Synthetic table scenes with cards at known outlines, for detection tests and benchmarks.

Why: detection must be checked against exact ground truth (where each card's corners are),
which photographs do not give. A scene is a table texture (wood, felt of any colour, black,
white-ish or patterned cloth) with card images perspective-pasted at chosen quads.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

TABLES: tuple[str, ...] = ("wood", "green_felt", "red_felt", "black", "whiteish", "pattern")


def table_texture(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A BGR table texture of the given kind (one of :data:`TABLES`)."""
    if kind == "wood":
        x = np.linspace(0, 1, width, dtype=np.float32)[None, :]
        y = np.linspace(0, 1, height, dtype=np.float32)[:, None]
        grain = np.sin((x * 40 + 3 * np.sin(y * 7 + rng.uniform(0, 6))) * np.pi)
        base = np.array([60, 105, 160], np.float32)  # warm brown (BGR)
        img = base[None, None, :] * (0.85 + 0.12 * grain[..., None])
    elif kind.endswith("_felt"):
        colour = {"green_felt": (40, 110, 30), "red_felt": (40, 30, 130)}[kind]
        img = np.broadcast_to(np.array(colour, np.float32), (height, width, 3)).copy()
    elif kind == "black":
        img = np.full((height, width, 3), 22, np.float32)
    elif kind == "whiteish":
        img = np.full((height, width, 3), (178, 186, 192), np.float32)
    elif kind == "pattern":
        yy, xx = np.mgrid[0:height, 0:width]
        checks = ((xx // 24 + yy // 24) % 2).astype(np.float32)
        img = np.stack([60 + 60 * checks, 40 + 30 * checks, 120 + 40 * checks], axis=-1)
    else:
        raise ValueError(f"unknown table kind {kind!r}: expected one of {', '.join(TABLES)}")
    noise = rng.normal(0, 4, (height, width, 1)).astype(np.float32)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def plain_card(rank: str, suit: str, width: int = 250, height: int = 350) -> np.ndarray:
    """A simple face-up card: white paper, the index in two corners, a pip in the middle."""
    card = np.full((height, width, 3), 246, np.uint8)
    colour = (30, 30, 200) if suit in "HD" else (25, 25, 25)
    for img in (card,):
        cv2.putText(img, rank, (12, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.5, colour, 4, cv2.LINE_AA)
        cv2.putText(img, suit, (16, 98), cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3, cv2.LINE_AA)
    card = np.ascontiguousarray(np.maximum(card, 0))
    flipped = cv2.rotate(card, cv2.ROTATE_180)
    card = np.minimum(card, flipped)  # the index in the opposite corner too
    cv2.circle(card, (width // 2, height // 2), width // 6, colour, -1, cv2.LINE_AA)
    return card


def paste_card(
    table: np.ndarray, card: np.ndarray, quad: np.ndarray | Sequence[Sequence[float]]
) -> None:
    """Perspective-paste ``card`` (BGR, or BGRA with the card's shape in alpha) onto ``table``
    (in place) so its corners land on ``quad`` (top-left, top-right, bottom-right, bottom-left)."""
    h, w = card.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    dst = np.asarray(quad, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src, dst)
    th, tw = table.shape[:2]
    # a BGRA card (a rendered deck) brings its rounded shape in the alpha channel
    alpha = card[:, :, 3] if card.shape[2] == 4 else np.full((h, w), 255, np.uint8)
    warped = cv2.warpPerspective(np.ascontiguousarray(card[:, :, :3]), m, (tw, th))
    mask = cv2.warpPerspective(alpha, m, (tw, th))
    # a faint shadow along the card's edge, as on a real table
    edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    inside = mask > 127
    table[inside] = warped[inside]
    table[edge > 0] = (table[edge > 0] * 0.6).astype(np.uint8)


def card_quad(
    centre: tuple[float, float], long_side: float, angle_deg: float, aspect: float = 0.7
) -> np.ndarray:
    """The corners (TL, TR, BR, BL) of an upright card rotated by ``angle_deg`` about its centre."""
    w, h = long_side * aspect, long_side
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (corners @ rot.T + np.asarray(centre)).astype(np.float32)
