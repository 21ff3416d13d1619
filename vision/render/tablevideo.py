"""Rendered videos of whole hands being played, with the true record beside them.

Why: the watcher must be measured end to end (motion, detection, reading, seats, tricks,
scores) against exact truth, on many tables, lights, camera angles and deck designs; filming
hundreds of real hands is not an option. A hand is dealt and played at random but lawfully by
the game's own simulator; then it is *staged*: the face-up card of the deal (upcard, candidate,
trump card) lies by the dealer during the bidding, each card is slid in by a hand from its
player's side (sometimes hesitating on the way), rests, and each trick is swept off the table
toward its winner. The staging is drawn top-down, then lit and seen through a slightly tilted
camera.

Cards come from the rendered aisleriot decks (:mod:`vision.render.decks`), tables from
:mod:`vision.render.textures`, pasting from :mod:`vision.render.scene`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.cards import Card
from vision.render import textures
from vision.render.deckreader import deck_reader
from vision.render.decks import HELDOUT, list_decks, load_deck
from vision.render.handstage import STAGERS, StagedHand
from vision.render.scene import card_quad, paste_card
from vision.render.truth import load_truth, save_truth

SKIN_TONES = ((120, 150, 205), (95, 125, 180), (70, 95, 150), (50, 70, 110), (140, 170, 220))


@dataclass
class Look:
    """Everything visual a seed varies: deck, table, light, camera, sizes."""

    deck: str
    table: np.ndarray  # BGR, frame size
    gain: np.ndarray  # H x W x 3 float32 light (gradient and colour cast)
    camera: np.ndarray  # 3x3 homography applied to the whole frame
    card_long: float
    skin: tuple[int, int, int]


def make_look(rng: np.random.Generator, size: tuple[int, int], players: int,
              decks: list[str] | None, heldout: bool | None) -> Look:  # fmt: skip
    w, h = size
    known = {d.name: d for d in list_decks()}
    for name in decks or ():
        if name not in known:
            raise ValueError(f"deck {name!r}: expected one of {', '.join(sorted(known))}")
    # seeds draw from the aisleriot designs only, so a seed keeps its video whatever other
    # designs are installed (the KDE ones are still there by name: decks=["kde-standard"])
    names = decks or [
        n
        for n, d in known.items()
        if d.source == "aisleriot" and (heldout is None or d.heldout == heldout)
    ]

    if not names:
        raise ValueError("no deck design to render with")
    deck = names[int(rng.integers(len(names)))]
    table = textures.table(rng, h, w)
    # keep the cloth a little darker than paper so cards stand out as on a real table
    table = (table.astype(np.float32) * rng.uniform(0.55, 0.85)).astype(np.uint8)
    grad = textures.smooth_noise(rng, h, w, 2)
    cast = rng.uniform(0.9, 1.08, 3).astype(np.float32)
    level = rng.uniform(0.85, 1.1)
    gain = (level * (0.8 + 0.35 * grad))[..., None] * cast[None, None, :]
    # corners pushed outward by different amounts: a tilted view with no border showing
    outward = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    jitter = outward * rng.uniform(0.0, 0.04, (4, 2)).astype(np.float32) * np.float32([w, h])
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = (src + jitter).astype(np.float32)
    camera = cv2.getPerspectiveTransform(src, dst)
    long_side = 0.26 * h * (4 / max(players, 4)) ** 0.35 * rng.uniform(0.9, 1.1)
    skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    return Look(deck, table, gain.astype(np.float32), camera, float(long_side), skin)


# -- staging ------------------------------------------------------------------------------
@dataclass
class Placed:
    """A card on (or moving over) the table: where it is at a time."""

    card: Card
    path: Callable[[float], tuple[np.ndarray, float] | None]
    """t -> (centre, angle in degrees), or None when off the table."""
    hand_until: float = -1.0
    """Until this time a hand holds the card (drawn at its outer end)."""
    hand_path: Callable[[float], tuple[np.ndarray, np.ndarray] | None] | None = None
    """t -> (wrist, direction into the table) while a hand is visible."""


def _ease(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


class Stager:
    """Turn a staged hand into a timeline of moving cards and hands (top-down pixels)."""

    def __init__(self, hand: StagedHand, size: tuple[int, int], rng: random.Random) -> None:
        self.hand, self.size, self.rng = hand, size, rng
        w, h = size
        self.centre = np.array([w / 2, h / 2])
        n = hand.players
        self.angles = [90.0 + k * 360.0 / n for k in range(n)]
        self.items: list[Placed] = []
        self.hands: list[
            tuple[float, float, Callable[[float], tuple[np.ndarray, np.ndarray] | None]]
        ] = []
        self.rest_times: list[float] = []

    def unit(self, seat: int) -> np.ndarray:
        a = math.radians(self.angles[seat])
        return np.array([math.cos(a), math.sin(a)])

    def spot(self, seat: int, reach: float = 1.0) -> np.ndarray:
        w, h = self.size
        u = self.unit(seat)
        return self.centre + u * np.array([0.27 * w, 0.26 * h]) * reach

    def edge(self, seat: int) -> np.ndarray:
        w, h = self.size
        return self.centre + self.unit(seat) * np.array([0.75 * w, 0.75 * h])

    def slide(self, card: Card, seat: int, start: float, target: np.ndarray, angle: float,
              hesitate: bool) -> float:  # fmt: skip
        """A hand brings ``card`` from ``seat``'s edge to ``target``; returns when it rests."""
        r = self.rng
        dur = r.uniform(0.45, 0.75)
        pause = r.uniform(0.25, 0.45) if hesitate else 0.0
        mid = self.edge(seat) * 0.45 + target * 0.55 + r.uniform(-20, 20)
        src = self.edge(seat)
        a0 = angle + r.uniform(-25, 25)
        t_rest = start + dur + pause

        def path(t: float) -> tuple[np.ndarray, float] | None:
            if t < start:
                return None
            if not hesitate:
                s = _ease((t - start) / dur)
                return src + (target - src) * s, a0 + (angle - a0) * s
            half = dur / 2
            if t < start + half:
                s = _ease((t - start) / half)
                return src + (mid - src) * s, a0
            if t < start + half + pause:  # hovering, drifting slowly
                d = (t - start - half) / pause
                return mid + np.array([6.0, -4.0]) * d, a0
            s = _ease((t - start - half - pause) / half)
            return mid + np.array([6.0, -4.0]) + (target - mid - np.array([6.0, -4.0])) * s, a0 + (
                angle - a0
            ) * s

        withdraw = r.uniform(0.3, 0.5)
        toward = self.unit(seat)

        def hand_path(t: float) -> tuple[np.ndarray, np.ndarray] | None:
            if t < start or t > t_rest + withdraw:
                return None
            if t <= t_rest:
                pos = path(t)
                assert pos is not None
                return pos[0] + toward * self.hand_offset, -toward
            s = _ease((t - t_rest) / withdraw)
            wrist = target + toward * self.hand_offset
            return wrist + (self.edge(seat) - wrist) * s, -toward

        self.items.append(Placed(card, path))
        self.hands.append((start, t_rest + withdraw, hand_path))
        self.rest_times.append(t_rest)
        return t_rest + withdraw

    def sweep(self, placed: list[Placed], winner: int, start: float) -> float:
        """A hand from the winner's side sweeps the trick off the table; returns the end."""
        r = self.rng
        reach, move = r.uniform(0.3, 0.45), r.uniform(0.6, 0.9)
        dest = self.edge(winner)
        centre = self.centre.copy()
        for p in placed:
            old = p.path
            at = old(start)
            assert at is not None
            pos0, ang0 = at

            def path(t: float, old=old, pos0=pos0, ang0=ang0) -> tuple[np.ndarray, float] | None:
                if t < start + reach:
                    return old(t)
                s = _ease((t - start - reach) / move)
                if s >= 1.0:
                    return None
                gathered = centre + (pos0 - centre) * max(0.0, 1 - 2 * s)
                return gathered + (dest - centre) * s * 1.1, ang0

            p.path = path
        toward = self.unit(winner)

        def hand_path(t: float) -> tuple[np.ndarray, np.ndarray] | None:
            if t < start or t > start + reach + move:
                return None
            if t < start + reach:
                s = _ease((t - start) / reach)
                wrist = dest + (centre + toward * self.hand_offset * 0.5 - dest) * s
                return wrist, -toward
            s = _ease((t - start - reach) / move)
            wrist = centre + toward * self.hand_offset * 0.5 + (dest - centre) * s * 1.1
            return wrist, -toward

        self.hands.append((start, start + reach + move, hand_path))
        return start + reach + move

    hand_offset = 40.0

    def hover(self, seat: int, over: np.ndarray, start: float) -> float:
        """A hand from ``seat`` reaches over the table near ``over`` (covering part of a
        resting card), lingers almost still, and goes back: never a play."""
        r = self.rng
        reach, stay, back = r.uniform(0.3, 0.5), r.uniform(0.5, 1.1), r.uniform(0.3, 0.5)
        toward = self.unit(seat)
        src = self.edge(seat)
        dst = over + toward * self.hand_offset * 0.8
        drift = np.array([r.uniform(-8, 8), r.uniform(-8, 8)])

        def hand_path(t: float) -> tuple[np.ndarray, np.ndarray] | None:
            if t < start or t > start + reach + stay + back:
                return None
            if t < start + reach:
                return src + (dst - src) * _ease((t - start) / reach), -toward
            if t < start + reach + stay:
                return dst + drift * (t - start - reach) / stay, -toward
            s = _ease((t - start - reach - stay) / back)
            return dst + drift + (src - dst - drift) * s, -toward

        self.hands.append((start, start + reach + stay + back, hand_path))
        return start + reach + stay + back

    def build(self, card_long: float) -> float:
        """Lay out the whole hand; returns its duration in seconds."""
        r, hand = self.rng, self.hand
        self.hand_offset = 0.55 * card_long
        t = 0.3
        if hand.fixture is not None:
            d = hand.dealer
            # beside the dealer's place, away from the side of the dealer's left (who leads)
            side = np.array([self.unit(d)[1], -self.unit(d)[0]])
            where = self.spot(d, 1.05) + side * card_long * 1.05
            angle = self.angles[d] - 90 + r.uniform(-10, 10)
            fixture = Placed(hand.fixture, lambda tt, w=where, a=angle: (w, a))
            self.items.append(fixture)
            t += r.uniform(1.0, 1.6)  # the bidding
            if not hand.fixture_stays:
                t = self.sweep([fixture], d, t) + 0.2
        for trick, winner in zip(hand.tricks, hand.winners, strict=True):
            placed = []
            for seat, card in trick:
                jitter = np.array(
                    [r.uniform(-0.05, 0.05) * self.size[0], r.uniform(-0.04, 0.04) * self.size[1]]
                )
                target = self.spot(seat) + jitter
                angle = (
                    self.angles[seat] - 90 + r.uniform(-20, 20) + (180 if r.random() < 0.5 else 0)
                )
                t = self.slide(card, seat, t, target, angle, hesitate=r.random() < 0.25)
                placed.append(self.items[-1])
                if r.random() < 0.15:  # someone reaches over the cards on the table
                    other = r.randrange(self.hand.players)
                    over = self.spot(seat) * 0.6 + self.centre * 0.4
                    t = self.hover(other, over, t + r.uniform(0.2, 0.5))
                t += r.uniform(0.45, 0.9)  # the card rests before the next hand comes
            t += r.uniform(0.6, 1.0)  # everybody looks at the trick before it is gathered
            t = self.sweep(placed, winner, t) + r.uniform(0.25, 0.45)
        return t + 1.0


