"""A watched hand's record: what ``trickcam score`` reads, with the evidence of every play.

The record itself is the hand log's (:meth:`vision.track.handlog.HandLog.record`); under
``"watch"`` go the source, why watching stopped, each play as seen, the corrections and
namings, the plays awaiting a person, and how many frames and detections it took.
"""

from __future__ import annotations

import numpy as np

from vision.track.watch import Watcher


def watch_record(watcher: Watcher, source: str, stopped: str) -> dict[str, object]:
    """The hand record with the evidence of every play."""
    record = watcher.log.record()
    record["watch"] = {
        "source": source,
        "stopped": stopped,
        "complete": watcher.complete,
        "plays": [_in_frame(watcher, p.as_dict()) for p in watcher.log.plays],
        "corrections": [
            {"play": c.index, "card": str(c.card), "by": c.by, "t": c.t}
            for c in watcher.log.corrections
        ],
        "to_confirm": [p.index for p in watcher.log.plays if p.confirm],
        "names": [
            {"play": n.index, "card": str(n.card), "by": n.by, "t": n.t}
            for n in watcher.log.namings
        ],
        "awaiting_names": watcher.log.awaiting_names(),
        "missed": watcher.log.missed(),
        "frames": watcher.frames,
        "detections": watcher.detections,
    }
    return record


def _in_frame(watcher: Watcher, play: dict[str, object]) -> dict[str, object]:
    """A play's outline in the frame's pixels (cards on a calibrated plane are followed in a
    view of the play area)."""
    quad = play.get("quad")
    if watcher.view is not None and isinstance(quad, list) and len(quad) == 4:
        pts = watcher.to_image(np.asarray(quad, np.float64))
        play["quad"] = [[round(float(x), 1), round(float(y), 1)] for x, y in pts]
    return play
