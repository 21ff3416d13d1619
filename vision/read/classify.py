"""Name the cards detection found: the ONNX corner-index classifier, one batch per frame.

Why both corners: every card carries its index in two opposite corners, and the upright warp
may come out either way up. The top-left corner and the bottom-right one (turned 180 degrees)
are classified in the same batch and their distributions are multiplied and renormalised (a
product of experts): two corners that agree reinforce each other, one unreadable corner
(glare, blur: a flat distribution) costs little, and two corners that read *different* cards (a
fanned card whose second corner lies under its neighbour, two touching cards taken for one)
cancel out into an unsure reading instead of a wrong one.

Near-square outlines (a card seen obliquely, see ``Detections.ambiguous``) are read both ways
round and the surer reading is kept.

A reading is *unsure* when its confidence is below :data:`CONFIDENCE_THRESHOLD`; the best
label and the whole distribution are still returned (a tracker accumulates them over frames).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.detect.find import Detections
from vision.detect.preprocess import (
    INPUT_CHANNELS,
    INPUT_H,
    INPUT_W,
    LABELS,
    PREPROCESSING,
    corner_crop,
    corner_crop_at,
    corner_crops,
    to_input,
)
from vision.onnx import cpu_session

MODEL_PATH = Path(
    os.environ.get("TRICKCAM_MODEL")
    or Path(__file__).resolve().parents[2] / "models" / "cards.onnx"
)
"""The shipped model (``TRICKCAM_MODEL`` names another); its sidecar is the same path with
``.json``."""

COVERED_MODEL_PATH = Path(
    os.environ.get("TRICKCAM_COVERED_MODEL")
    or Path(__file__).resolve().parents[2] / "models" / "covered.onnx"
)
"""The shipped reader of cards seen by one index corner (``TRICKCAM_COVERED_MODEL`` names
another): the same network and input as ``cards.onnx``, trained on its data plus index corners
with another card lying beside or below them (a fan, a trick, a column), as one corner of a
covered card shows. It reads only the ``one_corner`` rows: whole cards (both corners, and every
card the watcher follows) stay with ``cards.onnx``, which reads unseen designs' whole court
cards better (models/README.md)."""

CONFIDENCE_THRESHOLD = 0.6
"""Below this combined probability the best card is reported as unsure (``card`` None).

