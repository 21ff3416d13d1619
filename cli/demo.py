"""``trickcam demo``: the whole pipeline on the bundled video of a rendered Clabber hand."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from cli.outputs import OutputError, output_file, output_video

SAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "samples" / "clabber_hand.mp4"

HELP = """\
Play the bundled video of a Clabber hand (datasets/samples/clabber_hand.mp4, rendered with
'trickcam dataset video') through the whole pipeline, at the video's own speed: each play and
each trick's winner appear as the camera sees them, then the score sheet. At the end the record
read from the video is compared with the true record rendered beside it.

examples:
  trickcam demo
  trickcam demo --fast                      as fast as the machine reads it
  trickcam demo --annotate seen.mp4         also write the annotated video
  trickcam demo --serve                     also start 'trickcam serve', open a table and post
                                            every event to it: follow the hand on the printed
                                            live page (http://127.0.0.1:PORT/tables/ID); the
                                            server runs until Ctrl-C
  trickcam demo --serve --port 8000 --fast --exit   a fixed port; stop the server at the end
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo",
        help="watch the bundled Clabber hand video and keep the score live",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--video", type=Path, default=SAMPLE, help="a video rendered with its .json truth"
    )
    p.add_argument("--fast", action="store_true", help="do not wait for the video's own pace")
    p.add_argument("--annotate", type=Path, help="write the annotated video here")
    p.add_argument("--out", type=Path, help="where to write the record (default: a temp folder)")
    p.add_argument("--post", metavar="URL", help="also post the events to a 'trickcam serve' table")
    p.add_argument("--token", help="the table's scorer token (with --post)")
    p.add_argument(
        "--serve",
        action="store_true",
        help="start 'trickcam serve' (a temporary database), open a table, post to it",
    )
    p.add_argument("--port", type=int, help="the port for --serve (default: a free one)")
    p.add_argument(
        "--exit", action="store_true", help="with --serve: stop the server at the end of the hand"
    )
    p.set_defaults(func=run)


def watch_argv(truth: dict[str, object], video: Path, out: Path) -> list[str]:
    """The ``trickcam watch`` options that replay a rendered hand."""
    record = truth["record"]
    assert isinstance(record, dict)
    argv = ["--game", str(record["game"]), "--source", str(video), "--out", str(out)]
    args = truth["watch_args"]
    assert isinstance(args, dict)
    for key, value in args.items():
        argv += ["--" + key.replace("_", "-"), str(value)]
    return argv


def run(args: argparse.Namespace) -> int:
    from vision.render.tablevideo import load_truth

    truth_path = args.video.with_suffix(".json")
    try:
        truth = load_truth(truth_path)
    except (OSError, json.JSONDecodeError, KeyError) as exc:
        print(f"trickcam demo: {truth_path}: cannot read the true record ({exc})", file=sys.stderr)
        return 2
    try:  # the outputs checked before the hand is watched
        if args.out is not None:
            args.out = output_file(args.out, "--out")
        if args.annotate is not None:
            args.annotate = output_video(args.annotate, "--annotate")
    except OutputError as exc:
        print(f"trickcam demo: {exc}", file=sys.stderr)
        return 2
    if args.serve:
        from cli.demo_server import run_served

        if args.post:
            print("trickcam demo: --serve posts to its own server; drop --post", file=sys.stderr)
            return 2
        return run_served(args, lambda url, token: play(args, truth, url, token))
    if args.port is not None or args.exit:
        print("trickcam demo: --port and --exit go with --serve", file=sys.stderr)
        return 2
    return play(args, truth, args.post, args.token)


def play(
    args: argparse.Namespace, truth: dict[str, Any], post: str | None, token: str | None
) -> int:
    """Watch the video (posting to ``post`` if given); compare what was read with the truth."""
    from cli import watch as cmd_watch

    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "hand.json"
        argv = watch_argv(truth, args.video, out)
        if not args.fast:
            argv.append("--pace")
        if args.annotate:
            argv += ["--annotate", str(args.annotate)]
        if post:
            argv += ["--post", post, f"--token={token or ''}"]  # a token may start with '-'
        print(f"trickcam demo: watching {args.video} (a rendered Clabber hand, deck "
              f"{truth['look']['deck']}); Ctrl-C stops")  # fmt: skip
        code = cmd_watch.main(argv)
        if code not in (0, 130) or not out.exists():
            return code
        seen = json.loads(out.read_text(encoding="utf-8"))
    same = seen["tricks"] == truth["record"]["tricks"]
    print(
        "the record read from the video "
        + ("matches the true record" if same else "DIFFERS from the true record")
    )
    return code if same else 1
