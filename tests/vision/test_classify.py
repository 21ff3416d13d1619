"""The ONNX card classifier: corner combination, sidecar checks, and the shipped model on
rendered and real cards."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.ci import missing, need, needs
from vision.detect.find import detect
from vision.detect.preprocess import (
    LABELS,
    PREPROCESSING,
    corner_crop,
    corner_crop_at,
    corner_crops,
    to_input,
)
from vision.read.classify import (
    CONFIDENCE_THRESHOLD,
    COVERED_FROM,
    COVERED_MODEL_PATH,
    MODEL_PATH,
    ONE_CORNER_BLUR,
    ONE_CORNER_LOOKS,
    PARTIAL_THRESHOLD,
    RED_INDEX,
    CardClassifier,
    ModelError,
    blank_crops,
    combine_corners,
    confirm_red,
    covered_look,
    load_sidecar,
    red_index,
)
from vision.render.scene import card_quad, paste_card, table_texture

REALCARDS = Path(__file__).parents[2] / ".." / "shared" / "realcards"

needs_model = needs(MODEL_PATH.is_file(), f"the trained model {MODEL_PATH} (trickcam train)")


def _onehotish(label: str, p: float) -> np.ndarray:
    probs = np.full(len(LABELS), (1 - p) / (len(LABELS) - 1), np.float64)
    probs[LABELS.index(label)] = p
    return probs


def test_agreeing_corners_reinforce() -> None:
    a = _onehotish("QH", 0.8)[None]
    both = combine_corners(a, a)
    assert both[0].argmax() == LABELS.index("QH")
    assert both[0].max() > 0.8


def test_disagreeing_corners_become_unsure() -> None:
    # a fanned card: one corner reads it, the other reads the card lying on top of it
    a = _onehotish("QH", 0.95)[None]
    b = _onehotish("9C", 0.95)[None]
    both = combine_corners(a, b)
    assert both[0].max() < CONFIDENCE_THRESHOLD


def test_one_unreadable_corner_leaves_the_other_in_charge() -> None:
    a = _onehotish("10S", 0.97)[None]
    flat = np.full((1, len(LABELS)), 1 / len(LABELS))
    both = combine_corners(a, flat)
    assert both[0].argmax() == LABELS.index("10S")
    assert both[0].max() > CONFIDENCE_THRESHOLD


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float64, (3, len(LABELS)), elements=st.floats(0, 1)),
    arrays(np.float64, (3, len(LABELS)), elements=st.floats(0, 1)),
)
def test_combination_is_a_symmetric_distribution(a: np.ndarray, b: np.ndarray) -> None:
    ab, ba = combine_corners(a, b), combine_corners(b, a)
    assert np.allclose(ab.sum(axis=1), 1.0)
    assert (ab >= 0).all()
    assert np.allclose(ab, ba)


def test_missing_model_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        CardClassifier(tmp_path / "cards.onnx")


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        (
            "labels must be the 52 cards in DECK_52 order + back + none",
            {"labels": list(LABELS[::-1])},
        ),
        ("preprocessing must match vision.detect.preprocess", {"preprocessing": {"warp": "other"}}),
    ],
)
def test_sidecar_that_breaks_the_contract_is_refused(
    tmp_path: Path, rule: str, change: dict[str, object]
) -> None:
    model = tmp_path / "cards.onnx"
    model.write_bytes(b"not checked before the sidecar")
    sidecar = {"labels": list(LABELS), "preprocessing": PREPROCESSING, **change}
    model.with_suffix(".json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelError):
        load_sidecar(model)


def test_sidecar_that_keeps_the_contract_is_accepted(tmp_path: Path) -> None:
    model = tmp_path / "cards.onnx"
    model.write_bytes(b"")
    model.with_suffix(".json").write_text(
        json.dumps({"labels": list(LABELS), "preprocessing": PREPROCESSING})
    )
    assert load_sidecar(model)["labels"] == list(LABELS)


@needs_model
def test_shipped_sidecar_matches_the_code() -> None:
    load_sidecar(MODEL_PATH)


def _rendered_deck() -> dict[str, np.ndarray]:
    try:
        from vision.render.decks import list_decks, load_deck

        decks = [d for d in list_decks() if not d.heldout]
        if decks:
            return load_deck(decks[0])
    except Exception as exc:  # noqa: BLE001 - decks need Debian's card packages
        what = f"a rendered deck (failed: {exc})"
    else:
        what = "a rendered deck (none found)"
    missing(f"{what}: Debian's card decks, which ./dev.sh test installs")


@needs_model
def test_rendered_cards_on_a_table_are_named() -> None:
    deck = _rendered_deck()
    clf = CardClassifier()
    rng = np.random.default_rng(5)
    labels = ["AS", "10H", "QD", "7C", "KS", "2H", "9D", "JC"]
    right = wrong = 0
    for i in range(0, len(labels), 4):
        frame = table_texture("green_felt", 1280, 720, rng)
        for k, label in enumerate(labels[i : i + 4]):
            img = deck[label]
            angle = float(rng.uniform(-180, 180))
            paste_card(
                frame, img, card_quad((200 + 300 * k, 360), 300, angle, img.shape[1] / img.shape[0])
            )
        det = detect(frame)
        readings = clf.classify(det)
        named = {readings.card(j) for j in range(len(det))} - {None}
        right += len(named & set(labels[i : i + 4]))
        wrong += len(named - set(labels[i : i + 4]))
    assert wrong == 0
    assert right >= 7


@needs_model
def test_reading_does_not_depend_on_which_end_is_up() -> None:
    deck = _rendered_deck()
    clf = CardClassifier()
    cards = np.stack([cv2.resize(deck[c][:, :, :3], (160, 240)) for c in ("5H", "KC", "8S")])
    upside_down = np.stack([cv2.rotate(c, cv2.ROTATE_180) for c in cards])
    a, b = clf.read_cards(cards), clf.read_cards(upside_down)
    assert a.best == b.best
    assert np.allclose(a.probs, b.probs, atol=1e-4)  # the two corners swap, the product does not


def test_a_corner_crop_moved_and_scaled_shows_the_card_moved_and_scaled() -> None:
    """corner_crop_at: the window moved by (dx, dy) shows what corner_crop shows of the card
    moved the other way; half as large, half as much of the corner; past the edge, the
    edge."""
    rng = np.random.default_rng(3)
    card = cv2.GaussianBlur(rng.integers(0, 256, (240, 160, 3), np.uint8), (0, 0), 4)
    card = cv2.normalize(card, None, 0, 255, cv2.NORM_MINMAX)
    moved = np.roll(card, (-6, -5), axis=(0, 1))  # the card moved up 6 and left 5
    diff = np.abs(corner_crop_at(card, 5, 6, 1.0).astype(int) - corner_crop(moved).astype(int))
    assert (
        diff.mean() < 3
        and np.abs(
            corner_crop_at(card, 0, 0, 1.0).astype(int) - corner_crop(card).astype(int)
        ).mean()
        < 3
    )
    # half as large: the top-left 20 x 36 pixels instead of 40 x 72, brought to the same size
    narrow = corner_crop_at(card, 0, 0, 0.5).astype(int)
    assert np.abs(narrow - cv2.resize(card[:36, :20], (40, 72)).astype(int)).mean() < 4
    off = corner_crop_at(card, -40, 0, 1.0)  # half past the left edge: that edge replicated
    assert np.abs(off[:, :10].astype(int) - off[:, :1].astype(int)).max() <= 2
    assert not np.array_equal(off, corner_crop(card))


def test_the_covered_look_whitens_only_the_strip_beside_the_index() -> None:
    crop = np.random.default_rng(3).integers(0, 256, (72, 40, 3), np.uint8)
    out = covered_look(crop)
    x0 = round(40 * COVERED_FROM)
    assert np.array_equal(out[:, :x0], crop[:, :x0])
    paper = np.percentile(crop.reshape(-1, 3), 90, axis=0).astype(np.uint8)
    assert (out[:, x0:] == paper).all()
    assert not np.array_equal(crop[:, x0:], out[:, x0:])  # the input itself is left alone


@needs_model
def test_a_card_read_from_one_corner_pools_the_surer_of_its_two_looks_at_each_place() -> None:
    """A fanned card: the next card's edge and big pip lie right beside its index. Read from
    that corner alone it is read at each of ONE_CORNER_LOOKS as it is and with that strip
    whitened, each look softened by ONE_CORNER_BLUR; the surer reading of each place counts, and the places' readings are pooled
    by their normalised geometric mean; whole cards are read as before (both corners). The
    last card has a dark card (a back, a black court's robe) beside its index, which the
    strip whitened reads surer."""
    deck = _rendered_deck()
    clf = CardClassifier()
    cards = []
    codes = ("3D", "7H", "10C", "3D")
    for code, neighbour in zip(codes, ("9S", "KC", "8H", None), strict=True):
        card = cv2.resize(deck[code][:, :, :3], (160, 240)).copy()
        # the neighbour lies on it from 80 % of the index crop's width rightwards
        x0 = int(0.25 * 160 * 0.8)
        if neighbour is None:
            card[:, int(0.25 * 160 * 0.74) :] = (40, 40, 40)
        else:
            over = cv2.resize(deck[neighbour][:, :, :3], (160, 240))
            card[:, x0:] = over[:, : 160 - x0]
        cv2.line(card, (x0, 0), (x0, 239), (90, 90, 90), 1)
        cards.append(card)
    batch = np.stack(cards)
    single = clf.read_cards(batch, one_corner=np.ones(len(cards), bool))
    whole = clf.read_cards(batch)
    helped = []
    for i, card in enumerate(cards):
        # one-corner rows are read by the covered-corner reader when it is shipped
        logs = []
        for k, (dx, dy, scale) in enumerate(ONE_CORNER_LOOKS):
            crop = corner_crop(card) if k == 0 else corner_crop_at(card, dx, dy, scale)
            crop = cv2.GaussianBlur(crop, (0, 0), ONE_CORNER_BLUR)
            first = clf._run(to_input([crop]), clf.covered)[0]
            again = clf._run(to_input([covered_look(crop)]), clf.covered)[0]
            logs.append(np.log((again if again.max() > first.max() else first) + 1e-6))
            if k == 0:
                helped.append(bool(again.max() > first.max()))
        pooled = np.exp(np.mean(logs, axis=0) - np.max(np.mean(logs, axis=0)))
        pooled /= pooled.sum()
        centre = cv2.GaussianBlur(corner_crop(card), (0, 0), ONE_CORNER_BLUR)
        if codes[i][-1] in "HD" and red_index(centre) > RED_INDEX:
            # red ink confirmed: the spades' and clubs' share struck out (see confirm_red)
            pooled[[LABELS.index(c) for c in LABELS[:52] if c[-1] in "SC"]] = 0.0
            pooled /= pooled.sum()
        assert np.allclose(single.probs[i], pooled, atol=1e-5)
        assert single.best[i] == codes[i]
    assert helped[-1]  # the dark strip made the plain look less sure
    assert not np.allclose(single.probs, whole.probs)


@needs_model
def test_empty_frame_is_an_empty_batch() -> None:
    clf = CardClassifier()
    det = detect(table_texture("black", 640, 480, np.random.default_rng(0)))
    readings = clf.classify(det)
    assert len(readings) == 0 and readings.probs.shape == (0, len(LABELS))


@needs_model
@pytest.mark.realcards
def test_real_single_cards_are_named() -> None:
    folder = REALCARDS / "singles" / "kentdoan"
    need(folder.is_dir(), f"the real photographs in {REALCARDS.resolve()}")
    clf = CardClassifier()
    with (folder / "labels.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))[::4]  # 13 of the 52, every rank
    right = 0
    for r in rows:
        image = cv2.imread(str(folder / r["file"]))
        assert image is not None, r["file"]
        det = detect(image)
        assert len(det) >= 1, r["file"]
        i = int(np.argmax(det.areas))
        readings = clf.classify(det)
        right += readings.best[i] == r["cards"]
    assert right >= len(rows) - 1


def test_a_model_elsewhere_is_loaded_with_its_own_sidecar(tmp_path: Path) -> None:
    # a training run tries its fresh model with the same code (or TRICKCAM_MODEL names it)
    need(MODEL_PATH.is_file(), f"the trained model {MODEL_PATH} (trickcam train)")
    shutil.copy(MODEL_PATH, tmp_path / "m.onnx")
    shutil.copy(MODEL_PATH.with_suffix(".json"), tmp_path / "m.json")
    assert CardClassifier(tmp_path / "m.onnx").sidecar["labels"] == list(LABELS)


@needs_model
def test_one_corner_rows_are_read_by_the_covered_reader_and_whole_cards_are_not(
    tmp_path: Path,
) -> None:
    """models/covered.onnx reads the cards seen by one index corner; whole cards (and every
    card the watcher follows) stay with cards.onnx. A reader named but missing is a model
    error, not a silent fall back."""
    need(COVERED_MODEL_PATH.is_file(), f"the covered-corner reader {COVERED_MODEL_PATH}")
    deck = _rendered_deck()
    batch = np.stack([cv2.resize(deck[c][:, :, :3], (160, 240)) for c in ("QS", "9D", "JC")])
    shipped, alone = CardClassifier(), CardClassifier(covered=None)
    assert shipped.covered_path == COVERED_MODEL_PATH and alone.covered is None
    assert np.array_equal(shipped.read_cards(batch).probs, alone.read_cards(batch).probs)
    one = np.ones(len(batch), bool)
    a, b = shipped.read_cards(batch, one_corner=one), alone.read_cards(batch, one_corner=one)
    assert a.best == b.best == ("QS", "9D", "JC")
    assert not np.allclose(a.probs, b.probs, atol=1e-3)  # another network read them
    with pytest.raises(ModelError, match="not found"):
        CardClassifier(covered=tmp_path / "nowhere.onnx")


def test_a_blank_corner_is_told_from_any_index() -> None:
    """Plain table, a shadow's soft edge, sensor noise and compression show no index; every
    card of a rendered deck does at both corners, dimmed to a third, blurred or both."""
    rng = np.random.default_rng(3)
    blanks = []
    for colour in [(89, 60, 88), (40, 90, 40), (200, 200, 200), (20, 20, 20)]:
        img = np.full((240, 160, 3), colour, np.float32)
        img *= np.linspace(0.8, 1.0, 160)[None, :, None]  # a shadow's soft edge
        img += rng.normal(0, 3, (240, 160, 1))
        img = np.clip(img, 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 50])
        blanks.extend(corner_crops(cv2.imdecode(buf, cv2.IMREAD_COLOR)))
    assert blank_crops(blanks).all()
    deck = _rendered_deck()
    cards = []
    for label in LABELS[:52]:
        img = cv2.resize(deck[label][:, :, :3], (160, 240), interpolation=cv2.INTER_AREA)
        dim = (img.astype(np.float32) / 3).astype(np.uint8)
        for look in (img, dim, cv2.GaussianBlur(img, (7, 7), 0), cv2.GaussianBlur(dim, (7, 7), 0)):
            cards.extend(corner_crops(look))
    assert not blank_crops(cards).any()
    assert not blank_crops([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in cards]).any()


def test_red_ink_is_told_from_black_in_every_light_and_only_confirms_a_red_reading() -> None:
    """red_index: every black index of a rendered deck, plain, in warm dim light, or blurred
    and compressed, stays under RED_INDEX; the red ones lie over it. confirm_red strikes the
    black cards out of a red best reading whose index is red (9D 0.85 with 9S 0.10 beside it
    becomes sure enough to name from one corner), and leaves alone a red reading of black ink
    and every black reading."""
    deck = _rendered_deck()
    red, black = [], []
    for label in LABELS[:52]:
        img = cv2.resize(deck[label][:, :, :3], (160, 240), interpolation=cv2.INTER_AREA)
        warm = np.clip(img.astype(np.float32) * (0.55, 0.75, 0.95), 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(
            ".jpg", cv2.GaussianBlur(warm, (5, 5), 0), [cv2.IMWRITE_JPEG_QUALITY, 40]
        )
        for look in (img, warm, cv2.imdecode(buf, cv2.IMREAD_COLOR)):
            (red if label[-1] in "HD" else black).append(red_index(corner_crop(look)))
    assert max(black) < RED_INDEX
    assert np.mean(np.array(red) > RED_INDEX) >= 0.95
    # a brown table beside a black index: green far above blue is no red ink
    card = cv2.resize(deck["9S"][:, :, :3], (160, 240), interpolation=cv2.INTER_AREA).copy()
    card[:, :8] = (40, 110, 170)
    assert red_index(corner_crop(card)) < RED_INDEX

    probs = np.full((3, len(LABELS)), 0.05 / (len(LABELS) - 2), np.float32)
    for row in probs:
        row[LABELS.index("9D")], row[LABELS.index("9S")] = 0.85, 0.10
    probs[2, [LABELS.index("9D"), LABELS.index("9S")]] = 0.10, 0.85
    red_crop = corner_crop(cv2.resize(deck["9D"][:, :, :3], (160, 240)))
    black_crop = corner_crop(cv2.resize(deck["9S"][:, :, :3], (160, 240)))
    out = confirm_red(probs, [red_crop, black_crop, red_crop])
    assert out[0, LABELS.index("9S")] == 0.0 and out[0].max() >= PARTIAL_THRESHOLD
    assert np.isclose(out[0].sum(), 1.0)
    assert np.array_equal(out[1:], probs[1:])  # black ink, and a black best reading
