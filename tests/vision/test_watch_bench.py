"""bench/watch.py as it is run: hands watched by several worker processes at once, and the
hands of several --dump runs pooled into one table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
