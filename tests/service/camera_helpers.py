"""Helpers for the camera page's tests: a real ``trickcam serve``, Chromium with a fake camera
fed from a file, and that file made from the bundled rendered hand (OpenCV only: ffmpeg may be
missing). Chromium plays a ``.y4m`` file at the frame rate its header gives, in a loop."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
from svc_helpers import ORGANISER_PIN, free_port

from tests.ci import need

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "samples" / "clabber_hand.mp4"
CHROMIUM = os.environ.get("TRICKCAM_CHROMIUM", "/usr/bin/chromium")
# nothing of Chromium's own reaches for the network (updates, metrics, safe browsing...)
QUIET = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-default-apps", "--disable-sync", "--no-first-run", "--metrics-recording-only",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
]  # fmt: skip
PHONE = {"width": 412, "height": 860}  # a phone upright, CSS pixels


def read_frames(video: Path = SAMPLE) -> list[np.ndarray]:
    capture = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    return frames


def hide_play(true: dict[str, Any], index: int, fps: float = 10.0) -> Any:
    """An edit for :func:`write_y4m` that keeps play ``index``'s card out of the camera's
    sight from just before it lands until the next trick is led: its place shows the bare
    table of a frame from before its trick (as a hand held over it would hide it)."""
    from vision.detect.find import detect

    frames = read_frames()
    plays = true["rendered"]["plays"]
    t_rest = float(plays[index]["t_rest"])

    def finds(t: float) -> list[np.ndarray]:
        found = detect(frames[int(round(t * fps))])
        return [np.asarray(q, np.float64).reshape(4, 2) for q in found.quads]

    before = [q.mean(axis=0) for q in finds(t_rest - 1.6)]
    new = [
        q for q in finds(t_rest + 0.4) if all(np.hypot(*(q.mean(axis=0) - b)) > 20 for b in before)
    ]
    assert len(new) == 1, f"play {index}: {len(new)} new cards where one landed"
    (x0, y0), (x1, y1) = new[0].min(axis=0), new[0].max(axis=0)
    pad_x, pad_y = 0.35 * (x1 - x0), 0.35 * (y1 - y0)
    box = (int(max(0, x0 - pad_x)), int(max(0, y0 - pad_y)), int(x1 + pad_x), int(y1 + pad_y))
    trick = index // 4
    start, end = t_rest - 1.5, float(plays[(trick + 1) * 4]["t_rest"]) - 1.0
    plate = frames[int(round((float(plays[trick * 4]["t_rest"]) - 0.8) * fps))]

    def edit(_i: int, t: float, frame: np.ndarray) -> np.ndarray:
        if start <= t <= end:
            frame = frame.copy()
            frame[box[1] : box[3], box[0] : box[2]] = plate[box[1] : box[3], box[0] : box[2]]
        return frame

    return edit


def truth() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    return data


def write_y4m(
    out: Path,
    video: Path = SAMPLE,
    until_s: float | None = None,
    edit: Callable[[int, float, np.ndarray], np.ndarray] | None = None,
    hold_s: float = 0.0,
) -> float:
    """``video`` as a YUV4MPEG2 file (4:2:0) for Chromium's fake camera, optionally cut at
    ``until_s``, each frame passed through ``edit(index, t, frame)``, the last one held for
    ``hold_s`` (a still table: Chromium plays the file in a loop); returns its fps."""
    capture = cv2.VideoCapture(str(video))
    fps = capture.get(cv2.CAP_PROP_FPS) or 10.0
    w = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    h = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    num, den = (int(round(fps * 1000)), 1000) if fps % 1 else (int(fps), 1)
    with out.open("wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{num}:{den} Ip A1:1 C420jpeg\n".encode())
        i = 0
        while True:
            ok, frame = capture.read()
            t = i / fps
            if not ok or (until_s is not None and t > until_s):
                break
            if edit is not None:
                frame = edit(i, t, frame)
            last = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes()
            f.write(b"FRAME\n" + last)
            i += 1
        for _ in range(int(hold_s * fps)):
            f.write(b"FRAME\n" + last)
    capture.release()
    return float(fps)


@contextlib.contextmanager
def serve(tmp: Path, *extra: str) -> Iterator[str]:
    """``trickcam serve`` on a free port in its own process group (killed at the end)."""
    port = free_port()
    log = (tmp / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(tmp / "club.db"),
         "--port", str(port), "--log-level", "warning", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "TRICKCAM_ORGANISER_PIN": ORGANISER_PIN},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp / "serve.log").read_text()[-2000:]
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{url}/api/tables", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, "trickcam serve did not answer in time"
            time.sleep(0.1)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        log.close()


def chromium_args(y4m: Path) -> list[str]:
    need(
        shutil.which(CHROMIUM) is not None or Path(CHROMIUM).exists(),
        f"Chromium at {CHROMIUM} (apt-get install chromium, or set TRICKCAM_CHROMIUM)",
    )
    return [
        *QUIET,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={y4m}",
    ]
