"""``trickcam watch`` end to end on rendered hands: the record and the score equal the truth.

Each hand is rendered by ``trickcam dataset video`` (cards slid in by hands, resting, tricks
swept away, a tilted camera, varied light, table and deck) and watched by ``trickcam watch``.
With the shipped classifier (models/cards.onnx) this is the real pipeline; with the hidden
``--deck-reader`` (a reader that knows the rendered deck's faces) it checks motion gating,
tracking, seats, fixtures and tricks apart from the classifier, and always runs.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cli import dataset_video as cmd_dataset_video
from cli import watch as cmd_watch
from cli.demo import watch_argv
from rules.records import score_record
from tests.ci import needs
from tests.vision.conftest import new_clabber_table
from vision.read.classify import MODEL_PATH
from vision.render.tablevideo import load_truth

HANDS = [("clabber", 11), ("klaberjass", 5), ("clag", 3)]
FPS = "8"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("hands")
    videos = {}
    for game, seed in HANDS:
        video = out / f"{game}.mp4"
        assert (
            cmd_dataset_video.main(
                ["--game", game, "--seed", str(seed), "--fps", FPS, "--quiet", str(video)]
            )
            == 0
        )
        videos[game] = video
        # the true record beside the video is a record 'trickcam score' reads as it is
        true_score = score_record(json.loads(video.with_suffix(".json").read_text()))["score"]
        assert true_score == score_record(load_truth(video.with_suffix(".json"))["record"])["score"]
    return videos


def _watch(video: Path, out: Path, extra: list[str]) -> tuple[dict, dict]:
    truth = load_truth(video.with_suffix(".json"))
    assert cmd_watch.main(watch_argv(truth, video, out) + ["--quiet", *extra]) == 0
    return json.loads(out.read_text()), truth


def _same_hand(seen: dict, truth: dict) -> None:
    assert seen["tricks"] == truth["record"]["tricks"]
    assert seen["watch"]["complete"]
    mine, true = score_record(seen), score_record(truth["record"])
    assert mine["score"] == true["score"]
    seats = [p["seat"] for p in seen["watch"]["plays"]]
    assert seats == [p["seat"] for p in truth["plays"]]


@pytest.mark.parametrize(("game", "_seed"), HANDS)
def test_watch_sees_every_play_once_on_the_right_seat(
    rendered: dict[str, Path], tmp_path: Path, game: str, _seed: int
) -> None:
    """Motion gating, debouncing, seats, the face-up card of the deal and trick boundaries,
    apart from the classifier: read with the rendered deck's own faces (a crude reader that
    confuses look-alike pips now and then, so cards are only required mostly right)."""
    truth = load_truth(rendered[game].with_suffix(".json"))
    seen, truth = _watch(
        rendered[game], tmp_path / "rec.json", ["--deck-reader", truth["look"]["deck"]]
    )
    plays = seen["watch"]["plays"]
    assert [p["seat"] for p in plays] == [p["seat"] for p in truth["plays"]]
    assert seen["watch"]["complete"]
    assert [len(t) for t in seen["tricks"]] == [len(t) for t in truth["record"]["tricks"]]
    right = sum(p["card"] == q["card"] for p, q in zip(plays, truth["plays"], strict=True))
    assert right >= 0.7 * len(plays)
    # each play was reported after it came to rest, and soon after
    for p, q in zip(plays, truth["plays"], strict=True):
        assert q["t_rest"] - 0.8 <= p["t"] <= q["t_rest"] + 3.5  # a hand may linger over it


needs_model = needs(MODEL_PATH.exists(), f"the trained model {MODEL_PATH} (trickcam train)")


@needs_model
@pytest.mark.parametrize(("game", "_seed"), HANDS)
def test_watch_reads_rendered_hands_exactly_with_the_shipped_classifier(
    rendered: dict[str, Path], tmp_path: Path, game: str, _seed: int
) -> None:
    seen, truth = _watch(rendered[game], tmp_path / "rec.json", [])
    _same_hand(seen, truth)


def test_a_correction_is_an_event_and_the_record_is_its_replay(
    rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = rendered["clabber"]
    truth = load_truth(video.with_suffix(".json"))
    first = truth["plays"][0]["card"]
    other = next(c for c in ("9S", "9H") if c != first)
    seen, _ = _watch(
        video,
        tmp_path / "rec.json",
        ["--deck-reader", truth["look"]["deck"], "--correct", f"0={other}", "--correct", "99=QH"],
    )
    # a correction for a play the camera never saw is said, never silently dropped
    said = capsys.readouterr().err
    assert "--correct 99=QH not applied: the camera saw no play 99" in said
    assert f"--correct 0={other} not applied" not in said
    assert seen["tricks"][0][0] == other  # the record is the replay with the correction...
    assert seen["watch"]["plays"][0]["card"] == first  # ...and the camera's reading is kept
    human = [c for c in seen["watch"]["corrections"] if c["by"] == "--correct"]
    assert [(c["play"], c["card"]) for c in human] == [(0, other)]
    # the camera's own revisions are events too, never edits of the plays as seen
    assert all(c["by"].startswith("camera") for c in seen["watch"]["corrections"] if c not in human)


def test_annotated_video_and_evidence_are_written(
    rendered: dict[str, Path], tmp_path: Path
) -> None:
    import cv2

    video = rendered["clag"]
    truth = load_truth(video.with_suffix(".json"))
    ann, ev = tmp_path / "seen.mp4", tmp_path / "evidence"
    seen, _ = _watch(video, tmp_path / "rec.json",
                     ["--deck-reader", truth["look"]["deck"], "--annotate", str(ann), "--evidence", str(ev)])  # fmt: skip
    cap = cv2.VideoCapture(str(ann))
    frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    assert frames == seen["watch"]["frames"]
    assert len(list(ev.glob("play_*.png"))) == len(truth["plays"])
    play = seen["watch"]["plays"][0]
    assert set(play) >= {"t", "seat", "card", "confidence", "distribution", "quad"}


def test_bad_options_print_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cmd_watch.main(["--game", "clabber", "--dealer", "0", "--upcard", "2H", "--bidding", "play",
                           "--source", str(tmp_path), "--out", str(tmp_path / "x.json")])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "2H" in err[0]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ([], "needs the table's scorer token"),
        (["--token-file", "{tmp}/missing"], "cannot read it"),
        (["--token-file", "{tmp}/empty"], "the file is empty"),
        (["--token-file", "{tmp}/empty", "--token", "x"], "not both"),
    ],
)
def test_posting_without_a_usable_token_is_one_clear_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    said: str,
) -> None:
    monkeypatch.delenv("TRICKCAM_TOKEN", raising=False)
    (tmp_path / "empty").write_text("\n")
    code = cmd_watch.main(["--game", "clabber", "--dealer", "0", "--upcard", "9H", "--bidding", "play",
                           "--source", str(tmp_path), "--out", str(tmp_path / "x.json"),
                           "--post", "http://127.0.0.1:9/api/tables/T1",
                           *[e.format(tmp=tmp_path) for e in extra]])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and said in err[0], err
    assert not (tmp_path / "x.json").exists()


def test_post_sends_the_hand_to_a_running_trickcam_serve(
    rendered: dict[str, Path], tmp_path: Path, server: str
) -> None:
    """A real server in a thread; the watcher posts the deal, the calls and every play; the
    table's state on the server scores the hand as the written record does."""
    import urllib.request

    table = new_clabber_table(server, "watch")
    video = rendered["clabber"]
    truth = load_truth(video.with_suffix(".json"))
    token = tmp_path / "token"  # from a file: a token on the command line shows in 'ps'
    token.write_text(table["scorer_token"] + "\n")
    seen, _ = _watch(video, tmp_path / "rec.json", ["--deck-reader", truth["look"]["deck"],
                     "--post", f"{server}/api/tables/{table['id']}", "--token-file", str(token)])  # fmt: skip
    state = json.loads(
        urllib.request.urlopen(f"{server}/api/tables/{table['id']}", timeout=10).read()
    )
    assert [t["cards"] for t in state["current"]["tricks"]] == seen["tricks"]
    assert state["hands"][0]["score"] == score_record(seen)["score"]


