"""A gathering arm that covers the whole trick right after its last card lands.

Held-out rendered Klaberjass hand (bench/watch.py's settings, seed 8004): seat 0's AS comes to
rest, and before the watcher has taken it as a play, seat 1's arm reaches over both cards to
gather them; when the arm lifts, both cards show again as new tracks. The watcher once took
the trick as gathered short (its lead card had been out of sight too long), inferred a missed
play, and every later trick shifted by one. A card lying where one of the trick's cards lay is
that card back in view: the trick is still on the table.
"""

from __future__ import annotations

from pathlib import Path

from rules.cards import Card
from tests.ci import needs
from vision.read.classify import MODEL_PATH
from vision.render.tablevideo import render_hand
from vision.sources import VideoFile
from vision.track import games
from vision.track.watch import Watcher, classifier_reader

pytestmark = needs(MODEL_PATH.exists(), f"the trained model {MODEL_PATH} (trickcam train)")


def test_a_trick_covered_by_the_gathering_arm_is_not_taken_as_gathered_short(
    tmp_path: Path,
) -> None:
    video = tmp_path / "klaberjass_8004.mp4"
    truth = render_hand("klaberjass", 8004, video, (1280, 720), 15.0, heldout=True)
    rendered = truth.get("rendered", truth)
    assert isinstance(rendered, dict)
    a = rendered["watch_args"]
    spec = games.klaberjass(a["dealer"], a["upcard"], a["bidding"], "klaberjass")
    watcher = Watcher(spec, classifier_reader())
    for frame in VideoFile(video):
        watcher.feed(frame.image, frame.t)
    cards = watcher.log.cards()
    seen = {(p.trick, p.seat): cards[p.index][1] for p in watcher.log.plays}
    true = {(i // 2 + 1, q["seat"]): Card.parse(q["card"]) for i, q in enumerate(rendered["plays"])}
    assert watcher.log.missed() == []
    assert seen == true
