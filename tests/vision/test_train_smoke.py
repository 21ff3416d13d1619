"""Smoke training + ONNX export parity, and checks on the shipped model (onnxruntime only)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.ci import need, need_module, needs
from vision.detect.preprocess import (
    CARD_H,
    CARD_W,
    INPUT_CHANNELS,
    INPUT_H,
    INPUT_W,
    LABELS,
    PREPROCESSING,
    to_input,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "models" / "cards.onnx"
DECKS = "the aisleriot SVG decks (Debian package gnome-cards-data; ./dev.sh test installs it)"


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few hundred synthetic crops from two decks (not the default dataset)."""
    need_module("torch", "torch (extra 'train'; ./dev.sh test installs the CPU build)")
    from vision.render.decks import list_decks
    from vision.render.synth import generate

    decks = list_decks()
    need(decks, DECKS)
    out = tmp_path_factory.mktemp("synth")
    train_decks = [d for d in decks if not d.heldout][:2]
    held_decks = [d for d in decks if d.heldout][:1]
    np.savez(out / "train.npz", **generate(train_decks, 160, seed=1, progress=False))
    np.savez(out / "heldout.npz", **generate(held_decks, 20, seed=2, progress=False))
    meta = {
        "train_decks": [d.name for d in train_decks],
        "heldout_decks": [d.name for d in held_decks],
    }
    (out / "meta.json").write_text(json.dumps(meta))
    return out


def test_smoke_training_exports_an_onnx_graph_that_matches_torch(
    tiny_data: Path, tmp_path: Path
) -> None:
    import onnxruntime as ort

    from vision.train.trainer import TrainConfig, predict_torch, train

    config = TrainConfig(data=str(tiny_data), out=str(tmp_path), epochs=1, batch_size=64, width=8)
    result = train(config, progress=False, log=lambda _msg: None)
    sidecar = result.sidecar
    onnx_path = tmp_path / "cards.onnx"
    assert json.loads((tmp_path / "cards.json").read_text()) == sidecar
    assert sidecar["labels"] == list(LABELS)
    assert sidecar["training"]["command"] == (
        f"trickcam train --data {tiny_data} --out {tmp_path} --epochs 1 --batch-size 64 --width 8"
    )
    assert len(sidecar["training"]["history"]) == 1
    assert 0 <= sidecar["validation"]["heldout_decks_crop_acc"] <= 1

    crops = np.load(tiny_data / "train.npz")["x"][:40]
    want = predict_torch(result.model, crops)
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"input": to_input(crops)})[0]
    assert got.shape == (40, len(LABELS))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    for n in (1, 7):  # any batch size
        assert session.run(None, {"input": to_input(crops[:n])})[0].shape == (n, len(LABELS))


