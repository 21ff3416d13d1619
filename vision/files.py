"""Files written whole: a reader (another process building the same cache) never sees half of
one, and two writers never take each other's temporary file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np


def save_npz(path: Path, arrays: dict[str, np.ndarray], compressed: bool = False) -> None:
    """Write ``arrays`` to ``path`` (``.npz``) through a temporary file of its own beside it,
    renamed over ``path`` when whole. Two processes filling one cache at once (``bench/watch.py``
    runs side by side) each rename their own file; a fixed temporary name let one rename the
    other's and the second fail (``FileNotFoundError``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp.npz")
    try:
        with os.fdopen(fd, "wb") as fh:
            (np.savez_compressed if compressed else np.savez)(fh, **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
