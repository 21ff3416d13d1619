"""How often the whole-face suit reader (vision/read/suits.py, models/suits.onnx) is sure, and
sure of a wrong suit: on every deck design's rendered faces, clean and as a camera sees a far
card, and on the real rectified single cards of ../shared/realcards (never copied here).

    .venv/bin/python bench/suits.py [--realcards DIR] [--seed 1] [--verbose]

The suit reader is a second look at a card's suit that never reads its index; the watcher
weighs the suit two or more views agree on against the classifier and marks a play where the
two disagree. It must therefore almost never be sure of a wrong suit; being unsure only costs
the second look. Per deck and per source it prints:

  sure    faces the reader is sure of (probability >= SUIT_SURE) and right
  wrong   faces it is sure of and wrong (the figure that must stay 0)
  c/s     club and spade faces (the classifier's confusion) it is sure of and right

and, against the card classifier reading both index corners of the same face (worn, held-out
designs): how many of the classifier's wrong suits the reader catches (sure of the right suit)
and how many right ones it would wrongly doubt. "worn" is bench/pips.py's: each card shrunk to
70-120 px long, blurred, tinted and noised, then warped up to the upright size. Then, for the
worn faces (held-out and trained designs) and the real ones, the card named from its index
and its sure suit (``with_suit``) before and after the suit it only leans to is weighed too
(``with_lean``): named right, and right ones made wrong. Also the median time per face (one
thread).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pips import real_singles, worn  # noqa: E402

from vision.detect.preprocess import LABELS  # noqa: E402
from vision.read.classify import CardClassifier  # noqa: E402
from vision.read.suits import SUIT_SURE, SUITS, SuitReader, with_lean, with_suit  # noqa: E402
from vision.render.decks import DeckError, list_decks, load_deck  # noqa: E402


def tally(t: Counter[str], code: str, probs: np.ndarray) -> str:
    suit = SUITS[int(np.argmax(probs))]
    sure = float(np.max(probs)) >= SUIT_SURE
    t["faces"] += 1
    black = code[-1] in "CS"
    t["black"] += black
    if not sure:
        return "unsure"
    if suit == code[-1]:
        t["sure"] += 1
        t["cs"] += black
        return "sure"
    t["wrong"] += 1
    return "wrong"


def weigh(t: Counter[str], code: str, index: np.ndarray, suit: np.ndarray) -> None:
    """Count one face named by the classifier's index with the suit reader's sure suit
    (``with_suit``), before and after its lean is weighed too (``with_lean``)."""
    before = LABELS[int(np.argmax(with_suit(index, [suit])))] == code
    after = LABELS[int(np.argmax(with_suit(with_lean(index, [suit]), [suit])))] == code
    t["faces"] += 1
    t["before"] += before
    t["after"] += after
    t["broken"] += before and not after


def line(name: str, t: Counter[str]) -> str:
    n, b = max(t["faces"], 1), max(t["black"], 1)
    return (
        f"{name:30s} sure {t['sure']:4d}/{t['faces']:<4d} ({t['sure'] / n:6.1%})"
        f"  wrong {t['wrong']:2d}  c/s {t['cs']:4d}/{t['black']:<4d} ({t['cs'] / b:6.1%})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--realcards", type=Path, default=ROOT / ".." / "shared" / "realcards")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model", default=None, help="suit model (default models/suits.onnx)")
    ap.add_argument("--verbose", action="store_true", help="list every sure wrong suit")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    reader = SuitReader(args.model) if args.model else SuitReader()
    clf = CardClassifier()
    totals = {"clean": Counter[str](), "worn": Counter[str](), "held-out worn": Counter[str]()}
    against = Counter[str]()
    lean = {"held-out worn": Counter[str](), "trained worn": Counter[str](), "real": Counter[str]()}
    times: list[float] = []
    wrong: list[str] = []
    decks = list_decks()
    if not decks:
        print("no deck designs found (Debian's gnome-cards-data; ./dev.sh test installs it)")
    for deck in decks:
        try:
            faces = load_deck(deck)
        except DeckError as exc:
            print(f"{deck.name}: {exc}")
            continue
        per = {"clean": Counter[str](), "worn": Counter[str]()}
        codes = [c for c in faces if c != "back"]
        for look in ("clean", "worn"):
            images = [
                cv2.resize(faces[c][:, :, :3], (160, 240))
                if look == "clean"
                else worn(faces[c], rng)
                for c in codes
            ]
            t0 = time.perf_counter()
            probs = reader(images)
            times.append((time.perf_counter() - t0) / max(len(images), 1))
            for code, p in zip(codes, probs, strict=True):
                kind = tally(per[look], code, p)
                tally(totals[look], code, p)
                if look == "worn" and deck.heldout:
                    tally(totals["held-out worn"], code, p)
                if kind == "wrong":
                    wrong.append(f"{deck.name} {code} ({look}): {SUITS[int(np.argmax(p))]}")
            if look == "worn":
                read = clf.read_cards(np.stack(images)).probs
                group = lean["held-out worn" if deck.heldout else "trained worn"]
                for code, p, q in zip(codes, probs, read, strict=True):
                    weigh(group, code, q, p)
            if look == "worn" and deck.heldout:
                for code, p, q in zip(codes, probs, read, strict=True):
                    index = LABELS[int(np.argmax(q[:52]))]
                    suit, sure = SUITS[int(np.argmax(p))], float(np.max(p)) >= SUIT_SURE
                    if index[-1] != code[-1]:
                        against["index wrong suit"] += 1
                        against["caught"] += sure and suit == code[-1]
                    else:
                        against["index right suit"] += 1
                        against["doubted"] += sure and suit != code[-1]
        flag = " (held out)" if deck.heldout else ""
        print(line(f"{deck.name}{flag} clean", per["clean"]))
        print(line(f"{deck.name}{flag} worn", per["worn"]))
    print()
    for look, t in totals.items():
        print(line(f"all designs, {look}", t))
    print(
        f"held-out worn, against the index: the classifier's wrong suit on "
        f"{against['index wrong suit']} faces, {against['caught']} caught by the suit reader; "
        f"right on {against['index right suit']}, {against['doubted']} wrongly doubted"
    )
    real = Counter[str]()
    per_set: dict[str, Counter[str]] = {}
    for source, name, card, image in real_singles(args.realcards):
        t = per_set.setdefault(source, Counter[str]())
        p = reader([image])[0]
        weigh(lean["real"], card, clf.read_cards(np.stack([image])).probs[0], p)
        kind = tally(t, card, p)
        tally(real, card, p)
        if kind == "wrong":
            wrong.append(f"real {source} {name} ({card}): {SUITS[int(np.argmax(p))]}")
    for source, t in per_set.items():
        print(line(f"real {source}", t))
    if real:
        print(line("real, all", real))
    for name, t in lean.items():
        print(
            f"the lean weighed (with_lean), {name}: named right {t['before']} -> {t['after']}"
            f" of {t['faces']}, right made wrong {t['broken']}"
        )
    print(f"median time per face: {statistics.median(times) * 1000:.2f} ms (one thread, batched)")
    if args.verbose or wrong:
        for w in wrong:
            print("  ", w)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
