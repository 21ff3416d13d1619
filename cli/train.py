"""``trickcam train``: train the card classifier and export models/cards.onnx + cards.json."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from dataclasses import fields, replace
from pathlib import Path

from vision.train.trainer import TrainConfig

HELP = """\
Train the small CNN that reads a card's index corner, on the synthetic set written by
`trickcam dataset synth`, then export OUT/cards.onnx (run with onnxruntime, no torch) and the
sidecar OUT/cards.json (labels, input size, preprocessing, this recipe and seed, validation
figures). Unless --no-eval, the exported model is then measured with onnxruntime on the real
photographs in ../shared/realcards (singles) and on the held-out deck designs; the figures go
into the sidecar, OUT/eval.json and OUT/confusion.png. Needs the 'train' extra (torch, onnx).

With --corners it trains the index-corner detector instead (models/corners.onnx, on the
scenes of `trickcam dataset corners`): it finds every visible index corner, whatever covers
the rest of the card, and is measured on the held-out designs' scenes.

With --suits it trains the whole-face suit reader instead (models/suits.onnx): it names a
card's suit from its whole upright face (an ace's big sign, a court's sign, the pips), a
second look the watcher weighs against the index. It renders its own views of the training
designs (kept under datasets/generated/suits) and is measured on the held-out designs.

With --covered it trains the reader of cards seen by one index corner (models/covered.onnx):
the same network and recipe, on the synth set plus index corners with another card lying
beside or below them (a fan, a trick, a column). Whole cards stay with cards.onnx.

examples:
  trickcam train                                  the shipped model (defaults, ~2 CPU cores)
  trickcam train --data /tmp/tiny --out /tmp/m --epochs 1 --limit 400   a smoke run
  trickcam train --corners --seed 3 --widths 32,64,96,128 --device cuda --workers 15
      --batch 64 --steps 200000 --minutes 5.3     the shipped corner detector, on a GPU machine
  trickcam train --corners --seed 3 --widths 32,64,96,128 --batch 64 --steps 11954
                                                  about the same on the CPU (many hours)
  trickcam train --corners --seed 1               the first corner detector (~1 h on 2 cores)
  trickcam train --corners --data /tmp/corners --out /tmp/c.onnx --steps 20   a smoke run
  trickcam train --suits                          the shipped suit reader (~25 min on 2 cores)
  trickcam train --suits --out /tmp/s.onnx --limit 300 --epochs 1 --width 4   a smoke run
  trickcam train --covered                        the shipped one-corner reader (~30-45 min on 2 cores)
