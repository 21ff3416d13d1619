"""Train the whole-face suit reader (``models/suits.onnx``, see ``vision/read/suits.py``).

Data: each sample is one card rendered into a camera-like scene exactly as the classifier's
synthetic set is (``vision.render.synth.seen_warp``: perspective, light, shadows, glare, a thumb
over the middle, blur, noise, JPEG, the outline a detector would report) and warped upright,
from the training deck designs (plus Hershey-font cards, 20 %); cards 60-330 px long, either
way up. The held-out designs (bellot, plastic, tigullio) are rendered the same way for the
figures and never trained on. torch is imported inside functions only.
"""

from __future__ import annotations

import json
import multiprocessing
import time
import warnings
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect.preprocess import LABELS
from vision.files import save_npz
from vision.read.suits import SUIT_H, SUIT_PREPROCESSING, SUIT_W, SUITS, suit_input
from vision.render.decks import list_decks, load_deck
from vision.render.fontcards import font_card
from vision.render.synth import SynthRecipe, seen_warp

RECIPE = SynthRecipe(card_height_px=(60, 330))
"""The scenes' recipe: the classifier's, with cards down to 60 px long (far cards)."""


@dataclass(frozen=True)
class SuitTrainConfig:
    """Everything that decides the trained weights (recorded in the sidecar)."""

    out: str = "models/suits.onnx"
    data: str = "datasets/generated/suits"
    """Where the rendered views are kept (``train.npz``, ``heldout.npz``): rendered once, reused
    while the sample counts and seed are the same."""
    samples: int = 40_000
    heldout: int = 4_000
    epochs: int = 10
    batch_size: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    width: int = 16
    seed: int = 20261202
    threads: int = 2
    workers: int = 2
    p_fontcard: float = 0.2


_WORK: dict[str, Any] = {}


def _view(args: tuple[int, int, bool]) -> tuple[np.ndarray, int]:
    seed, i, held = args
    rng = np.random.default_rng((seed, i))
    decks = _WORK["held" if held else "train"]
    label = int(rng.integers(52))
    code = LABELS[label]
    if not held and rng.random() < _WORK["p_fontcard"]:
        card = font_card(rng, code, p_foreign=0.5)
    else:
        card = decks[int(rng.integers(len(decks)))][code]
    up = seen_warp(rng, card, label, RECIPE)
    if rng.random() < 0.5:  # the warp comes out either way up
        up = up[::-1, ::-1]
    small = cv2.resize(up, (SUIT_W, SUIT_H), interpolation=cv2.INTER_AREA)
    return small, SUITS.index(code[-1])


def render_views(
    count: int,
    seed: int,
    held: bool,
    workers: int = 2,
    progress: bool = True,
    p_fontcard: float = 0.2,
) -> dict[str, np.ndarray]:
    """``count`` cards as the pipeline sees them (x: N x SUIT_H x SUIT_W x 3 uint8, y: suit)."""
    from tqdm import tqdm

    decks = [d for d in list_decks() if d.source == "aisleriot"]
    _WORK.update(
        train=[load_deck(d) for d in decks if not d.heldout],
        held=[load_deck(d) for d in decks if d.heldout],
        p_fontcard=p_fontcard,
    )
    jobs = [(seed, i, held) for i in range(count)]
    bar = tqdm(total=count, desc="held-out views" if held else "views", disable=not progress)
    out: list[tuple[np.ndarray, int]] = []
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for r in pool.imap(_view, jobs, chunksize=100):
                out.append(r)
                bar.update()
    else:
        for job in jobs:
            out.append(_view(job))
            bar.update()
    bar.close()
    x = np.stack([r[0] for r in out]) if out else np.zeros((0, SUIT_H, SUIT_W, 3), np.uint8)
    return {"x": x, "y": np.array([r[1] for r in out], np.int64)}


def _views(config: SuitTrainConfig, held: bool, progress: bool) -> dict[str, np.ndarray]:
    """The rendered views for ``config`` (from its data folder when already rendered)."""
    count, seed = (config.heldout, config.seed + 1) if held else (config.samples, config.seed)
    path = Path(config.data) / f"{'heldout' if held else 'train'}_{count}_{seed}.npz"
    if path.is_file():
        with np.load(path) as data:
            return {"x": data["x"], "y": data["y"]}
    views = render_views(count, seed, held, config.workers, progress, config.p_fontcard)
    save_npz(path, views)
    return views


def build_model(width: int = 16) -> Any:
    """A small CNN: 5 conv blocks (BN + ReLU) with 4 poolings, global average, linear to 4."""
    from torch import nn

    def block(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    w = width
    return nn.Sequential(
        *block(3, w),
        nn.MaxPool2d(2),  # 48 x 32
        *block(w, 2 * w),
        nn.MaxPool2d(2),  # 24 x 16
        *block(2 * w, 4 * w),
        nn.MaxPool2d(2),  # 12 x 8
        *block(4 * w, 4 * w),
        nn.MaxPool2d(2),  # 6 x 4
        *block(4 * w, 8 * w),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(8 * w, len(SUITS)),
    )


def _shifted(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Per-epoch variation: a shift of up to 2 px (the outline's error)."""
    n, h, w = x.shape[:3]
    padded = np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0)), mode="edge")
    dy, dx = rng.integers(0, 5, n), rng.integers(0, 5, n)
    return np.stack([padded[i, dy[i] : dy[i] + h, dx[i] : dx[i] + w] for i in range(n)])


