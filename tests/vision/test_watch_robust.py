"""One misread or one missed card costs at most that one play, never a cascade.

A rendered Clabber hand (and a Klaberjass one, two players) is watched with the shipped classifier three ways: as it is (every
play right: the e2e tests require it), with one card forced to be misread as a card played
later by the same seat (at the same place, in a later trick), and with every detection of one
played card dropped (the detector never reports it, as when it touches another card). Every
other play must still be right at its trick and seat; the misread is revised once the real
card shows up; the missed play is marked with its seat and no invented card, and a person's
correction then gives the true record and score.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

import cv2
import numpy as np
import pytest

from cli import dataset_video as cmd_dataset_video
from rules.cards import Card
from rules.records import score_record
from tests.ci import needs
from vision.detect.find import detect
from vision.read.classify import MODEL_PATH
from vision.read.decode import CARD_LABELS
from vision.read.pips import NUMBER_PIPS
from vision.render.tablevideo import load_truth
from vision.sources import VideoFile
from vision.track import games
from vision.track.watch import Reader, Watcher, classifier_reader

pytestmark = needs(MODEL_PATH.exists(), f"the trained model {MODEL_PATH} (trickcam train)")

HANDS = {"clabber": 11, "klaberjass": 5}
"""Hands the e2e tests read exactly with the shipped classifier (seeds)."""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    out = {}
    folder = tmp_path_factory.mktemp("robust")
    for game, seed in HANDS.items():
        video = folder / f"{game}.mp4"
        argv = ["--game", game, "--seed", str(seed), "--fps", "8", "--quiet", str(video)]
        assert cmd_dataset_video.main(argv) == 0
        out[game] = (video, load_truth(video.with_suffix(".json")))
    return out


@pytest.fixture(scope="module")
def hand(rendered: dict[str, tuple[Path, dict]]) -> tuple[Path, dict]:
    return rendered["clabber"]


@pytest.fixture(scope="module")
def model() -> Callable[[list[np.ndarray]], np.ndarray]:
    return classifier_reader()


def _watch(
    video: Path,
    truth: dict,
    reader: Callable[[list[np.ndarray]], np.ndarray],
    detector: Callable[[np.ndarray], object] | None = None,
    suit_reader: Reader | Literal["shipped"] | None = "shipped",
) -> Watcher:
    watcher = Watcher(_spec(truth), reader, detector=detector, suit_reader=suit_reader)
    for frame in VideoFile(video):
        watcher.feed(frame.image, frame.t)
    return watcher


def _spec(truth: dict) -> games.GameSpec:
    return games.from_watch_args(truth["record"]["game"], truth["watch_args"])


def _by_place(watcher: Watcher) -> dict[tuple[int, int], Card | None]:
    cards = watcher.log.cards()
    return {(p.trick, p.seat): cards[p.index][1] for p in watcher.log.plays}


def _truth_by_place(truth: dict) -> dict[tuple[int, int], Card]:
    n = 2 if truth["record"]["game"] == "klaberjass" else 4
    return {(i // n + 1, q["seat"]): Card.parse(q["card"]) for i, q in enumerate(truth["plays"])}


def _which_play(truth: dict, n: int, index: int | None) -> int:
    """``index``, or (None) the last play of a trick (not the last) won by its last player,
    whose seat then leads the next."""
    if index is not None:
        return index
    plays, winners = truth["plays"], truth["winners"]
    k = next(k for k in range(len(winners) - 1) if plays[n * k + n - 1]["seat"] == winners[k])
    return n * k + n - 1


def _misreading(
    model: Callable[[list[np.ndarray]], np.ndarray], card: Card, as_: Card, impossible: Card
) -> Callable[[list[np.ndarray]], np.ndarray]:
    """The model, except that ``card`` reads mostly as ``impossible`` (a card not in the
    deck), with ``as_`` the runner-up: the plastic 9C read 7C, decoded JS, of the bench."""
    i, j, k = (CARD_LABELS.index(c) for c in (card, as_, impossible))

    def read(crops: list[np.ndarray]) -> np.ndarray:
        probs = np.array(model(crops), np.float64)
        for row in probs:
            if int(np.argmax(row)) == i:
                row[:] = 0.0
                row[k], row[j], row[i] = 0.55, 0.41, 0.04
        return probs

    return read


def test_a_misread_card_is_revised_when_the_real_one_is_played_at_the_same_place(
    hand: tuple[Path, dict], model: Callable[[list[np.ndarray]], np.ndarray]
) -> None:
    """A play of trick 1 is read as (impossible) 7C, decoded as the card its seat plays in
    trick 2. When that card lands where the first lay, it is a new play, not the first back in
    view; reading the hand together then gives the first its true card, as the camera's own
    correction. (The misread card is a court card or an ace: a number card's pips, counted,
    would name it right at once.)"""
    video, truth = hand
    plays = truth["plays"]
    k = next(
        i for i, q in enumerate(plays[:4]) if NUMBER_PIPS.get(Card.parse(q["card"]).rank) is None
    )
    seat = plays[k]["seat"]
    later = next(q for q in plays[4:8] if q["seat"] == seat)
    card, as_ = Card.parse(plays[k]["card"]), Card.parse(later["card"])
    # the whole face's suit is not read: it would name the card at once where the suits
    # differ (vision.read.suits.SUIT_WEIGHT); the revision is what is tested here
    misreading = _misreading(model, card, as_, Card.parse("7C"))
    watcher = _watch(video, truth, misreading, suit_reader=None)
    assert watcher.log.plays[k].card == as_ and watcher.log.plays[k].confirm
    assert _by_place(watcher) == _truth_by_place(truth)
    fixes = [c for c in watcher.log.corrections if c.index == k]
    assert fixes and fixes[-1].card == card and fixes[-1].by.startswith("camera")
    assert watcher.log.record()["tricks"] == truth["record"]["tricks"]


@pytest.mark.parametrize(
    ("rule", "game", "dropped"),
    [
        ("a card between two others of its trick", "clabber", 5),
        ("the last card of a trick, whose seat then leads the next", "clabber", None),
        ("the lead of a trick", "clabber", 8),
        ("two players: the lead, leaving the answer alone in its trick", "klaberjass", 6),
        ("two players: the answer, whose seat then leads the next", "klaberjass", None),
        ("the last card of the hand", "klaberjass", 17),
    ],
)
def test_a_card_the_detector_never_reports_costs_only_that_play(
    rendered: dict[str, tuple[Path, dict]],
    model: Callable[[list[np.ndarray]], np.ndarray],
    rule: str,
    game: str,
    dropped: int | None,
) -> None:
    video, truth = rendered[game]
    plays = truth["plays"]
    n = 2 if game == "klaberjass" else 4
    dropped = _which_play(truth, n, dropped)
    clean = _watch(video, truth, model)
    assert _by_place(clean) == _truth_by_place(truth), "the hand must read right as it is"
    play = clean.log.plays[dropped]
    centre = np.asarray(play.quad).reshape(4, 2).mean(axis=0)
    size = float(np.sqrt(cv2.contourArea(np.asarray(play.quad, np.float32).reshape(4, 2))))
    seat_next = next(
        (p.t for p in clean.log.plays[dropped + 1 :] if p.seat == play.seat), float("inf")
    )
    start, end = play.t - 2.0, seat_next - 1.0  # from its slide in until its seat plays again

    def blind(image: np.ndarray, clock: list[float]) -> object:
        """What the watcher takes of the detector's finds, less the dropped card's."""
        found = detect(image)
        quads, crops, partial = found.quads, found.crops, found.partial
        if start <= clock[0] <= end and len(quads):
            centres = np.asarray(quads, np.float64).reshape(-1, 4, 2).mean(axis=1)
            keep = np.hypot(*(centres - centre).T) > 0.5 * size
            quads, crops, partial = quads[keep], crops[keep], partial[keep]
        return SimpleNamespace(quads=quads, crops=crops, partial=partial)

    clock = [0.0]
    watcher = Watcher(_spec(truth), model, detector=lambda image: blind(image, clock))
    for frame in VideoFile(video):
        clock[0] = frame.t
        watcher.feed(frame.image, frame.t)
    seen, true = _by_place(watcher), _truth_by_place(truth)
    where = (dropped // n + 1, plays[dropped]["seat"])
    missed = [p for p in watcher.log.plays if p.missed]
    assert len(missed) == 1 and missed[0].confirm and "missed" in missed[0].reason
    assert {k: v for k, v in seen.items() if k != where} == {
        k: v for k, v in true.items() if k != where
    }, rule
    assert watcher.complete
    spec = watcher.spec
    if len(spec.deck - spec.elsewhere) == spec.players * spec.tricks:
        # a deck played out (Clabber): once the hand is over the camera names the missed play
        # as the one card no other play shows, still marked for a person
        assert seen[where] == true[where], rule
        assert "the one card of the deck no other play shows" in missed[0].reason
        assert watcher.log.record()["tricks"] == truth["record"]["tricks"]
        return
    assert seen[where] is None, rule  # missed: the seat is known, the card never invented
    assert watcher.log.record()["tricks"][where[0] - 1].count("?") == 1
    # a person names it: the record and score are the truth's
    watcher.log.correct(missed[0].index, plays[dropped]["card"], by="a person")
    record = watcher.log.record()
    assert record["tricks"] == truth["record"]["tricks"]
    assert score_record(record)["score"] == score_record(truth["record"])["score"]


@pytest.mark.parametrize(
    ("rule", "game", "doubtful"),
    [
        ("a card between two others of its trick", "clabber", 5),
        ("the lead of a trick", "clabber", 8),
        ("two players: the answer, whose seat then leads the next", "klaberjass", None),
        ("the last card of the hand", "klaberjass", 17),
    ],
)
def test_a_card_seen_only_doubtfully_is_its_seats_play_marked_not_a_missed_one(
    rendered: dict[str, tuple[Path, dict]],
    model: Callable[[list[np.ndarray]], np.ndarray],
    rule: str,
    game: str,
    doubtful: int | None,
) -> None:
    """A far card blurred to a few dozen pixels reads mostly as 'not a card' (the plastic QC
    at the far seat of bench seed 9000 read 0.3-0.6 a face). Alone it is no play; but when
    its trick would close with that seat's play missed, it is that play: marked for a person,
    its card the best reading (here the hand read together names it: the deck is played
    out), and no other play moves."""
    video, truth = rendered[game]
    plays = truth["plays"]
    n = 2 if game == "klaberjass" else 4
    doubtful = _which_play(truth, n, doubtful)
    card = CARD_LABELS.index(Card.parse(plays[doubtful]["card"]))
    none = len(CARD_LABELS) + 1  # labels: the 52 cards, 'back', 'none'

    def blurred(crops: list[np.ndarray]) -> np.ndarray:
        probs = np.array(model(crops), np.float64)
        for row in probs:
            if int(np.argmax(row)) == card:
                row *= 0.35
                row[none] += 0.65
        return probs

    watcher = _watch(video, truth, blurred)
    seen, true = _by_place(watcher), _truth_by_place(truth)
    assert seen == true, rule
    where = (doubtful // n + 1, plays[doubtful]["seat"])
    play = next(p for p in watcher.log.plays if (p.trick, p.seat) == where)
    assert play.confirm and "doubtful" in play.reason, rule
    assert not [p for p in watcher.log.plays if p.missed]
    assert watcher.log.record()["tricks"] == truth["record"]["tricks"]


def test_a_card_landing_where_the_last_trick_lay_before_it_was_seen_gathered_is_a_new_play(
    tmp_path: Path, model: Callable[[list[np.ndarray]], np.ndarray]
) -> None:
    """Studio Clag seed 5008 (held-out deck, 1280x720, 15 fps; the studio acceptance run's one
    miss): seat 2's QC of trick 2 lands on the spot where its JC of trick 1 lay, while the
    watcher has not yet seen trick 1 gathered (its JC was still followed, a hand over it).
    The QC reads plainly as another card and looks unlike the JC: it is trick 2's play, not
    the JC back in view."""
    from vision.render.tablevideo import render_hand

    video = tmp_path / "clag.mp4"
    truth = render_hand("clag", 5008, video, size=(1280, 720), fps=15, heldout=True)
    watcher = _watch(video, truth, model)
    plays = {(p.trick, p.seat): p for p in watcher.log.plays}
    first, second = plays[(1, 2)], plays[(2, 2)]
    apart = np.hypot(
        *(
            np.asarray(first.quad).reshape(4, 2).mean(0)
            - np.asarray(second.quad).reshape(4, 2).mean(0)
        )
    )
    assert apart < 0.2 * np.sqrt(cv2.contourArea(np.asarray(first.quad, np.float32).reshape(4, 2)))
    assert watcher.log.record()["tricks"] == truth["record"]["tricks"]
    assert not [p for p in watcher.log.plays if p.missed]


def _track_at(centre: tuple[float, float], look: np.ndarray, track_id: int) -> object:
    from vision.track.motion import Track

    cx, cy = centre
    quad = np.array([[cx - 30, cy - 45], [cx + 30, cy - 45], [cx + 30, cy + 45], [cx - 30, cy + 45]], np.float32)  # fmt: skip
    return Track(track_id, quad, 0.0, 0.0, crops=[look])


def _face(colour: tuple[int, int, int], mark: tuple[int, int, int]) -> np.ndarray:
    face = np.full((240, 160, 3), colour, np.uint8)
    cv2.rectangle(face, (30, 50), (130, 190), mark, -1)
    return face


@pytest.mark.parametrize(
    ("p_candidate", "at_its_place", "looks_alike", "taken_for_it"),
    [
        (0.85, False, False, False),  # a far card misread as the candidate, on the table
        (0.99, False, False, True),  # surely the candidate, wherever it lies
        (0.85, True, False, True),  # back where the candidate lay
        (0.85, False, True, True),  # looking like the candidate did
    ],
)
def test_a_card_misread_as_the_candidate_on_the_stock_is_not_swallowed_as_it(
    p_candidate: float, at_its_place: bool, looks_alike: bool, taken_for_it: bool
) -> None:
    """Klaberjass: the candidate (7H) stays on the stock and is never a play. A card read as
    7H is taken for the candidate back in view only when read surely, lying where the
    candidate lay, or looking like it; a far JH read 7H at 0.85 on the table is a card of its
    own (fresh seed 10070: it was swallowed and its play missed)."""
    spec = games.klaberjass(dealer=0, upcard="7H", bidding=["accept"])
    watcher = Watcher(spec, lambda crops: np.zeros((len(crops), len(CARD_LABELS)), np.float32), suit_reader=None)  # fmt: skip
    candidate_look = _face((235, 235, 235), (40, 40, 200))
    watcher.fixture_places[Card.parse("7H")] = np.array([600.0, 100.0])
    watcher.fixture_looks[Card.parse("7H")] = _track_at((600, 100), candidate_look, 1)  # type: ignore[assignment]
    look = candidate_look if looks_alike else _face((235, 235, 235), (200, 120, 30))
    centre = (600.0, 100.0) if at_its_place else (300.0, 400.0)
    probs = np.zeros(len(CARD_LABELS), np.float32)
    probs[CARD_LABELS.index(Card.parse("7H"))] = p_candidate
    probs[CARD_LABELS.index(Card.parse("JH"))] = 1 - p_candidate
    events = watcher._seen_again(_track_at(centre, look, 2), probs, 5.0)  # type: ignore[arg-type]
    swallowed = bool(events) and "face-up card of the deal" in events[0].text
    assert swallowed == taken_for_it
