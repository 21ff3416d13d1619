"""Hand logs built by hand for the tests: a simulated Clabber hand (the truth) and plays
appended as the watcher appends them (a sure reading, or a missed play)."""

from __future__ import annotations

import random

import numpy as np

from rules.cards import Card
from vision.read.decode import LABELS, Reading
from vision.track.games import GameSpec, clabber
from vision.track.handlog import HandLog, PlayEvent
from vision.track.watch import Watcher


def simulated_hand(seed: int) -> tuple[GameSpec, list[list[tuple[int, Card]]], dict[str, object]]:
    """A complete random Clabber hand: its watcher spec, tricks as (seat, card), true record."""
    from rules.clabber.simulate import hand_record, simulate_hand

    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer=seed % 4)
    while sim.state.end != "complete":
        sim = simulate_hand(rng, dealer=seed % 4)
    truth = hand_record(sim.state)
    spec = clabber(seed % 4, str(truth["upcard"]), truth["bidding"])  # type: ignore[arg-type]
    tricks = [list(zip(t.seats, t.cards, strict=True)) for t in sim.state.tricks]
    return spec, tricks, truth


def add_play(log: HandLog, seat: int, card: Card | None, trick: int, leads: bool = False) -> None:
    """Append a play read for sure (``card``) or missed (None) to ``log``."""
    reading = None
    if card is not None:
        reading = Reading(card, 1.0, str(card), 1.0, None, 0.0, False, None, "")
    log.plays.append(
        PlayEvent(
            index=len(log.plays), seat=seat, card=card, t=float(len(log.plays)), trick=trick,
            reading=reading, probs=np.zeros(len(LABELS)), crop=np.zeros((1, 1, 3), np.uint8),
            quad=np.zeros((4, 2)), track_id=len(log.plays), leads=leads,
        )
    )  # fmt: skip


def card_at(centre: np.ndarray, w: float = 60.0, h: float = 84.0) -> np.ndarray:
    """An upright card's outline (4 x 2, float32) ``w`` x ``h`` about ``centre``."""
    x, y = centre
    return np.array(
        [
            [x - w / 2, y - h / 2],
            [x + w / 2, y - h / 2],
            [x + w / 2, y + h / 2],
            [x - w / 2, y + h / 2],
        ],
        np.float32,
    )


def toward_seat(watcher: Watcher, seat: int, *reaches: float) -> np.ndarray:
    """A unit direction from the middle of ``watcher``'s view (``watcher.size``) along which
    a card at each of ``reaches`` pixels lies on ``seat``'s side: where that seat lays its
    cards."""
    middle = np.asarray(watcher.size, np.float64) / 2
    for a in np.radians(np.arange(0, 360, 5)):
        d = np.array([np.cos(a), np.sin(a)])
        if all(watcher.seats.seat_of(middle + r * d, watcher.size) == seat for r in reaches):
            return d
    raise AssertionError(f"no direction puts every reach on seat {seat}'s side")
