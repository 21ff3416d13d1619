"""Making the index-corner detector: its scenes rendered by several processes, and its
training with batches cut by worker processes, on a time budget, on any torch device."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.ci import need_module
from vision.render.layouts import write_scenes

ROOT = Path(__file__).resolve().parents[2]
TORCH = "torch (extra 'train'; ./dev.sh test installs the CPU build)"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_scenes_written_by_several_processes_are_the_scenes_one_process_writes(
    tmp_path: Path,
) -> None:
    # no deck designs: font cards only, so the test needs no Debian package
    write_scenes(tmp_path / "one", [], 6, seed=5, size=192, progress=False)
    write_scenes(tmp_path / "two", [], 6, seed=5, size=192, progress=False, workers=2)
    # a stopped run goes on where it stopped, with other workers
    write_scenes(tmp_path / "resumed", [], 2, seed=5, size=192, progress=False, workers=2)
    write_scenes(tmp_path / "resumed", [], 6, seed=5, size=192, start=2, progress=False, workers=3)
    one = _files(tmp_path / "one")
    assert len(one) == 7  # six pictures and their labels
    assert _files(tmp_path / "two") == one
    assert _files(tmp_path / "resumed") == one
    lines = (tmp_path / "one" / "labels.jsonl").read_text().splitlines()
    assert [json.loads(line)["file"] for line in lines] == [f"{i:06d}.jpg" for i in range(6)]


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_module("torch", TORCH)
    out = tmp_path_factory.mktemp("corners")
    write_scenes(out / "train", [], 8, seed=1, size=192, progress=False, workers=2)
    return out


def _maps(model: Path) -> np.ndarray:
    from vision.detect.corners import CornerDetector

    x = np.random.default_rng(0).random((1, 3, 192, 192), np.float32)
    return np.asarray(CornerDetector(model).run(x))


def test_worker_processes_cut_the_same_batches_whatever_their_number(
    scenes: Path, tmp_path: Path
) -> None:
    from vision.train.corners import CornerTrainConfig, train

    made = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}.onnx"
        config = CornerTrainConfig(
            data=str(scenes), out=str(out), steps=3, batch=2, widths=(4, 8, 8, 8), workers=workers
        )
        sidecar = train(config, progress=False)
        assert sidecar["steps_done"] == 3
        made[workers] = _maps(out)
    assert np.allclose(made[1], made[2], atol=1e-5)
    # the one-process recipe (the shipped model's random stream) cuts other batches
    config = CornerTrainConfig(
        data=str(scenes), out=str(tmp_path / "w0.onnx"), steps=3, batch=2, widths=(4, 8, 8, 8)
    )
    train(config, progress=False)
    assert not np.allclose(_maps(tmp_path / "w0.onnx"), made[1], atol=1e-5)


def test_a_time_budget_stops_training_and_records_the_steps_done(
    scenes: Path, tmp_path: Path
) -> None:
    from vision.train.corners import CornerTrainConfig, train

    out = tmp_path / "budget.onnx"
    config = CornerTrainConfig(
        data=str(scenes), out=str(out), steps=100_000, batch=2, widths=(4, 8, 8, 8), minutes=0.02
    )
    sidecar = train(config, progress=False)
    assert 1 <= sidecar["steps_done"] < 100_000
    assert json.loads(out.with_suffix(".json").read_text())["steps_done"] == sidecar["steps_done"]
    maps = _maps(out)  # seven maps at an eighth of the 192 px input
    assert maps.size == 7 * 24 * 24 and np.isfinite(maps).all()


def test_the_budgets_learning_rate_follows_torchs_one_cycle_curve() -> None:
    need_module("torch", TORCH)
    import torch

    from vision.train.corners import one_cycle

    total = 1000
    opt = torch.optim.AdamW([torch.zeros(1, requires_grad=True)], lr=3e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=total, pct_start=0.15)
    for step in range(total):
        assert one_cycle(step / total, 3e-3) == pytest.approx(
            sched.get_last_lr()[0], rel=0.05, abs=3e-5
        )
        opt.step()
        sched.step()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--device", "nosuch"], "--device nosuch: not usable here"),
        (["--widths", "8,8"], "--widths 8,8: need four channel counts"),
        (["--workers", "-1"], "need steps and batch >= 1, workers and minutes >= 0"),
    ],
)
def test_bad_training_options_are_refused_in_one_line(
    scenes: Path, args: list[str], says: str
) -> None:
    cmd = [sys.executable, "-m", "cli.train", "--corners", "--data", str(scenes), *args]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr
