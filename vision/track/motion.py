"""What moves on the table, and which cards have come to rest.

* :class:`MotionGate`: frame differencing on a tiny grey copy of the frame. It records, per
  cell of a coarse grid, when something last moved there. Detection (the costly step) runs
  often while something moves and now and then when all is still.
* :class:`CardTracker`: follows detected cards between detections. A card has *arrived* once it
  has lain still for ``rest_s`` (about 0.2 s): seen at least twice in the same place looking the
  same, whatever moves elsewhere on the table (players lay their cards 0.3 s apart and the
  next arm comes in while the last card settles). A card carried in, drifting with a hand
  over the table, or covered by the fingers that lay it, is not still. A card hidden for a
  moment (a hand passing over it) keeps its stillness when it shows again unmoved. A card
  that is missing from a quiet region twice, ``gone_s`` apart, has left.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np


class MotionGate:
    """When did something last move, per cell of a coarse grid over the frame?"""

    def __init__(self, long_side: int = 160, cell: int = 8, threshold: int = 14) -> None:
        self.long_side, self.cell, self.threshold = long_side, cell, threshold
        self.prev: np.ndarray | None = None
        self.last_motion: np.ndarray | None = None  # seconds, per cell
        self.scale = 1.0
        self.last_any = -math.inf
        self.started = math.inf
        """When the first frame came (nothing is known still before a frame to compare)."""
        self.looked: np.ndarray | None = None
        """The tiny copy as it was at the last look (:meth:`mark_look`)."""

    def update(
        self,
        image: np.ndarray,
        t: float,
        to_view: np.ndarray | None = None,
        view_size: tuple[int, int] | None = None,
    ) -> bool:
        """Feed a frame; True when something moved since the previous one. With ``to_view``
        (a homography from the frame to a picture of ``view_size`` (width, height), such as
        the table's :class:`~vision.track.plane.PlaneView`), motion is recorded in that
        picture's pixels, and :meth:`last_motion_in` takes quads in them: the tiny grey copy
        is then warped straight from the frame, halved first, so that a frame in which
        nothing is to be detected never has the whole view warped (about a third of the
        cost, with the same motion found)."""
        grey = self._small(image, to_view, view_size)
        sh, sw = grey.shape
        gh, gw = -(-sh // self.cell), -(-sw // self.cell)
        if self.prev is None or self.prev.shape != grey.shape:
            self.started = t
            self.prev = grey
            self.last_motion = np.full((gh, gw), -math.inf)
            return False
        diff = cv2.absdiff(grey, self.prev)
        self.prev = grey
        hot = self._hot(diff > self.threshold)
        if hot.any():
            assert self.last_motion is not None
            # a moving cell also disturbs its neighbours' detections (shadows, blur)
            hot = cv2.dilate(hot.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            self.last_motion[hot] = t
            self.last_any = t
            return True
        return False

    def mark_look(self) -> None:
        """Remember the latest frame as the one detection last looked at."""
        self.looked = self.prev

    def changed_since_look(self) -> bool:
        """Has anything changed since the last look (:meth:`mark_look`), however slowly: a
        cell of the tiny copy moved as :meth:`update` counts motion, but against that look
        rather than the previous frame (light drifting, a card pushed a hair a frame)."""
        if self.looked is None or self.prev is None or self.looked.shape != self.prev.shape:
            return True
        moving = cv2.absdiff(self.prev, self.looked) > self.threshold
        return bool(moving.any() and self._hot(moving).any())

    def _hot(self, moving: np.ndarray) -> np.ndarray:
        """The cells (of :attr:`cell` x :attr:`cell` pixels of the tiny copy) in which at
        least two of the ``moving`` pixels (booleans, the tiny copy's shape) lie."""
        sh, sw = moving.shape
        gh, gw = -(-sh // self.cell), -(-sw // self.cell)
        padded = np.zeros((gh * self.cell, gw * self.cell), np.uint8)
        padded[:sh, :sw] = moving
        return np.asarray(padded.reshape(gh, self.cell, gw, self.cell).sum(axis=(1, 3)) >= 2)

    def _small(
        self,
        image: np.ndarray,
        to_view: np.ndarray | None,
        view_size: tuple[int, int] | None,
    ) -> np.ndarray:
        """The blurred tiny grey copy (of the frame, or of its view) frames are compared by."""
        h, w = image.shape[:2]
        out_w, out_h = (w, h) if to_view is None or view_size is None else view_size
        if self.prev is None:
            self.scale = self.long_side / max(out_w, out_h)
        sw, sh = max(8, round(out_w * self.scale)), max(8, round(out_h * self.scale))
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if to_view is None or view_size is None:
            small = cv2.resize(grey, (sw, sh), interpolation=cv2.INTER_AREA)
        else:
            # halved while the frame stays at least four times the tiny copy (area averages:
            # what the copy is made of is the light of the whole pixel, not one point)
            f = 1
            while min(grey.shape[:2]) >= 8 and max(grey.shape[:2]) // 2 >= 4 * max(sw, sh):
                grey = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
                f *= 2
            # pixel centres: frame x = f * half x + (f - 1) / 2; tiny x = s (view x + 1/2) - 1/2
            half_to_frame = np.array([[f, 0, (f - 1) / 2], [0, f, (f - 1) / 2], [0, 0, 1.0]])
            sx, sy = sw / out_w, sh / out_h
            view_to_small = np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1.0]])
            matrix = view_to_small @ np.asarray(to_view, np.float64) @ half_to_frame
            small = cv2.warpPerspective(
                grey, matrix, (sw, sh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        return cv2.GaussianBlur(small, (3, 3), 0)

    def last_motion_in(self, quad: np.ndarray) -> float:
        """The last time anything moved in the cells under ``quad`` (frame pixels, or the
        view's when :meth:`update` is given one)."""
        if self.last_motion is None:
            return -math.inf
        pts = np.asarray(quad, np.float64).reshape(-1, 2) * self.scale / self.cell
        gh, gw = self.last_motion.shape
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(gw, max(x1, x0 + 1)), min(gh, max(y1, y0 + 1))
        region = self.last_motion[y0:y1, x0:x1]
        return float(region.max()) if region.size else -math.inf


def _signature(crop: np.ndarray) -> np.ndarray:
    v = cv2.resize(np.ascontiguousarray(crop[:, :, :3]), (20, 30), interpolation=cv2.INTER_AREA)
    v = v.astype(np.float32)
    v -= v.mean()
    return v / (float(np.linalg.norm(v)) + 1e-6)


SAME_CARD = 0.9
"""Correlation of two tiny colour warps above which they show the same card."""


def same_card(a: np.ndarray, b: np.ndarray, threshold: float = SAME_CARD) -> bool:
    """Do two upright warps show the same card (either way up)? Cheap: 20 x 30 colour."""
    sa, sb = _signature(a), _signature(b)
    return max(float((sa * sb).sum()), float((sa * sb[::-1, ::-1]).sum())) >= threshold


TWICE = 0.6
"""A find sharing more than this of the smaller outline with another find of the same look is
the same card found twice: its outline and from its corner, or outlined twice a few pixels apart
with fingers over it (fresh seed 10250 full Klaberjass: a far 9C held still 0.5 s half under its
player's hand, found as two cards 10 px apart sharing 77 %, played twice, and every later trick
shifted). Two cards cannot both show their whole outline while one covers most of the other."""

MAX_VIEWS = 6
"""Upright warps kept per card: the first sightings, then later looks while it rests."""

REFOUND = 0.9
"""A find sharing this much of the smaller outline with a resting card's is that card found
again, though its outline moved (a shadow that cut it short has gone): see ``found_look``."""

MOVED = 0.08
"""A card whose corners shifted by more than this fraction of its size is not where it lay:
a card slid in never lands exactly where the last one lay."""


def moved(a: np.ndarray, b: np.ndarray) -> bool:
    """Has a card outline moved (either way round: outlines are ordered up to 180 degrees)?"""
    pa = np.asarray(a, np.float64).reshape(4, 2)
    pb = np.asarray(b, np.float64).reshape(4, 2)
    size = math.sqrt(max(abs(cv2.contourArea(pa.astype(np.float32))), 1.0))
    shift = min(float(np.abs(pa - np.roll(pb, k, axis=0)).max()) for k in (0, 2))
    return shift > MOVED * size


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two card outlines, as a fraction of the smaller one."""
    pa = np.asarray(a, np.float32).reshape(4, 2)
    pb = np.asarray(b, np.float32).reshape(4, 2)
    area_a, area_b = abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb))
    if min(area_a, area_b) <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(pa), cv2.convexHull(pb))
    return float(inter) / min(area_a, area_b)


@dataclass
class Track:
    """A card the tracker follows. ``status``: candidate -> present -> gone."""

    id: int
    quad: np.ndarray
    first_seen: float
    last_seen: float
    crops: list[np.ndarray] = field(default_factory=list)
    status: str = "candidate"
    misses: int = 0
    missing_since: float = math.inf
    steady_since: float = math.nan
    """Since when a candidate has lain still (seen in place, looking the same)."""
    sightings: int = 1
    """Sightings since ``steady_since``."""
    anchor: np.ndarray | None = None
    """Where it lay when it became still: slow drift (a hand hesitating) is not stillness."""
    look: np.ndarray | None = None
    """Its latest upright warp."""
    recent: list[np.ndarray] = field(default_factory=list)
    """Its last few upright warps (a candidate's)."""
    unseen_since: float = math.inf
    found_last: float = -math.inf
    """When it was last found in place, even with something moving there (``last_seen``:
    the last look while all was quiet)."""
    found_look: np.ndarray | None = None
    """Its upright warp when it was last found in place (``found_last``; or on much of the
    same place, :data:`REFOUND`), even with something moving there (``look``: the last one
    while all was quiet)."""
    found_quad: np.ndarray | None = None
    """The outline ``found_look`` was warped from."""
    near_look: np.ndarray | None = None
    """Its upright warp as it was found last (``found_last``), in place or a little way off:
    an outline found wrong as the card came to rest (a hand's shadow run into it) and right
    since is "a little way off", and only this look shows the card."""
    near_quad: np.ndarray | None = None
    """The outline ``near_look`` was warped from."""

    def __post_init__(self) -> None:
        if math.isnan(self.steady_since):
            self.steady_since = self.first_seen
        if self.anchor is None:
            self.anchor = np.asarray(self.quad)
        if self.look is None and self.crops:
            self.look = self.crops[-1]

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.quad, np.float64).reshape(4, 2).mean(axis=0)

    @property
    def area(self) -> float:
        return float(abs(cv2.contourArea(np.asarray(self.quad, np.float32).reshape(4, 2))))


STILL = 0.06
"""A card whose middle moved by this fraction of its size since the last look is moving."""

DRIFT = 0.09
"""A card whose middle moved by this fraction of its size since it was first seen still is
drifting (a hand holding it over the table, or the card gliding to rest), not lying."""


@dataclass(frozen=True)
class TrackerTimes:
    """Times in seconds (real tables: a card lies 0.3 s before the next arm comes, the trick
    is gathered 0.5 s after its last card)."""

    rest_s: float = 0.2
    """A card lying still this long (seen at least twice) has arrived."""
    gone_s: float = 0.4
    """A card missing from a still region this long (and twice) has left the table."""
    settle_s: float = 0.25
    """A region must have been still this long before a card missing there counts as missing."""
    look_s: float = 0.09
    """While anything moves or a card is pending, look this often."""
    idle_s: float = 0.5
    """When all is still, look this often."""
    lost_s: float = 1.0
    """A candidate not seen for this long (covered, or taken away) is forgotten."""
    bare_s: float = 0.12
    """A card whose place shows bare table this long (twice) has left, whatever moves near."""
    unseen_s: float = 2.5
    """A card not found where nothing moved, its place not bare, this long has left."""


class CardTracker:
    """Cards arriving and leaving, from detections."""

    def __init__(
        self,
        times: TrackerTimes | None = None,
        same: Callable[[Track, np.ndarray], bool] | None = None,
        replaceable: Callable[[Track, set[int], np.ndarray | None], bool] | None = None,
    ) -> None:
        self.times = times or TrackerTimes()
        self.same = same
        """Is a crop still the tracked card? Asked when something passed over the card since
        it was last seen and it has not moved (None: it is)."""
        self.replaceable = replaceable or (lambda tr, seen, crop: True)
        """May another card take this card's place, given the tracks seen in place now and
        the find there now (its upright warp; None: any find)? Not a card of a trick still
        on the table: a hand lying still over it makes it look different, and that is not a
        new card."""
        self.tracks: list[Track] = []
        self.next_id = 0
        self.last_detection = -math.inf
        self.seen_now: set[int] = set()
        """The tracks found in place (or slid a little, looking the same) in the last look."""

    def live(self) -> list[Track]:
        return [t for t in self.tracks if t.status in ("candidate", "present")]

    def busy(self, gate: MotionGate, t: float) -> bool:
        """Something moved a moment ago, or a card is still settling or being missed. A
        candidate found where nothing had moved for a good while before (longer than a card
        takes to arrive, or to be lost) is no card coming to rest: a patterned cloth's
        square, found at one look and not the next, on a still table (it is still looked
        at, twice a second)."""
        times = self.times
        if t - gate.last_any < times.rest_s + times.settle_s + times.gone_s:
            return True
        recent = times.rest_s + times.settle_s + times.gone_s + times.lost_s
        return any(
            tr.misses
            or (tr.status == "candidate" and gate.last_motion_in(tr.quad) >= tr.first_seen - recent)
            for tr in self.tracks
        )

    def wants_detection(self, gate: MotionGate, t: float) -> bool:
        """Is it worth running detection on the frame at ``t``?"""
        since = t - self.last_detection
        return since >= (self.times.look_s if self.busy(gate, t) else self.times.idle_s) - 1e-6

    def note_motion(self, moved: bool) -> None:
        """(Kept for callers of the older tracker: motion is read from the gate.)"""

    def update(
        self,
        quads: np.ndarray,
        crops: np.ndarray,
        partial: np.ndarray,
        gate: MotionGate,
        t: float,
        image: np.ndarray | None = None,
        empty: np.ndarray | None = None,
    ) -> tuple[list[Track], list[Track]]:
        """Fold one detection in; returns (tracks that arrived, tracks that left). ``image``
        (the picture detected in) lets a card whose place is plainly bare table leave at
        once, whatever moves around it; ``empty`` is that picture as it was with no card on
        the table, when known (:class:`TableLook`)."""
        times = self.times
        before, self.last_detection = self.last_detection, t
        quiet_before = t - times.settle_s
        table = TableLook(image, empty) if image is not None else None

        def quiet(quad: np.ndarray) -> bool:
            return gate.last_motion_in(quad) <= quiet_before

        live = self.live()
        used: set[int] = set()
        matched: dict[int, int] = {}
        pairs = []
        for i, q in enumerate(quads):
            c = np.asarray(q, np.float64).reshape(4, 2).mean(axis=0)
            area = float(abs(cv2.contourArea(np.asarray(q, np.float32).reshape(4, 2))))
            for k, tr in enumerate(live):
                dist = float(np.hypot(*(c - tr.centre)))
                ratio = area / max(tr.area, 1.0)
                if dist < 0.3 * math.sqrt(max(tr.area, 1.0)) and 0.6 < ratio < 1.65:
                    pairs.append((dist, i, k))
        for _dist, i, k in sorted(pairs):
            if i in used or k in matched:
                continue
            used.add(i)
            matched[k] = i
        # a resting card not found in place, found a little way off looking the same: the same
        # card pushed aside, or the camera knocked (every card then seems to move)
        slid: set[int] = set()
        for k, tr in enumerate(live):
            if k in matched or tr.status != "present" or tr.look is None:
                continue
            reach = 0.8 * math.sqrt(max(tr.area, 1.0))
            near = sorted(
                (
                    float(
                        np.hypot(
                            *(np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) - tr.centre)
                        )
                    ),
                    i,
                )
                for i, q in enumerate(quads)
                if i not in used
            )
            for dist, i in near:
                if dist < reach and same_card(tr.look, crops[i]):
                    used.add(i)
                    matched[k] = i
                    slid.add(k)
                    break
        jolt = _jolt(live, matched, quads, before)
        if jolt is not None:
            # a card coming to rest, found where the bump put it (further than a card seems
            # to move between looks), looking as it did: the same card (fresh seed 10421 full
            # Clabber, 30 fps: a bump 0.4 s after trick 3's last card QD landed, found 31 px
            # off, was taken for a new find; the trick was gathered before that had come to
            # rest, and the play was missed)
            for k, tr in enumerate(live):
                if k in matched or tr.status != "candidate" or tr.look is None:
                    continue
                if tr.last_seen != before or tr.anchor is None:
                    continue
                there = np.asarray(tr.quad, np.float64).reshape(4, 2) + jolt.at(tr.quad)
                near = sorted(
                    (_moved_by(there, quads[i]), i) for i in range(len(quads)) if i not in used
                )
                for dist, i in near:
                    if dist < STILL and same_card(tr.look, crops[i]):
                        used.add(i)
                        matched[k] = i
                        break
        # two cards still coming to rest found sharing nearly all of one outline (REFOUND) are
        # one card found twice, followed as two since their first finds lay apart: the later
        # track is dropped (fresh seed 10491 full Belote, 10 fps: trick 3's last card 9H,
        # outlined whole and with a strip of the table beside it, sharing 0.96-0.99, came to
        # rest as two cards; the second was taken for seat 2's lead of trick 4, the trick "left
        # the table short" and every later trick shifted). Not TWICE: a card laid over one
        # still settling, its index corner showing (outlined from that corner), shares less
        # than REFOUND but may share more than TWICE.
        coming = sorted(
            (k for k in matched if live[k].status == "candidate"), key=lambda k: live[k].id
        )
        for n, k in enumerate(coming):
            if k in matched and any(
                j in matched and overlap(quads[matched[j]], quads[matched[k]]) > REFOUND
                for j in coming[:n]
            ):
                del matched[k]
                live[k].status = "dropped"
        arrived: list[Track] = []
        left: list[Track] = []
        seen = {live[k].id for k in matched}
        self.seen_now = seen
        for k, tr in enumerate(live):
            if tr.status == "dropped":
                continue
            i = matched.get(k)
            if tr.status == "candidate":
                if i is None:
                    if tr.unseen_since == math.inf:
                        tr.unseen_since = t
                    if quiet(tr.quad) or t - tr.unseen_since > times.lost_s:
                        tr.status = "dropped"  # a false find, or carried on, or taken away
                    continue
                if jolt is not None and tr.last_seen == before and tr.anchor is not None:
                    # found moved as the cards lying still moved at once: the camera moved,
                    # not the card (fresh seed 10351 light Klaberjass: a bump 0.5 s after
                    # trick 6's JH landed, the hand just gone, made it start coming to rest
                    # again; the trick was gathered before it had, its play missed)
                    shift = jolt.at(tr.quad)
                    moved_with = np.asarray(tr.quad, np.float64).reshape(4, 2) + shift
                    if _moved_by(tr.quad, quads[i]) >= STILL > _moved_by(moved_with, quads[i]):
                        tr.quad = moved_with.astype(np.float32)
                        tr.anchor = (
                            np.asarray(tr.anchor, np.float64).reshape(4, 2) + shift
                        ).astype(np.float32)
                if self._still(tr, quads[i], crops[i]):
                    tr.sightings += 1
                elif _wobbles(tr, quads[i]):
                    pass  # lying where it lay, its outline (and so its look) unsteady: wait
                else:
                    tr.steady_since, tr.sightings, tr.anchor = t, 1, np.asarray(quads[i])
                    tr.crops = [crops[i]]  # its first look lying still (not sliding in)
                tr.quad, tr.last_seen, tr.look, tr.unseen_since = quads[i], t, crops[i], math.inf
                tr.recent = [*tr.recent[-2:], crops[i]]
                if tr.sightings >= 2 and t - tr.steady_since >= times.rest_s - 1e-6:
                    tr.status = "present"
                    # its looks while lying still: the first one only if it is this card too
                    first = [c for c in tr.crops[:1] if same_card(c, crops[i])]
                    tr.crops = [*first, crops[i]]
                    arrived.append(tr)
                continue
            if k in slid:
                tr.quad, tr.last_seen, tr.misses, tr.missing_since = quads[i], t, 0, math.inf
                tr.look = crops[i]
                continue
            # something passed over it since it was last seen: is it still the same card?
            passed_over = i is not None and gate.last_motion_in(tr.quad) > tr.last_seen
            # another card lying still where this one lay, which may take its place (a card of
            # a trick still on the table may be partly covered by the next one: not replaced)
            differs = (
                i is not None
                and tr.look is not None
                and not same_card(tr.look, crops[i])
                and not _shifted(tr.quad, quads[i], STILL)
                and self.replaceable(tr, seen, None)
                and self.replaceable(tr, seen, crops[i])
            )
            if i is not None and (
                differs
                or (
                    passed_over
                    and quiet(quads[i])
                    and (
                        moved(tr.quad, quads[i])
                        or tr.misses > 0  # its place was seen empty since: another card
                        or (self.same is not None and not self.same(tr, crops[i]))
                    )
                )
            ):
                if not self.replaceable(tr, seen, crops[i]):
                    # covered, not replaced: wait until it is seen clearly (a card looking
                    # as it did, where it lay, is at least found there: it has not left)
                    if (
                        tr.look is not None
                        and not moved(tr.quad, quads[i])
                        and same_card(tr.look, crops[i])
                    ):
                        tr.found_last, tr.found_look, tr.found_quad = t, crops[i], quads[i]
                        tr.near_look, tr.near_quad = crops[i], quads[i]
                    continue
                used.discard(i)
                del matched[k]
                i = None
                tr.misses = 2
                tr.missing_since = -math.inf
            if i is not None:
                tr.found_last, tr.near_look, tr.near_quad = t, crops[i], quads[i]
                if not moved(tr.quad, quads[i]) or overlap(tr.quad, quads[i]) >= REFOUND:
                    # (an outline found whole where a shadow had cut it short)
                    tr.found_look, tr.found_quad = crops[i], quads[i]
                if not quiet(quads[i]):
                    continue
                tr.quad, tr.last_seen, tr.misses, tr.missing_since = quads[i], t, 0, math.inf
                tr.look = crops[i]
                if len(tr.crops) < MAX_VIEWS:
                    tr.crops.append(crops[i])  # another look at a resting card
                continue
            # the cloth round it is judged without the cards lying beside it, but not without
            # the finds still coming to rest: a hand over the card is found as several (fresh
            # seed 10265 hands Klaberjass: left out, they left a ring of fingers, the card
            # under them "as bare as the cloth round it", and the trick gathered under a hand)
            lying = [x.quad for x in live if x is not tr and x.status == "present"]
            bare = table is not None and table.bare(tr.quad, lying)
            if not bare and not quiet(tr.quad):
                continue  # covered, or something moving over it: not seen missing
            tr.misses += 1
            tr.missing_since = min(tr.missing_since, t)
            # not found where nothing moves is weaker evidence (touching cards may merge into
            # one blob the detector rejects): only after a long while, or when bare is unknown
            wait = times.bare_s if bare else times.gone_s if table is None else times.unseen_s
            if tr.misses >= 2 and t - tr.missing_since >= wait:
                tr.status = "gone"
                left.append(tr)
        # a find over a card of a trick still on the table, when that card's own outline was
        # not found, is that card partly covered; when it was found too, another card lies
        # over it (the next player's card laid across it)
        keep = [
            tr
            for tr in self.live()
            if tr.status == "present" and tr.id not in seen and not self.replaceable(tr, seen, None)
        ]
        for i, q in enumerate(quads):
            if i in used or bool(partial[i]):
                continue
            if any(overlap(q, tr.quad) > 0.4 for tr in keep):
                continue  # a card of this trick, partly covered: not a new card
            if any(overlap(q, quads[j]) > TWICE for j in used):
                continue  # the same card found twice (see TWICE)
            used.add(i)
            self.tracks.append(Track(self.next_id, q, t, t, [crops[i]]))
            self.next_id += 1
        # forget what is long gone: the list stays short over a whole session
        self.tracks = [tr for tr in self.tracks if tr.status in ("candidate", "present")]
        arrived.sort(key=lambda tr: tr.first_seen)
        return arrived, left

    @staticmethod
    def _still(tr: Track, quad: np.ndarray, crop: np.ndarray) -> bool:
        """Has ``tr`` lain still since it was last seen (and since it became still)?"""
        if tr.anchor is None or tr.look is None:
            return False
        # the middle is where a card lies; its corners wobble a little from find to find (a
        # card partly under another is outlined now whole, now from its corner)
        # a card drifting with a hand, or gliding to rest, keeps going one way: away from
        # where it was first seen still; a lying card's outline only wobbles about its place
        if _moved_by(tr.quad, quad) >= STILL or _moved_by(tr.anchor, quad) >= DRIFT:
            return False
        if not _shifted(tr.quad, quad, 3 * STILL) and same_card(tr.look, crop):
            return True
        # exactly where it lay, though its outline flickers (partly covered: outlined now
        # whole, now from its corner) and with it its look: like one of its recent looks
        return _moved_by(tr.anchor, quad) < STILL and any(
            same_card(c, crop, 0.8) for c in tr.recent
        )


class Jolt(NamedTuple):
    """Every card lying still seen moved at once (the camera bumped): the move of the table
    they show, as a 2 x 3 similarity (a turn, a scale and a shift, fitted to where each card
    lay and was found; a pure shift when only one card lies)."""

    move: np.ndarray

    def at(self, quad: np.ndarray) -> np.ndarray:
        """How far a point of the table at ``quad``'s middle seemed to move (a bump that
        turns the camera a degree moves the near and far parts of the table unequally)."""
        c = np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0)
        return np.asarray(self.move[:, :2] @ c + self.move[:, 2] - c)


