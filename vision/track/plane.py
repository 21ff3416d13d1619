"""The table's plane from one frame: where each card lies, as a camera at any angle sees it.

Why: a phone on a stand at the side of a table sees the far cards small and squashed and the
near ones large; seats told by angles in the image go wrong, and a card's size says nothing
about whether it moved. Every card is the same rectangle lying on one plane, so the cards of a
setup frame (one in front of each player) give that plane: a homography ``H`` (image ->
plane) and each card's place and turn on it, fitted together by least squares (Levenberg-
Marquardt, numpy only) so the near and far cards agree. On the plane a card is one unit long
wherever it lies: seats are directions from the middle, rest and movement are judged in card
lengths, and a rectified view of the play area (:class:`PlaneView`) gives the detector every
card at the same size.

Small cards are found by looking again at overlapping quarters of the frame (a far card is
too small a part of the whole frame for the detector).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

PLAY_MARGIN = 1.8
"""The play area reaches this many card lengths beyond the setup cards (players do not lay
their cards exactly where they put the setup card)."""

VIEW_MARGIN = 0.7
"""The view of the play area reaches this many card lengths beyond it, so a card lying on the
area's edge is seen whole."""


STRETCHES = (1.7,)
""":func:`find_cards` also looks at the frame stretched this much from top to bottom, undoing
most of what a camera 35-60 degrees above the table does to the table's depth."""


MAX_FIT = 0.05
"""The setup cards' corners must lie within this share of a card's size (root-mean-square)
of one plane's cards: right calibrations fit within 0.02, a thumb or a held card taken for
a setup card is off by 0.1 or more."""


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ np.asarray(h, np.float64).T
    return q[:, :2] / q[:, 2:3]


