"""Clag round 12 watched end to end: the camera sees a two, a person names the card (``--name``).

A round-12 hand is rendered (the Clag stager, asked for round 12) and watched with the shipped
classifier. The true record comes from the same simulated round: its wild twos are
``"2H=AS"`` entries, which the camera cannot see, so the names are given on the command line.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli import dataset_video as cmd_dataset_video
from cli import watch as cmd_watch
from cli.demo import watch_argv
from rules.clag.simulate import random_round
from rules.clag.tricks import WildTwo
from rules.errors import RulesError
from rules.records import score_record
from tests.ci import needs
from vision.read.classify import MODEL_PATH
from vision.render import tablevideo
from vision.render.handstage import stage_clag
from vision.render.tablevideo import load_truth

SEED = 2
"""A round-12 deal whose plays include two wild twos (plays 3 and 17)."""

pytestmark = needs(MODEL_PATH.exists(), f"the trained model {MODEL_PATH} (trickcam train)")


def _round12(rng: random.Random) -> object:
    return stage_clag(rng, 4, 12)


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict[int, str]]:
    """The rendered video, the true record (wild twos named) and the names by play."""
    video = tmp_path_factory.mktemp("wild") / "round12.mp4"
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(tablevideo.STAGERS, "clag", _round12)
        argv = ["--game", "clag", "--seed", str(SEED), "--fps", "8", "--quiet", str(video)]
        assert cmd_dataset_video.main(argv) == 0
    rng = random.Random(SEED)  # render_hand stages with random.Random(seed), first thing
    st = random_round(4, 12, rng.randrange(4), rng)
    entries = [e for trick in st.tricks for e in trick]
    names = {i: str(e.named) for i, e in enumerate(entries) if isinstance(e, WildTwo)}
    assert names, "the seed must deal and play a two"
    record = dict(load_truth(video.with_suffix(".json"))["record"])
    record["tricks"] = [[str(e) for e in trick] for trick in st.tricks]
    return video, record, names


def _watch(video: Path, out: Path, extra: list[str]) -> dict:
    truth = load_truth(video.with_suffix(".json"))
    assert cmd_watch.main(watch_argv(truth, video, out) + extra) == 0
    return json.loads(out.read_text())


def test_named_wild_twos_make_the_true_record_and_score(
    hand: tuple[Path, dict, dict[int, str]], tmp_path: Path
) -> None:
    video, true_record, names = hand
    extra = ["--quiet"] + [a for i, c in names.items() for a in ("--name", f"{i}={c}")]
    seen = _watch(video, tmp_path / "rec.json", extra)
    assert seen["tricks"] == true_record["tricks"]
    assert seen["watch"]["awaiting_names"] == []
    assert {n["play"]: n["card"] for n in seen["watch"]["names"]} == names
    assert score_record(seen)["score"] == score_record(true_record)["score"]


def test_an_unnamed_two_is_reported_and_the_record_says_which_await_a_name(
    hand: tuple[Path, dict, dict[int, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli.main import main as trickcam

    video, _true, names = hand
    first, *rest = sorted(names)
    extra = [a for i in rest for a in ("--name", f"{i}={names[i]}")]
    out = tmp_path / "rec.json"
    seen = _watch(video, out, extra)
    said = capsys.readouterr()
    two = seen["watch"]["plays"][first]["card"]
    assert f"play {first}: {two} is wild — name it with --name {first}=CARD" in said.out
    assert f"play {first} ({two})" in said.err  # not scored, and why
    assert seen["watch"]["awaiting_names"] == [first]
    flat = [c for trick in seen["tricks"] for c in trick]
    assert flat[first] == two and all(flat[i] == f"{flat[i][:2]}={names[i]}" for i in rest)
    with pytest.raises(RulesError, match=two):
        score_record(seen)
    assert trickcam(["score", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and two in err[0]


def test_name_is_refused_outside_round_12(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "clag", "--round", "3", "--dealer", "0", "--trump-card", "5H",
            "--contracts", "1,1,1,1", "--source", str(tmp_path), "--out", str(tmp_path / "x.json"),
            "--name", "3=AS"]  # fmt: skip
    assert cmd_watch.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "round 12" in err[0]
