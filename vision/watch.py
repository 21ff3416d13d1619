"""The pipeline loop: frames in, plays and tricks out, the hand record at the end.

Per frame only the motion gate runs (a 160-pixel grey copy, a difference, a grid). Detection
runs when the table settles (or now and then while something keeps moving), and the classifier
reads only cards that have just come to rest. Each arrival is then one of:

* a *fixture*: before the first lead, the card the game says lies face up (Clabber's upcard,
  Klaberjass's candidate, Clag's turned trump card) is not a play;
* a *play*: its seat is the side of the table it lies on (the seat to move wins a near tie);
  its card is decoded with the game's knowledge (:mod:`vision.decode`);
* nothing: a card back or something that is not a card.

A trick is complete when every player has played to it, and gathered when its cards have left
the table. A person's correction of a misread play is an event in the log
(:class:`Correction`), and the record is the replay of the log: nothing is edited in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from rules.cards import Card
from vision.decode import (
    CARD_LABELS,
    LABELS,
    DecodeError,
    Knowledge,
    aspect,
    combine,
    decode,
    face_probability,
    hand_log_probability,
    marked,
    one_hot,
    prior,
    read_hand,
    shape_doubt,
    views_doubt,
)
from vision.games import GameSpec
from vision.handlog import HandLog, PlayEvent, WatchEvent
from vision.table import CardTracker, MotionGate, TableGeometry, Track, TrackerTimes

Reader = Callable[[Sequence[np.ndarray]], np.ndarray]
"""Upright card images -> N x 54 probabilities (``CardClassifier.read_cards(...).probs``)."""

REVISE_MARGIN = 1.4
"""The hand read together must be this much more probable (log, about 4x) than the plays
read one by one before the camera revises an earlier play."""

SEAT_TIE_DEGREES = 12.0
"""A card this close (in angle) to the seat to move as to the nearest seat goes to the seat to
move: the card lies near the border of two sides."""


class Watcher:
    """Feed frames; get :class:`WatchEvent` values; ``log`` holds the hand."""

    def __init__(
        self,
        spec: GameSpec,
        reader: Reader,
        geometry: TableGeometry | None = None,
        times: TrackerTimes | None = None,
        detector: Callable[[np.ndarray], object] | None = None,
    ) -> None:
        from vision.detect import detect

        self.spec = spec
        self.reader = reader
        self.geometry = geometry or TableGeometry.default(spec.players)
        if self.geometry.players != spec.players:
            raise ValueError(
                f"the table file has {self.geometry.players} seats; {spec.game} here has {spec.players}"
            )
        self.gate = MotionGate()
        self.tracker = CardTracker(times, replaceable=self._replaceable)
        self.labels: dict[int, int] = {}  # track id -> the label index it was read as
        self.detect = detector or detect
        self.log = HandLog(spec)
        self.fixtures_pending = list(spec.fixtures)
        self.fixture_tracks: set[int] = set()
        self.fixture_cards: dict[int, Card] = {}  # track id -> the face-up card it showed
        self.fixture_places: dict[Card, np.ndarray] = {}
        self.ignored_tracks: set[int] = set()
        self.play_of_track: dict[int, int] = {}
        self.views_read: dict[int, int] = {}  # track id -> how many of its views were read
        self.size = (0, 0)
        self.detections = 0
        self.frames = 0
        self.gathered = 0

    # -- the loop ---------------------------------------------------------------------------
    def feed(self, image: np.ndarray, t: float) -> list[WatchEvent]:
        self.frames += 1
        self.size = (image.shape[1], image.shape[0])
        moved = self.gate.update(image, t)
        self.tracker.note_motion(moved)
        if not self.tracker.wants_detection(self.gate, t):
            return []
        found = self.detect(image)
        self.detections += 1
        arrived, left = self.tracker.update(
            found.quads,
            found.crops,
            found.partial,
            self.gate,
            t,  # type: ignore[attr-defined]
        )
        events: list[WatchEvent] = []
        for tr in arrived:
            events.extend(self._arrived(tr, t))
        for tr in left:
            events.extend(self._left(tr, t))
        if self._look_again():
            events.extend(self._revise(t))
        return events

    def _look_again(self) -> bool:
        """Read the new views of resting played cards; clear ones join the play's evidence.
        True when some play's evidence changed (the hand is then read together again)."""
        changed = False
        for tr in self.tracker.live():
            index = self.play_of_track.get(tr.id)
            seen = self.views_read.get(tr.id, len(tr.crops))
            if index is None or len(tr.crops) <= seen:
                continue
            self.views_read[tr.id] = len(tr.crops)
            play = self.log.plays[index]
            for probs in self.reader(tr.crops[seen:]):
                # only a clear view counts: a hand resting on the card is not evidence
                if face_probability(probs) >= 0.9 and float(probs[:52].max()) >= 0.6:
                    play.views.append(np.asarray(probs, np.float64))
                    play.probs = combine(play.views)
                    changed = True
        return changed

    def _replaceable(self, tr: Track, seen: set[int]) -> bool:
        """A played card may give its place to another only once its trick is complete and
        gathered: none of the trick's other cards is still seen in place."""
        index = self.play_of_track.get(tr.id)
        if index is None:
            return True
        done, _ = self.log.tricks()
        number = self.log.plays[index].trick
        if number > len(done):
            return False
        others = {p.track_id for p in self.log.plays if p.trick == number} - {tr.id}
        return not (others & seen)

    def _arrived(self, tr: Track, t: float) -> list[WatchEvent]:
        probs = combine(self.reader(tr.crops))
        self.labels[tr.id] = int(np.argmax(probs))
        if face_probability(probs) < 0.5:
            self.ignored_tracks.add(tr.id)
            return []
        if self.fixtures_pending and not self.log.plays:
            fixture = self._fixture(tr, probs, t)
            if fixture is not None:
                return [fixture]
        back = self._seen_again(tr, probs, t)
        if back is not None:
            return back
        if self.complete:
            return [
                WatchEvent(
                    "note",
                    t,
                    text=f"a card ({LABELS[self.labels[tr.id]]}) after the hand is over: not a play",
                )
            ]
        try:
            played = self._play(tr, probs, t)
            return [played, *self._revise(t), *self._trick_events(t)]
        except DecodeError as exc:
            return [WatchEvent("note", t, text=f"a card that cannot be read as a play: {exc}")]

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
        if leader != self.spec.dealer and self.geometry.seat_of(tr.centre, self.size) != leader:
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
        self.fixture_cards[tr.id] = card
        self.fixture_places[card] = tr.centre

    def _revise(self, t: float) -> list[WatchEvent]:
        """Read all plays so far together (each card once); where that reading is clearly
        more probable and differs, the camera corrects earlier plays, as events."""
        plays = self.log.plays
        if len(plays) < 2:
            return []
        human = {c.index: c.card for c in self.log.corrections if not c.by.startswith("camera")}
        rows = [
            one_hot(human[p.index], 1 - 1e-6)[:52] if p.index in human else p.probs[:52] * p.prior
            for p in plays
        ]
        current = [card for _, card in self.log.cards()]
        knowledge = Knowledge(deck=self.spec.deck, elsewhere=self.spec.elsewhere)
        best, score = read_hand(rows, knowledge)
        if best == current or score - hand_log_probability(rows, current) < REVISE_MARGIN:
            return []
        events = []
        for i, (was, now) in enumerate(zip(current, best, strict=True)):
            if was != now:
                self.log.correct(i, now, by="camera: the hand read together", t=t)
                events.append(
                    WatchEvent(
                        "revised",
                        t,
                        text=f"play {i + 1} revised: {was} -> {now} (the hand read together)",
                    )
                )
        return events

    def _seen_again(self, tr: Track, probs: np.ndarray, t: float) -> list[WatchEvent] | None:
        """A card already played, back in view (a hand lifted off it, or a trick not yet
        gathered pushed about): the same play again, never a new one."""
        best = int(np.argmax(probs[: len(CARD_LABELS)]))
        card = CARD_LABELS[best]
        fixture_again = card in self.spec.elsewhere or self._near(tr, self.fixture_places.get(card))
        if probs[best] >= 0.5 and fixture_again:
            self.fixture_tracks.add(tr.id)
            text = f"{card}, the face-up card of the deal, is in view again"
            return [WatchEvent("note", t, text=text)]
        for play in reversed(self.log.plays):
            if play.card != card or probs[best] < 0.5:
                continue
            near = float(np.hypot(*(tr.centre - np.asarray(play.quad).reshape(4, 2).mean(axis=0))))
            if near < 0.6 * np.sqrt(max(tr.area, 1.0)):
                self.play_of_track[tr.id] = play.index
                play.track_id = tr.id
                text = f"{card} (play {play.index + 1}) is in view again"
                if play.trick <= self.gathered:  # it was covered, not gathered
                    self.gathered = play.trick - 1
                    text += f": trick {play.trick} is still on the table"
                return [WatchEvent("note", t, text=text)]
        return None

    @staticmethod
    def _near(tr: Track, place: np.ndarray | None) -> bool:
        if place is None:
            return False
        return float(np.hypot(*(tr.centre - place))) < 0.6 * np.sqrt(max(tr.area, 1.0))

    def _seat(self, tr: Track) -> tuple[int, str]:
        dist = self.geometry.distances(tr.centre, self.size)
        nearest = int(np.argmin(dist))
        turn = self.log.to_move()
        _done, current = self.log.tricks()
        played = {s for s, _ in current}
        if (
            nearest != turn
            and dist[turn] - dist[nearest] <= SEAT_TIE_DEGREES
            and turn not in played
        ):
            return turn, ""
        if nearest in played:
            return (
                turn,
                f"a card on seat {nearest}'s side, which has played to this trick: given to seat {turn}",
            )
        return nearest, ""

    def _play(self, tr: Track, probs: np.ndarray, t: float) -> WatchEvent:
        seat, note = self._seat(tr)
        played = frozenset(c for _, c in self.log.cards())
        knowledge = Knowledge(
            deck=self.spec.deck,
            played=played,
            elsewhere=self.spec.elsewhere,
            void=self.log.voids(seat),
            wild_twos=self.spec.wild_twos,
        )
        views = [np.asarray(r, np.float64) for r in self.reader(tr.crops)]
        others = [aspect(p.quad) for p in self.log.plays]
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
            index=len(self.log.plays),
            seat=seat,
            card=reading.card,
            t=tr.first_seen,
            trick=len(done) + 1,
            reading=reading,
            probs=probs,
            crop=tr.crops[-1],
            quad=np.asarray(tr.quad),
            track_id=tr.id,
            seat_note=note,
            prior=prior(void_only),
        )
        self.log.plays.append(play)
        self.play_of_track[tr.id] = play.index
        self.views_read[tr.id] = len(tr.crops)
        play.views = views
        return WatchEvent("play", t, play=play)

    def _trick_events(self, t: float) -> list[WatchEvent]:
        done, current = self.log.tricks()
        if not current and done and len(done) * self.spec.players == len(self.log.plays):
            return [WatchEvent("trick", t, trick=done[-1])]
        return []

    def _left(self, tr: Track, t: float) -> list[WatchEvent]:
        if tr.id in self.fixture_tracks:
            return [WatchEvent("note", t, text="the face-up card was taken up")]
        index = self.play_of_track.get(tr.id)
        if index is None:
            return []
        done, _ = self.log.tricks()
        number = self.log.plays[index].trick
        trick_ids = [p.track_id for p in self.log.plays if p.trick == number]
        gone = {i for i in trick_ids if all(tt.id != i for tt in self.tracker.live())}
        if number <= len(done) and len(gone) == len(trick_ids) and number > self.gathered:
            self.gathered = number
            trick = done[number - 1]
            trick.gathered = True
            return [WatchEvent("gathered", t, trick=trick)]
        return []

    @property
    def complete(self) -> bool:
        done, current = self.log.tricks()
        return len(done) >= self.spec.tricks and not current


def classifier_reader(model_path: str | None = None, threads: int = 1) -> Reader:
    """The shipped ONNX classifier as a :data:`Reader`."""
    from vision.classify import MODEL_PATH, CardClassifier

    clf = CardClassifier(model_path or MODEL_PATH, threads=threads)

    def read(crops: Sequence[np.ndarray]) -> np.ndarray:
        return clf.read_cards(np.stack(list(crops))).probs

    return read
