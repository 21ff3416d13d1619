"""Draw what the watcher knows onto a frame: card outlines and names, seats, the running score.

Drawing only: the watcher's state is read, never changed. Used by ``trickcam watch
--annotate`` (a video a club can replay) and the demo.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.track.watch import Watcher

PLAYED = (60, 210, 60)
CONFIRM = (0, 165, 255)
FIXTURE = (230, 180, 60)
PENDING = (200, 200, 200)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _label(
    img: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int], scale: float
) -> None:
    thick = max(1, round(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, FONT, scale, thick)
    x, y = org[0] - tw // 2, org[1] + th // 2
    cv2.rectangle(img, (x - 3, y - th - 3), (x + tw + 3, y + 4), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), FONT, scale, colour, thick, cv2.LINE_AA)


def draw(frame: np.ndarray, watcher: Watcher, t: float) -> np.ndarray:
    """A copy of ``frame`` with the table as the watcher sees it at time ``t``."""
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900)
    plays = {p.track_id: p for p in watcher.log.plays}
    for tr in watcher.tracker.live():
        pts = np.round(np.asarray(tr.quad)).astype(np.int32).reshape(-1, 1, 2)
        play = plays.get(tr.id)
        if play is not None:
            colour = CONFIRM if play.confirm else PLAYED
            text = f"{play.card} s{play.seat}"
        elif tr.id in watcher.fixture_tracks:
            colour, text = FIXTURE, "face up"
        else:
            colour, text = PENDING, "..."
        cv2.polylines(out, [pts], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        centre = tuple(int(v) for v in tr.centre)
        _label(out, text, centre, colour, scale)
    g = watcher.geometry
    for seat, angle in enumerate(g.seat_angles):
        a = math.radians(angle)
        cx, cy = g.centre[0] * w, g.centre[1] * h
        r = 0.44 * min(w, h)
        x = int(np.clip(cx + math.cos(a) * r * w / h, 30, w - 30))
        y = int(np.clip(cy + math.sin(a) * r, 15, h - 28 * scale - 24))
        turn = watcher.log.to_move() == seat and not watcher.complete
        _label(out, f"seat {seat}" + (" *" if turn else ""), (x, y), (255, 255, 255), scale * 0.9)
    score = watcher.log.running_score()
    names = ["team 0-2", "team 1-3"] if watcher.spec.teams else [f"s{k}" for k in range(len(score))]
    text = "  ".join(f"{n}: {v}" for n, v in zip(names, score, strict=True))
    done, _ = watcher.log.tricks()
    header = f"{watcher.spec.game}  trick {min(len(done) + 1, watcher.spec.tricks)}/{watcher.spec.tricks}  {text}  t={t:.1f}s"
    bar = int(28 * scale + 10)
    cv2.rectangle(out, (0, h - bar), (w, h), (0, 0, 0), -1)
    org = (8, h - bar + int(22 * scale + 4))
    thick = max(1, round(scale * 1.5))
    cv2.putText(out, header, org, FONT, scale * 0.8, (255, 255, 255), thick, cv2.LINE_AA)
    return out
