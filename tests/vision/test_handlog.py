"""The hand log (vision.track.handlog): plays belong to tricks by number, a missed play leaves its
seat and no card, and everything else in the hand stays as it was."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from handlog_helpers import add_play, simulated_hand
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.cards import Card
from rules.records import score_record
from vision.track.games import clabber
from vision.track.handlog import UNKNOWN, HandLog


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 200), which=st.integers(0, 23))
def test_a_missed_play_costs_only_its_own_card(seed: int, which: int) -> None:
    """The camera saw every play but one (seen last in its trick, as the watcher infers it
    once the trick is over): every trick is as dealt, the missed card is written '?', the
    winners and the next turn are the truth's, and a person naming it gives the true record
    and score."""
    spec, tricks, truth = simulated_hand(seed)
    log = HandLog(spec)
    k, j = divmod(which, 4)
    for number, trick in enumerate(tricks, start=1):
        missed = trick[j] if number == k + 1 else None
        for seat, card in trick:
            if (seat, card) != missed:
                add_play(log, seat, card, number)
        if missed is not None:
            add_play(log, missed[0], None, number, leads=j == 0)
    done, current = log.tricks()
    assert not current and len(done) == len(tricks)
    record = log.record()
    expected = [[str(c) for _, c in t] for t in tricks]
    expected[k][j] = UNKNOWN
    assert record["tricks"] == expected
    assert [t.winner for t in done[:-1]] == [t.winner for t in truth_tricks(seed)][:-1]
    assert log.missed() == [next(p.index for p in log.plays if p.card is None)]
    log.correct(log.missed()[0], tricks[k][j][1], by="a person")
    assert log.record()["tricks"] == truth["tricks"]
    assert score_record(log.record())["score"] == score_record(truth)["score"]


def truth_tricks(seed: int) -> list[object]:
    from rules.clabber.simulate import simulate_hand

    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer=seed % 4)
    while sim.state.end != "complete":
        sim = simulate_hand(rng, dealer=seed % 4)
    return list(sim.state.tricks)


def test_a_trick_whose_missed_card_is_last_is_won_by_whoever_leads_next() -> None:
    spec = clabber(3, "9H", "play")  # hearts trump, seat 0 leads
    log = HandLog(spec)
    for seat, card in ((0, "AS"), (1, "9S"), (2, "KS")):
        add_play(log, seat, Card.parse(card), 1)
    add_play(log, 3, None, 1)
    done, _ = log.tricks()
    assert done[0].winner is None and log.to_move() is None  # nothing shows who won yet
    assert log.running_score() == [0, 0]
    add_play(log, 3, Card.parse("JH"), 2)
    done, current = log.tricks()
    assert done[0].winner == 3 and current == [(3, Card.parse("JH"))]
    assert log.to_move() == 0
    # an unknown card shows no void: seat 3's missed card might have been a spade
    assert log.voids(3) == frozenset()


def test_a_missed_lead_leads_its_trick() -> None:
    spec = clabber(3, "9H", "play")
    log = HandLog(spec)
    for seat, card in ((1, "9S"), (2, "KS"), (3, "AS")):
        add_play(log, seat, Card.parse(card), 1)
    add_play(log, 0, None, 1, leads=True)
    done, _ = log.tricks()
    assert done[0].seats == (0, 1, 2, 3)
    assert log.record()["tricks"] == [[UNKNOWN, "9S", "KS", "AS"]]


def test_a_trick_gone_by_unseen_is_every_seat_missed_and_won_by_the_next_leader() -> None:
    """A head in front of the camera throughout trick 2 (bench seed 9601, light Klaberjass):
    the watcher adds the whole trick as missed plays, led by the last winner; the next lead
    shows who won it; a person's names then give the true record and score."""
    spec = clabber(3, "9H", "play")  # hearts trump, seat 0 leads
    log = HandLog(spec)
    for seat, card in ((0, "AS"), (1, "9S"), (2, "KS"), (3, "QS")):
        add_play(log, seat, Card.parse(card), 1)
    missed = log.unseen_trick(0, 5.0, "a trick went by unseen")  # seat 0 won trick 1
    assert [(p.trick, p.seat, p.card) for p in missed] == [(2, s, None) for s in (0, 1, 2, 3)]
    assert all(p.confirm and "went by unseen" in p.reason for p in missed)
    done, current = log.tricks()
    assert len(done) == 2 and done[1].winner is None and not current
    add_play(log, 2, Card.parse("JH"), 3)  # seat 2 leads trick 3: it won trick 2
    done, _ = log.tricks()
    assert done[1].winner == 2 and log.to_move() == 3
    for play, card in zip(missed, ("AD", "10D", "9H", "KD"), strict=True):
        log.correct(play.index, card, by="a person")
    assert log.record()["tricks"][1] == ["AD", "10D", "9H", "KD"]
    with pytest.raises(ValueError, match="in progress"):
        log.unseen_trick(0, 6.0, "again")


