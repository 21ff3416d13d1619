"""Server-side camera for tables whose camera cannot run trickcam: frames in, plays out.

A phone or a webcam posts frames (``POST /api/tables/{id}/frames``); here each frame is
recognised (:class:`vision.read.recognize.Recognizer`: detection and one classifier batch) and fed
to the table's :class:`vision.track.watch.Watcher` (motion gate, card tracker, seats, decoding with
the game's knowledge), exactly what ``trickcam watch`` runs on a camera. Plays the watcher sees
become ``play`` events and its revisions of earlier plays ``correct`` events, appended through
the same store path as a scorer's POST (validated by the rules engine, committed, then
broadcast), with actor ``camera``.

The watcher follows one hand: it is built when the table's current hand is in its play phase
(dealer, face-up card and bidding come from the table's events, posted by the scorer) and
rebuilt when another hand starts. One watcher per table lives in the process (frames of one
table are processed in order under its lock): with several processes, every request under
``/api/tables/{id}/`` must reach the same one (``trickcam serve --workers N --proxy nginx``
hashes the table's id in nginx; see docs/camera.md).

What a person says goes through the watcher too (:meth:`TableCamera.name`): a play the camera
missed is named (then posted, in turn, with the plays it held back), a play read in doubt is
confirmed or corrected (a ``correct`` event); both as the table's scorer. Seats come from the
table's geometry (:meth:`TableCamera.calibrate`: a frame with one card before each player, or an
overhead camera's default, turned so that the chosen player sits at the image's bottom edge).

The classifier is loaded once (at startup when the model file is there, else on the first
frame); a missing model is :class:`CameraUnavailable` (503).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.errors import RulesError
from service.camera_vision import (
    CameraUnavailable,
    CardVision,
    NotAnImage,
    ReaderVision,
    Vision,
    decode_image,
)
from service.games import JSON, FieldError
from service.roles import NotAllowed
from service.store import Appended, IdempotencyMismatch, Store, TableMeta

__all__ = [
    "CameraUnavailable", "Cameras", "CardVision", "FrameResult", "NotAnImage", "NotWatching",
    "ReaderVision", "TableCamera", "Vision", "decode_image",
]  # fmt: skip

FOLLOWED_GAMES = ("clabber", "klaberjass", "belote", "clag")


class NotWatching(RuntimeError):
    """A person's answer about a play the camera does not hold (another hand, no hand)."""


CAMERA_REFUSED_ENV = "TRICKCAM_CAMERA_REFUSED"
"""Set by ``trickcam serve --workers N`` without ``--proxy nginx``: each worker would hold its
own watcher of a table and see only some of its frames, so frames are answered 503 with this
text instead of being read wrong."""


class Cameras:
    """The card model (loaded once) and one :class:`TableCamera` per table."""

    def __init__(self, model: str = "", vision: Vision | None = None) -> None:
        self.model = model
        self._vision: Vision | None = vision
        self._load = threading.Lock()
        self._tables: dict[str, TableCamera] = {}
        self._guard = threading.Lock()

    def vision(self) -> Vision:
        """The loaded model, loading it now if it is not yet (raises CameraUnavailable)."""
        refused = os.environ.get(CAMERA_REFUSED_ENV, "")
        if refused and self._vision is None:
            raise CameraUnavailable(refused)
        with self._load:
            if self._vision is None:
                self._vision = CardVision(self.model)
            return self._vision

    def table(self, table_id: str) -> TableCamera:
        with self._guard:
            return self._tables.setdefault(table_id, TableCamera())

    def existing(self, table_id: str) -> TableCamera | None:
        with self._guard:
            return self._tables.get(table_id)


@dataclass
class FrameResult:
    cards: list[JSON]
    watching: bool
    reason: str
    appended: list[Appended] = field(default_factory=list)
    refused: list[JSON] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wait_ms: int = 1000
    """How long the camera should wait before its next frame (the server's pace)."""


