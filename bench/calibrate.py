"""Benchmark ``trickcam calibrate`` on rendered setup frames: seats right, plane right.

For each realism level, game and seed, renders only the setup frame of a hand (one card face
up in front of each player, the camera, light, arms and clutter of that level: quick, no video)
and runs the real ``trickcam calibrate`` on it as ``bench/watch.py`` does, as a person propping
up a phone would (seat 0 named by where its card lies). A calibration is counted

  right      every setup card lies in its own seat's area, and the setup cards' distances on
             the learned plane are the true ones within 6 % (card lengths -> cm)
  wrong      it succeeded, but a card is in another seat's area or the plane is off
  failed     calibrate refused the frame (it says why; the watcher would then need a person)

    .venv/bin/python bench/calibrate.py                                 # 10 seeds, every level and game
    .venv/bin/python bench/calibrate.py --seeds 9300-9339 --levels oblique,hands,full
    .venv/bin/python bench/calibrate.py --show                          # every wrong/failed one listed
    .venv/bin/python bench/calibrate.py --seeds 9800 --keep /tmp/cal    # keep the frames and tables
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from watch import calibrated  # noqa: E402  (bench/watch.py: calibrate as a person would)

from vision.track.table import TableGeometry  # noqa: E402

CARD_CM = 8.8


def seeds_from(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def judge(truth: dict, table: TableGeometry) -> str:
    """'right', or what is wrong with the table ``trickcam calibrate`` learned from ``truth``'s
    setup frame."""
    size = tuple(truth["rendered"]["look"]["size"]) if "rendered" in truth else (1280, 720)
    cards = truth["setup"]["cards"]
    seats = [table.seat_at(c["centre"], size) for c in cards]
    if seats != [c["seat"] for c in cards]:
        return f"seats {seats}, true {[c['seat'] for c in cards]}"
    if table.plane is None:
        return "no plane"
    pts = np.array([[c["centre"] for c in cards]], np.float64)
    on_plane = cv2.perspectiveTransform(pts, table.homography_for(size))[0]
    true_h = np.linalg.inv(np.array(truth["camera"]["plane_cm_to_image"]))
    true_cm = cv2.perspectiveTransform(pts, true_h)[0]
    worst = 0.0
    for a in range(len(cards)):
        for b in range(a + 1, len(cards)):
            seen = np.hypot(*(on_plane[a] - on_plane[b])) * CARD_CM
            true = np.hypot(*(true_cm[a] - true_cm[b]))
            worst = max(worst, abs(seen / true - 1))
    return "right" if worst <= 0.06 else f"plane off by {worst:.0%}"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--levels", default="top,oblique,light,hands,full")
    ap.add_argument("--games", default="clabber,klaberjass,belote,clag")
    ap.add_argument("--seeds", default="9300-9309", help="e.g. 9300-9339 or 5,7,9")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--show", action="store_true", help="list every calibration not right")
    ap.add_argument("--keep", type=Path, help="write the setup frames and tables to this folder")
    args = ap.parse_args()

    cv2.setNumThreads(1)
    from vision.render.realvideo import render_level_hand

    w, h = (int(v) for v in args.size.lower().split("x"))
    levels, games = args.levels.split(","), args.games.split(",")
    seeds = seeds_from(args.seeds)
    tally: dict[tuple[str, str], dict[str, int]] = {}
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        total = len(levels) * len(games) * len(seeds)
        done = 0
        for level in levels:
            for game in games:
                row = tally.setdefault((level, game), {"right": 0, "wrong": 0, "failed": 0})
                for seed in seeds:
                    video = folder / f"{level}_{game}_{seed}.mp4"
                    truth = render_level_hand(
                        game, seed, video, (w, h), 10, level, heldout=True, video=False
                    )
                    t0 = time.process_time()
                    table, why = calibrated(video, truth, folder)
                    seconds.append(time.process_time() - t0)
                    if table is None:
                        row["failed"] += 1
                        verdict = "failed: " + why.splitlines()[-1][:160]
                    else:
                        verdict = judge(truth, table)
                        row["right" if verdict == "right" else "wrong"] += 1
                    done += 1
                    if args.show and verdict != "right":
                        print(f"  {level} {game} seed {seed}: {verdict}", flush=True)
                    print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    print(f"{args.size}, seeds {args.seeds}, held-out decks; CPU s per calibration: "
          f"median {np.median(seconds):.2f}")  # fmt: skip
    print(f"{'level':9} {'game':11} {'right':>7} {'wrong':>6} {'failed':>7}")
    for level in [*levels, "all"]:
        for game in [*games, "all"] if level != "all" else ["all"]:
            sel = [v for (lv, g), v in tally.items() if level in ("all", lv) and game in ("all", g)]
            n = sum(sum(v.values()) for v in sel)
            right, wrong, failed = (sum(v[k] for v in sel) for k in ("right", "wrong", "failed"))
            print(f"{level:9} {game:11} {right / n:7.1%} {wrong:6d} {failed:7d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