def _predict(model: Any, x: np.ndarray) -> np.ndarray:
    import torch

    model.eval()
    with torch.no_grad():
        parts = [
            torch.softmax(model(torch.from_numpy(suit_input(list(x[i : i + 512])))), 1).numpy()
            for i in range(0, len(x), 512)
        ]
    return np.concatenate(parts) if parts else np.zeros((0, len(SUITS)), np.float32)


def figures(probs: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Accuracy, and how often the model is sure (``SUIT_SURE``) and right or wrong."""
    from vision.read.suits import SUIT_SURE

    best, conf = probs.argmax(1), probs.max(1)
    sure = conf >= SUIT_SURE
    club_spade = np.isin(y, [SUITS.index("C"), SUITS.index("S")])
    return {
        "views": int(len(y)),
        "accuracy": round(float((best == y).mean()), 4) if len(y) else None,
        "sure": round(float(sure.mean()), 4) if len(y) else None,
        "sure_wrong": int((sure & (best != y)).sum()),
        "club_spade_accuracy": round(float((best == y)[club_spade].mean()), 4)
        if club_spade.any()
        else None,
    }


def train(config: SuitTrainConfig, progress: bool = True, log: Any = print) -> dict[str, Any]:
    """Render (or load) the views, train, export ``config.out`` and its ``.json`` sidecar."""
    import torch
    from torch import nn
    from tqdm import tqdm

    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    started = time.time()
    data = _views(config, held=False, progress=progress)
    held = _views(config, held=True, progress=progress)
    x, y = data["x"], data["y"].astype(np.int64)
    n_val = max(1, len(x) // 25)
    x_val, y_val, x_tr, y_tr = x[:n_val], y[:n_val], x[n_val:], y[n_val:]
    model = build_model(config.width)
    params = int(sum(p.numel() for p in model.parameters()))
    log(f"suit model: {params} parameters; {len(x_tr)} training views, {len(x_val)} val")
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    steps = config.epochs * ((len(x_tr) + config.batch_size - 1) // config.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=config.lr, total_steps=max(steps, 1))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=config.label_smoothing)
    history = []
    for epoch in range(config.epochs):
        model.train()
        order = rng.permutation(len(x_tr))
        bar = tqdm(
            range(0, len(order), config.batch_size),
            desc=f"epoch {epoch + 1}/{config.epochs}",
            disable=not progress,
            unit="batch",
        )
        loss_sum = 0.0
        for i in bar:
            idx = order[i : i + config.batch_size]
            xb = torch.from_numpy(suit_input(list(_shifted(rng, x_tr[idx]))))
            loss = loss_fn(model(xb), torch.from_numpy(y_tr[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
        entry = {
            "epoch": epoch + 1,
            "loss": round(loss_sum / max(len(x_tr), 1), 4),
            "val": figures(_predict(model, x_val), y_val)["accuracy"],
            "heldout": figures(_predict(model, held["x"]), held["y"])["accuracy"],
            "minutes": round((time.time() - started) / 60, 2),
        }
        history.append(entry)
        log(json.dumps(entry))
    out = Path(config.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (torch.zeros(1, 3, SUIT_H, SUIT_W),),
            str(out),
            input_names=["input"],
            output_names=["logits"],
            dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    default = asdict(SuitTrainConfig())
    options = [f"--{k.replace('_', '-')} {v}" for k, v in asdict(config).items() if default[k] != v]
    sidecar: dict[str, Any] = {
        "model": out.name,
        "classes": SUITS,
        "preprocessing": SUIT_PREPROCESSING,
        "parameters": params,
        "training": {
            "command": " ".join(["trickcam train --suits", *options]),
            "config": asdict(config),
            "recipe": asdict(RECIPE),
            "heldout_decks": [
                d.name for d in list_decks() if d.source == "aisleriot" and d.heldout
            ],
            "history": history,
            "minutes": round((time.time() - started) / 60, 1),
            "torch": torch.__version__,
        },
        "validation": {
            "training_designs": figures(_predict(model, x_val), y_val),
            "heldout_designs": figures(_predict(model, held["x"]), held["y"]),
        },
    }
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=2) + "\n")
    return sidecar


def smoke_config(folder: Path) -> SuitTrainConfig:
    """A tiny run (seconds) for the tests: a few hundred views, one epoch, no workers."""
    return replace(
        SuitTrainConfig(),
        out=str(folder / "suits.onnx"),
        data=str(folder / "data"),
        samples=300,
        heldout=100,
        epochs=1,
        width=4,
        workers=1,
        threads=1,
    )
