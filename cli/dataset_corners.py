"""``trickcam dataset corners``: render table layouts for the index-corner detector.

The ``dataset`` command belongs to :mod:`cli.dataset`; it calls :func:`register_corners` with
its own sub-action parsers to add this action.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = """\
Render table scenes for the index-corner detector (models/corners.onnx): cards of one deck
fanned, spread in rows, in solitaire columns, laid card on card as a trick, in rows apart,
scattered, or filling the picture; on wood, cloth, pale birch, floorboards, cork, white cloth,
patterned cloth, paper; seen from overhead to steep, in warm, dim or uneven light, with chips,
pens and hands among them. Each scene is a JPEG; OUT/SPLIT/labels.jsonl holds every card's
outline and how much of each index corner shows. Training scenes use the training deck designs
(and Hershey-font cards), validation scenes only the held-out designs. A stopped run goes on
where it stopped. Deterministic from --seed.

Then the card classifier's lessons from them: OUT/crops_train.npz and OUT/crops_val.npz, the
index corners of the first --crop-scenes scenes cut as the corner detector cuts them (with its
typical errors), and places that are no index corner as 'none'; `trickcam train` adds them to
the classifier's training crops and measures the held-out ones.

examples:
  trickcam dataset corners                       the shipped detector's scenes (~25 min a core)
  trickcam dataset corners --workers 16          the same scenes, 16 processes (~2 min)
  trickcam dataset corners --scenes 200 --val-scenes 50 --out /tmp/corners   a smoke set
"""

DEFAULT_OUT = Path("datasets/generated/corners")
DEFAULT_SCENES = 30_000
DEFAULT_VAL_SCENES = 600
DEFAULT_SEED = 1
DEFAULT_CROP_SCENES = 8_000


def register_corners(what: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = what.add_parser(
        "corners",
        help="render table layouts for the index-corner detector",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder (default {DEFAULT_OUT})")
    p.add_argument(
        "--scenes",
        type=int,
        default=DEFAULT_SCENES,
        help=f"training scenes (default {DEFAULT_SCENES})",
    )
    p.add_argument(
        "--val-scenes",
        type=int,
        default=DEFAULT_VAL_SCENES,
        help=f"validation scenes of held-out designs (default {DEFAULT_VAL_SCENES})",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"(default {DEFAULT_SEED})")
    p.add_argument(
        "--crop-scenes",
        type=int,
        default=DEFAULT_CROP_SCENES,
        help=f"training scenes the classifier's corner crops come from (default {DEFAULT_CROP_SCENES})",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes rendering scenes (default 1; the same scenes with any number)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_corners)


def _done(folder: Path) -> int:
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        return 0
    with labels.open(encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def run_corners(args: argparse.Namespace) -> int:
    from vision.render.cornercrops import write_crops
    from vision.render.decks import DeckError, list_decks, load_deck
    from vision.render.layouts import write_scenes

    if args.workers < 1:
        print(
            f"trickcam dataset corners: --workers {args.workers}: need at least 1", file=sys.stderr
        )
        return 2
    if args.scenes < 1 or args.val_scenes < 0:
        print(
            f"trickcam dataset corners: --scenes {args.scenes} --val-scenes {args.val_scenes}: "
            "need at least 1 training scene and 0 or more validation scenes",
            file=sys.stderr,
        )
        return 2
    try:
        decks = [d for d in list_decks() if d.source == "aisleriot"]
        if not decks:
            raise DeckError("no deck designs found: install Debian's gnome-cards-data")
        for split, count, seed, held in (
            ("val", args.val_scenes, args.seed + 1, True),
            ("train", args.scenes, args.seed, False),
        ):
            folder = args.out / split
            start = _done(folder)
            if start >= count:
                continue
            cards = [load_deck(d) for d in decks if d.heldout == held]
            write_scenes(
                folder,
                cards,
                count,
                seed,
                start=start,
                progress=not args.quiet,
                p_fontcard=0.0 if held else 0.15,
                workers=args.workers,
            )
        crops = {
            split: write_crops(
                args.out / split,
                args.out / f"crops_{split}.npz",
                limit,
                args.seed,
                progress=not args.quiet,
            )
            for split, limit in (("train", args.crop_scenes), ("val", args.val_scenes))
        }
    except (DeckError, OSError) as exc:
        print(f"trickcam dataset corners: {exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {args.out}/train ({args.scenes} scenes) and {args.out}/val ({args.val_scenes}); "
        f"classifier crops: {crops['train']} training, {crops['val']} held-out"
    )
    return 0
