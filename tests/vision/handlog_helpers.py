"""Hand logs built by hand for the tests: a simulated Clabber hand (the truth) and plays
appended as the watcher appends them (a sure reading, or a missed play)."""

from __future__ import annotations

import random

import numpy as np

from rules.cards import Card
from vision.read.decode import LABELS, Reading
from vision.track.games import GameSpec, clabber
from vision.track.handlog import HandLog, PlayEvent


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
