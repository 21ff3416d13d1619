"""One hand as the camera saw it: plays with their evidence, corrections, and the tricks,
winners and record that replaying them gives.

The log is the truth of a watched hand: a correction (a person's, or the camera's own when it
reads the hand together) is appended, never edited in, and everything else is its replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rules.cards import Card, Rank, Suit
from rules.clag.tricks import WildTwo
from vision.decode import LABELS, Reading
from vision.games import GameSpec


@dataclass
class PlayEvent:
    """A card played, with its evidence."""

    index: int
    seat: int
    card: Card
    t: float
    trick: int
    """1-based trick number."""
    reading: Reading
    probs: np.ndarray
    crop: np.ndarray
    quad: np.ndarray
    track_id: int
    seat_note: str = ""
    prior: np.ndarray = field(default_factory=lambda: np.ones(52))
    views: list[np.ndarray] = field(default_factory=list)
    """Every clear reading of the card (its first sightings, then looks while it rested):
    ``probs`` is their combination."""
    """The game's prior for this play apart from cards played (deck, elsewhere, voids)."""

    @property
    def confirm(self) -> bool:
        return self.reading.confirm or bool(self.seat_note)

    def as_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "seat": self.seat,
            "card": str(self.card),
            "t": round(self.t, 3),
            "trick": self.trick,
            "confidence": round(self.reading.probability, 4),
            "confirm": self.confirm,
            "doubt": None if self.reading.doubt is None else [str(c) for c in self.reading.doubt],
            "reason": "; ".join(r for r in (self.reading.reason, self.seat_note) if r),
            "quad": [
                [round(float(x), 1), round(float(y), 1)]
                for x, y in np.asarray(self.quad).reshape(4, 2)
            ],
            "distribution": {k: round(float(v), 4) for k, v in _top(self.probs, 5)},
            "probs": [round(float(v), 4) for v in np.asarray(self.probs).ravel()],
        }


@dataclass(frozen=True)
class Correction:
    """A person says play number ``index`` was ``card`` (a replayable event)."""

    index: int
    card: Card
    t: float = 0.0
    by: str = ""


@dataclass(frozen=True)
class Naming:
    """A person says the wild two of play ``index`` names ``card`` (Clag round 12): the
    ``NameWild`` event the camera cannot see, replayed into the record as ``"2H=AS"``."""

    index: int
    card: Card
    t: float = 0.0
    by: str = ""


Entry = Card | WildTwo
"""A play as the record writes it: a card, or a named wild two."""


@dataclass
class TrickDone:
    number: int
    seats: tuple[int, ...]
    cards: tuple[Entry, ...]
    winner: int
    points: int
    gathered: bool = False


@dataclass
class WatchEvent:
    """What the watcher reports as it happens: ``kind`` is play, trick, gathered, fixture, note."""

    kind: str
    t: float
    play: PlayEvent | None = None
    trick: TrickDone | None = None
    text: str = ""


def _top(probs: np.ndarray, k: int) -> list[tuple[str, float]]:
    p = np.asarray(probs, np.float64).ravel()
    order = np.argsort(-p)[:k]
    return [(LABELS[i], float(p[i])) for i in order]


@dataclass
class HandLog:
    """The event log of one hand: plays as seen, corrections; tricks are its replay."""

    spec: GameSpec
    plays: list[PlayEvent] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    namings: list[Naming] = field(default_factory=list)

    def cards(self) -> list[tuple[int, Card]]:
        """(seat, card) per play, corrections applied in order."""
        out = [(p.seat, p.card) for p in self.plays]
        for c in self.corrections:
            if 0 <= c.index < len(out):
                out[c.index] = (out[c.index][0], c.card)
        return out

    def entries(self) -> list[tuple[int, Entry]]:
        """(seat, entry) per play: :meth:`cards`, with each wild two that has been named
        (the latest naming wins) as a :class:`WildTwo`."""
        out: list[tuple[int, Entry]] = list(self.cards())
        if not self.spec.wild_twos:
            return out
        for n in self.namings:
            seat, card = out[n.index]
            two = card.card if isinstance(card, WildTwo) else card
            if two.rank is Rank.TWO:
                out[n.index] = (seat, WildTwo(two, n.card))
        return out

    def awaiting_names(self) -> list[int]:
        """Plays (0-based) that are wild twos still waiting for the card they name."""
        if not self.spec.wild_twos:
            return []
        return [
            i
            for i, (_, e) in enumerate(self.entries())
            if not isinstance(e, WildTwo) and e.rank is Rank.TWO
        ]

    def tricks(self) -> tuple[list[TrickDone], list[tuple[int, Entry]]]:
        """Complete tricks (with winners) and the plays of the trick in progress."""
        done: list[TrickDone] = []
        current: list[tuple[int, Entry]] = []
        n = self.spec.players
        for seat, card in self.entries():
            current.append((seat, card))
            if len(current) == n:
                cards = tuple(c for _, c in current)
                seats = tuple(s for s, _ in current)
                winner = seats[self.spec.winner(cards)]
                done.append(TrickDone(len(done) + 1, seats, cards, winner, self.spec.points(cards)))
                current = []
        return done, current

    def to_move(self) -> int:
        done, current = self.tricks()
        if current:
            return (current[-1][0] + 1) % self.spec.players
        return done[-1].winner if done else self.spec.first_leader

    def voids(self, seat: int) -> frozenset[Suit]:
        out: set[Suit] = set()
        done, current = self.tricks()
        for t in done:
            for k, (s, c) in enumerate(zip(t.seats, t.cards, strict=True)):
                if s == seat:
                    out |= self.spec.voids(c, t.cards[:k])
        for k, (s, c) in enumerate(current):
            if s == seat:
                out |= self.spec.voids(c, [cc for _, cc in current[:k]])
        return frozenset(out)

    def record(self) -> dict[str, object]:
        done, current = self.tricks()
        tricks = [list(t.cards) for t in done]
        if current:
            tricks.append([c for _, c in current])
        return self.spec.record(tricks)

    def running_score(self) -> list[int]:
        done, _ = self.tricks()
        score = [0] * self.spec.score_keys()
        for t in done:
            score[t.winner % 2 if self.spec.teams else t.winner] += t.points
        return score

    def correct(self, index: int, card: Card | str, by: str = "", t: float = 0.0) -> Correction:
        if not 0 <= index < len(self.plays):
            raise IndexError(f"play {index}: the log has {len(self.plays)} plays")
        c = Correction(index, Card.parse(card) if isinstance(card, str) else card, t, by)
        self.corrections.append(c)
        return c

    def name(self, index: int, card: Card | str, by: str = "", t: float = 0.0) -> Naming:
        """Play ``index``, a wild two, names ``card`` (an event; the latest naming counts)."""
        if not self.spec.wild_twos:
            raise ValueError(f"play {index} names a card: twos are wild only in Clag round 12")
        if not 0 <= index < len(self.plays):
            raise IndexError(f"play {index}: the log has {len(self.plays)} plays")
        n = Naming(index, Card.parse(card) if isinstance(card, str) else card, t, by)
        self.namings.append(n)
        return n
