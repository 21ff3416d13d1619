"""A camera looking at a card table: where it stands, how its lens bends, what it sees.

Why: a real table is filmed by a phone or webcam on a stand at one side or corner, 35-90
degrees above the table, through a wide lens; the far cards come out small and
foreshortened, the edges of the view bend. Rendered hands must be seen that way to measure
the watcher on it. The world is the table: centimetres, origin at the table's centre, x and y
on the cloth, z up (:mod:`vision.render.tablestage` places the seats).

A :class:`Camera` projects world points to pixels (pinhole, then radial distortion), gives the
homography of the table plane (without distortion) and the per-pixel map of what the table,
the floor and the wall behind look like (:func:`background`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    size: tuple[int, int]
    """(width, height) in pixels."""
    K: np.ndarray
    R: np.ndarray
    """World -> camera rotation (camera axes: x right, y down, z forward)."""
    C: np.ndarray
    """Camera centre in world centimetres."""
    k1: float = 0.0
    k2: float = 0.0
    """Radial distortion of normalised coordinates (negative: barrel, a wide lens)."""

    def camera_coords(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, np.float64).reshape(-1, 3) - self.C) @ self.R.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N x 3) -> pixels (N x 2), lens distortion included. Points behind
        the camera come out far away (never drawn)."""
        xc = self.camera_coords(pts)
        z = np.maximum(xc[:, 2], 1e-3)
        x, y = xc[:, 0] / z, xc[:, 1] / z
        r2 = x * x + y * y
        d = 1 + self.k1 * r2 + self.k2 * r2 * r2
        u = self.K[0, 0] * x * d + self.K[0, 2]
        v = self.K[1, 1] * y * d + self.K[1, 2]
        return np.stack([u, v], axis=1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return self.camera_coords(pts)[:, 2]

    def scale_at(self, point: np.ndarray) -> float:
        """Pixels per centimetre for a small object at ``point`` facing the camera."""
        return float(self.K[0, 0] / max(self.depth(np.asarray(point))[0], 1e-3))

    def plane_homography(self) -> np.ndarray:
        """3 x 3 map from the table plane (x, y in cm, z = 0) to undistorted pixels."""
        t = -self.R @ self.C
        m = np.column_stack([self.R[:, 0], self.R[:, 1], t])
        h = self.K @ m
        return h / h[2, 2]

    def undistort_pixels(self, uv: np.ndarray) -> np.ndarray:
        """Pixels (N x 2) -> normalised undistorted coordinates (N x 2)."""
        x = (uv[:, 0] - self.K[0, 2]) / self.K[0, 0]
        y = (uv[:, 1] - self.K[1, 2]) / self.K[1, 1]
        xu, yu = x.copy(), y.copy()
        for _ in range(6):
            r2 = xu * xu + yu * yu
            d = 1 + self.k1 * r2 + self.k2 * r2 * r2
            xu, yu = x / d, y / d
        return np.stack([xu, yu], axis=1)

    def rays(self) -> np.ndarray:
        """Per pixel, the world direction of its ray (H x W x 3)."""
        w, h = self.size
        uu, vv = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        norm = self.undistort_pixels(np.stack([uu.ravel(), vv.ravel()], axis=1))
        d = np.column_stack([norm, np.ones(len(norm))]) @ self.R  # R^T applied to rows
        return d.reshape(h, w, 3)


def look_at(
    size: tuple[int, int],
    eye: np.ndarray,
    target: np.ndarray,
    hfov_deg: float,
    k1: float = 0.0,
    k2: float = 0.0,
) -> Camera:
    """A camera at ``eye`` looking at ``target``, its image's top edge away from the eye's side
    of the table (a phone propped up there, or held straight above)."""
    w, h = size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    fwd = np.asarray(target, np.float64) - np.asarray(eye, np.float64)
    fwd /= np.linalg.norm(fwd)
    horiz = np.array([fwd[0], fwd[1], 0.0])
    if np.linalg.norm(horiz) < 1e-6:  # straight down: the top edge points along -y
        horiz = np.array([0.0, -1.0, 0.0])
    horiz /= np.linalg.norm(horiz)
    right = np.cross(horiz, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rot = np.stack([right, down, fwd])
    return Camera(size, k, rot, np.asarray(eye, np.float64), k1, k2)


def place_camera(
    size: tuple[int, int],
    azimuth_deg: float,
    elevation_deg: float,
    hfov_deg: float,
    extent: np.ndarray,
    k1: float = 0.0,
    k2: float = 0.0,
    fill: float = 0.92,
    roll_deg: float = 0.0,
    min_horizontal: float = 0.0,
) -> Camera:
    """A camera on the side of the table at ``azimuth_deg`` (world angle, y toward seat 0: 90
    is seat 0's side when seats go round from 90), ``elevation_deg`` above the table (90:
    straight above), as close as it can be with the world points ``extent`` (N x 3: what must
    be in view) filling at most ``fill`` of the frame; never nearer the table's centre than
    ``min_horizontal`` (cm, along the table: a stand stands beside the table, not on it)."""
    a, e = math.radians(azimuth_deg), math.radians(elevation_deg)
    away = np.array([math.cos(a), math.sin(a), 0.0])
    pts = np.asarray(extent, np.float64).reshape(-1, 3)
    centre = pts.mean(axis=0)
    w, h = size

    def make(dist: float, shift: float) -> Camera:
        target = centre - away * shift
        horizontal = dist * math.cos(e)
        eye = target + away * horizontal + np.array([0.0, 0.0, dist * math.sin(e)])
        if elevation_deg >= 89.5:
            eye = target + np.array([0, 0, dist]) + away * 1e-3
        cam = look_at(size, eye, target, hfov_deg, k1, k2)
        if roll_deg:
            c, s = math.cos(math.radians(roll_deg)), math.sin(math.radians(roll_deg))
            roll = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
            cam = Camera(size, cam.K, roll @ cam.R, cam.C, k1, k2)
        return cam

    def fits(cam: Camera) -> tuple[bool, float]:
        uv = cam.project(pts)
        if (cam.depth(pts) <= 1).any():
            return False, 0.0
        mx, my = (1 - fill) / 2 * w, (1 - fill) / 2 * h
        ok = (uv[:, 0] >= mx) & (uv[:, 0] <= w - mx) & (uv[:, 1] >= my) & (uv[:, 1] <= h - my)
        # vertical balance: how far the extent's middle is from the frame's middle
        return bool(ok.all()), float((uv[:, 1].min() + uv[:, 1].max()) / 2 - h / 2)

    span = float(np.ptp(pts[:, :2], axis=0).max())
    shift = 0.0
    for _ in range(4):  # aim so the extent sits in the frame's middle, then come closest
        lo, hi = 0.3 * span, 8.0 * span
        if elevation_deg < 60:  # low: a stand beside the table (higher: a tripod leaning over)
            lo = max(lo, min_horizontal / max(math.cos(e), 1e-3))
        hi = max(hi, lo * 1.01)
        for _ in range(30):
            mid = (lo + hi) / 2
            if fits(make(mid, shift))[0]:
                hi = mid
            else:
                lo = mid
        _, off = fits(make(hi, shift))
        # a target further from the camera puts the table lower in the image
        shift -= off * hi / make(hi, shift).K[0, 0] / max(math.sin(e), 0.3)
    return make(hi, shift)


def background(
    cam: Camera,
    table: np.ndarray,
    table_cm: tuple[float, float],
    floor: np.ndarray,
    wall: tuple[int, int, int],
    round_table: bool = False,
) -> np.ndarray:
    """What the camera sees with nothing on the table: the table's cloth (``table``: an image
    covering ``table_cm`` = (width, depth) centred on the origin), the floor 75 cm below
    beyond its edge, and a wall where a ray never comes down."""
    w, h = cam.size
    d = cam.rays()
    cz = cam.C[2]
    dz = d[..., 2]
    down = dz < -1e-6
    s_table = np.where(down, -cz / np.where(down, dz, -1), np.inf)
    x = cam.C[0] + s_table * d[..., 0]
    y = cam.C[1] + s_table * d[..., 1]
    tw, td = table_cm
    if round_table:
        on_table = down & ((x / (tw / 2)) ** 2 + (y / (td / 2)) ** 2 <= 1.0)
    else:
        on_table = down & (np.abs(x) <= tw / 2) & (np.abs(y) <= td / 2)
    th, tww = table.shape[:2]
    mx = ((x + tw / 2) / tw * (tww - 1)).astype(np.float32)
    my = ((y + td / 2) / td * (th - 1)).astype(np.float32)
    out = cv2.remap(table, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    # the floor, 75 cm down, for rays passing the table's edge
    s_floor = np.where(down, (-75.0 - cz) / np.where(down, dz, -1), np.inf)
    fx = cam.C[0] + s_floor * d[..., 0]
    fy = cam.C[1] + s_floor * d[..., 1]
    fh, fw = floor.shape[:2]
    fmx = np.mod((fx + 400) / 800 * fw, fw - 1).astype(np.float32)
    fmy = np.mod((fy + 400) / 800 * fh, fh - 1).astype(np.float32)
    floor_img = cv2.remap(floor, fmx, fmy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    out = np.where(on_table[..., None], out, floor_img)
    # the table's edge: a dark rim, and a wall where rays go up or very far
    far = ~down | (s_floor > 1500)
    wall_img = np.empty_like(out)
    wall_img[:] = wall
    out = np.where(far[..., None], wall_img, out)
    rim = cv2.morphologyEx(on_table.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    out[rim > 0] = (out[rim > 0] * 0.45).astype(np.uint8)
    del w, h
    return out
