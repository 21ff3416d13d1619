"""The pipeline loop: frames in, plays and tricks out, the hand record at the end.

Per frame only the motion gate runs (a 160-pixel grey copy, a difference, a grid). Detection
runs when the table settles (or now and then while something keeps moving), and the classifier
reads only cards that have just come to rest. Each arrival is then one of:

* a *fixture*: before the first lead, the card the game says lies face up (Clabber's upcard,
  Klaberjass's candidate, Clag's turned trump card) is not a play;
* a play *back in view* (a hand lifted off it): told by where it lies and how it looks, never
  by its name alone (a new card may be read as the name an earlier play was misread as);
* a *play*: its seat is the side of the table it lies on (:mod:`vision.track.seating`; the seat to
  move only wins a near tie); its card is decoded with the game's knowledge
  (:mod:`vision.read.decode`), and the hand is read again together (:mod:`vision.track.handread`);
* nothing: a card back or something that is not a card.

A trick is complete when every player has played to it, and gathered when its cards have left
the table. One that leaves the table short, or is followed by a card plainly on the side of a
seat that has played to it, closes with a *missed* play per silent seat: its seat is known,
its card is not (the record writes ``?``) until a person names it, and no other play moves. A
person's correction is an event in the log (:class:`Correction`), and the record is the
replay of the log: nothing is edited in place.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Literal, Protocol

import cv2
import numpy as np

from rules.cards import Card
from vision.read.decode import (
    CARD_LABELS,
    LABELS,
    LOOKALIKE_SURE,
    PLAYED_RATIO,
    DecodeError,
    Knowledge,
    Reading,
    aspect,
    combine,
    decode,
    face_probability,
    marked,
    one_hot,
    prior,
    shape_doubt,
    views_doubt,
)
from vision.read.pips import (
    count_pips,
    picture_doubt,
    pips_doubt,
    shows_picture,
    with_picture,
    with_pips,
)
from vision.read.suits import SuitReader, suit_doubt, suit_unbacked, with_lean, with_suit
from vision.track.anchor import CameraAnchor, centre_shift
from vision.track.games import GameSpec
from vision.track.handlog import HandLog, PlayEvent, WatchEvent
from vision.track.handread import (
    deduce_missed,
    named_by_deck,
    revise,
    seen_after_all,
    sure_cards,
)
from vision.track.motion import MAX_VIEWS, TWICE, overlap
from vision.track.plane import PlaneView, apply_homography, warp_ordered
from vision.track.seating import (
    SEAT_NEAR_DEGREES,
    SEAT_TIE_DEGREES,
    Placement,
    lead_before,
    place,
    together,
)
from vision.track.table import (
    CardTracker,
    MotionGate,
    TableGeometry,
    Track,
    TrackerTimes,
    moved,
    same_card,
)

MIN_FRAME_SIDE = 16
"""Frames smaller than this on a side show no table a card could be read on (1280x720 reads
best): :meth:`Watcher.feed` refuses them (:class:`FrameTooSmall`) rather than fail inside."""


class FrameTooSmall(ValueError):
    """A frame too small to follow a table in (see :data:`MIN_FRAME_SIDE`)."""


class Finds(Protocol):
    """What the watcher takes of a detector's answer (:class:`vision.detect.find.Detections`)."""

    @property
    def quads(self) -> np.ndarray: ...
    @property
    def crops(self) -> np.ndarray: ...
    @property
    def partial(self) -> np.ndarray: ...


Reader = Callable[[Sequence[np.ndarray]], np.ndarray]
"""Upright card images -> N x 54 probabilities (``CardClassifier.read_cards(...).probs``)."""

TRICK_GONE_S = 0.8
"""A trick's cards count as gone before the next card came only when last seen this long
before it was (rendered hands: gathering, then leading, takes 2 s or more; a hand sliding a
card in hides the cards under it just as that card comes)."""


LAST_LEFT_S = 1.0
"""The last trick's cards all gone before it was complete are judged gathered short (its
missing plays inferred) only once they have stayed gone this long: a lone card held still a
moment at its player's edge, taken for played, and then carried on to where it is laid leaves
first and lands a moment later (fresh seed 10301 full Belote: the last trick's KC carried on,
three missed plays inferred at once, and the trick's real cards came after the hand was over)."""


BACK_AFTER_GATHER_S = 1.5
"""A card of the trick judged gathered less than this ago, reading surely as that card near
where it lay, is that card back in view (a hand lifted off the trick: it was covered, not
gathered), however its outline and look differ from the play's: that play's outline may have
been odd (fresh seed 10494 hands Klaberjass, 10 fps: trick 6's 7H, played with an outline
twice as long as wide, found 0.2 s after a hand over the trick had it judged gathered with its
normal outline, was taken for seat 1's lead of trick 7; its own play was "revised" to 9H and
every later play shifted). A play marked in doubt that does not look as it did comes back so
only with its trick: another of the trick's cards found again where it lay. Its name is the
doubt, and its seat may lead that very card next (fresh seed 10598 hands Klaberjass, 30 fps:
trick 3's KS read KC, marked; 1.3 s after the trick was gathered its seat led the real KC to
the same spot, nothing else of trick 3 in view, taken for the KC back in view, and every later
trick shifted; in 10494 the 7H was marked too, and the trick's JD was found again with it)."""

COVER_GRID, COVER_DIFF, COVER_SHARE = 24, 45.0, 0.35
"""The play area is *covered* when at least COVER_SHARE of a COVER_GRID x COVER_GRID copy
of it differs from its bare look by more than COVER_DIFF (a colour level, 0-255)."""

COVERED_PLAY_S = 0.5
"""... and a trick can have gone by unseen only if it was covered this long per player since
the last play seen."""

TOGETHER_S = 0.15
"""Cards first seen this close in time were uncovered together (a head lifted off them)."""

STILL_BARE_S = 0.3
"""The play area seen bare with nothing moving anywhere for this long shows that no card lies
on it (:meth:`Watcher._bare_since`)."""

UNSEEN_PLAY_S = 0.8
"""A trick can have gone by unseen only when at least this long per player has passed since
the last trick's last card (see :meth:`Watcher._unseen_trick`)."""

UNSURE_PLAY = 0.7
"""A play of the trick in progress read with less probability than this is never replaced by
another card found where it lies: that find is the card seen better (seed 9930 hands Clag: an
8D read JD 0.61 as it came, then plainly 8D, was taken for a second card and the trick closed)."""

PUSHED_CARDS = 2.4
"""A card of the trick in progress reading as itself (at least 0.6) on its seat's side, this
many card sizes (square root of its area) or nearer from where it lay, is that card moved:
pushed by the next card, or still in a hand that paused with it on the way in."""

DISPLACED_MIN = 0.2
"""A card of the trick in progress whose own card was never seen gone, found anew close by on
its seat's side and looking as it did, is that card moved if it reads as it at least this
much (see :meth:`Watcher._seen_again`): not plainly another card."""

CARRIED_S = 0.6
"""A doubtful latest play whose card was last found this long or less before a card came to
lie on the same seat's side, up to :data:`CARRIED_FAR` card sizes away, is that card carried
on: a trick's other cards cannot all be played and gathered unseen that fast (fresh seed 10000
hands Belote: the lead held still 0.2 s at the player's edge with the fingers over it, read
QS, then carried 2.9 card sizes on and read 10S, was taken for a second lead and the hand
cascaded)."""

CARRIED_FAR = 5.0
"""The farthest (card sizes) a card just let go of is carried on (:data:`CARRIED_S`)."""

FOUND_TWICE_SURE = 0.8
"""A card come to rest where a played card still lies, read at least this surely as that
card, is that card outlined twice (:meth:`Watcher._found_twice`)."""

CARRIED_SURE = 0.98
"""A latest play read at least this surely, gone from where it lay, and a card read as it at
least this surely found close by just after, are one card carried on, whichever seat's side it
lies on now (:meth:`Watcher._plainly_carried`); a card read as a plain play of the trick in
progress at least this surely is that play seen again, wherever it lies
(:meth:`Watcher._surely_again`)."""

CARRIED_AFTER_S = 1.5
"""A complete trick's last card, read doubtfully, is carried on only by a card come to lie
this soon after it was first seen (seed 9941: held still 0.3 s, then slid on); a card come
to lie later on its seat's side is the next lead (seed 10000 light Belote: KC lay 3.6 s, then
its seat led AH beside it, taken for KC carried on and KC revised to AH)."""

UNSEEN_WAIT_S = 3.0
"""A lead on the side of a seat that did not win the last trick, after the table was long
covered (:meth:`Watcher._unseen_trick`), is held this long to tell whether a whole trick went
by unseen (another seat's card comes to lie while it lies: it led the next trick) or only its
trick's lead was missed (it leaves with its trick first: it followed; fresh seed 9990 oblique
Klaberjass: the other player's sleeve hid every far card from the camera)."""

OUT_OF_TURN_S = 2.0
"""How long a card come to rest out of turn waits for a card still unsettled (a tracker
candidate, seen or covered since) on the side of the seat to move (:meth:`Watcher._waits`):
the hand that laid it may hover over it that long."""

REREAD_S = 0.15
"""A card read as no card when it came to rest is read again at most this often (seconds)
while it lies there (:meth:`Watcher._read_clear`)."""

DOUBT_FACE = 0.2
"""A find lying still in the play area that reads as a face-up card with at least this
probability, but under an even chance (a far card blurred to a few dozen pixels, a card in a
hand's shadow), is a *doubtful* card: never a play on its own, it is taken as the play of a
seat that would otherwise be closed missed in its trick (:meth:`Watcher._doubtful_plays`),
marked for a person to confirm."""


FIXTURE_NAME_SURE = 0.95
"""A card read as the face-up card of the deal that is in no hand (Klaberjass's candidate on
the stock, Clag's turned trump card) is taken for it, wherever it lies, only when read at least
this surely; less sure, it must lie where that card lay or look like it. A far bellot JH laid
on the table read 7H at 0.85 (7H the candidate; fresh seed 10070, oblique and full Klaberjass)
and was swallowed as the candidate back in view, its play missed."""

VIEW_SIDE = 480
"""The side (pixels) of the play area seen from above, where a calibrated plane's cards are
found and followed: a card about 85 px long, 2 % of the view, whatever its distance from the
camera (the detector's size limits are fractions of what it is given)."""


def clear_look(probs: np.ndarray) -> bool:
    """Is this reading of a card a clear look (plainly a face, some card at least 0.6)? Only
    clear looks are evidence: a hand resting on the card, a blurred or half-covered card is not."""
    return face_probability(probs) >= 0.9 and float(np.max(probs[: len(CARD_LABELS)])) >= 0.6


def pip_counts(crops: Sequence[np.ndarray], views: Sequence[np.ndarray] | np.ndarray) -> list[int]:
    """The pips counted in the middle of each view of a card (upright warps ``crops``, read
    as ``views``) that plainly shows a face and gives a count
    (:func:`vision.read.pips.count_pips`), at most ``MAX_VIEWS``: a second opinion on a
    number card's rank that never looks at its index, and so also where the index reads
    doubtfully (the count itself gives no opinion on a middle a hand or glare covers)."""
    counts: list[int] = []
    for crop, probs in zip(crops, views, strict=True):
        if len(counts) >= MAX_VIEWS:
            break
        if face_probability(probs) >= 0.9 and (n := count_pips(crop)) is not None:
            counts.append(n)
    return counts


def picture_views(
    crops: Sequence[np.ndarray], views: Sequence[np.ndarray] | np.ndarray
) -> list[bool]:
    """Whether the middle of each view of a card (upright warps ``crops``, read as ``views``)
    that reads more as a face than not shows a picture (:func:`vision.read.pips.shows_picture`),
    at most ``MAX_VIEWS``: a court's figure where a number card's index was read says one of
    the two is wrong. (More views than the pips are counted on: fresh seed 10574's QH read
    7H, blurred, was a face at 0.58 and 0.90 on its two views.)"""
    return [
        shows_picture(crop)
        for crop, probs in zip(crops, views, strict=True)
        if face_probability(probs) >= 0.5
    ][:MAX_VIEWS]


def second_looks(
    probs: np.ndarray, pips: Sequence[int], pictures: Sequence[bool], suits: Sequence[np.ndarray]
) -> np.ndarray:
    """A card's probabilities as its index reads (``probs``) weighed with the second looks at
    its views: the pips counted in their middle (:func:`vision.read.pips.with_pips`), a court's
    picture seen there (:func:`~vision.read.pips.with_picture`), the suit their whole face
    leans to and the suit it plainly shows (:func:`vision.read.suits.with_lean`,
    :func:`~vision.read.suits.with_suit`)."""
    middle = with_picture(with_pips(probs, pips), pictures)
    return with_suit(with_lean(middle, suits), suits)