def apply_homography(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (N x 2, or anything of N*2 values) through a 3 x 3 homography."""
    return _apply(h, pts)


def _model(aspect: float, x: float, y: float, theta: float, k: int) -> np.ndarray:
    """Plane corners of a card one unit long at (x, y) turned ``theta`` (radians), listed so
    that its corner ``k`` (0 or 1) comes first, clockwise (y down) like image quads."""
    w = aspect / 2
    base = np.array([[-w, -0.5], [w, -0.5], [w, 0.5], [-w, 0.5]])
    c, s = math.cos(theta), math.sin(theta)
    pts = base @ np.array([[c, s], [-s, c]]) + [x, y]
    return np.roll(pts, -k, axis=0)


@dataclass(frozen=True)
class PlaneFit:
    homography: np.ndarray
    """3 x 3, image pixels -> plane (card lengths)."""
    centres: np.ndarray
    """Each card's centre on the plane (N x 2)."""
    aspect: float
    rms: float
    """Root-mean-square corner error in pixels."""


def fit_plane(
    quads: Sequence[np.ndarray],
    aspect: float = 0.69,
    upright: Sequence[bool] | None = None,
) -> PlaneFit:
    """The plane all ``quads`` (image outlines of cards, N x 4 x 2, clockwise from any corner)
    lie on. Needs 2 or more cards. ``upright[i]``: quad ``i`` is known to start at its card's
    top-left corner (its first side a short one: found on the plane seen from above, or read
    that way round by its index); else either way round is tried. Two cards lying alike cannot tell a sideways card seen from
    above from an upright one seen low, and the fits differ by a third in scale."""
    quads = [np.asarray(q, np.float64).reshape(4, 2) for q in quads]
    n = len(quads)
    if n < 2:
        raise ValueError(f"fit_plane: need 2 or more cards, got {n}")
    known = list(upright) if upright is not None else [False] * n
    ref = int(np.argmax([_area(q) for q in quads]))
    order = [ref] + [i for i in range(n) if i != ref]
    quads = [quads[i] for i in order]
    known = [known[i] for i in order]
    best: tuple[float, np.ndarray, np.ndarray, float] | None = None
    for k0 in (0,) if known[0] else (0, 1):
        h0 = cv2.getPerspectiveTransform(
            _model(aspect, 0, 0, 0, k0).astype(np.float32), quads[0].astype(np.float32)
        )
        poses, ks = [], []
        for q, sure in zip(quads[1:], known[1:], strict=True):
            on_plane = _apply(np.linalg.inv(h0), q)
            pose, k = _rigid(on_plane, aspect, sure)
            poses.append(pose)
            ks.append(k)
        params = np.concatenate([(h0 / h0[2, 2]).ravel()[:8], np.ravel(poses), [aspect]])
        params, cost = _levenberg(params, quads, [k0, *ks])
        if best is None or cost < best[0]:
            best = (cost, params, np.array([k0, *ks]), 0.0)
    assert best is not None
    cost, params, ks, _ = best
    h_plane_to_image = np.append(params[:8], 1.0).reshape(3, 3)
    poses = np.concatenate([[0.0, 0.0, 0.0], params[8:-1]]).reshape(-1, 3)
    centres = np.empty((n, 2))
    for j, i in enumerate(order):
        centres[i] = poses[j, :2]
    h_image_to_plane = np.linalg.inv(h_plane_to_image)
    h_image_to_plane /= h_image_to_plane[2, 2]
    rms = math.sqrt(cost / (4 * n))
    return PlaneFit(h_image_to_plane, centres, float(params[-1]), rms)


def _rigid(
    pts: np.ndarray, aspect: float, upright: bool = False
) -> tuple[tuple[float, float, float], int]:
    """The pose (x, y, theta) and corner offset (0 when ``upright``) of a card whose plane
    corners are about ``pts``."""
    best: tuple[float, tuple[float, float, float], int] | None = None
    centre = pts.mean(axis=0)
    for k in (0,) if upright else (0, 1):
        model = _model(aspect, 0, 0, 0, k)
        a = pts - centre
        cov = model.T @ a
        u, _, vt = np.linalg.svd(cov)
        rot = u @ vt
        if np.linalg.det(rot) < 0:
            continue
        theta = math.atan2(rot[0, 1], rot[0, 0])
        err = float(np.sum((_model(aspect, *centre, theta, k) - pts) ** 2))
        if best is None or err < best[0]:
            best = (err, (float(centre[0]), float(centre[1]), theta), k)
    if best is None:
        return (float(centre[0]), float(centre[1]), 0.0), 0
    return best[1], best[2]


_BASE = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
"""A card one unit long and one wide (the width is scaled by the aspect): :func:`_model`'s
corners, for all cards at once in :func:`_residuals`."""


def _residuals(params: np.ndarray, quads: list[np.ndarray], ks: list[int]) -> np.ndarray:
    """Every card's image corners as the plane ``params`` puts them less ``quads`` (card by
    card, as :func:`_model` lists its corners), and the aspect's weak prior."""
    return _residuals_many(np.asarray(params, np.float64)[None, :], quads, ks)[0]


def _residuals_many(rows: np.ndarray, quads: list[np.ndarray], ks: list[int]) -> np.ndarray:
    """:func:`_residuals` of each row of ``rows`` (M x P) at once (M x R): the fit's
    numeric Jacobian in one call."""
    m = len(rows)
    h = np.concatenate([rows[:, :8], np.ones((m, 1))], axis=1).reshape(m, 3, 3)
    aspect = np.clip(rows[:, -1], 0.55, 0.85)
    poses = np.concatenate([np.zeros((m, 3)), rows[:, 8:-1]], axis=1).reshape(m, -1, 3)
    idx = (np.arange(4)[None, :] + np.asarray(ks)[:, None]) % 4
    base = _BASE[idx]  # n x 4 x 2
    bx = base[None, ..., 0] * aspect[:, None, None]  # m x n x 4
    by = np.broadcast_to(base[None, ..., 1], bx.shape)
    c, sn = np.cos(poses[..., 2])[..., None], np.sin(poses[..., 2])[..., None]
    x = bx * c - by * sn + poses[..., 0:1]
    y = bx * sn + by * c + poses[..., 1:2]
    hh = h[:, None, None, :, :]  # m x 1 x 1 x 3 x 3
    u = hh[..., 0, 0] * x + hh[..., 0, 1] * y + hh[..., 0, 2]
    v = hh[..., 1, 0] * x + hh[..., 1, 1] * y + hh[..., 1, 2]
    w = hh[..., 2, 0] * x + hh[..., 2, 1] * y + hh[..., 2, 2]
    target = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    seen = np.stack([u / w, v / w], axis=-1) - target[None]
    # a weak prior: cards are 0.6-0.75 as wide as long
    return np.concatenate([seen.reshape(m, -1), ((aspect - 0.68) * 20.0)[:, None]], axis=1)


def _levenberg(
    params: np.ndarray, quads: list[np.ndarray], ks: list[int]
) -> tuple[np.ndarray, float]:
    p = params.astype(np.float64).copy()
    scale = np.maximum(np.abs(p), 1e-3)
    lam = 1e-3
    gain = 0.0
    r = _residuals(p, quads, ks)
    cost = float(r @ r)
    for _ in range(60):
        steps = 1e-6 * scale
        jac = ((_residuals_many(p[None, :] + np.diag(steps), quads, ks) - r) / steps[:, None]).T
        a = jac.T @ jac
        g = jac.T @ r
        improved = False
        for _ in range(10):
            try:
                delta = np.linalg.solve(a + lam * np.diag(np.diag(a) + 1e-12), -g)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            q = p + delta
            rq = _residuals(q, quads, ks)
            cq = float(rq @ rq)
            if cq < cost:
                gain = cost - cq
                p, r, cost = q, rq, cq
                lam = max(lam / 3, 1e-9)
                improved = True
                break
            lam *= 10
        if not improved or cost < 1e-10 or gain < 1e-7 * cost:
            break
    return p, cost


# -- finding the setup cards -------------------------------------------------------------


class FoundCards:
    """Whole cards found in a frame: outlines (N x 4 x 2, frame pixels) and upright crops."""

    def __init__(
        self, quads: list[np.ndarray], crops: list[np.ndarray], upright: list[bool] | None = None
    ) -> None:
        self.quads, self.crops = quads, crops
        self.upright = upright if upright is not None else [False] * len(quads)
        """Which outlines are known to start at the card's top-left corner (found on the plane
        seen from above, or read that way round)."""


def find_cards(
    frame: np.ndarray, detect: Callable[[np.ndarray], object], tiles: int = 2
) -> FoundCards:
    """Every whole card in ``frame``: the detector on the frame, then on ``tiles`` x ``tiles``
    overlapping parts of it (half again as large as a plain split), so that cards too small a
    part of the whole frame are found too. Cards cut by a part's edge are left to the part
    that holds them whole; one card found twice counts once."""
    from vision.detect.preprocess import order_quad, warp_quad

    h, w = frame.shape[:2]
    found: list[list[np.ndarray]] = []  # per card, every outline found of it

    def add(quads: np.ndarray, partial: np.ndarray, dx: int, dy: int) -> None:
        for q, part in zip(quads, partial, strict=True):
            if part:
                continue
            q = np.asarray(q, np.float64).reshape(4, 2) + [dx, dy]
            same = [i for i, f in enumerate(found) if _same_card(q, _agreed(f))]
            if not same:
                found.append([q])
            elif all(_area(q) > 1.2 * _area(_agreed(found[i])) for i in same):
                # a part looked at closer shows the card whose picture frame (or a piece of
                # it) the whole frame gave: the card replaces it
                for i in reversed(same):
                    del found[i]
                found.append([q])
            else:
                for i in same:
                    found[i].append(q)

    whole = detect(frame)
    add(whole.quads, whole.partial, 0, 0)  # type: ignore[attr-defined]
    for stretch in STRETCHES:
        # a camera low over the table squashes its depth: a far card lying sideways looks
        # too thin to be a card (aspect 0.4 at 35 degrees up) until the frame is stretched
        tall = cv2.resize(frame, (w, int(round(h * stretch))), interpolation=cv2.INTER_LINEAR)
        more = detect(tall)
        quads = [np.asarray(q, np.float64).reshape(4, 2) / [1.0, stretch] for q in more.quads]  # type: ignore[attr-defined]
        add(quads, more.partial, 0, 0)  # type: ignore[attr-defined]
    if tiles > 1:
        tw, th = int(w / tiles * 1.5), int(h / tiles * 1.5)
        for i in range(tiles):
            for j in range(tiles):
                x0 = int(round(i * (w - tw) / (tiles - 1)))
                y0 = int(round(j * (h - th) / (tiles - 1)))
                part = detect(np.ascontiguousarray(frame[y0 : y0 + th, x0 : x0 + tw]))
                add(part.quads, part.partial, x0, y0)  # type: ignore[attr-defined]
    # each outline from the corner its crop starts at (the crop's top-left)
    quads = [order_quad(_agreed(f)).astype(np.float64) for f in found]
    crops = [warp_quad(frame, q.astype(np.float32)) for q in quads]
    return FoundCards(quads, crops)


AGREE = 0.06
"""Two outlines of one card agree when each corner of one lies this close (a fraction of the
card's size) to a corner of the other."""


def _agreed(outlines: list[np.ndarray]) -> np.ndarray:
    """The outline of a card found several times (the whole frame, stretched, in parts) that
    most of the others agree with (the larger on a tie): one look may snap a corner onto a
    pip or a shadow's edge, the others see the card's own corners."""
    if len(outlines) == 1:
        return outlines[0]

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        d = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
        return float(d.min(axis=1).max()) < AGREE * math.sqrt(max(_area(a), 1.0))

    # a piece of the card (its picture, a half cut by a big pip) is no outline of it however
    # often it is found: only outlines near the largest's size vote
    largest = max(_area(a) for a in outlines)
    whole = [a for a in outlines if _area(a) >= 0.7 * largest]
    support = [sum(agree(a, b) for b in whole) for a in whole]
    best = max(range(len(whole)), key=lambda i: (support[i], _area(whole[i])))
    return whole[best]


def _area(q: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(q, np.float32).reshape(4, 2))))