def _draw_hand(img: np.ndarray, wrist: np.ndarray, inward: np.ndarray, size: float,
               skin: tuple[int, int, int]) -> None:  # fmt: skip
    """An arm from off the table to ``wrist`` and a palm with fingers reaching ``inward``."""
    far = wrist - inward * size * 12
    colour = tuple(int(c) for c in skin)
    shade = tuple(int(c * 0.8) for c in skin)
    cv2.line(
        img,
        tuple(int(v) for v in far),
        tuple(int(v) for v in wrist),
        shade,
        int(size * 0.9),
        cv2.LINE_AA,
    )
    palm = wrist + inward * size * 0.35
    ang = math.degrees(math.atan2(inward[1], inward[0]))
    cv2.ellipse(
        img,
        tuple(int(v) for v in palm),
        (int(size * 0.6), int(size * 0.45)),
        ang,
        0,
        360,
        colour,
        -1,
        cv2.LINE_AA,
    )
    side = np.array([-inward[1], inward[0]])
    for k in (-1.5, -0.5, 0.5, 1.5):
        base = palm + side * k * size * 0.22
        tip = base + inward * size * (0.75 - 0.1 * abs(k))
        cv2.line(
            img,
            tuple(int(v) for v in base),
            tuple(int(v) for v in tip),
            colour,
            max(2, int(size * 0.17)),
            cv2.LINE_AA,
        )


