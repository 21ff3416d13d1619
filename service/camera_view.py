"""What the server's camera of a table holds, for the phone that films it and for the table's
page: whether a hand is followed (and why not), the plays read with what a person must still
say about them, and each seat's area of the frame (drawn over the phone's live view).

Read without taking the table's lock for long: a snapshot of the watcher's log (its lists are
only appended to, under the lock, by the frame being processed)."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from service.camera import TableCamera
from service.games import JSON

ARC_STEP_DEG = 6.0


def seat_areas(geometry: Any, size: tuple[int, int]) -> list[list[list[float]]]:
    """Each seat's side of the table as a polygon in fractions of the frame (x, y in 0..1):
    the sector of directions nearest the seat, from the table's middle out to the play area
    (a calibrated plane's circle seen by the camera) or, overhead, to near the frame's edge."""
    w, h = size
    angles = [float(a) % 360 for a in geometry.seat_angles]
    order = sorted(range(len(angles)), key=lambda k: angles[k])
    bounds: dict[int, tuple[float, float]] = {}
    for j, k in enumerate(order):
        prev = angles[order[j - 1]]
        nxt = angles[order[(j + 1) % len(order)]]
        lo = angles[k] - ((angles[k] - prev) % 360) / 2
        hi = angles[k] + ((nxt - angles[k]) % 360) / 2
        bounds[k] = (lo, hi)
    out: list[list[list[float]]] = []
    for k in range(len(angles)):
        lo, hi = bounds[k]
        steps = max(2, math.ceil((hi - lo) / ARC_STEP_DEG))
        arc = np.radians(np.linspace(lo, hi, steps + 1))
        if geometry.plane is None:
            cx, cy = geometry.centre[0] * w, geometry.centre[1] * h
            r = 0.46 * min(w, h)
            pts = np.column_stack([cx + r * np.cos(arc), cy + r * np.sin(arc)])
            pts = np.vstack([[cx, cy], pts])
        else:
            r = float(geometry.radius)
            plane = np.vstack([[0.0, 0.0], np.column_stack([r * np.cos(arc), r * np.sin(arc)])])
            inv = np.linalg.inv(geometry.homography_for((w, h)))
            hom = np.column_stack([plane, np.ones(len(plane))]) @ inv.T
            pts = hom[:, :2] / hom[:, 2:3]
        out.append([[round(float(x) / w, 4), round(float(y) / h, 4)] for x, y in pts])
    return out


def camera_status(camera: TableCamera | None, players: list[str]) -> JSON:
    """The camera's view of the table (see the module's docstring)."""
    if camera is None:
        return {
            "watching": False, "reason": "no frame yet: open the camera page on a phone",
            "deal": None, "frames": 0, "seen_s_ago": None, "frame_size": None,
            "calibrated": False, "bottom_seat": 0, "seats": [], "plays": [], "asks": [],
            "held": 0,
        }  # fmt: skip
    w = camera.watcher
    size = camera.frame_size
    geometry = camera.seats(len(players))
    seats = [{"seat": k, "name": players[k]} for k in range(len(players))]
    if size is not None:
        for k, area in enumerate(seat_areas(geometry, size)):
            seats[k]["area"] = area
    plays: list[JSON] = []
    asks: list[int] = []
    held = 0
    if w is not None:
        log = w.log
        cards = log.cards()
        for i, play in enumerate(list(log.plays)):
            card = cards[i][1] if i < len(cards) else None
            doubt = play.reading.doubt if play.reading is not None else None
            confirmed = camera.confirmed.get(i)
            refused = camera.refused.get(i)
            missed = card is None
            ask = missed or refused is not None or (play.confirm and confirmed is None)
            posted = i in camera.play_seq
            held += not posted
            plays.append(
                {
                    "index": i,
                    "seat": play.seat,
                    "trick": play.trick,
                    "card": None if card is None else str(card),
                    "posted": posted,
                    "seq": camera.play_seq.get(i),
                    "missed": play.missed and confirmed is None,
                    "confirm": bool(play.confirm),
                    "named": confirmed,
                    "candidates": [str(c) for c in doubt] if doubt else [],
                    "reason": (
                        "refused: the rules would not take it as read; name the card"
                        if refused is not None
                        else play.reason
                    ),
                    "ask": ask,
                }  # fmt: skip
            )
            if ask:
                asks.append(i)
    return {
        "watching": w is not None,
        "reason": camera.reason,
        "deal": None if camera.key is None else camera.key[0],
        "frames": camera.frames,
        "seen_s_ago": round(time.monotonic() - camera.last_frame, 1) if camera.frames else None,
        "frame_size": None if size is None else list(size),
        "calibrated": camera.geometry is not None,
        "bottom_seat": camera.bottom_seat,
        "seats": seats,
        "plays": plays,
        "asks": asks,
        "held": held,
    }
