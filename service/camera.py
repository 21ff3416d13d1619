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
table are processed in order under its lock); with several workers a camera should keep its
connection to one worker (a keep-alive connection does).

The classifier is loaded once (at startup when the model file is there, else on the first
frame); a missing model is :class:`CameraUnavailable` (503).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from rules.errors import RulesError
from service.games import JSON, FieldError
from service.roles import NotAllowed
from service.store import Appended, IdempotencyMismatch, Store, TableMeta

FOLLOWED_GAMES = ("clabber", "klaberjass", "belote", "clag")


class CameraUnavailable(RuntimeError):
    """The card model cannot be loaded (its message says which file and why)."""


class NotAnImage(ValueError):
    """The upload is not an image OpenCV can decode."""


def decode_image(data: bytes) -> np.ndarray:
    """BGR pixels of an encoded image (JPEG, PNG, WebP, BMP...); :class:`NotAnImage` for
    anything the decoder cannot read, whatever the decoder raised. Check the size its header
    declares first (:func:`service.image_header.image_size`): decoding allocates all of it."""
    import cv2

    if not data:
        raise NotAnImage("the upload is empty: expected an image (JPEG, PNG, WebP)")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:  # a header it refuses, a broken stream: the upload's fault
        reason = str(exc).strip().splitlines()[-1][:200]
        raise NotAnImage(
            f"the upload ({len(data)} bytes) could not be decoded as an image ({reason})"
        ) from None
    if image is None or image.size == 0:
        raise NotAnImage(
            f"the upload ({len(data)} bytes, starting {data[:8]!r}) is not an image OpenCV "
            "can decode: expected JPEG, PNG or WebP"
        )
    return np.ascontiguousarray(image)


class Vision(Protocol):
    """What the camera needs of a card model: the cards of a frame's detections, and the
    watcher's reader (upright card images -> N x 54 probabilities)."""

    def cards(self, detections: Any) -> list[JSON]: ...

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray: ...


class CardVision:
    """The loaded classifier, as a whole-frame recogniser and as the watcher's card reader."""

    def __init__(self, model: str = "") -> None:
        from vision.read.classify import MODEL_PATH, CardClassifier, ModelError
        from vision.read.recognize import Recognizer

        try:
            self.classifier = CardClassifier(model or MODEL_PATH)
        except ModelError as exc:
            raise CameraUnavailable(
                f"the frames endpoint needs the card model: {exc} "
                "(train it with `trickcam train`, or set TRICKCAM_MODEL)"
            ) from None
        self.recognizer = Recognizer(self.classifier)

    def cards(self, detections: Any) -> list[JSON]:
        from vision.read.recognize import finds_from

        return [f.to_json() for f in finds_from(detections, self.classifier.classify(detections))]

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        return np.asarray(self.classifier.read_cards(np.stack(list(crops))).probs)