def _bench() -> object:
    path = Path(__file__).resolve().parents[2] / "bench" / "watch.py"
    spec = importlib.util.spec_from_file_location("bench_watch", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_compares_plays_by_trick_and_seat_so_a_missed_play_costs_only_itself() -> None:
    compare = _bench().compare  # type: ignore[attr-defined]
    true = [{"seat": s, "card": c} for s, c in [(0, "AS"), (1, "9S"), (2, "KS"), (3, "JH"),
                                                 (3, "9D"), (0, "10D"), (1, "QD"), (2, "AD")]]  # fmt: skip
    seen = [
        {"trick": 1, "seat": 0, "card": "AS"},
        {"trick": 1, "seat": 2, "card": "KS"},
        {"trick": 1, "seat": 3, "card": "JH"},
        {"trick": 1, "seat": 1, "card": None},  # inferred missed
        {"trick": 2, "seat": 3, "card": "9D"},
        {"trick": 2, "seat": 0, "card": "QD"},  # misread
        {"trick": 2, "seat": 1, "card": "QD"},
        {"trick": 2, "seat": 1, "card": "KD"},  # a second card for seat 1: extra
    ]
    c = compare(seen, true, 4)
    assert c["right"] == 5
    assert [(m["trick"], m["seat"]) for m in c["missed"]] == [(1, 1), (2, 2)]
    assert [(m["trick"], m["seat"], m["true"]) for m in c["misread"]] == [(2, 0, "10D")]
    assert [p["card"] for p in c["extra"]] == ["KD"]


def test_plays_are_postable_in_turn_order_up_to_a_missed_play_until_it_is_named() -> None:
    """What a scorer's rules engine can take: a play the camera missed holds back every play
    after it in turn order (seat 2's and 3's cards came before seat 1's gap was known)."""
    spec = clabber(3, "9H", "play")  # seat 0 leads
    log = HandLog(spec)
    for seat, card in ((0, "AS"), (2, "KS"), (3, "JH")):
        add_play(log, seat, Card.parse(card), 1)
    assert log.postable() == [0]  # seat 2 is not next: seat 1 has not been seen
    add_play(log, 1, None, 1)  # the trick closes: seat 1's play inferred missed
    add_play(log, 3, Card.parse("9D"), 2)
    assert log.postable() == [0]
    log.correct(3, Card.parse("9S"), by="a person")
    assert log.postable() == [0, 3, 1, 2, 4]  # trick 1 in seat order, then seat 3 leads


def test_a_trick_led_out_of_turn_is_not_postable() -> None:
    spec = clabber(3, "9H", "play")  # seat 0 leads
    log = HandLog(spec)
    add_play(log, 1, Card.parse("9S"), 1)
    assert log.postable() == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 200))
def test_a_hand_seen_whole_is_postable_whole_in_the_order_it_was_played(seed: int) -> None:
    spec, tricks, _ = simulated_hand(seed)
    log = HandLog(spec)
    for number, trick in enumerate(tricks, start=1):
        for seat, card in trick:
            add_play(log, seat, card, number)
    assert log.postable() == list(range(len(log.plays)))


