"""The table over time: where the seats are, what moves, and which cards have come to rest.

Three parts, each cheap enough for every frame:

* :class:`TableGeometry`: the seats around the table as directions from its centre. Default for
  an overhead camera: seat 0 at the image's bottom edge, then clockwise as seen from above (with
  four players: 1 left, 2 top, 3 right). ``trickcam calibrate`` writes one from a frame in which
  every player has put a card in front of himself.
* :class:`MotionGate`: frame differencing on a tiny grey copy of the frame. It records, per
  cell of a coarse grid, when something last moved there. Detection (the costly step) runs only
  when the table has settled, or now and then while something keeps moving elsewhere.
* :class:`CardTracker`: follows detected cards between those detections. A card counts as
  arrived once it has been seen in a region quiet for ``settle_s`` and seen again, in the same
  place, ``confirm_s`` later: a hand sliding a card in or hovering over one never makes an
  arrival. A card that is missing from a quiet region twice, ``gone_s`` apart, has left.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np


class TableFileError(ValueError):
    """A table file that cannot be read (the message names the file and the field)."""


@dataclass(frozen=True)
class TableGeometry:
    """Seats as directions from the table's centre.

    ``centre`` is in fractions of the image (x, y); ``seat_angles`` in degrees, measured in the
    image with y down (0 = right, 90 = bottom, 180 = left, 270 = top), seat 0 first.
    """

    players: int
    centre: tuple[float, float] = (0.5, 0.5)
    seat_angles: tuple[float, ...] = ()

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

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "centre": [round(self.centre[0], 4), round(self.centre[1], 4)],
            "seat_angles": [round(a, 2) for a in self.seat_angles],
        }

    @classmethod
    def from_json(cls, data: object, where: str = "table") -> TableGeometry:
        if not isinstance(data, dict):
            raise TableFileError(f"{where}: expected a JSON object, got {data!r}")
        try:
            players = int(data["players"])
            centre_raw = data.get("centre", [0.5, 0.5])
            centre = (float(centre_raw[0]), float(centre_raw[1]))
            angles = tuple(float(a) for a in data.get("seat_angles", ()))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise TableFileError(f"{where}: {exc!r} in {data!r}") from None
        return cls(players, centre, angles)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

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


class MotionGate:
    """When did something last move, per cell of a coarse grid over the frame?"""

    def __init__(self, long_side: int = 160, cell: int = 8, threshold: int = 14) -> None:
        self.long_side, self.cell, self.threshold = long_side, cell, threshold
        self.prev: np.ndarray | None = None
        self.last_motion: np.ndarray | None = None  # seconds, per cell
        self.scale = 1.0
        self.last_any = -math.inf

    def update(self, image: np.ndarray, t: float) -> bool:
        """Feed a frame; True when something moved since the previous one."""
        h, w = image.shape[:2]
        if self.prev is None:
            self.scale = self.long_side / max(h, w)
        sw, sh = max(8, round(w * self.scale)), max(8, round(h * self.scale))
        small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
        gh, gw = -(-sh // self.cell), -(-sw // self.cell)
        if self.prev is None or self.prev.shape != grey.shape:
            self.prev = grey
            self.last_motion = np.full((gh, gw), -math.inf)
            return False
        diff = cv2.absdiff(grey, self.prev)
        self.prev = grey
        moving = (diff > self.threshold).astype(np.uint8)
        padded = np.zeros((gh * self.cell, gw * self.cell), np.uint8)
        padded[:sh, :sw] = moving
        counts = padded.reshape(gh, self.cell, gw, self.cell).sum(axis=(1, 3))
        hot = counts >= 2
        if hot.any():
            assert self.last_motion is not None
            # a moving cell also disturbs its neighbours' detections (shadows, blur)
            hot = cv2.dilate(hot.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            self.last_motion[hot] = t
            self.last_any = t
            return True
        return False

    def last_motion_in(self, quad: np.ndarray) -> float:
        """The last time anything moved in the cells under ``quad`` (frame pixels)."""
        if self.last_motion is None:
            return -math.inf
        pts = np.asarray(quad, np.float64).reshape(-1, 2) * self.scale / self.cell
        gh, gw = self.last_motion.shape
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(gw, max(x1, x0 + 1)), min(gh, max(y1, y0 + 1))
        region = self.last_motion[y0:y1, x0:x1]
        return float(region.max()) if region.size else -math.inf


def _signature(crop: np.ndarray) -> np.ndarray:
    v = cv2.resize(np.ascontiguousarray(crop[:, :, :3]), (20, 30), interpolation=cv2.INTER_AREA)
    v = v.astype(np.float32)
    v -= v.mean()
    return v / (float(np.linalg.norm(v)) + 1e-6)


SAME_CARD = 0.9
"""Correlation of two tiny colour warps above which they show the same card."""


def same_card(a: np.ndarray, b: np.ndarray, threshold: float = SAME_CARD) -> bool:
    """Do two upright warps show the same card (either way up)? Cheap: 20 x 30 colour."""
    sa, sb = _signature(a), _signature(b)
    return max(float((sa * sb).sum()), float((sa * sb[::-1, ::-1]).sum())) >= threshold


MAX_VIEWS = 6
"""Upright warps kept per card: the first sightings, then later looks while it rests."""

MOVED = 0.08
"""A card whose corners shifted by more than this fraction of its size is not where it lay:
a card slid in never lands exactly where the last one lay."""


def moved(a: np.ndarray, b: np.ndarray) -> bool:
    """Has a card outline moved (either way round: outlines are ordered up to 180 degrees)?"""
    pa = np.asarray(a, np.float64).reshape(4, 2)
    pb = np.asarray(b, np.float64).reshape(4, 2)
    size = math.sqrt(max(abs(cv2.contourArea(pa.astype(np.float32))), 1.0))
    shift = min(float(np.abs(pa - np.roll(pb, k, axis=0)).max()) for k in (0, 2))
    return shift > MOVED * size


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two card outlines, as a fraction of the smaller one."""
    pa = np.asarray(a, np.float32).reshape(4, 2)
    pb = np.asarray(b, np.float32).reshape(4, 2)
    area_a, area_b = abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb))
    if min(area_a, area_b) <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(pa), cv2.convexHull(pb))
    return float(inter) / min(area_a, area_b)


