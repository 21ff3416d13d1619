"""Benchmark ``trickcam watch`` on rendered hands: plays read right, hands perfect, confirmations, fps.

Renders hands of each game with ``vision.tablevideo`` (by default only with deck designs kept
out of training), runs the watcher on one core (OpenCV and onnxruntime limited to one thread)
and compares with the true records.

    .venv/bin/python bench/watch.py                      # 1280x720, 15 fps, 3 hands per game
    .venv/bin/python bench/watch.py --hands 10 --fps 30  # the acceptance run (slow to render)
    .venv/bin/python bench/watch.py --reader deck        # reader that knows the deck's faces

Prints per game and overall: plays right (%), hands perfect (%), plays marked for
confirmation (%), and the watcher's frames per second (median over hands; decoding the video
included, rendering not). Acceptance: >= 99.5 % plays right, >= 95 % hands perfect, >= 30 fps.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENCV_FFMPEG_CAPTURE_OPTIONS", "threads;1")  # decode on one thread too

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import games  # noqa: E402
from vision.deckreader import deck_reader  # noqa: E402
from vision.sources import VideoFile  # noqa: E402
from vision.tablevideo import render_hand  # noqa: E402
from vision.watch import Watcher, classifier_reader  # noqa: E402


def spec_for(truth: dict) -> games.GameSpec:
    a, game = truth["watch_args"], truth["record"]["game"]
    if game == "clabber":
        return games.clabber(a["dealer"], a["upcard"], a["bidding"])
    if game in ("klaberjass", "belote"):
        return games.klaberjass(a["dealer"], a["upcard"], a["bidding"], game)
    return games.clag(
        a["players"],
        a["round"],
        a["dealer"],
        a.get("trump_card"),
        a.get("trump"),
        a.get("contracts"),
    )


def watch_one(video: Path, truth: dict, reader_kind: str, model_reader) -> dict:  # type: ignore[no-untyped-def]
    reader = deck_reader(truth["look"]["deck"]) if reader_kind == "deck" else model_reader
    watcher = Watcher(spec_for(truth), reader)
    source = VideoFile(video)
    start, cpu = time.perf_counter(), time.process_time()
    for frame in source:
        watcher.feed(frame.image, frame.t)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    seen = [(seat, str(card)) for seat, card in watcher.log.cards()]
    true = [(p["seat"], p["card"]) for p in truth["plays"]]
    right = sum(1 for a, b in zip(seen, true, strict=False) if a == b)
    return {
        "plays": len(true),
        "right": right
        if len(seen) == len(true)
        else min(right, len(true) - abs(len(seen) - len(true))),
        "perfect": seen == true and watcher.log.record()["tricks"] == truth["record"]["tricks"],
        "confirm": sum(1 for p in watcher.log.plays if p.confirm),
        "seen": len(seen),
        "fps": watcher.frames / elapsed,
        "cpu_fps": watcher.frames / max(cpu, 1e-9),
        "detections": watcher.detections,
        "frames": watcher.frames,
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", default="clabber,klaberjass,clag")
    ap.add_argument("--hands", type=int, default=3, help="hands per game")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=float, default=15.0)
    ap.add_argument("--decks", choices=("heldout", "trained", "any"), default="heldout")
    ap.add_argument("--reader", choices=("model", "deck"), default="model")
    ap.add_argument("--keep", type=Path, help="keep the rendered videos here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.size.split("x"))
    heldout = {"heldout": True, "trained": False, "any": None}[args.decks]
    model_reader = classifier_reader(threads=1) if args.reader == "model" else None
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench_watch_"))
    folder.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[dict]] = {}
    for game in args.games.split(","):
        for k in range(args.hands):
            seed = args.seed + k
            video = folder / f"{game}_{seed}.mp4"
            truth = render_hand(game, seed, video, (w, h), args.fps, heldout=heldout)
            r = watch_one(video, truth, args.reader, model_reader)
            rows.setdefault(game, []).append(r)
            print(f"{game} seed {seed} deck {truth['look']['deck']}: {r['right']}/{r['plays']} right, "
                  f"{'perfect' if r['perfect'] else 'NOT perfect'}, {r['confirm']} to confirm, "
                  f"{r['fps']:.0f} fps, {r['cpu_fps']:.0f} per CPU second ({r['detections']} detections / {r['frames']} frames)", flush=True)  # fmt: skip
    print(
        f"\n{args.size} at {args.fps:g} fps, decks {args.decks}, reader {args.reader}, one thread"
    )
    print(
        f"{'game':<11} {'hands':>5} {'plays right':>12} {'hands perfect':>14} {'to confirm':>11} {'median fps':>11}"
    )
    everything = [r for rs in rows.values() for r in rs]
    for name, rs in [*rows.items(), ("all", everything)]:
        plays = sum(r["plays"] for r in rs)
        print(
            f"{name:<11} {len(rs):>5} {100 * sum(r['right'] for r in rs) / plays:>11.2f}% "
            f"{100 * sum(r['perfect'] for r in rs) / len(rs):>13.1f}% "
            f"{100 * sum(r['confirm'] for r in rs) / plays:>10.2f}% "
            f"{statistics.median(r['fps'] for r in rs):>11.0f} "
            f"{statistics.median(r['cpu_fps'] for r in rs):>10.0f}"
        )
    if not args.keep:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
