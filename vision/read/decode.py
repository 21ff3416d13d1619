"""Read a played card with the game's help: the classifier's distribution times what the game knows.

Why: the classifier sees one corner index; the game state knows much more. A card outside the
deck in use (a 2 in Clabber), a card already played this hand, or a card known to lie elsewhere
(Clag's turned trump card) cannot be the card just played: those readings get probability 0.
A card of a suit the player has shown he is out of is *unlikely* but possible: playing it is a
renege, and a renege must stay detectable. So a void suit is only a soft prior
(:data:`VOID_PRIOR`): it breaks near-ties, never overrules a confident reading, and whenever it
changes the reading the play is marked for confirmation with both cards named.

The most probable consistent reading is chosen; when the runner-up is close
(:data:`CONFIRM_RATIO`) or the reading is not sure (:data:`SURE_PROBABILITY`), the play is
marked for confirmation and the two cards in doubt are named.
Pure logic: numpy arrays in, frozen values out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from rules.cards import DECK_52, Card, Rank, Suit

CARD_LABELS: tuple[Card, ...] = DECK_52
"""The classifier's first 52 outputs are these cards (``vision.detect.preprocess.LABELS`` order)."""

VOID_PRIOR = 0.15
"""Prior weight of a card of a suit the seat has shown it is out of (a renege if played)."""

CONFIRM_RATIO = 0.25
"""Mark a play for confirmation when the second reading has at least this fraction of the
probability of the first."""

SURE_PROBABILITY = 0.95
"""Mark a play whose reading has less than this probability, however far behind the runner-up:
on held-out deck designs the classifier's misreads of look-alike pips come at 0.80-0.92 (the
bellot deck's 6C read 10C), and its right readings of them as low (bench/watch.py --dump:
8 of 540 plays below 0.95, all bellot 6/8 against 10, or plastic JC against JS)."""

LOOKALIKE_SURE = 0.99
"""... and one whose runner-up is its look-alike (:func:`lookalikes`) with less than this: on
held-out designs the classifier reads a club as the spade of the same rank (and 6 or 8 as 10)
at 0.95-0.97 (fresh seed 9950: bellot KS read KC 0.96, runner-up KS, unmarked)."""

PLAYED_RATIO = 0.5
"""Mark a play when a card already played reads at least this fraction as likely as the card
chosen: one of the two plays is misread (development seed 10113 full Clabber at 30 fps: bellot's
AC read AS at 0.995 early in the hand; the real AS later read AC 0.52 / AS 0.48 and was named
AC by elimination, sure and unmarked, both wrong)."""

IMPOSSIBLE_MASS = 0.2
"""When the cards the game allows hold less than this share of the classifier's belief, the
reading is in doubt whatever the decoding says: the camera sees a card that cannot be played."""

SHAPE_TOLERANCE = 0.08
"""Mark a play whose outline's aspect (long side / short side) differs from the hand's usual
card by more than this share: a shifted or clipped outline warps the corner the index is read
from (a 9S read as 7S with its index cut), however sure the classifier then is."""

SHAPE_MIN_CARDS = 2
"""Cards needed before the usual aspect is known (all cards of a deck are one shape; the
watcher compares a card with the same seat's earlier cards, which lie where it lies)."""