"""


COVERED_DATA = "datasets/generated/synth_covx"
"""The covered index corners the one-corner reader is trained on besides the card recipe."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    d = TrainConfig()
    p = sub.add_parser(
        "train",
        help="train the card classifier (needs torch)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--data", default=d.data, help=f"synth folder (default {d.data})")
    p.add_argument("--out", default=d.out, help=f"model folder (default {d.out})")
    p.add_argument("--epochs", type=int, default=d.epochs, help=f"(default {d.epochs})")
    p.add_argument("--batch-size", type=int, default=d.batch_size, help=f"(default {d.batch_size})")
    p.add_argument("--lr", type=float, default=d.lr, help=f"peak learning rate (default {d.lr})")
    p.add_argument("--width", type=int, default=d.width, help=f"CNN base width (default {d.width})")
    p.add_argument("--seed", type=int, default=d.seed, help=f"(default {d.seed})")
    p.add_argument(
        "--threads", type=int, default=d.threads, help=f"torch threads (default {d.threads})"
    )
    p.add_argument("--limit", type=int, default=d.limit, help="use only the first N crops (smoke)")
    p.add_argument(
        "--layouts",
        default=d.layouts,
        metavar="DIR",
        help="also train on the index corners cut from layouts in DIR/crops_train.npz "
        "(`trickcam dataset corners`, e.g. datasets/generated/corners; tried and not shipped, "
        "see models/README.md); default none",
    )
    p.add_argument(
        "--extra",
        default=d.extra,
        metavar="DIR",
        help="also train on DIR/train.npz, another synth folder (e.g. covered cards only: "
        "trickcam dataset synth --covered 1 --heldout-scenes 0 --out DIR); default none",
    )
    p.add_argument("--no-eval", action="store_true", help="skip the evaluation after export")
    p.add_argument(
        "--corners",
        action="store_true",
        help="train the index-corner detector (data: datasets/generated/corners, "
        "out: models/corners.onnx unless given)",
    )
    p.add_argument("--steps", type=int, default=None, help="--corners: training steps")
    p.add_argument("--batch", type=int, default=None, help="--corners: crops a step (default 16)")
    p.add_argument(
        "--widths",
        default=None,
        help="--corners: the four stages' channels, e.g. 32,64,96,128 (default 24,48,64,96)",
    )
    p.add_argument(
        "--device",
        default="cpu",
        help="--corners: torch device, e.g. cuda where there is one (default cpu)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=0,
        help="--corners: processes cutting the crops (default 0: this one, the shipped "
        "recipe's random stream; more: the same crops with any number)",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=0.0,
        help="--corners: stop after this many minutes of training, the learning rate's "
        "one-cycle curve fitted to them (default 0: run every step)",
    )
    p.add_argument(
        "--suits",
        action="store_true",
        help="train the whole-face suit reader (out: models/suits.onnx unless given; "
        "--limit: views rendered, default 40000)",
    )
    p.add_argument(
        "--covered",
        action="store_true",
        help=f"train the reader of cards seen by one index corner instead (OUT/covered.onnx "
        f"and covered.json; --extra defaults to {COVERED_DATA}, made by `trickcam dataset "
        f"synth --covered 1 --scenes 8000 --heldout-scenes 0 --seed 20261203 --out "
        f"{COVERED_DATA}`)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def _has_torch() -> bool:
    """Is torch installed? If not, say how to install it."""
    try:
        import torch  # noqa: F401
    except ImportError:
        print(
            "trickcam train: torch is not installed: pip install 'trickcam[train]'", file=sys.stderr
        )
        return False
    return True


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """The config the options ask for; options the CLI does not offer keep their defaults."""
    d = TrainConfig()
    values = {f.name: getattr(args, f.name, getattr(d, f.name)) for f in fields(TrainConfig)}
    return TrainConfig(**values)


def _device_ok(device: str, what: str) -> bool:
    """Whether torch can train on ``device`` here; says why not on stderr."""
    import torch

    try:
        dev = torch.device(device)
        torch.zeros(1, device=dev)
    except (RuntimeError, AssertionError) as exc:
        print(f"trickcam train {what}: --device {device}: not usable here ({exc})", file=sys.stderr)
        return False
    return True


def run_corners(args: argparse.Namespace) -> int:
    from vision.train.corners import CornerTrainConfig

    d = CornerTrainConfig()
    data = Path(args.data) if args.data != TrainConfig().data else Path(d.data)
    out = args.out if args.out != TrainConfig().out else d.out
    if not (data / "train" / "labels.jsonl").is_file():
        print(
            f"trickcam train --corners: {data}/train/labels.jsonl not found: run "
            f"`trickcam dataset corners --out {data}` first",
            file=sys.stderr,
        )
        return 2
    steps = d.steps if args.steps is None else args.steps
    batch = d.batch if args.batch is None else args.batch
    widths = d.widths
    if args.widths is not None:
        try:
            widths = tuple(int(w) for w in args.widths.split(","))  # type: ignore[assignment]
        except ValueError:
            widths = ()  # type: ignore[assignment]
        if len(widths) != 4 or min(widths) < 1:
            print(
                f"trickcam train --corners: --widths {args.widths}: need four channel counts, "
                "e.g. 24,48,64,96",
                file=sys.stderr,
            )
            return 2
    if steps < 1 or batch < 1 or args.workers < 0 or args.minutes < 0:
        print(
            f"trickcam train --corners: --steps {steps} --batch {batch} --workers "
            f"{args.workers} --minutes {args.minutes}: need steps and batch >= 1, workers and "
            "minutes >= 0",
            file=sys.stderr,
        )
        return 2
    if not _has_torch():
        return 2
    if not _device_ok(args.device, "--corners"):
        return 2
    from vision.train.corners import train as train_corners

    config = CornerTrainConfig(
        data=str(data),
        out=str(out),
        steps=steps,
        batch=batch,
        widths=widths,
        threads=args.threads,
        seed=args.seed,
        device=args.device,
        workers=args.workers,
        minutes=args.minutes,
    )
    sidecar = train_corners(config, progress=not args.quiet)
    print(f"wrote {out} and its .json: {json.dumps(sidecar.get('validation', {}))}")
    return 0


def run_suits(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.train.suits import SuitTrainConfig

    d = SuitTrainConfig()
    values: dict[str, object] = {"threads": args.threads}
    if args.out != TrainConfig().out:
        values["out"] = args.out
    if args.data != TrainConfig().data:
        values["data"] = args.data
    if args.limit:
        values["samples"] = args.limit
        values["heldout"] = max(100, args.limit // 10)
    if args.epochs != TrainConfig().epochs:
        values["epochs"] = args.epochs
    if args.width != TrainConfig().width:
        values["width"] = args.width
    if args.seed != TrainConfig().seed:
        values["seed"] = args.seed
    config = replace(d, **values)  # type: ignore[arg-type]
    if config.epochs < 1 or config.width < 2 or config.samples < 50:
        print(
            f"trickcam train --suits: --epochs {config.epochs} --width {config.width} "
            f"--limit {config.samples}: need epochs >= 1, width >= 2, at least 50 views",
            file=sys.stderr,
        )
        return 2
    if not config.out.endswith(".onnx"):
        print(f"trickcam train --suits: --out {config.out}: name an .onnx file", file=sys.stderr)
        return 2
    if not _has_torch():
        return 2
    from vision.train.suits import train as train_suits

    sidecar = train_suits(config, progress=not args.quiet)
    print(f"wrote {config.out} and its .json: {json.dumps(sidecar['validation'])}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.corners:
        return run_corners(args)
    if args.suits:
        return run_suits(args)
    if getattr(args, "covered", False):
        return run_covered(args)
    return run_cards(args)


def run_covered(args: argparse.Namespace) -> int:
    """The card recipe plus covered index corners, trained in a scratch folder, exported as
    OUT/covered.onnx + covered.json (``vision.read.classify.COVERED_MODEL_PATH``)."""
    args = argparse.Namespace(**vars(args))  # a copy: the caller's arguments stay as given
    out = Path(args.out)
    if not args.extra:
        args.extra = COVERED_DATA
    with tempfile.TemporaryDirectory(prefix="trickcam-covered-") as work:
        args.out = work
        code = run_cards(args)
        if code:
            return code
        from vision.train.trainer import command_line, write_sidecar

        sidecar = json.loads((Path(work) / "cards.json").read_text(encoding="utf-8"))
        # the command that made it: --covered, its own --out (not the scratch folder)
        args.out = str(out)
        config = config_from_args(args)
        if config.extra == COVERED_DATA:
            config = replace(config, extra=TrainConfig().extra)
        rest = command_line(config).removeprefix("trickcam train")
        sidecar["training"]["command"] = f"trickcam train --covered{rest}"
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(work) / "cards.onnx", out / "covered.onnx")
        write_sidecar(out / "covered.json", sidecar)
    print(f"wrote {out}/covered.onnx and covered.json: {json.dumps(sidecar['validation'])}")
    return 0


def run_cards(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    data = Path(config.data)
    if not (data / "train.npz").exists():
        print(
            f"trickcam train: {data}/train.npz not found: run `trickcam dataset synth --out {data}` first",
            file=sys.stderr,
        )
        return 2
    if config.extra and not (Path(config.extra) / "train.npz").exists():
        print(
            f"trickcam train: --extra {config.extra}: {config.extra}/train.npz not found: run "
            f"`trickcam dataset synth --covered 1 --heldout-scenes 0 --out {config.extra}` first",
            file=sys.stderr,
        )
        return 2
    if config.epochs < 1 or config.batch_size < 1 or config.width < 4:
        print(
            f"trickcam train: --epochs {config.epochs} --batch-size {config.batch_size} "
            f"--width {config.width}: need epochs >= 1, batch size >= 1, width >= 4",
            file=sys.stderr,
        )
        return 2
    if not _has_torch():
        return 2
    from vision.train.trainer import MODEL_NAME, train, write_sidecar

    sidecar = train(config, progress=not args.quiet).sidecar
    out = Path(config.out)
    if not args.no_eval:
        from vision.train.evaluate import main as evaluate_main

        evaluate_main(
            ["--model", str(out / f"{MODEL_NAME}.onnx"), "--data", str(data), "--out", str(out)]
        )
        report = json.loads((out / "eval.json").read_text())
        validation = sidecar["validation"]
        for name, r in report.get("realcards_singles", {}).items():
            validation[f"realcards_singles_{name}"] = {"n": r["n"], "accuracy": r["accuracy"]}
        held = report.get("heldout_decks")
        if held:
            validation["heldout_decks"] = {
                "decks": held["per_deck"],
                "accuracy": held["accuracy"],
                "scenes": held["scenes"],
            }
        write_sidecar(out / f"{MODEL_NAME}.json", sidecar)
    print(
        f"wrote {out}/{MODEL_NAME}.onnx and {MODEL_NAME}.json: {json.dumps(sidecar['validation'])}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run this command on its own (``python -m cli.train ...``)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["train", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