def test_ctrl_c_stops_cleanly_and_still_writes_what_was_seen(
    rendered: dict[str, Path], tmp_path: Path
) -> None:
    import os
    import re
    import signal
    import subprocess
    import sys
    import threading

    video = rendered["clabber"]
    truth = load_truth(video.with_suffix(".json"))
    out = tmp_path / "rec.json"
    argv = watch_argv(truth, video, out) + ["--pace", "--deck-reader", truth["look"]["deck"]]
    code = f"import sys; from cli.watch import main; sys.exit(main({argv!r}))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each live line as soon as it is printed
        # as from a terminal: a run started in the background (nohup ... &) ignores SIGINT,
        # and its children would inherit that and never see the Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    watchdog = threading.Timer(120, proc.kill)  # a hung watcher fails the test, never hangs it
    watchdog.start()
    try:
        # played at the video's pace: interrupted as soon as its live line shows the first play
        # was seen (however slowly the process started), long before the hand's end
        assert proc.stdout is not None
        for line in proc.stdout:
            if re.search(r"\bplay +1 +seat", line):
                break
        else:
            pytest.fail(f"trickcam watch exited ({proc.wait()}) without seeing a play")
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    seen = json.loads(out.read_text())
    assert seen["watch"]["stopped"] == "interrupted" and not seen["watch"]["complete"]
    assert 1 <= len(seen["watch"]["plays"]) < len(truth["plays"])
    assert seen["tricks"][0][0] == seen["watch"]["plays"][0]["card"]


