"""``trickcam watch``: a camera's (or a video's) view of a table in, the hand record out.

Prints each play (seat, card, confidence) and each trick's winner as they happen, writes the
hand record ``trickcam score`` reads (with the evidence of every play under ``"watch"``), and
can post the events to a running ``trickcam serve`` and write an annotated video.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import cv2

from cli.outputs import (
    output_file,
    output_folder,
    output_image,
    output_video,
    write_or_fallback,
    write_text,
)
from cli.post import Poster, setup_events
from rules.errors import RulesError
from vision.track.games import GAMES, GameSpec, clabber, clag, klaberjass
from vision.track.record import watch_record
from vision.track.watch import Watcher, WatchEvent

HELP = """\
Watch a table and keep the score: every card laid on the table is read, given to the seat on
whose side it lies, checked against the game, and the finished hand is written as a record.

SOURCE is a camera index (0), a video file, a folder or glob of images (--fps), or a URL
(rtsp://..., http://...). A live camera that drops out is reopened; Ctrl-C stops cleanly and
still writes what was seen. The record (--out) is kept up to date as the hand goes on, so a
watch killed outright (a closed laptop, a lost power supply) leaves every play seen until
then ("stopped": "in progress"). Every output path is checked before the first frame.

examples:
  trickcam watch --game clabber --source 0 --dealer 3 --upcard 9H --bidding pass,pass,play \\
      --out hand.json
  trickcam watch --game klaberjass --source hand.mp4 --dealer 0 --upcard JD --bidding accept \\
      --out hand.json --annotate seen.mp4
  trickcam watch --game clag --players 5 --round 3 --dealer 2 --trump-card 7H \\
      --contracts 1,0,2,0,1 --source frames/ --fps 4 --out round.json
  trickcam watch ... --post http://localhost:8000/api/tables/T1 --token-file ~/.t1-token
      (or TRICKCAM_TOKEN=... in the environment; --token TOKEN shows it to every 'ps')
  trickcam watch ... --correct 7=QH      a person corrects play 7 (0-based): an event, replayed
  trickcam watch --game clag --round 12 ... --name 7=AS   play 7, a wild two, names AS
"""


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("the hand (as dealt and bid)")
    g.add_argument("--game", choices=GAMES, required=True)
    g.add_argument("--dealer", type=int, required=True, help="the dealer's seat")
    g.add_argument("--upcard", help="Clabber's upcard / Klaberjass's and Belote's candidate")
    g.add_argument("--bidding", help="calls from the dealer's left, comma-separated")
    g.add_argument("--exchange", type=int, help="Klaberjass: the seat that exchanged the dix")
    g.add_argument("--players", type=int, default=4, help="Clag: 4..7 players (default 4)")
    g.add_argument("--round", type=int, help="Clag: the round number 1..22")
    g.add_argument("--trump-card", help="Clag: the turned trump card")
    g.add_argument("--trump", help="Clag round 14: the suit the dealer chose")
    g.add_argument("--contracts", help="Clag: contracts by seat, comma-separated")


def spec_from_args(args: argparse.Namespace) -> GameSpec:
    """The hand the options describe; raises a ``RulesError`` naming the missing option."""
    if args.game in ("clabber", "klaberjass", "belote"):
        if not args.upcard or args.bidding is None:
            raise RulesError(
                f"{args.game}: give --upcard and --bidding (calls from the dealer's left)"
            )
        if args.game == "clabber":
            return clabber(args.dealer, args.upcard, args.bidding)
        return klaberjass(args.dealer, args.upcard, args.bidding, args.game, args.exchange)
    if args.round is None:
        raise RulesError("clag: give --round (1..22)")
    return clag(args.players, args.round, args.dealer, args.trump_card, args.trump, args.contracts)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "watch",
        help="watch a table (camera, video, images) and write the hand record",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p)
    p.add_argument(
        "--source", required=True, help="camera index, video, folder/glob of images, or URL"
    )
    p.add_argument("--fps", type=float, help="frame rate of an image folder (default 2)")
    p.add_argument("--out", type=Path, required=True, help="the hand record to write (JSON)")
    p.add_argument(
        "--table",
        type=Path,
        help="table file from 'trickcam calibrate': where the table and each seat lie for a "
        "camera at an angle (without one: a camera straight above the table, seat 0 at the "
        "bottom edge of the picture, the others clockwise)",
    )
    p.add_argument("--annotate", type=Path, help="write the annotated video here (mp4)")
    p.add_argument("--post", metavar="URL", help="a table of 'trickcam serve': .../api/tables/ID")
    p.add_argument("--token", help="the table's scorer token (with --post); visible to other "
                   "users of this machine in 'ps': prefer --token-file or TRICKCAM_TOKEN")  # fmt: skip
    p.add_argument("--token-file", type=Path, metavar="PATH",
                   help="read the scorer token from this file (its first line)")  # fmt: skip
    p.add_argument("--evidence", type=Path, help="write each play's card image to this folder")
    p.add_argument("--correct", action="append", default=[], metavar="N=CARD",
                   help="play N (0-based) was CARD: a correction event (repeatable)")  # fmt: skip
    p.add_argument("--name", action="append", default=[], metavar="N=CARD", dest="names",
                   help="Clag round 12: play N (0-based), a wild two, names CARD (repeatable)")  # fmt: skip
    p.add_argument("--model", type=Path, help="card classifier (default models/cards.onnx)")
    p.add_argument("--pace", action="store_true", help="play files at their own speed (demos)")
    p.add_argument("--quiet", action="store_true", help="no live lines, no progress bar")
    p.add_argument(
        "--preview",
        nargs="?",
        const="window",
        metavar="IMAGE.jpg",
        help="show what the camera sees while it works: each card outlined with its name, "
        "confidence and seat, the seat areas, the trick in progress, plays awaiting a person. "
        "Alone: a window (where OpenCV can open one); with IMAGE.jpg (or headless): that image "
        "rewritten twice a second, for any image viewer or a browser to reload",
    )
    p.add_argument("--deck-reader", help=argparse.SUPPRESS)  # read by one deck design's faces
    p.set_defaults(func=run)


def main(argv: list[str]) -> int:
    """``trickcam watch ARGS`` without the rest of the command line (tests, demo)."""
    parser = argparse.ArgumentParser(prog="trickcam")
    register(parser.add_subparsers())
    args = parser.parse_args(["watch", *argv])
    return int(args.func(args))


def describe(ev: WatchEvent, spec: GameSpec, score: list[int] | None = None) -> str:
    """One live line for an event (``score``: the running score, shown after a trick)."""
    if ev.play is not None:
        p = ev.play
        line = f"{ev.t:7.1f}s  play {p.index + 1:>2}  seat {p.seat}  {p.card!s:>3}  {p.reading.probability:.2f}"
        if p.confirm:
            doubt = p.reading.doubt
            pair = f" ({doubt[0]} or {doubt[1]}?)" if doubt else ""
            line += f"  CONFIRM{pair}: {p.reason}"
            line += f" (if wrong: --correct {p.index}=CARD)"
        return line
    if ev.trick is not None and ev.kind == "trick":
        tr = ev.trick
        if tr.winner is None:  # a card of it missed: the next lead will show who won
            line = f"{ev.t:7.1f}s  trick {tr.number} over, winner not known yet (a card missed)"
        else:
            who = ("team 0-2", "team 1-3")[tr.winner % 2] if spec.teams else f"seat {tr.winner}"
            line = f"{ev.t:7.1f}s  trick {tr.number} won by seat {tr.winner} ({who}, +{tr.points})"
        if score is not None:
            names = (
                ("team 0-2", "team 1-3") if spec.teams else [f"seat {k}" for k in range(len(score))]
            )
            line += "   score " + ", ".join(f"{n} {v}" for n, v in zip(names, score, strict=True))
        return line
    if ev.trick is not None:
        return f"{ev.t:7.1f}s  trick {ev.trick.number} gathered"
    if ev.kind == "revised" and ev.missed is not None:  # a play never seen, named by the deck
        return f"{ev.t:7.1f}s  {ev.text} (if wrong: --correct {ev.missed.index}=CARD)"
    return f"{ev.t:7.1f}s  {ev.text}"


def confirm_lines(log: Any) -> list[str]:
    """What a person should look at on the table once the hand is watched: one line per play
    marked CONFIRM that nobody has settled, with why and how to correct it (the live lines
    scroll away; a missed play nobody named is in the 'not scored' warning instead)."""
    cards = log.cards()
    settled = log.settled()
    return [
        f"  play {p.index + 1} (seat {p.seat}, trick {p.trick}) {cards[p.index][1]}: "
        f"{p.reason or 'read in doubt'} (if wrong: --correct {p.index}=CARD)"
        for p in log.plays
        if p.confirm and p.index not in settled and cards[p.index][1] is not None
    ]


def run(args: argparse.Namespace) -> int:
    from vision.read.classify import ModelError
    from vision.sources import SourceError, open_source
    from vision.track.table import TableFileError, TableGeometry
    from vision.track.watch import classifier_reader

    try:
        spec = spec_from_args(args)
        geometry = TableGeometry.load(args.table) if args.table else None
        # every output checked before the first frame: a hand watched to its end must not
        # be lost to a path that cannot be written
        args.out = output_file(args.out, "--out")
        if args.annotate is not None:
            args.annotate = output_video(args.annotate, "--annotate")
        if args.evidence is not None:
            args.evidence = output_folder(args.evidence, "--evidence")
        if args.preview and args.preview != "window":
            output_image(Path(args.preview), "--preview")
        args.token = scorer_token(args)
        corrections = [_correction(c) for c in args.correct]
        names = [_correction(c, "--name") for c in args.names]
        if names and not spec.wild_twos:
            raise RulesError(
                f"--name {args.names[0]!r}: twos are wild only in Clag round 12 (--game clag --round 12)"
            )
        source = (
            open_source(args.source, args.fps, log=_warn)
            if _is_live(args.source)
            else open_source(args.source, args.fps)
        )
        if args.deck_reader:
            from vision.render.deckreader import deck_reader

            reader = deck_reader(args.deck_reader)
        else:
            reader = classifier_reader(str(args.model) if args.model else None)
        watcher = Watcher(spec, reader, geometry)
        if geometry is None and not args.quiet:
            _warn(
                "no --table: the camera is taken to look straight down on the table, seat 0 at "
                "the bottom edge of the picture (a camera at an angle: `trickcam calibrate` first)"
            )
    except (RulesError, SourceError, TableFileError, ModelError, ValueError) as exc:
        print(f"trickcam watch: {exc}", file=sys.stderr)
        return 2
    return loop(args, spec, watcher, source, corrections, names)


def scorer_token(args: argparse.Namespace) -> str | None:
    """The scorer token from --token, --token-file or $TRICKCAM_TOKEN (in that order); with
    --post one of them is required, and a file that cannot be read is a clear error."""
    if args.token and args.token_file:
        raise ValueError("give the token once: --token or --token-file, not both")
    token = args.token
    if args.token_file:
        try:
            lines = args.token_file.expanduser().read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"--token-file {args.token_file}: cannot read it ({exc})") from exc
        token = lines[0].strip() if lines else ""
        if not token:
            raise ValueError(f"--token-file {args.token_file}: the file is empty")
    if not token:
        token = os.environ.get("TRICKCAM_TOKEN", "").strip() or None
    if args.post and not token:
        raise ValueError(
            "--post needs the table's scorer token: --token-file PATH, TRICKCAM_TOKEN, or --token"
        )
    return token


def _wild_line(index: int, card: object, t: float) -> str:
    return f"{t:7.1f}s  play {index}: {card} is wild — name it with --name {index}=CARD"


def _is_live(spec: str) -> bool:
    return spec.strip().isdigit() or "://" in spec


def _warn(msg: str) -> None:
    print(f"trickcam watch: {msg}", file=sys.stderr)


class Console:
    """The terminal: live lines on stdout, warnings on stderr, and the progress bar below them
    (each line is written above the bar, never over it)."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.bar: Any = None

    def _write(self, line: str, file: Any) -> None:
        if self.bar is not None:
            from tqdm import tqdm

            tqdm.write(line, file=file)
            file.flush()
        else:
            print(line, file=file, flush=True)

    def say(self, line: str) -> None:
        if not self.quiet:
            self._write(line, sys.stdout)

    def warn(self, msg: str) -> None:
        self._write(f"trickcam watch: {msg}", sys.stderr)


class Preview:
    """What the camera sees, annotated, while the watcher works: a window, or an image file
    rewritten now and then (headless machines, or a phone on the same network opening it)."""

    EVERY_S = 0.5

    def __init__(self, target: str, console: Console) -> None:
        self.path: Path | None = None if target == "window" else Path(target)
        self.console = console
        self.last = -1e9
        if self.path is None and not _can_open_window():
            self.path = Path("preview.jpg")
            console.warn(f"no window can be opened here: the preview is written to {self.path}")
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            console.say(f"preview: {self.path.resolve()} (rewritten every {self.EVERY_S:g} s)")

    def show(self, image: Any, watcher: Watcher, t: float) -> None:
        from vision.draw.overlay import draw

        if self.path is None:
            cv2.imshow("trickcam watch", draw(image, watcher, t))
            cv2.waitKey(1)
            return
        if t - self.last < self.EVERY_S:
            return
        self.last = t
        tmp = self.path.with_name(self.path.stem + ".tmp" + self.path.suffix)
        if cv2.imwrite(str(tmp), draw(image, watcher, t)):
            tmp.replace(self.path)  # a viewer never reads half an image

    def close(self) -> None:
        if self.path is None:
            cv2.destroyAllWindows()


def _can_open_window() -> bool:
    """Can OpenCV show a window here (a GUI build and a display)?"""
    import os

    if (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        return False
    try:
        cv2.namedWindow("trickcam watch")
        return True
    except cv2.error:
        return False


def _correction(text: str, option: str = "--correct") -> tuple[int, str]:
    index, sep, card = text.partition("=")
    if not sep or not index.strip().isdigit():
        raise RulesError(f"{option} {text!r}: expected N=CARD, e.g. 7=QH")
    from rules.cards import Card

    return int(index), str(Card.parse(card))


def checkpoint(args: argparse.Namespace, watcher: Watcher) -> None:
    """The record so far, written over ``--out`` whenever the hand moves on (a play, a
    trick, a correction): a watch killed outright (a closed laptop, a lost power supply,
    SIGKILL) leaves every play seen until then. Marked ``"stopped": "in progress"``; the end
    of the watch writes the whole record. A failed write here is left for the end to
    report (the fallback is there)."""
    record = watch_record(watcher, args.source, "in progress")
    with contextlib.suppress(OSError):
        write_text(args.out, json.dumps(record, indent=1) + "\n")


def loop(args: argparse.Namespace, spec: GameSpec, watcher: Watcher, source: Any,
         corrections: list[tuple[int, str]], names: list[tuple[int, str]] | None = None) -> int:  # fmt: skip
    """Run the watcher over the source, print, post, annotate; write the record at the end."""
    from vision.draw.overlay import draw
    from vision.sources import SourceError
    from vision.track.watch import FrameTooSmall

    console = Console(quiet=args.quiet)
    say = console.say
    poster = Poster(args.post, args.token or "", console.warn) if args.post else None
    preview = Preview(args.preview, console) if args.preview else None
    if poster is not None:
        for setup in setup_events(spec):
            poster.add(setup)
    writer = None
    bar = None
    if source.total and not args.quiet and not args.pace:
        from tqdm import tqdm

        bar = tqdm(total=source.total, unit="frame", file=sys.stderr, leave=False)
        console.bar = bar
    stopped = "end of source"
    failed_at_start = ""
    start = time.monotonic()
    pending = dict(corrections)
    pending_names = dict(names or [])
    try:
        for frame in source:
            if args.pace and not getattr(source, "live", False):
                delay = frame.t - (time.monotonic() - start)
                if delay > 0:
                    time.sleep(delay)
            events = watcher.feed(frame.image, frame.t)
            for ev in events:
                say(describe(ev, spec, watcher.log.running_score()))
                fixed = ev.play if ev.play is not None else ev.missed
                if fixed is not None and fixed.index in pending:
                    fix = watcher.log.correct(
                        fixed.index, pending.pop(fixed.index), "--correct", frame.t
                    )
                    say(f"{frame.t:7.1f}s  correction: play {fix.index + 1} is {fix.card}")
                if ev.play is not None:
                    if ev.play.index in pending_names:
                        named = watcher.log.name(
                            ev.play.index, pending_names.pop(ev.play.index), "--name", frame.t
                        )
                        say(
                            f"{frame.t:7.1f}s  --name {named.index}: {ev.play.card} names {named.card}"
                        )
                    elif ev.play.index in watcher.log.awaiting_names():
                        say(_wild_line(ev.play.index, ev.play.card, frame.t))
                if args.evidence and ev.play is not None:
                    cv2.imwrite(
                        str(args.evidence / f"play_{ev.play.index:02d}_{ev.play.card}.png"),
                        ev.play.crop,
                    )
            if events:
                checkpoint(args, watcher)
            if poster is not None:
                poster.sync(watcher.log)
            if args.annotate is not None:
                if writer is None:
                    h, w = frame.image.shape[:2]
                    fps = source.fps or 10.0
                    writer = cv2.VideoWriter(
                        str(args.annotate), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h)
                    )
                    if not writer.isOpened():
                        console.warn(
                            f"--annotate {args.annotate}: OpenCV cannot write a video there; "
                            "going on without it"
                        )
                        args.annotate, writer = None, None
                if writer is not None:
                    writer.write(draw(frame.image, watcher, frame.t))
            if preview is not None:
                preview.show(frame.image, watcher, frame.t)
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        stopped = "interrupted"
        say("stopped: writing what was seen")
    except (SourceError, FrameTooSmall) as exc:  # a source that never opened, or cannot be read
        stopped = f"source failed: {exc}"
        if watcher.frames == 0:
            failed_at_start = str(exc)
    finally:
        if bar is not None:
            bar.close()
            console.bar = None
        if preview is not None:
            preview.close()
        if writer is not None:
            writer.release()
        source.close()
    if failed_at_start:  # nothing seen: no record to write (nor an earlier one to replace)
        _warn(failed_at_start)
        return 2
    record = watch_record(watcher, args.source, stopped)
    text = json.dumps(record, indent=1) + "\n"
    try:
        written, failed = write_or_fallback(args.out, text, "trickcam-hand")
    except OSError as exc:
        _warn(f"--out {args.out}: the record could not be written anywhere ({exc})")
        print(text, end="")  # the last place it can go
        return 1
    if failed is not None:
        _warn(f"--out {args.out}: cannot write it ({failed}); the record is in {written}")
    say(
        f"record written to {written} ({len(watcher.log.plays)} plays, {len(record['watch']['to_confirm'])} to confirm)"
    )  # type: ignore[index]
    lines = confirm_lines(watcher.log)
    if lines:
        say("look at these cards on the table:")
        for line in lines:
            say(line)
    if poster is not None and poster.waiting(watcher.log):
        held = poster.waiting(watcher.log)
        _warn(
            f"not posted: {len(held)} play(s) from play {held[0] + 1} on wait behind a play "
            "the camera missed or saw out of turn; correct it (--correct N=CARD) and run again"
        )
    for option, left in (("--correct", pending), ("--name", pending_names)):
        for index, card in sorted(left.items()):
            _warn(
                f"{option} {index}={card} not applied: the camera saw no play {index} "
                f"(plays are numbered from 0; {len(watcher.log.plays)} seen)"
            )
    missed = watcher.log.missed()
    waiting = watcher.log.awaiting_names()
    if missed:
        cards = watcher.log.cards()
        trick_of = {p.index: p.trick for p in watcher.log.plays}
        _warn(
            "not scored: the camera missed "
            + ", ".join(f"play {i + 1} (seat {cards[i][0]}, trick {trick_of[i]})" for i in missed)
            + " (give --correct N=CARD with N 0-based: "
            + ", ".join(f"--correct {i}=CARD" for i in missed)
            + ")"
        )
    elif waiting:
        cards = watcher.log.cards()
        _warn(
            "not scored: wild twos await the card they name: "
            + ", ".join(f"play {i} ({cards[i][1]})" for i in waiting)
            + " (give --name N=CARD for each)"
        )
    elif watcher.complete:
        from rules.records import format_text, score_record

        try:
            result = score_record(record)
            say(format_text(record, result))
        except RulesError as exc:
            _warn(f"the record does not score: {exc}")
    elif stopped == "end of source":
        done, _ = watcher.log.tricks()
        _warn(f"the hand is not complete: {len(done)} of {spec.tricks} tricks seen")
    if stopped.startswith("source failed"):
        _warn(f"stopped early, {stopped}")
    if stopped == "interrupted":
        return 130
    return 1 if failed is not None or stopped.startswith("source failed") else 0
