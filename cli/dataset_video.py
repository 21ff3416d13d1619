"""``trickcam dataset video``: render a whole hand being played, with the true record beside it.

The ``dataset`` command belongs to :mod:`cli.dataset`; it calls :func:`register_video`
with its own sub-action parsers to add this action.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.outputs import output_video
from vision.render.realism import REALISM
from vision.track.games import GAMES

HELP = """\
Render one hand of a game being played at a table: a random lawful deal, the face-up card of
the deal by the dealer during the bidding, every card brought in by a hand from its player's
side and resting, each trick swept toward its winner. Table, light, camera and deck design
vary with --seed (the hand itself is the same at every --realism). Writes OUT (mp4) and OUT
with .json: the true hand record, which 'trickcam score' reads as it is, with "rendered"
beside it: the options 'trickcam watch' needs ("watch_args"), each play's seat and card and
when it came to rest, the deck and the look.

--realism (default studio, the original kind renders):
  top       a camera straight above; real pace: a card 0.3-0.7 s after the last came to
            rest, the trick gathered 0.5-1 s after its last card; arms carry the cards
  oblique   top, seen by a phone or webcam on a stand at any side or corner, 35-90 degrees
            up, through a wide lens: the far cards 50-90 px long at 1280x720
  light     oblique, with exposure and white-balance drift, people's shadows, glare,
            heavy compression, noise, a shaking camera and one bump that moves it
  hands     oblique, with real hands: shadows, motion blur, skin tones and sleeves, someone
            reaching over the cards, cards overlapping, held cards, stock and piles at the
            edges, a meld shown and taken back
  full      hands and light together
Every level but studio also writes OUT with .setup.png: the same camera before the deal with
one card in front of each player, for 'trickcam calibrate'. The camera stands where a person
propping up a phone would leave it: one that the players' held cards, or a player's arm
reaching in from right in front of it, hide the table from is moved between two players, or
higher (--keep-camera leaves it where it was drawn).

examples:
  trickcam dataset video --game clabber --seed 7 hand.mp4
  trickcam dataset video --game clag --seed 3 --size 1280x720 --fps 30 --heldout round.mp4
  trickcam dataset video --game belote --realism full --size 1280x720 --fps 10 hand.mp4
  trickcam calibrate --source hand.setup.png --players 4 --out table.json
"""


def register_video(what: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``video`` action to ``trickcam dataset``'s sub-actions."""
    p = what.add_parser(
        "video",
        help="render a whole hand being played (mp4 + true record)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("out", type=Path, metavar="OUT.mp4")
    p.add_argument("--game", choices=GAMES, default="clabber")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", default="640x360", help="WIDTHxHEIGHT (default 640x360)")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    decks = p.add_mutually_exclusive_group()
    decks.add_argument(
        "--heldout", action="store_true", help="only deck designs kept out of training"
    )
    decks.add_argument("--trained", action="store_true", help="only deck designs trained on")
    decks.add_argument("--deck", help="this deck design")
    p.add_argument("--realism", choices=REALISM, default="studio",
                   help="how hard the table is to follow (see above; default studio)")  # fmt: skip
    p.add_argument(
        "--tricks", type=int, help="levels only: stage the hand's first N tricks (short videos)"
    )
    p.add_argument(
        "--keep-camera",
        action="store_true",
        help="levels only: keep the camera where it was drawn even where the players hide the"
        " table from it (a phone left behind a player's shoulder: his sleeve covers the far"
        " cards each time he plays); by default it is moved between two players, or higher,"
        " as a person propping up the phone would",
    )
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=run_video)


def parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 64 or int(h) < 48:
        raise ValueError(f"--size {text!r}: expected WIDTHxHEIGHT such as 1280x720")
    return int(w), int(h)


def run_video(args: argparse.Namespace) -> int:
    from vision.render.decks import DeckError
    from vision.render.tablevideo import render_hand

    try:
        args.out = output_video(args.out, "OUT.mp4")
        size = parse_size(args.size)
        heldout = True if args.heldout else False if args.trained else None
        bar = None
        if not args.quiet:
            from tqdm import tqdm

            bar = tqdm(unit="frame", file=sys.stderr, leave=False)

        def progress(done: int, total: int) -> None:
            if bar is not None:
                bar.total = total
                bar.update(done - bar.n)

        truth = render_hand(
            args.game, args.seed, args.out, size, args.fps,
            decks=[args.deck] if args.deck else None, heldout=heldout, progress=progress,
            realism=args.realism, tricks=args.tricks, keep_camera=args.keep_camera,
        )  # fmt: skip
        if bar is not None:
            bar.close()
    except (ValueError, DeckError, OSError, StopIteration) as exc:
        print(f"trickcam dataset video: {exc or 'unknown deck'}", file=sys.stderr)
        return 2
    look = truth["look"]
    print(f"{args.out}: {args.game}, {truth['duration_s']} s, deck {look['deck']}"  # type: ignore[index]
          f" -> true record {args.out.with_suffix('.json')}")  # fmt: skip
    if not args.quiet:
        print(json.dumps(truth["watch_args"]))
    return 0


def main(argv: list[str]) -> int:
    """``trickcam dataset video ARGS`` on its own (tests, before the lead wires it in)."""
    parser = argparse.ArgumentParser(prog="trickcam dataset")
    register_video(parser.add_subparsers())
    args = parser.parse_args(["video", *argv])
    return int(args.func(args))