def test_a_card_read_as_one_played_before_marks_that_play_too() -> None:
    """The classifier reads a held-out design's 8H and 10H alike (fresh seed 9921, light
    Belote): the 8H, read 10H surely, went by unmarked; the 10H played later, read 10H again,
    was named 8H (10H is played) and marked (here Clabber's 9H and 10H). Each card is played
    once, so one of the two is misread: the earlier play is marked too. So it is when the later
    card reads as the played one almost as well as the card named (development seed 10113:
    bellot's AS read AC 0.52 / AS 0.48 after its AC was read AS); a later reading that names
    its card plainly over the played one marks nothing."""
    import numpy as np

    from vision.read.decode import CARD_LABELS, LABELS, PLAYED_RATIO, Knowledge, decode
    from vision.track.handlog import PlayEvent
    from vision.track.handread import sure_cards
    from vision.track.watch import Watcher

    spec = clabber(3, "9S", "play")

    def table() -> Watcher:
        """A watcher whose first trick is 10H, KH, AH, QH (all read surely)."""
        watcher = Watcher(spec, lambda crops: np.zeros((len(crops), len(LABELS))))
        for seat, card in ((0, "10H"), (1, "KH"), (2, "AH"), (3, "QH")):
            add_play(watcher.log, seat, Card.parse(card), 1)
        return watcher

    def play(watcher: Watcher, seat: int, probs: dict[str, float]) -> PlayEvent:
        log = watcher.log
        p = np.full(len(LABELS), 1e-4)
        for label, v in probs.items():
            p[CARD_LABELS.index(Card.parse(label))] = v
        reading = decode(p, Knowledge(deck=spec.deck, played=sure_cards(log)))
        event = PlayEvent(
            index=len(log.plays), seat=seat, card=reading.card, t=9.0, trick=2, reading=reading,
            probs=p, crop=np.zeros((1, 1, 3), np.uint8), quad=np.zeros((4, 2)), track_id=99,
        )  # fmt: skip
        log.plays.append(event)
        watcher._read_again(event)
        return event

    plainly = table()
    plain = play(plainly, 0, {"9H": 0.8, "10H": 0.8 * PLAYED_RATIO / 2})
    assert plain.card == Card.parse("9H") and not plainly.log.plays[0].confirm
    surely = table()
    again = play(surely, 1, {"10H": 0.86, "9H": 0.12})
    assert again.card == Card.parse("9H") and again.confirm
    first = surely.log.plays[0]
    assert first.confirm and f"play {again.index + 1} reads as 10H too" in first.reason
    assert not any(p.confirm for p in surely.log.plays[1:4])
    closely = table()
    close = play(closely, 0, {"9H": 0.45, "10H": 0.4})  # the played 10H read almost as well
    assert close.card == Card.parse("9H") and close.confirm and "played before" in close.reason
    first = closely.log.plays[0]
    assert first.confirm and f"play {close.index + 1} reads as 10H almost as much" in first.reason
    assert not any(p.confirm for p in closely.log.plays[1:4])


def test_a_card_a_person_named_is_never_revised_by_the_camera() -> None:
    """A person names play 1 as 9S; a later play reads 9S beyond doubt (its index, and its
    nine pips counted: every other card made 10,000 times less likely, and the reader sure of
    every card it read). Read together, the
    hand still keeps the person's 9S on play 1; the later play gives way (9S is named), as
    the camera's own revision."""
    import numpy as np

    from vision.read.decode import CARD_LABELS, LABELS
    from vision.read.pips import with_pips
    from vision.track.handread import CAMERA, revise

    spec = clabber(3, "9D", "play")
    log = HandLog(spec)
    for seat, card in ((0, "KS"), (1, "AS"), (2, "9S"), (3, "JS")):
        add_play(log, seat, Card.parse(card), 1)

    def probs(best: str, runner_up: str) -> np.ndarray:
        p = np.full(len(LABELS), 1e-12)  # a sure reader: the other cards all but ruled out
        p[CARD_LABELS.index(Card.parse(best))], p[CARD_LABELS.index(Card.parse(runner_up))] = (
            0.98,
            0.019,
        )
        return p / p.sum()

    log.plays[0].probs = probs("KS", "QS")
    log.plays[1].probs = probs("AS", "10S")
    log.plays[2].probs = with_pips(probs("9S", "10S") ** 3, [9, 9, 9])  # three sure views
    log.plays[3].probs = probs("JS", "QS")
    log.correct(0, "9S", by="referee", t=5.0)
    lines = revise(log, 6.0)
    assert log.cards()[0][1] == Card.parse("9S")
    assert not [c for c in log.corrections if c.index == 0 and c.by == CAMERA]
    assert [c.index for c in log.corrections if c.by == CAMERA] == [2] and len(lines) == 1
    assert "9S is played twice" in lines[0]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 200), which=st.integers(1, 7))
def test_a_lead_seen_after_the_next_card_still_leads(seed: int, which: int) -> None:
    """A trick's lead hidden as it landed (under its player's hand) is seen after the next
    player's card: the record still has the trick from the seat whose turn it was to lead
    (the last trick's winner), its winner and every later trick as dealt (fresh seed 10000
    light Belote: 10C led, AH seen first, the trick recorded from AH)."""
    spec, tricks, truth = simulated_hand(seed)
    log = HandLog(spec)
    for number, trick in enumerate(tricks, start=1):
        seen = [trick[1], trick[0], *trick[2:]] if number == which + 1 else trick
        for seat, card in seen:
            add_play(log, seat, card, number)
    done, current = log.tricks()
    assert not current and len(done) == len(tricks)
    assert log.record()["tricks"] == truth["tricks"]
    assert [t.winner for t in done] == [t.winner for t in truth_tricks(seed)]


