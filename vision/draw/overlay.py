"""Draw what the watcher knows onto a frame: card outlines with name, confidence and seat, the
seat areas, the trick in progress, the plays awaiting a person, the running score.

Drawing only: the watcher's state is read, never changed. Used by ``trickcam watch
--annotate`` (a video a club can replay), ``--preview`` (a person propping up a phone sees at
once whether it reads the table), ``trickcam calibrate --show`` and the demo.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.track.table import TableGeometry
from vision.track.watch import Watcher

PLAYED = (60, 210, 60)
CONFIRM = (0, 165, 255)
FIXTURE = (230, 180, 60)
PENDING = (200, 200, 200)
SEAT = (255, 255, 255)
AREA = (255, 200, 120)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _label(
    img: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int], scale: float
) -> None:
    thick = max(1, round(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, FONT, scale, thick)
    x, y = org[0] - tw // 2, org[1] + th // 2
    cv2.rectangle(img, (x - 3, y - th - 3), (x + tw + 3, y + 4), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), FONT, scale, colour, thick, cv2.LINE_AA)


def _plane_to_image(geometry: TableGeometry, size: tuple[int, int], pts: np.ndarray) -> np.ndarray:
    h = np.linalg.inv(geometry.homography_for(size))
    p = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _seat_marks(geometry: TableGeometry, size: tuple[int, int]) -> list[tuple[int, int]]:
    """Where to write each seat's name in the frame."""
    w, h = size
    out = []
    for angle in geometry.seat_angles:
        a = math.radians(angle)
        if geometry.plane is not None:
            r = geometry.radius * 0.92
            x, y = _plane_to_image(geometry, size, np.array([[r * math.cos(a), r * math.sin(a)]]))[
                0
            ]
        else:
            cx, cy = geometry.centre[0] * w, geometry.centre[1] * h
            r = 0.44 * min(w, h)
            x, y = cx + math.cos(a) * r * w / h, cy + math.sin(a) * r
        out.append((int(np.clip(x, 30, w - 30)), int(np.clip(y, 15, h - 60))))
    return out


def draw_areas(img: np.ndarray, geometry: TableGeometry, scale: float) -> None:
    """The play area and the borders between seats' sides (a calibrated plane only)."""
    if geometry.plane is None:
        return
    size = (img.shape[1], img.shape[0])
    r = geometry.radius
    ring = np.array([[r * math.cos(a), r * math.sin(a)] for a in np.linspace(0, 2 * math.pi, 73)])
    pts = np.round(_plane_to_image(geometry, size, ring)).astype(np.int32)
    thick = max(1, round(scale * 1.5))
    cv2.polylines(img, [pts.reshape(-1, 1, 2)], True, AREA, thick, cv2.LINE_AA)
    angles = sorted(geometry.seat_angles)
    for a, b in zip(angles, [*angles[1:], angles[0] + 360], strict=True):
        mid = math.radians((a + b) / 2)
        spoke = np.array([[0.25 * r * math.cos(mid), 0.25 * r * math.sin(mid)],
                          [r * math.cos(mid), r * math.sin(mid)]])  # fmt: skip
        p = np.round(_plane_to_image(geometry, size, spoke)).astype(np.int32)
        cv2.line(img, tuple(p[0]), tuple(p[1]), AREA, thick, cv2.LINE_AA)


def draw_table(
    frame: np.ndarray, geometry: TableGeometry, quads: list[np.ndarray] | None = None
) -> np.ndarray:
    """A copy of a calibration frame with the play area, the seats and the cards found."""
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900)
    draw_areas(out, geometry, scale)
    for k, q in enumerate(quads or []):
        pts = np.round(np.asarray(q)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, PLAYED, max(1, round(2 * scale)), cv2.LINE_AA)
        c = np.asarray(q).reshape(4, 2).mean(axis=0)
        _label(out, f"seat {k}", (int(c[0]), int(c[1])), PLAYED, scale * 0.8)
    for k, xy in enumerate(_seat_marks(geometry, (w, h))):
        _label(out, f"seat {k}", xy, SEAT, scale * 0.9)
    return out