def _similarity(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """The 2 x 3 similarity (least squares) taking points ``before`` (N x 2) to ``after``; a
    pure shift for one point."""
    if len(before) == 1:
        dx, dy = after[0] - before[0]
        return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    x, y = before[:, 0], before[:, 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows = np.concatenate([np.stack([x, -y, one, zero], 1), np.stack([y, x, zero, one], 1)])
    (a, b, tx, ty), *_ = np.linalg.lstsq(
        rows, np.concatenate([after[:, 0], after[:, 1]]), rcond=None
    )
    return np.array([[a, -b, tx], [b, a, ty]])


def _jolt(
    live: list[Track], matched: dict[int, int], quads: np.ndarray, before: float
) -> Jolt | None:
    """How the table seems to have moved since the last look (:class:`Jolt`, pixels) when
    every card lying still moved alike at once (the camera bumped or shaken), else None.
    Only cards found at the last look too count (from where they were found then); each
    must have moved by half of :data:`STILL` of its size, and their shifts agree within a
    quarter of their mean and a tenth of :data:`STILL` (a bump that turns the camera a
    degree or two moves the near and far cards a few pixels apart: fresh seed 10421 full
    Clabber's three cards moved 22-28 px, up to 4 px apart, a turn of 2.5 degrees and a
    scale of 1.03)."""
    centres, shifts, sizes = [], [], []
    for k, tr in enumerate(live):
        i = matched.get(k)
        if i is None or tr.status != "present" or tr.near_quad is None or tr.found_last != before:
            continue
        last = np.asarray(tr.near_quad, np.float64).reshape(4, 2)
        centres.append(last.mean(axis=0))
        shifts.append(np.asarray(quads[i], np.float64).reshape(4, 2).mean(axis=0) - centres[-1])
        sizes.append(math.sqrt(max(abs(cv2.contourArea(last.astype(np.float32))), 1.0)))
    if not shifts:
        return None
    mean = np.mean(shifts, axis=0)
    size = min(sizes)
    if any(float(np.hypot(*v)) < 0.5 * STILL * size for v in shifts):
        return None
    tolerance = 0.25 * float(np.hypot(*mean)) + 0.1 * STILL * size + 1.0
    if any(float(np.hypot(*(v - mean))) > tolerance for v in shifts):
        return None
    before_at = np.array(centres)
    move = _similarity(before_at, before_at + np.array(shifts))
    scale = float(np.hypot(*move[:, 0]))
    if not 0.9 < scale < 1.1 or abs(math.atan2(move[1, 0], move[0, 0])) > math.radians(5):
        return None  # no knock turns or scales the view so (cards moved each its own way)
    return Jolt(move)


def _wobbles(tr: Track, quad: np.ndarray) -> bool:
    """Does a card still where it lay only look otherwise, its outline wobbling (a far card a
    few dozen pixels long, outlined now a pixel or two this way, now that way, and warped
    to a look unlike the last)? Its middle has not moved from where it became still."""
    if tr.anchor is None:
        return False
    return _moved_by(tr.anchor, quad) < STILL and _moved_by(tr.quad, quad) < STILL


def _moved_by(a: np.ndarray, b: np.ndarray) -> float:
    """How far the middle of outline ``b`` is from ``a``'s, as a fraction of ``a``'s size."""
    pa = np.asarray(a, np.float64).reshape(4, 2)
    pb = np.asarray(b, np.float64).reshape(4, 2)
    size = math.sqrt(max(abs(cv2.contourArea(pa.astype(np.float32))), 1.0))
    return float(np.hypot(*(pa.mean(axis=0) - pb.mean(axis=0)))) / size


def _shifted(a: np.ndarray, b: np.ndarray, fraction: float) -> bool:
    pa = np.asarray(a, np.float64).reshape(4, 2)
    pb = np.asarray(b, np.float64).reshape(4, 2)
    size = math.sqrt(max(abs(cv2.contourArea(pa.astype(np.float32))), 1.0))
    shift = min(float(np.abs(pa - np.roll(pb, k, axis=0)).max()) for k in (0, 2))
    return shift > fraction * size


EMPTY_DIFF = 40
"""A place shows the table as it looked bare when each pixel of it differs from that look by
at most this much (the three colour levels summed, 0-255 each) ..."""
EMPTY_SHARE = 0.9
"""... for at least this share of the place's inside."""


BARE_TOL = 150.0
"""The most a pixel of a card's place may differ from the cloth round it (summed over the three
channels) and still look like it. The tolerance grows with the ring's spread (a wood grain, a
pattern), but a ring half hand, half cloth spreads wide too, and with no bound a card under the
fingers looked "as bare as the cloth round it" (fresh seed 10265 hands Klaberjass: a trick's
two cards left under a hovering hand, the trick taken for gathered, every later trick shifted)."""


class TableLook:
    """Is a card's place bare table now? Its inside against the cloth just round it (the
    cloth's colour where it lies, in this light), on a half-size copy of the picture; or,
    where the cloth is not of one colour (folds, a pattern, the light's falloff), its inside
    against ``empty``, the table as it looked with no card on it (the same picture size)."""

    def __init__(self, image: np.ndarray, empty: np.ndarray | None = None) -> None:
        self.small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        self.small = cv2.GaussianBlur(self.small, (3, 3), 0).astype(np.int16)
        self._empty = empty if empty is not None and empty.shape[:2] == image.shape[:2] else None
        self._empty_small: np.ndarray | None = None

    @property
    def empty(self) -> np.ndarray | None:
        """The empty table at the half size, made the first time a place needs it (most
        frames none does)."""
        if self._empty is not None and self._empty_small is None:
            e = cv2.resize(self._empty, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            self._empty_small = cv2.GaussianBlur(e, (3, 3), 0).astype(np.int16)
        return self._empty_small

    def bare(self, quad: np.ndarray, others: list[np.ndarray]) -> bool:
        h, w = self.small.shape[:2]
        q = np.asarray(quad, np.float64).reshape(4, 2) / 2
        c = q.mean(axis=0)
        inner = np.round(c + (q - c) * 0.75).astype(np.int32)
        outer = np.round(c + (q - c) * 1.7).astype(np.int32)
        near = np.round(c + (q - c) * 1.15).astype(np.int32)
        x0, y0 = np.clip(outer.min(axis=0), 0, [w, h])
        x1, y1 = np.clip(outer.max(axis=0) + 1, 0, [w, h])
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        box = self.small[y0:y1, x0:x1]
        off = np.array([x0, y0])
        m_in = np.zeros(box.shape[:2], np.uint8)
        cv2.fillConvexPoly(m_in, inner - off, 1)
        m_ring = np.zeros(box.shape[:2], np.uint8)
        cv2.fillConvexPoly(m_ring, outer - off, 1)
        cv2.fillConvexPoly(m_ring, near - off, 0)
        for o in others:  # other cards are not the cloth
            oq = np.asarray(o, np.float64).reshape(4, 2) / 2
            oc = oq.mean(axis=0)
            cv2.fillConvexPoly(m_ring, np.round(oc + (oq - oc) * 1.15 - off).astype(np.int32), 0)
        ring = box[m_ring > 0]
        inside = box[m_in > 0]
        if len(ring) < 12 or len(inside) < 12:
            return False
        cloth = np.median(ring, axis=0)
        spread = np.median(np.abs(ring - cloth).sum(axis=1))
        tol = min(max(30.0, 3.0 * float(spread)), BARE_TOL)
        like = (np.abs(inside - cloth).sum(axis=1) <= tol).mean()
        if like >= 0.9:
            return True
        empty = self.empty
        if empty is None:
            return False
        # the cloth round it is not one colour (development seed 10112 oblique Klaberjass: a
        # fold's shade across the gathered JH's place kept it on the table 2.5 s, and the next
        # lead was taken for the trick's second card): as it was with no card on it?
        was = empty[y0:y1, x0:x1][m_in > 0]
        return bool((np.abs(inside - was).sum(axis=1) <= EMPTY_DIFF).mean() >= EMPTY_SHARE)
