"""Count the pips on a number card: a second opinion on its rank that never looks at the index.

Why: the classifier reads only the index corners, and on deck designs it never saw it confuses
indices that look alike (8 and 9, 6 or 8 and 10) while staying sure. The middle of a number
card says its rank a second way: it carries as many suit signs (pips) as its rank, all of one
size, laid out point-symmetrically. Counting them on the upright warp (the image the classifier
gets, ``vision.detect.preprocess.warp_quad``) is independent evidence; where it disagrees with
the index, one of the two is wrong and a person should look.

The count is an opinion only when the middle plainly shows pips: ink blobs of one size, apart
from each other, none so big it could be two pips run together, nothing else pip-sized reaching
out of the counted area (but a pip run into its index beside it, which must mirror a pip clear
of the margin), laid out in point-symmetric pairs (but a 7's extra pip on the middle line), or one pip
alone at the very middle (an ace drawn with a small sign). A court card, an ace's big pip, a card under a hand or in a shadow, a blurred far card gives no
opinion (None): counting never names a card; the watcher weighs a count its views agree on
(:func:`with_pips`) and marks a play whose index says otherwise (:func:`pips_doubt`).

numpy + OpenCV only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from rules.cards import DECK_52, Card, Rank

COUNT_W, COUNT_H = 80, 120
"""Pips are counted on the card at this size (pixels): a 10's pips are still some 15 px
across, and a count costs a fraction of a millisecond."""

MARGIN_X, MARGIN_Y = 0.06, 0.05
"""The counted area leaves this fraction of the card's width and height at each side (the
outline's wobble, the table round the card, the card's own border)."""

INDEX_W, INDEX_H = 0.20, 0.32
"""The index corners (top-left and bottom-right, and the other two for decks with four
indices) are left out: this fraction of the width and height from each corner."""

INK = 0.62
"""A pixel is ink when its darkest channel, divided by the paper's white, is under this, or
when it is plainly red (red over the other channels by ``RED``)."""
RED = 0.22

PIP_AREA = (0.004, 0.045)
"""A pip's area, as a fraction of the card's: the smallest pip of a busy 10 on a small index
deck to the biggest of a 2 (an ace's big pip and court pictures are bigger)."""

SAME_SIZE = 0.45
"""Every counted blob's area lies within this fraction of the median's (two pips run
together are twice the size: no opinion then)."""

SPECKS = 0.25
"""Ink blobs smaller than this share of the median pip are specks (noise, a pip's corner
index figure) and are ignored; bigger blobs that are not pip-sized end the count."""

OVERLAP = 0.3
"""Two pips' boxes overlap by at most this share of the smaller box (a 10's pips lie close,
their boxes may touch; a sign drawn inside a ring lies wholly in the ring's box)."""

LOOSE_INK = 0.3
"""Ink in the middle outside the counted pips (specks, bits of a pip glare washed out) adds up
to at most this share of one pip; more and the count gives no opinion."""

RUN_IN = 1.15
"""A pip run into its index is at least this much bigger than the median pip (an index's
own suit sign, beside it, is not)."""

RUN_IN_MAX = 1.6
"""... and at most this much bigger: the pip and a piece of its index (bellot's 6H, the
bottom pip joined to the upside-down index's sign in a soft far view, 1.5 pips: fresh seed
10220 read it 10H, no count to say otherwise); two pips run together are twice one."""
PAIR_TOLERANCE = 0.07
"""Two pips are a point-symmetric pair when one lies within this distance of the other's
mirror image through the card's middle (the card's width and height each counted as 1)."""

MIDDLE_ROW = 0.1
"""Pips within this share of the card's height of its middle line lie on the middle row."""
PIP_SPAN = 0.4
"""No pip's box reaches across more than this share of the card's width or height (a pip
run into its index beside it: about a third of the width; kde-ancient-egyptians' index signs
joined to its border's brackets reach across two thirds: its 2C counted 4)."""


def ink_mask(card: np.ndarray) -> np.ndarray:
    """Ink pixels (uint8 0/255) of an upright BGR card image, white-balanced on its paper
    (each channel over its 90th percentile)."""
    chans = [np.ascontiguousarray(card[:, :, c]) for c in range(3)]
    k = int(0.9 * (chans[0].size - 1))
    white = [max(float(np.partition(c.ravel(), k)[k]), 8.0) for c in chans]
    dark = np.zeros(card.shape[:2], bool)
    for c, wc in zip(chans, white, strict=True):
        dark |= c < INK * wc
    b, g, r = (
        c.astype(np.float32) * np.float32(1.0 / wc) for c, wc in zip(chans, white, strict=True)
    )
    red = (r - np.maximum(b, g)) > RED
    return ((dark | red) * 255).astype(np.uint8)


def _at_count_size(card: np.ndarray) -> np.ndarray | None:
    """An upright BGR card image at ``COUNT_W x COUNT_H``, or None when it is no colour image
    of at least 8 x 8 pixels."""
    if card.ndim != 3 or card.shape[0] < 8 or card.shape[1] < 8:
        return None
    if card.shape[:2] != (COUNT_H, COUNT_W):
        card = cv2.resize(card, (COUNT_W, COUNT_H), interpolation=cv2.INTER_AREA)
    return card


def count_pips(card: np.ndarray) -> int | None:
    """The number of pips in the middle of an upright card image (any size, BGR; counted at
    ``COUNT_W x COUNT_H``), or None when the middle does not plainly show 1 to 10 pips (a
    lone one at the very middle: an ace's small sign; see the module docstring)."""
    card = _at_count_size(card)
    if card is None:
        return None
    h, w = card.shape[:2]
    mx, my = round(w * MARGIN_X), round(h * MARGIN_Y)
    ink = np.zeros((h, w), np.uint8)
    ink[my : h - my, mx : w - mx] = ink_mask(card)[my : h - my, mx : w - mx]
    n, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    stats, centroids = stats[1:], centroids[1:]
    sizes = stats[:, cv2.CC_STAT_AREA].astype(np.float64) / (h * w)
    x0, y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1, y1 = x0 + stats[:, cv2.CC_STAT_WIDTH], y0 + stats[:, cv2.CC_STAT_HEIGHT]
    # cut by the margin: a piece of the table or the card's border, or a pip partly hidden
    edge = (x0 <= mx) | (x1 >= w - mx) | (y0 <= my) | (y1 >= h - my)
    iw, ih = w * INDEX_W, h * INDEX_H
    index = ((x1 <= iw) | (x0 >= w - iw)) & ((y1 <= ih) | (y0 >= h - ih))
    cand = ~edge & ~index & (sizes >= PIP_AREA[0] * SPECKS)
    loose = ~edge & ~index & ~cand
    if not cand.any():
        return None
    median = float(np.median(sizes[cand]))
    if not PIP_AREA[0] <= median <= PIP_AREA[1]:
        return None
    # at the margin beside an index corner, a blob a pip's size that mirrors another pip is
    # that pip, run into the index beside it in a soft view; anything else at the margin the
    # size of a pip's part or more ends the count (a picture, a finger, a shadow, a pip the
    # margin cut, a border's ornament)
    rim = edge & ~index & (sizes >= SPECKS * median)
    # ... but a piece smaller than a pip at the margin, its middle in an index corner, is a
    # piece of the index: a 10's two figures reach out of the corner (plastic's 10s, even
    # clean, gave no count)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    corner = ((cx <= iw) | (cx >= w - iw)) & ((cy <= ih) | (cy >= h - ih))
    rim &= ~(corner & (sizes < (1 - SAME_SIZE) * median))
    by_index = ((x0 < iw) | (x1 > w - iw)) & ((y0 < ih) | (y1 > h - ih))
    if (rim & ~by_index).any():
        return None
    # (a pip run into its index carries a piece of the index with it: up to RUN_IN_MAX pips)
    if (sizes[rim] < (1 - SAME_SIZE) * median).any() or (sizes[rim] > RUN_IN_MAX * median).any():
        return None
    pips = (cand | rim) & (sizes >= SPECKS * median)
    # ink in bits (a pip washed out by glare, a noisy dark frame): the count may be short
    if sizes[loose | (cand & ~pips)].sum() > LOOSE_INK * median:
        return None
    if (np.abs(sizes[pips & ~rim] - median) > SAME_SIZE * median).any():
        return None
    count = int(pips.sum())
    # a pip is small: a thin line with a sign on it (a border's bracket run into an index's
    # sign) is no pip, whatever its area
    if (stats[pips, cv2.CC_STAT_WIDTH] > PIP_SPAN * w).any() or (
        stats[pips, cv2.CC_STAT_HEIGHT] > PIP_SPAN * h
    ).any():
        return None
    if not 1 <= count <= 10:
        return None
    if count == 1:
        # one sign the size of a pip, alone at the very middle: an ace drawn with a small
        # sign (tigullio's AS, development seed 10111 light Clag, read 2S); a big one gives
        # no opinion (above), nor does a sign anywhere else (a pip a hand left uncovered)
        mid = centroids[pips][0] / np.array([w, h], np.float64)
        if (np.abs(mid - 0.5) > PAIR_TOLERANCE).any():
            return None
        return 1
    # pips lie apart: one inside another's box is a sign drawn in a ring (bellot's ace of
    # clubs), not two pips
    bx0, by0, bx1, by1 = x0[pips], y0[pips], x1[pips], y1[pips]
    ox = np.minimum(bx1[:, None], bx1[None, :]) - np.maximum(bx0[:, None], bx0[None, :])
    oy = np.minimum(by1[:, None], by1[None, :]) - np.maximum(by0[:, None], by0[None, :])
    overlap = np.clip(ox, 0, None) * np.clip(oy, 0, None)
    box = (bx1 - bx0) * (by1 - by0)
    np.fill_diagonal(overlap, 0)
    if (overlap > OVERLAP * np.minimum(box[:, None], box[None, :])).any():
        return None
    # each pip's box's middle, mirrored through the card's: a heart's ink lies mostly in its
    # top half, so the middle of its ink is no mirror image of an upside-down heart's
    # (bellot's 6H, its middle pips drawn a little above the middle line as well, gave no
    # count: fresh seed 10161 read it 10H)
    pts = np.column_stack([(bx0 + bx1) / 2, (by0 + by1) / 2]) / np.array([w, h], np.float64)
    d = np.linalg.norm(pts[:, None, :] - (1.0 - pts)[None, :, :], axis=2)
    # two pips side by side on the middle row mirror each other across it, wherever on the
    # row they lie (bellot's 6H and 6D draw that row a little above the middle line: in a
    # soft far view 0.08 off; fresh seed 10220 read its 6H 10H)
    row = np.abs(pts[:, 1] - 0.5) <= MIDDLE_ROW
    across = np.abs(pts[:, None, 0] - (1.0 - pts)[None, :, 0])
    level = np.abs(pts[:, None, 1] - pts[None, :, 1])
    side = row[:, None] & row[None, :] & (level <= PAIR_TOLERANCE) & (across <= PAIR_TOLERANCE)
    d = np.where(side, np.minimum(d, across), d)
    alone = d.min(axis=1) > PAIR_TOLERANCE
    # a 7's extra pip on the middle line is the only pip without its mirror image
    if alone.sum() > 1 or (np.abs(pts[alone, 0] - 0.5) > PAIR_TOLERANCE).any():
        return None
    # ... and a pip at the margin mirrors a pip clear of it (an index's own suit sign the
    # size of a pip, below the index, mirrors the other index's)
    at_rim = rim[pips]
    clear_mirror = d[np.ix_(at_rim, ~at_rim)].min(axis=1, initial=np.inf) <= PAIR_TOLERANCE
    # ... or is, like its mirror, bigger than a pip: both pips run into their indices
    run_in = sizes[pips][at_rim] >= RUN_IN * median
    rim_mirror = (d[np.ix_(at_rim, at_rim)] <= PAIR_TOLERANCE) & run_in[None, :]
    if (~clear_mirror & ~(run_in & rim_mirror.any(axis=1))).any():
        return None
    return count


NUMBER_PIPS: dict[Rank, int] = {r: int(r.value) for r in Rank if r.value.isdigit()}
"""How many pips each number rank shows in its middle."""

PIP_COUNTS: dict[Rank, int] = {**NUMBER_PIPS, Rank.ACE: 1}
"""... and an ace, whose one sign is counted when it is the size of a pip (a big one is not)."""

PIPS_AGAINST = 1e-4
"""How much less likely a card is made whose pips are not the count the views agree on (its
probability is multiplied by this): a count is wrong far more rarely than the classifier is
on an index it never saw (``bench/pips.py``: none wrong, and no court card or ace counted, on
the 27 designs' 2,808 faces, clean and worn, nor on 268 real rectified photographs), but it
is one look at the card, not proof."""


def consensus(counts: Sequence[int]) -> int | None:
    """The pip count the views agree on: one that more than two thirds of the views that
    counted give, or None."""
    if not counts:
        return None
    common, votes = Counter(counts).most_common(1)[0]
    return common if votes > 2 * (len(counts) - votes) else None


def with_pips(probs: np.ndarray, counts: Sequence[int]) -> np.ndarray:
    """``probs`` (over ``vision.detect.preprocess.LABELS``: 52 cards, back, none) with the
    counts agreed on as evidence: every label but the cards with that many pips (a court
    card, an ace, another rank, and a back or no card at all: pips counted are a number
    card's face) made :data:`PIPS_AGAINST` times less likely, renormalised. A count of one
    (an ace's small sign) speaks only among the cards: a back or no card keeps its
    likelihood (a lone blob in the middle of anything counts one). Unchanged when the views
    do not agree on a count."""
    n = consensus(counts)
    if n is None:
        return probs
    out = np.array(probs, np.float64, copy=True)
    out *= _PIPS_LIKELIHOOD[n][: len(out)]
    return out / max(float(out.sum()), 1e-12)


_PIPS_LIKELIHOOD: dict[int, np.ndarray] = {
    n: np.array(
        [1.0 if PIP_COUNTS.get(c.rank) == n else PIPS_AGAINST for c in DECK_52]
        + [1.0 if n == 1 else PIPS_AGAINST] * 2
    )
    for n in range(1, 11)
}
"""Per count, the factor :func:`with_pips` gives each label (52 cards, then back and none)."""


def pips_doubt(index_card: Card, counts: Sequence[int]) -> str:
    """Why a card whose index reads ``index_card`` is in doubt given the pip counts of its
    views (empty when it is not): the views agree on a count that is not the card's. A
    court card or an ace read where the middle plainly shows pips is in doubt too."""
    n = consensus(counts)
    own = PIP_COUNTS.get(index_card.rank)
    if n is None or n == own:
        return ""
    return f"its index reads {index_card} but its middle shows {n} pip{'s' if n > 1 else ''}"


PICTURE = 0.18
"""A card's middle (between its index columns, :data:`INDEX_W`, and inside :data:`PICTURE_Y`
of its top and bottom) shows a picture when one ink blob there covers at least this share of
the whole card: a court's figure (``bench/pips.py``: 74-77 % of the 324 court faces of the 27
designs, clean, worn, or blurred by a Gaussian of 4 px), or a hand, a shadow or the table
where an outline went wrong. A number card's pips, a few run together, reach 0.094 clean,
0.117 worn, 0.161 blurred (9 or 10 pips in one blob) at most on their 972 faces each; in the
watcher's soft views of fresh seed 10574, plastic's 9C reached 0.12-0.13 (at 0.12 it was
taken for a picture four times), its QH read 7H 0.23."""

PICTURE_Y = 0.15
"""The share of the card's height at its top and bottom left out of the middle looked at
for a picture (the indices and the border's ornaments)."""


def shows_picture(card: np.ndarray) -> bool:
    """Does the middle of an upright card image (any size, BGR) show one ink blob as big as
    a court's picture (:data:`PICTURE`)? Never on a number card's pips; it says the card is
    no number card, whatever its index reads."""
    card = _at_count_size(card)
    if card is None:
        return False
    h, w = card.shape[:2]
    x0, y0 = round(w * INDEX_W), round(h * PICTURE_Y)
    ink = ink_mask(card)[y0 : h - y0, x0 : w - x0]
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= PICTURE * h * w


PICTURE_AGAINST = 0.1
"""How much less likely a number card is made where the views agree that the card's middle
shows a picture (:func:`with_picture`; its probability is multiplied by this). On the 27
designs' clean, worn and blurred number faces no blob reaches :data:`PICTURE` (``bench/pips.py``);
in the watcher, a hand or a shadow over a number card's middle can join its pips into one: on
kept development renders (seeds 10611-10668 and 10730, mostly Clag; 2,022 plays followed whole,
session fortieth) 2 of 1,353 number cards had views agreeing on a picture, against 453 of 487
court cards.
A tenth, not the near-certainty that ratio gives: the views of one card are not independent
looks, and a hand that joins pips once lies there for several frames."""


def with_picture(probs: np.ndarray, pictures: Sequence[bool]) -> np.ndarray:
    """``probs`` (over ``vision.detect.preprocess.LABELS``: 52 cards, back, none) with a
    picture the views agree on (more than two thirds of them, :func:`shows_picture`) as
    evidence: every number card made :data:`PICTURE_AGAINST` times less likely than the
    courts and aces (an ace's big sign makes a picture too), among the cards only: a back's
    or no card's probability is kept (a hand or a shadow over a card's middle makes a
    picture; it does not say whether there is a card, and a number card under a hand must
    not be read as no card for it). Unchanged when the views do not agree on a picture. Fresh
    seed 10702's oblique Clag (10 fps, bellot): a JD, its index read 7D 0.46 beside JD 0.43,
    its middle a court's figure in all its views, was named 7D (marked)."""
    if not pictures or consensus([int(p) for p in pictures]) != 1:
        return probs
    out = np.array(probs, np.float64, copy=True)
    n = min(len(_PICTURE_LIKELIHOOD), len(out))
    mass = float(out[:n].sum())
    out[:n] *= _PICTURE_LIKELIHOOD[:n]
    out[:n] *= mass / max(float(out[:n].sum()), 1e-300)
    return out


_PICTURE_LIKELIHOOD = np.array([PICTURE_AGAINST if c.rank in NUMBER_PIPS else 1.0 for c in DECK_52])
"""Per card (``DECK_52`` order), the factor :func:`with_picture` gives it."""


def picture_doubt(index_card: Card, pictures: Sequence[bool]) -> str:
    """Why a card whose index reads ``index_card``, a number card, is in doubt given whether
    each of its views' middle shows a picture (:func:`shows_picture`; empty when it is not):
    more than two thirds of them do. Fresh seed 10574's light Klaberjass (10 fps, plastic):
    a blurred QH read 7H at 0.98, its middle a court's figure, unmarked."""
    if index_card.rank not in NUMBER_PIPS or consensus([int(p) for p in pictures]) != 1:
        return ""
    return f"its index reads {index_card} but its middle shows a picture, not pips"
