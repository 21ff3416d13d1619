"""The whole-face suit reader (vision.read.suits, models/suits.onnx): a second opinion on a
card's suit that never reads its index, and so doubts the classifier's club/spade look-alikes
on designs it never saw (bellot's tiny index signs, plastic's big ones)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.ci import need, need_module
from tests.vision.test_pips import _decks, _worn
from vision.detect.preprocess import LABELS
from vision.read.decode import LOOKALIKE_SURE, one_hot
from vision.read.suits import (
    SUIT_AGAINST,
    SUIT_LEAN,
    SUIT_SURE,
    SUITS,
    SuitModelError,
    SuitReader,
    consensus,
    leaning,
    suit_doubt,
    suit_share,
    suit_unbacked,
    sure_suits,
    with_lean,
    with_suit,
)

ROOT = Path(__file__).resolve().parents[2]
REALCARDS = ROOT / ".." / "shared" / "realcards"
HELD_OUT = ("bellot", "plastic", "tigullio")


@pytest.mark.parametrize("worn", [False, True])
def test_held_out_designs_clubs_and_spades_are_named_by_their_face(worn: bool) -> None:
    """The designs the models never saw, whose club and spade indices the classifier confuses:
    the suit reader is sure of the right suit on three in four of their black cards, aces and courts
    included, and never sure of a wrong one."""
    rng = np.random.default_rng(3)
    reader = SuitReader()
    sure_right = black = 0
    for name, faces in _decks(HELD_OUT).items():
        codes = [c for c in LABELS[:52] if c[-1] in "CS"]
        images = [
            _worn(faces[c], rng) if worn else cv2.resize(faces[c][:, :, :3], (160, 240))
            for c in codes
        ]
        for code, p in zip(codes, reader(images), strict=True):
            suit = SUITS[int(np.argmax(p))]
            sure = float(np.max(p)) >= SUIT_SURE
            assert not (sure and suit != code[-1]), (name, code, suit, float(np.max(p)))
            black += 1
            sure_right += sure and suit == code[-1]
    assert sure_right >= 0.75 * black, (sure_right, black)


@pytest.mark.realcards
@pytest.mark.parametrize("source", ["vosloo", "mathsvlog"])
def test_real_rectified_cards_are_never_given_a_wrong_suit(source: str) -> None:
    """Photographs of real cards, rectified (a Piatnik deck with four indices, glare and
    tints; a webcam's contrast-boosted deck): never sure of a wrong suit."""
    folder = REALCARDS / "singles" / source
    need(folder.is_dir(), f"the real photographs in {REALCARDS.resolve()}")
    with (folder / "labels.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    images, codes = [], []
    for r in rows:
        image = cv2.imread(str(folder / r["file"]))
        assert image is not None, r["file"]
        if image.shape[1] > image.shape[0]:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        images.append(image)
        codes.append(r["cards"])
    probs = SuitReader()(images)
    wrong = [
        (c, SUITS[int(np.argmax(p))])
        for c, p in zip(codes, probs, strict=True)
        if float(np.max(p)) >= SUIT_SURE and SUITS[int(np.argmax(p))] != c[-1]
    ]
    assert not wrong, wrong


def _looks(suits: str, p: float = 0.96) -> list[np.ndarray]:
    """The suit model's look at views, each giving its suit (``suits``: one letter a view)
    probability ``p``."""
    rows = []
    for suit in suits:
        row = np.full(len(SUITS), (1 - p) / (len(SUITS) - 1))
        row[SUITS.index(suit)] = p
        rows.append(row)
    return rows


def test_a_suit_the_views_agree_on_outweighs_the_index_and_others_change_nothing() -> None:
    # the classifier surely reads a club's index as the spade (bellot's ace, fresh seed 10021)
    index = one_hot("AS", 0.9995)
    index[LABELS.index("AC")] = 4e-4
    index /= index.sum()
    weighed = with_suit(index, _looks("CCC"))
    assert weighed[LABELS.index("AC")] > weighed[LABELS.index("AS")]
    assert weighed.sum() == pytest.approx(1.0)
    # views that do not agree, one view alone, or views not sure are no evidence
    assert np.array_equal(with_suit(index, _looks("CS")), index)
    assert np.array_equal(with_suit(index, _looks("C")), index)
    assert np.array_equal(with_suit(index, _looks("CC", p=0.8)), index)
    assert np.array_equal(with_suit(index, []), index)
    assert consensus(["C", "C", "S"]) is None and consensus(["C", "C", "C", "S"]) == "C"
    # the suit it agrees with leaves the index's card where it was
    same = with_suit(index, _looks("SS"))
    assert int(np.argmax(same)) == LABELS.index("AS")
    # a back or no card is not made less likely by a suit (the views were faces anyway)
    none = one_hot("AS", 0.5)
    none[LABELS.index("none")] = 0.4
    after = with_suit(none / none.sum(), _looks("CC"))
    n, kc, a_s = (LABELS.index(c) for c in ("none", "KC", "AS"))
    assert after[n] / after[kc] == pytest.approx(none[n] / none[kc])
    assert after[a_s] / after[kc] == pytest.approx(SUIT_AGAINST * none[a_s] / none[kc])


def test_a_lean_weighs_among_the_cards_only() -> None:
    """Bellot's AC read AS by a little from its index while its face leans to clubs (the
    two swapped in development seed 10184's light Clabber): named AC; read AS at 0.84, its
    face leaning 0.8 to clubs (fresh seed 10649): named AC too. A sure index is not
    turned by a lean; a back's or no card's probability is kept; no views, no change."""
    index = one_hot("AS", 0.62)
    index[LABELS.index("AC")] = 0.36
    index /= index.sum()
    lean = _looks("CC", p=0.8)
    weighed = with_lean(index, lean)
    assert int(np.argmax(weighed)) == LABELS.index("AC")
    assert weighed.sum() == pytest.approx(1.0)
    sure = one_hot("AS", 0.97)
    sure[LABELS.index("AC")] = 0.02
    assert int(np.argmax(with_lean(sure / sure.sum(), lean))) == LABELS.index("AS")
    none = one_hot("AS", 0.5)
    none[LABELS.index("none")] = 0.4
    none /= none.sum()
    n = LABELS.index("none")
    assert with_lean(none, lean)[n] == pytest.approx(none[n])
    assert np.array_equal(with_lean(index, []), index)
    # a lean to the index's own suit leaves the index's card on top
    assert int(np.argmax(with_lean(index, _looks("SS", p=0.8)))) == LABELS.index("AS")
    # fresh seed 10649's bellot AC (light and full Clag, 30 fps): its index read AS 0.84
    # against AC 0.16, its face leaning 0.8 to clubs: a lean that strong turns a split that
    # wide (a square root of it did not)
    split = one_hot("AS", 0.84)
    split[LABELS.index("AC")] = 0.16
    split /= split.sum()
    assert int(np.argmax(with_lean(split, lean))) == LABELS.index("AC")


def test_an_index_whose_face_shows_or_leans_to_another_suit_is_doubted() -> None:
    assert suit_doubt("AS", _looks("CC")) == "its index reads AS but its face shows a club"
    assert suit_doubt("AC", _looks("CC")) == ""
    assert suit_doubt("AS", _looks("CS")) == ""
    # a far card's middle sign the model is not sure of, two views alike: doubt, not evidence
    lean = _looks("CC", p=0.82)
    assert leaning(lean) == "C"
    assert suit_doubt("AS", lean) == "its index reads AS but its face looks more like a club"
    assert leaning(_looks("C", p=0.5)) is None and suit_doubt("AS", _looks("C", p=0.5)) == ""
    # fresh seed 10160's bellot ace of clubs, its index read AS at 0.997: two views leaning
    # 0.73 to clubs together
    ace = np.array([[0.13, 0.02, 0.02, 0.82], [0.33, 0.03, 0.04, 0.60]], np.float32)
    assert SUITS == "SHDC"
    assert suit_doubt("AS", ace) == "its index reads AS but its face looks more like a club"
    # fresh seed 10422's plastic king of spades, its index read KC at 0.98 on six views:
    # its face leaning 0.76 to spades on the first two, 0.65 on the later four
    king = np.array(
        [[0.757, 0.027, 0.026, 0.191], [0.740, 0.026, 0.027, 0.207], [0.674, 0.024, 0.033, 0.269],
         [0.657, 0.025, 0.033, 0.285], [0.645, 0.026, 0.034, 0.295], [0.652, 0.025, 0.033, 0.289]],
        np.float32,
    )  # fmt: skip
    assert suit_doubt("KC", king) == "its index reads KC but its face looks more like a spade"
    assert suit_doubt("KS", king) == ""
    # fresh seed 10592's plastic king of spades, its index read KC at 0.996: its six views
    # leaning together 0.56 to spades, 0.36 to clubs
    lean56 = [np.array([0.561, 0.043, 0.036, 0.36], np.float32)] * 6
    assert suit_doubt("KC", lean56) == "its index reads KC but its face looks more like a spade"
    assert suit_doubt("KS", lean56) == ""
    # a face torn between two suits doubts neither
    torn = [np.array([0.52, 0.04, 0.03, 0.41], np.float32)] * 2
    assert suit_doubt("KC", torn) == "" and suit_doubt("KS", torn) == ""
    assert sure_suits(np.array([[0.99, 0.0, 0.0, 0.01], [0.6, 0.0, 0.0, 0.4]])) == ["S"]
    assert SUIT_LEAN < SUIT_SURE


def test_a_suit_model_that_does_not_match_the_code_is_refused(tmp_path: Path) -> None:
    shipped = ROOT / "models" / "suits.onnx"
    (tmp_path / "suits.onnx").write_bytes(shipped.read_bytes())
    sidecar = json.loads(shipped.with_suffix(".json").read_text())
    sidecar["preprocessing"]["input"] = [3, 72, 40]
    (tmp_path / "suits.json").write_text(json.dumps(sidecar))
    with pytest.raises(SuitModelError, match="preprocessing"):
        SuitReader(tmp_path / "suits.onnx")
    with pytest.raises(SuitModelError, match="not found"):
        SuitReader(tmp_path / "missing.onnx")


def test_the_shipped_suit_model_is_small_and_says_how_it_was_made() -> None:
    shipped = ROOT / "models" / "suits.onnx"
    sidecar = json.loads(shipped.with_suffix(".json").read_text())
    assert shipped.stat().st_size < 10 * 1024 * 1024
    assert sidecar["training"]["command"].startswith("trickcam train --suits")
    assert sidecar["training"]["heldout_decks"] == list(HELD_OUT)
    assert (
        sidecar["validation"]["heldout_designs"]["sure_wrong"]
        <= 0.002 * (sidecar["validation"]["heldout_designs"]["views"])
    )


def test_trickcam_train_suits_smoke_run_exports_a_model_the_reader_loads(tmp_path: Path) -> None:
    """The real CLI: renders its views, trains one tiny epoch, exports ONNX + sidecar; the
    exported graph is loaded by onnxruntime through SuitReader (no torch)."""
    need_module("torch", "torch (extra 'train'; ./dev.sh test installs the CPU build)")
    _decks(HELD_OUT)
    out = tmp_path / "s.onnx"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli.main",
            "train",
            "--suits",
            "--out",
            str(out),
            "--data",
            str(tmp_path / "data"),
            "--limit",
            "200",
            "--epochs",
            "1",
            "--width",
            "4",
            "--threads",
            "1",
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    sidecar = json.loads(out.with_suffix(".json").read_text())
    assert sidecar["validation"]["heldout_designs"]["views"] == 100
    assert sidecar["training"]["config"]["samples"] == 200
    probs = SuitReader(out)([np.full((240, 160, 3), 255, np.uint8)])
    assert probs.shape == (1, 4) and probs.sum() == pytest.approx(1.0, abs=1e-4)
    # the views rendered are kept and reused
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [
        "heldout_100_20261203.npz",
        "train_200_20261202.npz",
    ]
    bad = subprocess.run(
        [sys.executable, "-m", "cli.main", "train", "--suits", "--out", str(tmp_path / "x.txt")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "name an .onnx file" in bad.stderr


def test_a_card_read_not_quite_surely_whose_face_does_not_show_its_suit_is_doubted() -> None:
    """Fresh seed 10562's light Clag QC, blurred and compressed: its index read QS 0.97
    (runner-up KS, not its look-alike QC) and its one face view leaned 0.59 to spades, 0.37
    to clubs: neither model sure, unmarked and wrong. Under LOOKALIKE_SURE, the face must
    plainly show the suit read (FACE_BACKS)."""
    qc = [np.array([0.589, 0.017, 0.023, 0.371])]
    assert SUITS == "SHDC"
    assert suit_share(qc, "S") == pytest.approx(0.589, abs=1e-3)
    assert (
        suit_unbacked("QS", 0.969, qc)
        == "QS is read at 0.97 and its face does not plainly show a spade (0.59)"
    )
    # a face plainly of the suit read, a reading sure beyond its look-alikes, or no face seen
    # (a card whose face was never plainly in view): no doubt from the face
    assert suit_unbacked("QS", 0.969, _looks("SS", p=0.9)) == ""
    assert suit_unbacked("QS", LOOKALIKE_SURE, qc) == ""
    assert suit_unbacked("QS", 0.969, []) == ""
    # views together: two views at 0.8 each lean far more than 0.8 to that suit
    assert suit_unbacked("10C", 0.973, _looks("CC", p=0.8)) == ""
