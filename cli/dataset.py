"""``trickcam dataset synth``: render the deck designs and write the synthetic training set.

The other actions: ``video`` (:mod:`cli.dataset_video`), ``corners`` (:mod:`cli.dataset_corners`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = """\
Render the usable deck designs (Debian's SVG decks: gnome-cards-data's aisleriot decks, and
with --designs all kdegames-card-data-kf5's KDE decks too; datasets/README.md says which and
why) and write synthetic index-corner crops for training the card classifier: cards in
camera-like scenes (perspective, crop error, blur, noise, JPEG, colour casts, glare, shadows,
low light, a thumb over the centre; with --covered, another card laid over some of them
beside or below the index, as in fans, tricks and columns), plus the classes 'back' and
'none'. Deterministic from --seed.

Writes OUT/train.npz (training decks), OUT/heldout.npz (deck designs never trained on) and
OUT/meta.json. Rendered decks are cached in datasets/cache/decks/. See datasets/README.md.

example:
  trickcam dataset synth --workers 2             the shipped model's training set (~6 min)
  trickcam dataset synth --designs all --out /tmp/all   with the KDE decks too
  trickcam dataset synth --scenes 300 --heldout-scenes 60 --out /tmp/tiny
"""

DEFAULT_OUT = Path("datasets/generated/synth")
DEFAULT_SCENES = 25_000
DEFAULT_HELDOUT_SCENES = 3_000
DEFAULT_SEED = 20261129


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "dataset",
        help="make the synthetic card training set",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    what = p.add_subparsers(dest="dataset_command", metavar="WHAT")
    s = what.add_parser(
        "synth",
        help="render decks and write synthetic corner crops",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder (default {DEFAULT_OUT})")
    s.add_argument(
        "--scenes",
        type=int,
        default=DEFAULT_SCENES,
        help=f"training scenes, 2 crops each (default {DEFAULT_SCENES})",
    )
    s.add_argument(
        "--heldout-scenes",
        type=int,
        default=DEFAULT_HELDOUT_SCENES,
        help=f"scenes of held-out decks (default {DEFAULT_HELDOUT_SCENES})",
    )
    s.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"(default {DEFAULT_SEED})")
    s.add_argument(
        "--designs",
        choices=("aisleriot", "all"),
        default="aisleriot",
        help="deck designs: gnome-cards-data's aisleriot decks (default: the shipped model's "
        "dataset) or all, with the KDE decks (measured worse on unseen designs)",
    )
    s.add_argument(
        "--covered",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of cards with another card laid over them beside or below the index "
        "(fans, tricks, columns; default 0, the shipped model's recipe; 0.25 was tried)",
    )
    s.add_argument("--workers", type=int, default=1, help="processes (same result; default 1)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=run_synth)
    from cli.dataset_corners import register_corners
    from cli.dataset_video import register_video

    register_video(what)
    register_corners(what)
    p.set_defaults(func=lambda _args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_synth(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.render.decks import DeckError
    from vision.render.synth import SynthRecipe, write_dataset

    covered = SynthRecipe().p_covered if args.covered is None else args.covered
    if not 0.0 <= covered <= 1.0:
        print(
            f"trickcam dataset synth: --covered {args.covered}: a share from 0 to 1",
            file=sys.stderr,
        )
        return 2
    if args.scenes < 1 or args.heldout_scenes < 0:
        print(
            f"trickcam dataset synth: --scenes {args.scenes} / --heldout-scenes "
            f"{args.heldout_scenes}: need at least 1 training scene and 0 or more held-out",
            file=sys.stderr,
        )
        return 2
    try:
        meta = write_dataset(
            args.out,
            args.scenes,
            args.heldout_scenes,
            args.seed,
            replace(SynthRecipe(), p_covered=covered),
            progress=not args.quiet,
            workers=max(1, args.workers),
            designs=args.designs,
        )
    except (DeckError, OSError) as exc:
        print(f"trickcam dataset synth: {exc}", file=sys.stderr)
        return 2
    train_decks = meta["train_decks"]
    heldout_decks = meta["heldout_decks"]
    assert isinstance(train_decks, list) and isinstance(heldout_decks, list)
    print(
        f"wrote {args.out}/train.npz ({2 * args.scenes} crops, {len(train_decks)} decks) and "
        f"heldout.npz ({2 * args.heldout_scenes} crops: {', '.join(heldout_decks)})"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run this command on its own (``python -m cli.dataset synth ...``)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["dataset", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
