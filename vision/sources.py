"""Where frames come from: a camera, a video file, a folder or glob of images, or a stream URL.

Every source yields :class:`Frame` values carrying a timestamp in seconds: the position in the
video for files (so a file is replayed exactly, however fast it is read), the time since the
source opened for live cameras and streams, ``index / fps`` for image folders.

Live sources fail in practice (a USB camera unplugged, a Wi-Fi stream dropping): a live source
that stops delivering is reopened with exponential backoff, and the timestamps keep running, so
the pipeline neither crashes nor loses the plays already seen. A file that ends simply ends.
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
URL_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://", "rtmp://")


class SourceError(ValueError):
    """A source that names nothing that can be opened (quoted in the message)."""


@dataclass(frozen=True)
class Frame:
    """One frame: ``image`` BGR uint8, ``t`` seconds since the source started, ``index``."""

    image: np.ndarray
    t: float
    index: int


@dataclass
class Backoff:
    """Reopen delays for live sources: ``first`` seconds, doubling up to ``most``;
    ``attempts`` reopenings in a row before giving up (``None``: forever)."""

    first: float = 0.5
    most: float = 8.0
    attempts: int | None = None

    def delays(self) -> Iterator[float]:
        delay, n = self.first, 0
        while self.attempts is None or n < self.attempts:
            yield delay
            delay = min(self.most, delay * 2)
            n += 1


class Source:
    """Base class: iterate to get frames; ``total`` is the frame count when known (files)."""

    description: str = ""
    total: int | None = None
    fps: float = 0.0
    live: bool = False

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file (iteration does it too when it ends)."""


class VideoFile(Source):
    """A video file, read frame by frame; timestamps from the frame index and the file's rate."""

    def __init__(self, path: str | Path, fps: float | None = None) -> None:
        self.path = Path(path)
        if fps is not None and fps <= 0:
            raise SourceError(
                f"video file {str(path)!r}: the frame rate must be positive, got {fps:g}"
            )
        if not self.path.is_file():
            raise SourceError(f"video file {str(path)!r} not found")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"video file {str(path)!r} cannot be opened by OpenCV")
        file_fps = cap.get(cv2.CAP_PROP_FPS) or 0.0
        self.fps = float(fps or (file_fps if file_fps > 0 else 30.0))
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.total = count if count > 0 else None
        cap.release()
        self.description = f"video {self.path} ({self.fps:g} fps)"

    def __iter__(self) -> Iterator[Frame]:
        cap = cv2.VideoCapture(str(self.path))
        try:
            index = 0
            while True:
                ok, image = cap.read()
                if not ok or image is None:
                    return
                yield Frame(image, index / self.fps, index)
                index += 1
        finally:
            cap.release()


class ImageFolder(Source):
    """Image files in name order (a folder, or a glob pattern), played at ``fps``."""

    def __init__(self, spec: str | Path, fps: float = 2.0) -> None:
        text = str(spec)
        if os.path.isdir(text):
            paths = sorted(p for p in Path(text).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            paths = sorted(Path(p) for p in glob.glob(text) if p.lower().endswith(IMAGE_SUFFIXES))
        if not paths:
            raise SourceError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {text!r}")
        if fps <= 0:
            raise SourceError(f"image folder {text!r}: the frame rate must be positive, got {fps}")
        self.paths = paths
        self.fps = float(fps)
        self.total = len(paths)
        self.description = f"{len(paths)} images from {text} at {fps:g} fps"

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        for path in self.paths:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:  # an unreadable file is skipped, not fatal
                continue
            yield Frame(image, index / self.fps, index)
            index += 1


Opener = Callable[[], "cv2.VideoCapture"]


class LiveCapture(Source):
    """A camera index or a stream URL, reopened with backoff when it stops delivering.

    ``read_failures`` failed reads in a row count as a lost source. ``clock`` and ``sleep`` are
    injectable so the reconnection logic can be tested against a real capture that fails.
    """

    live = True

    def __init__(
        self,
        target: int | str,
        *,
        backoff: Backoff | None = None,
        read_failures: int = 5,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.target = target
        self.backoff = backoff or Backoff()
        self.read_failures = read_failures
        self._open = opener or (lambda: cv2.VideoCapture(target))
        self.clock, self.sleep = clock, sleep
        self.log = log or (lambda _msg: None)
        self.reconnects = 0
        kind = "camera" if isinstance(target, int) else "stream"
        self.description = f"{kind} {target}"
        self._stopped = False

    def close(self) -> None:
        self._stopped = True

    def _connect(self, first: bool) -> cv2.VideoCapture | None:
        cap = self._open()
        if cap is not None and cap.isOpened():
            return cap
        if first:
            hint = (
                "is it plugged in, and not in use by another program? (cameras count from 0)"
                if isinstance(self.target, int)
                else "is the address right, and is the camera or phone streaming to it?"
            )
            raise SourceError(f"{self.description!s} cannot be opened: {hint}")
        return None

    def __iter__(self) -> Iterator[Frame]:
        start = self.clock()
        index = 0
        cap = self._connect(first=True)
        try:
            while not self._stopped:
                failures = 0
                while cap is not None and not self._stopped:
                    ok, image = cap.read()
                    if ok and image is not None:
                        failures = 0
                        yield Frame(image, self.clock() - start, index)
                        index += 1
                        continue
                    failures += 1
                    if failures >= self.read_failures:
                        break
                if cap is not None:
                    cap.release()
                    cap = None
                if self._stopped:
                    return
                self.log(f"{self.description}: no frames; reopening")
                for delay in self.backoff.delays():
                    self.sleep(delay)
                    cap = self._connect(first=False)
                    if cap is not None:
                        self.reconnects += 1
                        self.log(f"{self.description}: reopened")
                        break
                if cap is None:
                    self.log(f"{self.description}: gave up after {self.backoff.attempts} tries")
                    return
        finally:
            if cap is not None:
                cap.release()


def open_source(spec: str | int, fps: float | None = None, **live_options: object) -> Source:
    """The source ``spec`` names: a camera index (``0``), a URL, a video file, a folder or a glob.

    ``fps`` is the frame rate of image folders (default 2) or overrides a video file's own.
    """
    text = str(spec).strip()
    if isinstance(spec, int) or text.isdigit():
        return LiveCapture(int(text), **live_options)  # type: ignore[arg-type]
    if text.lower().startswith(URL_SCHEMES):
        return LiveCapture(text, **live_options)  # type: ignore[arg-type]
    if os.path.isdir(text) or any(ch in text for ch in "*?["):
        return ImageFolder(text, fps if fps is not None else 2.0)
    if os.path.isfile(text):
        if text.lower().endswith(IMAGE_SUFFIXES):
            return ImageFolder(text, fps if fps is not None else 2.0)
        return VideoFile(text, fps)
    raise SourceError(
        f"source {text!r}: not a camera index, a URL, a video file, a folder or a glob of images"
    )