class Watcher:
    """Feed frames; get :class:`WatchEvent` values; ``log`` holds the hand."""

    def __init__(
        self,
        spec: GameSpec,
        reader: Reader,
        geometry: TableGeometry | None = None,
        times: TrackerTimes | None = None,
        detector: Callable[[np.ndarray], Finds] | None = None,
        suit_reader: Reader | Literal["shipped"] | None = "shipped",
    ) -> None:
        from vision.detect.find import detect

        self.spec = spec
        self.reader = reader
        self.suit_reader: Reader | None = (
            shipped_suit_reader() if isinstance(suit_reader, str) else suit_reader
        )
        """The whole face's suit (``models/suits.onnx``, :mod:`vision.read.suits`): a second
        look at a card's suit that never reads its index; None: no such look."""
        self.geometry = geometry or TableGeometry.default(spec.players)
        if self.geometry.players != spec.players:
            raise ValueError(
                f"the table file has {self.geometry.players} seats; {spec.game} here has {spec.players}"
            )
        self.view: PlaneView | None = None
        """The table's play area seen from above (a calibrated plane): where cards are
        found and followed; None: the frame itself (an overhead camera)."""
        self.seats = self.geometry
        """Seats in the coordinates cards are followed in (the view's, or the frame's)."""
        self.seat_hints: dict[int, int] = {}
        """Track id -> the seat it was given with the cards come to rest with it
        (:meth:`_seats_together`), until it is placed."""
        self.gate = MotionGate()
        self.anchor = CameraAnchor()
        """The whole frame watched for a knocked camera while too few cards lie to tell it."""
        self.last_found: Finds | None = None
        """What the last detection found (a look at an unchanged table reuses it)."""
        self.last_crops: tuple[np.ndarray, np.ndarray] | None = None
        """The view's outlines the last look kept and their warps from the frame (a look
        reusing the last detection reuses them too: the picture has not changed)."""
        self.tracker = CardTracker(times, replaceable=self._replaceable)
        self.labels: dict[int, int] = {}  # track id -> the label index it was read as
        self.detect: Callable[[np.ndarray], Finds] = detector or detect
        self.hints = detector is None
        """Tell the detector where the cards followed lie (:func:`vision.detect.find.detect`'s
        ``known``: a new card touching one is then found as what is left of their blob)."""
        self.log = HandLog(spec)
        self.fixtures_pending = list(spec.fixtures)
        self.fixture_tracks: set[int] = set()
        self.fixture_cards: dict[int, Card] = {}  # track id -> the face-up card it showed
        self.fixture_places: dict[Card, np.ndarray] = {}
        self.fixture_looks: dict[Card, Track] = {}  # where each face-up card lay, its look
        # face-up card -> plays made when it was taken up (into a hand: Clabber's upcard)
        self.taken_up: dict[Card, int] = {}
        self.ignored_tracks: set[int] = set()
        self.ignored_reads: dict[int, tuple[float, int]] = {}
        """Track id -> (when a card read as no card was last read, the card it read clearly as
        then, or -1): see :meth:`_read_clear`."""
        self.reread_looks: dict[int, np.ndarray] = {}
        """Track id -> the look it was last read again from (:meth:`_read_clear`)."""
        self.doubtful: dict[int, tuple[Track, np.ndarray]] = {}
        """Finds that lay still reading only doubtfully as a face (:data:`DOUBT_FACE`), or
        read as no card then and since clearly only once, or as a face but never clearly
        (:meth:`_read_clear`)."""
        self.fixture_t = -math.inf  # when the last face-up card of the deal was seen to lie
        self.restored: set[int] = set()
        """Plays recorded before this watcher started (:meth:`restore`)."""
        self.play_of_track: dict[int, int] = {}
        self.views_read: dict[int, int] = {}  # track id -> how many of its views were read
        self.found_read: dict[int, int] = {}  # track id -> id() of its found look last read
        self.placed: dict[int, float] = {}  # play index -> when its outline was last moved on
        self.last_left_at: float | None = None  # the last trick's cards all left, short
        self.looked_again = False  # a doubtful play's evidence grew outside its track's views
        self.better_seen: dict[int, int] = {}  # play index -> frame it was last seen better
        self.last_seen: dict[int, float] = {}  # track id (left the table) -> when last seen
        self.size = (0, 0)
        self.frame_size = (0, 0)
        self.frame: np.ndarray | None = None
        """The last frame looked at (a calibrated plane: cards are read from it)."""
        self.detections = 0
        self.frames = 0
        self.gated = -math.inf
        """When the motion gate last saw a frame."""
        self.gathered = 0
        self.gathered_at = -math.inf
        """When the last trick was judged gathered (:data:`BACK_AFTER_GATHER_S`)."""
        self.bare_look: np.ndarray | None = None
        """The play area with no card on it (coarse, colour): what covers it is told from it."""
        self.empty_table: np.ndarray | None = None
        """The picture cards are found in, as it looked with no card on the table (followed
        as :attr:`bare_look` is): a card's place that looks so again is bare."""
        self.empty_at = -math.inf
        """When :attr:`empty_table` was last taken or followed."""
        self.still_bare_at = -math.inf
        """When the play area was last seen bare with nothing moving anywhere for
        :data:`STILL_BARE_S` (a hand hovering over the cards, as pale as the cloth, may pass
        for bare cloth, but it moves)."""
        self.covered_s = 0.0
        """How long the play area has been mostly covered (a head, a body) since the last
        play was seen (:meth:`_unseen_trick`)."""
        self.last_look = -math.inf
        self.waiting: list[Track] = []
        """Cards come to rest out of turn, waiting for the seat to move's (:meth:`_waits`)."""
        self.waiting_since: dict[int, float] = {}
        self.held: Track | None = None
        """A lead out of turn after a long cover, held until told apart (:data:`UNSEEN_WAIT_S`)."""
        self.held_since = -math.inf

    def restore(self, plays: Sequence[tuple[int, Card]], t: float = 0.0) -> None:
        """Start from the plays already recorded for this hand, in turn order ``(seat, card)``
        (a server restarted mid-hand): the next play is numbered after them, the turn and the
        tricks go on from them. Their cards, seen again on the table, are those plays (told
        by their names: each card is played once a hand), never new ones."""
        if self.log.plays:
            raise ValueError("restore() starts a watcher: this one has seen plays already")
        n = self.spec.players
        for i, (seat, card) in enumerate(plays):
            probs = one_hot(card, 1 - 1e-6)
            reading = Reading(card, 1.0, str(card), 1.0, None, 0.0, False, None, "")
            self.log.plays.append(
                PlayEvent(
                    index=i,
                    seat=seat,
                    card=card,
                    t=t,
                    trick=i // n + 1,
                    reading=reading,
                    probs=probs,
                    crop=np.zeros((1, 1, 3), np.uint8),
                    quad=np.zeros((4, 2)),
                    track_id=-1,
                    views=[probs],
                )  # fmt: skip
            )
            self.restored.add(i)
        self.fixtures_pending = [] if plays else self.fixtures_pending
        # the complete tricks but the last are gathered; the last may still lie there
        self.gathered = max(0, len(plays) // n - 1)

    # -- the loop ---------------------------------------------------------------------------
    def feed(self, image: np.ndarray, t: float) -> list[WatchEvent]:
        if image.ndim < 2 or min(image.shape[:2]) < MIN_FRAME_SIDE:
            raise FrameTooSmall(
                f"a frame of {'x'.join(map(str, image.shape[1::-1]))} pixels is too small to "
                f"follow a table in: at least {MIN_FRAME_SIDE} a side (1280x720 reads best)"
            )
        self.frames += 1
        if t - max(self.tracker.last_detection, self.gated) < self.tracker.times.look_s - 1e-6:
            # looked a moment ago (30 fps: two frames in three go straight by); a still table
            # is watched for motion as often as a busy one is looked at, no oftener
            return []
        self.gated = t
        self.frame_size = (image.shape[1], image.shape[0])
        if self.geometry.plane is not None and self.view is None:
            self._make_view(self.frame_size)
        events: list[WatchEvent] = []
        if self.view is not None:
            # a knock found from the whole frame (the table's edges, the piles): with fewer
            # than two cards lying it cannot be found from the cards (:meth:`_camera_moved`),
            # and with more an arm may hide all but one of them as it happens
            motion = self.anchor.update(image, t)
            if motion is not None:
                # a table point seen at p before is seen at motion @ p now
                before = self.view.to_view
                self.view = self.view.moved(self.view.homography @ np.linalg.inv(motion))
                self._follow_knock(self.view.to_view @ np.linalg.inv(before))
                self.gate, self.last_found, self.last_crops = MotionGate(), None, None
                # the moved view shows the table where it showed it before the knock: the bare
                # table as seen before the knock is still the view's, unless it was followed
                # since the knock (the knocked view's table, shifted). Fresh seed 10814 full
                # Klaberjass, 10 fps: forgotten at a knock, on a cloth striped by shadows (no
                # card's place ever looked like the ring of cloth round it) trick 3's two cards
                # stayed on the table 2.5 s after they were gathered; the next trick's cards
                # were taken for them (one, the 9C, for the 9S lying a little off), trick 4 went
                # by unseen and every later trick shifted, none of it marked
                if self.empty_at > self.anchor.knocked_after:
                    self.bare_look = self.empty_table = None
                px = centre_shift(motion, self.frame_size)
                text = f"the camera moved ({px:.0f} px): the table found again by its edges, no play re-seated"
                events.append(WatchEvent("note", t, text=text))
        if self.view is None:
            self.size = self.frame_size
            moved = self.gate.update(image, t)
        else:  # the view is warped whole only for a frame that is detected
            self.size = (self.view.size, self.view.size)
            moved = self.gate.update(image, t, self.view.to_view, self.size)
        self.tracker.note_motion(moved)
        closed = self._last_trick_left(t)
        events.extend(closed)
        if closed:
            events.extend(self._revise(t))  # (a deck played out names a play never seen)
        if not self.tracker.wants_detection(self.gate, t):
            return events  # (a knock's note)
        work = image if self.view is None else self.view.warp(image)
        found: Finds
        reused = False
        if (
            self.last_found is not None
            and not self.tracker.busy(self.gate, t)
            and not self.gate.changed_since_look()
        ):
            # a still table's look (twice a second) at a picture that has not changed since
            # the last look: what that look found stands (detection is most of a frame's cost)
            found = self.last_found
            reused = True
        else:
            if self.hints:
                from vision.detect.find import detect

                # not a card read as no card when it came: it is read again only from how it
                # is found later, and a known outline is never found again by the coarse masks
                # that alone outline a card touching another (fresh seed 10615 hands Clag, 30
                # fps: trick 2's JS came to rest under the hand that laid it, outlined askew
                # and read as no card; found whole since only by the coarse masks, which gave
                # way to its known outline, it was never read again and its play was missed)
                lying = [
                    tr.quad
                    for tr in self.tracker.live()
                    if tr.status == "present" and tr.id not in self.ignored_tracks
                ]
                found = detect(work, known=lying)
            else:
                found = self.detect(work)
            self.last_found = found
            self.gate.mark_look()
            self.detections += 1
        self._note_cover(work, len(found.quads) == 0, t)
        quads, partial = found.quads, found.partial
        if self.view is None:
            crops = found.crops
        else:  # only the play area: held cards, piles and the stock lie beyond it
            keep = [i for i, q in enumerate(quads) if self.view.inside(q)]
            # a card partly under another (read from its index corner) may be a new play;
            # cut by the view's edge it lies beyond the play area anyway
            corner = getattr(found, "one_corner", None)
            if corner is not None and len(corner) == len(partial):
                partial = partial & ~corner
                # ... but a corner lying on a card followed is that card's (a new card is
                # laid over the others, found whole)
                lying = [np.asarray(tr.quad, np.float32).reshape(-1, 1, 2) for tr in self.tracker.live() if tr.status == "present"]  # fmt: skip
                keep = [
                    i
                    for i in keep
                    if not corner[i]
                    or not any(
                        cv2.pointPolygonTest(
                            q,
                            tuple(
                                float(v) for v in np.asarray(quads[i]).reshape(4, 2).mean(axis=0)
                            ),
                            False,
                        )
                        >= 0  # fmt: skip
                        for q in lying
                    )
                ]
            quads, partial = quads[keep], partial[keep]
            last = self.last_crops
            if reused and last is not None and np.array_equal(last[0], quads):
                crops = last[1]
            else:
                crops = self._full_crops(image, quads)
                self.last_crops = (quads, crops)
            self.frame = image
        knock = self._camera_moved(quads, crops)
        if knock is not None:
            undo = np.linalg.inv(knock)
            quads = apply_homography(undo, quads).reshape(np.shape(quads)).astype(np.float32)
            middle = np.full((1, 2), self.view.size / 2)  # type: ignore[union-attr]
            moved = np.hypot(*(apply_homography(knock, middle) - middle)[0]) / self.view.ppl  # type: ignore[union-attr]
            text = f"the camera moved ({moved:.2f} card lengths): the table found again, no play re-seated"
            events.append(WatchEvent("note", t, text=text))
        arrived, left = self.tracker.update(
            quads, crops, partial, self.gate, t, work, self.empty_table
        )
        for tr in left:  # known before the arrivals are placed (has their trick left?)
            self.last_seen[tr.id] = max(tr.last_seen, tr.found_last)
        gone = {tr.id for tr in left}
        for tr in [tr for tr in self.waiting if tr.id in gone]:
            # gone with its trick while waiting: it was played (see the held lead below)
            self.waiting.remove(tr)
            self.waiting_since.pop(tr.id, None)
            events.extend(self._arrived(tr, t, unseen=False))
        if self.held is not None:
            held, self.held = self.held, None
            if held.id in gone:
                # gone with its trick before any other card came: it followed a lead the
                # camera missed (the trick is closed short when the next card comes)
                events.extend(self._arrived(held, t, unseen=False))
            elif arrived or t - self.held_since >= UNSEEN_WAIT_S:
                events.extend(self._arrived(held, t))  # it led: a trick went by unseen
            else:
                self.held = held
        queue, self.waiting = [*self.waiting, *self._read_clear(), *arrived], []
        for tr in self._in_turn(queue):
            if self._waits(tr, t):
                self.waiting.append(tr)
                continue
            self.waiting_since.pop(tr.id, None)
            if self.held is None and self._unseen_why(tr):
                self.held, self.held_since = tr, t
                continue
            events.extend(self._arrived(tr, t))
        for tr in left:
            events.extend(self._left(tr, t))
            self.reread_looks.pop(tr.id, None)  # (a session's memory stays small)
            self.found_read.pop(tr.id, None)
            self.ignored_reads.pop(tr.id, None)
        if self._look_again() or self.looked_again:
            self.looked_again = False
            events.extend(self._revise(t))
        return events

    def _follow_knock(self, back: np.ndarray) -> None:
        """The view was moved back onto the table after a knock (``back``: view pixels of the
        knocked view -> view pixels now). Cards and plays found since the knock were found
        where the knocked view showed them (the tracker follows a card that seems to slide):
        they are moved back with it; those not found since lie where they were. Fresh seed
        10271 full Clabber: a knock while a trick lay, one card under an arm, told by the
        whole frame only once the trick had left; its cards, swept away, were seen where the
        moved view showed them and taken for the next trick's plays. A play made before the
        knock whose card was found carried on since (its outline moved on to where the knocked
        view showed it) is moved back too: fresh seed 10301 full Belote, an 8D knocked 0.7 s
        after it landed, taken for carried on by its hand; its play left where the knocked view
        showed it, the 8D back in view as the trick was gathered was taken for the next
        trick's lead and every later trick shifted."""
        since = self.anchor.knocked_after

        def moved(quad: np.ndarray) -> np.ndarray:
            out = apply_homography(back, quad).reshape(np.shape(quad))
            return np.asarray(out, np.asarray(quad).dtype)

        for tr in self.tracker.live():
            if tr.last_seen > since:  # (its outline and look are updated together)
                tr.quad = moved(tr.quad)
                if tr.anchor is not None:
                    tr.anchor = moved(tr.anchor)
            if tr.found_quad is not None and tr.found_last > since:
                tr.found_quad = moved(tr.found_quad)
            if tr.near_quad is not None and tr.found_last > since:
                tr.near_quad = moved(tr.near_quad)
        for p in self.log.plays:
            if max(p.t, self.placed.get(p.index, -math.inf)) > since and not p.missed:
                p.quad = moved(p.quad)
        # (the outlines found since were moved back above)
        self._drop_found_again(lambda quad: np.asarray(quad, np.float64), since)

    def _in_turn(self, arrived: list[Track]) -> list[Track]:
        """Cards come to rest in the same look (a hand or a head lifted off them) in the order
        of the turn from the seat to move (else as they came)."""
        turn = self.log.to_move()
        if len(arrived) < 2 or turn is None:
            return arrived
        n = self.spec.players
        self.seat_hints.update(self._seats_together(arrived, turn))

        def key(tr: Track) -> tuple[int, float]:
            seat = self.seat_hints.get(tr.id, self.seats.seat_of(tr.centre, self.size))
            return ((seat - turn) % n, tr.first_seen)

        return sorted(arrived, key=key)

    def _seats_together(self, arrived: list[Track], turn: int) -> dict[int, int]:
        """Seats for cards come to rest in the same look (:func:`vision.track.seating.together`)."""
        _done, current = self.log.tricks()
        dists = [self.seats.distances(tr.centre, self.size) for tr in arrived]
        seats = together(dists, {s for s, _ in current}, turn)
        return {tr.id: s for tr, s in zip(arrived, seats, strict=True) if s is not None}

    def _waits(self, tr: Track, t: float) -> bool:
        """Does ``tr``, come to rest out of turn, wait (up to :data:`OUT_OF_TURN_S`) for a card
        still unsettled on the side of the seat to move? That card, played first, may only
        now come out from under an arm: taken in the order seen, the later card would lead
        a trick of its own (a trick "gone by unseen") and every later trick shift (fresh seed
        9990 full Klaberjass: seat 0's 10S under its player's hovering hand 2 s, seat 1's 9S
        at rest 1 s before it showed). Never while the last trick is not yet seen gathered: its
        cards swept together come to rest out of turn (fresh seed 10021 light Clabber)."""
        turn = self.log.to_move()
        seat = self.seats.seat_of(tr.centre, self.size)
        if turn is None or self.complete or seat == turn:
            return False
        done, current = self.log.tricks()
        if done and not current and self.gathered < len(done):
            return False  # the last trick not yet seen gathered: its cards swept together
        if any(
            self._near(tr, np.asarray(p.quad, np.float64).reshape(4, 2).mean(axis=0))
            for p in self.log.plays
            if p.trick >= len(done) and not p.missed
        ):
            return False  # a card of the trick, or of the last, back in view: not a new play
        here_now = self.tracker.seen_now
        if any(
            p.seat == seat and p.track_id not in here_now and self._away(tr, p) < PUSHED_CARDS
            for p in self.log.plays
            if p.trick == len(done) + 1 and not p.missed
        ):
            # ... or on the side of a seat that played to the trick, close to where its card
            # lay, that card not found there now: it, carried on (fresh seed 10431 light
            # Belote, 10 fps: the lead KH held still 0.2 s at its player's edge and played from
            # there, then carried 1.4 card sizes on; read there as seat 1's card settled, it
            # waited for it, the trick was judged gone with its lead and closed three plays
            # short, and every later trick shifted)
            return False
        since = self.waiting_since.setdefault(tr.id, t)
        if t - since >= OUT_OF_TURN_S:
            return False
        skip = self.ignored_tracks | self.fixture_tracks | set(self.play_of_track)
        return any(
            o.status == "candidate"
            and o.id not in skip
            and o.first_seen > since - OUT_OF_TURN_S
            and self.seats.seat_of(o.centre, self.size) == turn
            for o in self.tracker.live()
        )

    def _note_cover(self, work: np.ndarray, empty: bool, t: float) -> None:
        """Measure how much of the play area something covers (against its look when bare:
        first seen with no card on it, then followed slowly), and for how long."""
        look = cv2.resize(work, (COVER_GRID, COVER_GRID), interpolation=cv2.INTER_AREA)
        look = look.astype(np.float32)
        step = 0.0 if self.last_look == -math.inf else min(t - self.last_look, 0.5)
        self.last_look = t
        if self.bare_look is None:
            if empty:
                self.bare_look = look
                self.empty_table, self.empty_at = work.astype(np.float32), t
            return
        far = float((np.abs(look - self.bare_look).max(axis=2) > COVER_DIFF).mean())
        if far >= COVER_SHARE:
            self.covered_s += step
        elif empty and far < 0.1:
            # bare: the cloth as it looks now (the light drifts slowly; a head never counts)
            self.bare_look = 0.8 * self.bare_look + 0.2 * look
            if self.empty_table is not None and self.empty_table.shape == work.shape:
                cv2.accumulateWeighted(work.astype(np.float32), self.empty_table, 0.2)
            else:
                self.empty_table = work.astype(np.float32)
            self.empty_at = t
            if t - max(self.gate.last_any, self.gate.started) >= STILL_BARE_S:
                self.still_bare_at = t

    def _make_view(self, size: tuple[int, int]) -> None:
        self.view = PlaneView.make(
            self.geometry.homography_for(size), self.geometry.radius, VIEW_SIDE
        )
        self.seats = TableGeometry(self.spec.players, (0.5, 0.5), self.geometry.seat_angles)

    def _camera_moved(self, quads: np.ndarray, crops: np.ndarray) -> np.ndarray | None:
        """Did the camera move (a knock, a nudged stand)? Then the cards lying on the table
        all seem to have moved together, each still looking the same: the view is moved back
        onto the table (the plane's homography follows the camera) and the motion (3 x 3, view
        pixels before -> now: a shift, or a shift and turn, see :func:`_turned_knock`) is
        returned; the tracks, the plays and their seats stay where they were. One card alone
        moving is a card pushed, not the camera."""
        if self.view is None or len(quads) < 2:
            return None
        lying = [tr for tr in self.tracker.live() if tr.status == "present" and tr.look is not None]
        if len(lying) < 2:
            return None
        ppl = self.view.ppl
        centres = np.asarray(quads, np.float64).reshape(-1, 4, 2).mean(axis=1)
        shifts, before = [], []
        for tr in lying:
            d = centres - tr.centre
            dist = np.hypot(d[:, 0], d[:, 1])
            near = [i for i in np.argsort(dist) if dist[i] < 0.8 * ppl]
            same = next((i for i in near if same_card(tr.look, crops[i])), None)  # type: ignore[arg-type]
            if same is None:
                continue
            shifts.append(d[same])
            before.append(tr.centre)
        if len(shifts) < 2 or len(shifts) < 0.6 * len(lying):
            return None
        shifts_arr = np.array(shifts)
        median = np.median(shifts_arr, axis=0)
        if np.hypot(*median) < 0.1 * ppl:
            return None  # a shake, or nothing moved
        knock: np.ndarray | None = np.array(
            [[1.0, 0.0, median[0]], [0.0, 1.0, median[1]], [0.0, 0.0, 1.0]]
        )
        if (np.hypot(*(shifts_arr - median).T) > 0.06 * ppl).any():
            knock = _turned_knock(np.array(before), np.array(before) + shifts_arr, ppl)
        if knock is None:
            return None  # not all alike: cards pushed, a trick gathered
        # points now seen at v lie on the table where knock^-1 v was seen before
        half = self.view.size / 2
        scale = np.array([[ppl, 0.0, half], [0.0, ppl, half], [0.0, 0.0, 1.0]])
        back = np.linalg.inv(scale) @ np.linalg.inv(knock) @ scale
        self.view = self.view.moved(back @ self.view.homography)
        self.gate = MotionGate()
        self.anchor.reset()
        undo = np.linalg.inv(knock)
        self._drop_found_again(lambda quad: apply_homography(undo, quad).reshape(np.shape(quad)))
        return knock

    def _drop_found_again(
        self, back: Callable[[np.ndarray], np.ndarray], since: float = -math.inf
    ) -> None:
        """After a knock: a card found since, not yet played, that the knock's move (``back``:
        an outline as the knocked view saw it -> where it lies on the table) puts onto a played
        card lying there was that card, seen where the knocked view showed it. Fresh seed 10331
        full Clag (a knock told by the cards): trick 3's QS, found anew 0.5 card lengths off,
        was played as trick 4's lead once the view was put right, and the trick closed two
        plays short. Fresh seed 10400 full Clag (a knock told by the table's edges): trick 2's
        lead AS, found anew 36 px off, was taken for a new card on the same seat's side, trick
        2 closed three plays short and every later play shifted. Only cards seen after
        ``since`` are looked at (a card not seen since the knock lies where it was)."""
        played = [
            x for x in self.tracker.live() if x.status == "present" and x.id in self.play_of_track
        ]
        for tr in self.tracker.live():
            if tr.id in self.play_of_track or tr.last_seen <= since:
                continue
            if any(overlap(back(tr.quad), x.quad) > TWICE for x in played):
                tr.status = "dropped"
        self.waiting = [tr for tr in self.waiting if tr.status != "dropped"]
        if self.held is not None and self.held.status == "dropped":
            self.held = None

    def _full_crops(self, image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """Upright warps of view outlines, taken from the full-resolution frame (a far card
        keeps every pixel the camera gave it)."""
        from vision.detect.preprocess import CARD_H, CARD_W

        assert self.view is not None
        if len(quads) == 0:
            return np.zeros((0, CARD_H, CARD_W, 3), np.uint8)
        # the corners' order comes from the view, where the card's shape is true
        return np.stack(
            [warp_ordered(image, self.view.to_image(np.asarray(q, np.float64))) for q in quads]
        )

    def _nudged(self, tr: Track) -> list[np.ndarray]:
        """More looks at a card that has just come to rest: its outline in the frame moved a
        fraction of a pixel each way (a far card is a few dozen pixels: every look at its
        index from a slightly different sampling is a little more evidence)."""
        if self.view is None or self.frame is None:
            return []
        quad = self.view.to_image(np.asarray(tr.quad, np.float64).reshape(4, 2))
        (ax, ay), (bx, by) = quad[2] - quad[0], quad[3] - quad[1]
        size = float(np.sqrt(abs(ax * by - ay * bx) / 2))  # the outline's area, from its diagonals
        step = max(0.5, 0.01 * size)
        return [
            warp_ordered(self.frame, quad + np.array(d) * step) for d in ((1, 0), (0, 1), (-1, -1))
        ]

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """Points where cards are followed (the view's pixels) in the frame's pixels."""
        return np.asarray(pts, np.float64) if self.view is None else self.view.to_image(pts)

    def _look_again(self) -> bool:
        """Read the new views of resting played cards; clear ones join the play's evidence.
        True when some play's evidence changed (the hand is then read together again)."""
        changed = False
        for tr in self.tracker.live():
            index = self.play_of_track.get(tr.id)
            if index is not None and self._found_doubtful(tr, self.log.plays[index]):
                changed = True
            seen = self.views_read.get(tr.id, len(tr.crops))
            if index is None or len(tr.crops) <= seen:
                continue
            self.views_read[tr.id] = len(tr.crops)
            play = self.log.plays[index]
            crops = tr.crops[seen:]
            views = self.reader(crops)
            for probs in views:
                # only a clear view counts: a hand resting on the card is not evidence
                if clear_look(probs):
                    play.views.append(np.asarray(probs, np.float64))
                    changed = True
            changed = self._look_closer(play, crops, views) or changed
            if changed:
                self._weigh(play)
        return changed

    def _found_doubtful(self, tr: Track, play: PlayEvent) -> bool:
        """A play read doubtfully when it came (half under the hand that laid it) whose card
        is found in place again while something still moves near it (arms, their shadows): the
        tracker keeps only a card's quiet looks (they join the play's views anyway), so this
        look where it lies is read here, and a clear one joins the play's evidence
        (:meth:`_seen_better`). Development seed 10184 full Belote: trick 6's 10H, laid with
        its index under the fingers, read KH at 0.48; it lay plainly in view 2.4 s, arms moving
        near all the while, and was never read again; when the trick was gathered it showed as
        a plain 10H and was taken for the next lead. True when the play's evidence grew."""
        if (
            play.reading is None
            or play.reading.probability >= UNSURE_PLAY
            or tr.found_look is None
            or tr.found_last <= tr.last_seen
            or self.found_read.get(tr.id) == id(tr.found_look)
        ):
            return False
        self.found_read[tr.id] = id(tr.found_look)
        views = len(play.views)
        self._seen_better(play, tr.found_look)
        return len(play.views) > views

    def _look_closer(
        self, play: PlayEvent, crops: Sequence[np.ndarray], views: Sequence[np.ndarray] | np.ndarray
    ) -> bool:
        """Count the pips on ``play``'s new views (:func:`pip_counts`), see whether their
        middle shows a picture (:func:`picture_views`) and read their suit (:meth:`_suits`);
        True when any of these was added."""
        new = pip_counts(crops, views)[: max(MAX_VIEWS - len(play.pips), 0)]
        play.pips.extend(new)
        pictures = picture_views(crops, views)[: max(MAX_VIEWS - len(play.pictures), 0)]
        play.pictures.extend(pictures)
        suits = self._suits(crops, views)[: max(MAX_VIEWS - len(play.suits), 0)]
        play.suits.extend(suits)
        return bool(new) or bool(pictures) or bool(suits)

    def _suits(
        self, crops: Sequence[np.ndarray], views: Sequence[np.ndarray] | np.ndarray
    ) -> list[np.ndarray]:
        """The suit model's look at the whole face of each view plainly a face (4 suit
        probabilities, :mod:`vision.read.suits`), at most ``MAX_VIEWS``: a second opinion on
        the card's suit that never reads its index."""
        if self.suit_reader is None:
            return []
        faces = [c for c, p in zip(crops, views, strict=True) if face_probability(p) >= 0.9]
        if not faces:
            return []
        return [np.asarray(r, np.float64) for r in self.suit_reader(faces[:MAX_VIEWS])]

    def _evidence(
        self,
        probs: np.ndarray,
        crops: Sequence[np.ndarray],
        views: Sequence[np.ndarray] | np.ndarray,
    ) -> np.ndarray:
        """``probs`` weighed with the second looks at ``crops``: the pips counted in their
        middle or a court's picture there, the suit their whole face shows."""
        return second_looks(
            probs, pip_counts(crops, views), picture_views(crops, views), self._suits(crops, views)
        )

    @staticmethod
    def _weigh(play: PlayEvent) -> None:
        """``play``'s evidence from its views, the pips counted on them (or a picture seen
        there) and their suit."""
        play.probs = second_looks(combine(play.views), play.pips, play.pictures, play.suits)

    def _judge_pips(self) -> None:
        """Mark each play whose index, as the classifier reads it over the play's views,
        disagrees with the pips counted in its middle (or reads a number card where the
        middle shows a picture) or with the suit its whole face shows (whichever the play's
        card is now: a person settles it), and each read not quite
        surely whose face does not plainly show its suit (:func:`suit_unbacked`)."""
        for play in self.log.plays:
            if not play.views or not (play.pips or play.pictures or play.suits):
                play.pips_note = play.suit_note = ""
                continue
            index = CARD_LABELS[int(np.argmax(combine(play.views)[: len(CARD_LABELS)]))]
            play.pips_note = pips_doubt(index, play.pips) or picture_doubt(index, play.pictures)
            play.suit_note = suit_doubt(str(index), play.suits)
            r = play.reading
            if not play.suit_note and r is not None and not r.confirm and play.card is not None:
                # (a reading already marked says why; the face would only repeat the doubt)
                play.suit_note = suit_unbacked(str(play.card), r.probability, play.suits)

    def _replaceable(self, tr: Track, seen: set[int], crop: np.ndarray | None) -> bool:
        """A played card may give its place to another once its trick is complete and
        gathered: none of the trick's other cards is still seen in place. A card of the trick
        in progress only to a find that plainly shows another card (``crop``): when a play
        was missed, that trick never completes, and the next trick's card landing where
        one of its cards lay must still arrive."""
        index = self.play_of_track.get(tr.id)
        if index is None:
            return True
        done, _ = self.log.tricks()
        play = self.log.plays[index]
        if play.trick > len(done):
            return crop is not None and self._another_card(play, crop)
        others = {p.track_id for p in self.log.plays if p.trick == play.trick} - {tr.id}
        if others & seen:
            return False
        # its trick's other cards have left (being gathered): a find there that still reads
        # plainly as this card is this card (an arm over it changed its look), not another
        return crop is None or not self._reads_as(play, crop)

    def _reads_as(self, play: PlayEvent, crop: np.ndarray) -> bool:
        """Does ``crop`` read plainly as ``play``'s card (as it stands now)?"""
        probs = self.reader([crop])[0]
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        if face_probability(probs) < 0.9 or float(probs[best]) < 0.8:
            return False
        return CARD_LABELS[best] == self.log.cards()[play.index][1]

    def _another_card(self, play: PlayEvent, crop: np.ndarray) -> bool:
        """Does ``crop`` plainly show a card other than ``play``'s (not the same card under
        a hand, nor a doubtful view)?"""
        if same_card(play.crop, crop):
            return False
        if play.reading is not None and play.reading.probability < UNSURE_PLAY:
            # read doubtfully when it came (blurred, half under the hand that laid it): a
            # clear look where it lies is that card seen better, not another one
            self._seen_better(play, crop)
            return False
        probs = self.reader([crop])[0]
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        if face_probability(probs) < 0.9 or float(probs[best]) < 0.8:
            return False
        return CARD_LABELS[best] != self.log.cards()[play.index][1]

    def _seen_better(self, play: PlayEvent, crop: np.ndarray) -> None:
        """A clear look at a doubtfully read play's card joins its evidence, once a frame (the
        tracker may ask about one find more than once); the hand is then read together again."""
        if self.better_seen.get(play.index) == self.frames or len(play.views) >= MAX_VIEWS:
            return
        self.better_seen[play.index] = self.frames
        probs = self.reader([crop])[0]
        if clear_look(probs):
            play.views.append(np.asarray(probs, np.float64))
            self._look_closer(play, [crop], [probs])
            self._weigh(play)
            self.looked_again = True

    def _arrived(self, tr: Track, t: float, unseen: bool = True) -> list[WatchEvent]:
        crops = [*tr.crops, *self._nudged(tr)]
        views = list(self.reader(crops))
        # a blurred or half-covered look says little: the clear ones speak when there are any
        clear = [v for v in views if clear_look(v)]
        # ... and a number card's pips, counted, and the suit its whole face shows speak past
        # its index
        probs = self._evidence(combine(clear or views), crops, views)
        if face_probability(probs) < 0.5:
            probs = self._as_it_settled(tr, probs)
        self.labels[tr.id] = int(np.argmax(probs))
        if face_probability(probs) < 0.5:
            self.ignored_tracks.add(tr.id)
            self.ignored_reads[tr.id] = (t, -1)
            if face_probability(probs) >= DOUBT_FACE:
                self.doubtful[tr.id] = (tr, probs)
            return []
        if self.fixtures_pending and not self.log.plays:
            fixture = self._fixture(tr, probs, t)
            if fixture is not None:
                return [fixture]
        back = self._seen_again(tr, probs, t)
        if back is not None:
            return back
        filled = self._fill(tr, probs, t)
        if filled is not None:
            return filled
        if self.complete:
            return [
                WatchEvent(
                    "note",
                    t,
                    text=f"a card ({LABELS[self.labels[tr.id]]}) after the hand is over: not a play",
                )
            ]
        missed = self._unseen_trick(tr, t) if unseen else []
        where = self._place(tr)
        over = where.over
        if not over and not where.note:
            self._lead_shown(where.seat)
        events = missed + (self._infer_missed(t, why=where.note) if over else [])
        try:
            played = self._play(tr, probs, t, where.seat, "" if over else where.note)
        except DecodeError as exc:
            return [
                *events,
                WatchEvent("note", t, text=f"a card that cannot be read as a play: {exc}"),
            ]
        if over:  # the trick closed by a missed play: its winner is who leads now
            done, _ = self.log.tricks()
            events.append(WatchEvent("trick", t, trick=done[-1]))
        return [
            *events,
            played,
            *self._gathered_before(played, t),
            *self._revise(t),
            *self._trick_events(t),
        ]

    def _read_clear(self) -> list[Track]:
        """Cards read as no card when they came to rest (a shadow across the index that cut
        its outline short, glare, a frame's light that flattened it) are read again, a few
        times a second, from how they are found lying where they lay (light drifting over a
        card is motion, and keeps its quiet looks from coming): one that then reads clearly
        as the same card twice running arrives again, read from that look alone (the looks
        that said nothing would drown it). Twice: a card held a moment over it reads clearly
        too, but not as the same card twice while it moves. The look is the one it was last
        found with, even a little way off where it came to rest (``Track.near_look``):
        development seed 10292 light Clabber, a JH outlined 12 px off, with the hand's
        shadow, as it came to rest (read as no card), and outlined right from then on, the
        hand still moving near; read again only from where it first lay, it was never
        played and every later play of the trick was one seat off. A card read clearly only
        once is kept as a doubtful one (:meth:`_doubtful_plays`): should its trick leave
        with no play from its seat, it is that play, marked (fresh seed 10550 oblique
        Clabber, 10 fps: trick 4's QH came to rest under the hand that laid it, read QH
        once 0.2 s later, and the gathering sleeve covered it before the next look; missed)."""
        again = []
        for tr in self.tracker.live():
            last = self.ignored_reads.get(tr.id)
            if (
                last is None
                or tr.status != "present"
                or tr.near_look is None
                or tr.found_last - last[0] < REREAD_S - 1e-6
                or tr.id in self.play_of_track
                or tr.id in self.fixture_tracks
            ):
                continue
            before = self.reread_looks.get(tr.id)
            if last[1] < 0 and before is not None and np.array_equal(before, tr.near_look):
                continue  # the very same pixels (a still table's look): they say nothing yet
            probs = np.asarray(self.reader([tr.near_look]))[0]
            label = int(np.argmax(probs)) if clear_look(probs) else -1
            self.ignored_reads[tr.id] = (tr.found_last, label)
            self.reread_looks[tr.id] = tr.near_look
            if label >= 0 and label != last[1]:
                # read clearly once: should its seat's play be found missing (a sleeve
                # gathered the trick before a second clear look), this is that play, marked
                self.doubtful[tr.id] = (tr, probs)
            elif label < 0 and self._more_doubtful(tr.id, probs):
                # a face, but never clearly one card (blurred, in shadow): the same
                self.doubtful[tr.id] = (tr, probs)
            if label < 0 or label != last[1]:
                continue
            self.ignored_tracks.discard(tr.id)
            self.ignored_reads.pop(tr.id)
            self.reread_looks.pop(tr.id, None)
            self.doubtful.pop(tr.id, None)
            tr.crops = [tr.near_look]
            if tr.near_quad is not None:
                tr.quad = tr.near_quad  # the outline it was read clearly from
            again.append(tr)
        return again

    def _more_doubtful(self, track_id: int, probs: np.ndarray) -> bool:
        """Is ``probs``, an unclear reading of a find read as no card as it came to rest,
        better evidence of a doubtful card (:data:`DOUBT_FACE`) than what it was kept as so
        far (nothing, or a less plain face; never a clear look)? Light seed 10562's Clabber,
        30 fps: trick 2's last card (a bellot QC) came to rest outlined a third off, with
        the table in it (no card), then found whole where it lay and read QC 0.53 / JC 0.24
        (a face at 0.91) at every look until the trick was gathered: never a doubtful card,
        so its play was marked missed rather than named and marked."""
        if face_probability(probs) < DOUBT_FACE:
            return False
        kept = self.doubtful.get(track_id)
        if kept is None:
            return True
        if clear_look(kept[1]):
            return False
        n = len(CARD_LABELS)
        return float(np.max(probs[:n])) > float(np.max(kept[1][:n]))

    def _as_it_settled(self, tr: Track, probs: np.ndarray) -> np.ndarray:
        """A card that reads as no card once lying still, read from its looks as it came to
        rest when every one of them that reads as a face reads as the same card, one of them
        plainly (a flash of glare on a glossy card as it landed: fresh seed 9971 full
        Belote's KH, missed); else ``probs``."""
        earlier = tr.recent[:-1]
        views = [np.asarray(v, np.float64) for v in self.reader(earlier)] if earlier else []
        faces = [v for v in views if face_probability(v) >= 0.5]
        cards = {int(np.argmax(v[: len(CARD_LABELS)])) for v in faces}
        if len(cards) != 1 or not any(clear_look(v) for v in faces):
            return probs
        return self._evidence(combine(faces), earlier, views)

    def _fixture(self, tr: Track, probs: np.ndarray, t: float) -> WatchEvent | None:
        """Before the first lead, the face-up card of the deal: it reads as that card, or it
        lies anywhere but on the side of the seat that leads (when that is not the dealer)."""
        cards = probs[:52]
        best = int(np.argmax(cards))
        for fx in self.fixtures_pending:
            i = CARD_LABELS.index(fx)
            if i == best or cards[i] >= 0.3 * cards[best]:
                self._fixed(fx, tr)
                return WatchEvent("fixture", t, text=f"{fx} lies face up: not a play")
        leader = self.spec.first_leader
        if leader != self.spec.dealer and self.seats.seat_of(tr.centre, self.size) != leader:
            # before the lead, a card that is not on the leader's side is not the lead
            fx = self.fixtures_pending[0]
            self._fixed(fx, tr)
            return WatchEvent(
                "fixture", t,
                text=f"{fx} lies face up before the lead: not a play (it reads as {CARD_LABELS[best]}: check the camera)",
            )  # fmt: skip
        return None

    def _fixed(self, card: Card, tr: Track) -> None:
        self.fixtures_pending.remove(card)
        self.fixture_tracks.add(tr.id)
        self.fixture_t = max(self.fixture_t, tr.first_seen)
        self.fixture_cards[tr.id] = card
        self.fixture_places[card] = tr.centre
        self.fixture_looks[card] = Track(tr.id, np.asarray(tr.quad), 0, 0, [tr.crops[-1]])

    def _revise(self, t: float) -> list[WatchEvent]:
        """The camera's revisions of earlier plays, the hand read together
        (:func:`vision.track.handread.revise`), and a deck played out naming its one play
        never seen (:func:`vision.track.handread.deduce_missed`), as events. A hand that
        cannot be read together (more plays than the deck has cards: a play too many was
        taken) is left as it was read, play by play: the watcher never stops on it."""
        try:
            lines = revise(self.log, t)
        except DecodeError:
            lines = []
        events = [WatchEvent("revised", t, text=line) for line in lines]
        # (the play the deck named rides along: a person is told how to correct it)
        events += [
            WatchEvent(
                "revised", t, text=line, missed=self.log.plays[self.log.corrections[-1].index]
            )
            for line in deduce_missed(self.log, t)
        ]
        self._judge_pips()
        return events

    def _seen_again(self, tr: Track, probs: np.ndarray, t: float) -> list[WatchEvent] | None:
        """A card already played, back in view (a hand lifted off it, or a trick not yet
        gathered pushed about): the same play again, never a new one.

        Told by where and when it lies, never by its name alone: a card whose own track is
        still in view is not back; one of a trick already gathered is back only lying exactly
        where it lay and looking the same (a new card slid in never lands exactly there, and
        may well be read as the name an earlier play was misread as)."""
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        card = CARD_LABELS[best]
        # a face-up card taken up into a hand before a play since comes back only as a play
        # (Clabber's upcard, played by the dealer where it lay before him)
        played = card in self.taken_up and len(self.log.plays) > self.taken_up[card]
        where = self._near(tr, self.fixture_places.get(card))
        was = self.fixture_looks.get(card)
        fixture_again = (
            card in self.spec.elsewhere
            and (
                probs[best] >= FIXTURE_NAME_SURE
                or where
                or (was is not None and same_card(was.crops[0], tr.crops[0]))
            )
        ) or (not played and where)
        if probs[best] >= 0.5 and fixture_again:
            self.fixture_tracks.add(tr.id)
            self.fixture_cards[tr.id] = card
            text = f"{card}, the face-up card of the deal, is in view again"
            return [WatchEvent("note", t, text=text)]
        for fx, was in self.fixture_looks.items():
            # a face-up card that stays (Clag's trump card) is back where it lay, whatever
            # it reads as now (a card touching it cuts its outline, and its index)
            close = float(np.hypot(*(tr.centre - was.centre))) < 0.25 * np.sqrt(was.area)
            here = close or (self._near(tr, was.centre) and same_card(was.crops[0], tr.crops[0]))
            if fx in self.spec.elsewhere and here:
                self.fixture_tracks.add(tr.id)
                text = f"{fx}, the face-up card of the deal, is in view again (it reads as {card})"
                return [WatchEvent("note", t, text=text)]
        # a play whose card is still followed, and was found where it lay, is not this card;
        # one followed but not found (moved: pushed, or swept together) may be
        here_now = self.tracker.seen_now
        done, _ = self.log.tricks()
        side = self.seats.seat_of(tr.centre, self.size)  # the seat whose side this card is on
        for play in reversed(self.log.plays):
            if play.missed or play.track_id == tr.id:
                continue
            if play.track_id in here_now:
                if self._found_twice(play, tr, probs):
                    self.ignored_tracks.add(tr.id)
                    text = (
                        f"{self.log.cards()[play.index][1] or play.card} (play {play.index + 1})"
                        " is found twice where it lies: not a new play"
                    )
                    return [WatchEvent("note", t, text=text)]
                continue
            if play.index in self.restored and play.track_id < 0:
                # recorded before this watcher started: known by its name alone (a trick
                # gathered before then is not on the table)
                if card != self.log.cards()[play.index][1] or probs[best] < 0.5:
                    continue
                if play.trick < len(done):
                    continue
                play.crop, play.quad = tr.crops[-1], np.asarray(tr.quad)
                self.placed[play.index] = t
                self._link(play, tr)
                text = (
                    f"{card} (play {play.index + 1}, recorded before the camera started) is in view"
                )
                return [WatchEvent("note", t, text=text)]
            looks_same = same_card(play.crop, tr.crops[0])
            now = self.log.cards()[play.index][1]
            sweeping = play.trick == len(done) and play.trick > self.gathered
            # ... or found where one of them lay, read unsure, on the side of a seat that
            # does not lead next: a hand over it as the sweep begins, not a play (the next
            # trick is led first; development seed 10111 hands Clabber at 10 fps: QD half
            # under the gathering hand read 'none' then QD at 0.25, taken for the next
            # trick's first card, and every later play was given to the wrong trick)
            where_it_lay = np.asarray(play.quad, np.float64).reshape(4, 2).mean(axis=0)
            under_sweep = (
                sweeping
                and probs[best] < 0.8
                and self._near(tr, where_it_lay)
                and side == play.seat
                and play.seat != self.log.to_move()
            )
            # ... or read surely as the card a play marked unsure was nearly read as, found
            # where it lay: that play's card seen better (fresh seed 10524 full Belote, 30
            # fps: trick 1's lead 7C read 7S 0.92 / 7C 0.08, marked; found again where it lay
            # as the trick was swept, plainly 7C, it was taken for trick 2's lead by the seat
            # the misread 7S had made win, and every later trick shifted). Only while the
            # trick is not judged gathered: the next lead comes after, often from the same
            # seat to the same spot, and may be that very look-alike (fresh seed 10512 full
            # Clabber: trick 4's JH, read JH 0.73 / KH 0.22, won; its seat led KH there 1.4 s
            # after the trick was gathered, taken for the JH back in view)
            seen_better = (
                card == self._nearly(play)
                and probs[best] >= 0.8
                and self._near(tr, where_it_lay)
                and side == play.seat
            )
            # ... but a name match read short of sure, more than a card from where that play's
            # card lay, on the side of the seat to move and not of the seat that played it, is
            # that seat's next card read as its look-alike (fresh seed 10904 oblique Clag,
            # 10 fps: trick 3's lead QD, read KD 0.88 two card sizes from trick 2's KD while
            # that trick was judged being gathered, was taken for the KD swept, and the play
            # was missed). The cards of a trick being swept read as what they are (0.99 and
            # more in every kept render) and lie on the side of the seat that played them.
            next_card = (
                probs[best] < LOOKALIKE_SURE
                and self._away(tr, play) > 1.0
                and side == self.log.to_move()
                and side != play.seat
            )
            named = card in (play.card, now) and probs[best] >= 0.8 and not next_card
            if sweeping and (named or under_sweep or seen_better):
                # the last trick, complete, being gathered: its cards pushed together lie
                # still a moment, reading as what they are; not new plays
                if seen_better:
                    self._seen_better(play, tr.crops[0])
                self._link(play, tr)
                return [
                    WatchEvent(
                        "note",
                        t,
                        text=f"{now or play.card} (play {play.index + 1}) is being gathered",
                    )
                ]
            if play.trick <= self.gathered:
                back = (
                    play.trick == self.gathered
                    and t - self.gathered_at <= BACK_AFTER_GATHER_S
                    and card == now
                    and probs[best] >= 0.9
                    and self._near(tr, where_it_lay)
                    and (looks_same or not play.confirm or self._trick_back(play, tr))
                )
                if (moved(play.quad, tr.quad) or not looks_same) and not back:
                    continue
                # read plainly as another card than a play read surely: a new card, however
                # alike it lies and looks (fresh seed 10513 hands Belote, 10 fps: trick 7's
                # 8S, laid by seat 2 exactly where its 7S of trick 6 had lain, 2.4 s after
                # that trick was gathered, read 8S 1.00 and looking alike, was taken for the
                # 7S back in view: "trick 6 is still on the table", the 8S never played)
                other = card not in (play.card, now) and probs[best] >= CARRIED_SURE
                if other and not back and not play.confirm:
                    continue
            else:
                if self._bare_since(play.trick):
                    # its trick left the table and the table has been seen bare and still
                    # since: gathered, so a card found where one of its cards lay is a new
                    # card (fresh seed 10987 oblique Clabber, 30 fps: trick 5 gathered, its
                    # last card (QH) read only as no card; the bare table seen still for 1 s;
                    # the next lead, KC read KS 0.69 where the 9S had lain, was taken for the
                    # 9S back in view (the KS had been played: "reading as a card played
                    # before"), seat 1's next card was given to trick 5, unmarked, and trick
                    # 6 closed two plays short)
                    continue
                now = self.log.cards()[play.index][1]
                if self._carried_on(play, tr, probs):
                    return self._seen_carried(play, tr, t)
                named = card in (play.card, now) and probs[best] >= 0.5
                # a card of the trick in progress found again where it lay, reading as no card
                # in particular (a hand over it): that card, not a second from its seat (fresh
                # seed 10021 full Clabber: 10D under an arm read as 'none', taken for a second
                # card on seat 1's side, the trick closed short and every later trick shifted)
                faint = probs[best] < 0.5 and play.trick == len(done) + 1
                # ... or reading as a card played before (its outline found anew, a shadow
                # with it: fresh seed 10020 hands Klaberjass, 8D read as the 10D of trick 1)
                cards = self.log.cards()
                again = any(c == card for k, (_, c) in enumerate(cards) if k != play.index)
                faint = faint or (again and play.trick == len(done) + 1)
                # (looking alike is no answer to a plain reading of another card where a play
                # read surely lay: fresh seed 10729 oblique Clag, 30 fps: seat 3 led 10C to
                # where its 9C of trick 1 had lain, the trick gathered unseen; read 10C 1.00,
                # bellot's two club number cards alike to ``same_card``, it was taken for the
                # 9C in view again and its play missed)
                sure_other = probs[best] >= CARRIED_SURE and not play.confirm
                other = (
                    card not in (play.card, now)
                    and probs[best] >= 0.9
                    and (not looks_same or sure_other)
                )
                if other and play.trick <= len(done) and not self._lies_still(play, tr):
                    # a complete trick not yet seen gathered (a hand lay over its place as
                    # it went): a card plainly another one landing where one of its cards
                    # lay is the next trick's (the same seat plays to the same spot)
                    continue
                # read plainly as a plain play of the trick in progress: that card moved,
                # however far (each card is played once)
                surely = self._surely_again(play, card, float(probs[best]), len(done))
                lay = np.asarray(play.quad).reshape(4, 2).mean(axis=0)
                if not surely and not self._near(tr, lay):
                    # pushed aside on its own side: a card of the trick in progress is
                    # played once, so one reading plainly as it there is it (or reading as
                    # it within two card lengths of where it lay: pushed by the next card,
                    # or still in the hand that paused with it on the way in)
                    close = self._away(tr, play) < PUSHED_CARDS
                    in_progress = play.trick == len(done) + 1
                    own_side = self.seats.seat_of(tr.centre, self.size) == play.seat
                    pushed = (
                        named
                        and (probs[best] >= 0.9 or (close and probs[best] >= 0.6))
                        and in_progress
                        and own_side
                    )
                    # ... or, its own card never seen gone (lying there, only not found a
                    # moment), one close on its side looking as it did and reading as it at
                    # least a little: the table moved under a bump not told (fresh seed 10423
                    # light Clag, 30 fps: a bump turning the camera 1.8 degrees under moving
                    # shadows; trick 2's lead KC found anew 44 px off, read KS 0.64 / KC 0.36,
                    # was taken for a second card from its seat, trick 2 closed two plays
                    # short and every later play shifted)
                    own = next((x for x in self.tracker.live() if x.id == play.track_id), None)
                    mine = float(probs[CARD_LABELS.index(now or play.card)])
                    displaced = (
                        own is not None
                        and own.status == "present"
                        and close
                        and looks_same
                        and mine >= DISPLACED_MIN
                        and in_progress
                        and own_side
                    )
                    if not (pushed or displaced):
                        continue
                elif not (surely or named or looks_same or not moved(play.quad, tr.quad) or faint):
                    continue
            self._link(play, tr)
            text = f"{self.log.cards()[play.index][1] or play.card} (play {play.index + 1}) is in view again"
            if play.trick <= self.gathered:  # it was covered, not gathered
                self.gathered = play.trick - 1
                text += f": trick {play.trick} is still on the table"
            return [WatchEvent("note", t, text=text)]
        return None

    def _found_twice(self, play: PlayEvent, tr: Track, probs: np.ndarray) -> bool:
        """Is ``tr``, come to rest where ``play``'s card lies while that card is followed and
        found in place, reading plainly as it, that same card outlined a second time (two
        outlines of one card, one followed since it came, one new), not a new card? Each
        card is played once. Fresh seed 10730 full Clag, 30 fps: trick 1's 4D, followed where
        it lay, was outlined anew there as a hand came to gather the trick, read 4D 0.91
        ("cannot be played here"), taken for seat 3's card to trick 2 as 8D, and the trick
        after was read one trick late, three plays wrong and unmarked."""
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        card = CARD_LABELS[best]
        if probs[best] < FOUND_TWICE_SURE or card != (self.log.cards()[play.index][1] or play.card):
            return False
        own = next((x for x in self.tracker.live() if x.id == play.track_id), None)
        if own is not None:
            return self._near(tr, own.centre)
        return self._near(tr, np.asarray(play.quad, np.float64).reshape(4, 2).mean(axis=0))

    def _surely_again(self, play: PlayEvent, card: Card, probability: float, done: int) -> bool:
        """Is a card read ``card`` at ``probability``, its own card not found where it lay,
        ``play`` of the trick in progress seen again, wherever it lies now? Both read plainly
        as one card (at least :data:`CARRIED_SURE`, the play not marked): each card is played
        once, so it is that card moved (a knock, a sleeve), never a new play. Fresh seed 10545
        full Belote, 30 fps: a knock moved the view 44 px during trick 3, 0.9 s before it was
        told; trick 3's JH, read JH 1.00 and laid 1.6 s before, lay on the next seat's side
        in the moved view and was taken for that seat's card ("JH cannot be played here"), a
        missed play was inferred and every later trick shifted by a seat."""
        if play.trick != done + 1 or play.confirm or play.reading is None:
            return False
        if play.reading.probability < CARRIED_SURE or probability < CARRIED_SURE:
            return False
        return card == play.card == self.log.cards()[play.index][1]

    @staticmethod
    def _nearly(play: PlayEvent) -> Card | None:
        """The card ``play``, marked for a person, was nearly read as (its reading's
        runner-up), or None: a play read surely has no such card, nor one marked only for
        where or how it was seen (``seat_note``: fresh seed 10598 full Klaberjass, 30 fps:
        trick 8's QS, read QS 0.99 / 9S 0.003 from its one clear look, marked for that; its
        seat's 9S led to the next trick where it had lain was taken for the QS seen better,
        the QS revised to 9S and the 9S's own play inferred missed)."""
        r = play.reading
        if r is None or not (r.confirm or play.again_note or play.pips_note or play.suit_note):
            return None
        return r.runner_up

    def _carried_on(self, play: PlayEvent, tr: Track, probs: np.ndarray | None = None) -> bool:
        """Is ``tr`` the latest play's card carried on by the hand that paused with it (read
        doubtfully there, half under that hand; or, read surely, a complete trick's last card
        whose seat does not lead next, its own card gone), whatever it reads as now? It is
        the latest play, its own card no longer found where it lay, ``tr`` on the same
        seat's side within :data:`PUSHED_CARDS` card sizes, and the trick not gathered:
        either in progress, or
        complete with its other cards found where they lie now (a seat that wins leads again
        only after the trick is gathered) and ``tr`` come to lie soon after it
        (:data:`CARRIED_AFTER_S`); a farther card only very soon after the play's card was last
        found (:data:`CARRIED_S`). Seed 9941 hands Klaberjass: a last card held still
        0.3 s with the fingers over its index (read 10H, already played), then slid on and
        read plainly 8H, was taken for the next trick's lead. A reading its own middle or
        face doubts (``pips_note``, ``suit_note``) is doubtful too: fresh seed 10568's
        oblique Belote, 30 fps: trick 2's 9S paused 2 card sizes short, its lower third cut
        off, read 7S 0.97 and marked by its pips, then carried on and read 9S, was taken for
        its seat's card to trick 3 and every later trick shifted."""
        if play.index != len(self.log.plays) - 1 or play.reading is None:
            return False
        done, _ = self.log.tricks()
        if self._plainly_carried(play, tr, probs, len(done)):
            return True
        doubted = play.reading.confirm or bool(play.pips_note or play.suit_note)
        if not (doubted or play.reading.probability < UNSURE_PLAY) and (
            play.trick != len(done)
            or play.seat == self.log.to_move()
            or any(x.id == play.track_id for x in self.tracker.live())
        ):
            # read surely: carried on only as a complete trick's last card, by a seat that
            # does not lead next, its card gone from where it lay (fresh seed 10367 hands
            # Belote: the 9H held still at its player's edge, the fingers over its index,
            # read 7H at 0.96; carried on to the trick it was taken for the next lead)
            return False
        if self.seats.seat_of(tr.centre, self.size) != play.seat:
            return False
        away = self._away(tr, play)
        if away >= PUSHED_CARDS:
            just_left = tr.first_seen - self._found_last(play.track_id) <= CARRIED_S
            return away < CARRIED_FAR and just_left and play.trick == len(done) + 1
        if play.trick == len(done) + 1:
            # ... unless the trick's other cards had all left the table before it came: the
            # trick was gathered short (a card of it never seen), this card the next lead
            return not self._left_before(play, tr)
        if play.trick != len(done) or tr.first_seen - play.t > CARRIED_AFTER_S:
            return False  # lying there long: the next lead, laid where this seat lays its cards
        return self._lies_still(play, tr, anywhere=True)

    def _left_before(self, play: PlayEvent, tr: Track) -> bool:
        """Had ``play``'s trick's other cards (one at least) all left the table
        :data:`TRICK_GONE_S` before ``tr`` came, none of them found again where it lay? A hand
        carries on only the card it laid; a gathering arm takes the whole trick (fresh seed
        10598 full Clabber, 30 fps: trick 5's lead QC never seen, its other three cards
        gathered; 2.5 s later seat 2 led AH where its AC, read AC 0.54 / AS 0.46, had lain:
        taken for the AC carried on, and seat 3's lead to trick 6 for its card to trick 5,
        unmarked)."""
        others = [
            p
            for p in self.log.plays
            if p.trick == play.trick and p.index != play.index and not p.missed
        ]
        ids = {p.track_id for p in others}
        live = {x.id for x in self.tracker.live() if x.id != tr.id}
        if not others or -1 in ids or ids & live:
            return False
        if self._found_where_lay(others, but=tr.id):
            return False  # that card back in view, not yet re-linked
        # each seen leaving (a card whose leaving was never seen is not known to have left)
        gone = tr.first_seen - TRICK_GONE_S
        return all(i in self.last_seen and self.last_seen[i] < gone for i in ids)

    def _plainly_carried(
        self, play: PlayEvent, tr: Track, probs: np.ndarray | None, done: int
    ) -> bool:
        """Is ``tr``, on whichever seat's side, the latest play's card carried on? Both read
        plainly as one card (at least :data:`CARRIED_SURE`: each card is played once), the
        trick in progress, the play's card gone from where it lay and ``tr`` found up to
        :data:`PUSHED_CARDS` card sizes from there within :data:`CARRIED_S` of its last find.
        Fresh seed 10518 full Belote, 30 fps: trick 6's lead 9H held still 0.2 s at its
        player's edge, read 9H 1.00 and played, then carried 1.7 card sizes on; a bump 0.5 s
        before, not yet told, had moved the view 40 px, and there the 9H lay on the next
        seat's side: taken for that seat's card, two plays inferred missed, and the trick's
        real cards went to the next tricks."""
        if probs is None or play.reading.probability < CARRIED_SURE:
            return False
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        now = self.log.cards()[play.index][1]
        if CARD_LABELS[best] != now or probs[best] < CARRIED_SURE or play.trick != done + 1:
            return False
        if any(x.id == play.track_id and x.status == "present" for x in self.tracker.live()):
            return False
        just_left = tr.first_seen - self._found_last(play.track_id) <= CARRIED_S
        return just_left and self._away(tr, play) < PUSHED_CARDS

    def _found_last(self, track_id: int) -> float:
        """When the card of ``track_id`` was last found in place (-inf: never, or unknown)."""
        for tr in self.tracker.live():
            if tr.id == track_id:
                return max(tr.last_seen, tr.found_last)
        return self.last_seen.get(track_id, -math.inf)

    def _seen_carried(self, play: PlayEvent, tr: Track, t: float) -> list[WatchEvent]:
        """``tr`` is ``play``'s card carried on (:meth:`_carried_on`): its looks where it lies
        now join the play's evidence, and the hand is read together again."""
        self._link(play, tr)
        play.crop, play.quad = tr.crops[-1], np.asarray(tr.quad)
        self.placed[play.index] = t
        views = self.reader(tr.crops)
        clear = [np.asarray(v, np.float64) for v in views if clear_look(v)]
        if clear:  # lying uncovered now: better evidence than its looks in the hand
            play.views = clear[:MAX_VIEWS]
            play.pips, play.pictures, play.suits = [], [], []
            self._look_closer(play, tr.crops, views)
            self._weigh(play)
        self.looked_again = True
        text = f"{play.card} (play {play.index + 1}) was carried on by the hand that laid it"
        return [WatchEvent("note", t, text=text)]

    def _lies_still(self, play: PlayEvent, tr: Track, anywhere: bool = False) -> bool:
        """Is ``tr`` the card of ``play`` (of a complete trick) still lying exactly where it
        lay, its trick's other cards found where they lie now, whatever it reads as (the
        classifier's AC for AS): the trick is not gathered, so no new card is led there.
        With ``anywhere``, only the trick's other cards must be found (``tr`` may lie
        elsewhere)."""
        if not anywhere and moved(play.quad, tr.quad):
            return False
        here_now = self.tracker.seen_now
        return any(
            p.track_id in here_now
            for p in self.log.plays
            if p.trick == play.trick and p.index != play.index and not p.missed
        )

    def _link(self, play: PlayEvent, tr: Track) -> None:
        """``tr`` is ``play``'s card: its earlier track, if still followed, is let go."""
        for old in self.tracker.live():
            if old.id == play.track_id and old.id != tr.id:
                old.status = "gone"
        self.play_of_track[tr.id] = play.index
        play.track_id = tr.id

    def _bare_since(self, trick: int) -> bool:
        """Have all the cards seen in ``trick`` left the table, and has the play area been
        seen bare since the last of them was seen (no card found, the cloth as it looks bare:
        :meth:`_note_cover`), with nothing moving anywhere (:data:`STILL_BARE_S`)? Then the
        trick was gathered, whatever was judged of it. Still: a hand hovering over a trick
        may hide every card of it and pass for cloth (fresh seed 11162 hands Clabber, 10
        fps: a skin-toned hand over a lead on a mauve cloth, no card found and the play area
        "bare" at one look; without stillness the lead back in view was taken for a new
        card and every later trick shifted)."""
        ids = [p.track_id for p in self.log.plays if p.trick == trick and not p.missed]
        if not ids or any(i < 0 or i not in self.last_seen for i in ids):
            return False  # one still followed, or recorded before this watcher started
        return self.still_bare_at > max(self.last_seen[i] for i in ids)

    def _trick_back(self, play: PlayEvent, tr: Track) -> bool:
        """Is another card of ``play``'s trick found again where it lay (a card followed
        there now, not ``tr``)? Then the trick was covered, not gathered."""
        others = [p for p in self.log.plays if p.trick == play.trick and p.index != play.index]
        return self._found_where_lay(others, but=tr.id)

    def _found_where_lay(self, plays: list[PlayEvent], but: int | None = None) -> bool:
        """Is a card followed now (not track ``but``) lying where one of ``plays``' cards
        lay (a play never seen lay nowhere)? A hand or an arm hid it for a while; it is that
        card back in view, not yet re-linked to its play."""
        places = [
            np.asarray(p.quad, np.float64).reshape(4, 2).mean(axis=0)
            for p in plays
            if not p.missed and p.quad is not None
        ]
        return any(
            self._near(x, place) for x in self.tracker.live() if x.id != but for place in places
        )

    @staticmethod
    def _away(tr: Track, play: PlayEvent) -> float:
        """How far ``tr`` lies from where ``play``'s card lay, in card sizes (``tr``'s)."""
        was = np.asarray(play.quad, np.float64).reshape(4, 2).mean(axis=0)
        return float(np.hypot(*(tr.centre - was))) / np.sqrt(max(tr.area, 1.0))

    @staticmethod
    def _near(tr: Track, place: np.ndarray | None) -> bool:
        if place is None:
            return False
        return float(np.hypot(*(tr.centre - place))) < 0.6 * np.sqrt(max(tr.area, 1.0))

    def _place(self, tr: Track) -> Placement:
        """Whose card it is, from where it lies (:func:`vision.track.seating.place`)."""
        _done, current = self.log.tricks()
        played = {s for s, _ in current}
        dist = self.seats.distances(tr.centre, self.size)
        hint = self.seat_hints.pop(tr.id, None)
        left = bool(current) and self._trick_left(tr.first_seen)
        if hint is not None and hint not in played and not left and hint == self.log.to_move():
            nearest = int(np.argmin(dist))
            note = ""
            if dist[hint] - dist[nearest] > SEAT_TIE_DEGREES:
                note = f"a card nearer seat {nearest}'s side, come to rest with another there: given to seat {hint}"
            return Placement(hint, False, note)
        turn = self.log.to_move()
        if not current and turn is not None and self._leader_sure():
            # a trick's lead, its leader known surely: a card lying nearer a neighbour's side
            # by less than SEAT_NEAR_DEGREES is the leader's, laid across the corner between
            # the two sides (fresh seed 10392 full Clabber: seat 2's KH laid 20 degrees nearer
            # seat 3 went to seat 3, seat 3's card then to seat 0, and the hand shifted; a lead
            # plainly on another side is a trick gone by unseen, :meth:`_unseen_trick`)
            nearest = int(np.argmin(dist))
            if nearest != turn and dist[turn] - dist[nearest] <= SEAT_NEAR_DEGREES:
                return Placement(turn, False)
        return place(dist, played, turn, left)

    def _leader_sure(self) -> bool:
        """Is the seat to lead the next trick known surely: the first trick's, or the last
        trick's winner with none of its plays missed or marked for a person?"""
        done, _ = self.log.tricks()
        if not done:
            return True
        last = [p for p in self.log.plays if p.trick == len(done)]
        return bool(last) and not any(p.missed or p.confirm for p in last)

    def _lead_shown(self, seat: int) -> None:
        """The trick's lead re-seated by the side of its second card, given to ``seat``
        (:func:`vision.track.seating.lead_before`), and marked for a person. Only a lead not
        given to the seat expected to lead, or one expected after a trick with a play marked
        for a person (its winner may be misread)."""
        done, current = self.log.tricks()
        if len(current) != 1:
            return
        lead = next(p for p in self.log.plays if p.trick == len(done) + 1)
        if lead.missed or lead.leads or lead.track_id < 0:
            return
        expected = done[-1].winner if done else self.spec.first_leader
        last = [p for p in self.log.plays if done and p.trick == len(done)]
        if lead.seat == expected and not any(p.confirm for p in last):
            return
        centre = np.asarray(lead.quad, np.float64).reshape(4, 2).mean(axis=0)
        before = lead_before(self.seats.distances(centre, self.size), lead.seat, seat)
        if before is None:
            return
        lead.seat_note = (
            f"a lead on seat {lead.seat}'s side, then seat {seat}'s card: given to seat {before}"
        )
        lead.seat = before

    def _trick_left(self, before: float = math.inf) -> bool:
        """Have all the cards seen in the trick in progress left the table (last seen
        :data:`TRICK_GONE_S` before ``before``)? A gathered trick leaves before the next lead
        is slid in; a hand sliding a card in over the trick's cards hides them as it comes."""
        done, _ = self.log.tricks()
        plays = [p for p in self.log.plays if p.trick == len(done) + 1 and not p.missed]
        ids = {p.track_id for p in plays}
        if -1 in ids:
            return False  # recorded before this watcher started and not seen since: unknown
        live = self.tracker.live()
        if not ids or ids & {tr.id for tr in live}:
            return False
        # a card lying where one of the trick's cards lay: that card back in view after a hand
        # covered the table (a gathering arm hides every card at once), not yet re-linked
        if self._found_where_lay(plays):
            return False
        return all(self.last_seen.get(i, -math.inf) < before - TRICK_GONE_S for i in ids)

    def _unseen_trick(self, tr: Track, t: float) -> list[WatchEvent]:
        """A lead plainly on the side of a seat that did not win the last trick, when that
        trick's cards were all read surely and long enough has passed for a whole trick: a
        trick was played where the camera could not see (a head in front of it throughout).
        Its plays are missed (every seat's, for a person to name); its winner is this card's
        seat. Nothing is done when the lead could have been misplaced or the last winner
        misread: the card is then taken as it lies."""
        why = self._unseen_why(tr)
        if not why:
            return []
        done, _ = self.log.tricks()
        expected = done[-1].winner if done else self.spec.first_leader
        assert expected is not None
        return [
            WatchEvent("missed", t, text=f"play {play.index + 1} {play.seat_note}", missed=play)
            for play in self.log.unseen_trick(expected, tr.first_seen, why)
        ]

    def _unseen_why(self, tr: Track) -> str:
        """Why ``tr`` is taken to lead after a trick that went by unseen (:meth:`_unseen_trick`),
        or "" when it is not."""
        done, current = self.log.tricks()
        if current or self.complete or len(done) + 2 > self.spec.tricks:
            return ""
        expected = done[-1].winner if done else self.spec.first_leader
        if expected is None:
            return ""
        last = [p for p in self.log.plays if p.trick == len(done)] if done else []
        if any(p.confirm for p in last):
            return ""  # the last winner may be misread: the lead is not proof
        dist = self.seats.distances(tr.centre, self.size)
        nearest = int(np.argmin(dist))
        if nearest == expected or dist[expected] - dist[nearest] <= SEAT_NEAR_DEGREES:
            return ""
        since = max((p.t for p in last), default=self.fixture_t)
        if tr.first_seen - since < UNSEEN_PLAY_S * self.spec.players:
            return ""
        if self.covered_s < COVERED_PLAY_S * self.spec.players:
            return ""  # the table was in view: a trick would have been seen
        for other in self.tracker.live():
            if other.id == tr.id or abs(other.first_seen - tr.first_seen) > TOGETHER_S:
                continue
            if other.steady_since > other.first_seen + 1e-6 or other.sightings < 2:
                continue  # still moving: a card being played now, not one uncovered
            if self.seats.seat_of(other.centre, self.size) == expected:
                return ""  # a card uncovered with this one on the leader's side: the lead
        return (
            f"seat {nearest} led, but seat {expected} won the trick before: a trick went by unseen"
        )

    def _infer_missed(self, t: float, why: str) -> list[WatchEvent]:
        """Close the trick in progress with a missed play for each seat that showed no card
        (clockwise; the seat that was to lead leads). A doubtful card lying on such a seat's
        side is that seat's play, marked (:meth:`_doubtful_plays`); otherwise the card is
        never guessed: the play is marked for a person to name (a correction)."""
        done, current = self.log.tricks()
        if not current:
            return []
        number = len(done) + 1
        left = self._trick_left()
        events = self._doubtful_plays(t)
        events += [
            WatchEvent("missed", t, text=f"play {play.index + 1} {play.seat_note}", missed=play)
            for play in self.log.close_short(why)
        ]
        if left and number > self.gathered:
            self.gathered, self.gathered_at = number, t
            trick = self.log.tricks()[0][number - 1]
            trick.gathered = True
            events.append(WatchEvent("gathered", t, trick=trick))
        return events

    def _doubtful_plays(self, t: float) -> list[WatchEvent]:
        """Before the trick in progress closes short: each seat that showed no card, on whose
        side a doubtful card (:data:`DOUBT_FACE`) came to lie during the trick, played that
        card. Its name is the game's best reading of what little was seen, marked for a
        person to confirm; the hand read together (a deck played out) often names it."""
        done, current = self.log.tricks()
        number = len(done) + 1
        seen = {s for s, _ in current}
        earlier = [p.t for p in self.log.plays if p.trick == number - 1]
        since = max(earlier) if earlier else self.fixture_t
        plays = [p for p in self.log.plays if p.trick == number and not p.missed]
        places = [np.asarray(p.quad, np.float64).reshape(4, 2).mean(axis=0) for p in plays]
        expected = done[-1].winner if done else self.spec.first_leader
        events: list[WatchEvent] = []
        for seat in range(self.spec.players):
            if seat in seen:
                continue
            best: tuple[float, Track, np.ndarray] | None = None
            for tid, (tr, probs) in self.doubtful.items():
                if tid in self.play_of_track or tr.first_seen <= since:
                    continue
                if any(self._near(tr, place) for place in places):
                    continue  # another look at a card already played to this trick
                dist = self.seats.distances(tr.centre, self.size)
                if dist[seat] - float(np.min(dist)) > SEAT_TIE_DEGREES:
                    continue
                face = face_probability(probs)
                if best is None or face > best[0]:
                    best = (face, tr, probs)
            if best is None:
                continue
            face, tr, probs = best
            if face < 0.5:
                note = (
                    f"seat {seat}'s card to trick {number} was seen only doubtfully (a face at"
                    f" {face:.2f}: far, blurred or in shadow)"
                )
            elif clear_look(probs):
                note = (
                    f"seat {seat}'s card to trick {number} was read clearly only once (read as"
                    " no card as it came to rest, then covered or gathered)"
                )
            else:
                top = float(np.max(probs[: len(CARD_LABELS)]))
                note = (
                    f"seat {seat}'s card to trick {number} was never read clearly (read as no"
                    f" card as it came to rest, then as a face but no card above {top:.2f})"
                )
            try:
                event = self._play(tr, probs, t, seat, note, leads=seat == expected)
            except DecodeError:
                continue
            events.append(event)
            places.append(tr.centre)
        # what was doubtful during this trick is of no use to the next
        self.doubtful = {k: v for k, v in self.doubtful.items() if k not in self.play_of_track}
        return events

    def _fill(self, tr: Track, probs: np.ndarray, t: float) -> list[WatchEvent] | None:
        """A card on the side of a seat whose play to the latest trick was inferred missed
        (its trick seemed to leave the table: a hand lay over it) is that play after all,
        read as it is, though the deck played out named it (fresh seed 10573 full Belote:
        the last trick's 10C shows after the trick was judged gone short)."""
        if not self.log.plays:
            return None
        latest = max(p.trick for p in self.log.plays)
        cards = self.log.cards()
        dist = self.seats.distances(tr.centre, self.size)
        nearest = int(np.argmin(dist))
        for m in self.log.plays:
            if m.trick != latest or not m.missed:
                continue
            if cards[m.index][1] is not None and not named_by_deck(self.log, m.index):
                continue  # named by a person (a name the deck gave gives way to the card)
            if dist[m.seat] - dist[nearest] <= SEAT_TIE_DEGREES:
                try:
                    played = self._play(tr, probs, t, m.seat, "", into=m)
                except DecodeError:
                    return None
                text = f"play {m.index + 1}, seat {m.seat}'s card taken as missed, shows after all"
                return [
                    WatchEvent("note", t, text=text),
                    played,
                    *self._revise(t),
                    *self._trick_events(t),
                ]
        return None

    def _play(
        self,
        tr: Track,
        probs: np.ndarray,
        t: float,
        seat: int,
        note: str,
        into: PlayEvent | None = None,
        leads: bool = False,
    ) -> WatchEvent:
        """The card of ``tr`` played by ``seat``: a new play, or the card of the missed play
        ``into`` (which nobody had named)."""
        played = sure_cards(self.log)
        knowledge = Knowledge(
            deck=self.spec.deck,
            played=played,
            elsewhere=self.spec.elsewhere,
            void=self.log.voids(seat),
            wild_twos=self.spec.wild_twos,
        )
        views = [np.asarray(r, np.float64) for r in self.reader(tr.crops)]
        # the pips in its middle (``probs`` already weighs them: :meth:`_arrived`), kept to
        # weigh its later looks and to mark an index that says otherwise
        pips = pip_counts(tr.crops, views)
        pictures = picture_views(tr.crops, views)
        suits = self._suits(tr.crops, views)
        # the same seat's cards: a tilted camera foreshortens each side of the table, and
        # each seat's cards, differently (a card's apparent shape depends on where it lies)
        others = [aspect(p.quad) for p in self.log.plays if p.track_id >= 0 and p.seat == seat]
        doubts = (shape_doubt(aspect(tr.quad), others), views_doubt(views))
        reading = marked(decode(probs, knowledge), "; ".join(d for d in doubts if d))
        void_only = Knowledge(
            deck=self.spec.deck,
            elsewhere=self.spec.elsewhere,
            void=knowledge.void,
            wild_twos=self.spec.wild_twos,
        )
        done, _ = self.log.tricks()
        play = PlayEvent(
            index=len(self.log.plays) if into is None else into.index,
            seat=seat,
            card=reading.card,
            t=tr.first_seen,
            trick=len(done) + 1 if into is None else into.trick,
            reading=reading,
            probs=probs,
            crop=tr.crops[-1],
            quad=np.asarray(tr.quad),
            track_id=tr.id,
            seat_note=note,
            prior=prior(void_only),
            leads=leads,
        )
        if into is None:
            self.log.plays.append(play)
        else:
            self.log.plays[into.index] = play
            seen_after_all(self.log, into.index, t)
        self.play_of_track[tr.id] = play.index
        self.views_read[tr.id] = len(tr.crops)
        play.views, play.pips, play.pictures, play.suits = views, pips, pictures, suits
        self._judge_pips()
        self.covered_s = 0.0
        self._read_again(play)
        return WatchEvent("play", t, play=play)

    def _read_again(self, play: PlayEvent) -> None:
        """A card read plainly (0.5 or more) as one an earlier play was read as surely, and so
        named otherwise here: each card is played once, so one of the two is misread and the
        earlier play is marked too (the classifier reads both alike: 8H as 10H). So is one read
        as the card chosen here at least :data:`PLAYED_RATIO` as likely: the chosen one may be
        named only because the other was taken (development seed 10113 full Clabber: bellot's
        AC read AS surely, the real AS later read AC 0.52 / AS 0.48)."""
        if play.reading is None or not play.reading.confirm:
            return
        p = np.asarray(play.probs[: len(CARD_LABELS)], np.float64)
        mine = float(p[CARD_LABELS.index(play.card)])
        alike = {
            c: float(q)
            for c, q in zip(CARD_LABELS, p, strict=True)
            if c != play.card and (q >= 0.5 or q >= PLAYED_RATIO * mine)
        }
        if not alike:
            return
        cards = self.log.cards()
        for other in self.log.plays:
            named = cards[other.index][1]
            if other.index == play.index or other.missed or named not in alike:
                continue
            if not other.confirm:
                how = "too" if alike[named] >= 0.5 else "almost as much"
                other.again_note = (
                    f"play {play.index + 1} reads as {named} {how}: one of the two is misread"
                )

    def _gathered_before(self, played: WatchEvent, t: float) -> list[WatchEvent]:
        """A new trick is led: the cards of the tricks before it that are not seen where they
        lay have been gathered (their places may not show bare cloth: the lead may lie
        there, a shadow may lie there), whatever the tracker still believes."""
        play = played.play
        if play is None or play.trick <= 1:
            return []
        earlier = {p.track_id for p in self.log.plays if p.trick < play.trick and not p.missed}
        events: list[WatchEvent] = []
        for tr in self.tracker.live():
            if tr.id in earlier and tr.status == "present" and tr.last_seen < t - 0.25:
                tr.status = "gone"
                events.extend(self._left(tr, t))
        return events

    def _trick_events(self, t: float) -> list[WatchEvent]:
        done, current = self.log.tricks()
        if not current and done and len(done) * self.spec.players == len(self.log.plays):
            return [WatchEvent("trick", t, trick=done[-1])]
        return []

    def _left(self, tr: Track, t: float) -> list[WatchEvent]:
        self.last_seen[tr.id] = max(tr.last_seen, tr.found_last)
        if tr.id in self.fixture_tracks:
            if (
                card := self.fixture_cards.get(tr.id)
            ) is not None and card not in self.spec.elsewhere:
                self.taken_up[card] = len(self.log.plays)
            return [WatchEvent("note", t, text="the face-up card was taken up")]
        index = self.play_of_track.get(tr.id)
        if index is None:
            return []
        done, _ = self.log.tricks()
        number = self.log.plays[index].trick
        # the last trick gathered short: no lead will follow to show it, so once its cards
        # have stayed gone a moment (:data:`LAST_LEFT_S`, :meth:`_last_trick_left`)
        if (
            number == len(done) + 1 == self.spec.tricks
            and self.last_left_at is None
            and self._trick_left()
        ):
            self.last_left_at = t
        trick_ids = [p.track_id for p in self.log.plays if p.trick == number]
        gone = {i for i in trick_ids if all(tt.id != i for tt in self.tracker.live())}
        if number <= len(done) and len(gone) == len(trick_ids) and number > self.gathered:
            self.gathered, self.gathered_at = number, t
            trick = done[number - 1]
            trick.gathered = True
            return [WatchEvent("gathered", t, trick=trick)]
        return []

    def _last_trick_left(self, t: float) -> list[WatchEvent]:
        """The last trick, short, judged gathered once its cards have stayed gone
        :data:`LAST_LEFT_S`: its missing plays are inferred (a card back in view or laid
        since keeps it open)."""
        if self.last_left_at is None or t - self.last_left_at < LAST_LEFT_S - 1e-6:
            return []
        self.last_left_at = None
        done, current = self.log.tricks()
        if not current or len(done) + 1 != self.spec.tricks or not self._trick_left():
            return []
        return self._infer_missed(t, "the last trick left the table short")

    @property
    def complete(self) -> bool:
        done, current = self.log.tricks()
        return len(done) >= self.spec.tricks and not current


@functools.cache
def shipped_suit_reader() -> Reader:
    """The shipped suit model (``models/suits.onnx``) as a :data:`Reader`, loaded once."""
    return SuitReader()


KNOCK_TURN = 3.0
"""Degrees: the most a knocked camera's turn may turn the lying cards' places in the view
(:func:`_turned_knock`)."""


def _turned_knock(before: np.ndarray, now: np.ndarray, ppl: float) -> np.ndarray | None:
    """The knock (3 x 3, view pixels before -> now) that moved three or more lying cards'
    centres from ``before`` to ``now`` together when their shifts differ (a knock that turns
    the camera a little turns the cards' places too: fresh seed 10509 full Clabber, 30 fps,
    a bump of 43 px turning it 1.2 degrees as trick 4's last card landed moved the three
    cards lying 38-48 view pixels, 4-6 apart, more than a pure shift allows; the view stayed
    off and every later trick shifted): a shift and turn fitted to them, each card within
    0.06 of a card's length of where it puts it, turning at most :data:`KNOCK_TURN` and
    scaling their places by at most 6 % (the table is seen at a slant: 10509's camera turn
    of 1.2 degrees turned and scaled the cards' places in the view by 2.4 degrees and 4 %),
    or None.
    Two cards alone always fit a shift and turn: they must move alike (a pure shift)."""
    if len(before) < 3:
        return None
    # least squares over all the cards: x' = a x - b y + tx, y' = b x + a y + ty
    rows = np.zeros((2 * len(before), 4))
    rows[0::2] = np.column_stack([before[:, 0], -before[:, 1], np.ones(len(before)), np.zeros(len(before))])  # fmt: skip
    rows[1::2] = np.column_stack([before[:, 1], before[:, 0], np.zeros(len(before)), np.ones(len(before))])  # fmt: skip
    a, b, tx, ty = np.linalg.lstsq(rows, np.asarray(now, np.float64).reshape(-1), rcond=None)[0]
    scale = math.hypot(a, b)
    turn = math.degrees(math.atan2(b, a))
    if abs(scale - 1.0) > 0.06 or abs(turn) > KNOCK_TURN:
        return None  # cards gathered together or spread: no camera's knock
    knock = np.array([[a, -b, tx], [b, a, ty], [0.0, 0.0, 1.0]])
    moved = apply_homography(knock, before)
    if (np.hypot(*(moved - now).T) > 0.06 * ppl).any():
        return None
    return knock


def classifier_reader(model_path: str | None = None, threads: int = 1) -> Reader:
    """The shipped ONNX classifier as a :data:`Reader`."""
    from vision.read.classify import MODEL_PATH, CardClassifier

    clf = CardClassifier(model_path or MODEL_PATH, threads=threads)

    def read(crops: Sequence[np.ndarray]) -> np.ndarray:
        return clf.read_cards(np.stack(list(crops))).probs

    return read
