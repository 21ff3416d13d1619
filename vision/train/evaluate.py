"""Figures for the model card: the shipped ONNX model on real photographs and unseen decks.

onnxruntime only (no torch). The real photographs are read from ``../shared/realcards`` and
never copied. Singles are warped like detection would: ``mathsvlog`` and ``vosloo`` are already
rectified crops (the card fills the image, so its quad is the image border); ``kentdoan`` shows
a small card on black cloth, found here as the largest bright contour (the real detector is
vision/detect/find.py). Each card is read from both index corners (softmax averaged).

    .venv/bin/python -m vision.train.evaluate            prints the figures, writes models/eval.json
                                                    and models/confusion.png
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect.preprocess import LABELS, corner_crops, to_input, warp_quad

REALCARDS = Path(__file__).resolve().parents[3] / "shared" / "realcards"
SINGLE_SETS = ("kentdoan", "mathsvlog", "vosloo")


class CardModel:
    """The ONNX card-corner classifier, read with onnxruntime."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name

    def logits(self, crops: list[np.ndarray] | np.ndarray) -> np.ndarray:
        """Logits for uint8 corner crops (N, H, W, 3)."""
        out: list[np.ndarray] = []
        for i in range(0, len(crops), 256):
            batch = to_input(crops[i : i + 256])
            out.append(self.session.run(None, {self.input_name: batch})[0])
        return np.concatenate(out) if out else np.zeros((0, len(LABELS)), np.float32)

    def card_probs(self, cards: list[np.ndarray]) -> np.ndarray:
        """Class probabilities of upright card images, both index corners averaged."""
        crops = [c for card in cards for c in corner_crops(card)]
        p = softmax(self.logits(crops))
        return (p[0::2] + p[1::2]) / 2


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def largest_bright_quad(image: np.ndarray) -> np.ndarray:
    """The minimum-area rectangle around the largest bright blob (a card on a dark cloth)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        h, w = image.shape[:2]
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    biggest = max(contours, key=cv2.contourArea)
    return cv2.boxPoints(cv2.minAreaRect(biggest)).astype(np.float32)


def load_single_cards(name: str, root: Path = REALCARDS) -> list[tuple[str, str, np.ndarray]]:
    """(file, label, upright card image) for every labelled single of set ``name``."""
    folder = root / "singles" / name
    out = []
    with open(folder / "labels.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            image = cv2.imread(str(folder / row["file"]))
            if image is None:
                continue
            h, w = image.shape[:2]
            if name == "kentdoan":
                quad = largest_bright_quad(image)
            else:
                quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
            out.append((row["file"], row["cards"].strip(), warp_quad(image, quad)))
    return out


def evaluate_singles(model: CardModel, root: Path = REALCARDS) -> dict[str, Any]:
    """Accuracy per real single-card set, with every mistake named."""
    result: dict[str, Any] = {}
    for name in SINGLE_SETS:
        if not (root / "singles" / name / "labels.csv").exists():
            continue
        items = load_single_cards(name, root)
        probs = model.card_probs([card for _, _, card in items])
        pred = [LABELS[int(i)] for i in probs.argmax(1)]
        errors = [f"{f}: {t}->{p}" for (f, t, _), p in zip(items, pred, strict=True) if p != t]
        result[name] = {
            "n": len(items),
            "accuracy": round(1 - len(errors) / max(len(items), 1), 4),
            "errors": errors,
            "pairs": [[t, p] for (_, t, _), p in zip(items, pred, strict=True)],
        }
    return result


def evaluate_heldout(model: CardModel, data_dir: Path) -> dict[str, Any]:
    """Accuracy on synthetic scenes of the held-out deck designs (both crops of a scene)."""
    with np.load(data_dir / "heldout.npz") as data:
        x, y, deck = data["x"], data["y"].astype(int), data["deck"].astype(int)
    meta = json.loads((data_dir / "meta.json").read_text())
    p = softmax(model.logits(x))
    pair_pred = ((p[0::2] + p[1::2]) / 2).argmax(1)
    y2, d2 = y[0::2], deck[0::2]
    per_deck = {}
    for i, name in enumerate(meta["heldout_decks"]):
        sel = (d2 == i) & (y2 < 52)
        per_deck[name] = round(float((pair_pred[sel] == y2[sel]).mean()), 4) if sel.any() else None
    confusions = Counter(
        f"{LABELS[t]}->{LABELS[q]}" for t, q in zip(y2, pair_pred, strict=True) if t != q
    )
    return {
        "scenes": int(len(y2)),
        "accuracy": round(float((pair_pred == y2).mean()), 4),
        "single_crop_accuracy": round(float((p.argmax(1) == y).mean()), 4),
        "per_deck": per_deck,
        "top_confusions": confusions.most_common(12),
        "pairs": [[LABELS[t], LABELS[q]] for t, q in zip(y2, pair_pred, strict=True)],
    }


def confusion_image(pairs: list[list[str]], title: str, cell: int = 12) -> np.ndarray:
    """A confusion matrix (rows true, columns predicted) drawn with OpenCV; darker = more."""
    n = len(LABELS)
    index = {lab: i for i, lab in enumerate(LABELS)}
    m = np.zeros((n, n), np.float64)
    for t, p in pairs:
        m[index[t], index[p]] += 1
    rows = m / np.maximum(m.sum(axis=1, keepdims=True), 1)
    pad = 40
    img = np.full((pad + n * cell + 10, pad + n * cell + 10, 3), 255, np.uint8)
    for i in range(n):
        for j in range(n):
            if rows[i, j] > 0:
                v = int(255 * (1 - rows[i, j]))
                colour = (v, v, 255) if i != j else (v, 255 - (255 - v) // 2, v)
                y0, x0 = pad + i * cell, pad + j * cell
                cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), colour, -1)
    for k in range(0, n + 1, 13):
        cv2.line(img, (pad + k * cell, pad), (pad + k * cell, pad + n * cell), (160, 160, 160), 1)
        cv2.line(img, (pad, pad + k * cell), (pad + n * cell, pad + k * cell), (160, 160, 160), 1)
    for k, suit in enumerate("SHDC"):
        cv2.putText(img, suit, (pad + k * 13 * cell + 6 * cell, pad - 6), 0, 0.4, (0, 0, 0), 1)
        cv2.putText(img, suit, (8, pad + k * 13 * cell + 7 * cell), 0, 0.4, (0, 0, 0), 1)
    cv2.putText(img, title, (pad, 16), 0, 0.45, (0, 0, 0), 1)
    return img


def evaluate(model_path: Path, data_dir: Path | None, root: Path = REALCARDS) -> dict[str, Any]:
    """All model-card figures: real singles per set, and unseen deck designs if data is there."""
    model = CardModel(model_path)
    report: dict[str, Any] = {"model": str(model_path), "realcards_singles": {}}
    if root.exists():
        report["realcards_singles"] = evaluate_singles(model, root)
    if data_dir is not None and (data_dir / "heldout.npz").exists():
        report["heldout_decks"] = evaluate_heldout(model, data_dir)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.evaluate", description=__doc__)
    parser.add_argument("--model", type=Path, default=Path("models/cards.onnx"))
    parser.add_argument("--data", type=Path, default=Path("datasets/generated/synth"))
    parser.add_argument("--out", type=Path, default=Path("models"))
    args = parser.parse_args(argv)
    report = evaluate(args.model, args.data)
    real_pairs: list[list[str]] = []
    for name, r in report["realcards_singles"].items():
        print(f"realcards singles/{name}: {r['accuracy']:.3f} of {r['n']}  errors: {r['errors']}")
        real_pairs += r.pop("pairs")
    held = report.get("heldout_decks")
    images = []
    if held:
        print(f"unseen decks: {held['accuracy']:.3f} of {held['scenes']} scenes {held['per_deck']}")
        print(
            f"  single crop {held['single_crop_accuracy']:.3f}; top confusions {held['top_confusions']}"
        )
        images.append(confusion_image(held.pop("pairs"), "unseen rendered decks (rows true)"))
    if real_pairs:
        images.append(confusion_image(real_pairs, "real photographs, singles (rows true)"))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "eval.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if images:
        cv2.imwrite(str(args.out / "confusion.png"), np.hstack(images))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
