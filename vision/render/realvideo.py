"""Render a hand at a realism level (:mod:`vision.render.realism`): the video, the true record,
and the frame a person would calibrate from.

Every frame is drawn in three dimensions through the level's camera: the table's cloth and
the room around it (:func:`vision.render.camera.background`, once), the piles, the stock and
the players' held cards, the cards lying and moving (each pasted with its own perspective),
the shadows, the arms and hands (:mod:`vision.render.arms`), then the light (exposure and white
balance drift, glare), noise, the camera's shake and bump, and compression. The true record is
exact: each play's seat, card and the time its card came to rest, from the staging
(:mod:`vision.render.tablestage`), never from the pictures.

Beside ``OUT.mp4`` go ``OUT.json`` (the truth, as :func:`vision.render.truth.save_truth`
writes it) and ``OUT.setup.png``: the same camera before the deal, one card in front of each
player, for ``trickcam calibrate``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from rules.cards import Card
from vision.render import textures
from vision.render.arms import Person, arm_box, draw_arm, shadow_mask, skeleton
from vision.render.camera import Camera, background, place_camera
from vision.render.decks import HELDOUT, list_decks, load_deck
from vision.render.handstage import STAGERS
from vision.render.realism import LEVELS, Level, LightDraw, draw_camera, draw_light, pace, people
from vision.render.tablestage import CARD_LONG_CM, ArmItem, CardItem, Stage

CLEAR_VIEW = 0.25
"""At most this much of any setup card may the players' held cards and arms hide from where
the camera is put (else it is moved between two players, or higher)."""

REACH_VIEW = 0.5
"""At most this much of any other seat's setup card may a player's arm hide, reaching in to
lay a card, from where the camera is put (else it is moved): a stand behind a player's
shoulder sees his sleeve over the whole table with each card he plays (fresh seed 9990:
every level's camera there, the far cards hidden from landing to gathering)."""


def _blocked(painter: Painter) -> float:
    """How much of the likeliest-hidden setup card the players' held cards and the arms holding
    them hide from the camera (0-1)."""
    st, cam = painter.stage, painter.cam
    if not st.fans:
        return 0.0
    w, h = cam.size
    cover = np.zeros((h, w, 3), np.uint8)
    for fan in st.fans:
        painter._fan(cover, fan.seat, fan.cards, 0.0)
    return _setup_hidden(painter, cover.max(axis=2) > 0)


def _reach_blocked(painter: Painter) -> float:
    """How much of another seat's setup card (the likeliest hidden) a player's arm hides from
    the camera, reaching in to lay a card in the middle of his side of the play area (0-1)."""
    st, cam = painter.stage, painter.cam
    w, h = cam.size
    worst = 0.0
    for seat in range(len(st.angles)):
        spot = st.unit(seat) * float(np.mean(st.play_r))
        pose = np.array([*spot, 3.0, st.angles[seat] + 180.0, 1.0])
        cover = np.zeros((h, w, 3), np.uint8)
        draw_arm(cover, cam, painter.reach(seat, pose), painter.who[seat], painter.light.direction)
        worst = max(worst, _setup_hidden(painter, cover.max(axis=2) > 0, but=seat))
    return worst


def _setup_hidden(painter: Painter, hidden: np.ndarray, but: int | None = None) -> float:
    """The largest share of a setup card (but seat ``but``'s) under ``hidden`` (0-1)."""
    cam = painter.cam
    h, w = hidden.shape
    worst = 0.0
    for seat, _card, xy, a in painter.stage.setup:
        if seat == but:
            continue
        corners = cam.project(painter.card_corners(np.array([*xy, 0.0, a])))
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
        area = int(mask.sum())
        if area:
            worst = max(worst, float(hidden[mask > 0].sum()) / area)
    return worst


def _view_hidden(painter: Painter) -> float:
    """How badly the players hide the table from the camera: 1 or less is a clear view
    (:data:`CLEAR_VIEW`, :data:`REACH_VIEW`)."""
    return max(_blocked(painter) / CLEAR_VIEW, _reach_blocked(painter) / REACH_VIEW)


def _between_seats(stage: Stage, azimuth: float) -> list[float]:
    """The directions between two neighbouring seats, nearest ``azimuth`` first."""
    n = len(stage.angles)
    mids = [stage.angles[k] - 180.0 / n for k in range(n)]
    return sorted(mids, key=lambda m: abs((m - azimuth + 180.0) % 360.0 - 180.0))


def _pick_deck(rng: np.random.Generator, decks: list[str] | None, heldout: bool | None) -> str:
    known = {d.name: d for d in list_decks()}
    for name in decks or ():
        if name not in known:
            raise ValueError(f"deck {name!r}: expected one of {', '.join(sorted(known))}")
    names = decks or [
        n for n, d in known.items()
        if d.source == "aisleriot" and (heldout is None or d.heldout == heldout)
    ]  # fmt: skip
    if not names:
        raise ValueError("no deck design to render with")
    return names[int(rng.integers(len(names)))]


class Painter:
    """Draws the staged hand through the camera, frame by frame."""

    def __init__(self, stage: Stage, cam: Camera, level: Level, light: LightDraw,
                 deck: dict[str, np.ndarray], who: list[Person], nrng: np.random.Generator,
                 base: np.ndarray, fps: float) -> None:  # fmt: skip
        self.stage, self.cam, self.level, self.light = stage, cam, level, light
        self.deck, self.who, self.fps = deck, who, fps
        self.base = base
        w, h = cam.size
        grad = textures.smooth_noise(nrng, h, w, 2)
        cast = nrng.uniform(0.92, 1.08, 3).astype(np.float32)
        level_gain = float(nrng.uniform(0.85, 1.1))
        gain = (level_gain * (0.82 + 0.3 * grad))[..., None] * cast
        self.gain = np.clip(gain * 128, 0, 255).astype(np.uint8)  # x/128: saturating SIMD
        self.noise = []
        for _ in range(3):  # as two unsigned parts: added, then taken away, saturating
            n = np.repeat(np.round(nrng.normal(0, light.noise, (h, w, 1))), 3, axis=2)
            self.noise.append(
                (np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
            )
        self.aspect = deck["AS"].shape[1] / deck["AS"].shape[0]
        self._pyramid: dict[tuple[str, int], np.ndarray] = {}
        self._static_key: object = None
        self._static: np.ndarray | None = None
        self.exposure_s = 1 / 50 if level.hands else 0.0
        self.frame_index = 0

    # -- cards ----------------------------------------------------------------------------
    def _image(self, label: str, long_px: float) -> np.ndarray:
        """The card image at about 1.5x the size it is drawn at (no aliasing, cheap warps)."""
        k = 0
        while k < 3 and 320 / 2 ** (k + 1) >= 1.5 * long_px:
            k += 1
        key = (label, k)
        if key not in self._pyramid:
            img = self.deck[label]
            for _ in range(k):
                img = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            self._pyramid[key] = img
        return self._pyramid[key]

    def card_corners(self, pose: np.ndarray) -> np.ndarray:
        """World corners (TL, TR, BR, BL of the upright card image) of a flat card."""
        x, y, z, angle = (float(v) for v in pose[:4])
        lw, ll = CARD_LONG_CM * self.aspect, CARD_LONG_CM
        # clockwise as seen from above (z up), as the image's corners are: not mirrored
        local = np.array(
            [[-lw / 2, ll / 2], [lw / 2, ll / 2], [lw / 2, -ll / 2], [-lw / 2, -ll / 2]]
        )
        a = math.radians(angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        xy = local @ rot.T + [x, y]
        return np.column_stack([xy, np.full(4, z)])

    def paste(self, frame: np.ndarray, label: str, corners: np.ndarray, blur: np.ndarray | None = None,
              shade: float = 1.0) -> None:  # fmt: skip
        if (self.cam.depth(corners) <= 2).any():
            return
        quad = self.cam.project(corners)
        long_px = max(np.hypot(*(quad[0] - quad[3])), np.hypot(*(quad[1] - quad[2])))
        img = self._image(label, long_px)
        h, w = frame.shape[:2]
        pad = 4 + (0 if blur is None else int(np.abs(blur).max()) + 2)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        ih, iw = img.shape[:2]
        src = np.array([[0, 0], [iw - 1, 0], [iw - 1, ih - 1], [0, ih - 1]], np.float32)
        m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        face = cv2.warpPerspective(np.ascontiguousarray(img[:, :, :3]), m, size).astype(np.float32)
        alpha = cv2.warpPerspective(img[:, :, 3], m, size).astype(np.float32) / 255.0
        if blur is not None and np.hypot(*blur) >= 1.5:
            kern = _line_kernel(blur)
            face = cv2.filter2D(face * alpha[..., None], -1, kern)
            alpha = cv2.filter2D(alpha, -1, kern)
            face = face / np.maximum(alpha[..., None], 1e-3)
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        # a thin shadow round the card: it lies on the cloth, a little raised
        rim = cv2.GaussianBlur(alpha, (5, 5), 0)
        roi *= 1 - 0.35 * np.clip(rim - alpha, 0, 1)[..., None]
        a = alpha[..., None]
        frame[y0:y1, x0:x1] = np.clip(roi * (1 - a) + face * shade * a, 0, 255).astype(np.uint8)

    # -- the edges: piles, stock, held cards ----------------------------------------------
    def _pile(
        self, frame: np.ndarray, x: float, y: float, angle: float, count: int, seed: int
    ) -> None:
        r = random.Random(seed)
        for k in range(min(count, 7)):
            pose = np.array([x + r.uniform(-0.6, 0.6), y + r.uniform(-0.6, 0.6), 0.04 * k,
                             angle + r.uniform(-12, 12) + (90 if r.random() < 0.2 else 0)])  # fmt: skip
            self.paste(frame, "back", self.card_corners(pose), shade=0.9 + 0.02 * k)

    def _fan(self, frame: np.ndarray, seat: int, cards: list[Card], t: float) -> None:
        st = self.stage
        n = len(cards)
        if n == 0:
            return
        u = st.unit(seat)
        side = st.side(seat)
        pivot = np.array([*(u * (st.edge_r + 3.0) - side * 6.0), 13.0])
        eye = np.array([*(u * (st.edge_r + 28.0)), 48.0])
        normal = eye - pivot
        normal /= np.linalg.norm(normal)
        up = np.array([0.0, 0.0, 1.0]) - normal * normal[2]
        up /= np.linalg.norm(up)
        right = np.cross(up, normal)
        sway = 2.5 * math.sin(0.9 * t + seat)
        shows_face = float((self.cam.C - pivot) @ normal) > 0
        lw, ll = CARD_LONG_CM * self.aspect, CARD_LONG_CM
        for k, card in enumerate(cards):
            theta = math.radians((k - (n - 1) / 2) * 10.0 + sway)
            r2 = right * math.cos(theta) + up * math.sin(theta)
            u2 = up * math.cos(theta) - right * math.sin(theta)
            corners = [pivot + r2 * x + u2 * y for x, y in
                       ((-lw / 2, 0.85 * ll), (lw / 2, 0.85 * ll), (lw / 2, -0.15 * ll), (-lw / 2, -0.15 * ll))]  # fmt: skip
            label = str(card) if shows_face else "back"
            if not shows_face:  # seen from behind: mirror the corner order
                corners = [corners[1], corners[0], corners[3], corners[2]]
            self.paste(frame, label, np.array(corners), shade=0.85)
        # the hand holding them
        shoulder = np.array([*(u * (st.edge_r + 14.0) - side * 14.0), 30.0])
        pose = np.array([*pivot[:2], pivot[2] - 2.0, st.angles[seat] + 180.0, 0.0])
        draw_arm(
            frame,
            self.cam,
            skeleton(shoulder, -side, pose)[:3],
            self.who[seat],
            self.light.direction,
        )

    # -- a frame --------------------------------------------------------------------------
    def _moving(self, item: CardItem, t: float, pose: np.ndarray) -> bool:
        before = item.motion.at(t - 1.0 / self.fps)
        return pose[2] > 0.01 or before is None or bool(np.abs(before - pose).max() > 1e-6)

    def static(
        self, t: float, lying: list[tuple[int, CardItem, np.ndarray]], setup: bool
    ) -> np.ndarray:
        st = self.stage
        fans = []
        for fan in st.fans:
            c = fan.count(t)
            fans.append(tuple(str(x) for x in fan.cards[len(fan.cards) - c :]))
        key = (
            tuple((i, tuple(np.round(p, 2))) for i, _, p in lying),
            tuple(p.count(t) for p in st.piles),
            None if st.stock is None else st.stock.count(t),
            tuple(fans), setup,
        )  # fmt: skip
        if key == self._static_key and self._static is not None:
            return self._static
        img = self.base.copy()
        for _i, item, pose in lying:
            if item.kind == "fixture":
                self.paste(img, str(item.card), self.card_corners(pose))
        if st.stock is not None:
            self._pile(img, st.stock.x, st.stock.y, st.stock.angle, st.stock.count(t), 7)
        for k, pile in enumerate(st.piles):
            self._pile(img, pile.x, pile.y, pile.angle, pile.count(t), 100 + k)
        for _i, item, pose in lying:
            if item.kind != "fixture":
                self.paste(img, str(item.card), self.card_corners(pose))
        for fan in st.fans:
            c = fan.count(t)
            self._fan(img, fan.seat, fan.cards[len(fan.cards) - c :], 0.0)
        self._static_key, self._static = key, img
        return img

    def arm_caps(self, arm: ArmItem, t: float) -> list | None:
        pose = arm.motion.at(t)
        if pose is None:
            return None
        return self.reach(arm.seat, pose)

    def reach(self, seat: int, pose: np.ndarray) -> list:
        """The capsules of ``seat``'s arm, its wrist at ``pose`` (x, y, z, heading, flat)."""
        st = self.stage
        u, side = st.unit(seat), st.side(seat)
        hand = 1.0 if self.who[seat].right_handed else -1.0
        shoulder = np.array([*(u * (st.edge_r + 12.0) + side * 15.0 * hand), 32.0])
        return skeleton(shoulder, side * hand, pose)

    def frame(self, t: float, setup: bool = False) -> np.ndarray:
        st, cam, light = self.stage, self.cam, self.light
        if setup:
            lying = [(i, CardItem(c, True, None, "setup"), np.array([*xy, 0.0, a]))  # type: ignore[arg-type]
                     for i, (_, c, xy, a) in enumerate(st.setup)]  # fmt: skip
            moving: list[tuple[int, CardItem, np.ndarray]] = []
        else:
            lying, moving = [], []
            for i, item in enumerate(st.cards):
                pose = item.motion.at(t)
                if pose is None:
                    continue
                (moving if self._moving(item, t, pose) else lying).append((i, item, pose))
        img = self.static(-1.0 if setup else t, lying, setup).copy()
        dt = self.exposure_s
        for _i, item, pose in sorted(moving, key=lambda m: (m[2][2], m[0])):
            blur = None
            if dt > 0:
                a, b = item.motion.at(t - dt / 2), item.motion.at(t + dt / 2)
                if a is not None and b is not None:
                    pa = cam.project(np.array([a[:3]]))[0]
                    pb = cam.project(np.array([b[:3]]))[0]
                    blur = pb - pa
            self.paste(
                img, str(item.card) if item.face_up else "back", self.card_corners(pose), blur
            )
        arms = [] if setup else [(a, self.arm_caps(a, t)) for a in st.arms]
        arms = [(a, c) for a, c in arms if c is not None]
        h, w = img.shape[:2]
        q = 4  # shadows are soft: drawn on a quarter-size picture
        mask = np.zeros((h // q, w // q), np.float32)
        if self.level.hands:
            for _a, caps in arms:
                shadow_mask(cam, caps, light.direction, mask, 1.0 / q)
        for t0, t1, p0, p1, radius, dark in light.shadows:
            if t0 <= t <= t1:
                s = (t - t0) / (t1 - t0)
                centre = p0 + (p1 - p0) * s
                fade = min(1.0, 4 * s, 4 * (1 - s))
                ring = np.array([[*(centre + radius * np.array([math.cos(a), 0.7 * math.sin(a)])), 0.0]
                                 for a in np.linspace(0, 2 * math.pi, 24)])  # fmt: skip
                poly = np.round(cam.project(ring) / q).astype(np.int32)
                layer = np.zeros_like(mask)
                cv2.fillPoly(layer, [poly], dark * fade)
                np.maximum(mask, cv2.GaussianBlur(layer, (0, 0), 6), out=mask)
        ys, xs = np.nonzero(mask > 0.01)
        if len(ys):
            y0, y1 = max(0, (ys.min() - 1) * q), min(h, (ys.max() + 2) * q)
            x0, x1 = max(0, (xs.min() - 1) * q), min(w, (xs.max() + 2) * q)
            full = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
            roi = img[y0:y1, x0:x1].astype(np.float32) * (1 - 0.5 * full[..., None])
            img[y0:y1, x0:x1] = roi.astype(np.uint8)
        for arm, caps in sorted(arms, key=lambda ac: -float(cam.depth(np.array([ac[1][1][1]]))[0])):
            if dt > 0:
                self._blurred_arm(img, arm, t, dt)
            else:
                draw_arm(img, cam, caps, self.who[arm.seat], light.direction)
        return self.finish(img, t)

    def _blurred_arm(self, img: np.ndarray, arm: ArmItem, t: float, dt: float) -> None:
        """The arm averaged over the exposure (three instants): blurred where it moves fast."""
        layers = []
        for s in (-0.5, 0.0, 0.5):
            caps = self.arm_caps(arm, t + s * dt)
            if caps is None:
                caps = self.arm_caps(arm, t)
            if caps is None:
                return
            layers.append(caps)
        a = self.cam.project(np.array([layers[0][1][1]]))[0]
        b = self.cam.project(np.array([layers[2][1][1]]))[0]
        if np.hypot(*(b - a)) < 2.0:
            draw_arm(img, self.cam, layers[1], self.who[arm.seat], self.light.direction)
            return
        boxes = [b for b in (arm_box(self.cam, c) for c in layers) if b is not None]
        if not boxes:
            return
        h, w = img.shape[:2]
        x0, y0 = max(0, min(b[0] for b in boxes)), max(0, min(b[1] for b in boxes))
        x1, y1 = min(w, max(b[2] for b in boxes)), min(h, max(b[3] for b in boxes))
        if x1 <= x0 or y1 <= y0:
            return
        part = img[y0:y1, x0:x1]
        acc = np.zeros(part.shape, np.float32)
        for caps in layers:
            copy = part.copy()
            draw_arm(copy, self.cam, caps, self.who[arm.seat], self.light.direction, (x0, y0))
            acc += copy
        part[:] = (acc / len(layers)).astype(np.uint8)

    def finish(self, img: np.ndarray, t: float) -> np.ndarray:
        """Light, glare, noise, the camera's shake and bump, compression."""
        light = self.light
        amp, period, phase = light.exposure
        expo = 1.0 + amp * math.sin(2 * math.pi * t / period + phase)
        wb = np.array([1.0 + a * math.sin(2 * math.pi * t / p + ph) for a, p, ph in light.balance],
                      np.float32) if light.balance.any() else np.ones(3, np.float32)  # fmt: skip
        out = cv2.multiply(img, self.gain, scale=1 / 128)
        if light.exposure[0] or light.balance.any():
            f = expo * wb
            out = cv2.multiply(out, (float(f[0]), float(f[1]), float(f[2]), 0.0))
        if light.glare:
            h, w = img.shape[:2]
            q = 4
            layer = np.zeros((h // q, w // q), np.float32)
            for xy, radius, strength in light.glare:
                s = strength * (0.65 + 0.35 * math.sin(0.8 * t + xy[0]))
                ring = np.array([[*(xy + radius * np.array([math.cos(a), math.sin(a)])), 0.0]
                                 for a in np.linspace(0, 2 * math.pi, 20)])  # fmt: skip
                poly = np.round(self.cam.project(ring) / q).astype(np.int32)
                cv2.fillPoly(layer, [poly], s)
            layer = cv2.GaussianBlur(layer, (0, 0), 3)
            ys, xs = np.nonzero(layer > 0.01)
            if len(ys):
                y0, y1 = max(0, (ys.min() - 1) * q), min(h, (ys.max() + 2) * q)
                x0, x1 = max(0, (xs.min() - 1) * q), min(w, (xs.max() + 2) * q)
                spot = cv2.resize(layer, (w, h))[y0:y1, x0:x1]
                roi = out[y0:y1, x0:x1].astype(np.float32)
                lum = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) / 255.0
                roi += (spot * 230.0 * lum * lum)[..., None]
                out[y0:y1, x0:x1] = cv2.convertScaleAbs(roi)
        plus, minus = self.noise[self.frame_index % len(self.noise)]
        self.frame_index += 1
        frame = cv2.subtract(cv2.add(out, plus), minus)
        m = self.camera_motion(t)
        if m is not None:
            frame = cv2.warpAffine(
                frame, m, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REFLECT
            )
        if light.jpeg:
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
            if ok:
                frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return frame

    def camera_motion(self, t: float) -> np.ndarray | None:
        """The 2 x 3 image motion of a shaking, once bumped, camera at ``t`` (None: still)."""
        light = self.light
        if light.shake <= 0 and light.bump is None:
            return None
        dx = light.shake * (math.sin(7.1 * t) * 0.6 + math.sin(13.7 * t + 1.0) * 0.4)
        dy = light.shake * (math.sin(8.3 * t + 2.0) * 0.6 + math.sin(11.9 * t) * 0.4)
        angle = 0.0
        if light.bump is not None:
            tb, shift, rot = light.bump
            if t >= tb:
                s = t - tb
                settle = 1.0 - math.exp(-s / 0.08) * math.cos(s * 40.0)
                dx += float(shift[0]) * settle
                dy += float(shift[1]) * settle
                angle += rot * settle
        w, h = self.cam.size
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += (dx, dy)
        return m


def _line_kernel(v: np.ndarray) -> np.ndarray:
    n = int(max(3, math.ceil(float(np.hypot(*v))))) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    p0 = (int(round(c - v[0] / 2)), int(round(c - v[1] / 2)))
    p1 = (int(round(c + v[0] / 2)), int(round(c + v[1] / 2)))
    cv2.line(k, p0, p1, 1.0, 1)
    return k / max(float(k.sum()), 1e-6)


def render_level_hand(
    game: str,
    seed: int,
    out: Path,
    size: tuple[int, int],
    fps: float,
    level_name: str,
    decks: list[str] | None = None,
    heldout: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    video: bool = True,
    tricks: int | None = None,
    keep_camera: bool = False,
) -> dict[str, object]:
    """Render one hand of ``game`` at ``level_name`` to ``out`` (mp4) with ``out``.json (the
    truth) and ``out``.setup.png (the calibration frame). Returns the truth. ``video=False``
    writes the setup frame and the truth only (calibration tests); ``tricks`` stages only the
    hand's first tricks (short test videos: the record then holds those tricks only);
    ``keep_camera`` keeps the camera where it was drawn even where the players hide the
    table from it (a phone left behind a player's shoulder), instead of moving it as a
    person would."""
    from vision.render.truth import save_truth

    level = LEVELS[level_name]
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    hand = STAGERS[game](rng)
    if tricks is not None:
        record = {**hand.record, "tricks": list(hand.record["tricks"])[:tricks]}  # type: ignore[call-overload]
        hand = replace(
            hand, tricks=hand.tricks[:tricks], winners=hand.winners[:tricks], record=record
        )
    deck_name = _pick_deck(nrng, decks, heldout)
    images = load_deck(next(d for d in list_decks() if d.name == deck_name))
    stage = Stage(hand, rng, pace(level, game), clutter=level.hands)
    if level.hands:
        stage.play_r = (6.5, 11.0) if hand.players == 2 else (7.5, 13.0)
    duration = stage.build()
    draw = draw_camera(nrng, level)
    # how much of the table the camera takes in (cm round the middle): overhead, the trick
    # area fills the view; on a stand, the whole play area and some of the edges
    view = float(nrng.uniform(38, 50) if level.oblique else nrng.uniform(24, 32))
    view *= 0.85 if hand.players == 2 else 1.0
    cam = place_camera(size, draw.azimuth, draw.elevation, draw.hfov, stage.extent(view), draw.k1,
                       roll_deg=draw.roll, min_horizontal=stage.edge_r)  # fmt: skip
    table_cm = (2 * stage.edge_r + 24.0, 2 * stage.edge_r + 24.0)
    ppc = 5
    table = textures.table(nrng, int(table_cm[1] * ppc), int(table_cm[0] * ppc))
    table = (table.astype(np.float32) * nrng.uniform(0.55, 0.85)).astype(np.uint8)
    floor = (textures.table(nrng, 400, 400).astype(np.float32) * 0.5).astype(np.uint8)
    wall = tuple(int(v) for v in nrng.uniform(40, 170, 3))
    round_table = bool(nrng.random() < 0.3)
    base = background(cam, table, table_cm, floor, wall, round_table=round_table)  # type: ignore[arg-type]
    light = draw_light(nrng, level, duration, size)
    painter = Painter(stage, cam, level, light, images, people(nrng, hand.players), nrng, base, fps)
    placed = (draw.azimuth, draw.elevation)
    blocked = _view_hidden(painter)
    if blocked > 1.0 and not keep_camera:
        # a person propping up the phone moves it between two players, or higher, when a
        # player's arm and held cards hide the play area (a stand at a player's shoulder
        # sees only his sleeve): the first place that sees the setup cards, else the best
        best = (blocked, cam, placed)
        places = [(a, e) for e in (draw.elevation, draw.elevation + 12, draw.elevation + 24)
                  if e <= 88 for a in [draw.azimuth, *_between_seats(stage, draw.azimuth)]][1:]  # fmt: skip
        for azimuth, elevation in places:
            painter.cam = place_camera(size, azimuth, elevation, draw.hfov, stage.extent(view),
                                       draw.k1, roll_deg=draw.roll, min_horizontal=stage.edge_r)  # fmt: skip
            blocked = _view_hidden(painter)
            if blocked < best[0]:
                best = (blocked, painter.cam, (azimuth, elevation))
            if blocked <= 1.0:
                break
        cam = painter.cam = best[1]
        placed, blocked = best[2], best[0]
        painter.base = background(cam, table, table_cm, floor, wall, round_table=round_table)  # type: ignore[arg-type]
    w, h = size
    out.parent.mkdir(parents=True, exist_ok=True)
    setup_path = out.with_suffix(".setup.png")
    cv2.imwrite(str(setup_path), painter.frame(0.0, setup=True))
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    if video and not writer.isOpened():
        raise OSError(f"cannot write video {out}")
    n_frames = int(math.ceil(duration * fps)) if video else 0
    try:
        for i in range(n_frames):
            writer.write(painter.frame(i / fps))
            if progress is not None:
                progress(i + 1, n_frames)
    finally:
        writer.release()
    plane = cam.plane_homography()
    truth: dict[str, object] = {
        "record": hand.record,
        "watch_args": hand.watch_args,
        "plays": [
            {"seat": s, "card": str(c), "t_rest": round(tr, 3)}
            for (s, c), tr in zip(
                [sc for t in hand.tricks for sc in t], stage.rest_times, strict=True
            )
        ],
        "winners": list(hand.winners),
        "fixture": None if hand.fixture is None else str(hand.fixture),
        "look": {
            "deck": deck_name,
            "heldout": deck_name in HELDOUT,
            "size": [w, h],
            "fps": fps,
            "seed": seed,
            "realism": level.name,
            "camera": {
                "azimuth": round(placed[0] % 360.0, 1),
                "elevation": round(placed[1], 1),
                "hfov": round(draw.hfov, 1),
                "k1": round(draw.k1, 3),
                # how badly the players hide the table from it (1 or less: clear), and
                # whether it was moved from where it was drawn to see the table
                "hidden": round(blocked, 2),
                "moved": placed != (draw.azimuth, draw.elevation),
            },
        },  # fmt: skip
        "camera": {
            "plane_cm_to_image": np.round(plane, 8).tolist(),
            "bump": None
            if light.bump is None
            else {
                "t": round(light.bump[0], 2),
                "shift_px": np.round(light.bump[1], 1).tolist(),
                "degrees": round(light.bump[2], 2),
            },
        },  # fmt: skip
        "setup": {
            "image": setup_path.name,
            "cards": [
                {
                    "seat": s,
                    "card": str(c),
                    "centre": np.round(cam.project(np.array([[*xy, 0.0]]))[0], 1).tolist(),
                }
                for s, c, xy, _ in stage.setup
            ],
        },  # fmt: skip
        "duration_s": round(duration, 2),
    }
    save_truth(truth, out.with_suffix(".json"))
    return truth


def first_seat_angle(truth: dict[str, object]) -> float:
    """Where seat 0's card of the setup frame lies, as ``trickcam calibrate --first-seat-angle``
    takes it: degrees round the setup cards' middle in the image (y down)."""
    setup = truth["setup"]
    assert isinstance(setup, dict)
    cards = setup["cards"]
    mid = np.mean([c["centre"] for c in cards], axis=0)
    first = next(c for c in cards if c["seat"] == 0)["centre"]
    return float(math.degrees(math.atan2(first[1] - mid[1], first[0] - mid[0])) % 360)
