"""How well the whole frame tells a knocked camera (vision/track/anchor.py), on rendered hands.

    .venv/bin/python bench/watch.py --realism top,oblique,light,hands,full --fps 30 \\
        --games clabber,klaberjass,belote,clag --hands 1 --seed 10184 --keep DIR   # render once
    .venv/bin/python bench/anchor.py DIR [--check 0.09]

The renderer knocks the camera once in every ``light`` and ``full`` hand longer than 6 s (a
shift of 1.2-3.5 % of the frame and a turn of up to 2 degrees, kept; ``vision/render/
realism.py``) and never at the other levels. Each kept video (``*.mp4`` with its truth
``.json`` beside it) is fed to a :class:`~vision.track.anchor.CameraAnchor` every ``--check``
seconds, as the watcher feeds it (the watcher asks it on every frame it looks at, whatever
lies on the table: arms, cards and piles moving).
Per video: the knock rendered (time, shift at the frame's middle, turn), the knocks found
(time, shift, turn) and how far the first is from the truth; then in all: knocks found of
those rendered, the median delay and error, knocks found where none was rendered (must stay
0), and the anchor's CPU cost per second of video (one thread).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.track.anchor import CameraAnchor  # noqa: E402


def knocks(video: Path, check: float) -> tuple[list[tuple[float, np.ndarray]], float, float]:
    """(the knocks found: time and motion, CPU seconds spent, seconds of video)."""
    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    anchor, found, cpu, n, last = CameraAnchor(), [], 0.0, 0, -math.inf
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        t = n / fps
        n += 1
        if t - last < check - 1e-6:
            continue
        last = t
        start = time.process_time()
        motion = anchor.update(frame, t)
        cpu += time.process_time() - start
        if motion is not None:
            found.append((t, motion))
    cap.release()
    return found, cpu, n / fps


def at_middle(motion: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """The shift of the frame's middle (pixels) and the turn (degrees, the renderer's sense)."""
    c = np.array([size[0] / 2, size[1] / 2, 1.0])
    shift = (motion @ c)[:2] - c[:2]
    return shift, -math.degrees(math.atan2(float(motion[1, 0]), float(motion[0, 0])))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("folder", type=Path, help="kept renders (bench/watch.py --keep DIR)")
    ap.add_argument("--check", type=float, default=0.09, help="seconds between frames fed")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    videos = sorted(v for v in args.folder.glob("*.mp4") if v.with_suffix(".json").is_file())
    if not videos:
        print(f"no rendered hands in {args.folder} (render them with bench/watch.py --keep DIR)")
        return 1
    rendered = found_right = false = 0
    delays: list[float] = []
    errors: list[float] = []
    cost: list[float] = []
    for video in videos:
        truth = json.loads(video.with_suffix(".json").read_text())
        size = tuple(truth["rendered"]["look"]["size"])
        bump = truth["rendered"]["camera"].get("bump")
        found, cpu, seconds = knocks(video, args.check)
        cost.append(1000 * cpu / max(seconds, 1e-9))
        seen = []
        for t, motion in found:
            shift, turn = at_middle(motion, size)  # type: ignore[arg-type]
            seen.append(f"{t:.2f} s ({shift[0]:.1f}, {shift[1]:.1f}) px {turn:+.2f} deg")
        line = f"{video.stem:32s} "
        if bump is None:
            line += "no knock rendered"
            false += len(found)
        else:
            rendered += 1
            line += f"knock {bump['t']:.2f} s ({bump['shift_px'][0]:.1f}, {bump['shift_px'][1]:.1f}) px {bump['degrees']:+.2f} deg"
            after = [(t, m) for t, m in found if t >= bump["t"]]
            false += len(found) - len(after)
            if after:
                found_right += 1
                shift, _ = at_middle(after[0][1], size)  # type: ignore[arg-type]
                delays.append(after[0][0] - bump["t"])
                errors.append(float(np.hypot(*(shift - np.array(bump["shift_px"])))))
                false += len(after) - 1
        print(f"{line}; found: {', '.join(seen) or 'none'}")
    print()
    print(f"knocks found {found_right}/{rendered}", end="")
    if delays:
        print(
            f", median delay {statistics.median(delays):.2f} s (max {max(delays):.2f}),"
            f" median error {statistics.median(errors):.1f} px (max {max(errors):.1f})",
            end="",
        )
    print(f"; knocks found where none was rendered (or twice): {false}")
    print(
        f"anchor CPU per second of video: median {statistics.median(cost):.1f} ms, max {max(cost):.1f} ms (one thread)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