def _paste(
    frame: np.ndarray, image: np.ndarray, centre: np.ndarray, angle: float, long_side: float
) -> None:
    aspect = image.shape[1] / image.shape[0]
    quad = card_quad((float(centre[0]), float(centre[1])), long_side, angle, aspect)
    h, w = frame.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 3
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    paste_card(frame[y0:y1, x0:x1], image, quad - np.array([x0, y0], np.float32))


def render_hand(
    game: str,
    seed: int,
    out: Path,
    size: tuple[int, int] = (640, 360),
    fps: float = 10.0,
    decks: list[str] | None = None,
    heldout: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    realism: str = "studio",
    tricks: int | None = None,
    keep_camera: bool = False,
) -> dict[str, object]:
    """Render one hand of ``game`` to ``out`` (mp4) and write the truth to ``out``.json.

    ``heldout``: True renders only deck designs kept out of training, False only trained
    ones, None any. ``realism``: ``studio`` (this module's kind renders) or a level of
    :mod:`vision.render.realism` (:mod:`vision.render.realvideo` draws those); ``tricks``
    (levels only) stages only the hand's first tricks; ``keep_camera`` (levels only) keeps
    the camera where it was drawn even where the players hide the table from it. Returns the
    truth (also written beside the video).
    """
    if game not in STAGERS:
        raise ValueError(f"game {game!r}: expected one of {', '.join(STAGERS)}")
    if realism != "studio":
        from vision.render.realism import REALISM
        from vision.render.realvideo import render_level_hand

        if realism not in REALISM:
            raise ValueError(f"realism {realism!r}: expected one of {', '.join(REALISM)}")
        return render_level_hand(
            game, seed, out, size, fps, realism, decks, heldout, progress, tricks=tricks,
            keep_camera=keep_camera,
        )  # fmt: skip
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    hand = STAGERS[game](rng)
    look = make_look(nrng, size, hand.players, decks, heldout)
    images = load_deck(next(d for d in list_decks() if d.name == look.deck))
    stager = Stager(hand, size, rng)
    duration = stager.build(look.card_long)
    w, h = size
    scale = look.card_long / 320.0
    cards = {
        str(p.card): cv2.resize(
            images[str(p.card)], None, fx=scale * 1.5, fy=scale * 1.5, interpolation=cv2.INTER_AREA
        )
        for p in stager.items
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    if not writer.isOpened():
        raise OSError(f"cannot write video {out}")
    n_frames = int(math.ceil(duration * fps))
    noise = [nrng.normal(0, 2.5, (h, w, 1)).astype(np.float32) for _ in range(4)]
    last_key: tuple[object, ...] | None = None
    last_frame: np.ndarray | None = None
    try:
        for i in range(n_frames):
            t = i / fps
            scene = [(k, p.path(t)) for k, p in enumerate(stager.items)]
            visible = [(k, pos) for k, pos in scene if pos is not None]
            hands = [hp(t) for s, e, hp in stager.hands if s <= t <= e]
            hands = [x for x in hands if x is not None]
            key = tuple(
                (k, tuple(np.round(pos[0], 1)), round(pos[1], 1)) for k, pos in visible
            ) + tuple(tuple(np.round(x[0], 1)) for x in hands)
            if key != last_key or last_frame is None:
                top = look.table.copy()
                for k, (centre, angle) in visible:
                    _paste(top, cards[str(stager.items[k].card)], centre, angle, look.card_long)
                for wrist, inward in hands:
                    _draw_hand(top, wrist, inward, look.card_long * 0.45, look.skin)
                lit = top.astype(np.float32) * look.gain
                view = cv2.warpPerspective(lit, look.camera, (w, h), borderMode=cv2.BORDER_REFLECT)
                last_frame, last_key = view, key
            frame = np.clip(last_frame + noise[i % len(noise)], 0, 255).astype(np.uint8)
            writer.write(frame)
            if progress is not None:
                progress(i + 1, n_frames)
    finally:
        writer.release()
    truth: dict[str, object] = {
        "record": hand.record,
        "watch_args": hand.watch_args,
        "plays": [
            {"seat": s, "card": str(c), "t_rest": round(tr, 3)}
            for (s, c), tr in zip(
                [sc for t in hand.tricks for sc in t], stager.rest_times, strict=True
            )
        ],
        "winners": list(hand.winners),
        "fixture": None if hand.fixture is None else str(hand.fixture),
        "look": {
            "deck": look.deck,
            "heldout": look.deck in HELDOUT,
            "size": [w, h],
            "fps": fps,
            "seed": seed,
        },
        "duration_s": round(duration, 2),
    }
    save_truth(truth, out.with_suffix(".json"))
    return truth


__all__ = ["STAGERS", "StagedHand", "deck_reader", "load_truth", "render_hand", "save_truth"]
