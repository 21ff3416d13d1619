"""KDE decks (kdegames-card-data-kf5): cards found by SVG id come out whole and rightly named."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.ci import needs
from vision.detect.preprocess import LABELS
from vision.render.decks import ASPECT_RANGE, HELDOUT, RENDER_CARD_H, list_decks, load_deck
from vision.render.kdedecks import KDE_DIR, KDE_EXCLUDED, KDE_PREFIX, KDE_USED, card_ids, framed

_MISSING = [
    what
    for what, absent in (
        (f"{KDE_DIR} (Debian package kdegames-card-data-kf5)", not KDE_DIR.is_dir()),
        ("rsvg-convert (librsvg2-bin)", shutil.which("rsvg-convert") is None),
        ("svgelements (extra 'train')", importlib.util.find_spec("svgelements") is None),
    )
    if absent
]
needs_kde = needs(not _MISSING, ", ".join(_MISSING))


def test_card_ids_name_every_card_and_the_back_once() -> None:
    ids = card_ids()
    assert set(ids) == set(LABELS[:52]) | {"back"}
    assert len(set(ids.values())) == 53
    # KDE scheme: {1..10,jack,queen,king}_{club,diamond,heart,spade}, 1 = ace
    assert ids["AC"] == "1_club" and ids["10H"] == "10_heart" and ids["QS"] == "queen_spade"
    assert ids["KD"] == "king_diamond" and ids["back"] == "back"


def test_used_and_left_out_kde_decks_do_not_overlap() -> None:
    assert not set(KDE_USED) & set(KDE_EXCLUDED)
    # a copy of the held-out tigullio design must never become a training design
    assert "tigullio-international" in KDE_EXCLUDED


def test_framed_root_shows_the_requested_view() -> None:
    doc = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height=\'5\' viewBox="0 0 1 1"><rect/></svg>'
    out = framed(doc, (-2.0, 3.0, 8.0, 23.0), 100, 200)
    root = out[out.index("<svg") : out.index(">", out.index("<svg")) + 1]
    assert 'width="100"' in root and 'height="200"' in root and "10pt" not in root
    assert 'viewBox="-2.0000 3.0000 10.0000 20.0000"' in root and root.count("viewBox") == 1
    assert out.endswith("<rect/></svg>")


@needs_kde
def test_kde_decks_follow_the_aisleriot_ones_as_training_designs(tmp_path: Path) -> None:
    decks = list_decks()
    without_kde = list_decks(kde_directory=tmp_path)  # no KDE package: aisleriot only
    assert decks[: len(without_kde)] == without_kde  # appended: aisleriot indices unchanged
    kde = decks[len(without_kde) :]
    assert [d.name for d in kde] == [KDE_PREFIX + n for n in KDE_USED]
    assert all(d.source == "kde" and not d.heldout for d in kde)
    assert {d.name for d in decks if d.heldout} == {d.name for d in without_kde if d.heldout}
    assert {d.name for d in decks if d.heldout} <= set(HELDOUT)


def _ink_redness(card: np.ndarray) -> float:
    """How red the printed ink of the top-left index corner is (red minus blue on dark ink)."""
    h, w = card.shape[:2]
    corner = card[: h // 4, : w // 5, :3].astype(float)
    ink = (corner.sum(axis=2) < 450) & (card[: h // 4, : w // 5, 3] > 128)
    return float((corner[..., 2] - corner[..., 0])[ink].mean()) if ink.any() else 0.0


def _border_light(card: np.ndarray) -> float:
    """Median darkest channel on a ring 2-5 % of the height inside the outline (card stock)."""
    h, w = card.shape[:2]
    a, b = int(0.02 * h), int(0.05 * h)
    ring = np.zeros((h, w), bool)
    ring[a : h - a, a : w - a] = True
    ring[b : h - b, b : w - b] = False
    return float(np.median(card[:, :, :3][ring].min(axis=1)))


@needs_kde
@pytest.mark.parametrize("name", KDE_USED)
def test_every_kde_card_is_whole_and_rightly_named(name: str) -> None:
    """Rule checked: the id -> label map (red suits print red ink in BOTH index corners, black
    suits none: a crop missing a corner, or a wrong suit id, fails)."""
    deck = next(d for d in list_decks() if d.name == KDE_PREFIX + name)
    cards = load_deck(deck)  # the shared cache: ``trickcam dataset synth`` renders the same
    assert set(cards) == set(LABELS[:52]) | {"back"}
    for label, card in cards.items():
        assert card.shape[0] == RENDER_CARD_H and card.shape[2] == 4, label
        assert ASPECT_RANGE[0] <= card.shape[1] / card.shape[0] <= ASPECT_RANGE[1], label
        assert (card[:, :, 3] > 128).mean() > 0.9, label  # opaque card, not a fragment
        if label == "back":
            continue
        assert _border_light(card) > 180, label  # light card stock all round: no neighbour
        red = label[-1] in "HD"
        for corner, image in (("top-left", card), ("bottom-right", card[::-1, ::-1])):
            assert (_ink_redness(image) > 60) == red, (name, label, corner)
    small = np.stack([cards[label][::4, :200:4, :3] for label in LABELS[:52]]).astype(np.int16)
    for i in range(52):  # 52 different pictures: no id rendered twice
        diff = np.abs(small[i + 1 :] - small[i]).mean(axis=(1, 2, 3))
        assert (diff > 1.0).all(), (LABELS[i], diff.min())


@needs_kde
def test_a_kde_deck_renders_afresh_into_its_own_cache(tmp_path: Path) -> None:
    deck = next(d for d in list_decks() if d.name == KDE_PREFIX + "standard")
    cards = load_deck(deck, cache_dir=tmp_path)
    assert (tmp_path / f"{deck.name}_{RENDER_CARD_H}.npz").exists()
    again = load_deck(deck, cache_dir=tmp_path)  # from the cache: the same pictures
    assert all(np.array_equal(cards[k], again[k]) for k in cards) and len(again) == 53
