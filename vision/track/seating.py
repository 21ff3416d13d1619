"""Whose card it is and which trick it belongs to, from where and when it lies.

Why a module of its own: after a missed or misread card the turn the watcher expects is a
guess, while the side of the table a card lies on and whether the trick's cards have left the
table are seen. So the side decides, the turn only breaks near ties, and a card that cannot
belong to the trick in progress closes it (its missing plays are then *missed*, never
invented). Pure: angles and seats in, a :class:`Placement` out.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

SEAT_TIE_DEGREES = 12.0
"""A card this close (in angle) to the seat to move as to the nearest seat goes to the seat to
move: the card lies near the border of two sides."""

SEAT_NEAR_DEGREES = 40.0
"""A card on the side of a seat that has already played to the trick goes to the nearest seat
still to play if it lies at most this much further (in angle) from it; further, it is plainly
that seat's card, so the trick in progress is over (a play was missed) and it leads the next."""


@dataclass(frozen=True)
class Placement:
    seat: int
    over: bool
    """The trick in progress is over, plays missing: this card leads the next trick."""
    note: str = ""
    """Why (when ``over``), or the doubt about the seat (then the play is marked)."""


def place(
    distances: Sequence[float] | np.ndarray,
    played: Collection[int],
    turn: int | None,
    trick_left: bool,
) -> Placement:
    """The seat of a card lying at ``distances`` (degrees from each seat's direction), given
    the seats that have played to the trick in progress, the seat to move (None: unknown)
    and whether the trick's cards have all left the table since."""
    dist = np.asarray(distances, np.float64)
    nearest = int(np.argmin(dist))
    if played and trick_left:
        return Placement(nearest, True, "the trick in progress left the table short")
    if turn is None:
        return Placement(nearest, False)
    if nearest not in played:
        tie = dist[turn] - dist[nearest] <= SEAT_TIE_DEGREES
        if nearest != turn and turn not in played and tie:
            return Placement(turn, False)
        return Placement(nearest, False)
    free = [s for s in range(len(dist)) if s not in played]
    if not free:  # cannot happen with a trick in progress; be safe
        return Placement(nearest, True, "a card after a complete trick")
    closest = min(free, key=lambda s: float(dist[s]))
    if dist[closest] - dist[nearest] <= SEAT_NEAR_DEGREES:
        note = f"a card on seat {nearest}'s side, which has played to this trick: given to seat {closest}"
        return Placement(closest, False, note)
    return Placement(
        nearest, True, f"a card plainly on seat {nearest}'s side, which has played to this trick"
    )


def together(
    distances: Sequence[Sequence[float] | np.ndarray],
    played: Collection[int],
    turn: int,
) -> list[int | None]:
    """Seats for cards come to rest in the same look (each at ``distances``, degrees from
    every seat's direction), given the seats that have played to the trick in progress and
    the seat to move: when two or more of them lie nearest the same seat still to play, they
    are the next seats in turn, each given the seat that makes the whole nearest (development
    seed 10111 light Belote at 10 fps: seat 2's QH lying far to its right, 13 degrees nearer
    seat 3, came to rest with seat 3's AH; QH was given to seat 3, AH then lay on the side of
    a seat that had played, the trick was closed short and every later play went to the
    wrong trick). A card nearest a seat that has played (a card of the trick back in view)
    takes no part (None); all are None when the others' nearest seats differ, when there are
    more of them than seats still to play, or when one would go to a seat more than
    :data:`SEAT_NEAR_DEGREES` further than its nearest (plainly another seat's card)."""
    dist = [np.asarray(d, np.float64) for d in distances]
    out: list[int | None] = [None] * len(dist)
    if not dist:
        return out
    n = len(dist[0])
    nearest = [int(np.argmin(d)) for d in dist]
    new = [k for k, s in enumerate(nearest) if s not in played]
    if len(new) < 2 or len({nearest[k] for k in new}) == len(new) or len(new) > 5:
        return out
    seats = [s for s in ((turn + k) % n for k in range(n)) if s not in played][: len(new)]
    if len(seats) < len(new):
        return out
    best = min(
        itertools.permutations(seats),
        key=lambda order: sum(float(dist[k][s]) for k, s in zip(new, order, strict=True)),
    )
    for k, s in zip(new, best, strict=True):
        if float(dist[k][s] - dist[k][nearest[k]]) > SEAT_NEAR_DEGREES:
            return [None] * len(dist)
        out[k] = s
    return out


def lead_before(lead: Sequence[float] | np.ndarray, lead_seat: int, seat: int) -> int | None:
    """The seat of a trick's lead (lying at ``lead``, degrees from every seat's direction,
    given to ``lead_seat``) once the trick's second card has been given to ``seat``: the seat
    before ``seat`` when that is not ``lead_seat`` and the lead lies at most
    :data:`SEAT_NEAR_DEGREES` further from it than from its nearest seat (a lead slid in near
    the table's middle, whose side the second card shows: development seed 10113 full Belote
    at 30 fps, seat 0's lead lying nearer seat 3 and given to it after a marked misread had
    made the watcher expect seat 2; every later trick shifted). None: the lead stays (two
    players, the second card in turn, or a lead plainly on its side: a play between them was
    missed)."""
    dist = np.asarray(lead, np.float64)
    n = len(dist)
    before = (seat - 1) % n
    if n < 3 or seat == lead_seat or before == lead_seat:
        return None
    if float(dist[before] - dist.min()) > SEAT_NEAR_DEGREES:
        return None
    return before