NOT_A_FACE = 0.5
"""A find whose probability of ``back`` + ``none`` exceeds this is not a face-up card."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the game knows when a card is played (all optional but ``deck``)."""

    deck: frozenset[Card]
    """The cards in use (24 in Clabber, 32 in Klaberjass, 52 in Clag)."""
    played: frozenset[Card] = frozenset()
    """Cards already played this hand: none can be played again."""
    elsewhere: frozenset[Card] = frozenset()
    """Cards known not to be in any hand (Clag's turned trump card)."""
    void: frozenset[Suit] = frozenset()
    """Suits the playing seat has shown it is out of (soft: playing one is a renege)."""
    wild_twos: bool = False
    """Clag round 12: a two may be played at any time, so a void never makes a two unlikely."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A decoded play: the card and the evidence for it."""

    card: Card
    probability: float
    """Posterior probability of ``card`` after the game's priors."""
    raw_best: str
    """The classifier's own most probable label (a card code, ``back`` or ``none``)."""
    raw_confidence: float
    runner_up: Card | None
    runner_up_probability: float
    confirm: bool
    """The reading is in doubt: a person should confirm it (see :attr:`doubt`)."""
    doubt: tuple[Card, Card] | None
    """The two cards in doubt (best first) when :attr:`confirm`."""
    reason: str
    """Why the play is marked (empty when it is not)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "card": str(self.card),
            "probability": round(self.probability, 4),
            "raw_best": self.raw_best,
            "raw_confidence": round(self.raw_confidence, 4),
            "runner_up": None if self.runner_up is None else str(self.runner_up),
            "runner_up_probability": round(self.runner_up_probability, 4),
            "confirm": self.confirm,
            "doubt": None if self.doubt is None else [str(c) for c in self.doubt],
            "reason": self.reason,
        }


class DecodeError(ValueError):
    """A distribution that cannot be decoded (wrong length, or no card possible at all)."""


def _labels() -> tuple[str, ...]:
    return tuple(str(c) for c in CARD_LABELS) + ("back", "none")


LABELS = _labels()


def prior(knowledge: Knowledge) -> np.ndarray:
    """The game's prior over the 52 cards (not normalised)."""
    weights = np.zeros(len(CARD_LABELS), np.float64)
    for i, c in enumerate(CARD_LABELS):
        if c not in knowledge.deck or c in knowledge.played or c in knowledge.elsewhere:
            continue
        wild = knowledge.wild_twos and c.rank is Rank.TWO
        weights[i] = VOID_PRIOR if c.suit in knowledge.void and not wild else 1.0
    return weights


def face_probability(probs: Sequence[float] | np.ndarray) -> float:
    """Probability that the find is a face-up card (not a back, not 'not a card')."""
    p = np.asarray(probs, np.float64)
    return float(p[: len(CARD_LABELS)].sum() / max(p.sum(), 1e-12))


def setup_faces(
    read: Callable[[list[np.ndarray]], Sequence[np.ndarray] | np.ndarray],
    crops: list[np.ndarray],
    other_view: Callable[[np.ndarray], np.ndarray],
) -> list[tuple[float, int | None]]:
    """How surely each find of a setup frame is a card lying face up, and which way round it
    reads, from both views (a far card seen obliquely may be warped sideways). Score: 0 a back
    (the stock, a held card), 1 a face in either view, 0.5-0.7 neither (a thumb, a cuff, or a
    face too blurred to read: doubtful, used only when the sure faces are too few; 0.5 and
    0.4 times the likelier view's face probability, so a far face read partly as one scores
    above a thumb read as no card at all). View: 0
    when the crop as warped reads and the other does not, 1 when only ``other_view`` of it
    reads (the card lies the other way round), None when that is not clear."""
    if not crops:
        return []
    back = LABELS.index("back")
    first = read(crops)
    second = read([other_view(c) for c in crops])
    out: list[tuple[float, int | None]] = []
    for a, b in zip(first, second, strict=True):
        pa, pb = face_probability(a), face_probability(b)
        view = 0 if pa >= SURE_VIEW and pb < 0.5 else 1 if pb >= SURE_VIEW and pa < 0.5 else None
        if float(a[back]) >= 0.5:
            out.append((0.0, None))
        elif max(pa, pb) > NOT_A_FACE:
            out.append((1.0, view))
        else:
            out.append((0.5 + 0.4 * max(pa, pb), None))
    return out


SURE_VIEW = 0.9
"""A setup card reads one way round when that view is a face with this probability and the
other view is more likely not a face."""


def lookalikes(a: Card, b: Card) -> bool:
    """The classifier's known confusions (models/README.md): a club and the spade of the same
    rank (their tops alike in a small index), and 6 or 8 against 10 of the same suit."""
    if a.rank == b.rank:
        return {a.suit, b.suit} == {Suit.CLUBS, Suit.SPADES}
    ranks = {a.rank, b.rank}
    return a.suit == b.suit and Rank.TEN in ranks and ranks <= {Rank.SIX, Rank.EIGHT, Rank.TEN}


