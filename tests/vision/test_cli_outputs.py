"""The commands' outputs: a path that cannot be written is refused as the command starts, with
one clear line (never a traceback, never after the work is done); records are written whole;
a record that cannot go where it was asked goes to a fallback file rather than nowhere."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cli import calibrate as cmd_calibrate
from cli import dataset_video as cmd_dataset_video
from cli import watch as cmd_watch
from cli.demo import watch_argv
from cli.outputs import OutputError, output_file, output_folder, write_or_fallback, write_text
from vision.render.tablevideo import load_truth

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "samples" / "clabber_hand.mp4"


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A plain file where a folder would have to be made."""
    path = tmp_path / "afile"
    path.write_text("not a folder\n")
    return path


def _refused(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    for word in words:
        assert word in err
    return err


def test_output_file_makes_its_folder_and_refuses_what_cannot_be_written(
    tmp_path: Path, blocked: Path
) -> None:
    deep = tmp_path / "a" / "b" / "hand.json"
    assert output_file(deep, "--out") == deep
    assert deep.parent.is_dir() and not deep.exists()  # the folder made, the file not yet
    with pytest.raises(OutputError, match=r"--out .*: cannot make the folder .*afile is a file"):
        output_file(blocked / "hand.json", "--out")
    with pytest.raises(OutputError, match=r"--out .*: is a folder"):
        output_file(tmp_path / "a", "--out")
    with pytest.raises(OutputError, match=r"--evidence .*afile is a file"):
        output_folder(blocked / "ev", "--evidence")
    assert output_folder(tmp_path / "ev" / "x", "--evidence").is_dir()


def test_write_text_replaces_the_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    path.write_text("old\n")
    path.chmod(0o640)
    write_text(path, "new\n")
    assert path.read_text() == "new\n"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["rec.json"]  # no temporary file left
    fresh = tmp_path / "fresh.json"
    write_text(fresh, "x\n")
    assert fresh.stat().st_mode & 0o777 != 0o600  # a plain file's mode, not mkstemp's


def test_a_record_whose_folder_went_away_goes_to_a_fallback_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder checked at the start is gone at the end (removed while the hand was
    watched): the record lands in the current folder, and the caller is told why."""
    gone = output_file(tmp_path / "gone" / "hand.json", "--out")
    gone.parent.rmdir()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    written, why = write_or_fallback(gone, '{"tricks": []}\n', "trickcam-hand")
    assert why is not None and "No such file" in why
    assert written.parent == here and written.name.startswith("trickcam-hand-")
    assert json.loads(written.read_text()) == {"tricks": []}
    assert write_or_fallback(here / "ok.json", "{}\n", "x") == (here / "ok.json", None)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--out", "{blocked}/hand.json", ["--out", "afile is a file"]),
        ("--out", "{tmp}", ["--out", "is a folder"]),
        ("--annotate", "{blocked}/seen.mp4", ["--annotate", "afile is a file"]),
        ("--annotate", "{tmp}/seen.xyz", ["--annotate", "video file name ending in .mp4"]),
        ("--evidence", "{blocked}/ev", ["--evidence", "afile is a file"]),
        ("--preview", "{tmp}/preview.txt", ["--preview", "image file name ending in .png"]),
    ],
)
def test_watch_refuses_an_output_it_cannot_write_before_the_first_frame(
    tmp_path: Path,
    blocked: Path,
    capsys: pytest.CaptureFixture[str],
    option: str,
    value: str,
    words: list[str],
) -> None:
    """Before, such a path failed with a traceback, for --out only once the whole hand had
    been watched (the record lost)."""
    truth = load_truth(SAMPLE.with_suffix(".json"))
    out = tmp_path / "rec.json"
    argv = watch_argv(truth, SAMPLE, out) + ["--quiet"]
    if option == "--out":
        argv[argv.index("--out") + 1] = value.format(blocked=blocked, tmp=tmp_path)
    else:
        argv += [option, value.format(blocked=blocked, tmp=tmp_path)]
    start = time.monotonic()
    _refused(capsys, cmd_watch.main(argv), "trickcam watch:", *words)
    assert time.monotonic() - start < 10  # refused at once: the video was never watched
    assert not out.exists()


def test_calibrate_and_dataset_video_refuse_unwritable_outputs_clearly(
    tmp_path: Path, blocked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    angles = ["--players", "4", "--angles", "90,180,270,0"]
    code = cmd_calibrate.main([*angles, "--out", str(blocked / "table.json")])
    _refused(capsys, code, "trickcam calibrate: --out", "afile is a file")
    code = cmd_calibrate.main([*angles, "--out", str(tmp_path)])
    _refused(capsys, code, "trickcam calibrate: --out", "is a folder")
    frame = ["--source", str(SAMPLE), "--players", "4", "--out", str(tmp_path / "t.json")]
    code = cmd_calibrate.main([*frame, "--show", str(tmp_path / "found.txt")])
    _refused(capsys, code, "--show", "image file name")
    assert not (tmp_path / "t.json").exists()
    # the table file is written whole, and read back as it was
    assert cmd_calibrate.main([*angles, "--out", str(tmp_path / "t" / "table.json")]) == 0
    assert json.loads((tmp_path / "t" / "table.json").read_text())["players"] == 4
    code = cmd_dataset_video.main(["--game", "clabber", "--quiet", str(blocked / "hand.mp4")])
    _refused(capsys, code, "trickcam dataset video: OUT.mp4", "afile is a file")
    code = cmd_dataset_video.main(["--game", "clabber", "--quiet", str(tmp_path / "hand.xyz")])
    _refused(capsys, code, "video file name ending in .mp4")


@pytest.mark.parametrize(
    ("source", "hint"),
    [("7", "is it plugged in"), ("http://127.0.0.1:1/table", "is the address right")],
)
def test_watch_says_clearly_when_its_camera_or_stream_cannot_be_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, hint: str
) -> None:
    """A camera that is not there (a new user's first try) or a stream nobody serves: one
    line saying what to check, not a traceback, and no record (nothing was seen; an earlier
    record at --out is left as it was)."""
    out = tmp_path / "rec.json"
    out.write_text('{"earlier": true}\n')
    argv = ["--game", "clabber", "--dealer", "1", "--upcard", "9C", "--bidding", "play"]
    code = cmd_watch.main([*argv, "--source", source, "--out", str(out), "--quiet"])
    _refused(capsys, code, "cannot be opened", hint)
    assert json.loads(out.read_text()) == {"earlier": True}


def test_watch_refuses_frames_too_small_to_hold_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source whose frames are a speck (a broken camera, a wrong file): one line, rc 2,
    not a traceback from inside the watcher."""
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "speck.png"), np.full((1, 1, 3), 90, np.uint8))
    argv = ["--game", "clabber", "--dealer", "1", "--upcard", "9C", "--bidding", "play"]
    source = ["--source", str(tmp_path / "speck.png"), "--out", str(tmp_path / "r.json")]
    code = cmd_watch.main([*argv, *source, "--quiet"])
    _refused(capsys, code, "a frame of 1x1 pixels is too small to follow a table in")


