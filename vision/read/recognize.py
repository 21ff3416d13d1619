"""Frame in, named cards out: detection followed by one classifier batch.

Why a separate step: the CLI, the benchmarks and (later) the table tracker all want the same
thing, a list of finds with outline, card (or None when unsure), confidence and the full
distribution; finds the classifier calls 'not a card' are dropped here, once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect.candidates import iou
from vision.detect.corners import MODEL_PATH as CORNER_MODEL
from vision.detect.corners import CornerDetector, CornerModelError
from vision.detect.find import Detections, detect, release_corners
from vision.detect.quads import quad_area
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


def read_frame(detections: Detections, classifier: CardClassifier) -> tuple[Detections, Readings]:
    """``detections`` read by ``classifier``; then the index corners that only outlines not
    named held (two overlapping cards on a pale table outlined as one, read as nothing or
    unsure) are read too, each as a card seen by its corner alone
    (:func:`vision.detect.find.release_corners`): the detections with those rows added, and
    all their readings, a card seen by both its corners read from both
    (:func:`join_opposite_corners`). (Real scenes, bench/recognition.py: jonasblanc's overlapped hands
    10 more cards named, bidly 2, none wrong; outlines read as no card alone: 2 and 0.)"""
    readings = classifier.classify(detections)
    no_card = [
        i for i in range(len(detections)) if not readings.one_corner[i] and readings.card(i) is None
    ]
    more = release_corners(detections, no_card)
    if len(more) > len(detections):
        added = more.take(list(range(len(detections), len(more))))
        detections, readings = more, readings.followed_by(classifier.classify(added))
    return detections, join_opposite_corners(detections, readings)


class Recognizer:
    """Detection + classification of whole frames (one onnxruntime batch per frame).

    ``corners``: the index-corner detector that finds cards only a corner shows (fans, piles,
    pale tables); by default the shipped ``models/corners.onnx`` when it is there, ``None``
    for outlines alone."""

    def __init__(
        self,
        classifier: CardClassifier | None = None,
        corners: CornerDetector | None | str = "default",
    ) -> None:
        self.classifier = classifier if classifier is not None else CardClassifier()
        if corners == "default":
            corners = default_corner_detector(self.classifier.session.get_session_options())
        self.corners = corners if isinstance(corners, CornerDetector) else None

    def __call__(self, frame_bgr: np.ndarray) -> list[Find]:
        detections = detect(frame_bgr, corner_detector=self.corners)
        return finds_from(*read_frame(detections, self.classifier))


def default_corner_detector(options: object | None = None) -> CornerDetector | None:
    """The shipped index-corner detector, or None when it is not there (outlines alone)."""
    threads = int(getattr(options, "intra_op_num_threads", 1) or 1)
    try:
        return CornerDetector(CORNER_MODEL, threads=threads)
    except CornerModelError:
        return None
