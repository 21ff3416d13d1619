"""bench/watch.py as it is run: hands watched by several worker processes at once, and the
hands of several --dump runs pooled into one table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "watch.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def _cell(out: str, level: str, fps: str, game: str) -> list[str]:
    rows = [line.split() for line in out.splitlines()]
    return next(r for r in rows if r[:3] == [level, fps, game])


def test_workers_watch_hands_at_once_and_dumps_pool_into_one_table(tmp_path: Path) -> None:
    # two short hands (the tests' seed 101, a camera overhead) watched by two processes
    first = tmp_path / "a.json"
    done = _run(
        "--realism", "top", "--fps", "10", "--games", "klaberjass,clag", "--hands", "1",
        "--seed", "101", "--workers", "2", "--dump", str(first),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    hands = json.loads(first.read_text())
    assert sorted(h["game"] for h in hands) == ["clag", "klaberjass"]
    assert all(h["plays"] == {"klaberjass": 18, "clag": 12}[h["game"]] for h in hands)
    # the run's own table has a row per game, as one process would print it
    assert _cell(done.stdout, "top", "10", "klaberjass")[3:5] == ["1", "18"]
    # a second run's dump (here: the klaberjass hand again under another seed number) pools
    second = tmp_path / "b.json"
    again = [dict(h, seed=102) for h in hands if h["game"] == "klaberjass"]
    second.write_text(json.dumps(again))
    pooled = _run("--summary", str(first), str(second))
    assert pooled.returncode == 0, pooled.stderr[-2000:]
    assert "3 hands from 2 dumps, seeds 101-102" in pooled.stdout
    row = _cell(pooled.stdout, "top", "10", "klaberjass")
    assert row[3:5] == ["2", "36"]  # hands, plays
    right = sum(h["right"] for h in hands if h["game"] == "klaberjass")
    assert row[5] == f"{100 * 2 * right / 36:.2f}%"
    # one hand in two dumps, or a file that is no dump: a clear error, no table
    twice = _run("--summary", str(first), str(first))
    assert twice.returncode == 2 and "is in two dumps" in twice.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a dump"}')
    wrong = _run("--summary", str(bad))
    assert wrong.returncode == 2 and "not a bench/watch.py --dump file" in wrong.stderr
    assert "Traceback" not in wrong.stderr + twice.stderr


def test_lean_replay_names_what_another_weight_of_the_face_would_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench/leanreplay.py replays dumped plays as if the face's lean had weighed another
    power: on readings made by the real ``with_lean`` at 0.5, its replay at 1.5 names what
    ``with_lean`` at 1.5 names."""
    import numpy as np

    from vision.detect.preprocess import LABELS
    from vision.read import suits
    from vision.read.decode import one_hot

    def play(index: dict[str, float], lean: dict[str, float], weight: float) -> dict:
        probs = one_hot(next(iter(index)), next(iter(index.values())))
        for card, p in index.items():
            probs[LABELS.index(card)] = p
        probs /= probs.sum()
        view = np.array([lean[s] for s in suits.SUITS])
        monkeypatch.setattr(suits, "SUIT_WEIGHT", weight)
        out = suits.with_lean(probs, [view, view])
        order = np.argsort(out)[::-1]
        return {
            "card": LABELS[order[0]], "probability": float(out[order[0]]),
            "runner_up": LABELS[order[1]], "runner_up_probability": float(out[order[1]]),
            "face": {**lean, "n": 2},
        }  # fmt: skip

    cases = [  # (true card, index, the face's lean)
        ("AC", {"AS": 0.84, "AC": 0.16}, {"S": 0.1, "H": 0.05, "D": 0.05, "C": 0.8}),
        ("JC", {"JC": 0.97, "JS": 0.03}, {"S": 0.05, "H": 0.05, "D": 0.05, "C": 0.85}),
        ("KS", {"KS": 0.99, "KC": 0.01}, {"S": 0.3, "H": 0.05, "D": 0.05, "C": 0.6}),
        ("QC", {"QC": 0.62, "QS": 0.38}, {"S": 0.58, "H": 0.02, "D": 0.03, "C": 0.37}),
    ]
    seen, misread, later = [], [], []
    for n, (true, index, lean) in enumerate(cases):
        p = {"trick": 1, "seat": n, **play(index, lean, 0.5)}
        seen.append(p)
        if p["card"] != true:
            misread.append({"trick": 1, "seat": n, "true": true, "play": p})
        later.append(play(index, lean, 1.5)["card"])
    dump = tmp_path / "d.json"
    dump.write_text(json.dumps([{"level": "light", "game": "clag", "seen_plays": seen,
                                 "misread": misread}]))  # fmt: skip
    script = ROOT / "bench" / "leanreplay.py"
    done = subprocess.run(
        [sys.executable, str(script), str(dump), "--dumped", "0.5", "--weight", "1.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    turned = {line.split(": ")[1].split()[0] for line in lines if line.startswith("made ")}
    # what the replay says turns is exactly what with_lean itself reads otherwise at 1.5
    assert turned == {
        t for (t, _, _), p, q in zip(cases, seen, later, strict=True) if p["card"] != q
    }
    assert later[0] == "AC" and seen[0]["card"] == "AS"  # the case the weight was raised for
    # ... and a close index whose face leans the wrong way a little is turned wrong
    assert later[3] == "QS" and seen[3]["card"] == "QC"
    assert lines[-1] == "4 plays replayed from weight 0.5 at 1.5: 1 made right, 1 made wrong"
    # a file that is no dump: a clear error, no traceback
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = subprocess.run(
        [sys.executable, str(script), str(bad)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "bad.json" in done.stderr
