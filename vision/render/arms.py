"""Arms and hands over the table, in three dimensions, with the shadows they cast.

Why: on a real table an arm brings every card, hovers, covers the played cards and sweeps the
trick; it is big, close to the camera, moving (blurred), of any skin tone, in a sleeve, and
casts a soft shadow on the cards. A flat blob painted on the cloth would teach nothing. Each
arm is a chain of tapered capsules (upper arm, forearm) from the player's shoulder to the
wrist (two-link inverse kinematics, elbow down and out), a palm, four fingers and a thumb,
projected through the :class:`~vision.render.camera.Camera` and shaded as a cylinder; its
shadow is the same chain dropped onto the table along the light.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import Camera

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (196, 212, 238), (160, 186, 226), (128, 158, 206), (100, 134, 186),
    (74, 104, 150), (52, 76, 116), (36, 52, 82),
)  # fmt: skip
"""BGR, very fair to very dark."""

UPPER_CM, FORE_CM = 29.0, 26.0


@dataclass(frozen=True)
class Person:
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_to: float
    """How far down the forearm the sleeve reaches (0: short sleeves, 1: to the wrist)."""
    right_handed: bool = True


CLOTH: tuple[tuple[int, int, int], ...] = (
    (40, 30, 25), (90, 60, 30), (130, 90, 50), (60, 60, 60), (150, 150, 150), (225, 225, 225),
    (40, 40, 120), (50, 90, 50), (120, 160, 190), (80, 40, 90), (30, 100, 160), (20, 20, 20),
)  # fmt: skip
"""BGR sleeves: navy, denim, grey, white, black, wine, olive, beige..."""


def person(rng: np.random.Generator) -> Person:
    skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    base = np.array(CLOTH[int(rng.integers(len(CLOTH)))], np.float64)
    sleeve = tuple(
        int(v) for v in np.clip(base * rng.uniform(0.8, 1.2) + rng.normal(0, 8, 3), 0, 255)
    )
    return Person(skin, sleeve, float(rng.choice([0.0, 0.0, 0.6, 0.85, 0.95])), rng.random() < 0.85)  # type: ignore[arg-type]


Capsule = tuple[np.ndarray, np.ndarray, float, float, str]
"""(start, end, start radius, end radius, part: sleeve, skin, finger)."""


def skeleton(shoulder: np.ndarray, out: np.ndarray, pose: np.ndarray) -> list[Capsule]:
    """Capsules of an arm from ``shoulder`` (3-vector) to the wrist pose (x, y, z, heading in
    degrees, flat 0..1); ``out`` is the horizontal direction the elbow bends toward."""
    wrist = np.array(pose[:3], np.float64)
    heading = math.radians(float(pose[3]))
    flat = float(pose[4])
    vec = wrist - shoulder
    dist = float(np.linalg.norm(vec))
    reach = UPPER_CM + FORE_CM - 1.0
    if dist > reach:  # the player leans in: the shoulder comes forward
        shoulder = wrist - vec / dist * reach
        vec = wrist - shoulder
        dist = reach
    axis = vec / max(dist, 1e-6)
    a = (UPPER_CM**2 - FORE_CM**2 + dist**2) / (2 * dist)
    h = math.sqrt(max(UPPER_CM**2 - a * a, 0.0))
    bend = np.array([out[0] * 0.8, out[1] * 0.8, -0.6])
    bend -= axis * float(bend @ axis)
    bend /= max(float(np.linalg.norm(bend)), 1e-6)
    elbow = shoulder + axis * a + bend * h
    fwd = np.array([math.cos(heading), math.sin(heading), -0.25 + 0.2 * flat])
    fwd /= np.linalg.norm(fwd)
    side = np.array([-math.sin(heading), math.cos(heading), 0.0])
    palm_len, palm_w = 8.5, 8.0 + 1.0 * flat
    knuckles = wrist + fwd * palm_len
    caps: list[Capsule] = [
        (shoulder, elbow, 5.2, 4.4, "upper"),
        (elbow, wrist, 4.2, 2.9, "fore"),
        (wrist + fwd * 1.5, knuckles - fwd * 1.0, 3.6, 3.8, "palm"),
    ]
    spread = 0.05 + 0.12 * flat
    for k, length in zip((-1.5, -0.5, 0.5, 1.5), (5.5, 6.8, 7.2, 6.4), strict=True):
        base = knuckles + side * k * palm_w * 0.22
        d = fwd * math.cos(k * spread) + side * math.sin(k * spread)
        d[2] -= 0.35 * (1 - flat)  # gripping fingers curl down onto the card
        d /= np.linalg.norm(d)
        caps.append((base, base + d * length, 0.95, 0.75, "finger"))
    thumb_base = wrist + fwd * 3.0 + side * palm_w * 0.42
    thumb_dir = fwd * 0.7 + side * 0.55 + np.array([0, 0, -0.2])
    thumb_dir /= np.linalg.norm(thumb_dir)
    caps.append((thumb_base, thumb_base + thumb_dir * 5.5, 1.2, 0.9, "finger"))
    return caps


def _polygon(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float) -> np.ndarray:
    d = p1 - p0
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6)
    return np.array([p0 + n * r0, p1 + n * r1, p1 - n * r1, p0 - n * r0])


def _draw_capsule(img: np.ndarray, p0: np.ndarray, p1: np.ndarray, r0: float, r1: float,
                  colour: tuple[float, ...], offset: np.ndarray) -> None:  # fmt: skip
    a, b = p0 - offset, p1 - offset
    poly = _polygon(a, b, r0, r1)
    cv2.fillPoly(img, [np.round(poly * 4).astype(np.int32)], colour, cv2.LINE_AA, shift=2)
    for c, r in ((a, r0), (b, r1)):
        cv2.circle(img, (int(round(c[0] * 4)), int(round(c[1] * 4))), max(1, int(round(r * 4))),
                   colour, -1, cv2.LINE_AA, shift=2)  # fmt: skip


def _projected(
    cam: Camera, caps: list[Capsule]
) -> list[tuple[np.ndarray, np.ndarray, float, float, str, float]]:
    out = []
    for p0, p1, r0, r1, part in caps:
        pts = np.array([p0, p1])
        uv = cam.project(pts)
        depth = cam.depth(pts)
        if (depth <= 5).any():
            continue
        f = cam.K[0, 0]
        out.append((uv[0], uv[1], r0 * f / depth[0], r1 * f / depth[1], part, float(depth.mean())))
    return out


def arm_box(cam: Camera, caps: list[Capsule]) -> tuple[int, int, int, int] | None:
    """The pixel box (x0, y0, x1, y1, unclipped) an arm's drawing covers."""
    proj = _projected(cam, caps)
    if not proj:
        return None
    pts = np.concatenate([[p0, p1] for p0, p1, *_ in proj])
    rad = max(max(r0, r1) for _, _, r0, r1, *_ in proj)
    x0, y0 = np.floor(pts.min(axis=0) - rad - 4).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0) + rad + 4).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def draw_arm(frame: np.ndarray, cam: Camera, caps: list[Capsule], who: Person,
             light: np.ndarray, origin: tuple[int, int] = (0, 0)) -> None:  # fmt: skip
    """Draw one arm (its capsules) onto ``frame`` in place: far parts first, shaded.
    ``frame`` may be a part of the picture whose top-left pixel is ``origin``."""
    proj = _projected(cam, caps)
    if not proj:
        return
    shift = np.asarray(origin, np.float64)
    proj = [(p0 - shift, p1 - shift, *rest) for p0, p1, *rest in proj]
    h, w = frame.shape[:2]
    pts = np.concatenate([[p0, p1] for p0, p1, *_ in proj])
    rad = max(max(r0, r1) for _, _, r0, r1, *_ in proj)
    x0, y0 = np.floor(pts.min(axis=0) - rad - 4).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0) + rad + 4).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    # drawn at half size (an arm is smooth), then laid over the frame
    half = 0.5
    lw, lh = max(2, int(math.ceil((x1 - x0) * half))), max(2, int(math.ceil((y1 - y0) * half)))
    off = np.array([x0, y0], np.float64)
    proj = [((p0 - off) * half, (p1 - off) * half, r0 * half, r1 * half, part, d)
            for p0, p1, r0, r1, part, d in proj]  # fmt: skip
    zero = np.zeros(2)
    layer = np.zeros((lh, lw, 3), np.float32)
    alpha = np.zeros((lh, lw), np.float32)
    skin = np.array(who.skin, np.float32)
    sleeve = np.array(who.sleeve, np.float32)
    lx, ly = float(light[0]), float(light[1])
    for p0, p1, r0, r1, part, _ in sorted(proj, key=lambda c: -c[5]):
        if part == "upper" or (part == "fore" and who.sleeve_to >= 0.95):
            base, c0, c1 = sleeve, p0, p1
        elif part == "fore" and who.sleeve_to > 0:
            mid = p0 + (p1 - p0) * who.sleeve_to
            rm = r0 + (r1 - r0) * who.sleeve_to
            _draw_part(layer, alpha, p0, mid, r0 * 1.1, rm * 1.1, sleeve, zero, lx, ly)
            base, c0, c1, r0 = skin, mid, p1, rm
        else:
            base, c0, c1 = skin, p0, p1
        _draw_part(layer, alpha, c0, c1, r0, r1, base, zero, lx, ly)
    k = max(3, int(round(rad * half * 0.15)) | 1)
    layer = cv2.GaussianBlur(layer, (k, k), 0)
    size = (x1 - x0, y1 - y0)
    alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_LINEAR)
    layer = cv2.resize(layer, size, interpolation=cv2.INTER_LINEAR)
    roi = frame[y0:y1, x0:x1]
    frame[y0:y1, x0:x1] = cv2.blendLinear(
        np.clip(layer, 0, 255).astype(np.uint8), roi, alpha, np.ascontiguousarray(1.0 - alpha)
    )


