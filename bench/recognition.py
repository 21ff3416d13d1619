"""Recognition accuracy on the real photographs of ../shared/realcards (never copied here).

    .venv/bin/python bench/recognition.py [--realcards DIR] [--model PATH] [--annotate DIR]
                                          [--detect-only] [--verbose]

Every folder under ``REALCARDS/singles`` and ``REALCARDS/scenes`` with a ``labels.csv`` is
picked up by itself. Every set is scored as the product reads it: a card the classifier is
unsure of is *not named*, never counted as right.

Singles: each photo holds one card. "named" is the share of photos whose largest find is named
right (sure and right); "wrong" counts sure and wrong readings; "top1" (the best of the 52 card
labels, sure or not) is shown for diagnosis only. The rectified sets (mathsvlog, vosloo) are
crops the card fills: they are laid on a dark table first (a margin of 40 % of their size on
each side) so that detection sees a card on a table.

Scenes: the set of cards named in a photo is matched against its labels. Every labelled card
counts, the *partial* ones (overlapped, cut by the edge) included: precision, recall and F1
over all of them; naming a card the photo does not hold, or one card twice, is a false
positive. Also shown: recall of the full cards alone, partial cards named, photos read
perfectly.

Acceptance (the recognition issue): every singles set named 1.000; every scenes set F1 >= 0.97;
all scenes together F1 >= 0.99 and precision >= 0.999. --detect-only (automatic when the model
is missing) counts outlines against the labelled number of full and partial cards instead.
--no-corners leaves the index-corner detector (models/corners.onnx) out, to compare.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.detect.corners import MODEL_PATH as CORNER_MODEL  # noqa: E402
from vision.detect.corners import CornerDetector  # noqa: E402
from vision.detect.find import Detections, detect  # noqa: E402
from vision.detect.quads import PHOTO_TAPER  # noqa: E402
from vision.draw.annotate import annotate  # noqa: E402
from vision.read.classify import (  # noqa: E402
    MODEL_PATH,
    PARTIAL_THRESHOLD,
    CardClassifier,
    Readings,
)
from vision.read.recognize import finds_from, read_frame  # noqa: E402

DEFAULT_REALCARDS = ROOT / ".." / "shared" / "realcards"
RECTIFIED_SINGLES = {"mathsvlog", "vosloo"}


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "labels.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def _imread(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return image


def _largest(det: Detections) -> Detections:
    return det.take([int(np.argmax(np.where(det.one_corner, -1.0, det.areas)))])


_CACHE: dict[str, tuple[Detections, Readings | None]] = {}
CORNERS: list[CornerDetector | None] = [None]
"""The index-corner detector in use (set by main)."""


def _detect_read(
    key: str, image: np.ndarray, clf: CardClassifier | None, det: Detections | None = None
) -> tuple[Detections, Readings | None]:
    """Detection (unless given) and readings of one photo, computed once (a --sweep reuses
    them), with the readings re-thresholded at the classifier's current threshold."""
    if key not in _CACHE:
        det = detect(image, corner_detector=CORNERS[0], taper=PHOTO_TAPER) if det is None else det
        _CACHE[key] = read_frame(det, clf) if clf is not None else (det, None)
    det, readings = _CACHE[key]
    if clf is not None and readings is not None:
        limit = np.where(readings.one_corner, PARTIAL_THRESHOLD, clf.threshold)
        readings = replace(readings, unsure=readings.confidence < limit)
    return det, readings


def bench_singles(
    folder: Path, clf: CardClassifier | None, verbose: bool
) -> dict[str, float | int | str]:
    n = top1 = named = wrong = undetected = 0
    for r in _rows(folder):
        image = _imread(folder / r["file"])
        truth = r["cards"].split()[0]
        n += 1
        if folder.name in RECTIFIED_SINGLES:
            h, w = image.shape[:2]
            m = round(0.4 * max(h, w))
            image = cv2.copyMakeBorder(image, m, m, m, m, cv2.BORDER_CONSTANT, value=(30, 30, 30))
        det, _ = _detect_read(str(folder / r["file"]), image, None)
        if len(det) == 0:
            undetected += 1
            if verbose:
                print(f"  {folder.name}/{r['file']}: no card found")
            continue
        if clf is None:
            top1 += 1  # detect-only: a card was found
            continue
        key = f"{folder / r['file']} (largest)"
        _, reading = _detect_read(key, _largest(det).crops, clf, _largest(det))
        assert reading is not None
        best = reading.labels[int(np.argmax(reading.probs[0][:52]))]
        top1 += best == truth
        card = reading.card(0)
        named += card == truth
        wrong += card is not None and card != truth
        if verbose and card != truth:
            print(
                f"  {folder.name}/{r['file']}: {truth} read as {reading.best[0]} "
                f"{reading.confidence[0]:.2f}"
            )
    return {
        "set": f"singles/{folder.name}",
        "n": n,
        "top1": top1 / n,
        "named": named / n,
        "wrong": wrong,
        "undetected": undetected,
    }


