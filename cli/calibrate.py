"""``trickcam calibrate``: write a table file (where the seats are) for ``trickcam watch``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = """\
Find where the seats are. Ask every player to put one card face up in front of himself, then
take one frame: the table's centre is the middle of the cards, seat 0 is the card nearest the
bottom edge of the image (or --first-seat-angle), and the others follow clockwise as seen
from above. Or give the seats' directions yourself with --angles (degrees in the image, y
down: 90 bottom, 180 left, 270 top, 0 right).

examples:
  trickcam calibrate --source 0 --players 4 --out table.json
  trickcam calibrate --source setup.jpg --players 5 --out table.json
  trickcam calibrate --players 4 --angles 90,180,270,0 --out table.json
  trickcam watch ... --table table.json
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "calibrate",
        help="write a table file: where each seat sits",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=int, required=True, help="players at the table")
    p.add_argument("--out", type=Path, required=True, help="the table file to write (JSON)")
    p.add_argument("--source", help="camera index, image, video, folder or URL")
    p.add_argument("--at", type=float, default=0.0, help="use the frame at this time (seconds)")
    p.add_argument("--angles", help="explicit seat directions in degrees, seat 0 first")
    p.add_argument("--first-seat-angle", type=float, default=90.0,
                   help="where seat 0 sits (default 90: the bottom edge)")  # fmt: skip
    p.set_defaults(func=run)


def main(argv: list[str]) -> int:
    """``trickcam calibrate ARGS`` on its own (tests, before the lead wires it in)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers())
    args = parser.parse_args(["calibrate", *argv])
    return int(args.func(args))


def run(args: argparse.Namespace) -> int:
    from vision.track.table import TableFileError, calibrate, seat_angles_geometry

    try:
        if args.angles:
            try:
                angles = [float(a) for a in args.angles.split(",") if a.strip()]
            except ValueError:
                raise TableFileError(
                    f"--angles {args.angles!r}: expected numbers, e.g. 90,180,270,0"
                ) from None
            if len(angles) != args.players:
                raise TableFileError(
                    f"--angles {args.angles!r}: {len(angles)} angles for {args.players} players"
                )
            geometry = seat_angles_geometry(args.players, angles)
        else:
            if not args.source:
                raise TableFileError("give --source (a frame with one card per player) or --angles")
            frame = _frame(args.source, args.at)
            from vision.detect.find import detect

            found = detect(frame)
            centres = [
                q.reshape(4, 2).mean(axis=0)
                for q, part in zip(found.quads, found.partial, strict=True)
                if not part
            ]
            if len(centres) != args.players:
                raise TableFileError(
                    f"{args.source!r}: found {len(centres)} cards lying face up, expected {args.players} "
                    "(one in front of each player)"
                )
            h, w = frame.shape[:2]
            geometry = calibrate(centres, (w, h), args.first_seat_angle)
    except (TableFileError, ValueError) as exc:
        print(f"trickcam calibrate: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    geometry.save(args.out)
    angles_text = ", ".join(f"seat {k}: {a:.0f}°" for k, a in enumerate(geometry.seat_angles))
    print(f"table file written to {args.out}: {angles_text}")
    return 0


def _frame(spec: str, at: float):  # type: ignore[no-untyped-def]
    from vision.sources import SourceError, open_source

    source = open_source(spec)
    try:
        for frame in source:
            if frame.t >= at:
                return frame.image
    finally:
        source.close()
    raise SourceError(f"{spec!r}: no frame at {at} s")
