"""Train the index-corner detector (``models/corners.onnx``) on rendered layouts.

The data are scenes written by ``trickcam dataset corners`` (:func:`vision.render.layouts.
write_scenes`): JPEG pictures with every card's outline and how much of each index corner
shows. Targets, at an eighth of the input's resolution (:mod:`vision.detect.corners`): a
Gaussian bump at each index corner that shows (60 % of its region or more; corners between
30 % and 60 % are neither taught as corners nor as background), and at those cells the card's
direction, log width and height, and the sub-cell offset. Loss: CenterNet's focal loss on the
heat map, L1 on the rest. Exported to ONNX with free height and width; torch stays here.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect.corners import STRIDE, CornerDetector, Corners, decode, merge, to_input

VISIBLE = 0.6
"""An index corner this visible is a corner to find."""

HALF_VISIBLE = 0.3
"""Between this and :data:`VISIBLE` a corner is left out of the loss."""


@dataclass
class CornerTrainConfig:
    data: str = "datasets/generated/corners"
    out: str = "models/corners.onnx"
    steps: int = 10000
    batch: int = 16
    crop: int = 192
    lr: float = 3e-3
    weight_decay: float = 1e-4
    threads: int = 2
    seed: int = 1
    widths: tuple[int, int, int, int] = (24, 48, 64, 96)
    device: str = "cpu"
    """torch device to train on (``cuda`` where there is one); the model is exported on the CPU."""
    workers: int = 0
    """Processes preparing batches. 0: this one, with one random stream (the shipped model's
    recipe); more: sample ``k`` of the run drawn from ``(seed, k)``, the same with any number."""
    minutes: float = 0.0
    """A time budget: 0, none. Otherwise the learning rate follows the one-cycle curve over
    whichever ends first, ``steps`` or ``minutes`` of training, and training stops there (the
    steps done are recorded)."""
    notes: list[str] = field(
        default_factory=lambda: [
            "random scale 0.55-1.35 and a 192 px crop of each 384 px scene",
            "widths (16, 32, 48, 64), 2500 steps of 12: validation recall 0.56, precision 0.56;"
            " (24, 48, 64, 96), 10000 steps of 16: 0.80 and 0.87 (scores from 0.3)",
            "focal loss on the heat map; L1 on direction, log size, offset at corner cells",
        ]
    )


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - the train extra is missing
        raise SystemExit("training needs torch: pip install -e '.[train]'") from exc
    return torch


def build_model(widths: tuple[int, int, int, int]) -> Any:
    """A small encoder-decoder of plain convolutions, output at 1/8 of the input.

    Why plain 3x3 convolutions and a 4x4 patch stem: on the CPU they train several times
    faster than depthwise-separable ones of the same cost, and the whole net must train in
    about an hour on two cores."""
    torch = _torch()
    nn = torch.nn
    c1, c2, c3, c4 = widths

    def conv(cin: int, cout: int, k: int = 3, stride: int = 1, dilation: int = 1) -> Any:
        pad = (k // 2) * dilation if k % 2 else 0
        return nn.Sequential(
            nn.Conv2d(cin, cout, k, stride, pad, dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(True),
        )

    class Net(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.s4 = nn.Sequential(conv(3, c1, 4, 4), conv(c1, c1))
            self.s8 = nn.Sequential(conv(c1, c2, 3, 2), conv(c2, c2))
            self.s16 = nn.Sequential(conv(c2, c3, 3, 2), conv(c3, c3, 3, 1, 2))
            self.s32 = nn.Sequential(conv(c3, c4, 3, 2), conv(c4, c4, 3, 1, 2))
            self.up16 = conv(c4 + c3, c3)
            self.up8 = conv(c3 + c2, c2)
            self.head = nn.Sequential(conv(c2, c2), nn.Conv2d(c2, 7, 1))
            with torch.no_grad():
                self.head[-1].bias.zero_()
                self.head[-1].bias[0] = -4.0  # corners are rare: start the heat map low

        def forward(self, x: Any) -> Any:
            f8 = self.s8(self.s4(x - 0.5))
            f16 = self.s16(f8)
            f32 = self.s32(f16)
            up = nn.functional.interpolate(f32, size=f16.shape[2:], mode="nearest")
            u16 = self.up16(torch.cat([up, f16], 1))
            up = nn.functional.interpolate(u16, size=f8.shape[2:], mode="nearest")
            return self.head(self.up8(torch.cat([up, f8], 1)))

    return Net()


# -- data ---------------------------------------------------------------------------------------


def load_labels(folder: Path) -> list[dict[str, Any]]:
    with (folder / "labels.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def keypoints(record: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, float, float, float]]:
    """(point, right unit vector, width, height, visible share) of every index corner."""
    from vision.render.layouts import index_point

    out = []
    for card in record["cards"]:
        if card["label"] == "back":
            continue
        q = np.asarray(card["quad"], np.float32)
        for corner, vis in zip((0, 2), card["visible"], strict=True):
            a, b, c = (q[0], q[1], q[3]) if corner == 0 else (q[2], q[3], q[1])
            right = b - a
            width = float(np.linalg.norm(right))
            height = float(np.linalg.norm(c - a))
            if width < 1:
                continue
            out.append((index_point(q, corner), right / width, width, height, float(vis)))
    return out


def targets(
    kps: list[tuple[np.ndarray, np.ndarray, float, float, float]], h: int, w: int
) -> dict[str, np.ndarray]:
    """Training targets at 1/STRIDE for keypoints in input pixels."""
    gh, gw = h // STRIDE, w // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    ignore = np.zeros((gh, gw), np.float32)
    reg = np.zeros((6, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for p, r, width, height, vis in kps:
        cx, cy = p[0] / STRIDE - 0.5, p[1] / STRIDE - 0.5
        ix, iy = int(round(cx)), int(round(cy))
        if vis < HALF_VISIBLE or not (0 <= ix < gw and 0 <= iy < gh):
            continue
        # the bump peaks at exactly 1 on the corner's own cell (the focal loss's positives);
        # the offset from that cell's centre to the point is regressed
        sigma = max(0.7, 0.05 * width / STRIDE)
        bump = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        if vis < VISIBLE:
            ignore = np.maximum(ignore, (bump > 0.1).astype(np.float32))
            continue
        heat = np.maximum(heat, bump)
        value = (r[0], r[1], math.log(width / STRIDE), math.log(height / STRIDE))
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = ix + dx, iy + dy
                if 0 <= x < gw and 0 <= y < gh and bump[y, x] > 0.3:
                    reg[:, y, x] = (*value, cx - x, cy - y)
                    mask[y, x] = 1.0 if (dx, dy) == (0, 0) else 0.5
    ignore[heat > 0.1] = 0
    return {"heat": heat, "ignore": ignore, "reg": reg, "mask": mask}


def sample(
    folder: Path, record: dict[str, Any], rng: np.random.Generator, crop: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One training input (3 x crop x crop float32) with its targets."""
    image = cv2.imread(str(folder / record["file"]))
    scale = float(rng.uniform(0.55, 1.35))
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = image.shape[:2]
    if h < crop or w < crop:
        pad_y, pad_x = max(0, crop - h), max(0, crop - w)
        image = cv2.copyMakeBorder(image, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT)
        h, w = image.shape[:2]
    y0 = int(rng.integers(0, h - crop + 1))
    x0 = int(rng.integers(0, w - crop + 1))
    image = image[y0 : y0 + crop, x0 : x0 + crop]
    kps = [
        (p * scale - (x0, y0), r, width * scale, height * scale, vis)
        for p, r, width, height, vis in keypoints(record)
    ]
    x = image.astype(np.float32).transpose(2, 0, 1) / 255.0
    return x, targets(kps, crop, crop)