def bench_scenes(
    folder: Path, clf: CardClassifier | None, annotate_dir: Path | None, verbose: bool
) -> dict[str, float | int | str]:
    tp = fp = fn = perfect = n = partial_named = partial_total = 0
    count_ok = full_hit = full_total = 0
    for r in _rows(folder):
        image = _imread(folder / r["file"])
        labelled = set(r["cards"].split())
        partial = set(r["partial"].split())
        full = labelled - partial
        n += 1
        partial_total += len(partial)
        det, readings = _detect_read(str(folder / r["file"]), image, clf)
        if clf is None or readings is None:
            whole = int((~det.one_corner).sum())  # not the guesses of hidden cards
            ok = len(full) <= whole <= len(labelled)
            count_ok += ok
            if verbose and not ok:
                print(
                    f"  {folder.name}/{r['file']}: {whole} outlines, "
                    f"{len(full)}..{len(labelled)} expected"
                )
            continue
        finds = finds_from(det, readings)
        named = Counter(f.card for f in finds if f.card is not None)
        dup = sum(c - 1 for c in named.values())
        extra = {c for c in named if c not in labelled}
        hit = labelled & set(named)
        miss = labelled - set(named)
        tp += len(hit)
        fn += len(miss)
        fp += len(extra) + dup
        full_hit += len(full & set(named))
        full_total += len(full)
        partial_named += len(partial & set(named))
        perfect += not miss and not extra and not dup
        if verbose and (miss or extra or dup):
            print(
                f"  {folder.name}/{r['file']}: missed {sorted(miss)} extra {sorted(extra)}"
                f"{' duplicates' if dup else ''}"
            )
        if annotate_dir is not None:
            annotate_dir.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(annotate_dir / f"{folder.name}_{r['file']}"), annotate(image, finds))
    if clf is None:
        return {"set": f"scenes/{folder.name}", "n": n, "count_ok": count_ok / n}
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "set": f"scenes/{folder.name}",
        "n": n,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "perfect": perfect / n,
        "full_recall": full_hit / full_total if full_total else 1.0,
        "partial_named": f"{partial_named}/{partial_total}",
    }


def _fmt(row: dict[str, float | int | str]) -> str:
    return "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items())


Row = dict[str, float | int | str]


def run_sets(
    args: argparse.Namespace,
    clf: CardClassifier | None,
    verbose: bool,
    annotate_dir: Path | None,
    show: bool,
) -> tuple[list[Row], tuple[float, float, float]]:
    """Every singles and scenes set; returns the rows and overall scene (P, R, F1)."""
    rows: list[Row] = []

    def sets(kind: str) -> list[Path]:  # a folder may hold singles or scenes alone
        where = args.realcards / kind
        return sorted(where.iterdir()) if where.is_dir() else []

    for folder in sets("singles"):
        if (folder / "labels.csv").is_file():
            rows.append(bench_singles(folder, clf, verbose))
            if show:
                print(_fmt(rows[-1]), flush=True)
    tp = fp = fn = 0
    for folder in sets("scenes"):
        if (folder / "labels.csv").is_file():
            rows.append(bench_scenes(folder, clf, annotate_dir, verbose))
            if show:
                print(_fmt(rows[-1]), flush=True)
            tp += int(rows[-1].get("tp", 0))
            fp += int(rows[-1].get("fp", 0))
            fn += int(rows[-1].get("fn", 0))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return rows, (p, r, f1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--realcards", type=Path, default=DEFAULT_REALCARDS)
    ap.add_argument("--model", type=Path, default=MODEL_PATH)
    ap.add_argument(
        "--covered-model",
        default="default",
        help="reader of cards seen by one index corner: a model path, 'none' (the --model "
        "reads them too) or 'default' (models/covered.onnx when it is there)",
    )
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--annotate", type=Path, default=None, help="write annotated scenes here")
    ap.add_argument("--detect-only", action="store_true")
    ap.add_argument("--corner-model", type=Path, default=CORNER_MODEL)
    ap.add_argument("--no-corners", action="store_true", help="leave the index-corner detector out")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--sweep", action="store_true", help="summary at several thresholds")
    args = ap.parse_args(argv)
    if not (args.realcards / "scenes").is_dir():
        print(f"real photographs not found at {args.realcards}", file=sys.stderr)
        return 2
    clf = None
    if not args.detect_only:
        if not args.model.is_file():
            print(f"(no model at {args.model}: detection only)")
        else:
            covered = None if args.covered_model == "none" else args.covered_model
            clf = CardClassifier(args.model, covered=covered)
            print(f"(one-corner reader: {clf.covered_path or args.model})")
            if args.threshold is not None:
                clf.threshold = args.threshold
    if not args.no_corners:
        if args.corner_model.is_file():
            CORNERS[0] = CornerDetector(args.corner_model)
        else:
            print(f"(no corner model at {args.corner_model}: outlines only)")
    t0 = time.perf_counter()
    if args.sweep and clf is not None:
        print("threshold  singles named (min)  singles wrong  scenes P  R  F1  (min set F1)")
        for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
            clf.threshold = t
            rows, (p, r, f1) = run_sets(args, clf, verbose=False, annotate_dir=None, show=False)
            singles = [x for x in rows if "top1" in x]
            scenes = [x for x in rows if "f1" in x]
            print(
                f"{t:.2f}  {min(float(x['named']) for x in singles):.3f}  "
                f"{sum(int(x['wrong']) for x in singles)}  {p:.3f} {r:.3f} {f1:.3f} "
                f"({min(float(x['f1']) for x in scenes):.3f})",
                flush=True,
            )
    else:
        rows, (p, r, f1) = run_sets(args, clf, args.verbose, args.annotate, show=True)
        if clf is not None:
            print(f"scenes overall: precision={p:.3f} recall={r:.3f} F1={f1:.3f}")
            singles_ok = all(float(x["named"]) >= 1.0 for x in rows if "named" in x)
            each_ok = all(float(x["f1"]) >= 0.97 for x in rows if "f1" in x)
            scenes_ok = f1 >= 0.99 and p >= 0.999
            print(
                f"acceptance: singles named 1.000 each: {'yes' if singles_ok else 'NO'}; "
                f"scenes F1 >= 0.97 each: {'yes' if each_ok else 'NO'}; "
                f"overall F1 >= 0.99 and precision >= 0.999: {'yes' if scenes_ok else 'NO'}"
            )
    print(f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
