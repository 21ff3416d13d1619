"""A hand staged at a real table's pace, in table centimetres: who moves what, and when.

Why: what makes a real table hard is its pace and its clutter. Players lay a card 0.3-0.7 s
after the previous one came to rest (their arm comes in while the last card's arm goes
back), the trick is gathered half a second after its last card, a hand hesitates over the
table with its card, someone reaches over the played cards, each player holds his cards at
his edge of the table, the stock and the gathered tricks lie about, a meld is shown and taken
back. :class:`Stage` turns a :class:`~vision.render.handstage.StagedHand` into timelines of
cards and arms (:class:`Motion` key frames), with the exact time each play came to rest.

World: centimetres, origin at the table's centre, z up; seat ``k`` sits at angle
``90 - k * 360 / players`` degrees (90: +y), clockwise as seen from above.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from rules.cards import Card
from vision.render.handstage import StagedHand

CARD_LONG_CM = 8.8
GRIP_CM = CARD_LONG_CM * 0.5 + 11.5
"""From a held card's centre back to the wrist: the fingertips lie on the card's near end."""


def _ease(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


class Motion:
    """Key frames (time, vector), eased between; None before the first key or after ``end``."""

    def __init__(self) -> None:
        self.keys: list[tuple[float, np.ndarray]] = []
        self.end = math.inf

    def add(self, t: float, v: np.ndarray | list[float] | tuple[float, ...]) -> Motion:
        arr = np.asarray(v, np.float64)
        if self.keys and t < self.keys[-1][0]:
            t = self.keys[-1][0]
        self.keys.append((t, arr))
        return self

    def last(self) -> np.ndarray:
        return self.keys[-1][1]

    def at(self, t: float) -> np.ndarray | None:
        if not self.keys or t < self.keys[0][0] or t > self.end:
            return None
        for (t0, v0), (t1, v1) in zip(self.keys, self.keys[1:], strict=False):
            if t0 <= t <= t1:
                if t1 - t0 < 1e-9:
                    return v1
                return v0 + (v1 - v0) * _ease((t - t0) / (t1 - t0))
        return self.keys[-1][1] if t >= self.keys[-1][0] else self.keys[0][1]


@dataclass
class CardItem:
    """A card on or over the table: pose (x, y, z, angle in degrees) over time."""

    card: Card | None
    face_up: bool
    motion: Motion
    kind: str = "play"
    """play, fixture, meld (shown and taken back), setup."""


@dataclass
class ArmItem:
    """An arm from ``seat``: wrist pose (x, y, z, heading degrees, flat 0..1) over time."""

    seat: int
    motion: Motion
    holding: CardItem | None = None
    kind: str = "carry"
    """carry, sweep, hover, take (a face-up card taken up), show."""


@dataclass
class Pile:
    """Face-down cards lying at the edge: the stock, or a seat's (team's) gathered tricks."""

    x: float
    y: float
    angle: float
    counts: list[tuple[float, int]] = field(default_factory=list)
    """(from this time, this many cards)."""

    def count(self, t: float) -> int:
        n = 0
        for t0, c in self.counts:
            if t >= t0:
                n = c
        return n


@dataclass
class Fan:
    """A player's held cards: how many over time (the face shows only toward the player)."""

    seat: int
    cards: list[Card]
    counts: list[tuple[float, int]] = field(default_factory=list)

    def count(self, t: float) -> int:
        n = len(self.cards)
        for t0, c in self.counts:
            if t >= t0:
                n = c
        return n


@dataclass(frozen=True)
class Pace:
    """How fast the table plays (seconds)."""

    gap: tuple[float, float] = (0.3, 0.7)
    """From a card coming to rest to the next player's arm coming in."""
    gather: tuple[float, float] = (0.5, 1.0)
    """From a trick's last card coming to rest to the gathering arm coming in."""
    reach: tuple[float, float] = (0.35, 0.55)
    """Bringing a card from the edge to where it rests."""
    hesitate: float = 0.2
    """Chance a hand stops over the table with its card before laying it."""
    hover: float = 0.0
    """Chance, after a play, that someone reaches over the played cards."""
    meld: float = 0.0
    """Chance, per hand, that a player shows cards and takes them back."""


