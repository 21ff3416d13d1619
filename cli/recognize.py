"""``trickcam recognize``: name the cards lying face up in photographs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HELP = """\
Find the cards lying face up in each IMAGE and name them.

Text output: one line per image, `IMAGE: QH 0.98, 10S 0.95, ? (7C 0.41)` where `?` marks a
card that was found but could not be named surely (its best guess in brackets) and `~` a card
cut by the image's edge. --json prints one JSON array with one object per image:
  {"image": "photo.jpg", "cards": [{"card": "QH", "confidence": 0.98,
    "quad": [[x, y], [x, y], [x, y], [x, y]], "partial": false}, ...]}
where "card" is null for a find that could not be named ("best" then holds the best guess).
A missing, unreadable or non-image file prints one line on stderr naming it (and, with --json,
an object with "error"); the other images are still read and the exit code is 2.

Each photo is taken to hold one deck's cards, each card at most once (every game here is
played with one deck): a card read unsure between two cards, one of which is named surely
elsewhere in the photo, is named as the other when that makes it sure (a fanned 7 read
"spade or club" beside the 7 of spades). Photos of two decks mixed: --decks 2.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "recognize",
        help="find and name the cards in photographs",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photograph(s) of a card table")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per image")
    p.add_argument(
        "--annotate",
        metavar="DIR",
        type=Path,
        help="write each image with the outlines and names drawn into DIR",
    )
    p.add_argument(
        "--model", type=Path, default=None, help="ONNX model (default: models/cards.onnx)"
    )
    p.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")
    p.add_argument(
        "--decks",
        type=int,
        choices=(1, 2),
        default=1,
        help="decks the photos' cards come from (default 1: a card named surely rules it out "
        "for the cards read unsure; 2: no card is named by what others rule out)",
    )
    p.set_defaults(func=run)


def read_image(path: Path) -> np.ndarray:
    """The image at ``path`` as BGR, or OSError with a short reason."""
    import cv2

    if not path.exists():
        raise OSError("no such file")
    if path.is_dir():
        raise OSError("is a directory")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise OSError("not an image (or an unreadable one)")
    return image


def _annotated_path(directory: Path, image: Path, taken: set[Path]) -> Path:
    stem, n = image.stem, 1
    out = directory / f"{stem}.annotated.jpg"
    while out in taken:
        n += 1
        out = directory / f"{stem}-{n}.annotated.jpg"
    taken.add(out)
    return out


def _text_line(name: str, cards: list[dict[str, object]]) -> str:
    parts = []
    for c in cards:
        mark = "~" if c["partial"] else ""
        if c["card"] is None:
            parts.append(f"?{mark} ({c['best']} {c['confidence']:.2f})")
        else:
            parts.append(f"{c['card']}{mark} {c['confidence']:.2f}")
    return f"{name}: " + (", ".join(parts) if parts else "no cards")


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.draw.annotate import annotate
    from vision.read.classify import MODEL_PATH, CardClassifier, ModelError
    from vision.read.recognize import Recognizer

    try:
        recognizer = Recognizer(
            CardClassifier(args.model or MODEL_PATH, threads=args.threads),
            one_deck=args.decks == 1,
        )
    except ModelError as exc:
        print(f"trickcam recognize: {exc}", file=sys.stderr)
        return 2
    if args.annotate is not None:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"trickcam recognize: --annotate {args.annotate}: {exc}", file=sys.stderr)
            return 2
    failed = False
    results: list[dict[str, object]] = []
    taken: set[Path] = set()
    for name in args.images:
        path = Path(name)
        try:
            image = read_image(path)
        except OSError as exc:
            failed = True
            print(f"trickcam recognize: {name}: {exc}", file=sys.stderr)
            results.append({"image": name, "cards": [], "error": str(exc)})
            continue
        finds = recognizer(image)
        cards = [f.to_json() for f in finds]
        results.append({"image": name, "cards": cards})
        if not args.json:
            print(_text_line(name, cards), flush=True)
        if args.annotate is not None:
            out = _annotated_path(args.annotate, path, taken)
            if not cv2.imwrite(str(out), annotate(image, finds)):
                failed = True
                print(f"trickcam recognize: {name}: cannot write {out}", file=sys.stderr)
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    return 2 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """Run ``recognize`` on its own (``python -m cli.recognize IMAGE...``)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["recognize", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
