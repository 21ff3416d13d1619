"""Where the table is: the seats around it, as directions from its middle, in the image of an
overhead camera or on the table's plane as ``trickcam calibrate`` finds it (any camera).

:class:`TableGeometry` default (an overhead camera): seat 0 at the image's bottom edge, then
clockwise as seen from above (with four players: 1 left, 2 top, 3 right). ``trickcam
calibrate`` writes one from a frame in which every player has put a card in front of himself
(:mod:`vision.track.plane`). What moves and which cards have come to rest is
:mod:`vision.track.motion`'s (its names are re-exported here).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np


class TableFileError(ValueError):
    """A table file that cannot be read (the message names the file and the field)."""


@dataclass(frozen=True)
class TableGeometry:
    """Seats as directions from the table's centre.

    Without ``plane`` (an overhead camera): ``centre`` is in fractions of the image (x, y);
    ``seat_angles`` in degrees, measured in the image with y down (0 = right, 90 = bottom,
    180 = left, 270 = top), seat 0 first.

    With ``plane`` (``trickcam calibrate`` from a frame of any camera): the 3 x 3 homography
    from image pixels to the table's plane, in card lengths, its origin the table's middle;
    ``seat_angles`` are then directions on the plane (y down, seat 0 at 90), ``radius`` the
    play area (card lengths from the middle) and ``frame_size`` the calibration frame's
    (width, height): a source of another resolution is scaled to it.
    """

    players: int
    centre: tuple[float, float] = (0.5, 0.5)
    seat_angles: tuple[float, ...] = ()
    plane: tuple[tuple[float, float, float], ...] | None = None
    radius: float = 0.0
    frame_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 8:
            raise TableFileError(f"players: expected 2..8, got {self.players}")
        if not self.seat_angles:
            step = 360.0 / self.players
            object.__setattr__(
                self, "seat_angles", tuple((90.0 + k * step) % 360 for k in range(self.players))
            )
        if len(self.seat_angles) != self.players:
            raise TableFileError(
                f"seat_angles: {len(self.seat_angles)} angles for {self.players} players"
            )
        if self.plane is not None:
            h = np.asarray(self.plane, np.float64)
            if h.shape != (3, 3) or not np.isfinite(h).all() or abs(np.linalg.det(h)) < 1e-15:
                raise TableFileError(
                    f"plane: expected a 3 x 3 invertible homography, got {self.plane!r}"
                )
            if self.radius <= 0:
                raise TableFileError(
                    f"radius: expected the play area's radius > 0, got {self.radius}"
                )

    @classmethod
    def default(cls, players: int) -> TableGeometry:
        return cls(players)

    def angle_of(self, point: Sequence[float] | np.ndarray, size: tuple[int, int]) -> float:
        """Direction (degrees, image y down) of a pixel ``point`` from the centre; ``size`` =
        (width, height) of the frame."""
        w, h = size
        dx = float(point[0]) - self.centre[0] * w
        dy = float(point[1]) - self.centre[1] * h
        return math.degrees(math.atan2(dy, dx)) % 360

    def distances(self, point: Sequence[float] | np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Angular distance (degrees, 0..180) from the point's direction to every seat."""
        a = self.angle_of(point, size)
        d = np.abs((np.asarray(self.seat_angles) - a + 180.0) % 360.0 - 180.0)
        return d

    def seat_of(self, point: Sequence[float] | np.ndarray, size: tuple[int, int]) -> int:
        """The seat whose side of the table ``point`` lies on."""
        return int(np.argmin(self.distances(point, size)))

    def seat_at(self, pixel: Sequence[float] | np.ndarray, size: tuple[int, int]) -> int:
        """The seat whose side of the table the frame pixel ``pixel`` lies on (on the plane
        when there is one)."""
        if self.plane is None:
            return self.seat_of(pixel, size)
        h = self.homography_for(size)
        x, y, w = h @ np.array([float(pixel[0]), float(pixel[1]), 1.0])
        a = math.degrees(math.atan2(y / w, x / w)) % 360
        d = np.abs((np.asarray(self.seat_angles) - a + 180.0) % 360.0 - 180.0)
        return int(np.argmin(d))

    def homography_for(self, size: tuple[int, int]) -> np.ndarray:
        """The plane's homography for frames of ``size`` (the calibration's, scaled)."""
        assert self.plane is not None
        h = np.asarray(self.plane, np.float64)
        if self.frame_size and tuple(size) != tuple(self.frame_size):
            sx, sy = self.frame_size[0] / size[0], self.frame_size[1] / size[1]
            h = h @ np.diag([sx, sy, 1.0])
        return h

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "players": self.players,
            "centre": [round(self.centre[0], 4), round(self.centre[1], 4)],
            "seat_angles": [round(a, 2) for a in self.seat_angles],
        }
        if self.plane is not None:
            out["plane"] = [[float(f"{v:.9g}") for v in row] for row in self.plane]
            out["radius"] = round(self.radius, 3)
            if self.frame_size:
                out["frame_size"] = list(self.frame_size)
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "table") -> TableGeometry:
        if not isinstance(data, dict):
            raise TableFileError(f"{where}: expected a JSON object, got {data!r}")
        try:
            players = int(data["players"])
            centre_raw = data.get("centre", [0.5, 0.5])
            centre = (float(centre_raw[0]), float(centre_raw[1]))
            angles = tuple(float(a) for a in data.get("seat_angles", ()))
            plane = None
            if data.get("plane") is not None:
                plane = tuple(tuple(float(v) for v in row) for row in data["plane"])
            radius = float(data.get("radius", 0.0))
            size = data.get("frame_size")
            frame_size = (int(size[0]), int(size[1])) if size else None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise TableFileError(f"{where}: {exc!r} in {data!r}") from None
        try:
            return cls(players, centre, angles, plane, radius, frame_size)  # type: ignore[arg-type]
        except TableFileError as exc:
            raise TableFileError(f"{where}: {exc}") from None

    def to_text(self) -> str:
        """The table file's text (what :meth:`save` writes and :meth:`load` reads)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: Path) -> None:
        path.write_text(self.to_text(), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TableGeometry:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TableFileError(f"table file {str(path)!r} not found") from None
        except (OSError, json.JSONDecodeError) as exc:
            raise TableFileError(f"table file {str(path)!r}: {exc}") from None
        return cls.from_json(data, f"table file {str(path)!r}")


def calibrate(
    points: Sequence[Sequence[float]], size: tuple[int, int], first_seat_angle: float = 90.0
) -> TableGeometry:
    """Seats from one card in front of each player: the centre is the cards' mean, seat 0 the
    card nearest ``first_seat_angle`` (default the bottom edge), then clockwise as seen from
    above (increasing image angle)."""
    if len(points) < 2:
        raise TableFileError(
            f"calibration needs one card per player (2 or more), got {len(points)}"
        )
    w, h = size
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    cx, cy = pts.mean(axis=0)
    centre = (float(cx / w), float(cy / h))
    angles = [math.degrees(math.atan2(y - cy, x - cx)) % 360 for x, y in pts]
    start = min(
        range(len(angles)), key=lambda i: abs((angles[i] - first_seat_angle + 180) % 360 - 180)
    )
    ordered = sorted(angles, key=lambda a: (a - angles[start]) % 360)
    return TableGeometry(len(points), centre, tuple(ordered))


def seat_angles_geometry(players: int, angles: Sequence[float]) -> TableGeometry:
    """A geometry from explicit seat angles (degrees, image y down: 90 = bottom)."""
    return TableGeometry(players, (0.5, 0.5), tuple(float(a) % 360 for a in angles))


from vision.track.motion import (  # noqa: E402  (re-exported: the tracker's older home)
    MAX_VIEWS,
    MOVED,
    SAME_CARD,
    CardTracker,
    MotionGate,
    Track,
    TrackerTimes,
    moved,
    overlap,
    same_card,
)

__all__ = [
    "MAX_VIEWS", "MOVED", "SAME_CARD", "CardTracker", "MotionGate", "TableFileError",
    "TableGeometry", "Track", "TrackerTimes", "calibrate", "moved", "overlap", "same_card",
    "seat_angles_geometry",
]  # fmt: skip