def test_the_live_line_of_a_trick_whose_winner_is_not_known_yet() -> None:
    """A trick closed by a missed play may end before any lead shows who won it: the live
    line says so (``trickcam watch`` once died there with a TypeError, fresh seed 10021)."""
    from cli.watch import describe
    from vision.track.handlog import TrickDone, WatchEvent

    spec = clabber(3, "9H", "play")
    open_trick = TrickDone(
        3, (1, 2, 3, 0), (Card.parse("9S"), None, None, Card.parse("KD")), None, 4
    )
    line = describe(WatchEvent("trick", 12.5, trick=open_trick), spec, [10, 20])
    assert "trick 3" in line and "winner not known yet" in line
    won = TrickDone(3, (1, 2, 3, 0), tuple(Card.parse(c) for c in ("9S", "JS", "QS", "KD")), 2, 7)
    assert "won by seat 2 (team 0-2, +7)" in describe(WatchEvent("trick", 12.5, trick=won), spec)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 200), which=st.integers(1, 7))
def test_after_a_trick_with_a_marked_misread_the_seat_seen_first_leads(
    seed: int, which: int
) -> None:
    """A misread that changes a trick's winner makes the watcher expect the wrong seat to
    lead the next trick. When that misread is marked for a person and the next trick's cards
    are seen one after the other clockwise, the seat seen first led it (development seed 10113
    full Belote: a marked AC read AS; seat 2, expected, was taken to have led seat 0's trick
    and its winner went wrong). A sure misread still leaves the expected leader to lead."""
    from vision.read.decode import marked

    spec, tricks, _truth = simulated_hand(seed)
    which = which % (len(tricks) - 1) + 1  # a trick with one after it
    trick = tricks[which - 1]
    cards = [c for _, c in trick]
    winner = spec.winner(cards)
    # the winner misread as a card of another trick that makes another seat win
    wrong = next(
        (
            c
            for t in tricks
            if t is not trick
            for _, c in t
            if spec.winner([c if k == winner else x for k, x in enumerate(cards)]) != winner
        ),
        None,
    )
    assume(wrong is not None)  # a winner no card of another trick dethrones
    truth_leader = trick[winner][0]
    for mark in (True, False):
        log = HandLog(spec)
        for number, t in enumerate(tricks, start=1):
            for seat, card in t:
                add_play(
                    log, seat, wrong if (number == which and seat == truth_leader) else card, number
                )
                if number == which and seat == truth_leader and mark:
                    p = log.plays[-1]
                    assert p.reading is not None
                    p.reading = marked(p.reading, "a look-alike")
        done, current = log.tricks()
        assert not current
        expected = done[which - 1].winner
        assert expected != truth_leader
        nxt = done[which].seats  # the trick after the misread one, as recorded
        if mark:
            assert nxt[0] == truth_leader == tricks[which][0][0]
        else:
            assert nxt[0] == expected


def test_a_card_read_twice_plainly_marks_the_play_that_keeps_it() -> None:
    """Fresh seed 10534 light Clabber (bellot, 10 fps): trick 3's KD read KD 0.97, trick 4's
    QD read KD 0.975. Each card is played once: read together, the hand revised the earlier
    play (the right one) and kept the later play's wrong KD, unmarked. Both were read plainly
    as KD, so one of the two is misread: the play keeping KD is marked for a person too. A
    play revised away from a card it was read as only faintly leaves the keeper as it was."""
    import numpy as np

    from vision.read.decode import CARD_LABELS, LABELS
    from vision.track.handread import revise

    def probs(**cards: float) -> np.ndarray:
        p = np.full(len(LABELS), 1e-6)
        for card, v in cards.items():
            p[CARD_LABELS.index(Card.parse(card))] = v
        return p / p.sum()

    for earlier, marks in (({"KD": 0.971, "10D": 0.012, "QD": 0.009}, True),
                           ({"QD": 0.52, "KD": 0.45}, False)):  # fmt: skip
        log = HandLog(clabber(3, "9H", "play"))
        for seat, card in ((0, "9D"), (1, "KD"), (2, "JD"), (3, "9C")):
            add_play(log, seat, Card.parse(card), 1)
        for seat, card in ((2, "KD"), (3, "AS"), (0, "QS"), (1, "10D")):
            add_play(log, seat, Card.parse(card), 2)
        for p in log.plays:
            p.probs = probs(**{str(p.card): 0.999})
        log.plays[1].probs = probs(**earlier)
        log.plays[4].probs = probs(KD=0.975, KH=0.001, QD=0.0005)
        lines = revise(log, 24.0)
        assert any("KD is played twice" in line for line in lines), lines
        cards = log.cards()
        assert cards[1][1] == Card.parse("QD") and cards[4][1] == Card.parse("KD")
        kept = log.plays[4]
        assert kept.confirm is marks
        if marks:
            assert "play 2 was read as KD too: one of the two is misread" in kept.reason
        assert not any(p.confirm for i, p in enumerate(log.plays) if i not in (1, 4))
