"""The card model as the server's camera uses it, and the frames it is given.

:class:`CardVision` is the shipped classifier (loaded once by :class:`service.camera.Cameras`):
a whole frame's cards, and the watcher's reader of upright card images; :class:`ReaderVision`
any reader in its place (a rendered deck's own faces, for demos and tests). A missing model is
:class:`CameraUnavailable` (answered 503); an upload OpenCV cannot decode :class:`NotAnImage`
(415).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from service.games import JSON


class CameraUnavailable(RuntimeError):
    """The card model cannot be loaded (its message says which file and why)."""


class NotAnImage(ValueError):
    """The upload is not an image OpenCV can decode."""


def decode_image(data: bytes) -> np.ndarray:
    """BGR pixels of an encoded image (JPEG, PNG, WebP, BMP...); :class:`NotAnImage` for
    anything the decoder cannot read, whatever the decoder raised. Check the size its header
    declares first (:func:`service.image_header.image_size`): decoding allocates all of it."""
    import cv2

    if not data:
        raise NotAnImage("the upload is empty: expected an image (JPEG, PNG, WebP)")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:  # a header it refuses, a broken stream: the upload's fault
        reason = str(exc).strip().splitlines()[-1][:200]
        raise NotAnImage(
            f"the upload ({len(data)} bytes) could not be decoded as an image ({reason})"
        ) from None
    if image is None or image.size == 0:
        raise NotAnImage(
            f"the upload ({len(data)} bytes, starting {data[:8]!r}) is not an image OpenCV "
            "can decode: expected JPEG, PNG or WebP"
        )
    return np.ascontiguousarray(image)


class Vision(Protocol):
    """What the camera needs of a card model: the cards of a frame's detections, and the
    watcher's reader (upright card images -> N x 54 probabilities)."""

    def cards(self, detections: Any) -> list[JSON]: ...

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray: ...


class CardVision:
    """The loaded classifier, as a whole-frame recogniser and as the watcher's card reader."""

    def __init__(self, model: str = "") -> None:
        from vision.read.classify import MODEL_PATH, CardClassifier, ModelError

        try:
            self.classifier = CardClassifier(model or MODEL_PATH)
        except ModelError as exc:
            raise CameraUnavailable(
                f"the frames endpoint needs the card model: {exc} "
                "(train it with `trickcam train`, or set TRICKCAM_MODEL)"
            ) from None

    def cards(self, detections: Any) -> list[JSON]:
        from vision.read.recognize import finds_from

        return [f.to_json() for f in finds_from(detections, self.classifier.classify(detections))]

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        return np.asarray(self.classifier.read_cards(np.stack(list(crops))).probs)


class ReaderVision:
    """Any :data:`vision.track.watch.Reader` as the camera's model: e.g. a reader that knows one
    rendered deck's faces (``vision.render.tablevideo.deck_reader``), for demos and for testing the
    server-side watcher apart from the classifier."""

    def __init__(self, reader: Callable[[Sequence[np.ndarray]], np.ndarray]) -> None:
        self.reader = reader

    def cards(self, detections: Any) -> list[JSON]:
        from vision.read.decode import LABELS

        if len(detections.crops) == 0:
            return []
        probs = np.asarray(self.read(list(detections.crops)))
        out = []
        for quad, row in zip(detections.quads, probs, strict=True):
            best = LABELS[int(np.argmax(row))]
            if best == "none":
                continue
            out.append(
                {
                    "card": best if best != "back" else None,
                    "confidence": round(float(row.max()), 4),
                    "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
                }
            )
        return out

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        return np.asarray(self.reader(list(crops)))