def _same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Do outlines ``a`` and ``b`` show one card (the same card found twice, or a card and its
    court picture's frame)? The setup cards lie apart, so two whose middles are close for
    their size, or one whose middle lies inside the other not many times its size (a table
    or a shadow outlined around cards is no card of theirs), are one card."""
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    small, large = sorted((_area(a), _area(b)))
    if np.hypot(*(ca - cb)) < 0.3 * math.sqrt(small):
        return True
    if small < 0.15 * large:
        return False
    pa, pb = (np.asarray(q, np.float32).reshape(4, 2) for q in (a, b))
    inside_b = cv2.pointPolygonTest(pb, (float(ca[0]), float(ca[1])), False)
    inside_a = cv2.pointPolygonTest(pa, (float(cb[0]), float(cb[1])), False)
    return inside_a >= 0 or inside_b >= 0


def choose_setup(
    quads: list[np.ndarray], players: int, upright: list[bool] | None = None
) -> tuple[list[int], PlaneFit]:
    """The ``players`` cards of ``quads`` that lie on one plane best, spread round a middle
    (a card in front of each player), and their plane (``upright``: see :func:`fit_plane`)."""
    known = upright if upright is not None else [False] * len(quads)
    n = len(quads)
    if n < players:
        raise ValueError(f"found {n} cards lying face up, expected {players}")
    best: tuple[float, list[int], PlaneFit] | None = None
    combos = list(itertools.combinations(range(n), players))
    if len(combos) > 60:  # too many: the largest cards first (held cards are not the problem)
        areas = [abs(cv2.contourArea(q.astype(np.float32))) for q in quads]
        keep: list[int] = []
        cards = 0  # of the outlines kept, those of different cards (every outline of one kept)
        for i in sorted(range(n), key=lambda i: -areas[i]):
            new = not any(_same_card(quads[i], quads[k]) for k in keep)
            if new and cards == players + 3:
                continue
            keep.append(i)
            cards += new
        combos = list(itertools.combinations(sorted(keep), players))
    for combo in combos:
        if any(_same_card(quads[a], quads[b]) for a, b in itertools.combinations(combo, 2)):
            continue  # two outlines of one card
        try:
            fit = fit_plane([quads[i] for i in combo], upright=[known[i] for i in combo])
        except (ValueError, np.linalg.LinAlgError):
            continue
        c = fit.centres - fit.centres.mean(axis=0)
        angles = sorted(math.atan2(y, x) for x, y in c)
        gaps = np.diff([*angles, angles[0] + 2 * math.pi])
        spread = float(gaps.max()) / (2 * math.pi / players)  # 1: evenly round the middle
        score = fit.rms + 3.0 * max(0.0, spread - 1.6) + 2.0 * max(0.0, fit.rms - 1.5)
        if best is None or score < best[0]:
            best = (score, list(combo), fit)
    if best is None:
        raise ValueError("no set of cards lies on one plane")
    return best[1], best[2]


# -- the rectified view of the play area -------------------------------------------------


@dataclass(frozen=True)
class PlaneView:
    """The play area seen from straight above: ``size`` x ``size`` pixels, ``ppl`` pixels per
    card length, the plane's origin (the table's middle) in the view's centre."""

    homography: np.ndarray
    """Image -> plane."""
    radius: float
    """Card lengths from the middle to the edge of the play area."""
    ppl: float
    size: int

    @classmethod
    def make(
        cls,
        homography: np.ndarray,
        radius: float,
        long_side: int = 600,
        margin: float = VIEW_MARGIN,
    ) -> PlaneView:
        """The view of the play area of ``radius`` card lengths (and ``margin`` more) at most
        ``long_side`` pixels across."""
        reach = radius + margin
        ppl = min(110.0, long_side / (2 * reach))
        return cls(np.asarray(homography, np.float64), radius, ppl, int(math.ceil(2 * reach * ppl)))

    def inside(self, quad: np.ndarray) -> bool:
        """Does the card outlined by ``quad`` (view pixels) lie in the play area (its middle
        within the area's radius)?"""
        c = np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0) - self.size / 2
        return bool(np.hypot(*c) <= self.radius * self.ppl)

    @property
    def to_view(self) -> np.ndarray:
        """Image -> view pixels."""
        half = self.size / 2
        s = np.array([[self.ppl, 0, half], [0, self.ppl, half], [0, 0, 1.0]])
        return s @ self.homography

    def warp(self, image: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(
            image, self.to_view, (self.size, self.size), flags=cv2.INTER_LINEAR
        )

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """View pixels -> image pixels (same shape)."""
        shape = np.shape(pts)
        return _apply(np.linalg.inv(self.to_view), pts).reshape(shape)

    def moved(self, homography: np.ndarray) -> PlaneView:
        """The same view of a camera that now maps the plane with ``homography``."""
        return PlaneView(np.asarray(homography, np.float64), self.radius, self.ppl, self.size)


# -- calibration -------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    homography: np.ndarray
    """Image -> plane: card lengths, origin at the table's middle, seat 0 straight down (+y)."""
    seat_angles: tuple[float, ...]
    """Each seat's direction on the plane (degrees, y down: 90 = seat 0), seat 0 first."""
    radius: float
    """The play area: card lengths from the middle."""
    quads: list[np.ndarray]
    """The setup cards' outlines (frame pixels), seat 0 first."""
    rms: float
    note: str = ""
    """What a person should check (a setup card read as a back, taken all the same)."""


def calibrate_frame(
    frame: np.ndarray,
    players: int,
    detect: Callable[[np.ndarray], object],
    first_seat_angle: float = 90.0,
    is_face: Callable[[list[np.ndarray]], list[tuple[float, int | None]]] | None = None,
) -> Calibration:
    """The table's plane and seats from a frame with one card face up in front of each
    player. Seat 0 is the card nearest ``first_seat_angle`` (degrees in the image round the
    cards' middle, y down: 90 = the bottom edge); the others follow clockwise as seen from
    above. ``is_face`` tells face-up cards from backs and the like, and which way round each
    reads (:func:`vision.read.decode.setup_faces`: 1 a face, 0 not, 0.5 doubtful, used only
    when the faces are too few; None: all are faces, their long sides unknown).
    Raises ``ValueError`` naming what was found when it cannot."""
    found = _oriented(frame, find_cards(frame, detect, tiles=3), is_face)
    cards = found
    if 2 <= len(found.quads) < players + 6:
        # far cards are too small for the detector in the whole frame, and too oblique to
        # tell their long side: look again at the plane seen from above, where every card is
        # the same size and shape
        # (from the cards that agree best: a held card or a hand taken for a card would
        # bend the plane; with all the players' cards found, one may be left out)
        # (with more finds than players, one setup card's outline may be off, a glare spot
        # joined to it, and a find that is no card fit in its place: the plane of the
        # players' cards but one, when it fits far better, finds that card whole)
        n = len(found.quads)
        most = min(players, n)
        sizes = [most] + ([most - 1] if n >= 3 and (n <= players or most - 1 >= 3) else [])
        fit = None
        for k in sizes:
            try:
                _, candidate = choose_setup(found.quads, k, found.upright)
            except ValueError:
                continue
            if fit is None or candidate.rms < 0.5 * fit.rms:
                fit = candidate
        if fit is not None:
            cards = _merge(_rectified_finds(frame, fit, detect), found)
    # (each find's face score, read once: setup_faces runs the classifier)
    scores = _scores(cards, is_face)
    quads, upright = _faces(cards, scores, players)
    if len(quads) < players and cards is not found:
        # a card outlined again on the plane may read worse there (a court card's picture
        # taken for a back): the finds as first seen, if they hold every player's card
        first = _faces(found, _scores(found, is_face), players)
        if len(first[0]) >= players:
            quads, upright = first
    note = ""
    faces = _cards(quads)
    if faces == players - 1 and players >= 3:
        idx, fit, quads, note = _with_one_back(cards, scores, quads, upright, players)
    else:
        if faces < players:
            raise ValueError(f"found {faces} cards lying face up, expected {players}")
        idx, fit = choose_setup(quads, players, upright)
    chosen = [quads[i] for i in idx]
    if players == 2 and not note:
        note = _doubtful_note(cards, scores, chosen)
    size = math.sqrt(float(np.mean([_area(q) for q in chosen])))
    if fit.rms > MAX_FIT * size:
        raise ValueError(
            f"the {players} likeliest of the {len(quads)} cards found do not lie on one plane "
            f"(corners off by {fit.rms:.1f} px): a card is hidden or something else looks like "
            "one; clear the view"
        )
    centres = fit.centres[idx] if len(fit.centres) == len(quads) else _centres(fit, chosen)
    middle = centres.mean(axis=0)
    img_centres = np.array([q.mean(axis=0) for q in chosen])
    img_mid = img_centres.mean(axis=0)
    img_angles = [
        math.degrees(math.atan2(c[1] - img_mid[1], c[0] - img_mid[0])) % 360 for c in img_centres
    ]
    first = min(
        range(players), key=lambda i: abs((img_angles[i] - first_seat_angle + 180) % 360 - 180)
    )
    rel = centres - middle
    a0 = math.atan2(rel[first][1], rel[first][0])
    turn = math.pi / 2 - a0  # seat 0's card straight down the plane
    c, s = math.cos(turn), math.sin(turn)
    rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    shift = np.array([[1.0, 0.0, -middle[0]], [0.0, 1.0, -middle[1]], [0.0, 0.0, 1.0]])
    h = rot @ shift @ fit.homography
    h /= h[2, 2]
    plane = _apply(h, img_centres)
    angles = [math.degrees(math.atan2(y, x)) % 360 for x, y in plane]
    order = sorted(range(players), key=lambda i: (angles[i] - angles[first]) % 360)
    radius = float(np.hypot(*plane.T).max()) + PLAY_MARGIN
    return Calibration(
        h, tuple(angles[i] for i in order), radius, [chosen[i] for i in order], fit.rms, note
    )


SETUP_SPREAD = 1.6
"""The largest gap between the setup cards' directions round their middle, in even shares
(1: evenly spread), for a card judged a back to stand in for a player's card."""


def _with_one_back(
    cards: FoundCards,
    scores: list[float] | None,
    faces: list[np.ndarray],
    upright: list[bool],
    players: int,
) -> tuple[list[int], PlaneFit, list[np.ndarray], str]:
    """The setup of ``faces`` (every player's card but one) and one find judged a card back:
    the back that lies on their plane and completes the cards' spread round their middle
    (one in front of each player) is the missing player's card, its face taken for a back
    (fresh seed 10507 light Clag, 30 fps: the far king of clubs, 50 px long and blurred, read
    'back' 0.88; calibration failed and the hand was watched without a table). Returns the
    chosen indices into the returned outlines, the plane, the outlines and a note; raises
    ``ValueError`` when no back does. ``scores``: each find's face score (:func:`_scores`)."""
    expected = f"found {players - 1} cards lying face up, expected {players}"
    if scores is None:
        raise ValueError(expected)
    backs = [
        (q, up)
        for q, up, v in zip(cards.quads, cards.upright, scores, strict=True)
        if v == 0.0 and not any(_same_card(q, f) for f in faces)
    ]
    best: tuple[float, list[int], PlaneFit, list[np.ndarray]] | None = None
    for q, up in backs:
        quads = [*faces, q]
        try:
            idx, fit = choose_setup(quads, players, [*upright, up])
        except ValueError:
            continue
        c = (
            fit.centres[idx]
            if len(fit.centres) == len(quads)
            else _centres(fit, [quads[i] for i in idx])
        )
        c = c - c.mean(axis=0)
        angles = sorted(math.atan2(y, x) for x, y in c)
        gaps = np.diff([*angles, angles[0] + 2 * math.pi])
        spread = float(gaps.max()) / (2 * math.pi / players)
        size = math.sqrt(float(np.mean([_area(quads[i]) for i in idx])))
        if len(quads) - 1 not in idx or spread > SETUP_SPREAD or fit.rms > MAX_FIT * size:
            continue
        if best is None or fit.rms < best[0]:
            best = (fit.rms, idx, fit, quads)
    if best is None:
        raise ValueError(expected)
    _, idx, fit, quads = best
    mid = quads[-1].mean(axis=0)
    note = (
        f"the card at ({mid[0]:.0f}, {mid[1]:.0f}) reads as a card back: taken for its "
        "player's card, as it lies on the plane of the others and completes their round"
    )
    return idx, fit, quads, note


def _centres(fit: PlaneFit, quads: list[np.ndarray]) -> np.ndarray:
    return np.array([_apply(fit.homography, q).mean(axis=0) for q in quads])


def _oriented(
    frame: np.ndarray,
    found: FoundCards,
    is_face: Callable[[list[np.ndarray]], list[tuple[float, int | None]]] | None,
) -> FoundCards:
    """``found`` with each card that reads one way round only outlined from its top-left
    corner and known upright (two cards lying alike leave the plane's scale to the index)."""
    if is_face is None or not found.quads:
        return found
    quads, crops, upright = list(found.quads), list(found.crops), list(found.upright)
    for i, (_, view) in enumerate(is_face(found.crops)):
        if view == 1:  # the crop turned a quarter clockwise reads: its bottom-left is the top-left
            quads[i] = np.roll(quads[i], 1, axis=0)
            crops[i] = warp_ordered(frame, quads[i])
        upright[i] = upright[i] or view is not None
    return FoundCards(quads, crops, upright)


def _scores(
    found: FoundCards,
    is_face: Callable[[list[np.ndarray]], list[tuple[float, int | None]]] | None,
) -> list[float] | None:
    """Each find's face score (``is_face``: 1 a face, 0 not, between: doubtful); None
    when there is no ``is_face`` (every find a face) or no find."""
    if is_face is None or not found.quads:
        return None
    return [float(v) for v, _ in is_face(found.crops)]


def _faces(
    found: FoundCards, score: list[float] | None, players: int
) -> tuple[list[np.ndarray], list[bool]]:
    """The finds that are faces (outlines, and whether each is known upright); the doubtful
    ones too when the faces are fewer than ``players`` and at least three cards are laid out
    (two cards fit a plane whatever they are: a doubtful find would go unchecked).
    ``score``: each find's face score (:func:`_scores`; None: every find a face)."""
    if score is None:
        return list(found.quads), list(found.upright)
    sure, maybe = (_cards([q for q, v in zip(found.quads, score, strict=True) if v >= least])
                   for least in (1.0, 1e-9))  # fmt: skip
    least = 1.0 if sure >= players or maybe < players or players < 3 else 0.5
    keep = [i for i, v in enumerate(score) if v >= least]
    if players == 2 and sure == 1:
        keep += _likeliest_face(found, score, keep)
    return [found.quads[i] for i in keep], [found.upright[i] for i in keep]


def _doubtful_note(found: FoundCards, scores: list[float] | None, chosen: list[np.ndarray]) -> str:
    """What to check when a setup card chosen did not read plainly as a face (a two-player
    setup's far card, :func:`_likeliest_face`; ``scores``: each find's face score): empty
    when every one did."""
    if scores is None:
        return ""
    doubtful: list[np.ndarray] = []
    for q, v in zip(found.quads, scores, strict=True):
        taken = 0.0 < v < 1.0 and any(_same_card(q, c) for c in chosen)
        if taken and not any(_same_card(q, d) for d in doubtful):  # (outlined twice)
            doubtful.append(q)
    spots = ", ".join(f"({q.mean(axis=0)[0]:.0f}, {q.mean(axis=0)[1]:.0f})" for q in doubtful)
    return (
        f"the card at {spots} read only doubtfully as a face: is it a player's card?"
        if spots
        else ""
    )


DOUBTFUL_FACE = 0.58
"""The least score (:func:`vision.read.decode.setup_faces`: 0.5 and 0.4 times a doubtful
find's face probability) of the doubtful find taken for the second player's card of a
two-player setup whose other card reads plainly: a face probability of 0.2. Fresh seed 10757's
hands Klaberjass (10 fps, plastic): both setup cards lay far off, 125 x 45 px; the QS read no
card 0.69 / QC 0.16 / QS 0.11 (face 0.32), two thumbs at the frame's corners no card 1.00:
calibration failed and the hand was watched as from overhead (0/18)."""

TWO_PLAYER_AREA = 6.0
"""The most that the doubtful second card's outline and the plain one's may differ in area
(either way) in a two-player setup: one near the camera, one far."""


def _likeliest_face(found: FoundCards, score: list[float], faces: list[int]) -> list[int]:
    """The doubtful find of a two-player setup likeliest a face (at least
    :data:`DOUBTFUL_FACE`, about as large as the face found, :data:`TWO_PLAYER_AREA`, and not
    that card outlined again), as a one-item list; empty when none is. Two cards fit a plane
    whatever they are, so the find must read partly as a face: a thumb or a cuff reads as no
    card at all."""
    area = float(np.mean([_area(found.quads[i]) for i in faces]))
    candidates = [
        i
        for i, v in enumerate(score)
        if DOUBTFUL_FACE <= v < 1.0
        and 1 / TWO_PLAYER_AREA <= _area(found.quads[i]) / area <= TWO_PLAYER_AREA
        and not any(_same_card(found.quads[i], found.quads[j]) for j in faces)
    ]
    return [max(candidates, key=lambda i: score[i])] if candidates else []


def _cards(quads: list[np.ndarray]) -> int:
    """How many cards ``quads`` outline (a card may be outlined more than once)."""
    kept: list[np.ndarray] = []
    for q in quads:
        if not any(_same_card(q, k) for k in kept):
            kept.append(q)
    return len(kept)


def _merge(first: FoundCards, more: FoundCards) -> FoundCards:
    """``first``'s cards, and those of ``more`` not outlined the same in ``first``: a card
    outlined both ways stays in both (an outline on the plane may cut a card in two, or read
    worse, a court card's picture re-cut taken for a back); :func:`choose_setup` never takes
    two outlines of one card."""
    quads, crops, upright = list(first.quads), list(first.crops), list(first.upright)
    for q, crop, up in zip(more.quads, more.crops, more.upright, strict=True):
        size = math.sqrt(_area(q))
        # only the very same outline is left out: a few pixels off, a card reads otherwise
        if not any(np.abs(np.asarray(f) - q).max() < 0.01 * size for f in quads):
            quads.append(q)
            crops.append(crop)
            upright.append(up)
    return FoundCards(quads, crops, upright)


def warp_ordered(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The upright card whose corners (top-left, top-right, bottom-right, bottom-left) are
    ``quad`` in ``image``: the order is kept (a card seen very obliquely may look wider than
    long; its order comes from the plane, where its shape is true)."""
    from vision.detect.preprocess import CARD_H, CARD_W

    dst = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), dst)
    return cv2.warpPerspective(
        image, m, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _rectified_finds(
    frame: np.ndarray, fit: PlaneFit, detect: Callable[[np.ndarray], object]
) -> FoundCards:
    """Cards found on the plane seen from above round the cards already found (frame pixels,
    corners in the upright card's order)."""
    middle = fit.centres.mean(axis=0)
    radius = float(np.hypot(*(fit.centres - middle).T).max()) * 1.5 + 1.6
    shift = np.array([[1.0, 0, -middle[0]], [0, 1.0, -middle[1]], [0, 0, 1.0]])
    view = PlaneView.make(shift @ fit.homography, radius, long_side=640, margin=0.0)
    top = view.warp(frame)
    found = detect(top)
    quads = []
    for q, part in zip(found.quads, found.partial, strict=True):  # type: ignore[attr-defined]
        if not part:
            quads.append(view.to_image(np.asarray(q, np.float64).reshape(4, 2)))
    h, w = frame.shape[:2]
    inside = [
        q
        for q in quads
        if (q >= -2).all() and (q[:, 0] <= w + 2).all() and (q[:, 1] <= h + 2).all()
    ]
    return FoundCards(inside, [warp_ordered(frame, q) for q in inside], [True] * len(inside))
