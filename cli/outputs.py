"""Where a command writes its results: checked before the work starts, and written whole.

Why: a command that learns only at its end that its output cannot be written (a file where
a folder should be, a folder where the file should go, a read-only disk) has done its work
for nothing: ``trickcam watch --out`` lost a whole watched hand that way, with a traceback.
So every output path is checked as the command starts (its folder made, a file tried in it),
a file is written through a temporary file beside it and renamed (a reader, or a crash,
never sees half a record), and a record that still cannot be written where asked goes to a
fallback file, named on the terminal, rather than nowhere.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


class OutputError(ValueError):
    """An output path that cannot be written, with a line saying why and what to give."""


def _folder(path: Path, option: str, target: Path) -> None:
    """Make the folder ``path`` (and its parents) for ``option``'s ``target``, clearly."""
    for up in [path, *path.parents]:
        if up.exists():
            if not up.is_dir():
                raise OutputError(
                    f"{option} {target}: cannot make the folder {path}: {up} is a file"
                )
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"{option} {target}: cannot make the folder {path} ({exc.strerror or exc})"
        ) from None
    try:  # what a write would meet: permissions, a read-only disk, no space for a name
        with tempfile.NamedTemporaryFile(dir=path, prefix=".trickcam-probe-"):
            pass
    except OSError as exc:
        raise OutputError(
            f"{option} {target}: cannot write in the folder {path} ({exc.strerror or exc})"
        ) from None


def output_file(path: Path, option: str) -> Path:
    """``path`` made ready to be written as a file for ``option`` (its folder made), or
    :class:`OutputError` when it cannot be: a folder of that name, a file in the way of its
    folder, a folder that cannot be written."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder; give a file name in it")
    _folder(path.parent if str(path.parent) else Path("."), option, path)
    return path


VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".m4v")
"""File names OpenCV writes a video to (mp4v in these containers)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
"""File names OpenCV writes an image to."""


def _named(path: Path, option: str, kind: str, suffixes: tuple[str, ...], first: int) -> Path:
    """:func:`output_file` for a file OpenCV writes by its name's ending (``suffixes``; the
    message names the ``first`` of them, then the others)."""
    path = output_file(path, option)
    if path.suffix.lower() not in suffixes:
        raise OutputError(
            f"{option} {path}: give {kind} file name ending in {' or '.join(suffixes[:first])} "
            f"(or {', '.join(suffixes[first:])})"
        )
    return path


def output_video(path: Path, option: str) -> Path:
    """:func:`output_file` for a video OpenCV will write: a name it knows the container of."""
    return _named(path, option, "a video", VIDEO_SUFFIXES, 1)


def output_image(path: Path, option: str) -> Path:
    """:func:`output_file` for an image OpenCV will write: a name it knows the format of."""
    return _named(path, option, "an image", IMAGE_SUFFIXES, 2)


def output_folder(path: Path, option: str) -> Path:
    """``path`` made ready as a folder to write files in for ``option``, or
    :class:`OutputError`."""
    path = Path(path).expanduser()
    _folder(path, option, path)
    return path


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: into a temporary file beside it, then renamed over
    it (a reader never sees half of it, a crash leaves the last whole one). Raises
    :class:`OSError` when it cannot."""
    path = Path(path)
    try:  # the mode a plain write would give: the file's own, else what the umask allows
        mode = path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_or_fallback(path: Path, text: str, stem: str) -> tuple[Path, str | None]:
    """Write ``text`` to ``path`` (see :func:`write_text`); when that fails (a disk filled
    up, a folder removed while the command ran), to a new file ``stem-TIME.json`` in the
    current folder, else in the system's temporary folder. Returns (where it went, why
    ``path`` failed or None); raises :class:`OSError` only when nowhere could be written."""
    try:
        write_text(path, text)
        return path, None
    except OSError as exc:
        why = f"{exc.strerror or exc}"
    name = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}{Path(path).suffix or '.json'}"
    last: OSError | None = None
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            write_text(folder / name, text)
            return folder / name, why
        except OSError as exc:
            last = exc
    assert last is not None
    raise last