@dataclass
class Track:
    """A card the tracker follows. ``status``: candidate -> present -> gone."""

    id: int
    quad: np.ndarray
    first_seen: float
    last_seen: float
    crops: list[np.ndarray] = field(default_factory=list)
    status: str = "candidate"
    misses: int = 0
    missing_since: float = math.inf

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.quad, np.float64).reshape(4, 2).mean(axis=0)

    @property
    def area(self) -> float:
        return float(abs(cv2.contourArea(np.asarray(self.quad, np.float32).reshape(4, 2))))


@dataclass(frozen=True)
class TrackerTimes:
    """Debounce times in seconds (tuned on rendered hands: slides take ~0.5 s, hands linger)."""

    settle_s: float = 0.25
    """A region must have been still this long before a card in it is believed."""
    confirm_s: float = 0.3
    """A new card must be seen again, in place, this much later to count as arrived."""
    gone_s: float = 0.4
    """A card missing from a still region this long (and twice) has left the table."""
    busy_interval_s: float = 0.5
    """While something keeps moving somewhere, still look this often."""


class CardTracker:
    """Cards arriving and leaving, from detections taken when the table is still."""

    def __init__(
        self,
        times: TrackerTimes | None = None,
        same: Callable[[Track, np.ndarray], bool] | None = None,
        replaceable: Callable[[Track, set[int], np.ndarray | None], bool] | None = None,
    ) -> None:
        self.times = times or TrackerTimes()
        self.same = same
        """Is a crop still the tracked card? Asked when something passed over the card since
        it was last seen and it has not moved (None: it is)."""
        self.replaceable = replaceable or (lambda tr, seen, crop: True)
        """May another card take this card's place, given the tracks seen in place now and
        the find there now (its upright warp; None: any find)? Not a card of a trick still
        on the table: a hand lying still over it makes it look different, and that is not a
        new card."""
        self.tracks: list[Track] = []
        self.next_id = 0
        self.last_detection = -math.inf
        self.dirty = True

    def live(self) -> list[Track]:
        return [t for t in self.tracks if t.status in ("candidate", "present")]

    def wants_detection(self, gate: MotionGate, t: float) -> bool:
        """Is it worth running detection on the frame at ``t``?"""
        times = self.times
        since = t - self.last_detection
        if self.dirty and t - gate.last_any >= times.settle_s:
            return True
        if self.dirty and since >= times.busy_interval_s:
            return True
        for tr in self.live():
            if (
                tr.status == "candidate"
                and t - tr.first_seen >= times.confirm_s
                and since >= times.confirm_s
            ):
                return True
            if tr.misses and t - tr.missing_since >= times.gone_s and since >= times.gone_s / 2:
                return True
        return False

    def note_motion(self, moved: bool) -> None:
        if moved:
            self.dirty = True

    def update(
        self,
        quads: np.ndarray,
        crops: np.ndarray,
        partial: np.ndarray,
        gate: MotionGate,
        t: float,
    ) -> tuple[list[Track], list[Track]]:
        """Fold one detection in; returns (tracks that arrived, tracks that left)."""
        times = self.times
        self.last_detection = t
        quiet_before = t - times.settle_s
        # a look taken while something still moved must be followed by one once it settles
        self.dirty = gate.last_any > quiet_before

        def quiet(quad: np.ndarray) -> bool:
            return gate.last_motion_in(quad) <= quiet_before

        live = self.live()
        used: set[int] = set()
        matched: dict[int, int] = {}
        pairs = []
        for i, q in enumerate(quads):
            c = np.asarray(q, np.float64).reshape(4, 2).mean(axis=0)
            area = float(abs(cv2.contourArea(np.asarray(q, np.float32).reshape(4, 2))))
            for k, tr in enumerate(live):
                dist = float(np.hypot(*(c - tr.centre)))
                ratio = area / max(tr.area, 1.0)
                if dist < 0.3 * math.sqrt(max(tr.area, 1.0)) and 0.6 < ratio < 1.65:
                    pairs.append((dist, i, k))
        for _dist, i, k in sorted(pairs):
            if i in used or k in matched:
                continue
            used.add(i)
            matched[k] = i
        arrived: list[Track] = []
        left: list[Track] = []
        seen = {live[k].id for k in matched}
        for k, tr in enumerate(live):
            i = matched.get(k)
            # something passed over it since it was last seen: is it still the same card?
            passed_over = i is not None and gate.last_motion_in(tr.quad) > tr.last_seen
            if (
                i is not None
                and passed_over
                and quiet(quads[i])
                and (
                    moved(tr.quad, quads[i])
                    or tr.misses > 0  # its place was seen empty since: another card
                    or (self.same is not None and not self.same(tr, crops[i]))
                )
            ):
                if not self.replaceable(tr, seen, crops[i]):
                    continue  # covered, not replaced: wait until it is seen clearly
                used.discard(i)
                del matched[k]
                i = None
                tr.misses = 2
                tr.missing_since = -math.inf
            if i is not None:
                if not quiet(quads[i]):
                    continue
                tr.quad, tr.last_seen, tr.misses, tr.missing_since = quads[i], t, 0, math.inf
                if tr.status == "candidate" and t - tr.first_seen >= times.confirm_s:
                    tr.status = "present"
                    tr.crops.append(crops[i])
                    arrived.append(tr)
                elif tr.status == "present" and len(tr.crops) < MAX_VIEWS:
                    tr.crops.append(crops[i])  # another look at a resting card
                continue
            if not quiet(tr.quad):
                continue
            if tr.status == "candidate":
                tr.status = "dropped"
                continue
            tr.misses += 1
            tr.missing_since = min(tr.missing_since, t)
            if tr.misses >= 2 and t - tr.missing_since >= times.gone_s:
                tr.status = "gone"
                left.append(tr)
        keep = [
            tr
            for tr in self.live()
            if tr.status == "present" and not self.replaceable(tr, seen, None)
        ]
        for i, q in enumerate(quads):
            if i in used or bool(partial[i]) or not quiet(q):
                continue
            if any(overlap(q, tr.quad) > 0.4 for tr in keep):
                continue  # a card of this trick, partly covered: not a new card
            self.tracks.append(Track(self.next_id, q, t, t, [crops[i]]))
            self.next_id += 1
        # forget what is long gone: the list stays short over a whole session
        self.tracks = [tr for tr in self.tracks if tr.status in ("candidate", "present")]
        arrived.sort(key=lambda tr: tr.first_seen)
        return arrived, left