def hand_key(current: JSON, deal_seq: int) -> tuple[Any, ...]:
    """What identifies the hand a watcher follows (a new deal or a changed bidding: anew).

    The first item, the seq of the hand's deal in the table's log, is unique per table for
    ever (a hand's number starts again in every game): it makes the camera's
    Idempotency-Keys, so game 2's plays are never taken for repeats of game 1's."""
    bids = tuple((b.get("seat"), str(b.get("bid"))) for b in current.get("bids") or ())
    return (deal_seq, current.get("number"), current.get("dealer"), current.get("upcard"), bids)


def last_deal_seq(effective: Sequence[tuple[int, JSON]]) -> int:
    """The seq of the latest deal that counts in the table's log (0: none)."""
    for seq, payload in reversed(effective):
        if payload.get("type") == "deal":
            return seq
    return 0


def recorded_plays(
    effective: Sequence[tuple[int, JSON]], deal_seq: int
) -> list[tuple[int, int, str]]:
    """The plays that count in the hand dealt at event ``deal_seq``, in order: ``(seq, seat,
    card)`` (whoever posted them: the camera, a scorer)."""
    return [
        (seq, int(p["seat"]), str(p["card"]))
        for seq, p in effective
        if seq > deal_seq and p.get("type") == "play" and "seat" in p and "card" in p
    ]


def game_spec(game: str, current: JSON | None, players: int = 4) -> tuple[Any, str]:
    """The watcher's :class:`vision.track.games.GameSpec` for the table's current hand, or None
    and the reason it cannot be followed now."""
    from vision.track import games

    if game not in FOLLOWED_GAMES:
        return None, f"the camera follows {', '.join(FOLLOWED_GAMES)} hands; post {game} events"
    if current is None:
        return None, "no hand yet: post the deal (dealer, face-up card) first"
    if current.get("over"):
        return None, "the hand is over: post the next deal"
    if current.get("phase") != "play":
        return None, "the hand is not in its play phase yet: post the bidding first"
    try:
        if game == "clag":
            trump = current.get("trump")
            return games.clag(
                players,
                int(current["round"]),
                int(current["dealer"]),
                current.get("trump_card"),
                "none" if trump is None else str(trump),
                current.get("contracts"),
            ), ""
        calls = [str(b["bid"]) for b in current.get("bids") or ()]
        if game == "clabber":
            return games.clabber(int(current["dealer"]), str(current["upcard"]), calls), ""
        return games.klaberjass(int(current["dealer"]), str(current["upcard"]), calls, game), ""
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        return None, f"the camera cannot follow this hand: {exc}"


WATCH_WAIT_MS = 100
"""The pace asked of a camera while a hand is followed: 10 frames a second at most (a card
lies still 0.2 s before it counts; the watcher looks at most every 0.09 s)."""
SLOW_WAIT_MS = 200
"""... and when a frame took the server long (a busy core): 5 a second."""
IDLE_WAIT_MS = 1000
"""... and while no hand is followed (the deal, the bidding): one a second shows the table."""