Tuned on the real photographs with the first shipped model (``bench/recognition.py --sweep``):
at 0.5 two single photos are named wrong, at 0.6 none; scene F1 is 0.987 from 0.6 to 0.7 and
recall falls above 0.7 (0.94 at 0.9)."""

PARTIAL_THRESHOLD = 0.9
"""The threshold for a card hidden in a fan, read from one corner only (no second corner to
confirm it, and its outline is a guess)."""

COVERED_FROM = 0.7
"""A card read from one corner is read a second time with its corner crop whitened from this
share of the crop's width rightwards (where the card lying on it begins, in a fan or a row
of tricks: the neighbour's edge and big pip, which the classifier never saw beside an index),
and the surer of the two readings is kept. On the real scenes (bench/recognition.py) it named
24 more cards and no wrong one; on rendered held-out designs (bench/onecorner.py --scenes 300
--seed 8) 378 one-corner readings named from 0.9 instead of 347, 4 wrong either way (0.62:
fewer; the bottom whitened instead: many wrong, the suit sign lies there)."""

ONE_CORNER_LOOKS: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, 1.0),
    (-5.0, 0.0, 1.0),
    (5.0, 0.0, 1.0),
    (0.0, -6.0, 1.0),
    (0.0, 6.0, 1.0),
    (0.0, 0.0, 0.9),
    (0.0, 0.0, 1.1),
    (-3.0, -4.0, 1.0),
    (3.0, 4.0, 1.0),
)
"""The looks at a card read from one corner (``dx``, ``dy`` in pixels of the 160 x 240 upright
warp, and a scale: :func:`vision.detect.preprocess.corner_crop_at`): that corner's outline is
a guess from the index-corner detector or a fan's pile, a few pixels off, and one look may
catch the index cut or the neighbour's edge where another does not. Each look is read plain
and covered (:data:`COVERED_FROM`), the surer of the two kept, and the looks' readings are
pooled by their normalised geometric mean: a card is named only when the looks agree. On the
real scenes (bench/recognition.py) it named 15 more cards from one corner at the same
:data:`PARTIAL_THRESHOLD`, none wrong (bidly +5, jonasblanc +5, mabrkr +3); on rendered
held-out layouts (bench/onecorner.py --scenes 300 --seed 8) 405 readings named from 0.9 with
1 wrong, as with one look. The arithmetic mean named fewer at the same wrong count, the
smallest of the looks far fewer."""

ONE_CORNER_BLUR = 0.7
"""Sigma (pixels of the 40 x 72 corner crop) of the Gaussian blur every one-corner look gets
before it is read. A card photographed large and sharp (a phone's 1200 px photo, its corner
warped near one to one and sharpened by the camera) gives crisper index strokes than the
training scenes' upsampled, often blurred corners, and the reader is unsure of them: bidly's
clear fanned indices read right but at 0.6-0.9 (single looks of its right one-corner readings:
62 % at 0.9 or more plain, 70 % blurred by 0.7). Real scenes (bench/recognition.py): bidly
F1 0.870 -> 0.892, notanumber11 0.978 -> 0.981, no set lower (sigma 1.0: jonasblanc lower).
Held-out layouts (bench/onecorner.py --scenes 200), from 0.9: seed 31 381 -> 388 named, 0
wrong; seed 32 343 -> 348, 3 -> 3 wrong; fresh seed 34 407 -> 407, 2 -> 2 wrong."""

ALTERNATIVE_MIN = 0.8
"""A card read the other way round (the less likely reading of its outline) replaces the
first reading only when at least this sure: on the real photographs a sideways view of an
unsure queen once read as 8C at 0.62."""

BLANK_RANGE = 32.0
"""A corner crop whose grey levels span less than this (1st to 99th percentile, of 255) shows
no index: plain table, a shadow's or a glare's edge. A card whose two corners are both that
blank is no card face, whatever the classifier says: it stretches the crop's contrast to
the paper's white, and on a blank crop the two corners look alike, so their product can be
sure (fresh seed 10420 full Clabber, 10 fps: a shadow's edge on the bare table, outlined as
a card, read KD at 0.999 and played as a trick's lead; every later trick shifted). On that
hand's rendered cards the least range was 109, the blank crop's 12."""

RED_INDEX = 0.05
"""A card read from one corner whose best reading is a heart or a diamond has its spades' and
clubs' share struck out (the rest renormalised) when :func:`red_index` of its corner is above
this: the index is printed in red ink, so it is no black card. The classifier alone leaves
much of such a reading on the same rank in the other colour (bidly's thin red indices in dim
warm light: 9D 0.83 beside 9S 0.05, 3D 0.76 beside 3S 0.10), below :data:`PARTIAL_THRESHOLD`.
Every black index of the 27 rendered deck designs here, plain, in warm dim light, or blurred
and compressed, lies under 0.042; 97 % of the red ones over 0.05 (the rest: thin or
washed-out strokes). Only ever a confirmation: a black best reading is never touched, and
black ink is never used to strike out the red cards (red strokes darkened or desaturated by
light and compression look black too often). Measured: models/README.md (`covered.onnx`,
red indices)."""

RED_INK_SHARES: tuple[float, ...] = (0.1, 0.25)
"""The darkest shares of an index window :func:`red_index` takes as its ink: the darkest
tenth holds only the strokes of a thin index (bidly's), the darkest quarter all of a bold
one's; the redder of the two counts (real scenes, bench/recognition.py: with the quarter
alone bidly 0.851, with both 0.870; held-out layouts the same either way)."""

CARD_LABELS: frozenset[str] = frozenset(LABELS[:52])
_BLACK = np.array([i for i, label in enumerate(LABELS[:52]) if label[-1] in "SC"])
_RED = np.array([i for i, label in enumerate(LABELS[:52]) if label[-1] in "HD"])
_EPS = 1e-6


class ModelError(RuntimeError):
    """A model file or sidecar that is missing or does not match the preprocessing contract."""


@dataclass(frozen=True)
class Readings:
    """The classifier's view of N detected cards (parallel arrays).

    ``probs`` N x 54 over ``labels`` (52 cards in ``rules.DECK_52`` order, ``back``, ``none``);
    ``best`` the most probable label; ``confidence`` its probability; ``unsure`` True where the
    confidence is below the threshold. :meth:`card` gives the card code or None.
    """

    labels: tuple[str, ...]
    probs: np.ndarray
    best: tuple[str, ...]
    confidence: np.ndarray
    unsure: np.ndarray
    one_corner: np.ndarray
    """Rows read from one corner (cards hidden in a fan)."""

    def __len__(self) -> int:
        return int(self.probs.shape[0])

    def card(self, i: int) -> str | None:
        """The card code of find ``i``, or None when it is unsure, a back or not a card."""
        if self.unsure[i] or self.best[i] not in CARD_LABELS:
            return None
        return self.best[i]

    def followed_by(self, more: Readings) -> Readings:
        """These readings, then ``more`` (of rows added after them)."""
        return Readings(
            labels=self.labels,
            probs=np.concatenate([self.probs, more.probs]),
            best=self.best + more.best,
            confidence=np.concatenate([self.confidence, more.confidence]),
            unsure=np.concatenate([self.unsure, more.unsure]),
            one_corner=np.concatenate([self.one_corner, more.one_corner]),
        )


def _open(model_path: Path, threads: int) -> tuple[ort.InferenceSession, str]:
    """An onnxruntime session of a card model and its input's name, the input checked."""
    session = cpu_session(model_path, threads, ModelError, "card model")
    inp = session.get_inputs()[0]
    shape = list(inp.shape)
    if len(shape) != 4 or shape[1:] != [INPUT_CHANNELS, INPUT_H, INPUT_W]:
        raise ModelError(
            f"card model {model_path}: input shape {shape} is not "
            f"[N, {INPUT_CHANNELS}, {INPUT_H}, {INPUT_W}]"
        )
    return session, str(inp.name)


def _softmax(x: np.ndarray) -> np.ndarray:
    z = x - x.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def blank_crops(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Per crop (H x W x 3 BGR or H x W grey, all one size), whether it is blank: its grey
    levels span less than :data:`BLANK_RANGE`."""
    if len(crops) == 0:
        return np.zeros(0, bool)
    stack = np.asarray(crops, np.float32)
    grey = stack if stack.ndim == 3 else stack @ np.array([0.114, 0.587, 0.299], np.float32)
    low, high = np.percentile(grey.reshape(len(grey), -1), [1, 99], axis=1)
    return np.asarray(high - low < BLANK_RANGE)


def covered_look(crop: np.ndarray) -> np.ndarray:
    """A corner crop with everything from :data:`COVERED_FROM` of its width rightwards painted
    the paper's colour (each channel's 90th percentile, as :func:`to_input` takes white)."""
    out = np.array(crop, copy=True)
    x0 = round(out.shape[1] * COVERED_FROM)
    paper = np.percentile(out.reshape(-1, out.shape[-1]) if out.ndim == 3 else out, 90, axis=0)
    out[:, x0:] = paper.astype(out.dtype)
    return out


def soften(crop: np.ndarray) -> np.ndarray:
    """A one-corner look blurred by :data:`ONE_CORNER_BLUR` (a Gaussian of that sigma)."""
    return cv2.GaussianBlur(crop, (0, 0), ONE_CORNER_BLUR)


def one_corner_views(card_img: np.ndarray) -> list[np.ndarray]:
    """The corner crops a card read from one corner is read from: each of
    :data:`ONE_CORNER_LOOKS`, softened (:func:`soften`), plain then covered
    (:func:`covered_look`)."""
    views = []
    for dx, dy, scale in ONE_CORNER_LOOKS:
        if (dx, dy, scale) == (0.0, 0.0, 1.0):
            crop = corner_crop(card_img)
        else:
            crop = corner_crop_at(card_img, dx, dy, scale)
        crop = soften(crop)
        views += [crop, covered_look(crop)]
    return views


def pool_looks(probs: np.ndarray) -> np.ndarray:
    """One distribution per row from ``probs`` (rows x looks x 2 x K, as
    :func:`one_corner_views` orders them): the surer of each look's plain and covered
    reading, then the normalised geometric mean over the looks."""
    plain, covered = probs[:, :, 0], probs[:, :, 1]
    surer = np.where((covered.max(-1) > plain.max(-1))[..., None], covered, plain)
    return _softmax(np.log(surer + _EPS).mean(axis=1))


def red_index(crop: np.ndarray) -> float:
    """How red the ink of a corner crop's index is (about 0 or below for black ink, 0.1-0.6
    for red): in the crop's index window (the left 70 %, the top 85 %: a neighbour card's edge
    lies further right), each channel divided by its 90th percentile (the paper's white,
    whatever the light's colour); per pixel, red less the larger of green and blue, less the
    gap between green and blue (a brown table shows through with green far above blue; red
    ink holds them level); the median of that over the darkest pixels (by their darkest
    channel: the ink), for each share of :data:`RED_INK_SHARES`, the largest."""
    c = np.asarray(crop, np.float32)
    h, w = c.shape[:2]
    c = c[: max(1, int(h * 0.85)), : max(1, int(w * 0.7))].reshape(-1, c.shape[-1])
    if c.shape[-1] < 3 or len(c) < 4:
        return 0.0
    white = np.percentile(c, 90, axis=0)
    n = np.clip(c / np.maximum(white, 8.0), 0.0, 1.5)
    darkest = n.min(axis=1)
    redness = n[:, 2] - n[:, :2].max(axis=1) - np.abs(n[:, 1] - n[:, 0])
    order = np.argsort(darkest, kind="stable")
    return max(
        float(np.median(redness[order[: max(1, round(len(order) * share))]]))
        for share in RED_INK_SHARES
    )


def confirm_red(probs: np.ndarray, crops: Sequence[np.ndarray]) -> np.ndarray:
    """``probs`` (N x K, one-corner readings) with the spades and clubs struck out (the rest
    renormalised) of each row whose best reading is a red card and whose corner crop's
    :func:`red_index` is above :data:`RED_INDEX`."""
    out = np.array(probs, np.float32, copy=True)
    for i, crop in enumerate(crops):
        if out[i].argmax() in _RED and red_index(crop) > RED_INDEX:
            out[i, _BLACK] = 0.0
            out[i] /= out[i].sum()
    return out


def combine_corners(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Normalised product of two N x K distributions (see the module docstring): the two
    corners are two independent looks at the same card."""
    log = np.log(a + _EPS) + np.log(b + _EPS)
    return _softmax(log)


def load_sidecar(model_path: Path) -> dict[str, object]:
    """The sidecar of ``model_path``, checked against :mod:`vision.detect.preprocess`."""
    sidecar_path = model_path.with_suffix(".json")
    if not model_path.is_file():
        raise ModelError(f"card model not found: {model_path}")
    if not sidecar_path.is_file():
        raise ModelError(f"card model sidecar not found: {sidecar_path}")
    try:
        sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelError(f"card model sidecar {sidecar_path} unreadable: {exc}") from exc
    if not isinstance(sidecar, dict):
        raise ModelError(f"card model sidecar {sidecar_path}: expected a JSON object")
    labels = sidecar.get("labels")
    if labels != list(LABELS):
        raise ModelError(
            f"card model sidecar {sidecar_path}: labels {labels!r} differ from the 52 cards "
            "in rules.DECK_52 order + 'back' + 'none'"
        )
    prep = sidecar.get("preprocessing")
    if prep is not None and json.loads(json.dumps(PREPROCESSING)) != prep:
        raise ModelError(
            f"card model sidecar {sidecar_path}: preprocessing {prep!r} differs from "
            f"vision.detect.preprocess ({PREPROCESSING!r}); retrain or update the code"
        )
    return sidecar


class _LazyViews(Mapping[int, np.ndarray]):
    """The ambiguous rows of some detections, each warped the other way round on access."""

    def __init__(self, detections: Detections) -> None:
        self.detections = detections
        self.rows = [int(i) for i in np.flatnonzero(detections.ambiguous)]

    def __getitem__(self, row: int) -> np.ndarray:
        if row not in self.rows:
            raise KeyError(row)
        return self.detections.alternative(row)

    def __iter__(self) -> Iterator[int]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


class CardClassifier:
    """The ONNX card classifier (``models/cards.onnx`` + its sidecar ``cards.json``)."""

    def __init__(
        self,
        model_path: Path | str = MODEL_PATH,
        threads: int = 1,
        threshold: float = CONFIDENCE_THRESHOLD,
        covered: Path | str | None = "default",
    ) -> None:
        """``covered``: the reader of one-corner rows (:data:`COVERED_MODEL_PATH`); "default"
        is the shipped one when its file is there, None reads them with ``model_path`` too."""
        self.model_path = Path(model_path)
        self.sidecar = load_sidecar(self.model_path)
        self.threshold = threshold
        self.session, self.input_name = _open(self.model_path, threads)
        self.outputs_probabilities = bool(self.sidecar.get("outputs_probabilities", False))
        if covered == "default":
            covered = COVERED_MODEL_PATH if COVERED_MODEL_PATH.is_file() else None
        self.covered_path = None if covered is None else Path(covered)
        self.covered: tuple[ort.InferenceSession, str] | None = None
        if self.covered_path is not None:
            load_sidecar(self.covered_path)
            self.covered = _open(self.covered_path, threads)

    def _run(
        self, batch: np.ndarray, model: tuple[ort.InferenceSession, str] | None = None
    ) -> np.ndarray:
        """Probabilities N x 54 for a preprocessed batch (by ``model``: a session and its
        input name; default the card model)."""
        if len(batch) == 0:
            return np.zeros((0, len(LABELS)), np.float32)
        session, name = model or (self.session, self.input_name)
        out = np.asarray(session.run(None, {name: batch})[0], np.float32)
        if out.shape != (len(batch), len(LABELS)):
            raise ModelError(f"card model output shape {out.shape}, expected (N, {len(LABELS)})")
        sums = out.sum(axis=1)
        is_prob = (out >= 0).all() and np.allclose(sums, 1.0, atol=1e-3)
        return out if is_prob else _softmax(out)

    def _read(self, images: list[np.ndarray], single: np.ndarray) -> np.ndarray:
        """Combined probabilities for upright card images, one batch (see the module doc);
        rows in ``single`` from their top-left corner alone, its looks pooled (see
        :data:`ONE_CORNER_LOOKS`)."""
        crops = [c for img in images for c in corner_crops(img)]
        if not crops:
            return np.zeros((0, len(LABELS)), np.float32)
        rows = np.flatnonzero(single)
        looks = [view for i in rows for view in one_corner_views(images[i])]
        n = len(crops)
        if self.covered is None:
            probs = self._run(to_input(crops + looks))
            one = probs[n:]
        else:
            probs = self._run(to_input(crops))
            one = self._run(to_input(looks), self.covered)
        combined = combine_corners(probs[0:n:2], probs[1:n:2])
        # a card whose both corners are blank is no card face (see BLANK_RANGE)
        blank = blank_crops(crops).reshape(-1, 2).all(axis=1) & ~np.asarray(single, bool)
        blank &= combined.argmax(axis=1) < len(CARD_LABELS)
        if blank.any():
            combined[blank] = 0.0
            combined[blank, LABELS.index("none")] = 1.0
        if len(rows):
            pooled = pool_looks(one.reshape(len(rows), len(ONE_CORNER_LOOKS), 2, -1))
            # the centre look's plain crop (one_corner_views' first)
            combined[rows] = confirm_red(
                pooled, [looks[k * 2 * len(ONE_CORNER_LOOKS)] for k in range(len(rows))]
            )
        return combined

    def read_cards(
        self,
        cards: np.ndarray,
        alternatives: Mapping[int, np.ndarray] | None = None,
        one_corner: np.ndarray | None = None,
    ) -> Readings:
        """Classify upright card images (N x H x W x 3) in one batch.

        ``alternatives`` maps a row to a second warp of the same card (read the other way
        round). Only rows whose first reading is not a sure card are read again that way, in
        a second batch (most frames need none: reading every card both ways would double the
        classifier's time), and the surer reading is kept. Rows flagged in ``one_corner``
        (cards hidden in a fan) are read from their top-left corner alone and need
        :data:`PARTIAL_THRESHOLD`.
        """
        alternatives = alternatives or {}
        n = len(cards)
        single = np.zeros(n, bool) if one_corner is None else np.asarray(one_corner, bool)
        result = self._read(list(cards), single)
        limits = np.where(single, PARTIAL_THRESHOLD, self.threshold)
        retry = [
            row
            for row in alternatives
            if result[row].argmax() >= 52 or result[row].max() < limits[row]
        ]
        if retry:
            again = self._read([alternatives[row] for row in retry], single[retry])
            for row, alt in zip(retry, again, strict=True):
                if alt[:52].max() >= max(ALTERNATIVE_MIN, result[row][:52].max()):
                    result[row] = alt
        return self._readings(result, single)

    def classify(self, detections: Detections) -> Readings:
        """Read every card of a frame's detections in one batch."""
        alternatives = _LazyViews(detections)
        one_corner = detections.one_corner if len(detections.one_corner) else None
        return self.read_cards(detections.crops, alternatives, one_corner)

    def _readings(self, probs: np.ndarray, single: np.ndarray | None = None) -> Readings:
        idx = probs.argmax(axis=1) if len(probs) else np.zeros((0,), np.int64)
        confidence = probs[np.arange(len(probs)), idx].astype(np.float32)
        one_corner = np.zeros(len(probs), bool) if single is None else np.asarray(single, bool)
        return Readings(
            labels=LABELS,
            probs=probs.astype(np.float32),
            best=tuple(LABELS[i] for i in idx),
            confidence=confidence,
            unsure=confidence < np.where(one_corner, PARTIAL_THRESHOLD, self.threshold),
            one_corner=one_corner,
        )