def _draw_part(layer: np.ndarray, alpha: np.ndarray, p0: np.ndarray, p1: np.ndarray, r0: float,
               r1: float, base: np.ndarray, off: np.ndarray, lx: float, ly: float) -> None:  # fmt: skip
    """A capsule shaded as a lit cylinder: a darker rim, the body, a highlight on the lit side."""
    d = p1 - p0
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6)
    lit = 1.0 if (n[0] * lx + n[1] * ly) < 0 else -1.0
    _draw_capsule(layer, p0, p1, r0, r1, tuple(float(v) for v in base * 0.62), off)
    cv2.fillPoly(
        alpha,
        [np.round((_polygon(p0 - off, p1 - off, r0, r1)) * 4).astype(np.int32)],
        1.0,
        cv2.LINE_AA,
        shift=2,
    )
    for c, r in ((p0 - off, r0), (p1 - off, r1)):
        cv2.circle(
            alpha,
            (int(round(c[0] * 4)), int(round(c[1] * 4))),
            max(1, int(round(r * 4))),
            1.0,
            -1,
            cv2.LINE_AA,
            shift=2,
        )
    _draw_capsule(layer, p0, p1, r0 * 0.8, r1 * 0.8, tuple(float(v) for v in base * 0.9), off)
    shift = n * lit * 0.3
    _draw_capsule(layer, p0 + shift * r0, p1 + shift * r1, r0 * 0.35, r1 * 0.35,
                  tuple(float(min(255.0, v * 1.12 + 8)) for v in base), off)  # fmt: skip


