"""Frame sources (vision.sources): files, folders, globs, and live captures that drop out."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (
    Backoff,
    ImageFolder,
    LiveCapture,
    SourceError,
    VideoFile,
    open_source,
)


def _video(path: Path, frames: int = 12, fps: float = 6.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (64, 48))
    assert writer.isOpened(), "OpenCV here cannot write mp4v"
    for i in range(frames):
        writer.write(np.full((48, 64, 3), 10 * i, np.uint8))
    writer.release()
    return path


def test_video_file_frames_carry_their_time_in_the_video(tmp_path: Path) -> None:
    src = open_source(str(_video(tmp_path / "v.mp4")))
    assert isinstance(src, VideoFile) and src.total == 12 and src.fps == 6.0
    frames = list(src)
    assert [f.index for f in frames] == list(range(12))
    assert frames[6].t == pytest.approx(1.0)
    assert frames[0].image.shape == (48, 64, 3)
    # a rate given for it replaces the file's; one that is not positive is refused
    assert open_source(str(tmp_path / "v.mp4"), fps=3).fps == 3.0
    for bad in (-3.0, 0.0):
        with pytest.raises(SourceError, match="frame rate must be positive"):
            open_source(str(tmp_path / "v.mp4"), fps=bad)


def test_image_folder_and_glob_play_in_name_order_at_the_given_rate(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), 50 * i, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    src = open_source(str(tmp_path), fps=4)
    assert isinstance(src, ImageFolder)
    frames = list(src)
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert [f.t for f in frames] == [0.0, 0.25, 0.5]
    assert len(list(open_source(str(tmp_path / "f*.png"), fps=1))) == 3


@pytest.mark.parametrize(
    ("spec", "message"),
    [("/no/such/file.mp4", "not a camera index"), ("/no/such/*.png", "no images")],
)
def test_unknown_sources_are_refused_with_the_input_quoted(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message) as info:
        open_source(spec)
    assert spec in str(info.value)


def test_a_live_source_that_stops_is_reopened_with_backoff_and_time_keeps_running(
    tmp_path: Path,
) -> None:
    """A real capture that runs dry (a file standing in for a camera that drops out): the
    source reopens it after backoff delays, twice, failing once in between."""
    video = _video(tmp_path / "cam.mp4", frames=5)
    opened: list[str] = []
    slept: list[float] = []
    clock = iter(float(i) for i in range(10_000))

    def opener() -> cv2.VideoCapture:
        opened.append("try")
        if len(opened) == 2:  # the camera is still away on the first retry
            return cv2.VideoCapture(str(tmp_path / "missing.mp4"))
        return cv2.VideoCapture(str(video))

    src = LiveCapture(
        "rtsp://table-cam",
        backoff=Backoff(first=0.5, most=2.0, attempts=3),
        read_failures=2,
        opener=opener,
        clock=lambda: next(clock),
        sleep=slept.append,
    )
    frames = []
    for f in src:
        frames.append(f)
        if len(frames) == 15:
            src.close()
    assert len(frames) == 15  # 5 + 5 + 5: nothing lost, nothing crashed
    assert [f.index for f in frames] == list(range(15))
    assert all(b.t > a.t for a, b in zip(frames, frames[1:], strict=False))
    assert src.reconnects == 2
    assert slept[:3] == [0.5, 1.0, 0.5]  # backoff doubles while the camera stays away


def test_a_live_source_that_never_opens_is_an_error() -> None:
    src = LiveCapture("rtsp://nowhere", opener=lambda: cv2.VideoCapture("/no/such.mp4"))
    with pytest.raises(SourceError, match="cannot be opened"):
        next(iter(src))


def test_a_live_source_gives_up_after_its_attempts_keeping_what_it_delivered(
    tmp_path: Path,
) -> None:
    video = _video(tmp_path / "cam.mp4", frames=3)
    calls: list[int] = []

    def opener() -> cv2.VideoCapture:
        calls.append(1)
        return cv2.VideoCapture(str(video) if len(calls) == 1 else "/no/such.mp4")

    slept: list[float] = []
    src = LiveCapture(
        3, backoff=Backoff(first=1, most=4, attempts=4), opener=opener, sleep=slept.append
    )
    assert len(list(src)) == 3
    assert slept == [1, 2, 4, 4] and len(calls) == 5