def played_alike(cards: np.ndarray, card: Card, knowledge: Knowledge) -> Card | None:
    """The card already played that ``cards`` (the classifier's probabilities of the 52 cards)
    reads at least :data:`PLAYED_RATIO` as likely as ``card``, or None."""
    mine = float(cards[CARD_LABELS.index(card)])
    best: tuple[float, Card] | None = None
    for other in knowledge.played:
        q = float(cards[CARD_LABELS.index(other)])
        if other != card and q >= PLAYED_RATIO * mine and (best is None or q > best[0]):
            best = (q, other)
    return None if best is None else best[1]


def decode(probs: Sequence[float] | np.ndarray, knowledge: Knowledge) -> Reading:
    """The most probable card consistent with ``knowledge`` (see the module docstring)."""
    p = np.asarray(probs, np.float64).ravel()
    if p.shape[0] not in (len(CARD_LABELS), len(LABELS)):
        raise DecodeError(
            f"expected {len(LABELS)} probabilities (52 cards, back, none), got {p.shape[0]}"
        )
    raw_i = int(np.argmax(p))
    raw_best, raw_conf = LABELS[raw_i], float(p[raw_i] / max(p.sum(), 1e-12))
    cards = np.clip(p[: len(CARD_LABELS)], 0.0, None) + 1e-9  # every card keeps a trace
    weights = prior(knowledge)
    if not weights.any():
        raise DecodeError("no card is possible: every card of the deck is played or placed")
    post = cards * weights
    post /= post.sum()
    order = np.argsort(-post)
    best, second = int(order[0]), int(order[1])
    p1, p2 = float(post[best]), float(post[second])
    card, runner = CARD_LABELS[best], CARD_LABELS[second] if p2 > 0 else None
    confirm, reason = False, ""
    # what the classifier and the hard constraints alone say (without the void prior)
    hard = cards * (weights > 0)
    hard_best = CARD_LABELS[int(np.argmax(hard))]
    raw_card = CARD_LABELS[int(np.argmax(cards))]
    raw_ruled_out = weights[int(np.argmax(cards))] == 0
    if hard.sum() < IMPOSSIBLE_MASS * cards.sum() or (
        raw_ruled_out and cards.max() >= CONFIRM_RATIO * cards[best]
    ):
        # the classifier sees a card the game rules out (played, elsewhere, not in use), as
        # much as the card chosen: the chosen one is only the least unlikely
        confirm, reason = True, f"the camera reads {raw_card}, which cannot be played here"
        runner, p2 = raw_card, 0.0
    elif (again := played_alike(cards, card, knowledge)) is not None:
        confirm = True
        reason = f"it reads as {again} almost as much, which was played before: one of the two is misread"
        runner, p2 = again, 0.0
    elif hard_best != card:
        confirm, reason = (
            True,
            f"{hard_best} would be a renege (seat out of {hard_best.suit.name.lower()})",
        )
        runner, p2 = hard_best, float(post[CARD_LABELS.index(hard_best)])
    elif runner is not None and p2 >= CONFIRM_RATIO * p1:
        confirm, reason = True, f"{card} and {runner} are close ({p1:.2f} vs {p2:.2f})"
    elif runner is not None and p1 < SURE_PROBABILITY:
        confirm, reason = True, f"{card} is not sure ({p1:.2f}; then {runner} {p2:.2f})"
    elif runner is not None and p1 < LOOKALIKE_SURE and lookalikes(card, runner):
        confirm, reason = (
            True,
            f"{card} is not sure of its look-alike {runner} ({p1:.2f}; {p2:.2f})",
        )
    return Reading(
        card=card,
        probability=p1,
        raw_best=raw_best,
        raw_confidence=raw_conf,
        runner_up=runner,
        runner_up_probability=p2,
        confirm=confirm,
        doubt=(card, runner) if confirm and runner is not None else None,
        reason=reason,
    )