def draw_finds(frame: np.ndarray, quads: list[np.ndarray], why: str) -> np.ndarray:
    """A copy of a calibration frame that was refused: every card found outlined and
    numbered, and why it was refused along the top (what to clear or move is then plain)."""
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900)
    for k, q in enumerate(quads):
        pts = np.round(np.asarray(q)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, CONFIRM, max(1, round(2 * scale)), cv2.LINE_AA)
        c = np.asarray(q).reshape(4, 2).mean(axis=0)
        _label(out, f"find {k + 1}", (int(c[0]), int(c[1])), CONFIRM, scale * 0.7)
    words, lines = why.split(), [""]
    for word in words:  # wrapped to the frame's width
        wider = f"{lines[-1]} {word}".strip()
        if lines[-1] and cv2.getTextSize(wider, FONT, scale * 0.6, 1)[0][0] > w - 20:
            lines.append(word)
        else:
            lines[-1] = wider
    step = round(28 * scale)
    cv2.rectangle(out, (0, 0), (w, step * len(lines) + step // 2), (0, 0, 0), -1)
    for k, line in enumerate(lines):
        cv2.putText(out, line, (10, step * (k + 1)), FONT, scale * 0.6, SEAT, 1, cv2.LINE_AA)
    return out


def draw(frame: np.ndarray, watcher: Watcher, t: float) -> np.ndarray:
    """A copy of ``frame`` with the table as the watcher sees it at time ``t``."""
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900)
    draw_areas(out, watcher.geometry, scale)
    plays = {p.track_id: p for p in watcher.log.plays}
    for tr in watcher.tracker.live():
        quad = watcher.to_image(np.asarray(tr.quad, np.float64).reshape(4, 2))
        pts = np.round(quad).astype(np.int32).reshape(-1, 1, 2)
        play = plays.get(tr.id)
        if play is not None:
            colour = CONFIRM if play.confirm else PLAYED
            conf = 0.0 if play.reading is None else play.reading.probability
            text = f"{play.card} {conf:.2f} s{play.seat}"
        elif tr.id in watcher.fixture_tracks:
            colour, text = FIXTURE, "face up"
        elif tr.status == "candidate":
            colour, text = PENDING, "..."
        else:
            colour, text = PENDING, "not a play"
        cv2.polylines(out, [pts], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        centre = quad.mean(axis=0)
        _label(out, text, (int(centre[0]), int(centre[1])), colour, scale * 0.8)
    for seat, xy in enumerate(_seat_marks(watcher.geometry, (w, h))):
        turn = watcher.log.to_move() == seat and not watcher.complete
        _label(out, f"seat {seat}" + (" *" if turn else ""), xy, SEAT, scale * 0.9)
    _banner(out, watcher, t, scale)
    return out


def _banner(out: np.ndarray, watcher: Watcher, t: float, scale: float) -> None:
    """Two lines at the bottom: game, trick and score; the trick in progress and what awaits
    a person (plays to confirm, plays missed)."""
    h, w = out.shape[:2]
    score = watcher.log.running_score()
    names = ["team 0-2", "team 1-3"] if watcher.spec.teams else [f"s{k}" for k in range(len(score))]
    text = "  ".join(f"{n}: {v}" for n, v in zip(names, score, strict=True))
    done, current = watcher.log.tricks()
    header = f"{watcher.spec.game}  trick {min(len(done) + 1, watcher.spec.tricks)}/{watcher.spec.tricks}  {text}  t={t:.1f}s"
    trick = "  ".join(f"s{seat} {'?' if e is None else e}" for seat, e in current)
    waiting = [p for p in watcher.log.plays if p.confirm]
    second = f"on the table: {trick or '-'}"
    if waiting:
        second += "   awaiting a person: " + ", ".join(
            f"play {p.index + 1} ({'missed' if p.missed else 'confirm ' + str(p.card)})"
            for p in waiting[-4:]
        )
    line = int(24 * scale + 8)
    bar = 2 * line + 6
    cv2.rectangle(out, (0, h - bar), (w, h), (0, 0, 0), -1)
    thick = max(1, round(scale * 1.5))
    cv2.putText(
        out, header, (8, h - bar + line), FONT, scale * 0.75, (255, 255, 255), thick, cv2.LINE_AA
    )
    colour = CONFIRM if waiting else (200, 200, 200)
    cv2.putText(
        out, second, (8, h - bar + 2 * line), FONT, scale * 0.65, colour, thick, cv2.LINE_AA
    )
