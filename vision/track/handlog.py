"""One hand as the camera saw it: plays with their evidence, corrections, and the tricks,
winners and record that replaying them gives.

The log is the truth of a watched hand: a correction (a person's, or the camera's own when it
reads the hand together) is appended, never edited in, and everything else is its replay.

Plays belong to tricks by number (the watcher numbers each play as it arrives, from where and
when it lies), not by counting: a play the camera never saw is a *missed* play (its seat
inferred, its card unknown until a person names it with a correction), so one missed card
leaves every other trick as it was. Within a trick plays are ordered clockwise from its leader.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rules.cards import Card, Rank, Suit
from rules.clag.tricks import WildTwo
from vision.read.decode import LABELS, Reading
from vision.track.games import GameSpec


@dataclass
class PlayEvent:
    """A card played, with its evidence."""

    index: int
    seat: int
    card: Card | None
    """None for a missed play (the camera never saw it): a person names it (a correction)."""
    t: float
    trick: int
    """1-based trick number."""
    reading: Reading | None
    probs: np.ndarray
    crop: np.ndarray
    quad: np.ndarray
    track_id: int
    seat_note: str = ""
    prior: np.ndarray = field(default_factory=lambda: np.ones(52))
    """The game's prior for this play apart from cards played (deck, elsewhere, voids)."""
    views: list[np.ndarray] = field(default_factory=list)
    """Every clear reading of the card (its first sightings, then looks while it rested):
    ``probs`` is their combination."""
    leads: bool = False
    """A missed play inferred to be the trick's lead (the seat that was to lead never showed)."""
    again_note: str = ""
    """A later card read plainly as this one (each card is played once): one of the two is
    misread, so this play too is marked for a person."""
    pips: list[int] = field(default_factory=list)
    """The pips counted in the card's middle on its views plainly a face
    (``vision.track.watch.pip_counts``)."""
    pictures: list[bool] = field(default_factory=list)
    """Whether the middle of each of the card's views that reads more as a face than not
    shows a picture, not pips (``vision.track.watch.picture_views``)."""
    pips_note: str = ""
    """Why the pips counted, or a picture where a number card's pips should be, doubt the
    card read (``vision.read.pips.pips_doubt``, ``picture_doubt``)."""
    suits: list[np.ndarray] = field(default_factory=list)
    """The suit model's look (4 suit probabilities) at the whole face of the card's views
    plainly a face (``vision.read.suits``)."""
    suit_note: str = ""
    """Why the suit the face shows doubts the card read (``vision.read.suits.suit_doubt``)."""
    deduced_note: str = ""
    """A missed play the camera named all the same: how (the one card of a deck played out
    that no other play shows, ``vision.track.handread.deduce_missed``). Still marked."""

    @property
    def missed(self) -> bool:
        return self.reading is None

    @property
    def confirm(self) -> bool:
        return (
            self.reading is None
            or self.reading.confirm
            or bool(self.seat_note)
            or bool(self.again_note)
            or bool(self.pips_note)
            or bool(self.suit_note)
        )

    @property
    def shown_in_doubt(self) -> bool:
        """Marked for a person, with something to show for it (a server lists it awaiting
        confirmation): read in doubt or marked for its seat, a card read twice, its pips or
        its suit; or never seen and named by the deck (:attr:`deduced_note`). A missed play
        nobody has named is not posted at all."""
        return self.confirm and (not self.missed or bool(self.deduced_note))

    def choices(self, card: str) -> list[str]:
        """The cards a person chooses between for this play, recorded as ``card``: the two
        in doubt; for a play marked otherwise, ``card`` and the next likeliest card the camera
        read (``card`` alone where it read none: a play named by the deck)."""
        if self.reading is not None and self.reading.doubt is not None:
            return [str(c) for c in self.reading.doubt]
        if self.reading is None or float(np.max(self.probs)) <= 0:
            return [card]
        cards = [name for name, _ in _top(self.probs, 6) if name != card and name in _CARD_NAMES]
        return [card, *cards[:1]]

    @property
    def reason(self) -> str:
        own = "" if self.reading is None else self.reading.reason
        notes = (
            own, self.seat_note, self.deduced_note, self.again_note, self.pips_note, self.suit_note
        )  # fmt: skip
        return "; ".join(r for r in notes if r)

    def as_dict(self) -> dict[str, object]:
        r = self.reading
        return {
            "index": self.index,
            "seat": self.seat,
            "card": None if self.card is None else str(self.card),
            "t": round(self.t, 3),
            "trick": self.trick,
            "missed": self.missed,
            "confidence": 0.0 if r is None else round(r.probability, 4),
            "confirm": self.confirm,
            "doubt": None if r is None or r.doubt is None else [str(c) for c in r.doubt],
            "reason": self.reason,
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

UNKNOWN = "?"
"""How the record writes a missed play's card until a person names it."""


@dataclass
class TrickDone:
    number: int
    seats: tuple[int, ...]
    cards: tuple[Entry | None, ...]
    """None: a missed play whose card nobody has named yet."""
    winner: int | None
    """None while a missed card leaves it open and no later lead has shown who won."""
    points: int
    gathered: bool = False


@dataclass
class WatchEvent:
    """What the watcher reports as it happens: ``kind`` is play, trick, gathered, fixture,
    missed (``missed`` holds the inferred play), revised (``missed`` holds the play when the
    deck named a play never seen), note."""

    kind: str
    t: float
    play: PlayEvent | None = None
    trick: TrickDone | None = None
    text: str = ""
    missed: PlayEvent | None = None


_CARD_NAMES = frozenset(LABELS[:52])


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

    def cards(self) -> list[tuple[int, Card | None]]:
        """(seat, card) per play, corrections applied in order (None: missed, not named)."""
        out = [(p.seat, p.card) for p in self.plays]
        for c in self.corrections:
            if 0 <= c.index < len(out):
                out[c.index] = (out[c.index][0], c.card)
        return out

    def entries(self) -> list[tuple[int, Entry | None]]:
        """(seat, entry) per play: :meth:`cards`, with each wild two that has been named
        (the latest naming wins) as a :class:`WildTwo`."""
        out: list[tuple[int, Entry | None]] = list(self.cards())
        if not self.spec.wild_twos:
            return out
        for n in self.namings:
            seat, card = out[n.index]
            if card is None:
                continue
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
            if e is not None and not isinstance(e, WildTwo) and e.rank is Rank.TWO
        ]

    def missed(self) -> list[int]:
        """Plays (0-based) the camera never saw whose card nobody has named yet."""
        return [i for i, (_, c) in enumerate(self.cards()) if c is None]

    def settled(self) -> set[int]:
        """Plays (0-based) a person has named since the camera read them (a correction not
        the camera's own): nothing is left to ask about them."""
        return {c.index for c in self.corrections if c.by and not c.by.startswith("camera")}

    def _grouped(self) -> list[list[int]]:
        """Play indices per trick (by number), each trick clockwise from its leader: the
        missed play inferred to lead, else the seat whose turn it was to lead (the first
        leader, then the last trick's winner) when its card is in the trick, else the first
        card seen in it. A lead hidden as it landed (under its player's hand) is seen after
        the next player's card: the turn, not the order seen, says who led (fresh seed 10000
        light Belote: 10C led, AH seen first). But after a trick with a play marked for a
        person (its winner may be misread), cards seen one after the other clockwise from the
        first say the first led (development seed 10113 full Belote: a misread AC made seat 2
        the expected leader of a trick seat 0 led)."""
        n = self.spec.players
        groups: dict[int, list[int]] = {}
        for p in self.plays:
            groups.setdefault(p.trick, []).append(p.index)
        entries = self.entries()
        leader = self.spec.first_leader
        doubt = False
        out = []
        for number in sorted(groups):
            idx = groups[number]
            turn = next(
                (i for i in idx if leader is not None and self.plays[i].seat == leader), idx[0]
            )
            if doubt and self._in_turn_seen(idx):
                turn = idx[0]
            lead = next((i for i in idx if self.plays[i].leads), turn)
            first = self.plays[lead].seat
            order = sorted(idx, key=lambda i: ((self.plays[i].seat - first) % n, i != lead, i))
            out.append(order)
            known = [entries[i][1] for i in order]
            cards = [c for c in known if c is not None]
            complete = len(order) == n and len(cards) == n
            leader = self.plays[order[self.spec.winner(cards)]].seat if complete else None
            doubt = any(self.plays[i].confirm for i in order)
        return out

    def _in_turn_seen(self, idx: list[int]) -> bool:
        """Were the plays ``idx`` (two or more, three or more players) seen one after the
        other clockwise from the first?"""
        n = self.spec.players
        first = self.plays[idx[0]].seat
        return (
            n >= 3
            and len(idx) >= 2
            and all(self.plays[i].seat == (first + k) % n for k, i in enumerate(idx))
        )

    def postable(self) -> list[int]:
        """Play indices in the order the game's turn takes them, as far as a scorer (the
        rules engine of ``trickcam serve``) can accept them now: complete tricks clockwise
        from their leaders, then the trick in progress, each while its cards follow each
        other clockwise from the seat expected to lead (the last trick's winner). Stops at a
        missed play nobody has named (everything after it waits for the name), at a trick
        whose winner is not known and at a card out of turn (a person must correct it)."""
        n = self.spec.players
        cards = self.cards()
        out: list[int] = []
        done, _ = self.tricks()
        leader: int | None = self.spec.first_leader
        for k, idx in enumerate(self._grouped()):
            if leader is None:
                break
            complete = k < len(done)
            for j, i in enumerate(idx):
                seat, card = cards[i]
                if card is None or seat != (leader + j) % n:
                    return out
                out.append(i)
            if not complete:
                break
            leader = done[k].winner
        return out

    def tricks(self) -> tuple[list[TrickDone], list[tuple[int, Entry | None]]]:
        """Complete tricks (with winners) and the plays of the trick in progress."""
        done: list[TrickDone] = []
        current: list[tuple[int, Entry | None]] = []
        n = self.spec.players
        entries = self.entries()
        groups = self._grouped()
        for k, idx in enumerate(groups):
            trick = [entries[i] for i in idx]
            if len(trick) < n:
                current = trick  # only the last group can be short: the trick in progress
                continue
            cards = tuple(c for _, c in trick)
            seats = tuple(s for s, _ in trick)
            known = [c for c in cards if c is not None]
            if len(known) == len(cards):
                winner: int | None = seats[self.spec.winner(known)]
            elif k + 1 < len(groups):  # who won shows: the next trick's leader
                nxt = groups[k + 1]
                winner = self.plays[next((i for i in nxt if self.plays[i].leads), nxt[0])].seat
            else:
                winner = None
            points = self.spec.points(known) if known else 0
            done.append(TrickDone(len(done) + 1, seats, cards, winner, points))
        return done, current

    def to_move(self) -> int | None:
        """The seat whose turn it is (None when a missed card leaves the last trick's winner
        open: the next lead will show it)."""
        done, current = self.tricks()
        n = self.spec.players
        if current:
            lead, seats = current[0][0], {s for s, _ in current}
            return next((lead + k) % n for k in range(n) if (lead + k) % n not in seats)
        if not done:
            return self.spec.first_leader
        return done[-1].winner

    def unseen_trick(self, leader: int, t: float, why: str) -> list[PlayEvent]:
        """A whole trick played where the camera could not see (a head or a body in front of
        it throughout): a missed play for every seat, clockwise from ``leader``, whose cards
        a person names; its winner shows as the next trick's leader. Only between tricks."""
        done, current = self.tricks()
        if current:
            raise ValueError("a trick is in progress: close it first")
        number = len(done) + 1
        out = []
        for k in range(self.spec.players):
            seat = (leader + k) % self.spec.players
            note = (
                f"missed: seat {seat}'s card to trick {number} was never seen ({why});"
                " name it with a correction"
            )
            play = PlayEvent(
                index=len(self.plays), seat=seat, card=None, t=t, trick=number,
                reading=None, probs=np.zeros(len(LABELS)), crop=np.zeros((1, 1, 3), np.uint8),
                quad=np.zeros((4, 2)), track_id=-1, seat_note=note, leads=k == 0,
            )  # fmt: skip
            self.plays.append(play)
            out.append(play)
        return out

    def close_short(self, why: str) -> list[PlayEvent]:
        """Close the trick in progress with a missed play for each seat that showed no card
        (clockwise; the seat that was to lead leads: the previous trick's winner). The card
        is never guessed: each such play is marked for a person to name (a correction).
        Returns the missed plays appended."""
        done, current = self.tricks()
        if not current:
            return []
        n = self.spec.players
        number = len(done) + 1
        seen = [s for s, _ in current]
        expected = done[-1].winner if done else self.spec.first_leader
        lead = expected if expected is not None and expected not in seen else seen[0]
        last = next(p for p in reversed(self.plays) if p.trick == number)
        out = []
        for k in range(n):
            seat = (lead + k) % n
            if seat in seen:
                continue
            note = (
                f"missed: seat {seat}'s card to trick {number} was never seen ({why});"
                " name it with a correction"
            )
            play = PlayEvent(
                index=len(self.plays), seat=seat, card=None, t=last.t, trick=number,
                reading=None, probs=np.zeros(len(LABELS)), crop=np.zeros((1, 1, 3), np.uint8),
                quad=np.zeros((4, 2)), track_id=-1, seat_note=note, leads=seat == lead != seen[0],
            )  # fmt: skip
            self.plays.append(play)
            out.append(play)
        return out

    def voids(self, seat: int) -> frozenset[Suit]:
        out: set[Suit] = set()
        done, current = self.tricks()
        tricks = [list(zip(t.seats, t.cards, strict=True)) for t in done] + [current]
        for trick in tricks:
            if not trick or trick[0][1] is None:
                continue  # the lead is not known: nothing shows
            for k, (s, c) in enumerate(trick):
                prefix = [cc for _, cc in trick[:k]]
                if s == seat and c is not None and None not in prefix:
                    out |= self.spec.voids(c, [cc for cc in prefix if cc is not None])
        return frozenset(out)

    def record(self) -> dict[str, object]:
        """The hand record (a missed play not named yet is written ``"?"``: it does not score
        until a person names it)."""
        done, current = self.tricks()
        tricks = [list(t.cards) for t in done]
        if current:
            tricks.append([c for _, c in current])
        return self.spec.record([[UNKNOWN if c is None else c for c in t] for t in tricks])

    def running_score(self) -> list[int]:
        done, _ = self.tricks()
        score = [0] * self.spec.score_keys()
        for t in done:
            if t.winner is not None:
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
