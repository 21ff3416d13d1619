"""Frame in, named cards out: detection followed by one classifier batch.

Why a separate step: the CLI, the benchmarks and (later) the table tracker all want the same
thing, a list of finds with outline, card (or None when unsure), confidence and the full
distribution; finds the classifier calls 'not a card' are dropped here, once.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect.candidates import iou
from vision.detect.corners import MODEL_PATH as CORNER_MODEL
from vision.detect.corners import CornerDetector, CornerModelError
from vision.detect.find import Detections, detect, release_corners
from vision.detect.quads import PHOTO_TAPER, quad_area
from vision.read.classify import (
    CARD_LABELS,
    PARTIAL_THRESHOLD,
    CardClassifier,
    Readings,
    combine_corners,
)

OPPOSITE_OVERLAP = 0.3
"""Two cards read from one corner each, facing opposite ways, whose guessed outlines share
more than this (intersection over union) are one card seen by both its index corners (the
index-corner detector found both, but their guessed outlines were too far apart to pair:
the card's border hardly shows on a pale table, or perspective squeezed it): when both name
one card, their readings are combined as a whole card's two corners are. Two guesses each a
fifth short of the card share 0.39, a quarter short 0.29 (guillex7's ace of clubs on white
paper: 0.495, its corners read AC 0.88 and 0.78). Real scenes (bench/recognition.py): bidly
+1 card, guillex7 +1, jonasblanc +2, none wrong (at 0.5: guillex7's ace not joined).
Held-out layouts (bench/onecorner.py --scenes 200), one-corner readings from 0.9: seed 31 388
-> 395 named, 0 wrong; 32 348 -> 353, 3 -> 3 wrong; 34 407 -> 415, 2 -> 2 wrong (both rows
given the product: 3 wrong, a 7D read 7H joined with the 7H lying across it); fresh seed 35
386 -> 390, 2 -> 2 wrong."""


ELSEWHERE_OPPOSITE = 0.15
"""Two one-corner rows facing opposite ways whose guessed outlines share more than this
(intersection over union) may be one card seen by both its corners: neither rules the
other's card out (:func:`one_of_each`)."""


@dataclass(frozen=True)
class Find:
    """One card found in a frame."""

    quad: np.ndarray
    """4 x 2 float32 frame pixels: top-left, top-right, bottom-right, bottom-left of the warp."""
    card: str | None
    """The card code (``"QH"``), or None when the classifier is unsure or sees a card back."""
    best: str
    """The most probable label, even when unsure (a card code, ``back`` or ``none``)."""
    confidence: float
    probs: np.ndarray
    """Probabilities over the 54 labels (``vision.detect.preprocess.LABELS``)."""
    partial: bool
    """The outline touches the frame's edge: the card may be cut off."""

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "confidence": round(float(self.confidence), 4),
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "partial": bool(self.partial),
            **({"best": self.best} if self.card is None else {}),
        }


def finds_from(detections: Detections, readings: Readings) -> list[Find]:
    """Pair detections with their readings, dropping what the classifier calls 'none', and
    the cards hidden in fans that could not be named or repeat a card named elsewhere (a
    hidden card's outline is only a guess: unnamed, it is noise)."""
    finds = []
    named = {readings.card(i) for i in range(len(detections)) if not readings.one_corner[i]}
    hidden: dict[str, int] = {}
    for i in range(len(detections)):
        if readings.one_corner[i]:
            card = readings.card(i)
            if card is None or card in named:
                continue
            if card in hidden and readings.confidence[hidden[card]] >= readings.confidence[i]:
                continue
            hidden[card] = i
    keep_hidden = set(hidden.values())
    for i in range(len(detections)):
        if readings.one_corner[i] and i not in keep_hidden:
            continue
        if readings.best[i] == "none" and not readings.unsure[i]:
            continue
        finds.append(
            Find(
                quad=detections.quads[i],
                card=readings.card(i),
                best=readings.best[i],
                confidence=float(readings.confidence[i]),
                probs=readings.probs[i],
                partial=bool(detections.partial[i]),
            )
        )
    return finds


def join_opposite_corners(detections: Detections, readings: Readings) -> Readings:
    """``readings`` with each pair of one-corner rows that are one card seen by both its
    index corners (see :data:`OPPOSITE_OVERLAP`) and whose best readings name one card
    given, in the surer row of the two, their corners' combined reading (normalised product,
    as a whole card's two corners): where one of the two is another card misread as this
    one, the surer is the card more likely."""
    rows = [i for i in range(len(readings)) if readings.one_corner[i]]
    if len(rows) < 2:
        return readings
    probs = readings.probs.copy()
    quads = np.asarray(detections.quads, np.float32)
    joined = False
    for a, i in enumerate(rows):
        for j in rows[a + 1 :]:
            if readings.best[i] != readings.best[j] or readings.best[i] not in CARD_LABELS:
                continue
            ri, rj = quads[i][1] - quads[i][0], quads[j][1] - quads[j][0]
            if float(ri @ rj) > -0.9 * float(np.linalg.norm(ri) * np.linalg.norm(rj)):
                continue  # not facing opposite ways
            if iou(quads[i], quads[j], quad_area(quads[i])) <= OPPOSITE_OVERLAP:
                continue
            # the surer row is that card, read from both corners; the other stays as it was
            surer = i if readings.confidence[i] >= readings.confidence[j] else j
            probs[surer] = combine_corners(readings.probs[[i]], readings.probs[[j]])[0]
            joined = True
    if not joined:
        return readings
    best = probs.argmax(axis=1)
    confidence = probs[np.arange(len(probs)), best].astype(np.float32)
    unsure = np.where(readings.one_corner, confidence < PARTIAL_THRESHOLD, readings.unsure)
    return Readings(
        labels=readings.labels,
        probs=probs,
        best=tuple(readings.labels[k] for k in best),
        confidence=confidence,
        unsure=unsure,
        one_corner=readings.one_corner,
    )


def _index_point(quad: np.ndarray) -> tuple[float, float]:
    """Where a row's index lies: a tenth of the way in from the upright warp's top-left
    corner along both sides (the visible corner of a one-corner row)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    p = q[0] + 0.1 * (q[1] - q[0]) + 0.1 * (q[3] - q[0])
    return float(p[0]), float(p[1])


def _inside(point: tuple[float, float], quad: np.ndarray) -> bool:
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, point, False) >= 0


def _may_be_one(detections: Detections, i: int, j: int) -> bool:
    """Row ``i`` (a card seen by one corner) and row ``j`` may show one physical card:
    ``i``'s index lies on ``j``'s outline (even a guessed one: a card lying on it may be it),
    or the two found one corner twice, or one card by both its corners."""
    qi, qj = detections.quads[i], detections.quads[j]
    pi = _index_point(qi)
    if _inside(pi, qj):
        return True
    if not detections.one_corner[j]:
        return False
    pj = _index_point(qj)
    if float(np.hypot(pi[0] - pj[0], pi[1] - pj[1])) < 0.3 * float(np.sqrt(quad_area(qj))):
        return True
    ri, rj = qi[1] - qi[0], qj[1] - qj[0]
    facing = float(ri @ rj) < -0.9 * float(np.linalg.norm(ri) * np.linalg.norm(rj))
    if not facing:
        return False
    overlap = iou(np.asarray(qi, np.float32), np.asarray(qj, np.float32), quad_area(qi))
    return overlap > ELSEWHERE_OPPOSITE


def one_of_each(detections: Detections, readings: Readings) -> Readings:
    """``readings`` with what one deck rules out struck out: a photo of a game holds each card
    once, so a card read from one corner left unsure between cards, one of which another row
    elsewhere names (surely, and not the same physical card: see :func:`_may_be_one`), is
    read again without that card (its probability given to the rest, renormalised), and named
    when that makes it sure (:data:`PARTIAL_THRESHOLD`). Cards named so rule out in turn,
    surest first, until nothing changes. Whole outlines left unsure are left alone: one may
    span two overlapping cards (on held-out rendered layouts, striking out theirs named one
    whole card wrongly and no card more on the real photographs).

    Real scenes (bench/recognition.py): F1 0.963 -> 0.978, precision 1.000; bidly 0.894 ->
    0.953 (a deal's fanned 7 read "spade or club" beside the 7S named in another hand),
    jonasblanc 0.979 -> 0.983, notanumber11 0.981 -> 0.983, the rest unchanged. Held-out
    rendered layouts (bench/onecorner.py): see models/README.md."""
    n = len(readings)
    if n < 2:
        return readings
    probs = readings.probs.copy()
    card_index = {label: k for k, label in enumerate(readings.labels) if label in CARD_LABELS}
    named = {i: readings.card(i) for i in range(n) if readings.card(i) is not None}
    apart: dict[tuple[int, int], bool] = {}  # (i, j): not the same card (kept between rounds)

    def elsewhere(i: int, j: int) -> bool:
        if (i, j) not in apart:
            apart[i, j] = not _may_be_one(detections, i, j)
        return apart[i, j]

    changed: list[int] = []
    while True:
        # the unsure rows that would be named if a card named elsewhere were struck out
        best: tuple[float, int, np.ndarray] | None = None
        for i in range(n):
            if i in named or not readings.one_corner[i]:
                continue  # (a whole outline left unsure may span two cards: left alone)
            out = [card_index[c] for j, c in named.items() if j != i and elsewhere(i, j)]
            if not out:
                continue
            p = probs[i].copy()
            p[out] = 0.0
            total = float(p.sum())
            if total <= 0:
                continue
            p /= total
            k = int(p.argmax())
            label = readings.labels[k]
            if (
                label in card_index
                and p[k] >= PARTIAL_THRESHOLD
                and (best is None or p[k] > best[0])
            ):
                best = (float(p[k]), i, p)
        if best is None:
            break
        _, i, p = best
        probs[i] = p
        named[i] = readings.labels[int(p.argmax())]
        changed.append(i)
    if not changed:
        return readings
    best_labels = list(readings.best)
    confidence = readings.confidence.astype(np.float32)
    unsure = readings.unsure.copy()
    for i in changed:
        k = int(probs[i].argmax())
        best_labels[i] = readings.labels[k]
        confidence[i] = probs[i, k]
        unsure[i] = False
    return Readings(
        labels=readings.labels,
        probs=probs,
        best=tuple(best_labels),
        confidence=confidence,
        unsure=unsure,
        one_corner=readings.one_corner,
    )


def read_frame(
    detections: Detections, classifier: CardClassifier, one_deck: bool = True
) -> tuple[Detections, Readings]:
    """``detections`` read by ``classifier``; then the index corners that only outlines not
    named held (two overlapping cards on a pale table outlined as one, read as nothing or
    unsure) are read too, each as a card seen by its corner alone
    (:func:`vision.detect.find.release_corners`): the detections with those rows added, and
    all their readings, a card seen by both its corners read from both
    (:func:`join_opposite_corners`). (Real scenes, bench/recognition.py: jonasblanc's overlapped hands
    10 more cards named, bidly 2, none wrong; outlines read as no card alone: 2 and 0.)
    With ``one_deck`` (a game's photo: each card at most once), what the cards named
    elsewhere rule out is struck out of the unsure rows (:func:`one_of_each`)."""
    readings = classifier.classify(detections)
    no_card = [
        i for i in range(len(detections)) if not readings.one_corner[i] and readings.card(i) is None
    ]
    more = release_corners(detections, no_card)
    if len(more) > len(detections):
        added = more.take(list(range(len(detections), len(more))))
        detections, readings = more, readings.followed_by(classifier.classify(added))
    joined = join_opposite_corners(detections, readings)
    if not one_deck:
        return detections, joined
    return detections, one_of_each(detections, joined)


class Recognizer:
    """Detection + classification of whole frames (one onnxruntime batch per frame).

    ``corners``: the index-corner detector that finds cards only a corner shows (fans, piles,
    pale tables); by default the shipped ``models/corners.onnx`` when it is there, ``None``
    for outlines alone. ``one_deck``: each photo holds each card at most once (one deck, as
    every game here is played with), so what the cards named surely rule out helps name the
    unsure ones (:func:`one_of_each`); False for cards of two decks mixed. ``taper``: how
    much longer one side of a card's outline may be than its opposite side; by default a
    photograph's (:data:`vision.detect.quads.PHOTO_TAPER`: a phone may be held low and
    close), :data:`~vision.detect.quads.TAPER` for frames of a camera on a stand."""

    def __init__(
        self,
        classifier: CardClassifier | None = None,
        corners: CornerDetector | None | str = "default",
        one_deck: bool = True,
        taper: float = PHOTO_TAPER,
    ) -> None:
        self.one_deck = one_deck
        self.taper = taper
        self.classifier = classifier if classifier is not None else CardClassifier()
        if corners == "default":
            corners = default_corner_detector(self.classifier.session.get_session_options())
        self.corners = corners if isinstance(corners, CornerDetector) else None

    def __call__(self, frame_bgr: np.ndarray) -> list[Find]:
        detections = detect(frame_bgr, corner_detector=self.corners, taper=self.taper)
        return finds_from(*read_frame(detections, self.classifier, self.one_deck))


def default_corner_detector(options: object | None = None) -> CornerDetector | None:
    """The shipped index-corner detector, or None when it is not there (outlines alone)."""
    threads = int(getattr(options, "intra_op_num_threads", 1) or 1)
    try:
        return CornerDetector(CORNER_MODEL, threads=threads)
    except CornerModelError:
        return None
