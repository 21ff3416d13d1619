"""Detection over a stream of frames: a frame that shows what the last one showed costs
almost nothing.

Why: a camera over a card table sends 10-30 frames a second and most of them show the same
table: nobody is playing, or a card lies still. Detection (:func:`vision.detect.find.detect`)
costs milliseconds; comparing a 64 x 36 grey thumbnail of the frame with the last detected
one costs a few tens of microseconds. Where no cell of the thumbnail moved by more than
:data:`CHANGE_LEVEL` grey levels, the last detections stand (re-pointed at the new frame, so
crops warped later come from it).

Slow light drift is not a change; it accumulates against the last *detected* frame until it
is one, and the frame is detected again.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.detect.corners import CornerDetector
from vision.detect.find import Detections, detect

THUMB = (64, 36)
"""Thumbnail size (width, height) compared between frames."""

CHANGE_LEVEL = 10.0
"""A thumbnail cell this many grey levels brighter or darker than in the last detected frame
is a change (a card, a hand, a shadow); camera noise and compression stay well under it."""


def thumbnail(frame_bgr: np.ndarray) -> np.ndarray:
    """The grey thumbnail a frame is compared by (float32, :data:`THUMB`): every cell the
    mean of 16 pixels picked evenly over it (sensor noise averages out as well as over all of
    them, at a tenth of the cost of reading the whole frame)."""
    w, h = THUMB
    if frame_bgr.shape[1] > 4 * w and frame_bgr.shape[0] > 4 * h:
        frame_bgr = cv2.resize(frame_bgr, (4 * w, 4 * h), interpolation=cv2.INTER_NEAREST)
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)


class StreamDetector:
    """``detect`` for consecutive frames of one camera, skipping frames that did not change.

    ``corner_detector`` is passed on to :func:`~vision.detect.find.detect`. ``skipped`` and
    ``detected`` count the frames of each kind.
    """

    def __init__(
        self, corner_detector: CornerDetector | None = None, change_level: float = CHANGE_LEVEL
    ) -> None:
        self.corner_detector = corner_detector
        self.change_level = change_level
        self._thumb: np.ndarray | None = None
        self._last: Detections | None = None
        self.skipped = 0
        self.detected = 0

    def changed(self, thumb: np.ndarray) -> bool:
        """Whether ``thumb`` differs from the last detected frame's."""
        if self._thumb is None or self._thumb.shape != thumb.shape:
            return True
        return float(np.abs(thumb - self._thumb).max()) > self.change_level

    def __call__(self, frame_bgr: np.ndarray) -> Detections:
        thumb = thumbnail(frame_bgr)
        if self._last is not None and not self.changed(thumb):
            self.skipped += 1
            return dataclasses.replace(self._last, frame=frame_bgr)
        found = detect(frame_bgr, corner_detector=self.corner_detector)
        self._thumb, self._last = thumb, found
        self.detected += 1
        return found

    def reset(self) -> None:
        """Forget the last frame (the camera moved, a new table): the next one is detected."""
        self._thumb = self._last = None