# -- training -------------------------------------------------------------------------------------


def focal_loss(torch: Any, logits: Any, heat: Any, ignore: Any) -> Any:
    """CenterNet's variant of the focal loss, averaged over the corners."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.99).float()
    neg = (1 - pos) * (1 - ignore)
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1.0)


class _Samples:
    """Sample ``k``: a random scene of ``records`` cut as :func:`sample` does, drawn from
    ``(seed, k)`` (a map-style dataset for ``torch.utils.data.DataLoader``)."""

    def __init__(self, folder: Path, records: list[dict[str, Any]], seed: int, crop: int, n: int):
        self.folder, self.records, self.seed, self.crop, self.n = folder, records, seed, crop, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: int) -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng((self.seed, k))
        record = self.records[int(rng.integers(len(self.records)))]
        x, t = sample(self.folder, record, rng, self.crop)
        return x, t["heat"], t["ignore"], t["reg"], t["mask"]


def one_cycle(frac: float, peak: float, pct_start: float = 0.15) -> float:
    """The one-cycle learning rate at ``frac`` (0..1) of training: cosine up from peak/25,
    then cosine down to peak/25/1e4 (torch's ``OneCycleLR`` curve)."""
    low, end = peak / 25, peak / 25 / 1e4
    if frac < pct_start:
        t = frac / pct_start
        return low + (peak - low) * (1 - math.cos(math.pi * t)) / 2
    t = min(1.0, (frac - pct_start) / (1 - pct_start))
    return end + (peak - end) * (1 + math.cos(math.pi * t)) / 2


def _batches(config: CornerTrainConfig, folder: Path) -> Any:
    """Batches (x, heat, ignore, reg, mask) as numpy arrays, forever."""
    torch = _torch()
    if config.workers <= 0:
        rng = np.random.default_rng(config.seed)
        records = load_labels(folder)
        step = 0
        while True:
            if step % 500 == 0 and step:  # scenes still being written join as they come
                records = load_labels(folder)
            items = [
                sample(folder, records[int(i)], rng, config.crop)
                for i in rng.integers(0, len(records), config.batch)
            ]
            yield (
                np.stack([x for x, _t in items]),
                *(np.stack([t[k] for _x, t in items]) for k in ("heat", "ignore", "reg", "mask")),
            )
            step += 1
    data = _Samples(
        folder, load_labels(folder), config.seed, config.crop, config.steps * config.batch
    )
    loader = torch.utils.data.DataLoader(
        data,
        batch_size=config.batch,
        num_workers=config.workers,
        pin_memory=config.device != "cpu",
        persistent_workers=True,
        prefetch_factor=4,
    )
    for batch in loader:
        yield tuple(b.numpy() for b in batch)


def train(config: CornerTrainConfig, progress: bool = True) -> dict[str, Any]:
    """Train, export ONNX and its sidecar; returns the sidecar."""
    torch = _torch()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    folder = Path(config.data) / "train"
    model = build_model(config.widths).to(config.device)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    sched = None
    if config.minutes <= 0:
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=config.lr, total_steps=config.steps, pct_start=0.15
        )
    history = []
    start = time.time()
    from tqdm import tqdm

    bar = tqdm(range(config.steps), disable=not progress, unit="step", desc="corners")
    running = None
    batches = _batches(config, folder)
    steps_done = 0
    for step in bar:
        if sched is None:  # the time budget: the one-cycle curve over steps or minutes
            frac = max(step / config.steps, (time.time() - start) / 60 / config.minutes)
            if frac >= 1:
                break
            for group in opt.param_groups:
                group["lr"] = one_cycle(frac, config.lr)
        x, heat, ignore, reg, mask = (
            torch.from_numpy(a).to(config.device, non_blocking=True) for a in next(batches)
        )
        out = model(x)
        l_heat = focal_loss(torch, out[:, 0], heat, ignore)
        weight = mask.unsqueeze(1)
        denom = mask.sum().clamp(min=1.0)
        l_dir = ((out[:, 1:3] - reg[:, 0:2]).abs() * weight).sum() / denom
        l_size = ((out[:, 3:5] - reg[:, 2:4]).abs() * weight).sum() / denom
        l_off = ((out[:, 5:7] - reg[:, 4:6]).abs() * weight).sum() / denom
        loss = l_heat + l_dir + 0.5 * l_size + 0.5 * l_off
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        steps_done = step + 1
        if step % 50 == 0 or step == config.steps - 1:
            value = float(loss.detach())
            running = value if running is None else 0.9 * running + 0.1 * value
            bar.set_postfix(loss=f"{running:.3f}")
        if step % 200 == 0 or step == config.steps - 1:
            history.append(
                {
                    "step": step,
                    "loss": round(float(running or 0.0), 4),
                    "heat": round(float(l_heat), 4),
                    "dir": round(float(l_dir), 4),
                    "size": round(float(l_size), 4),
                    "offset": round(float(l_off), 4),
                    "minutes": round((time.time() - start) / 60, 2),
                }
            )
    bar.close()
    model = model.cpu()
    minutes = (time.time() - start) / 60
    out_path = Path(config.out)
    export(torch, model, out_path)
    params = sum(p.numel() for p in model.parameters())
    sidecar = {
        "model": out_path.name,
        "outputs": ["heat_logit", "cos", "sin", "log_w/4", "log_h/4", "dx", "dy"],
        "stride": STRIDE,
        "input": "BGR / 255, 1 x 3 x H x W, H and W multiples of 32",
        "parameters": params,
        "train_minutes": round(minutes, 1),
        "steps_done": steps_done,
        "config": asdict(config),
        "history": history,
    }
    val = Path(config.data) / "val"
    if (val / "labels.jsonl").is_file():
        sidecar["validation"] = evaluate(out_path, val)
    out_path.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
    return sidecar


