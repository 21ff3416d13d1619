"""Train the card-corner classifier on the synthetic set and export it to ONNX.

torch is imported inside functions only: importing this module (e.g. for ``TrainConfig``) stays
cheap, and inference (vision/read/classify.py) never needs torch at all. The exported graph takes the
float32 NCHW batch of :func:`vision.detect.preprocess.to_input` and returns logits over
:data:`vision.detect.preprocess.LABELS`; ``models/cards.json`` records everything needed to check that.
"""

from __future__ import annotations

import json
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.detect.preprocess import (
    INPUT_CHANNELS,
    INPUT_H,
    INPUT_W,
    LABELS,
    PREPROCESSING,
    to_input,
)

MODEL_NAME = "cards"


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained weights (recorded in the sidecar)."""

    data: str = "datasets/generated/synth"
    out: str = "models"
    epochs: int = 8
    batch_size: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    width: int = 32
    seed: int = 7
    threads: int = 2
    val_fraction: float = 0.04
    limit: int = 0  # 0: every crop; otherwise the first `limit` crops (smoke runs)
    layouts: str = ""
    """Where ``crops_train.npz`` / ``crops_val.npz`` (:mod:`vision.render.cornercrops`) are:
    index corners cut from layout scenes as the corner detector cuts them, added to the
    training crops (tried, not shipped: models/README.md). Empty: none, the shipped recipe.
    ``crops_val`` (held-out designs) is measured when present, here or where
    ``trickcam dataset corners`` writes by default."""
    extra: str = ""
    """Another synth folder whose ``train.npz`` crops join the training crops (never the
    validation), e.g. scenes of covered cards only (``trickcam dataset synth --covered 1``).
    Empty: none, the shipped recipe."""


def command_line(config: TrainConfig) -> str:
    """The ``trickcam train`` command that reproduces ``config`` (only non-default options)."""
    default = asdict(TrainConfig())
    opts = [f"--{k.replace('_', '-')} {v}" for k, v in asdict(config).items() if default[k] != v]
    return " ".join(["trickcam train", *opts])


def build_model(width: int = 32, classes: int = len(LABELS)) -> Any:
    """A small VGG-style CNN: 6 conv blocks (BN + ReLU), 3 poolings, global average, linear."""
    from torch import nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    w = width
    return nn.Sequential(
        *block(INPUT_CHANNELS, w // 2),
        nn.MaxPool2d(2),  # 36 x 20
        *block(w // 2, w),
        nn.MaxPool2d(2),  # 18 x 10
        *block(w, 2 * w),
        *block(2 * w, 2 * w),
        nn.MaxPool2d(2),  # 9 x 5
        *block(2 * w, 4 * w),
        *block(4 * w, 4 * w),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(4 * w, classes),
    )


def count_params(model: Any) -> int:
    return int(sum(p.numel() for p in model.parameters()))


def load_split(data_dir: Path, name: str, limit: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N,H,W,3 uint8) and labels of ``train`` or ``heldout`` from a synth folder."""
    with np.load(data_dir / f"{name}.npz") as data:
        x, y = data["x"], data["y"].astype(np.int64)
    if limit:
        x, y = x[:limit], y[:limit]
    return x, y


def _augment(rng: np.random.Generator, crops: np.ndarray) -> np.ndarray:
    """Cheap per-epoch variation on stored crops: a shift of up to 2 px (crop error)."""
    out = np.empty_like(crops)
    n, h, w = crops.shape[:3]
    padded = np.pad(crops, ((0, 0), (2, 2), (2, 2), (0, 0)), mode="edge")
    dy = rng.integers(0, 5, n)
    dx = rng.integers(0, 5, n)
    for i in range(n):
        out[i] = padded[i, dy[i] : dy[i] + h, dx[i] : dx[i] + w]
    return out


def predict_torch(model: Any, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    """Logits of ``model`` for uint8 crops, through ``to_input`` (eval mode)."""
    import torch

    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(crops), batch):
            outs.append(model(torch.from_numpy(to_input(crops[i : i + batch]))).numpy())
    return np.concatenate(outs) if outs else np.zeros((0, len(LABELS)), np.float32)


def export_onnx(model: Any, path: Path) -> None:
    """Write ``model`` as ONNX with a dynamic batch dimension (input 'input', output 'logits')."""
    import torch

    model.eval()
    dummy = torch.zeros(1, INPUT_CHANNELS, INPUT_H, INPUT_W)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the TorchScript exporter (dynamo=False) warns that it is legacy; the torch.export one
    # needs onnxscript, which the 'train' extra does not install
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _export(torch, model, dummy, path)


def _export(torch: Any, model: Any, dummy: Any, path: Path) -> None:
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["input"],
        output_names=["logits"],
        dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


@dataclass
class TrainResult:
    """What :func:`train` made: the sidecar it wrote and the torch model it exported."""

    sidecar: dict[str, Any]
    model: Any