class TableCamera:
    """One table's watcher and what it has posted (frames of one table run one at a time)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple[Any, ...] | None = None
        self.watcher: Any = None
        self.geometry: Any = None  # vision.track.table.TableGeometry; None: overhead default
        self.bottom_seat = 0  # with the default: the seat at the image's bottom edge
        self.reason = "no frame yet"
        self.frame_size: tuple[int, int] | None = None
        self.frames = 0
        self.last_frame = 0.0  # time.monotonic() of the latest frame
        self.play_seq: dict[int, int] = {}  # watcher play index -> event seq
        self.posted: dict[int, str] = {}  # watcher play index -> the card posted
        self.evidenced: set[int] = set()  # plays whose doubt is kept for a person
        self.refused: dict[int, str] = {}  # plays the store refused, with the card refused
        self.confirmed: dict[int, str] = {}  # plays a person named or confirmed
        self.corrections = 0
        self.key_base = ""  # the camera's Idempotency-Keys for the hand followed (see _start)

    def seen_lately(self, within_s: float = 30.0) -> bool:
        """Has a frame come in the last ``within_s`` seconds?"""
        return self.frames > 0 and time.monotonic() - self.last_frame < within_s

    def process(
        self,
        cameras: Cameras,
        store: Store,
        meta: TableMeta,
        image: np.ndarray,
        t: float | None,
    ) -> FrameResult:
        vision = cameras.vision()
        started = time.perf_counter()
        with self.lock:
            self.frames += 1
            self.last_frame = time.monotonic()
            self.frame_size = (int(image.shape[1]), int(image.shape[0]))
            snap = store.snapshot(meta)
            current = snap.state.get("current")
            spec, reason = game_spec(meta.game, current, len(meta.players))
            if spec is None:
                from vision.detect.find import detect

                self.key, self.watcher, self.reason = None, None, reason
                return FrameResult(vision.cards(detect(image)), False, reason)
            assert current is not None
            key = hand_key(current, last_deal_seq(snap.effective))
            if key != self.key or self.watcher is None:
                recorded = recorded_plays(snap.effective, key[0])
                self._start(spec, vision.read, key, len(meta.players), recorded, snap.seq)
            self.reason = ""
            events = self.watcher.feed(image, time.monotonic() if t is None else t)
            result = FrameResult(self._tracked(), True, "")
            result.notes.extend(ev.text for ev in events if ev.play is None and ev.text)
            # corrections of plays posted first: a play revised away from a card (read
            # twice) frees that card for the play read as it since, which the rules would
            # refuse while the card stands posted
            self._post_corrections(store, meta, key, result)
            self._post_plays(store, meta, key, result)
            # long on the wall clock: the core is busy (or the frame large): ask for fewer
            busy = time.perf_counter() - started > 0.08
            result.wait_ms = SLOW_WAIT_MS if busy else WATCH_WAIT_MS
            return result

    def _tracked(self) -> list[JSON]:
        """The cards the watcher follows now, in frame pixels, named when they are plays or
        the deal's face-up card (no second reading: the watcher has read them)."""
        w = self.watcher
        cards = w.log.cards()
        out: list[JSON] = []
        for tr in w.tracker.live():
            index = w.play_of_track.get(tr.id)
            name = w.fixture_cards.get(tr.id)
            if index is not None and cards[index][1] is not None:
                name = cards[index][1]
            quad = np.asarray(w.to_image(np.asarray(tr.quad, np.float64).reshape(4, 2)))
            out.append(
                {
                    "card": None if name is None else str(name),
                    "confidence": 0.0,
                    "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
                    "play": index,
                }
            )
        return out

    def _post_plays(
        self, store: Store, meta: TableMeta, key: tuple[Any, ...], result: FrameResult
    ) -> None:
        """The watcher's plays in turn order, as far as they can be (``HandLog.postable``):
        a play the camera missed holds back the plays after it until a person names it. A
        play named by a person is posted as the scorer's; a play read in doubt leaves its
        evidence (the two candidates, the crop) for a person to confirm."""
        log = self.watcher.log
        cards = log.cards()
        for i, seq in self.play_seq.items():
            # a play posted sure, marked since (a later card read as the same): its doubt too
            play = log.plays[i]
            if play.shown_in_doubt and i not in self.confirmed and i not in self.evidenced:
                _keep_evidence(store, meta, seq, play, self.posted[i])
                self.evidenced.add(i)
        for i in log.postable():
            if i in self.play_seq:
                continue
            seat, card = cards[i]
            if self.refused.get(i) == str(card):
                return  # refused as it stands: the plays after it wait for a correction
            payload = {"type": "play", "seat": seat, "card": str(card)}
            # the deal's seq: unique per table for ever (see hand_key)
            key_i = f"{self.key_base}-{i}" + ("" if i not in self.refused else f"-{card}")
            actor = "scorer" if i in self.confirmed else "camera"
            done = self._append(store, meta, payload, key_i, result, actor)
            if done is None:
                self.refused[i] = str(card)
                return
            self.play_seq[i] = done.record.seq
            self.posted[i] = str(card)
            play = log.plays[i]
            if play.shown_in_doubt and i not in self.confirmed and not done.repeated:
                _keep_evidence(store, meta, done.record.seq, play, str(card))
                self.evidenced.add(i)

    def _start(
        self,
        spec: Any,
        reader: Callable[[Sequence[np.ndarray]], np.ndarray],
        key: tuple[Any, ...],
        players: int,
        recorded: Sequence[tuple[int, int, str]] = (),
        table_seq: int = 0,
    ) -> None:
        """A watcher for the hand ``key``, going on from the plays ``recorded`` for it so far
        (a server restarted mid-hand, a frame after a pause): its next play is numbered
        after them, and its Idempotency-Keys name the table's event it started at, so they
        never meet the keys an earlier watcher of the same hand used."""
        from rules.cards import Card
        from vision.track.watch import Watcher

        self.watcher = Watcher(spec, reader, geometry=self.seats(players))
        self.key = key
        self.play_seq = {}
        self.posted = {}
        self.evidenced = set()
        self.refused = {}
        self.confirmed = {}
        self.corrections = 0
        self.key_base = f"camera-d{key[0]}"
        if recorded:
            self.watcher.restore([(seat, Card.parse(card)) for _, seat, card in recorded])
            self.play_seq = {i: seq for i, (seq, _, _) in enumerate(recorded)}
            self.posted = {i: card for i, (_, _, card) in enumerate(recorded)}
            self.key_base = f"camera-d{key[0]}-s{table_seq}"

    def seats(self, players: int) -> Any:
        """The table's geometry: calibrated, or the overhead default turned so that
        ``bottom_seat`` sits at the image's bottom edge."""
        from vision.track.table import TableGeometry, seat_angles_geometry

        if self.geometry is not None and self.geometry.players == players:
            return self.geometry
        step = 360.0 / players
        angles = [0.0] * players
        for j in range(players):
            angles[(self.bottom_seat + j) % players] = 90.0 + j * step
        if self.bottom_seat % players == 0:
            return TableGeometry.default(players)
        return seat_angles_geometry(players, angles)

    def _post_corrections(
        self, store: Store, meta: TableMeta, key: tuple[Any, ...], result: FrameResult
    ) -> None:
        corrections = self.watcher.log.corrections
        for n in range(self.corrections, len(corrections)):
            c = corrections[n]
            seq = self.play_seq.get(c.index)
            if seq is None or self.posted.get(c.index) == str(c.card):
                continue  # not posted yet (it will be, corrected), or posted as it is now
            self.posted[c.index] = str(c.card)
            seat = self.watcher.log.plays[c.index].seat
            payload = {
                "type": "correct",
                "seq": seq,
                "event": {"type": "play", "seat": seat, "card": str(c.card)},
            }
            # the camera's own revisions ("camera: the hand read together", ...) are the
            # camera's; a person's naming (the scorer's tap, --correct) the scorer's
            actor = "camera" if c.by == "" or c.by.startswith("camera") else "scorer"
            self._append(store, meta, payload, f"{self.key_base}-fix-{n}", result, actor)
        self.corrections = len(corrections)

    @staticmethod
    def _append(
        store: Store,
        meta: TableMeta,
        payload: JSON,
        key: str,
        result: FrameResult,
        actor: str = "camera",
    ) -> Appended | None:
        try:
            done = store.append(meta, payload, actor, key)
        except (RulesError, FieldError, IdempotencyMismatch, NotAllowed) as exc:
            message = exc.message if isinstance(exc, FieldError) else str(exc)
            result.refused.append({"event": payload, "detail": message})
            return None
        result.appended.append(done)
        return done

    # -- what a person says -----------------------------------------------------------------
    def name(self, store: Store, meta: TableMeta, deal: int, index: int, card: str) -> FrameResult:
        """A person at the table says play ``index`` of the hand dealt at event ``deal`` was
        ``card``: a missed play is named (and posted, with the plays it held back), a play in
        doubt confirmed (its evidence ruled on) or corrected (a ``correct`` event), as the
        scorer's. :class:`NotWatching` when the camera does not hold that hand here."""
        from rules.cards import Card

        with self.lock:
            if self.watcher is None or self.key is None or self.key[0] != deal:
                raise NotWatching(
                    f"the camera here follows no hand dealt at event {deal}: post the play "
                    "as an event instead"
                )
            log = self.watcher.log
            if not 0 <= index < len(log.plays):
                raise FieldError("index", f"play {index}: the hand has {len(log.plays)} plays")
            named = Card.parse(card)
            result = FrameResult([], True, "")
            self.confirmed[index] = str(named)
            if log.cards()[index][1] != named:
                log.correct(index, named, by="scorer", t=time.monotonic())
                self.refused.pop(index, None)
            self._post_corrections(store, meta, self.key, result)
            self._post_plays(store, meta, self.key, result)
            seq = self.play_seq.get(index)
            if seq is not None:
                _resolve_evidence(store, meta, seq, str(named))
            return result

    def calibrate(
        self, vision: Vision, image: np.ndarray | None, players: int, bottom_seat: int
    ) -> JSON:
        """Seats from a frame with one card face up before each player (or, without a frame,
        an overhead camera's default), ``bottom_seat`` nearest the image's bottom edge. Only
        between hands: a hand being followed keeps the seats it started with."""
        from vision.detect.find import alternative_view, detect_low
        from vision.read.decode import setup_faces
        from vision.track.plane import calibrate_frame
        from vision.track.table import TableGeometry

        with self.lock:
            if self.watcher is not None and self.watcher.log.plays:
                raise NotWatching(
                    "a hand is being followed with the seats it started with: calibrate "
                    "between hands"
                )
            self.bottom_seat = bottom_seat % players
            if image is None:
                self.geometry = None
                self.watcher, self.key = None, None
                return {"calibrated": False, "found": []}

            def is_face(crops: list[np.ndarray]) -> list[tuple[float, int | None]]:
                return setup_faces(vision.read, crops, alternative_view)

            cal = calibrate_frame(image, players, detect_low, 90.0, is_face)
            h, w = image.shape[:2]
            angles = [0.0] * players
            for j in range(players):
                angles[(self.bottom_seat + j) % players] = cal.seat_angles[j]
            self.geometry = TableGeometry(
                players, (0.5, 0.5), tuple(angles),
                tuple(tuple(float(v) for v in row) for row in cal.homography),  # type: ignore[arg-type]
                float(cal.radius), (w, h),
            )  # fmt: skip
            self.watcher, self.key = None, None
            found = [[[round(float(x), 1), round(float(y), 1)] for x, y in q] for q in cal.quads]
            return {"calibrated": True, "found": found, "fit_px": round(float(cal.rms), 2)}


def _keep_evidence(store: Store, meta: TableMeta, seq: int, play: Any, card: str) -> None:
    """A play in doubt (``PlayEvent.shown_in_doubt``): the cards to choose from, why, its crop,
    for a person to rule on (the table's page and the referee's show it until then)."""
    import cv2

    from service.evidence import EvidenceConflict, EvidenceStore

    candidates = play.choices(card)
    ok, png = cv2.imencode(".png", play.crop) if play.crop.size > 3 else (False, None)
    with contextlib.suppress(EvidenceConflict):  # already kept (a frame retried)
        EvidenceStore(store.engine).add(
            meta.id, seq, int(play.seat), card, candidates=candidates, confirm=True,
            reason=play.reason or "read in doubt", crop=bytes(png.tobytes()) if ok else None,
        )  # fmt: skip


def _resolve_evidence(store: Store, meta: TableMeta, seq: int, card: str) -> None:
    from service.evidence import EvidenceConflict, EvidenceStore

    evidence = EvidenceStore(store.engine)
    found = evidence.get(meta.id, seq)
    if found is not None and found.awaiting:
        with contextlib.suppress(EvidenceConflict):
            evidence.resolve(meta.id, seq, card, "scorer")
