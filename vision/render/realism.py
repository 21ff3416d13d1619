"""Realism levels for rendered table videos, and what each seed draws for a level.

``trickcam dataset video --realism LEVEL`` (``bench/watch.py --realism LEVEL``):

* ``studio``: the original renders (:mod:`vision.render.tablevideo`): a nearly overhead view,
  cards slid in slowly by flat hands, tricks gathered after a long look. Kind; kept so older
  figures can be reproduced.
* ``top``: a camera straight above (80-90 degrees, any side of the table up), real pace: a
  card lands 0.3-0.7 s after the last came to rest, the trick is gathered 0.5-1 s after its
  last card, a hand may stop over the table with its card first. Arms in 3D, plain light.
* ``oblique``: ``top`` seen by a phone or webcam on a stand at any side or corner, 35-90
  degrees up, a wide lens (barrel distortion), the far cards 50-90 px long at 1280x720.
* ``light``: ``oblique`` with light and camera trouble: exposure and white balance drifting,
  people's shadows crossing the table, glare on the glossy cards, heavy compression, sensor
  noise, a shaking camera and, once, a bump that leaves it pointing elsewhere.
* ``hands``: ``oblique`` with the hands of a real table: arms of several skin tones and
  sleeves casting shadows and blurred by motion, someone reaching over the played cards, cards
  overlapping, every player's held cards at his edge (their faces toward the camera when it
  looks over his shoulder), the stock with its turned card, the gathered tricks in piles, a
  meld shown and taken back.
* ``full``: ``hands`` and ``light`` together.

At every level but ``studio`` the camera is put where a person propping up a phone would
leave it: one that the players' held cards hide the setup cards from, or behind whose
shoulder a player's arm reaching in hides another seat's card (:mod:`vision.render.realvideo`,
``CLEAR_VIEW`` and ``REACH_VIEW``), is moved between two players, or higher.
``--keep-camera`` keeps it where it was drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.render.arms import Person, person
from vision.render.tablestage import Pace


@dataclass(frozen=True)
class Level:
    name: str
    oblique: bool
    light: bool
    hands: bool


LEVELS: dict[str, Level] = {
    "top": Level("top", False, False, False),
    "oblique": Level("oblique", True, False, False),
    "light": Level("light", True, True, False),
    "hands": Level("hands", True, False, True),
    "full": Level("full", True, True, True),
}
REALISM = ("studio", *LEVELS)
"""Every ``--realism`` value; ``studio`` is the original renderer."""


def pace(level: Level, game: str) -> Pace:
    if level.hands:
        meld = 0.6 if game in ("clabber", "klaberjass", "belote") else 0.0
        return Pace(hesitate=0.3, hover=0.2, meld=meld)
    return Pace(hesitate=0.15)


@dataclass(frozen=True)
class CameraDraw:
    azimuth: float
    elevation: float
    hfov: float
    k1: float
    roll: float


def draw_camera(rng: np.random.Generator, level: Level) -> CameraDraw:
    azimuth = float(rng.uniform(0, 360))
    if not level.oblique:
        return CameraDraw(azimuth, float(rng.uniform(80, 90)), float(rng.uniform(58, 70)),
                          float(rng.uniform(-0.03, 0.0)), float(rng.uniform(-4, 4)))  # fmt: skip
    if rng.random() < 0.6:  # a side or a corner, near enough: mostly at the bigger tilts
        azimuth = float(np.round(azimuth / 45.0) * 45.0 + rng.uniform(-10, 10))
    elevation = float(35 + 55 * rng.beta(1.3, 2.0))
    return CameraDraw(azimuth, elevation, float(rng.uniform(58, 78)),
                      float(rng.uniform(-0.16, -0.02)), float(rng.uniform(-5, 5)))  # fmt: skip


@dataclass
class LightDraw:
    """What light and the camera do over time (only ``light`` levels vary them)."""

    direction: np.ndarray
    """Towards where the light goes (unit, z < 0)."""
    exposure: tuple[float, float, float]
    """Amplitude, period, phase of the exposure drift."""
    balance: np.ndarray
    """Per channel: amplitude, period, phase of the white-balance drift (3 x 3)."""
    shadows: list[tuple[float, float, np.ndarray, np.ndarray, float, float]]
    """Shadows of people leaning: (start, end, from xy, to xy, radius cm, darkness)."""
    glare: list[tuple[np.ndarray, float, float]]
    """Lamp reflections on the table: (xy, radius cm, strength)."""
    noise: float
    jpeg: int
    """Quality of the compression each frame goes through (0: none)."""
    shake: float
    """Pixels of hand-held-stand shake."""
    bump: tuple[float, np.ndarray, float] | None
    """(time, shift px, rotation degrees): the camera knocked, staying where it went."""


def draw_light(
    rng: np.random.Generator, level: Level, duration: float, size: tuple[int, int]
) -> LightDraw:
    lx, ly = rng.uniform(-0.6, 0.6, 2)
    direction = np.array([lx, ly, -1.0])
    direction /= np.linalg.norm(direction)
    if not level.light:
        return LightDraw(direction, (0.0, 10.0, 0.0), np.zeros((3, 3)), [], [], 2.0, 0, 0.0, None)
    exposure = (
        float(rng.uniform(0.08, 0.2)),
        float(rng.uniform(6, 20)),
        float(rng.uniform(0, 6.3)),
    )
    balance = np.stack(
        [rng.uniform(0.03, 0.08, 3), rng.uniform(5, 25, 3), rng.uniform(0, 6.3, 3)], axis=1
    )
    shadows = []
    t = float(rng.uniform(1, 5))
    while t < duration:
        length = float(rng.uniform(1.5, 4.0))
        a = rng.uniform(0, 2 * math.pi)
        b = a + rng.uniform(-1.5, 1.5)
        start = np.array([math.cos(a), math.sin(a)]) * rng.uniform(15, 35)
        end = np.array([math.cos(b), math.sin(b)]) * rng.uniform(0, 25)
        shadows.append(
            (t, t + length, start, end, float(rng.uniform(12, 25)), float(rng.uniform(0.25, 0.5)))
        )
        t += length + float(rng.uniform(2, 8))
    glare = [
        (rng.uniform(-14, 14, 2), float(rng.uniform(3.5, 8)), float(rng.uniform(0.5, 1.0)))
        for _ in range(int(rng.integers(1, 3)))
    ]
    w, h = size
    bump = None
    if duration > 6:
        shift = rng.uniform(0.012, 0.035, 2) * rng.choice([-1, 1], 2) * np.array([w, h])
        bump = (float(rng.uniform(0.3, 0.7) * duration), shift, float(rng.uniform(-2.0, 2.0)))
    return LightDraw(direction, exposure, balance, shadows, glare, float(rng.uniform(2.5, 5.5)),
                     int(rng.integers(28, 60)), float(rng.uniform(0.6, 2.0)), bump)  # fmt: skip


def people(rng: np.random.Generator, players: int) -> list[Person]:
    return [person(rng) for _ in range(players)]
