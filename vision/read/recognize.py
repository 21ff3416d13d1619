"""Frame in, named cards out: detection followed by one classifier batch.

Why a separate step: the CLI, the benchmarks and (later) the table tracker all want the same
thing, a list of finds with outline, card (or None when unsure), confidence and the full
distribution; finds the classifier calls 'not a card' are dropped here, once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect.corners import MODEL_PATH as CORNER_MODEL
from vision.detect.corners import CornerDetector, CornerModelError
from vision.detect.find import Detections, detect, release_corners
from vision.read.classify import CardClassifier, Readings


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


def read_frame(detections: Detections, classifier: CardClassifier) -> tuple[Detections, Readings]:
    """``detections`` read by ``classifier``; then the index corners that only outlines not
    named held (two overlapping cards on a pale table outlined as one, read as nothing or
    unsure) are read too, each as a card seen by its corner alone
    (:func:`vision.detect.find.release_corners`): the detections with those rows added, and
    all their readings. (Real scenes, bench/recognition.py: jonasblanc's overlapped hands
    10 more cards named, bidly 2, none wrong; outlines read as no card alone: 2 and 0.)"""
    readings = classifier.classify(detections)
    no_card = [
        i for i in range(len(detections)) if not readings.one_corner[i] and readings.card(i) is None
    ]
    more = release_corners(detections, no_card)
    if len(more) == len(detections):
        return detections, readings
    added = more.take(list(range(len(detections), len(more))))
    return more, readings.followed_by(classifier.classify(added))


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