def train(config: TrainConfig, progress: bool = True, log: Any = print) -> TrainResult:
    """Train on ``config.data``, export ``config.out``/cards.onnx + cards.json."""
    import torch
    from torch import nn
    from tqdm import tqdm

    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    data_dir = Path(config.data)
    x, y = load_split(data_dir, "train", config.limit)
    # validation: whole scenes (crop pairs) held back from the training decks
    scenes = np.arange(len(x) // 2)
    rng.shuffle(scenes)
    n_val = int(len(scenes) * config.val_fraction)
    val_idx = np.sort(np.concatenate([2 * scenes[:n_val], 2 * scenes[:n_val] + 1]))
    tr_mask = np.ones(len(x), bool)
    tr_mask[val_idx] = False
    x_tr, y_tr, x_val, y_val = x[tr_mask], y[tr_mask], x[val_idx], y[val_idx]
    layout_file = Path(config.layouts) / "crops_train.npz"
    if config.layouts and layout_file.is_file():
        with np.load(layout_file) as data:
            xl, yl = data["x"], data["y"].astype(np.int64)
        if config.limit:
            xl, yl = xl[: config.limit], yl[: config.limit]
        x_tr, y_tr = np.concatenate([x_tr, xl]), np.concatenate([y_tr, yl])
        log(f"{len(xl)} layout corner crops from {layout_file}")
    if config.extra:
        xe, ye = load_split(Path(config.extra), "train", config.limit)
        x_tr, y_tr = np.concatenate([x_tr, xe]), np.concatenate([y_tr, ye])
        log(f"{len(xe)} more crops from {config.extra}/train.npz")

    model = build_model(config.width)
    log(f"model: {count_params(model)} parameters; {len(x_tr)} training crops, {len(x_val)} val")
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    steps = config.epochs * ((len(x_tr) + config.batch_size - 1) // config.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=config.lr, total_steps=max(steps, 1))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=config.label_smoothing)
    history = []
    started = time.time()
    for epoch in range(config.epochs):
        model.train()
        order = rng.permutation(len(x_tr))
        total, correct, loss_sum = 0, 0, 0.0
        bar = tqdm(
            range(0, len(order), config.batch_size),
            desc=f"epoch {epoch + 1}/{config.epochs}",
            disable=not progress,
            unit="batch",
        )
        for i in bar:
            idx = order[i : i + config.batch_size]
            xb = torch.from_numpy(to_input(_augment(rng, x_tr[idx])))
            yb = torch.from_numpy(y_tr[idx])
            logits = model(xb)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += len(idx)
            correct += int((logits.argmax(1) == yb).sum())
            loss_sum += float(loss.detach()) * len(idx)
        val_acc = (
            float((predict_torch(model, x_val).argmax(1) == y_val).mean()) if len(x_val) else 0.0
        )
        entry = {
            "epoch": epoch + 1,
            "loss": round(loss_sum / max(total, 1), 4),
            "train_acc": round(correct / max(total, 1), 4),
            "val_acc": round(val_acc, 4),
            "minutes": round((time.time() - started) / 60, 2),
        }
        history.append(entry)
        log(json.dumps(entry))

    out = Path(config.out)
    onnx_path = out / f"{MODEL_NAME}.onnx"
    export_onnx(model, onnx_path)
    meta_path = data_dir / "meta.json"
    dataset_meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    sidecar: dict[str, Any] = {
        "model": onnx_path.name,
        "labels": list(LABELS),
        "input": {"name": "input", "shape": ["batch", INPUT_CHANNELS, INPUT_H, INPUT_W]},
        "output": {"name": "logits", "meaning": "unnormalised scores over labels"},
        "preprocessing": PREPROCESSING,
        "parameters": count_params(model),
        "training": {
            "command": command_line(config),
            "config": asdict(config),
            "dataset": {k: v for k, v in dataset_meta.items() if k != "labels"},
            "history": history,
            "minutes": round((time.time() - started) / 60, 1),
            "torch": torch.__version__,
        },
        "validation": {"synthetic_val_acc": history[-1]["val_acc"] if history else None},
    }
    heldout_file = data_dir / "heldout.npz"
    if heldout_file.exists():
        xh, yh = load_split(data_dir, "heldout", config.limit)
        pred = predict_torch(model, xh).argmax(1)
        sidecar["validation"]["heldout_decks_crop_acc"] = round(float((pred == yh).mean()), 4)
    from vision.train.corners import CornerTrainConfig  # its data: the layouts' default folder

    layout_val = Path(config.layouts or CornerTrainConfig().data) / "crops_val.npz"
    if layout_val.is_file():
        with np.load(layout_val) as data:
            xv, yv = data["x"], data["y"].astype(np.int64)
        probs = torch.softmax(torch.from_numpy(predict_torch(model, xv)), 1).numpy()
        best, conf = probs.argmax(1), probs.max(1)
        sure = conf >= 0.9  # a card read from one corner needs this (vision/read/classify.py)
        sidecar["validation"]["layout_corners_heldout"] = {
            "crops": int(len(yv)),
            "accuracy": round(float((best == yv).mean()), 4),
            "named_at_0.9": round(float((sure & (best == yv)).mean()), 4),
            "wrong_at_0.9": int((sure & (best != yv)).sum()),
        }
    write_sidecar(out / f"{MODEL_NAME}.json", sidecar)
    return TrainResult(sidecar=sidecar, model=model)


def write_sidecar(path: Path, sidecar: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(sidecar, indent=2, ensure_ascii=False) + "\n")
