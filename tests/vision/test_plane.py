"""The table's plane from card outlines (vision.track.plane), and table files that carry it."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.track.plane import PlaneView, apply_homography, fit_plane
from vision.track.table import TableFileError, TableGeometry

ASPECT = 0.7


def _camera_homography(elevation: float) -> np.ndarray:
    """Plane (card lengths) -> image pixels of a camera looking down at ``elevation`` degrees,
    from the near side (y toward the camera)."""
    e = math.radians(elevation)
    f = 900.0
    k = np.array([[f, 0, 640], [0, f, 360], [0, 0, 1.0]])
    # camera 12 card lengths from the middle, looking at it
    eye = np.array([0.0, 12 * math.cos(e), 12 * math.sin(e)])
    fwd = -eye / np.linalg.norm(eye)
    right = np.cross(fwd, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    r = np.stack([right, down, fwd])
    t = -r @ eye
    h = k @ np.column_stack([r[:, 0], r[:, 1], t])
    return h / h[2, 2]


def _card(x: float, y: float, angle: float) -> np.ndarray:
    w = ASPECT / 2
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    local = np.array([[-w, -0.5], [w, -0.5], [w, 0.5], [-w, 0.5]])
    return local @ np.array([[c, s], [-s, c]]) + [x, y]


@pytest.mark.parametrize("elevation", [35.0, 55.0, 89.0])
def test_fit_plane_recovers_distances_on_the_table(elevation: float) -> None:
    h = _camera_homography(elevation)
    cards = [(0, 1.5, 10), (-1.6, 0, 95), (0, -1.4, 170), (1.5, 0.1, 260)]
    quads = [apply_homography(h, _card(*c)) + np.random.default_rng(i).normal(0, 0.3, (4, 2))
             for i, c in enumerate(cards)]  # fmt: skip
    fit = fit_plane(quads, aspect=0.66)
    assert fit.rms < 1.0
    assert fit.aspect == pytest.approx(ASPECT, abs=0.03)
    centres = np.array([c[:2] for c in cards])
    for a in range(4):
        for b in range(a + 1, 4):
            true = np.hypot(*(centres[a] - centres[b]))
            seen = np.hypot(*(fit.centres[a] - fit.centres[b]))
            assert seen == pytest.approx(true, rel=0.03)


def test_plane_view_shows_every_card_the_same_size() -> None:
    h = _camera_homography(40.0)
    to_plane = np.linalg.inv(h)
    view = PlaneView.make(to_plane / to_plane[2, 2], radius=2.5, long_side=480)
    assert view.size <= 480
    near, far = _card(0, 1.6, 0), _card(0, -1.6, 0)
    sizes = []
    for card in (near, far):
        in_image = apply_homography(h, card)
        in_view = apply_homography(view.to_view, in_image)
        sizes.append(np.hypot(*(in_view[0] - in_view[3])))
        assert view.inside(in_view)
    assert sizes[0] == pytest.approx(sizes[1], rel=0.01)  # far and near alike
    assert sizes[0] == pytest.approx(view.ppl, rel=0.01)  # one card length


def test_table_file_with_a_plane_round_trips_and_scales_to_other_resolutions(
    tmp_path: Path,
) -> None:
    h = np.linalg.inv(_camera_homography(50.0))
    g = TableGeometry(
        4, (0.5, 0.5), (90.0, 180.0, 270.0, 0.0), tuple(map(tuple, h / h[2, 2])), 2.6, (1280, 720)
    )  # type: ignore[arg-type]
    path = tmp_path / "table.json"
    g.save(path)
    again = TableGeometry.load(path)
    assert again.plane is not None and again.radius == pytest.approx(2.6)
    near = apply_homography(_camera_homography(50.0), np.array([[0.0, 1.5]]))[0]
    assert again.seat_at(near, (1280, 720)) == 0
    assert again.seat_at(near / 2, (640, 360)) == 0  # the same camera at half the resolution
    far = apply_homography(_camera_homography(50.0), np.array([[0.0, -1.5]]))[0]
    assert again.seat_at(far, (1280, 720)) == 2
    path.write_text(path.read_text().replace('"radius": 2.6', '"radius": 0'))
    with pytest.raises(TableFileError, match="radius"):
        TableGeometry.load(path)


def test_a_view_crop_keeps_the_plane_corner_order_for_a_card_seen_edge_on() -> None:
    """A far card at 35 degrees looks wider than long in the image; its crop must still be
    upright (portrait, index top-left), from the plane's order of its corners."""
    from vision.track.plane import warp_ordered

    h = _camera_homography(35.0)
    card = np.full((240, 160, 3), 255, np.uint8)
    cv2.rectangle(card, (5, 5), (40, 60), (0, 0, 255), -1)  # the index corner, red
    quad = apply_homography(h, _card(0, -2.0, 0))  # a far card, its long side away from us
    frame = np.zeros((720, 1280, 3), np.uint8)
    src = np.array([[0, 0], [159, 0], [159, 239], [0, 239]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    frame = cv2.warpPerspective(card, m, (1280, 720), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    side = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])
    assert side[0] > side[1]  # in the image its short side looks the longer
    crop = warp_ordered(frame, quad)
    assert crop.shape[:2] == (240, 160)
    assert crop[30, 20, 2] > 200 and crop[30, 20, 0] < 80  # red index still top-left