def test_inference_modules_import_no_torch() -> None:
    code = (
        "import sys, vision.detect.preprocess, vision.train.evaluate, vision.render.decks, vision.render.synth, vision.train.trainer;"
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


shipped = needs(SHIPPED.exists(), f"the shipped model {SHIPPED} (trickcam train)")


@shipped
def test_shipped_model_sidecar_matches_the_preprocessing_contract() -> None:
    import onnxruntime as ort

    sidecar = json.loads(SHIPPED.with_suffix(".json").read_text())
    assert sidecar["labels"] == list(LABELS)
    assert sidecar["input"]["shape"][1:] == [INPUT_CHANNELS, INPUT_H, INPUT_W]
    assert sidecar["preprocessing"] == json.loads(json.dumps(PREPROCESSING))
    assert sidecar["training"]["command"].startswith("trickcam train")
    assert SHIPPED.stat().st_size < 10 * 1024 * 1024
    session = ort.InferenceSession(str(SHIPPED), providers=["CPUExecutionProvider"])
    (inp,) = session.get_inputs()
    assert inp.name == sidecar["input"]["name"] and inp.shape[1:] == [
        INPUT_CHANNELS,
        INPUT_H,
        INPUT_W,
    ]
    assert session.get_outputs()[0].shape[1] == len(LABELS)


@shipped
def test_shipped_model_reads_clean_renders_of_unseen_deck_designs() -> None:
    """Held-out decks were never trained on; clean upright renders must read almost perfectly."""
    import cv2

    from vision.render.decks import list_decks, render_deck
    from vision.train.evaluate import CardModel

    held = [d for d in list_decks() if d.heldout]
    need(held, DECKS)
    model = CardModel(SHIPPED)
    correct = total = 0
    for deck in held:
        cards = render_deck(deck, card_h=CARD_H)
        labels = LABELS[:52]
        uprights = []
        for label in labels:
            bgra = cards[label]
            alpha = bgra[:, :, 3:4].astype(np.float32) / 255
            flat = (bgra[:, :, :3] * alpha + 110 * (1 - alpha)).astype(np.uint8)
            uprights.append(cv2.resize(flat, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA))
        pred = model.card_probs(uprights).argmax(1)
        correct += sum(LABELS[p] == t for p, t in zip(pred, labels, strict=True))
        total += len(labels)
    assert correct / total >= 0.9, f"{correct}/{total}"


def test_extra_crops_join_the_training_crops_not_the_validation(
    tiny_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--extra DIR``: DIR/train.npz is added to what is trained on (here the same crops
    again: twice the training crops, the same validation); a missing one is a clear error."""
    from cli.train import main
    from vision.train.trainer import TrainConfig, train

    logs: list[str] = []
    base = TrainConfig(data=str(tiny_data), out=str(tmp_path), epochs=1, batch_size=64, width=8)
    train(base, progress=False, log=logs.append)
    more: list[str] = []
    config = TrainConfig(**{**base.__dict__, "extra": str(tiny_data)})
    sidecar = train(config, progress=False, log=more.append).sidecar
    assert f"--extra {tiny_data}" in sidecar["training"]["command"]

    def crops(lines: list[str]) -> tuple[int, int]:
        line = next(m for m in lines if "training crops" in m)
        words = line.replace(";", "").split()
        return int(words[words.index("training") - 1]), int(words[words.index("val") - 1])

    (n_base, val_base), (n_more, val_more) = crops(logs), crops(more)
    assert n_more == n_base + 320 and val_more == val_base  # 160 scenes, two crops each
    assert any("320 more crops" in m for m in more)

    missing = tmp_path / "none"
    argv = ["--data", str(tiny_data), "--extra", str(missing), "--out", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"--extra {missing}" in err and err.count("\n") == 1


def test_the_covered_reader_is_trained_beside_the_card_model_never_over_it(
    tiny_data: Path, tmp_path: Path
) -> None:
    """``trickcam train --covered`` (the real CLI) writes OUT/covered.onnx and covered.json,
    never OUT/cards.onnx; its sidecar says how to make it again; the classifier reads one-corner
    rows with it. Without its covered corners it stops with one clear line."""
    out = tmp_path / "models"
    base = [sys.executable, "-m", "cli.main", "train", "--covered", "--data", str(tiny_data)]
    small = ["--out", str(out), "--epochs", "1", "--batch-size", "64", "--width", "8"]
    done = subprocess.run(
        [*base, "--extra", str(tiny_data), *small, "--no-eval", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["covered.json", "covered.onnx"]
    sidecar = json.loads((out / "covered.json").read_text())
    command = sidecar["training"]["command"]
    assert command.startswith("trickcam train --covered") and f"--extra {tiny_data}" in command
    assert f"--out {out}" in command and "trickcam-covered-" not in command
    from vision.read.classify import CardClassifier

    model = out / "covered.onnx"
    clf = CardClassifier(SHIPPED if SHIPPED.exists() else model, covered=model)
    assert clf.covered_path == model
    crops = np.full((2, CARD_H, CARD_W, 3), 255, np.uint8)
    assert clf.read_cards(crops, one_corner=np.array([True, False])).probs.shape == (2, 54)

    missing = tmp_path / "nowhere"
    done = subprocess.run(
        [*base, "--extra", str(missing), *small], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2 and f"--extra {missing}" in done.stderr
    assert done.stderr.count("\n") == 1
