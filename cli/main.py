"""The ``trickcam`` command line.

Each subcommand lives in its own module exposing ``register(subparsers)``, which adds the
subcommand's parser and sets ``func`` to a callable taking the parsed arguments and returning
the exit code. Modules are imported lazily so that ``trickcam score`` never loads OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# (subcommand name, module that registers it). Order is the order of --help.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("demo", "cli.demo"),
    ("watch", "cli.watch"),
    ("calibrate", "cli.calibrate"),
    ("score", "cli.score"),
    ("serve", "cli.serve"),
    ("backup", "cli.backup"),
    ("recognize", "cli.recognize"),
    ("dataset", "cli.dataset"),
    ("train", "cli.train"),
)

DESCRIPTION = """\
trickcam keeps the score of trick-taking card games (Evansville Clabber, Klaberjass, Belote,
Jass-deux, Clag) from a camera pointed at the table, and referees every play.

examples:
  trickcam demo                          play the bundled rendered Clabber hand through the camera pipeline
  trickcam watch --game clabber --source 0 --dealer 3 --upcard 9H --bidding pass,play --out hand.json
                                         follow a real table through camera 0, write the hand record
  trickcam calibrate --source 0 --players 4 --out table.json   seats from one frame
  trickcam score match.json              score a hand or match record, one JSON line each
  trickcam score --format text match.json    a score sheet a club would recognise
  trickcam serve --db club.db            run the live scoring service (API at /docs)
  trickcam backup --db club.db backup.db back up the club's database while it serves
  trickcam recognize photo.jpg --json    name every card lying face up in a photo
  trickcam dataset synth                 render card decks into training images
  trickcam dataset video --game clabber --seed 1 hand.mp4   render a whole hand being played
  trickcam train                         train the card classifier, export models/cards.onnx
  trickcam COMMAND --help                what each command takes
"""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="trickcam",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS:
        if only is not None and name != only:
            # a cheap placeholder so --help lists every command without importing it
            sub.add_parser(name, help=f"(see trickcam {name} --help)")
            continue
        importlib.import_module(module_name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    wanted = next((a for a in args_list if not a.startswith("-")), None)
    known = {name for name, _ in COMMANDS}
    parser = build_parser(only=wanted if wanted in known else None)
    args = parser.parse_args(args_list)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("trickcam: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