def shadow_mask(cam: Camera, caps: list[Capsule], light: np.ndarray, mask: np.ndarray,
                scale: float) -> None:  # fmt: skip
    """Add the arm's shadow on the table (z = 0, along ``light``, pointing down) to ``mask``,
    a picture of the frame shrunk by ``scale``."""
    lz = float(light[2])
    if lz >= -1e-3:
        return
    layer = np.zeros(mask.shape, np.float32)
    top = 0.0
    for p0, p1, r0, r1, _ in caps:
        s0 = p0 - light * (p0[2] / lz)
        s1 = p1 - light * (p1[2] / lz)
        s0[2] = s1[2] = 0.0
        uv = cam.project(np.array([s0, s1])) * scale
        f = cam.K[0, 0] * scale / max(float(cam.depth(np.array([s0]))[0]), 1.0)
        _draw_capsule(layer, uv[0], uv[1], r0 * f, r1 * f, (1.0,), np.zeros(2))
        top = max(top, float(p0[2]), float(p1[2]))
    if not layer.any():
        return
    soft = max(3, int(round(cam.K[0, 0] * scale / 120.0 * (1 + top / 10))) | 1)
    layer = cv2.GaussianBlur(layer, (soft, soft), 0)
    np.maximum(mask, layer, out=mask)
