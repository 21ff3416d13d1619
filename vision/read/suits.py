"""Read a card's suit from its whole face: a second opinion on the suit that never reads the index.

Why: the card classifier (``models/cards.onnx``) reads only the index corners. On deck designs
it never saw, a club's index and a spade's look alike at a few pixels (bellot's tiny index
signs, plastic's index so big that the corner crop keeps only the top of its sign), and it
reads an ace or a court club as the spade, or the other way round, sometimes surely
(``models/README.md``). The rest of the face says the suit again, bigger: an ace's big middle
sign, a court's suit sign beside its picture, a number card's pips. ``models/suits.onnx`` is a
small CNN that looks at the whole upright card (the same warp the classifier's corners are cut
from, shrunk to :data:`SUIT_W` x :data:`SUIT_H`) and names its suit; the watcher weighs the
suit its views agree on surely (:func:`with_suit`), weighs the suit they only lean to less
(:func:`with_lean`), and marks a play whose index says another (:func:`suit_doubt`), as it
does with the pips counted in the middle (``vision.read.pips``), or one read not quite surely
whose face does not plainly show its suit (:func:`suit_unbacked`).

Trained by ``trickcam train --suits`` (``vision/train/suits.py``) on the same rendered decks
as the classifier, the same three designs held out; onnxruntime only, never torch.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from rules.cards import DECK_52
from vision.detect.preprocess import WHITE_PERCENTILE, channel_percentile
from vision.onnx import cpu_session
from vision.read.classify import ModelError
from vision.read.decode import LOOKALIKE_SURE

SUITS = "SHDC"
"""The model's classes, in its output order (the suit letters of ``rules.cards``)."""

SUIT_W, SUIT_H = 64, 96
"""The whole upright card is read at this size (pixels): an ace's middle sign, a court's
suit sign and a 10's pips are still several pixels across."""

SUIT_MODEL_PATH = Path(
    os.environ.get("TRICKCAM_SUIT_MODEL")
    or Path(__file__).resolve().parents[2] / "models" / "suits.onnx"
)
"""The shipped suit model (``TRICKCAM_SUIT_MODEL`` names another); its sidecar is the same
path with ``.json``."""

SUIT_SURE = 0.93
"""A view's suit counts as evidence only when the model gives it at least this probability (a
hand over the card, a blurred far card: no opinion)."""

SUIT_AGAINST = 1e-4
"""How much less likely a card is made whose suit is not the one the views agree on (its
probability is multiplied by this, as :data:`vision.read.pips.PIPS_AGAINST`): it outweighs an
index read at 0.9995 on a design the classifier never saw (bellot's ace of clubs read AS), and
the model is sure of a wrong suit far more rarely (``bench/suits.py``: none of the held-out
designs' 4,000 rendered views nor of 268 real rectified photographs). A play whose index says
another suit is marked for a person all the same (:func:`suit_doubt`)."""


_EPS = 1e-6


class SuitModelError(ModelError):
    """The suit model or its sidecar is missing or does not match this code."""


def suit_input(cards: Sequence[np.ndarray]) -> np.ndarray:
    """Upright BGR card images (any size) as the suit model's float32 NCHW batch: each shrunk
    to ``SUIT_W x SUIT_H``, its channels divided by their ``WHITE_PERCENTILE`` percentile (the
    paper made white), then standardised to mean 0 and std 1."""
    batch = []
    for card in cards:
        c = np.asarray(card)
        if c.ndim == 2:
            c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
        c = c[:, :, :3]
        if c.shape[:2] != (SUIT_H, SUIT_W):
            c = cv2.resize(c, (SUIT_W, SUIT_H), interpolation=cv2.INTER_AREA)
        batch.append(c)
    if not batch:
        return np.zeros((0, 3, SUIT_H, SUIT_W), np.float32)
    x = np.stack(batch).astype(np.float32)
    x = x / np.maximum(channel_percentile(x, WHITE_PERCENTILE), 8.0)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / np.maximum(std, 0.02)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32)