class Stage:
    """Lay out a staged hand as timelines (see the module doc)."""

    def __init__(self, hand: StagedHand, rng: random.Random, pace: Pace, clutter: bool) -> None:
        self.hand, self.rng, self.pace, self.clutter = hand, rng, pace, clutter
        n = hand.players
        # clockwise as seen from above (z up): as an overhead image (y down) shows them
        self.angles = [90.0 - k * 360.0 / n for k in range(n)]
        self.edge_r = 40.0 if n == 2 else 45.0 + 3.0 * max(0, n - 4)
        self.play_r = (8.0, 13.0) if n == 2 else (10.0, 15.5)
        self.cards: list[CardItem] = []
        self.arms: list[ArmItem] = []
        self.piles: list[Pile] = []
        self.fans: list[Fan] = []
        self.rest_times: list[float] = []
        self.setup: list[tuple[int, Card, np.ndarray, float]] = []
        """The calibration frame's cards: (seat, card, centre xy, angle)."""
        self.stock: Pile | None = None
        self.duration = 0.0

    # -- geometry -------------------------------------------------------------------------
    def unit(self, seat: int) -> np.ndarray:
        a = math.radians(self.angles[seat])
        return np.array([math.cos(a), math.sin(a)])

    def side(self, seat: int) -> np.ndarray:
        u = self.unit(seat)
        return np.array([-u[1], u[0]])

    def at_edge(self, seat: int, inset: float = 0.0, along: float = 0.0) -> np.ndarray:
        return self.unit(seat) * (self.edge_r - inset) + self.side(seat) * along

    def facing(self, seat: int) -> float:
        """The angle of a card lying square to ``seat``'s edge."""
        return self.angles[seat] - 90.0

    def extent(self, radius: float) -> np.ndarray:
        """World points the camera must keep in view: a circle of ``radius`` cm round the
        table's centre (the play area, and as much of the edges as the camera takes in)."""
        r = max(radius, self.play_r[1] + CARD_LONG_CM * 1.3)
        return np.array(
            [[r * math.cos(a), r * math.sin(a), 0.0] for a in np.linspace(0, 2 * math.pi, 24)]
        )

    # -- moves ----------------------------------------------------------------------------
    def _spot(self, seat: int) -> tuple[np.ndarray, float]:
        r = self.rng
        radius = r.uniform(*self.play_r)
        along = r.uniform(-0.35, 0.35) * radius
        where = self.unit(seat) * radius + self.side(seat) * along
        angle = self.facing(seat) + r.uniform(-25, 25) + (90 if r.random() < 0.15 else 0)
        return where, angle + (180 if r.random() < 0.5 else 0)

    def carry(
        self, seat: int, card: Card, start: float, kind: str = "play"
    ) -> tuple[CardItem, float]:
        """An arm from ``seat`` brings ``card`` from its held cards to a spot; returns the card
        and when it came to rest (the arm lets go and withdraws after)."""
        r, pace = self.rng, self.pace
        target, angle = self._spot(seat)
        src = self.at_edge(seat, inset=4.0, along=r.uniform(-6, 6))
        a0 = angle + r.uniform(-30, 30)
        motion = Motion().add(start, [*src, 7.0, a0])
        reach = r.uniform(*pace.reach)
        t = start
        if r.random() < pace.hesitate:  # stops over the table, card in hand, then lays it
            mid = src + (target - src) * r.uniform(0.35, 0.6)
            t += reach * 0.5
            motion.add(t, [*mid, 5.0, a0])
            pause = r.uniform(0.25, 0.6)
            drift = np.array([r.uniform(-1.2, 1.2), r.uniform(-1.2, 1.2)])
            t += pause
            motion.add(t, [*(mid + drift), 4.5, a0 + r.uniform(-4, 4)])
            t += reach * 0.6
        else:
            t += reach
        motion.add(t, [*target, 0.0, angle])
        item = CardItem(card, True, motion, kind)
        self.cards.append(item)
        arm = self._holding_arm(seat, item, start, t)
        self.arms.append(arm)
        return item, t

    def _holding_arm(self, seat: int, item: CardItem, start: float, rest: float) -> ArmItem:
        """The arm that carries ``item`` until ``rest``, holds it a moment, and goes back."""
        r = self.rng
        hold = r.uniform(0.04, 0.14)
        back = r.uniform(0.3, 0.45)
        motion = Motion()
        steps = 8
        toward = self.unit(seat)
        for k in range(steps + 1):
            t = start + (rest - start) * k / steps
            pose = item.motion.at(t)
            assert pose is not None
            wrist = pose[:2] + toward * GRIP_CM
            motion.add(t, [*wrist, pose[2] + 2.5, self.angles[seat] + 180.0, 0.0])
        last = motion.last().copy()
        motion.add(rest + hold, last)
        home = self.at_edge(seat, inset=-6.0, along=r.uniform(-8, 8))
        motion.add(rest + hold + back, [*home, 14.0, self.angles[seat] + 180.0, 0.0])
        motion.end = rest + hold + back
        return ArmItem(seat, motion, item, "carry")

    def sweep(self, items: list[CardItem], winner: int, start: float, pile: Pile) -> float:
        """The winner's arm reaches the trick, pushes its cards together and drags them to
        his pile; returns when the arm has gone."""
        r = self.rng
        reach, push, drag, back = (r.uniform(0.3, 0.4), r.uniform(0.2, 0.3),
                                   r.uniform(0.35, 0.5), r.uniform(0.25, 0.35))  # fmt: skip
        poses = [it.motion.last() for it in items]
        centre = np.mean([p[:2] for p in poses], axis=0)
        toward = self.unit(winner)
        home = self.at_edge(winner, inset=-6.0)
        dest = np.array([pile.x, pile.y])
        t1 = start + reach
        t2 = t1 + push
        t3 = t2 + drag
        for it, p in zip(items, poses, strict=True):
            gathered = centre + (p[:2] - centre) * 0.15
            it.motion.add(t1, p)
            it.motion.add(t2, [*gathered, 0.3, p[3]])
            it.motion.add(t3, [*(dest + (gathered - centre) * 0.3), 0.3, pile.angle])
            it.motion.end = t3
        wrist_in = centre + toward * (CARD_LONG_CM * 0.9)
        arm = Motion().add(start, [*home, 14.0, self.angles[winner] + 180, 1.0])
        arm.add(t1, [*wrist_in, 3.0, self.angles[winner] + 180, 1.0])
        arm.add(t2, [*(centre + toward * CARD_LONG_CM * 0.5), 2.5, self.angles[winner] + 180, 1.0])
        arm.add(t3, [*(dest + toward * CARD_LONG_CM * 0.5), 3.0, self.angles[winner] + 180, 1.0])
        arm.add(t3 + back, [*home, 14.0, self.angles[winner] + 180, 0.5])
        arm.end = t3 + back
        self.arms.append(ArmItem(winner, arm, None, "sweep"))
        pile.counts.append((t3, pile.count(t3) + len(items)))
        return t3 + back

    def hover(self, seat: int, over: np.ndarray, start: float) -> float:
        """An arm from ``seat`` reaches over ``over`` (hiding what lies there), lingers almost
        still and goes back: never a play."""
        r = self.rng
        reach, stay, back = r.uniform(0.3, 0.45), r.uniform(0.4, 1.1), r.uniform(0.3, 0.45)
        toward = self.unit(seat)
        home = self.at_edge(seat, inset=-6.0)
        spot = over + toward * r.uniform(2.0, 6.0)
        z = r.uniform(4.0, 10.0)
        arm = Motion().add(start, [*home, 14.0, self.angles[seat] + 180, 0.6])
        arm.add(start + reach, [*spot, z, self.angles[seat] + 180 + r.uniform(-15, 15), 0.6])
        drift = np.array([r.uniform(-2, 2), r.uniform(-2, 2)])
        arm.add(start + reach + stay, [*(spot + drift), z, arm.last()[3], 0.6])
        arm.add(start + reach + stay + back, [*home, 14.0, self.angles[seat] + 180, 0.6])
        arm.end = start + reach + stay + back
        self.arms.append(ArmItem(seat, arm, None, "hover"))
        return arm.end

    def take_up(self, item: CardItem, seat: int, start: float) -> float:
        """``seat``'s arm picks up a face-up card (an upcard, a candidate) into his hand."""
        r = self.rng
        reach, back = r.uniform(0.35, 0.5), r.uniform(0.35, 0.5)
        pose = item.motion.last()
        toward = self.unit(seat)
        home = self.at_edge(seat, inset=-6.0)
        wrist = pose[:2] + toward * GRIP_CM
        arm = Motion().add(start, [*home, 14.0, self.angles[seat] + 180, 0.0])
        arm.add(start + reach, [*wrist, 3.0, self.angles[seat] + 180, 0.0])
        arm.add(start + reach + back, [*home, 14.0, self.angles[seat] + 180, 0.0])
        arm.end = start + reach + back
        item.motion.add(start + reach, pose)
        item.motion.add(start + reach + back, [*self.at_edge(seat, inset=-2.0), 8.0, pose[3]])
        item.motion.end = start + reach + back
        self.arms.append(ArmItem(seat, arm, item, "take"))
        return arm.end

    def show(self, seat: int, cards: list[Card], start: float) -> float:
        """``seat`` lays ``cards`` face up, overlapping, near his edge, and takes them back."""
        r = self.rng
        base = self.at_edge(seat, inset=r.uniform(9.0, 12.0), along=r.uniform(-5, 5))
        angle = self.facing(seat) + r.uniform(-10, 10)
        put, stay, back = r.uniform(0.35, 0.5), r.uniform(0.8, 1.8), r.uniform(0.35, 0.5)
        src = self.at_edge(seat, inset=2.0)
        for k, card in enumerate(cards):
            off = self.side(seat) * (k - (len(cards) - 1) / 2) * 2.2
            m = Motion().add(start, [*src, 7.0, angle])
            m.add(start + put, [*(base + off), 0.0, angle + (k - 1) * 6])
            m.add(start + put + stay, m.last())
            m.add(start + put + stay + back, [*src, 7.0, angle])
            m.end = start + put + stay + back
            self.cards.append(CardItem(card, True, m, "meld"))
        toward = self.unit(seat)
        home = self.at_edge(seat, inset=-6.0)
        wrist = base + toward * GRIP_CM
        arm = Motion().add(start, [*home, 14.0, self.angles[seat] + 180, 0.2])
        arm.add(start + put, [*wrist, 3.0, self.angles[seat] + 180, 0.2])
        arm.add(start + put + 0.2, [*home, 14.0, self.angles[seat] + 180, 0.2])
        arm.add(start + put + stay - 0.3, [*home, 14.0, self.angles[seat] + 180, 0.2])
        arm.add(start + put + stay, [*wrist, 3.0, self.angles[seat] + 180, 0.2])
        arm.add(start + put + stay + back, [*home, 14.0, self.angles[seat] + 180, 0.2])
        arm.end = start + put + stay + back
        self.arms.append(ArmItem(seat, arm, None, "show"))
        return arm.end

    # -- the hand -------------------------------------------------------------------------
    def build(self) -> float:
        r, hand, pace = self.rng, self.hand, self.pace
        n = hand.players
        firsts = {seat: card for trick in hand.tricks for seat, card in trick}
        for seat in range(n):  # the calibration frame: a card in front of each player
            where = self.unit(seat) * sum(self.play_r) / 2
            self.setup.append((seat, firsts[seat], where, self.facing(seat) + r.uniform(-15, 15)))
        held: list[list[Card]] = [[] for _ in range(n)]
        for trick in hand.tricks:
            for seat, card in trick:
                held[seat].append(card)
        if self.clutter:
            self.fans = [Fan(s, list(held[s])) for s in range(n)]
        teams = hand.game in ("clabber", "belote")
        piles: dict[int, Pile] = {}

        def pile_of(seat: int) -> Pile:
            key = seat % 2 if teams else seat
            if key not in piles:
                along = r.choice((-1, 1)) * r.uniform(12, 18)
                where = self.at_edge(seat, inset=6.0, along=along)
                piles[key] = Pile(
                    float(where[0]), float(where[1]), self.facing(seat) + r.uniform(-20, 20)
                )
            return piles[key]

        t = 0.4
        d = hand.dealer
        if self.clutter and hand.game in ("klaberjass", "clag"):
            along = r.choice((-1, 1)) * r.uniform(14, 20)
            where = self.at_edge(d, inset=r.uniform(10, 13), along=along)
            left = 32 - 9 * n if hand.game == "klaberjass" else 52 - n * len(hand.tricks) - 1
            self.stock = Pile(float(where[0]), float(where[1]), self.facing(d) + r.uniform(-15, 15))
            self.stock.counts.append((0.0, max(left, 3)))
        fixture_item = None
        if hand.fixture is not None:
            if hand.fixture_stays and self.stock is None:  # Clag's trump card, by the dealer
                along = r.choice((-1, 1)) * r.uniform(12, 18)
                where = self.at_edge(d, inset=r.uniform(10, 13), along=along)
                angle = self.facing(d) + r.uniform(-20, 20)
            elif self.stock is not None:  # turned crosswise, half under the stock
                base = np.array([self.stock.x, self.stock.y])
                where = base + self.side(d) * CARD_LONG_CM * 0.55 * r.choice((-1, 1))
                angle = self.stock.angle + 90 + r.uniform(-8, 8)
            else:
                side = -self.side(d)
                where = self.unit(d) * sum(self.play_r) / 2 + side * CARD_LONG_CM * 1.1
                angle = self.facing(d) + r.uniform(-10, 10)
            m = Motion().add(0.0, [*where, 0.0, angle])
            fixture_item = CardItem(hand.fixture, True, m, "fixture")
            self.cards.append(fixture_item)
            t += r.uniform(1.0, 1.6)  # the bidding
            if not hand.fixture_stays:
                taker = d if hand.game == "clabber" else (d + 1) % n
                t = self.take_up(fixture_item, taker, t) + r.uniform(0.2, 0.5)
        meld_trick = 0 if self.clutter and r.random() < pace.meld else -1
        for number, (trick, winner) in enumerate(zip(hand.tricks, hand.winners, strict=True)):
            placed = []
            for k, (seat, card) in enumerate(trick):
                if self.fans:
                    fan = self.fans[seat]
                    fan.counts.append((t + 0.05, fan.count(t) - 1))
                item, rest = self.carry(seat, card, t)
                placed.append(item)
                self.rest_times.append(rest)
                t = rest
                if number == meld_trick and k == 0 and len(held[seat]) > 4:
                    later = [
                        c
                        for c in held[seat]
                        if c not in [x for tt in hand.tricks[:1] for _, x in tt]
                    ]
                    cards = later[:3]
                    if cards:
                        t = self.show(seat, cards, t + r.uniform(0.3, 0.6)) - 0.3
                if r.random() < pace.hover:
                    other = r.randrange(n)
                    over = np.mean([it.motion.last()[:2] for it in placed], axis=0)
                    t = self.hover(other, over, t + r.uniform(0.15, 0.4)) - r.uniform(0.0, 0.3)
                if k < len(trick) - 1:
                    t += r.uniform(*pace.gap) if r.random() < 0.6 else pace.gap[0]
            t += r.uniform(*pace.gather) if r.random() < 0.5 else pace.gather[0]
            t = self.sweep(placed, winner, t, pile_of(winner)) - r.uniform(0.0, 0.2)
            t += r.uniform(0.1, 0.5)
        self.piles = list(piles.values())
        self.duration = t + 1.0
        return self.duration