class ReaderVision:
    """Any :data:`vision.track.watch.Reader` as the camera's model: e.g. a reader that knows one
    rendered deck's faces (``vision.render.tablevideo.deck_reader``), for demos and for testing the
    server-side watcher apart from the classifier."""

    def __init__(self, reader: Callable[[Sequence[np.ndarray]], np.ndarray]) -> None:
        self.reader = reader

    def cards(self, detections: Any) -> list[JSON]:
        from vision.read.decode import LABELS

        if len(detections.crops) == 0:
            return []
        probs = np.asarray(self.read(list(detections.crops)))
        out = []
        for quad, row in zip(detections.quads, probs, strict=True):
            best = LABELS[int(np.argmax(row))]
            if best == "none":
                continue
            out.append(
                {
                    "card": best if best != "back" else None,
                    "confidence": round(float(row.max()), 4),
                    "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
                }
            )
        return out

    def read(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        return np.asarray(self.reader(list(crops)))


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
        with self._load:
            if self._vision is None:
                self._vision = CardVision(self.model)
            return self._vision

    def table(self, table_id: str) -> TableCamera:
        with self._guard:
            return self._tables.setdefault(table_id, TableCamera())


@dataclass
class FrameResult:
    cards: list[JSON]
    watching: bool
    reason: str
    appended: list[Appended] = field(default_factory=list)
    refused: list[JSON] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


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


class TableCamera:
    """One table's watcher and what it has posted (frames of one table run one at a time)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple[Any, ...] | None = None
        self.watcher: Any = None
        self.play_seq: dict[int, int] = {}  # watcher play index -> event seq
        self.posted: dict[int, str] = {}  # watcher play index -> the card posted
        self.refused: dict[int, str] = {}  # plays the store refused, with the card refused
        self.corrections = 0

    def process(
        self,
        cameras: Cameras,
        store: Store,
        meta: TableMeta,
        image: np.ndarray,
        t: float | None,
    ) -> FrameResult:
        vision = cameras.vision()
        with self.lock:
            from vision.detect.find import detect

            detections = detect(image)
            cards = vision.cards(detections)
            snap = store.snapshot(meta)
            current = snap.state.get("current")
            spec, reason = game_spec(meta.game, current, len(meta.players))
            if spec is None:
                self.key, self.watcher = None, None
                return FrameResult(cards, False, reason)
            assert current is not None
            key = hand_key(current, last_deal_seq(snap.effective))
            if key != self.key or self.watcher is None:
                self._start(spec, vision.read, key)
            self.watcher.detect = _once(detections)  # detection runs once a frame
            events = self.watcher.feed(image, time.monotonic() if t is None else t)
            result = FrameResult(cards, True, "")
            result.notes.extend(ev.text for ev in events if ev.play is None and ev.text)
            self._post_plays(store, meta, key, result)
            self._post_corrections(store, meta, key, result)
            return result

    def _post_plays(
        self, store: Store, meta: TableMeta, key: tuple[Any, ...], result: FrameResult
    ) -> None:
        """The watcher's plays in turn order, as far as they can be (``HandLog.postable``):
        a play the camera missed holds back the plays after it until a person names it."""
        log = self.watcher.log
        cards = log.cards()
        for i in log.postable():
            if i in self.play_seq:
                continue
            seat, card = cards[i]
            if self.refused.get(i) == str(card):
                return  # refused as it stands: the plays after it wait for a correction
            payload = {"type": "play", "seat": seat, "card": str(card)}
            # the deal's seq: unique per table for ever (see hand_key)
            key_i = f"camera-d{key[0]}-{i}" + ("" if i not in self.refused else f"-{card}")
            done = self._append(store, meta, payload, key_i, result)
            if done is None:
                self.refused[i] = str(card)
                return
            self.play_seq[i] = done.record.seq
            self.posted[i] = str(card)

    def _start(
        self, spec: Any, reader: Callable[[Sequence[np.ndarray]], np.ndarray], key: tuple[Any, ...]
    ) -> None:
        from vision.track.watch import Watcher

        self.watcher = Watcher(spec, reader)
        self.key = key
        self.play_seq = {}
        self.posted = {}
        self.refused = {}
        self.corrections = 0

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
            self._append(store, meta, payload, f"camera-d{key[0]}-fix-{n}", result)
        self.corrections = len(corrections)

    @staticmethod
    def _append(
        store: Store, meta: TableMeta, payload: JSON, key: str, result: FrameResult
    ) -> Appended | None:
        try:
            done = store.append(meta, payload, "camera", key)
        except (RulesError, FieldError, IdempotencyMismatch, NotAllowed) as exc:
            message = exc.message if isinstance(exc, FieldError) else str(exc)
            result.refused.append({"event": payload, "detail": message})
            return None
        result.appended.append(done)
        return done


def _once(detections: Any) -> Callable[[np.ndarray], Any]:
    """The frame's detections, already computed, as the watcher's detector."""
    return lambda _image: detections