def export(torch: Any, model: Any, path: Path) -> None:
    model.eval()
    dummy = torch.zeros(1, 3, 288, 512)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        dummy,
        str(path),
        input_names=["image"],
        output_names=["maps"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}},
        opset_version=17,
        dynamo=False,
    )


def evaluate(model_path: Path, folder: Path, limit: int | None = None) -> dict[str, float]:
    """Recall of visible index corners and precision of the corners found on rendered scenes
    (a find is right within a third of the card's width of a visible or half-visible corner,
    its direction within 20 degrees, its width within 25 %)."""
    detector = CornerDetector(model_path)
    records = load_labels(folder)[:limit]
    tp = fp = fn = 0
    angle_err: list[float] = []
    for record in records:
        image = cv2.imread(str(folder / record["file"]))
        x, scale = to_input(image, 384)
        found: Corners = merge([decode(detector.run(x), scale)])
        kps = keypoints(record)
        used = set()
        for p, r, width, _h, vis in kps:
            if vis < VISIBLE:
                continue
            d = np.hypot(*(found.points - p).T) if len(found) else np.zeros(0)
            ok = [
                j
                for j in np.argsort(d)
                if d[j] < width / 3
                and j not in used
                and float(found.right[j] @ r) > math.cos(math.radians(20))
                and abs(found.sizes[j, 0] / width - 1) < 0.25
            ]
            if ok:
                used.add(int(ok[0]))
                tp += 1
                angle_err.append(math.degrees(math.acos(min(1.0, float(found.right[ok[0]] @ r)))))
            else:
                fn += 1
        for j in range(len(found)):
            if j in used:
                continue
            near = [
                vis
                for p, _r, width, _h, vis in kps
                if np.hypot(*(found.points[j] - p)) < width / 3 and vis >= HALF_VISIBLE
            ]
            if not near:
                fp += 1
    return {
        "scenes": len(records),
        "recall": round(tp / max(tp + fn, 1), 4),
        "precision": round(tp / max(tp + fp, 1), 4),
        "median_angle_error_deg": round(float(np.median(angle_err)) if angle_err else 0.0, 2),
    }