SUIT_PREPROCESSING: dict[str, object] = {
    "input": [3, SUIT_H, SUIT_W],
    "resize": "cv2.INTER_AREA from the upright warp",
    "white_percentile": WHITE_PERCENTILE,
    "standardise": "per image",
    "classes": SUITS,
}
"""What the sidecar must record for :class:`SuitReader` to accept a model."""


class SuitReader:
    """``models/suits.onnx``: suit probabilities (N x 4 over :data:`SUITS`) of upright cards."""

    def __init__(self, model_path: Path | str = SUIT_MODEL_PATH, threads: int = 1) -> None:
        self.model_path = Path(model_path)
        sidecar_path = self.model_path.with_suffix(".json")
        if not self.model_path.is_file() or not sidecar_path.is_file():
            raise SuitModelError(f"suit model or its sidecar not found: {self.model_path}")
        try:
            sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise SuitModelError(f"suit model sidecar {sidecar_path} unreadable: {exc}") from exc
        prep = sidecar.get("preprocessing") if isinstance(sidecar, dict) else None
        if json.loads(json.dumps(SUIT_PREPROCESSING)) != prep:
            raise SuitModelError(
                f"suit model sidecar {sidecar_path}: preprocessing {prep!r} differs from "
                f"vision.read.suits ({SUIT_PREPROCESSING!r}); retrain or update the code"
            )
        self.sidecar = sidecar
        self.session = cpu_session(self.model_path, threads, SuitModelError, "suit model")
        self.input_name = self.session.get_inputs()[0].name

    def __call__(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        if len(cards) == 0:
            return np.zeros((0, len(SUITS)), np.float32)
        logits = np.asarray(
            self.session.run(None, {self.input_name: suit_input(cards)})[0], np.float32
        )
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


SUIT_LEAN = 0.55
"""The views together (their normalised geometric mean) leaning this much to one suit is
enough to doubt an index that says another (the lean itself weighs only softly,
:data:`SUIT_WEIGHT`, never as a sure suit does): a far, blurred card's
middle sign the model is not sure of (``bench/suits.py``; on the held-out designs' rendered
views one view in 4,000 leans 0.75 to a wrong suit). Lowered from 0.75 (session 2026-12-03,
fourteenth): fresh seed 10160's bellot AC, read AS at 0.997 from its index, leaned 0.73 to
clubs over its two views and went unmarked; over 2,567 plays of six watch runs (seeds 10112,
10113, 10130, 10131, 10160, 10161; four designs) no right play leans even 0.6 to another
suit, so the lower threshold marks no right play there. Lowered from 0.7 to 0.6 (session
2026-12-04, twenty-first): fresh seed 10422's oblique Klaberjass, plastic's KS read KC at
0.98 on all six views, its face leaning 0.76 to spades on the first two, 0.65 on the later
four: 0.69 together, unmarked; its two other readings in that run leaned 0.61 and 0.75. Over
the 1,274 right plays of seeds 10420-10422 (three designs, 10 and 30 fps, every level; each
play's views scanned once) none leaned even 0.55 to another suit. Lowered from 0.6 to 0.55
(session 2026-12-06, thirty-third): fresh seed 10592's hands Clag, plastic's KS read KC at
0.996 over six views, its face leaning 0.56 to spades (0.36 to clubs), unmarked and wrong.
Over the 10,750 plays of the kept renders of seeds 10559-10584 (three designs, 10 and 30 fps,
every level; each play's face as the bench dumps it) five unmarked plays' faces leaned more
to another suit than to their own, all right: one 0.59 (a JC, marked now), the others
0.46-0.52."""


SUIT_WEIGHT = 1.5
"""How much the views' lean weighs (:func:`with_lean`): each card's probability is multiplied by
its suit's share of the views' normalised geometric mean raised to this power. Raised from 0.5
(session 2026-12-07, thirty-ninth): in 5 of the 7 misreads of 42 fresh Clag-only 30 fps seeds
(10639-10680) the face leaned 0.76-0.90 to the right suit while the index was split between the
two suits of one colour (bellot's AC read AS 0.84 with its face 0.84 a club, plastic's 3C read
3S 0.84 with its face 0.90 a club), and a square root of that lean did not turn them. At 1.5 all
five are named right (still marked: their index says the other suit, :func:`suit_doubt`), and so
are the kept renders' plastic JC read JS twice (seed 10628) and KC read KS (10636); over the
2,880 plays of those renders and of the kept renders of 10613, 10615, 10622, 10623 no right play
is made wrong, and 68 right plays read surer are no longer marked. ``bench/suits.py`` on worn
single faces, wear seeds 1-3, 0.5 -> 1.5: held-out designs 462 -> 466 of 468 named right,
trained designs 3,608 -> 3,626 of 3,744, right made wrong 1 -> 1 a seed (the same kde-penguins
AS), real rectified photographs 268 -> 268 each. Replaying the dumped plays of every fresh run
from seed 10612 to 10680 (``bench/leanreplay.py``, 13,712 plays: each play against its rank in
another suit), 1.5 turns seven misread plays right (the five above, 10628's two) and no right
play wrong; 2.0 would turn one right play wrong too (10628's full Belote JC, read 0.53, its face
leaning 0.41 to spades). Fresh seeds run once at 1.5 (10681-10733, 5,770 plays) and replayed at
0.5: 16 plays read right would have been misread, none the other way (README). First measured at
0.5 on worn single faces, one seed (``bench/suits.py``: shrunk, blurred, tinted; one view each,
index read by the classifier, sure suits weighed as before): held-out designs 153 -> 154 of 156
named right, trained designs 1191 -> 1199 of 1,248 with one right made wrong (kde-penguins' AS,
its index 0.51 against AC, its face leaning 0.8 to clubs: close, so marked in a hand), real
rectified photographs 268 -> 268. Over three wear seeds 30 faces made right, 2 made wrong, both
novelty designs read close; at weight 1.0 more of both. Fresh seed 10232's plastic JC, read JS
0.68 from its index while its face leaned 0.75 to clubs, moves to 0.55 JS (marked, as before);
development seed 10184's light Clabber AC/AS swap (both marked) is read right."""


def _lean(views: Sequence[np.ndarray]) -> np.ndarray:
    """The views' suit probabilities together: their normalised geometric mean."""
    log = np.mean([np.log(np.asarray(v, np.float64) + _EPS) for v in views], axis=0)
    lean = np.exp(log - log.max())
    lean /= lean.sum()
    return lean


def with_lean(probs: np.ndarray, views: Sequence[np.ndarray]) -> np.ndarray:
    """``probs`` (over ``vision.detect.preprocess.LABELS``) weighed by the suit the views
    lean to (their normalised geometric mean, :data:`SUIT_WEIGHT`): a club's index read as a
    spade's at 0.84 while the face leans 0.8 to clubs is named the club; an index read at 0.99
    is not turned by that lean. Only the
    cards are weighed, among themselves: a back's or no card's probability is kept. Unchanged
    without views."""
    if not len(views):
        return probs
    lean = _lean(views)
    out = np.array(probs, np.float64, copy=True)
    n = min(len(_CARD_SUIT), len(out))
    mass = float(out[:n].sum())
    out[:n] *= np.power(lean[_CARD_SUIT[:n]], SUIT_WEIGHT)
    out[:n] *= mass / max(float(out[:n].sum()), 1e-300)
    return out


def sure_suits(probs: np.ndarray | Sequence[np.ndarray]) -> list[str]:
    """The suit of each row the model is sure of (:data:`SUIT_SURE`), rows it is not left out."""
    return [SUITS[int(np.argmax(p))] for p in probs if float(np.max(p)) >= SUIT_SURE]


def consensus(suits: Sequence[str]) -> str | None:
    """The suit the views agree on: one that more than two thirds of the sure views give (and
    at least two of them), or None."""
    if len(suits) < 2:
        return None
    common, votes = Counter(suits).most_common(1)[0]
    return common if votes > 2 * (len(suits) - votes) else None


_SUIT_LIKELIHOOD: dict[str, np.ndarray] = {
    s: np.array([1.0 if c.suit.value == s else SUIT_AGAINST for c in DECK_52] + [1.0, 1.0])
    for s in SUITS
}
"""Per suit, the factor :func:`with_suit` gives each label (52 cards, then back and none)."""

_CARD_SUIT = np.array([SUITS.index(c.suit.value) for c in DECK_52])
"""Each card label's suit, as the model's class index (:func:`with_lean`)."""


def leaning(views: Sequence[np.ndarray]) -> str | None:
    """The suit the views together lean to (:data:`SUIT_LEAN`), or None."""
    if not len(views):
        return None
    p = _lean(views)
    return SUITS[int(np.argmax(p))] if float(np.max(p)) >= SUIT_LEAN else None


def with_suit(probs: np.ndarray, views: Sequence[np.ndarray]) -> np.ndarray:
    """``probs`` (over ``vision.detect.preprocess.LABELS``) with the suit the views (the suit
    model's probabilities, one row per view) agree on as evidence: every card of another suit
    made :data:`SUIT_AGAINST` times less likely, renormalised. Unchanged when the views do not
    agree surely."""
    s = consensus(sure_suits(views))
    if s is None:
        return probs
    out = np.array(probs, np.float64, copy=True)
    out *= _SUIT_LIKELIHOOD[s][: len(out)]
    return out / max(float(out.sum()), 1e-12)


FACE_BACKS = 0.75
"""A card read from its index at less than ``vision.read.decode.LOOKALIKE_SURE`` (the
classifier's look-alikes, a club's index read as the spade's, come at 0.95-0.97) is marked
unless its face, where seen, leans at least this much to the card's suit
(:func:`suit_unbacked`). Session 2026-12-06 (thirty-first): fresh seed 10562's light Clag
QC, blurred and compressed, read QS 0.97 (runner-up KS, so not marked as a look-alike) and
its one face view leaned only 0.59 to spades (0.37 to clubs): unmarked and wrong. Over the
kept renders of seeds 10559-10564 (2,579 plays, three designs, 10 and 30 fps, every level),
41 unmarked plays read under 0.99: 34 of their faces leaned 0.9 or more to the suit read,
four 0.82-0.90, one 0.70 (a right 10C, marked now), one QS 0.59 (the wrong one); one had no
face view (left as it was)."""


def suit_share(views: Sequence[np.ndarray], suit: str) -> float:
    """The share of ``suit`` in the views' normalised geometric mean (the lean of
    :func:`leaning`); 0 without views."""
    return float(_lean(views)[SUITS.index(suit)]) if len(views) else 0.0


def suit_unbacked(card: str, probability: float, views: Sequence[np.ndarray]) -> str:
    """Why ``card`` (e.g. ``"QS"``), read at ``probability``, is in doubt because its face
    does not back its suit (:data:`FACE_BACKS`; empty when it does, when the reading is sure
    beyond its look-alikes, or when no face was seen)."""
    if probability >= LOOKALIKE_SURE or not len(views):
        return ""
    share = suit_share(views, card[-1])
    if share >= FACE_BACKS:
        return ""
    name = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}[card[-1]]
    return (
        f"{card} is read at {probability:.2f} and its face does not plainly show a {name} "
        f"({share:.2f})"
    )


def suit_doubt(index_card: str, views: Sequence[np.ndarray]) -> str:
    """Why a card whose index reads ``index_card`` (e.g. ``"AC"``) is in doubt given the suit
    model's look at its views (empty when it is not): they agree surely on another suit, or
    together lean to one (:func:`leaning`)."""
    sure = consensus(sure_suits(views))
    s = sure or leaning(views)
    if s is None or index_card.endswith(s):
        return ""
    name = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}[s]
    shows = "shows" if sure else "looks more like"
    return f"its index reads {index_card} but its face {shows} a {name}"
