"""Deck rendering (grid -> card mapping) and the synthetic dataset's determinism."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.ci import needs
from vision.detect.preprocess import INPUT_H, INPUT_W, LABELS
from vision.render.decks import (
    AISLERIOT_DIR,
    ASPECT_RANGE,
    EXCLUDED,
    HELDOUT,
    card_cell_labels,
    list_decks,
    load_deck,
)
from vision.render.synth import NONE, SynthRecipe, generate, make_sample

needs_decks = needs(
    shutil.which("rsvg-convert") is not None and any(AISLERIOT_DIR.glob("*.svgz")),
    f"rsvg-convert and the SVG decks in {AISLERIOT_DIR} "
    "(Debian packages librsvg2-bin and gnome-cards-data; ./dev.sh test installs them)",
)


def test_grid_cells_name_every_card_once_and_the_back() -> None:
    cells = card_cell_labels()
    assert set(cells) == set(LABELS[:52]) | {"back"}
    assert len(set(cells.values())) == 53
    # aisleriot layout: rows clubs, diamonds, hearts, spades; columns ace, 2..10, J, Q, K
    assert cells["AC"] == (0, 0) and cells["10D"] == (1, 9) and cells["KS"] == (3, 12)
    assert cells["back"] == (4, 2)


@needs_decks
def test_deck_list_leaves_out_excluded_and_marks_heldout() -> None:
    decks = list_decks()
    names = {d.name for d in decks}
    assert names and not names & set(EXCLUDED)
    assert {d.name for d in decks if d.heldout} == set(HELDOUT) & names
    assert len(names - set(HELDOUT)) >= 15


def _ink_redness(card: np.ndarray) -> float:
    """How red the printed ink of a card's index corner is (red minus blue on dark pixels)."""
    h, w = card.shape[:2]
    corner = card[: h // 4, : w // 5, :3].astype(float)
    alpha = card[: h // 4, : w // 5, 3] > 128
    ink = (corner.sum(axis=2) < 450) & alpha
    if not ink.any():
        return 0.0
    return float((corner[..., 2] - corner[..., 0])[ink].mean())


@needs_decks
@pytest.mark.parametrize("deck_name", ["anglo", "paris", "bellot"])
def test_rendered_hearts_and_diamonds_are_red_and_the_rest_black(
    deck_name: str, tmp_path: Path
) -> None:
    """Rule checked: the grid rows map to suits (a wrong row order would swap colours)."""
    deck = next(d for d in list_decks() if d.name == deck_name)
    cards = load_deck(deck, cache_dir=tmp_path)
    assert set(cards) == set(LABELS[:52]) | {"back"}
    for label in ("5H", "9D", "KH", "AD", "5S", "9C", "KS", "AC"):
        card = cards[label]
        aspect = card.shape[1] / card.shape[0]
        assert ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]
        red = _ink_redness(card) > 60
        assert red == (label[-1] in "HD"), (deck_name, label, _ink_redness(card))
    assert (tmp_path / f"{deck_name}_320.npz").exists()  # cached


def _fake_decks() -> list[dict[str, np.ndarray]]:
    """Two tiny synthetic 'decks' (flat colours per card) so the test needs no SVG."""
    rng = np.random.default_rng(0)
    decks = []
    for _ in range(2):
        deck = {}
        for label in (*LABELS[:52], "back"):
            card = np.full((160, 110, 4), 255, np.uint8)
            card[10:40, 8:30, :3] = rng.integers(0, 255, 3)
            deck[label] = card
        decks.append(deck)
    return decks


def test_a_sample_depends_only_on_seed_and_index() -> None:
    decks, recipe = _fake_decks(), SynthRecipe()
    a = make_sample(5, 17, decks, recipe)
    make_sample(5, 3, decks, recipe)  # generating other samples in between changes nothing
    b = make_sample(5, 17, decks, recipe)
    assert a[1:] == b[1:] and all(np.array_equal(x, y) for x, y in zip(a[0], b[0], strict=True))
    c = make_sample(6, 17, decks, recipe)
    assert not all(np.array_equal(x, y) for x, y in zip(a[0], c[0], strict=True))


def test_samples_are_two_corner_crops_with_a_valid_label() -> None:
    decks, recipe = _fake_decks(), SynthRecipe(p_none=0.3, p_back=0.2)
    labels = set()
    for i in range(30):
        crops, label, deck_no = make_sample(1, i, decks, recipe)
        assert len(crops) == 2 and all(c.shape == (INPUT_H, INPUT_W, 3) for c in crops)
        assert 0 <= label < len(LABELS) and -1 <= deck_no < len(decks)
        assert crops[0].dtype == np.uint8
        labels.add(label)
    assert NONE in labels and len(labels) > 10


@needs_decks
def test_generate_is_deterministic_from_its_seed() -> None:
    decks = [d for d in list_decks() if d.name == "anglo"]
    one = generate(decks, 6, seed=11, progress=False)
    two = generate(decks, 6, seed=11, progress=False)
    other = generate(decks, 6, seed=12, progress=False)
    assert one["x"].shape == (12, INPUT_H, INPUT_W, 3)
    for key in ("x", "y", "deck"):
        assert np.array_equal(one[key], two[key])
    assert not np.array_equal(one["x"], other["x"])


def test_dataset_command_refuses_an_empty_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    from cli.dataset import main

    assert main(["synth", "--scenes", "0", "--out", "/nonexistent/never-written"]) == 2
    err = capsys.readouterr().err
    assert "--scenes 0" in err and err.count("\n") == 1


def test_dataset_command_refuses_a_covered_share_outside_0_to_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli.dataset import main

    assert main(["synth", "--covered", "1.5", "--out", "/nonexistent/never-written"]) == 2
    err = capsys.readouterr().err
    assert "--covered 1.5" in err and err.count("\n") == 1


def test_train_command_names_the_missing_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.train import main

    assert main(["--data", str(tmp_path / "nothing"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nothing/train.npz not found" in err and "trickcam dataset synth" in err


def test_font_cards_draw_distinct_suits_and_red_or_black_ink() -> None:
    from vision.render.fontcards import font_card, suit_mask

    masks = {s: suit_mask(s, 40) > 127 for s in "SHDC"}
    for a in "SHDC":
        assert masks[a].mean() > 0.2
        for b in "SHDC":
            if a < b:  # no two suit signs cover the same pixels
                assert (masks[a] ^ masks[b]).mean() > 0.1, (a, b)
    rng = np.random.default_rng(0)
    for label in ("10H", "QS", "AD", "7C"):
        card = font_card(rng, label)
        assert card.shape[0] == 320 and card.shape[2] == 4
        assert ASPECT_RANGE[0] <= card.shape[1] / card.shape[0] <= ASPECT_RANGE[1]
        assert card[0, 0, 3] < 128 and card[160, 100, 3] == 255  # rounded corner, opaque body
        assert (_ink_redness(card) > 60) == (label[-1] in "HD"), label


@needs_decks
@pytest.mark.parametrize(("designs", "kde"), [("aisleriot", False), ("all", True)])
def test_synth_designs_choose_the_deck_packages(tmp_path: Path, designs: str, kde: bool) -> None:
    """The default dataset is the shipped model's (aisleriot decks); --designs all adds the
    KDE decks where that package is installed. Held-out designs are the same either way."""
    from cli.dataset import main

    out = tmp_path / designs
    argv = ["synth", "--scenes", "4", "--heldout-scenes", "2", "--quiet", "--out", str(out)]
    assert main([*argv, "--designs", designs]) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["designs"] == designs
    has_kde = any(str(name).startswith("kde-") for name in meta["train_decks"])
    installed = any(d.source == "kde" for d in list_decks())
    assert has_kde == (kde and installed)
    assert meta["heldout_decks"] == sorted(HELDOUT)


def test_foreign_indices_keep_the_meaning_of_the_card() -> None:
    from vision.render.fontcards import INDEX_STYLES, index_text

    # every tradition prints some index for each court and the ace; a B is a jack wherever
    # it is printed, a D a queen, and only V stands for two cards (French valet, Dutch vrouw)
    meaning: dict[str, set[str]] = {}
    for style in INDEX_STYLES.values():
        assert set(style) == {"A", "K", "Q", "J"}
        for rank, printed in style.items():
            meaning.setdefault(printed, set()).add(rank)
    ambiguous = {printed for printed, ranks in meaning.items() if len(ranks) > 1}
    assert ambiguous == {"V"}
    assert meaning["B"] == {"J"} and meaning["D"] == {"Q"} and meaning["Д"] == {"Q"}
    rng = np.random.default_rng(0)
    assert {index_text(rng, "10", 1.0) for _ in range(20)} == {"10"}  # numbers never change
    printed = {index_text(rng, "Q", 1.0) for _ in range(200)}
    assert printed == {style["Q"] for name, style in INDEX_STYLES.items() if name != "english"}


def test_a_cyrillic_index_is_drawn_in_a_truetype_font() -> None:
    from tests.ci import need, need_module
    from vision.render.fontcards import _ttf_canvas, _ttf_fonts

    need_module("PIL", "Pillow (the train extra)")
    need(bool(_ttf_fonts()), "Debian's fonts-dejavu-core / fonts-liberation")
    rng = np.random.default_rng(3)
    de = _ttf_canvas(rng, "Д")
    be = _ttf_canvas(np.random.default_rng(3), "В")
    assert de is not None and be is not None and de.any() and be.any()
    assert de.shape != be.shape or not np.array_equal(de, be)  # two glyphs, not a fallback box


def test_crowded_font_cards_put_big_pips_beside_the_index() -> None:
    """A crowded card's middle reaches into the corner crop (a big pip beside the rank, cut
    by the crop's edge, as on many continental decks); a plain font card's middle stays out."""
    import cv2

    from vision.detect.preprocess import CARD_H, CARD_W, corner_crop
    from vision.render.fontcards import font_card

    def ink_at_crop_edge(card: np.ndarray) -> float:
        img = cv2.resize(card[:, :, :3], (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(corner_crop(img), cv2.COLOR_BGR2GRAY).astype(np.float32)
        dark = grey < 0.75 * np.percentile(grey, 90)
        return float(dark[:, -3:].mean())

    rng = np.random.default_rng(11)
    labels = [f"{r}{s}" for r in "4568" for s in "SHDC"]  # one-digit ranks: narrow indices
    crowded = [ink_at_crop_edge(font_card(rng, lab, crowded=True)) for lab in labels]
    plain = [ink_at_crop_edge(font_card(rng, lab)) for lab in labels]
    assert sum(ink > 0.01 for ink in crowded) >= 4
    assert max(plain) == 0.0


def test_a_card_laid_over_leaves_the_index_whole_and_covers_the_far_corner() -> None:
    """``lay_over``: the top-left index (up to where its ink ends) keeps every pixel, the far
    corner shows the other card, and a recipe with covered cards gives two top-left views."""
    from vision.render.fontcards import font_card
    from vision.render.synth import index_box, lay_over

    rng = np.random.default_rng(3)
    changed_far = 0
    for i in range(40):
        card = font_card(rng, LABELS[i % 52])
        other = font_card(rng, LABELS[(i + 7) % 52], card.shape[0])
        h, w = card.shape[:2]
        right, bottom = index_box(card)
        assert 0.05 < right < 0.45 and 0.1 < bottom < 0.36
        laid, cover = lay_over(rng, card, other)
        assert laid.shape == card.shape and laid.dtype == np.uint8
        index = (slice(0, int(bottom * h)), slice(0, int(right * w)))
        assert cover[index].max() < 0.01
        # at most a shadow falls on the index: never lighter, its ink still darker than paper
        assert (laid[index][..., :3].astype(int) <= card[index][..., :3].astype(int) + 1).all()
        far = (slice(int(0.75 * h), h), slice(int(0.8 * w), w))
        changed_far += cover[far].mean() > 0.9
    assert changed_far >= 30

    decks = _fake_decks()
    recipe = SynthRecipe(p_none=0.0, p_back=0.0, p_covered=1.0)
    crops, label, _ = make_sample(2, 0, decks, recipe)
    again = make_sample(2, 0, decks, recipe)
    assert len(crops) == 2 and all(c.shape == (INPUT_H, INPUT_W, 3) for c in crops)
    assert all(np.array_equal(x, y) for x, y in zip(crops, again[0], strict=True))
    assert not np.array_equal(crops[0], crops[1])  # two views, not one crop twice


def test_a_covered_view_is_the_index_corner_whichever_way_up_the_outline_warps() -> None:
    """``index_view``: the perturbed outline warps the card either way up; the crop given is
    always the one holding its top-left index (here red), never the far corner (blue), which
    lies under the covering card (a first try gave the far corner half the time)."""
    from vision.render.synth import index_view

    card = np.full((320, 220, 4), 255, np.uint8)
    card[8:80, 8:50, :3] = (0, 0, 230)  # the index: red (BGR)
    card[240:312, 170:212, :3] = (230, 0, 0)  # the far corner: blue
    recipe = SynthRecipe(p_glare=0.0, p_contrast=0.0, p_saturation=0.0)
    rng = np.random.default_rng(5)
    for _ in range(40):
        crop = index_view(rng, card, 0, recipe).astype(np.int32)
        redness = (crop[..., 2] - crop[..., 0]).mean()
        assert redness > 10, redness