def test_a_source_that_turns_unreadable_midway_keeps_what_was_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Frames that turn into specks after a while: the record of what came before is
    written, marked as stopped early and why, and the exit code says it (1)."""
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"f{i}.png"), np.full((240, 320, 3), 70, np.uint8))
    cv2.imwrite(str(frames / "f3.png"), np.full((1, 1, 3), 70, np.uint8))
    out = tmp_path / "r.json"
    argv = ["--game", "clabber", "--dealer", "1", "--upcard", "9C", "--bidding", "play"]
    code = cmd_watch.main([*argv, "--source", str(frames), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "stopped early, source failed: a frame of 1x1 pixels" in err
    record = json.loads(out.read_text())
    assert record["watch"]["stopped"].startswith("source failed: a frame of 1x1 pixels")
    assert record["watch"]["frames"] == 3


def test_the_plays_to_confirm_are_listed_once_the_hand_is_watched() -> None:
    """``trickcam watch``'s closing list: each play marked CONFIRM that nobody has settled,
    with why and how to correct it; not a play a person corrected (settled), nor one read
    sure, nor a missed play nobody named (the 'not scored' warning names those); the deck's
    naming of a play never seen is listed."""
    import dataclasses

    from handlog_helpers import add_play, simulated_hand

    from cli.watch import confirm_lines
    from vision.track.handlog import HandLog
    from vision.track.handread import deduce_missed

    spec, tricks, _ = simulated_hand(7)
    log = HandLog(spec)
    for number, trick in enumerate(tricks, start=1):
        for pos, (seat, card) in enumerate(trick):
            add_play(log, seat, None if (number, pos) == (5, 1) else card, number, leads=pos == 0)
    doubted, corrected = log.plays[2], log.plays[9]
    for play in (doubted, corrected):
        other = tricks[0][0][1]
        play.reading = dataclasses.replace(play.reading, confirm=True, doubt=(play.card, other))
        play.reading = dataclasses.replace(
            play.reading, reason=f"{play.card} and {other} are close"
        )
    log.correct(9, corrected.card, by="--correct")
    assert confirm_lines(log) == [
        f"  play 3 (seat {doubted.seat}, trick 1) {doubted.card}: {doubted.card} and "
        f"{tricks[0][0][1]} are close (if wrong: --correct 2=CARD)"
    ]  # the missed play 18 is not listed: nobody named it
    assert deduce_missed(log, 60.0)
    assert [line.split(":")[0] for line in confirm_lines(log)] == [
        f"  play 3 (seat {doubted.seat}, trick 1) {doubted.card}",
        f"  play 18 (seat {tricks[4][1][0]}, trick 5) {tricks[4][1][1]}",
    ]
    assert "no other play shows" in confirm_lines(log)[1]
    assert confirm_lines(log)[1].endswith("(if wrong: --correct 17=CARD)")


def test_a_live_confirm_line_says_why_whatever_marked_the_play() -> None:
    """The live line of a play marked for its suit (its face leans to another suit than its
    index's), read surely otherwise, says why; it printed "CONFIRM: " and nothing (only the
    reading's own reason and the seat's were written)."""
    from handlog_helpers import add_play, simulated_hand

    from cli.watch import describe
    from vision.track.handlog import HandLog, WatchEvent

    spec, tricks, _ = simulated_hand(3)
    log = HandLog(spec)
    seat, card = tricks[0][0]
    add_play(log, seat, card, 1, leads=True)
    play = log.plays[0]
    play.suit_note = "its index reads KC but its face looks more like a spade"
    line = describe(WatchEvent("play", 4.0, play=play), spec)
    assert line.endswith(
        "CONFIRM: its index reads KC but its face looks more like a spade"
        " (if wrong: --correct 0=CARD)"
    )
