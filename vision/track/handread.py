"""The plays of a hand read together: which cards are certain, and the camera's revisions.

Why apart from the watcher's loop: one card at a time, a misread early play makes a later
play of its true card look impossible; read together (each card once, :func:`read_hand`),
the doubtful reading gives way. A doubtful reading therefore never rules its card out for
later plays (:func:`sure_cards`), and a card read twice is always revised. A hand that plays
out the whole deck names its one play never seen (:func:`deduce_missed`).
"""

from __future__ import annotations

from rules.cards import Card
from vision.read.decode import CARD_LABELS, Knowledge, hand_log_probability, read_hand
from vision.track.handlog import HandLog

PLAINLY = 0.5
"""A play revised because its card is played twice, whose own reading gave that card at least
this, was read as plainly as the play that keeps the card: one of the two is misread."""

REVISE_MARGIN = 1.4
"""The hand read together must be this much more probable (log, about 4x) than the plays
read one by one before the camera revises an earlier play (unless a card is read twice)."""

CAMERA = "camera: the hand read together"

DEDUCED = "camera: the one card of the deck no other play shows"

SEEN = "camera: seen after all"


def _human(log: HandLog) -> dict[int, Card]:
    return {c.index: c.card for c in log.corrections if not c.by.startswith("camera")}


def sure_cards(log: HandLog) -> frozenset[Card]:
    """Cards played for certain: read without doubt, or named by a person."""
    human = _human(log)
    return frozenset(
        c
        for i, (_, c) in enumerate(log.cards())
        if c is not None
        and (i in human or (log.plays[i].reading is not None and not log.plays[i].confirm))
    )


def revise(log: HandLog, t: float) -> list[str]:
    """Read all plays so far together; where that reading is clearly more probable and
    differs, or the plays as read show a card twice, correct the plays that differ (events
    in the log, by the camera). A card a person named is that play's, beyond any reading:
    no other play is read as it, and the camera never revises that play. Missed plays
    nobody has named stay as they are. A play revised away from a card played twice that it
    was read as plainly (:data:`PLAINLY`) leaves the play keeping that card marked for a
    person too: one of the two is misread, and the hand read together may keep the wrong one
    (fresh seed 10534 light Clabber, bellot, 10 fps: its KD read KD 0.97, the QD two tricks
    later read KD 0.975; the earlier play, right, was revised, the later one, wrong, kept KD
    unmarked). Returns a line per revision."""
    human = _human(log)
    named = frozenset(human.values())
    seen = [p for p in log.plays if not p.missed and p.index not in human]
    if len(seen) < 2:
        return []
    rows = [p.probs[:52] * p.prior for p in seen]
    cards = log.cards()
    current = [c for p in seen if (c := cards[p.index][1]) is not None]
    knowledge = Knowledge(deck=log.spec.deck, elsewhere=log.spec.elsewhere | named)
    best, score = read_hand(rows, knowledge)
    twice = len(set(current)) < len(current) or bool(named & set(current))
    if best == current or (
        not twice and score - hand_log_probability(rows, current) < REVISE_MARGIN
    ):
        return []
    lines = []
    for p, was, now in zip(seen, current, best, strict=True):
        if was != now:
            log.correct(p.index, now, by=CAMERA, t=t)
            why = (
                f"{was} is played twice"
                if current.count(was) > 1 or was in named
                else "the hand read together"
            )
            lines.append(f"play {p.index + 1} revised: {was} -> {now} ({why})")
            if was in named or float(p.probs[CARD_LABELS.index(was)]) < PLAINLY:
                continue
            for q, card in zip(seen, best, strict=True):
                if card == was and q is not p and not q.again_note:
                    q.again_note = (
                        f"play {p.index + 1} was read as {was} too: one of the two is misread"
                    )
    return lines


def deduce_missed(log: HandLog, t: float) -> list[str]:
    """The one play of a hand never seen, named by the deck: when the hand is over (every
    trick closed), its tricks take the whole deck but the cards in no hand (Clabber's 24
    cards, Belote's 32: not Klaberjass's 18 of 32, nor a Clag round that leaves cards
    undealt), and one play alone was never seen, its card is the one card of the deck that
    no other play shows. Named by the camera (a correction), the play stays marked for a
    person to confirm: the name rests on every other play being read right. Never a play a
    person named; made again as other plays are revised (the correction follows them), and
    not at all while any other play is unknown or two plays show one card. Fresh seeds
    10573 (hands Belote, 30 fps: a JH under a resting hand its whole trick) and 10578 (hands
    Clabber, 10 fps: a QC so) had their hand perfect but for that play, marked as missed.
    Returns a line per naming."""
    spec = log.spec
    done, current = log.tricks()
    dealt = spec.deck - spec.elsewhere
    if (
        current
        or len(done) != spec.tricks
        or len(log.plays) != spec.players * spec.tricks
        or len(dealt) != len(log.plays)
    ):
        return []
    human = _human(log)
    unseen = [p.index for p in log.plays if p.missed and p.index not in human]
    if len(unseen) != 1:
        return []
    (index,) = unseen
    cards = log.cards()
    others = [c for i, (_, c) in enumerate(cards) if i != index]
    shown = {c for c in others if c is not None}
    if len(shown) != len(others) or not shown <= dealt:
        return []  # another play unknown, a card shown twice, or one not of the deck
    (card,) = dealt - shown
    if cards[index][1] == card:
        return []
    log.correct(index, card, by=DEDUCED, t=t)
    play = log.plays[index]
    play.deduced_note = f"named {card}: the one card of the deck no other play shows; confirm it"
    return [
        f"play {index + 1} (seat {play.seat}, trick {play.trick}), never seen, {play.deduced_note}"
    ]


def named_by_deck(log: HandLog, index: int) -> bool:
    """Is play ``index``'s card the deck's name for it (:func:`deduce_missed`), no person's
    since?"""
    last = next((c for c in reversed(log.corrections) if c.index == index), None)
    return last is not None and last.by == DEDUCED


def seen_after_all(log: HandLog, index: int, t: float) -> None:
    """Play ``index``, missed, now read into (its card showed once its trick seemed gone):
    where the deck had named it (:func:`deduce_missed`), its reading takes over, as the
    camera's correction (the log's corrections are events, never taken back)."""
    card = log.plays[index].card
    if named_by_deck(log, index) and card is not None and log.cards()[index][1] != card:
        log.correct(index, card, by=SEEN, t=t)
