"""The truth beside a rendered video: the hand record itself (``trickcam score`` reads it as it
is) with everything the renderer knows about the frames under ``"rendered"``.

Shared by the plain table videos (:mod:`vision.render.tablevideo`) and the realistic ones
(:mod:`vision.render.realvideo`), so that neither renderer imports the other for it."""

from __future__ import annotations

import json
from pathlib import Path


def save_truth(truth: dict[str, object], path: Path) -> None:
    """Write the truth as the hand record itself with everything else under ``"rendered"``
    (record readers ignore keys they do not know)."""
    record = truth["record"]
    assert isinstance(record, dict)
    rendered = {k: v for k, v in truth.items() if k != "record"}
    path.write_text(json.dumps({**record, "rendered": rendered}, indent=1) + "\n", encoding="utf-8")


def load_truth(path: Path) -> dict[str, object]:
    """The truth a renderer returned, read back from its JSON file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    rendered = data.pop("rendered")
    return {"record": data, **rendered}
