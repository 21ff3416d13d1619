"""vision.files.save_npz: a cache file written whole, by several writers at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.files
from vision.files import save_npz


def test_two_writers_of_one_cache_file_each_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer of the same file finishing while this one writes (two bench runs filling
    one deck cache) takes nothing of this one's: both succeed, the last one's file stands."""
    path = tmp_path / "cache" / "deck_320.npz"
    real = np.savez
    calls = []

    def savez(fh, **arrays):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:  # the other writer starts and finishes inside this one's write
            save_npz(path, {"a": np.zeros(3)})
        real(fh, **arrays)

    monkeypatch.setattr(vision.files.np, "savez", savez)
    save_npz(path, {"a": np.ones(3)})
    with np.load(path) as data:
        assert data["a"].tolist() == [1.0, 1.0, 1.0]
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temporary left


def test_a_failed_write_leaves_the_last_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "views.npz"
    save_npz(path, {"x": np.arange(4)}, compressed=True)

    def full(fh, **arrays):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(vision.files.np, "savez", full)
    with pytest.raises(OSError):
        save_npz(path, {"x": np.arange(9)})
    with np.load(path) as data:
        assert data["x"].tolist() == [0, 1, 2, 3]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
