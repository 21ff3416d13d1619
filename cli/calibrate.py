"""``trickcam calibrate``: write a table file (where the seats are) for ``trickcam watch``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.outputs import output_file, output_image, write_text

HELP = """\
Learn the table from one frame, whatever the camera: a phone or webcam on a stand at a side
or corner, 35-90 degrees up, or straight above. Ask every player to put one card face up in
front of himself where he plays his cards, then take one frame. The cards (far ones too: the
frame is searched in parts, then again seen from above) give the table's plane, every card
the same rectangle on it: seats are directions on the plane from the middle of the cards,
seat 0 is the card nearest the bottom edge of the image (or --first-seat-angle: degrees round
the cards' middle in the image, y down: 90 bottom, 180 left, 270 top, 0 right), the others
follow clockwise as seen from above, and the play area is the cards' circle and a card
length more (or --play-radius). 'trickcam watch --table' then finds and follows cards on
the plane seen from above, every card the same size however far from the camera.
Backs (the stock, held cards) and things that read as no card at all (a thumb, a cuff) are
not taken for setup cards; when the cards found do not lie on one plane (one hidden, another
thing taken for one) it says so and writes nothing: clear the view and take the frame again
(--show draws what it found).
Or give the seats' directions yourself with --angles (an overhead camera, no plane).

A live camera (--source 0) is read until a frame shows one card per player.

examples:
  trickcam calibrate --source 0 --players 4 --out table.json
  trickcam calibrate --source setup.jpg --players 5 --out table.json --show found.png
  trickcam calibrate --source hand.mp4 --at 2.5 --players 2 --out table.json
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
    p.add_argument("--play-radius", type=float,
                   help="the play area: card lengths from the middle (default: from the cards)")  # fmt: skip
    p.add_argument("--show", type=Path, help="write the frame with what was found drawn on it")
    p.add_argument("--model", type=Path, help="card classifier (default models/cards.onnx)")
    p.set_defaults(func=run)


def main(argv: list[str]) -> int:
    """``trickcam calibrate ARGS`` on its own (tests, before the lead wires it in)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers())
    args = parser.parse_args(["calibrate", *argv])
    return int(args.func(args))


def run(args: argparse.Namespace) -> int:
    from vision.track.table import TableFileError, seat_angles_geometry

    try:
        # the outputs checked before the frame is searched
        args.out = output_file(args.out, "--out")
        if args.show:
            args.show = output_image(args.show, "--show")
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
            text = ", ".join(f"seat {k}: {a:.0f}°" for k, a in enumerate(geometry.seat_angles))
        else:
            if not args.source:
                raise TableFileError("give --source (a frame with one card per player) or --angles")
            geometry, text = _from_frame(args)
    except (TableFileError, ValueError) as exc:
        print(f"trickcam calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        write_text(args.out, geometry.to_text())
    except OSError as exc:
        print(f"trickcam calibrate: --out {args.out}: cannot write it ({exc})", file=sys.stderr)
        return 1
    print(f"table file written to {args.out}: {text}")
    return 0


def _from_frame(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The table file's geometry from a frame of ``--source`` (and a line saying what was
    found)."""
    import cv2

    from vision.detect.find import alternative_view, detect_low
    from vision.read.decode import setup_faces
    from vision.track.plane import calibrate_frame
    from vision.track.table import TableFileError, TableGeometry
    from vision.track.watch import classifier_reader

    reader = classifier_reader(str(args.model) if args.model else None)

    def is_face(crops: list) -> list[tuple[float, int | None]]:  # type: ignore[type-arg]
        """Not a card back (the stock, a pile, a held card) nor a thumb: whatever the
        classifier makes of a far, blurred face, a back it knows."""
        return setup_faces(reader, crops, alternative_view)

    last: Exception | None = None
    tried = None
    for frame in _frames(args.source, args.at):
        try:
            cal = calibrate_frame(frame, args.players, detect_low, args.first_seat_angle, is_face)
            break
        except ValueError as exc:
            last, tried = exc, frame
    else:
        drawn = ""
        if args.show and tried is not None:
            # what was found, for the person to see what to clear or move
            from vision.draw.overlay import draw_finds
            from vision.track.plane import find_cards

            finds = find_cards(tried, detect_low, tiles=3).quads
            cv2.imwrite(str(args.show), draw_finds(tried, finds, f"not calibrated: {last}"))
            drawn = f"; the {len(finds)} cards found are drawn in {args.show}"
        raise TableFileError(f"{args.source!r}: {last} (one in front of each player){drawn}")
    h, w = frame.shape[:2]
    radius = args.play_radius or cal.radius
    geometry = TableGeometry(
        args.players,
        (0.5, 0.5),
        cal.seat_angles,
        tuple(tuple(float(v) for v in row) for row in cal.homography),  # type: ignore[arg-type]
        float(radius),
        (w, h),
    )
    if args.show:
        from vision.draw.overlay import draw_table

        cv2.imwrite(str(args.show), draw_table(frame, geometry, cal.quads))
    spots = ", ".join(
        f"seat {k}: card at ({q.mean(axis=0)[0]:.0f}, {q.mean(axis=0)[1]:.0f})"
        for k, q in enumerate(cal.quads)
    )
    check = f"; CHECK: {cal.note}" if cal.note else ""
    return (
        geometry,
        f"{spots}; play area {radius:.1f} card lengths round the middle (fit {cal.rms:.1f} px)"
        + check,
    )


def _frames(spec: str, at: float):  # type: ignore[no-untyped-def]
    """The frame at ``at`` seconds of a file; from a live camera, every frame (for a while)
    until one serves."""
    from vision.sources import SourceError, open_source

    source = open_source(spec)
    live = getattr(source, "live", False)
    try:
        n = 0
        for frame in source:
            if frame.t >= at:
                yield frame.image
                n += 1
                if not live or n >= 300:
                    return
    finally:
        source.close()
    raise SourceError(f"{spec!r}: no frame at {at} s")