def test_a_watch_killed_outright_leaves_the_plays_seen_until_then(
    rendered: dict[str, Path], tmp_path: Path
) -> None:
    """SIGKILL (a closed laptop, a pulled plug) gives no chance to write at the end: the
    record is kept up to date as the hand goes on, written whole each time, so what was seen
    survives. (Before, nothing was written until the end: the whole hand was lost.)"""
    import subprocess
    import sys

    video = rendered["clabber"]
    truth = load_truth(video.with_suffix(".json"))
    out = tmp_path / "rec.json"
    argv = watch_argv(truth, video, out) + ["--pace", "--quiet", "--deck-reader", truth["look"]["deck"]]  # fmt: skip
    code = f"import sys; from cli.watch import main; sys.exit(main({argv!r}))"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2])
    try:
        # played at the video's pace: the record holds three plays long before the end
        deadline = time.monotonic() + 90
        seen: dict = {}
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists():
                seen = json.loads(out.read_text())  # always whole: never half written
                if len(seen["watch"]["plays"]) >= 3:
                    break
            time.sleep(0.05)
        assert proc.poll() is None, "the watch ended before three plays were on record"
        assert len(seen.get("watch", {}).get("plays", [])) >= 3, "no record while watching"
        proc.kill()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    kept = json.loads(out.read_text())
    assert kept["watch"]["stopped"] == "in progress" and not kept["watch"]["complete"]
    plays = kept["watch"]["plays"]
    assert 3 <= len(plays) < len(truth["plays"])
    assert [p["seat"] for p in plays] == [p["seat"] for p in truth["plays"][: len(plays)]]
    assert kept["tricks"][0][0] == plays[0]["card"]


def test_watch_reads_a_folder_of_still_images_at_a_low_frame_rate(
    rendered: dict[str, Path], tmp_path: Path
) -> None:
    """A camera that saves a still every quarter second: every play still seen, once."""
    import cv2

    video = rendered["clag"]
    truth = load_truth(video.with_suffix(".json"))
    folder = tmp_path / "stills"
    folder.mkdir()
    cap = cv2.VideoCapture(str(video))
    k = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        if k % 2 == 0:
            cv2.imwrite(str(folder / f"still_{k:05d}.jpg"), frame)
        k += 1
    argv = watch_argv(truth, video, tmp_path / "rec.json")
    argv[argv.index("--source") + 1] = str(folder / "still_*.jpg")
    assert (
        cmd_watch.main(
            [*argv, "--fps", str(float(FPS) / 2), "--quiet", "--deck-reader", truth["look"]["deck"]]
        )
        == 0
    )
    seen = json.loads((tmp_path / "rec.json").read_text())
    assert [p["seat"] for p in seen["watch"]["plays"]] == [p["seat"] for p in truth["plays"]]


def test_the_token_comes_from_the_environment_when_no_option_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    monkeypatch.setenv("TRICKCAM_TOKEN", " s3cret \n")
    args = argparse.Namespace(token=None, token_file=None, post="http://x/api/tables/T1")
    assert cmd_watch.scorer_token(args) == "s3cret"
    (tmp_path / "t").write_text("fromfile\nignored\n")
    args.token_file = tmp_path / "t"
    assert cmd_watch.scorer_token(args) == "fromfile"  # an option wins over the environment
