"""StreamDetector: a still table is detected once, any change is detected again."""

from __future__ import annotations

import numpy as np

from vision.detect.stream import StreamDetector
from vision.render.scene import card_quad, paste_card, plain_card, table_texture


def _table(cards: list[tuple[str, str, tuple[float, float], float]]) -> np.ndarray:
    frame = table_texture("green_felt", 1280, 720, np.random.default_rng(1))
    for rank, suit, centre, angle in cards:
        paste_card(frame, plain_card(rank, suit), card_quad(centre, 260, angle))
    return frame


def _noisy(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(frame + rng.normal(0, 2.5, frame.shape), 0, 255).astype(np.uint8)


def test_a_still_table_is_detected_once_and_a_new_card_again() -> None:
    rng = np.random.default_rng(0)
    one = _table([("A", "S", (400, 360), 10)])
    stream = StreamDetector()
    first = stream(_noisy(one, rng))
    assert len(first) == 1
    for _ in range(5):  # sensor noise alone: the same detections, on the new frame
        again_frame = _noisy(one, rng)
        again = stream(again_frame)
        assert again.frame is again_frame
        assert np.array_equal(again.quads, first.quads)
    assert (stream.detected, stream.skipped) == (1, 5)
    two = _table([("A", "S", (400, 360), 10), ("K", "H", (850, 360), -20)])
    assert len(stream(_noisy(two, rng))) == 2  # a card laid: detected again
    assert stream.detected == 2
    stream.reset()
    stream(_noisy(two, rng))
    assert stream.detected == 3


def test_a_slow_light_drift_is_detected_once_it_adds_up() -> None:
    frame = _table([("7", "D", (640, 360), 0)])
    stream = StreamDetector()
    stream(frame)
    for step in range(1, 9):  # 3 grey levels brighter a frame
        stream(np.clip(frame.astype(np.int16) + 3 * step, 0, 255).astype(np.uint8))
    assert stream.detected == 3  # at +12 and at +24 (each against the last detected frame)