def aspect(quad: Sequence[Sequence[float]] | np.ndarray) -> float:
    """Long side over short side of a card's outline (mean of opposite sides), >= 1."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = [float(np.hypot(*(q[i] - q[(i + 1) % 4]))) for i in range(4)]
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return max(a, b) / max(min(a, b), 1e-9)


def shape_doubt(this: float, others: Sequence[float]) -> str:
    """Why an outline of aspect ``this`` is in doubt beside the hand's other cards' aspects
    (empty when it is not, or when too few cards are known: :data:`SHAPE_MIN_CARDS`)."""
    if len(others) < SHAPE_MIN_CARDS:
        return ""
    usual = float(np.median(others))
    if abs(this / usual - 1.0) <= SHAPE_TOLERANCE:
        return ""
    return (
        f"its outline is unusually shaped (aspect {this:.2f}, the hand's cards {usual:.2f}):"
        " the index may be cut"
    )


def views_doubt(views: Sequence[Sequence[float] | np.ndarray]) -> str:
    """Why a card whose clear views (frames) read different cards is in doubt (else empty)."""
    seen: list[Card] = []
    for v in views:
        p = np.asarray(v, np.float64).ravel()
        if face_probability(p) > NOT_A_FACE:
            card = CARD_LABELS[int(np.argmax(p[: len(CARD_LABELS)]))]
            if card not in seen:
                seen.append(card)
    if len(seen) < 2:
        return ""
    return "its views read " + " and ".join(str(c) for c in seen[:3])


def marked(reading: Reading, reason: str) -> Reading:
    """``reading`` marked for confirmation for ``reason`` too (unchanged when it is empty)."""
    if not reason:
        return reading
    return replace(
        reading,
        confirm=True,
        doubt=reading.doubt
        or (None if reading.runner_up is None else (reading.card, reading.runner_up)),
        reason="; ".join(r for r in (reading.reason, reason) if r),
    )


def combine(distributions: Iterable[Sequence[float] | np.ndarray]) -> np.ndarray:
    """Several readings of the same card (frames, corners) as one: normalised geometric mean."""
    rows = [np.asarray(d, np.float64).ravel() for d in distributions]
    if not rows:
        raise DecodeError("no distribution to combine")
    log = np.mean([np.log(np.clip(r, 0, None) + 1e-6) for r in rows], axis=0)
    out = np.exp(log - log.max())
    return out / out.sum()


def one_hot(card: Card | str, confidence: float = 1.0) -> np.ndarray:
    """A 54-way distribution putting ``confidence`` on ``card`` and spreading the rest evenly
    (tests and rendered-truth checks)."""
    c = Card.parse(card) if isinstance(card, str) else card
    out = np.full(len(LABELS), (1.0 - confidence) / (len(LABELS) - 1), np.float64)
    out[CARD_LABELS.index(c)] = confidence
    return out


def _hungarian(cost: np.ndarray) -> list[int]:
    """Column for each row minimising the total cost (rows <= columns); O(n^2 m)."""
    n, m = cost.shape
    inf = float("inf")
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=int)  # p[j]: row (1-based) assigned to column j
    way = np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free, minv[1:], inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            used_idx = np.flatnonzero(used)
            u[p[used_idx]] += delta
            v[used_idx] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


def read_hand(
    rows: Sequence[Sequence[float] | np.ndarray], knowledge: Knowledge
) -> tuple[list[Card], float]:
    """The most probable reading of a whole hand's plays together: each card at most once
    (every card of a hand is played once), none outside ``knowledge.deck`` or in
    ``knowledge.elsewhere``. Returns the cards and the total log-probability.

    Why: read one at a time, a misread of an early play makes a later play of the same card
    "impossible" and so wrong too; read together, both come out right."""
    allowed = np.array(
        [c in knowledge.deck and c not in knowledge.elsewhere for c in CARD_LABELS], bool
    )
    if len(rows) > int(allowed.sum()):
        raise DecodeError(f"{len(rows)} plays but only {int(allowed.sum())} cards can be played")
    logp = np.log(
        np.stack([np.asarray(r, np.float64).ravel()[: len(CARD_LABELS)] for r in rows]) + 1e-9
    )
    cost = np.where(allowed[None, :], -logp, 1e6)
    cols = _hungarian(cost)
    return [CARD_LABELS[j] for j in cols], float(-cost[np.arange(len(rows)), cols].sum())


def hand_log_probability(
    rows: Sequence[Sequence[float] | np.ndarray], cards: Sequence[Card]
) -> float:
    """Total log-probability of a reading of the plays (for comparing readings)."""
    return float(
        sum(
            np.log(np.asarray(r, np.float64).ravel()[CARD_LABELS.index(c)] + 1e-9)
            for r, c in zip(rows, cards, strict=True)
        )
    )
